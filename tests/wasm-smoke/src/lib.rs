//! A WebAssembly module for `run.mjs` and `chains.mjs`, with the interface a web renderer would
//! use, without wasm-bindgen and with no imports: compile a payload once, then evaluate it as
//! often as wanted; a tool call suspends the evaluation, the host calls the tool with its own
//! MCP client and hands the `CallToolResult` back, its text blocks as UTF-8 bytes written
//! straight into linear memory (`module.mjs` is the JavaScript side).
//!
//! Exports (statuses: 0 done, 1 the payload failed, 2 the request is not usable, 3 waiting):
//! - [`input`]`(len)`: a buffer of `len` bytes for the next request (JSON, or a pointer).
//! - [`output_ptr`] / [`output_len`]: the last answer, JSON.
//! - [`compile`]: the payload (JSON in the input) compiled; a handle (> 0), or -1 when it does
//!   not compile, -2 when the input is not JSON (the output says why). [`release`] drops it.
//! - [`model_set`]: the data model (JSON in the input) replaces the current one.
//! - [`model_read`]: the value at the JSON pointer in the input, as JSON in the output.
//! - [`evaluate`]`(handle)`: evaluates at the root of the model. Done, the output is
//!   `{"value"}`; failed, `{"error": {"code", "message", "location"}}`; waiting, the output is
//!   `{"tool": {"name", "arguments"}}` or `{"resource": {"uri"}}`.
//! - [`text_buffer`]`(len)` / [`text_grow`]`(len)`: a new buffer for one text block, and the
//!   last one grown (its bytes kept); [`answer`]: the input is
//!   `{"result", "texts": [[block index, length], …]}`, the result without the text of those
//!   blocks, which are the text buffers in order; [`fail`]: the call failed (the input is
//!   why). Both resume the evaluation and answer as [`evaluate`] does.
//!
//! Only pointers cross the boundary, never dereferenced here: the host writes and reads the
//! buffers' bytes, which stay owned by the module's `Vec`s between calls.

use a2ui_catalog_mcp::mcp::{AllowAll, AuditEvent, BoxFuture, HostError, McpHost, ToolClient};
use a2ui_catalog_mcp::{Environment, Error, JsonPointer, Payload, SharedModel};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

const DONE: u32 = 0;
const FAILED: u32 = 1;
const BAD_REQUEST: u32 = 2;
const WAITING: u32 = 3;

type Evaluation = Pin<Box<dyn Future<Output = Result<Value, Error>>>>;

/// Everything the module keeps between calls. WebAssembly without threads runs one call at a
/// time, so one per thread is one per instance.
struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    /// The text blocks of the next answer, in the order of its `texts`.
    texts: Vec<Vec<u8>>,
    /// Handle `h` is `payloads[h - 1]`; released ones are `None`.
    payloads: Vec<Option<Arc<Payload>>>,
    model: Arc<SharedModel<Value>>,
    host: Arc<McpHost>,
    exchange: Arc<Mutex<Exchange>>,
    /// The evaluation waiting for its host, if any.
    waiting: Option<Evaluation>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::new());
}

impl State {
    fn new() -> State {
        let exchange = Arc::new(Mutex::new(Exchange::default()));
        // A policy and an audit sink too: the audit's stopwatch has no clock here, and must not
        // need one.
        let host = McpHost::new(Arc::new(Relay(exchange.clone())) as Arc<dyn ToolClient>)
            .with_policy(AllowAll)
            .with_audit(|event: &AuditEvent| assert!(event.duration.is_none()));
        State {
            input: Vec::new(),
            output: Vec::new(),
            texts: Vec::new(),
            payloads: Vec::new(),
            model: Arc::new(SharedModel::new(json!({}))),
            host: Arc::new(host),
            exchange,
            waiting: None,
        }
    }

    fn answer(&mut self, status: u32, answer: &Value) -> u32 {
        write_json(&mut self.output, answer);
        status
    }

    fn bad_request(&mut self, message: impl std::fmt::Display) -> u32 {
        let answer = json!({"error": {"code": "BAD_REQUEST", "message": message.to_string()}});
        self.answer(BAD_REQUEST, &answer)
    }

    fn input_json(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_slice(&self.input)
    }

