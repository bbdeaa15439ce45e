//! The asynchronous evaluation: the machine runs under the model's lock until a function asks
//! for a tool call, the host answers the call with no lock held, and the machine resumes with
//! the answer. What the host does for a call (policy, audit, the request, the `targetDataPath`
//! write, forwarding what the result carried) is the host's: this loop knows it only as the one
//! operation of [`ToolHost`], so the payload layer stays below the MCP host.

use super::compiled::Payload;
use super::eval::Step;
use crate::catalog::ToolCall;
use crate::error::Error;
use crate::limits::{EvalBudget, Limits};
use crate::model::{DataModel, SharedModel};
use crate::origin::{Invocation, Origin};
use crate::path::JsonPointer;
use crate::value::ToolResponse;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What answers the tool calls of an asynchronous evaluation ([`Payload::eval_async`]):
/// [`McpHost`](crate::mcp::McpHost), the crate's MCP host.
///
/// The trait is sealed: its one operation works on the evaluator's own state (the call, the
/// evaluation's budget), so it is implemented inside the crate only. A host passes its
/// `McpHost`:
///
/// ```
/// # #[cfg(feature = "testing")] {
/// use a2ui_catalog_mcp::mcp::ToolHost;
/// # use a2ui_catalog_mcp::testing::ScriptedServer;
/// # use serde_json::json;
/// fn is_a_host(_: &impl ToolHost) {}
/// # let server = ScriptedServer::from_json(&json!({"results": {}})).unwrap();
/// is_a_host(&server.host());
/// # }
/// ```
// Sealed: the types of its operation are the evaluator's own (the call, the budget, the
// response), which no one outside the crate names.
#[allow(private_interfaces)]
pub trait ToolHost: Sync + sealed::Sealed {
    /// What one evaluation remembers across its tool calls.
    #[doc(hidden)]
    type Session: Default + Send;

    /// Answers one tool call of an evaluation against `model`: the call made, its response
    /// written to its target, what it carried forwarded. The model is locked only to write.
    /// (Boxed: a lint cannot be allowed on an `impl Future` of a trait; one allocation per tool
    /// call.)
    #[doc(hidden)]
    fn answer_call<'a, M: DataModel + Send>(
        &'a self,
        model: &'a SharedModel<M>,
        scope: CallScope<'a>,
        session: &'a mut Self::Session,
        call: ToolCall,
    ) -> Answer<'a>;
}

/// The future of one tool call's answer.
pub(crate) type Answer<'a> =
    Pin<Box<dyn Future<Output = Result<Arc<ToolResponse>, Error>> + Send + 'a>>;

/// Implementing [`ToolHost`] takes this, which only the crate can name.
pub(crate) mod sealed {
    /// The crate's hosts.
    pub trait Sealed {}
}

// A host held in an `Arc`, a `Box` or a reference is passed as it is (as `&McpHost` was when
// `eval_async` took it by type, through deref coercion).
impl<H: sealed::Sealed + ?Sized> sealed::Sealed for Arc<H> {}
impl<H: sealed::Sealed + ?Sized> sealed::Sealed for Box<H> {}
impl<H: sealed::Sealed + ?Sized> sealed::Sealed for &H {}

macro_rules! forward_tool_host {
    ($($pointer:ty),*) => {$(
        #[allow(private_interfaces)]
        impl<H: ToolHost + Send + Sync> ToolHost for $pointer {
            type Session = H::Session;

            fn answer_call<'a, M: DataModel + Send>(
                &'a self,
                model: &'a SharedModel<M>,
                scope: CallScope<'a>,
                session: &'a mut Self::Session,
                call: ToolCall,
            ) -> Answer<'a> {
                (**self).answer_call(model, scope, session, call)
            }
        }
    )*};
}
forward_tool_host!(Arc<H>, Box<H>, &H);

/// Where a tool call runs: the evaluation's data context, limits and invocation, and the
/// budget its write (the padding of arrays) is charged to.
#[derive(Clone, Copy)]
pub(crate) struct CallScope<'a> {
    pub(crate) context: &'a JsonPointer,
    pub(crate) limits: &'a Limits,
    pub(crate) invocation: &'a Invocation,
    pub(crate) budget: &'a EvalBudget,
}

