//! An evaluation held between its tool calls: it runs until a function asks for a tool call,
//! hands the call to its owner and is resumed, later, with the call's answer.
//!
//! [`Payload::eval_async`](crate::Payload::eval_async) drives the same machine inside one
//! future that owns the call. The surface processor cannot: it owns its surfaces' data models
//! and must stay free while a server answers (messages, writes and other taps go on), so it
//! keeps the stopped evaluation and lends it the model only while it runs. The machine borrows
//! its program, so the stopped evaluation is an `async` block that owns both (the one way to
//! hold such a pair without `unsafe`), polled only here, with a waker that is never used: it
//! never waits on anything but its owner.
//!
//! A tool call's `targetDataPath` is written when its answer comes back, and the evaluation
//! then stops once more so that its owner can forward what the result carried (A2UI messages)
//! between the write and the rest of the payload, as `eval_async` forwards them.

use super::compiled::Payload;
use super::eval::Step;
use super::eval_sync::ReadOnly;
use crate::error::{Error, ErrorCode};
use crate::model::{DataModel, Write, check_write_depth, padding_bound};
use crate::origin::Origin;
use crate::path::{JsonPointer, write_target};
use crate::value::ToolResponse;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

/// A tool call an evaluation stopped at, its arguments evaluated and its target resolved.
#[derive(Debug, Clone)]
pub(crate) struct PendingCall {
    /// The tool.
    pub(crate) name: String,
    /// The arguments, an object.
    pub(crate) arguments: Value,
    /// Where the response object is written (absolute).
    pub(crate) target: Option<JsonPointer>,
}

/// Where an evaluation is after a step.
#[derive(Debug)]
pub(crate) enum Progress {
    /// It has its value (or failed).
    Done(Result<Value, Error>),
    /// It stopped at a tool call.
    Call(PendingCall),
    /// It took a tool call's answer (and wrote the call's target) and waits to go on
    /// ([`Resumable::proceed`]).
    Answered,
}

/// What the evaluation and its owner share: the model while a step runs, the call it stopped
/// at, the answer it is resumed with.
struct Port<M> {
    model: Option<M>,
    call: Option<PendingCall>,
    answer: Option<Arc<ToolResponse>>,
    /// The answer was taken (the target written), the evaluation waits to go on.
    answered: bool,
    /// Until its first answer the evaluation may not write (a bound value being drawn).
    read_only: bool,
}

type Shared<M> = Arc<Mutex<Port<M>>>;

fn lock<M>(port: &Shared<M>) -> std::sync::MutexGuard<'_, Port<M>> {
    // Nothing is left half-done under this lock: a panic cannot poison anything it guards.
    port.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An evaluation that stops at each tool call. See the [module docs](self).
pub(crate) struct Resumable<M> {
    future: Pin<Box<dyn Future<Output = Result<Value, Error>> + Send>>,
    port: Shared<M>,
}

impl<M> std::fmt::Debug for Resumable<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resumable").finish_non_exhaustive()
    }
}

/// Runs `f` on the model the owner lent for this step.
fn with_model<M: DataModel, R>(port: &Shared<M>, f: impl FnOnce(&mut M, bool) -> R) -> R {
    let mut guard = lock(port);
    let read_only = guard.read_only;
    let model = guard
        .model
        .as_mut()
        .expect("the model is lent for every step");
    f(model, read_only)
}

/// Waits until the owner hands the answer over.
struct Answer<'a, M>(&'a Shared<M>);

impl<M> Future for Answer<'_, M> {
    type Output = Arc<ToolResponse>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        match lock(self.0).answer.take() {
            Some(answer) => Poll::Ready(answer),
            None => Poll::Pending,
        }
    }
}

/// Stops once, after an answer was taken.
struct Proceed<'a, M>(&'a Shared<M>);

impl<M> Future for Proceed<'_, M> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if lock(self.0).answered {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    }
}

impl<M: DataModel + Default + Send + 'static> Resumable<M> {
    /// An evaluation of `payload` in `context`, not started. With `read_only`, it may not write
    /// until its first tool answer.
    pub(crate) fn new(
        payload: Arc<Payload>,
        context: JsonPointer,
        origin: Origin,
        read_only: bool,
    ) -> Resumable<M> {
        let port: Shared<M> = Arc::new(Mutex::new(Port {
            model: None,
            call: None,
            answer: None,
            answered: false,
            read_only,
        }));
        let inner = port.clone();
        let future = async move {
            let port = inner;
            let mut machine = payload.machine(&context, origin);
            let limits = payload.limits();
            loop {
                let step = with_model(&port, |model, read_only| {
                    if read_only {
                        machine.run(&mut ReadOnly(&*model), true)
                    } else {
                        machine.run(model, true)
                    }
                })?;
                let request = match step {
                    Step::Done(value) => return Ok(value),
                    Step::Tool(request) => request,
                };
                let (function, location) = (request.function, request.location);
                let call = request.call;
                let target = call
                    .target
                    .map(|path| write_target(&path, &context, limits.max_depth))
                    .transpose()
                    .map_err(|e| e.at_call(function, location))?;
                lock(&port).call = Some(PendingCall {
                    name: call.name,
                    arguments: call.arguments,
                    target: target.clone(),
                });
                let answer = Answer(&port).await;
                lock(&port).read_only = false;
                if let Some(path) = target {
                    let write = Write {
                        path,
                        value: answer.value().clone(),
                    };
                    with_model(&port, |model, _| {
                        check_write_depth(&write, limits.max_depth)?;
                        let padding = padding_bound(&*model, std::slice::from_ref(&write));
                        machine.budget().spend_items(
                            padding,
                            &format!("padding arrays with {padding} nulls"),
                        )?;
                        model.apply(vec![write], limits.max_index)
                    })
                    .map_err(|e| e.at_call(function, location))?;
                }
                lock(&port).answered = true;
                Proceed(&port).await;
                machine.resume(answer);
            }
        };
        Resumable {
            future: Box::pin(future),
            port,
        }
    }

    /// Runs the evaluation from its start until it is done or stops.
    pub(crate) fn start(&mut self, model: &mut M) -> Progress {
        self.step(model)
    }

    /// Resumes an evaluation stopped at a tool call with the call's answer.
    pub(crate) fn resume(&mut self, model: &mut M, answer: Arc<ToolResponse>) -> Progress {
        lock(&self.port).answer = Some(answer);
        self.step(model)
    }

    /// Goes on after [`Progress::Answered`].
    pub(crate) fn proceed(&mut self, model: &mut M) -> Progress {
        lock(&self.port).answered = false;
        self.step(model)
    }

    /// One poll, with the model lent for its duration.
    fn step(&mut self, model: &mut M) -> Progress {
        lock(&self.port).model = Some(std::mem::take(model));
        let polled = self
            .future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()));
        let mut port = lock(&self.port);
        *model = port.model.take().unwrap_or_default();
        match polled {
            Poll::Ready(result) => Progress::Done(result),
            Poll::Pending if port.answered => Progress::Answered,
            Poll::Pending => match port.call.take() {
                Some(call) => Progress::Call(call),
                // Only the two futures above ever wait, and each says why.
                None => Progress::Done(Err(Error::new(
                    ErrorCode::ExpressionError,
                    "the evaluation stopped without a tool call to wait for (resumed without an answer)",
                ))),
            },
        }
    }
}