    /// Polls the waiting evaluation: the host answered, or it has just started.
    fn poll(&mut self) -> u32 {
        let Some(evaluation) = self.waiting.as_mut() else {
            return self.bad_request("no evaluation is waiting");
        };
        match evaluation
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(result) => {
                self.waiting = None;
                match result {
                    Ok(value) => self.answer(DONE, &json!({"value": value})),
                    Err(e) => self.answer(FAILED, &error_json(&e)),
                }
            }
            Poll::Pending => {
                let request = lock(&self.exchange).request.take();
                match request {
                    Some(Request::Tool { name, arguments }) => self.answer(
                        WAITING,
                        &json!({"tool": {"name": name, "arguments": arguments}}),
                    ),
                    Some(Request::Resource { uri }) => {
                        self.answer(WAITING, &json!({"resource": {"uri": uri}}))
                    }
                    None => {
                        // Only the relay's calls suspend an evaluation here; anything else would
                        // never be woken.
                        self.waiting = None;
                        self.bad_request("the evaluation waited for something other than its host")
                    }
                }
            }
        }
    }

    /// The answer's result with its text blocks put back, or why it cannot be.
    fn result_with_texts(&mut self) -> Result<Value, String> {
        let texts = std::mem::take(&mut self.texts);
        let mut request = self.input_json().map_err(|e| e.to_string())?;
        let lengths: Vec<(usize, usize)> = request
            .get("texts")
            .map(|t| serde_json::from_value(t.clone()))
            .transpose()
            .map_err(|e| format!("texts: {e}"))?
            .unwrap_or_default();
        let mut result = request
            .get_mut("result")
            .map(Value::take)
            .unwrap_or(Value::Null);
        if lengths.len() != texts.len() {
            return Err(format!(
                "{} texts listed, {} text buffers written",
                lengths.len(),
                texts.len()
            ));
        }
        for ((block, length), mut bytes) in lengths.into_iter().zip(texts) {
            if length > bytes.len() {
                return Err(format!(
                    "text of block {block}: {length} bytes listed, {} written",
                    bytes.len()
                ));
            }
            bytes.truncate(length);
            // The buffer becomes the string without a copy; checking it is UTF-8 is one pass.
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("text of block {block} is not UTF-8: {e}"))?;
            let slot = result
                .get_mut("content")
                .and_then(|c| c.get_mut(block))
                .and_then(Value::as_object_mut)
                .ok_or_else(|| format!("content[{block}] is not an object of the result"))?;
            slot.insert("text".to_owned(), Value::String(text));
        }
        Ok(result)
    }
}

/// `value` as JSON text in `out`: straight into the bytes (`to_string` would go through the
/// formatting machinery), reusing the buffer's room.
fn write_json(out: &mut Vec<u8>, value: &Value) {
    out.clear();
    if let Err(e) = serde_json::to_writer(&mut *out, value) {
        // A `Value` always serializes (its keys are strings); should that change, the host
        // still gets JSON that says what happened.
        out.clear();
        let message = format!("the answer could not be written as JSON: {e}");
        out.extend_from_slice(
            json!({"error": {"code": "INTERNAL", "message": message}})
                .to_string()
                .as_bytes(),
        );
    }
}

fn error_json(e: &Error) -> Value {
    json!({"error": {"code": e.code().as_str(), "message": e.message(), "location": e.location()}})
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn with<T>(f: impl FnOnce(&mut State) -> T) -> T {
    STATE.with(|state| f(&mut state.borrow_mut()))
}

/// A buffer of `len` zero bytes for the next request; its address in linear memory.
// Exported under its own name: that is the module's interface, and only the host calls it.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    with(|state| {
        state.input.clear();
        state.input.resize(len, 0);
        state.input.as_mut_ptr()
    })
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn output_ptr() -> *const u8 {
    with(|state| state.output.as_ptr())
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn output_len() -> usize {
    with(|state| state.output.len())
}

/// Compiles the payload in the input with the environment: its handle, or -1 (does not
/// compile) or -2 (not JSON), the output saying why.
#[unsafe(no_mangle)]
pub extern "C" fn compile() -> i32 {
    with(|state| {
        let payload = match state.input_json() {
            Ok(payload) => payload,
            Err(e) => return -(state.bad_request(e) as i32),
        };
        match environment().compile(&payload) {
            Ok(compiled) => {
                state.payloads.push(Some(Arc::new(compiled)));
                i32::try_from(state.payloads.len()).unwrap_or(-(BAD_REQUEST as i32))
            }
            Err(e) => -(state.answer(FAILED, &error_json(&e)) as i32),
        }
    })
}

/// Drops a compiled payload (an evaluation of it that is waiting keeps it until it ends).
#[unsafe(no_mangle)]
pub extern "C" fn release(handle: u32) -> u32 {
    with(
        |state| match slot(handle).and_then(|i| state.payloads.get_mut(i)) {
            Some(payload @ Some(_)) => {
                *payload = None;
                DONE
            }
            _ => state.bad_request(format!("no payload {handle}")),
        },
    )
}

fn slot(handle: u32) -> Option<usize> {
    usize::try_from(handle).ok()?.checked_sub(1)
}

/// Replaces the data model with the JSON in the input.
#[unsafe(no_mangle)]
pub extern "C" fn model_set() -> u32 {
    with(|state| match state.input_json() {
        Ok(data) => {
            *state.model.lock() = data;
            DONE
        }
        Err(e) => state.bad_request(e),
    })
}

/// The value at the JSON pointer in the input (`null` where there is none), as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn model_read() -> u32 {
    with(|state| {
        let pointer = match std::str::from_utf8(&state.input) {
            Ok(pointer) if pointer.is_empty() || pointer.starts_with('/') => pointer.to_owned(),
            _ => return state.bad_request("the input is not a JSON pointer"),
        };
        let model = state.model.clone();
        let locked = model.lock();
        let value = locked.pointer(&pointer).unwrap_or(&Value::Null);
        write_json(&mut state.output, value);
        DONE
    })
}