impl Payload {
    /// Evaluates a payload that may call tools, with `host`'s MCP clients, against a model that
    /// other evaluations may share (see [`SharedModel`]).
    ///
    /// The model is locked only while the evaluation runs synchronously, never while a tool
    /// call is pending. Dropping the future cancels the evaluation: nothing is written after
    /// that. The future needs no particular runtime and is `Send` when `M` is.
    ///
    /// Each tool call first passes the host's [`ToolPolicy`](crate::mcp::ToolPolicy), once its
    /// arguments are evaluated and its client is known: a denied call is an `EXPRESSION_ERROR`
    /// (`MCP tool '<name>' is not allowed: <reason>`), nothing is sent, written or forwarded,
    /// and the rest of the payload does not run. Every call is reported to the host's
    /// [`AuditSink`](crate::mcp::AuditSink).
    ///
    /// ```
    /// # #[cfg(feature = "testing")] {
    /// # use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel, testing::{ScriptedServer, block_on}};
    /// # use serde_json::json;
    /// let server = ScriptedServer::from_json(&json!({"results": {"ping": [{"content": [{"type": "text", "text": "pong"}]}]}}))?;
    /// let host = server.host();
    /// let payload = Environment::new().compile(&json!({
    ///     "@call": "callMcpTool", "args": {"name": "ping", "targetDataPath": "/reply"}
    /// }))?;
    /// let model = SharedModel::new(json!({}));
    /// block_on(payload.eval_async(&model, &JsonPointer::root(), &host))?;
    /// assert_eq!(model.lock()["reply"]["text"], "pong");
    /// # }
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub async fn eval_async<M: DataModel + Send, H: ToolHost>(
        &self,
        model: &SharedModel<M>,
        context: &JsonPointer,
        host: &H,
    ) -> Result<Value, Error> {
        self.eval_async_from(model, context, host, Origin::Binding)
            .await
    }

    /// [`eval_async`](Payload::eval_async) for an evaluation of this origin, and, for a surface
    /// a tool's result created, with the surface's provenance: an [`Origin`] or an
    /// [`Invocation`]. The origin is checked against what catalogs declare, as with
    /// [`eval_from`](Payload::eval_from); the host's [`ToolPolicy`](crate::mcp::ToolPolicy) and
    /// [`AuditSink`](crate::mcp::AuditSink) see it, and the provenance, in each tool call.
    ///
    /// ```
    /// # #[cfg(feature = "testing")] {
    /// # use a2ui_catalog_mcp::{Environment, JsonPointer, Origin, SharedModel, testing::{ScriptedServer, block_on}};
    /// # use a2ui_catalog_mcp::mcp::{BoxFuture, Decision, ToolCallRequest, ToolPolicy};
    /// # use serde_json::json;
    /// struct OnlyOnTap;
    /// impl ToolPolicy for OnlyOnTap {
    ///     fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
    ///         let tap = call.origin == Origin::Action;
    ///         Box::pin(async move { if tap { Decision::Allow } else { Decision::deny("no tap") } })
    ///     }
    /// }
    /// let server = ScriptedServer::from_json(&json!({"results": {"send": [{"content": []}]}}))?;
    /// let host = server.host().with_policy(OnlyOnTap);
    /// let send = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {"name": "send"}}))?;
    /// let model = SharedModel::new(json!({}));
    /// let root = JsonPointer::root();
    /// assert!(block_on(send.eval_async(&model, &root, &host)).is_err());
    /// assert!(block_on(send.eval_async_from(&model, &root, &host, Origin::Action)).is_ok());
    /// # }
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub async fn eval_async_from<M: DataModel + Send, H: ToolHost>(
        &self,
        model: &SharedModel<M>,
        context: &JsonPointer,
        host: &H,
        invocation: impl Into<Invocation>,
    ) -> Result<Value, Error> {
        let invocation = invocation.into();
        let mut machine = self.machine(context, invocation.origin);
        let mut session = H::Session::default();
        loop {
            let step = machine.run(&mut *model.lock(), true)?;
            let request = match step {
                Step::Done(value) => return Ok(value),
                Step::Tool(request) => request,
            };
            let scope = CallScope {
                context,
                limits: self.limits(),
                invocation: &invocation,
                budget: machine.budget(),
            };
            let value = host
                .answer_call(model, scope, &mut session, request.call)
                .await
                .map_err(|e| e.at_call(request.function, request.location))?;
            machine.resume(value);
        }
    }
}
