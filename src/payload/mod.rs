//! Payloads: A2UI dynamic values compiled once ([`Environment::compile`]) and evaluated many
//! times ([`Payload::eval`]).
//!
//! [`Environment::compile`]: crate::Environment::compile

mod compile;
mod deps;
mod eval;
mod program;

use crate::env::Environment;
use crate::error::Error;
use crate::limits::Limits;
use crate::mcp::McpHost;
use crate::model::{DataModel, SharedModel};
use crate::path::JsonPointer;
use serde_json::Value;

/// A compiled payload: shape checked, functions resolved, literal expressions and patterns
/// prepared. Evaluating it parses nothing and looks nothing up by name.
///
/// `Payload` is `Send + Sync` and independent of the [`Environment`] that compiled it.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, JsonPointer};
/// use serde_json::json;
///
/// let env = Environment::new();
/// let payload = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"selected": true}}})).unwrap();
/// let mut model = json!({"rows": [{"name": "notes.md"}]});
/// payload.eval_in(&mut model, &JsonPointer::parse("/rows/0").unwrap()).unwrap();
/// assert_eq!(model, json!({"rows": [{"name": "notes.md", "selected": true}]}));
/// ```
pub struct Payload {
    program: program::Program,
    limits: Limits,
    /// What the program reads and whether it may write (see `deps.rs`).
    deps: deps::Deps,
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Payload")
            .field("nodes", &self.program.nodes.len())
            .finish_non_exhaustive()
    }
}

pub(crate) fn compile(env: &Environment, payload: &Value) -> Result<Payload, Error> {
    let program = compile::compile(env, payload)?;
    Ok(Payload {
        deps: deps::Deps::of(&program),
        program,
        limits: env.limits().clone(),
    })
}

impl Payload {
    /// Evaluates with the root as the data context.
    pub fn eval<M: DataModel + ?Sized>(&self, model: &mut M) -> Result<Value, Error> {
        self.eval_in(model, &JsonPointer::root())
    }

    /// Evaluates with `context` as the data context (relative paths join it).
    ///
    /// On error, the writes of the failing chain have not happened; writes that completed
    /// before it (an earlier sibling's `updateDataModel`) stay.
    pub fn eval_in<M: DataModel + ?Sized>(
        &self,
        model: &mut M,
        context: &JsonPointer,
    ) -> Result<Value, Error> {
        match eval::Machine::new(&self.program, &self.limits, context).run(model, false)? {
            eval::Step::Done(value) => Ok(value),
            eval::Step::Tool(_) => unreachable!("tool calls only suspend when asked to"),
        }
    }

    /// Evaluates a payload that may call tools, with `host`'s MCP clients, against a model that
    /// other evaluations may share (see [`SharedModel`]).
    ///
    /// The model is locked only while the evaluation runs synchronously, never while a tool
    /// call is pending. Dropping the future cancels the evaluation: nothing is written after
    /// that. The future needs no particular runtime and is `Send` when `M` is.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::{Environment, JsonPointer, model::SharedModel, mcp::McpHost, testing::{ScriptedServer, block_on}};
    /// # use serde_json::json;
    /// let server = ScriptedServer::from_json(&json!({"results": {"ping": [{"content": [{"type": "text", "text": "pong"}]}]}}))?;
    /// let host = server.host();
    /// let payload = Environment::new().compile(&json!({
    ///     "@call": "callMcpTool", "args": {"name": "ping", "targetDataPath": "/reply"}
    /// }))?;
    /// let model = SharedModel::new(json!({}));
    /// block_on(payload.eval_async(&model, &JsonPointer::root(), &host))?;
    /// assert_eq!(model.lock()["reply"]["text"], "pong");
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub async fn eval_async<M: DataModel + Send>(
        &self,
        model: &SharedModel<M>,
        context: &JsonPointer,
        host: &McpHost,
    ) -> Result<Value, Error> {
        let mut machine = eval::Machine::new(&self.program, &self.limits, context);
        let mut state = crate::mcp::EvalState::default();
        loop {
            let step = machine.run(&mut *model.lock(), true)?;
            let mut request = match step {
                eval::Step::Done(value) => return Ok(value),
                eval::Step::Tool(request) => request,
            };
            let args = crate::mcp::CallArgs {
                name: request.take("name"),
                arguments: request.take("arguments"),
                target: request.take("targetDataPath"),
            };
            let call = request.call;
            let value = crate::mcp::call_tool(host, model, context, &self.limits, &mut state, args)
                .await
                .map_err(|e| e.at_call(&call.name, &call.location))?;
            machine.resume(value);
        }
    }

    /// Whether the payload calls tools (`callMcpTool`): such a payload needs
    /// [`eval_async`](Payload::eval_async) with an [`McpHost`]; evaluated
    /// synchronously, a tool call fails with "callMcpTool is not configured".
    pub fn calls_tools(&self) -> bool {
        self.program.calls_tools
    }
}

#[cfg(test)]
mod tests;