/// Starts evaluating a compiled payload at the root of the data model (an evaluation still
/// waiting is cancelled: nothing more of it is written).
#[unsafe(no_mangle)]
pub extern "C" fn evaluate(handle: u32) -> u32 {
    with(|state| {
        let Some(payload) = slot(handle).and_then(|i| state.payloads.get(i)?.clone()) else {
            return state.bad_request(format!("no payload {handle}"));
        };
        state.waiting = None;
        *lock(&state.exchange) = Exchange::default();
        state.texts.clear();
        let (model, host) = (state.model.clone(), state.host.clone());
        state.waiting = Some(Box::pin(async move {
            let root = JsonPointer::root();
            payload.eval_async(&model, &root, &host).await
        }));
        state.poll()
    })
}

/// A buffer of `len` zero bytes for the next text block of an answer; its address.
#[unsafe(no_mangle)]
pub extern "C" fn text_buffer(len: usize) -> *mut u8 {
    with(|state| {
        state.texts.push(vec![0; len]);
        state
            .texts
            .last_mut()
            .map_or(std::ptr::null_mut(), Vec::as_mut_ptr)
    })
}

/// The last text buffer grown to `len` bytes, what was written kept; its (new) address.
#[unsafe(no_mangle)]
pub extern "C" fn text_grow(len: usize) -> *mut u8 {
    with(|state| match state.texts.last_mut() {
        Some(text) => {
            text.resize(len.max(text.len()), 0);
            text.as_mut_ptr()
        }
        None => std::ptr::null_mut(),
    })
}

/// The host's answer to the waiting call (the input, with the text buffers); resumes.
#[unsafe(no_mangle)]
pub extern "C" fn answer() -> u32 {
    with(|state| {
        if state.waiting.is_none() {
            state.texts.clear();
            return state.bad_request("no evaluation is waiting");
        }
        match state.result_with_texts() {
            Ok(result) => {
                lock(&state.exchange).answer = Some(Ok(result));
                state.poll()
            }
            Err(why) => state.bad_request(format!("the answer is not usable: {why}")),
        }
    })
}

/// The waiting call failed (the input says why, as text); resumes.
#[unsafe(no_mangle)]
pub extern "C" fn fail() -> u32 {
    with(|state| {
        if state.waiting.is_none() {
            return state.bad_request("no evaluation is waiting");
        }
        let why = String::from_utf8_lossy(&state.input).into_owned();
        lock(&state.exchange).answer = Some(Err(HostError::from(why)));
        state.poll()
    })
}

/// The MCP catalog; with the feature `basic`, the basic catalog too.
fn environment() -> Environment {
    #[cfg_attr(not(feature = "basic"), allow(unused_mut))]
    let mut env = Environment::new();
    #[cfg(feature = "basic")]
    env.add_catalog(a2ui_catalog_mcp::basic::BasicCatalog::new().build());
    env
}

/// What the evaluation asked its host for.
enum Request {
    Tool { name: String, arguments: Value },
    Resource { uri: String },
}

/// Between the relay and the exports: the call that suspended the evaluation, and the host's
/// answer to it.
#[derive(Default)]
struct Exchange {
    request: Option<Request>,
    answer: Option<Result<Value, HostError>>,
}

/// The evaluation's MCP client: it hands each call to the host and waits for its answer.
struct Relay(Arc<Mutex<Exchange>>);

impl Relay {
    fn relay(&self, request: Request) -> BoxFuture<'static, Result<Value, HostError>> {
        let exchange = self.0.clone();
        let mut request = Some(request);
        Box::pin(std::future::poll_fn(move |_| {
            let mut exchange = lock(&exchange);
            if let Some(request) = request.take() {
                exchange.request = Some(request);
                return Poll::Pending;
            }
            match exchange.answer.take() {
                Some(answer) => Poll::Ready(answer),
                None => Poll::Pending,
            }
        }))
    }
}

impl ToolClient for Relay {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        _meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        self.relay(Request::Tool {
            name: name.to_owned(),
            arguments: arguments.clone(),
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        self.relay(Request::Resource {
            uri: uri.to_owned(),
        })
    }
}
