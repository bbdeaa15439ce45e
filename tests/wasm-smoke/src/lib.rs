//! A WebAssembly module for `run.mjs`: JSON in, JSON out, through linear memory, with no
//! imports. The host (Node) asks [`input`] for a buffer of `len` bytes, writes a request there,
//! calls [`run`], and reads the answer at [`output_ptr`] / [`output_len`].
//!
//! A request is `{"payload", "data", "tools"}`: the payload is compiled with the default
//! environment and evaluated at the root of `data`; `callMcpTool` calls reach a scripted server
//! whose answer to a tool is `tools[name]` (a `CallToolResult`). The answer is
//! `{"model": data after}` or `{"error": {"code", "message", "location"}}`.
//!
//! Only pointers cross the boundary, never dereferenced here: Node writes and reads the buffers'
//! bytes, which stay owned by the two `Vec`s below between calls.

use a2ui_catalog_mcp::mcp::{AllowAll, AuditEvent, BoxFuture, HostError, McpHost, ToolClient};
use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::{Environment, Error, JsonPointer};
use serde_json::{Map, Value, json};
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

static INPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static OUTPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// A buffer of `len` zero bytes for the next request; its address in linear memory.
// Exported under its own name: that is the module's interface, and only Node calls it.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    let mut buffer = INPUT.lock().unwrap_or_else(PoisonError::into_inner);
    buffer.clear();
    buffer.resize(len, 0);
    buffer.as_mut_ptr()
}

/// Runs the request in the input buffer: 0 when the payload evaluated, 1 when it failed (the
/// output says why), 2 when the request itself is not usable.
#[unsafe(no_mangle)]
pub extern "C" fn run() -> u32 {
    let request = INPUT.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let (status, answer) = match serde_json::from_slice::<Value>(&request) {
        Ok(request) => match evaluate(request) {
            Ok(model) => (0, json!({"model": model})),
            Err(e) => (
                1,
                json!({"error": {"code": e.code().as_str(), "message": e.message(),
                                 "location": e.location()}}),
            ),
        },
        Err(e) => (2, json!({"error": {"code": "BAD_REQUEST", "message": e.to_string()}})),
    };
    *OUTPUT.lock().unwrap_or_else(PoisonError::into_inner) = answer.to_string().into_bytes();
    status
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn output_ptr() -> *const u8 {
    OUTPUT.lock().unwrap_or_else(PoisonError::into_inner).as_ptr()
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn output_len() -> usize {
    OUTPUT.lock().unwrap_or_else(PoisonError::into_inner).len()
}

/// The MCP catalog; with the feature `basic`, the basic catalog too.
fn environment() -> Environment {
    #[cfg_attr(not(feature = "basic"), allow(unused_mut))]
    let mut env = Environment::new();
    #[cfg(feature = "basic")]
    env.add_catalog(a2ui_catalog_mcp::basic::BasicCatalog::new().build());
    env
}

fn evaluate(mut request: Value) -> Result<Value, Error> {
    let payload = request.get("payload").cloned().unwrap_or(Value::Null);
    let data = request.get_mut("data").map(Value::take).unwrap_or(json!({}));
    let tools = match request.get_mut("tools").map(Value::take) {
        Some(Value::Object(tools)) => tools,
        _ => Map::new(),
    };
    let compiled = environment().compile(&payload)?;
    // A policy and an audit sink too: the audit's stopwatch has no clock here, and must not
    // need one.
    let host = McpHost::new(Arc::new(Scripted(tools)) as Arc<dyn ToolClient>)
        .with_policy(AllowAll)
        .with_audit(|event: &AuditEvent| assert!(event.duration.is_none()));
    let model = SharedModel::new(data);
    finish(compiled.eval_async(&model, &JsonPointer::root(), &host))?;
    Ok(model.into_inner())
}

/// Polls the evaluation once: the scripted server answers at once, so it is ready, and there is
/// no event loop here to wait on.
fn finish<T>(future: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
    let mut future = std::pin::pin!(future);
    match future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => Err(Error::new(
            a2ui_catalog_mcp::ErrorCode::ExpressionError,
            "the evaluation waited for something the smoke module cannot give it",
        )),
    }
}

/// A server that answers each tool with its scripted `CallToolResult`.
struct Scripted(Map<String, Value>);

impl ToolClient for Scripted {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        _arguments: &'a Value,
        _meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        let answer = self
            .0
            .get(name)
            .cloned()
            .ok_or_else(|| HostError::from(format!("no tool '{name}'")));
        Box::pin(async move { answer })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move { Err(HostError::from(format!("no resource '{uri}'"))) })
    }
}
