//! Function calls between the agent and the renderer (`rpc_functions.yaml`): the agent's
//! `callRendererFunction`, run on the renderer and answered with a `rendererFunctionResponse`;
//! the renderer's `callAgentFunction`, whose `agentFunctionResponse` is matched back to it by
//! `functionCallId`.
//!
//! An agent's call runs through the same entry as an action's `functionCall`
//! ([`run_call`](super::activation::run_call)), with the origin [`Origin::Agent`]: what the catalog
//! declares (`allowedCallers`, `requiresUserActivation`) is enforced by the evaluator on every
//! call of the payload, nested ones included. The agent has no user activation, so a function
//! that requires it is refused (the v1.0 catalog schema only lets `rendererOnly` functions
//! require it). A call belongs to no surface: it reads an empty data model and may not write.

use super::activation::run_call;
use super::judge::has_dynamic;
use super::{Applied, Processor};
use crate::env::CompileScope;
use crate::error::{Denial, Error, ErrorCode, MissingCatalog};
use crate::origin::Origin;
use crate::path::JsonPointer;
use crate::stream::{Category, FunctionCallMessage, Version};
use serde_json::{Map, Value, json};

/// `INVALID_FUNCTION_CALL`: the call could not be made (unknown catalog or function, a caller
/// or an activation the catalog does not admit, arguments that do not compile).
pub const INVALID_FUNCTION_CALL: &str = "INVALID_FUNCTION_CALL";
/// `EXECUTION_ERROR`: the function ran and failed.
pub const EXECUTION_ERROR: &str = "EXECUTION_ERROR";

/// What the renderer did with the agent's `callRendererFunction`
/// ([`Applied::RendererFunction`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RendererFunctionCall {
    /// The call's `functionCallId`.
    pub function_call_id: String,
    /// What the function returned, or the error code ([`INVALID_FUNCTION_CALL`],
    /// [`EXECUTION_ERROR`]) and the message sent to the agent.
    pub outcome: Result<Value, (String, String)>,
    /// The engine's own error behind a failed outcome (its one-line form, with the function
    /// and location), for the host's log: the agent is told only the suite's wording (an
    /// execution error does not leak the renderer's internals).
    pub detail: Option<String>,
}

impl RendererFunctionCall {
    /// The `rendererFunctionResponse` message to send the agent:
    /// `{"version": "1.0", "rendererFunctionResponse": {"functionCallId", "value" | "error"}}`.
    pub fn response(&self) -> Value {
        let mut body = Map::new();
        body.insert(
            "functionCallId".into(),
            self.function_call_id.clone().into(),
        );
        match &self.outcome {
            Ok(value) => body.insert("value".into(), value.clone()),
            Err((code, message)) => {
                body.insert("error".into(), json!({"code": code, "message": message}))
            }
        };
        json!({"version": Version::V1_0.as_str(), "rendererFunctionResponse": body})
    }
}

/// The agent's answer to a `callAgentFunction` ([`Applied::AgentFunctionResponse`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AgentFunctionResponse {
    /// The `functionCallId` answered.
    pub function_call_id: String,
    /// The surface whose call it answers ([`Processor::call_agent_function`]); `None` when no
    /// call of this processor is waiting for that id (an answer to a call made before a
    /// restart, say): the host decides what to do with it.
    pub surface_id: Option<String>,
    /// The agent's `value`, or its `error` (`code`, `message`).
    pub outcome: Result<Value, (String, String)>,
}

/// The key of a message only the agent may send about functions (`callRendererFunction`,
/// `agentFunctionResponse`, or their older names) when `message` is one.
pub(super) fn agent_call_key(message: &Value) -> Option<&'static str> {
    let map = message.as_object()?;
    [
        "callRendererFunction",
        "callFunction",
        "agentFunctionResponse",
        "actionResponse",
    ]
    .into_iter()
    .find(|k| map.contains_key(*k))
}

impl Processor {
    /// Refuses an agent's function call or answer that came where only surfaces may (the
    /// messages of a tool's result: the tool is not the agent, no one would receive a call's
    /// response, and an answer would pass for the agent's). It counts as a message and
    /// changes nothing.
    pub(super) fn refuse_function_call(&mut self, key: &str) -> Error {
        let index = self.messages;
        self.messages += 1;
        Error::in_message(
            Category::Validation,
            format!("/{key}"),
            format!(
                "{key} is not taken from a tool's result: only the agent calls renderer functions and answers the renderer's calls"
            ),
        )
        .of_message(index, None)
    }

    /// The call an agent's `callRendererFunction` carries (v1.0: `{functionCallId,
    /// callFunction: {call, catalogId, args}}`; the older `callFunction` message carries the
    /// call itself): its `functionCallId`, the call, where the call is in the message, and
    /// whether the message is the older one.
    fn agent_call_of(
        message: FunctionCallMessage,
    ) -> Result<(String, Map<String, Value>, String, bool), Error> {
        let at = format!("/{}", message.key);
        let Some(id) = message.function_call_id else {
            return Err(missing_call_id(&message.key));
        };
        let (call, call_at) = match message.call.get("callFunction") {
            Some(Value::Object(call)) => (call.clone(), format!("{at}/callFunction")),
            Some(_) => {
                return Err(Error::in_message(
                    Category::Validation,
                    format!("{at}/callFunction"),
                    "callFunction must be an object {\"call\", \"catalogId\", \"args\"}",
                ));
            }
            None if message.key == "callRendererFunction" => {
                return Err(Error::in_message(
                    Category::Validation,
                    at,
                    "callRendererFunction needs 'callFunction' (the call to run: {\"call\", \"catalogId\", \"args\"})",
                ));
            }
            // The older `callFunction` message: its body is the call.
            None => {
                let mut call = message.call.clone();
                call.remove("functionCallId");
                call.remove("callableFrom");
                (call, at)
            }
        };
        // v1.0 requires the call's catalog (the call belongs to no surface whose default could
        // stand in); the older message used the renderer's default catalog.
        let older = message.key != "callRendererFunction";
        Ok((id, call, call_at, older))
    }

    /// Runs the agent's `callRendererFunction`.
    pub(super) fn call_renderer_function(
        &mut self,
        message: FunctionCallMessage,
    ) -> Result<Applied, Error> {
        let (id, call, _, older) = Processor::agent_call_of(message)?;
        let (outcome, detail) = match self.run_agent_call(&call, older) {
            Ok(value) => (Ok(value), None),
            Err((code, said, error)) => (Err((code.to_owned(), said)), Some(error.to_string())),
        };
        Ok(Applied::RendererFunction(RendererFunctionCall {
            function_call_id: id,
            outcome,
            detail,
        }))
    }

    /// The problems of the agent's `callRendererFunction` judged and not run
    /// ([`Processor::check`](crate::surfaces::Processor::check)): its shape, then what refuses
    /// the call before it runs (its catalog and function, who may call it, each problem of its
    /// compilation), located in the message.
    pub(super) fn agent_call_problems(
        &self,
        mut message: FunctionCallMessage,
        spelling: crate::syntax::Spelling,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Vec<Error> {
        let mut problems = Vec::new();
        // v0.10's `callableFrom`, on the message or in the call: the agent may call only what is
        // callable remotely.
        let from = message
            .call
            .get("callFunction")
            .and_then(|c| c.get("callableFrom"))
            .map(|f| (format!("/{}/callFunction/callableFrom", message.key), f))
            .or_else(|| {
                message
                    .call
                    .get("callableFrom")
                    .map(|f| (format!("/{}/callableFrom", message.key), f))
            });
        if let Some((at, from)) = from
            && !matches!(from.as_str(), Some("remoteOnly" | "clientOrRemote"))
        {
            problems.push(Error::in_message(
                Category::Validation,
                at,
                format!("an agent can only call a function callable from 'remoteOnly' or 'clientOrRemote', not {from}"),
            ));
        }
        // A missing id does not hide the call's own problems.
        if message.function_call_id.is_none() {
            problems.push(missing_call_id(&message.key));
            message.function_call_id = Some(String::new());
        }
        let key = message.key.clone();
        let (_, call, at, older) = match Processor::agent_call_of(message) {
            Ok(found) => found,
            Err(e) => {
                problems.push(e);
                return problems;
            }
        };
        // Read in `spelling`, the call must be one: in the `@` spelling a plain call written
        // with anything more than its own keys is a literal object.
        use crate::syntax::{Form, PlainShape, form, plain_shape};
        if !matches!(form(&call, spelling), Some(Form::Call(_)))
            && plain_shape(&call) != Some(PlainShape::Call)
        {
            let hint = if call.contains_key("call") {
                " ('call' without '@' is the plain spelling, read only as {\"call\": name, \"args\"?: {…}, \"catalogId\"?: …, \"returnType\"?: …} with nothing else)"
            } else {
                ""
            };
            problems.push(Error::in_message(
                Category::Validation,
                at,
                format!(
                    "'{}' must be a function call {{\"@call\": name, \"args\": {{…}}}}{hint}",
                    key
                ),
            ));
            return problems;
        }
        match self.prepare_agent_call(&call, older, true, Some(spelling)) {
            Ok(payload) => warnings.extend(payload.warnings().iter().map(|w| {
                let location = format!("{at}{}", w.location());
                w.clone().with_location(location)
            })),
            Err((_, _, error)) => problems.extend(error.into_problems().into_iter().map(|e| {
                let pointer = format!("{at}{}", e.location());
                e.with_location(pointer)
            })),
        }
        problems
    }

    /// The value of an agent's call, or the code, the message for the agent and the error.
    fn run_agent_call(
        &mut self,
        call: &Map<String, Value>,
        older: bool,
    ) -> Result<Value, (&'static str, String, Error)> {
        let payload = self.prepare_agent_call(call, older, false, None)?;
        run_call(&payload, None, Origin::Agent).map_err(|e| match e.denial() {
            // A call nested in the arguments: the engine's own words name it and its rule.
            Some(Denial::AllowedCallers | Denial::UserActivation) => {
                (INVALID_FUNCTION_CALL, e.message().to_owned(), e)
            }
            _ => (
                EXECUTION_ERROR,
                "An error occurred during function execution.".to_owned(),
                e,
            ),
        })
    }

    /// An agent's call compiled, or why it may not run: its catalog and function, who may
    /// call it (unless `judged_only`: a check judges the message, and who may call what is the
    /// answer the call gets when it runs, not a problem of the message), its compilation,
    /// whether it writes.
    fn prepare_agent_call(
        &self,
        call: &Map<String, Value>,
        older: bool,
        judged_only: bool,
        spelling: Option<crate::syntax::Spelling>,
    ) -> Result<crate::payload::Payload, (&'static str, String, Error)> {
        let invalid = |said: String| {
            let error = Error::new(ErrorCode::ExpressionError, said.clone());
            (INVALID_FUNCTION_CALL, said, error)
        };
        let name = match call.get("call").or(call.get("@call")) {
            Some(Value::String(name)) => name.clone(),
            _ => return Err(invalid("callFunction needs a string 'call'".into())),
        };
        let catalog_id = match call.get("catalogId") {
            Some(Value::String(id)) => id.clone(),
            None if older => self.env.default_catalog().to_owned(),
            _ => {
                return Err(invalid(format!(
                    "callFunction '{name}' needs a string 'catalogId'"
                )));
            }
        };
        let Some(catalog) = self.env.catalog(&catalog_id) else {
            return Err(invalid(format!("Catalog not found: {catalog_id}")));
        };
        let Some(function) = catalog.function(&name) else {
            return Err(invalid(format!("Function not found: {name}")));
        };
        // The called function's own declaration, in the suite's words; the evaluator enforces
        // the same rule again for it and for every call nested in its arguments.
        if !judged_only && let Some((denial, _)) = function.access.refusal(Origin::Agent) {
            return Err(invalid(denial_message(
                &name,
                denial,
                function.access.allowed_callers.as_str(),
            )));
        }
        // A call nested in the arguments resolves its catalog on its own, and the agent's call
        // has no surface whose default catalog it could fall back on (the older message: the
        // renderer's default).
        let default_catalog = older.then(|| self.env.default_catalog());
        let scope = CompileScope {
            default_catalog,
            spelling: spelling.unwrap_or(self.env.spelling()),
            caller: None,
        };
        let compiled = self.env.compile_in(&Value::Object(call.clone()), scope).0;
        let payload = compiled.map_err(|e| {
            let said = if e.missing_catalog() == Some(&MissingCatalog::NoDefault) {
                format!(
                    "a call in the arguments of '{name}' names no catalogId, and an agent's call has no default catalog"
                )
            } else {
                e.message().to_owned()
            };
            (INVALID_FUNCTION_CALL, said, e)
        })?;
        if !judged_only && payload.may_write() {
            return Err(invalid(format!(
                "Function '{name}' may write the data model, and a callRendererFunction belongs to no surface"
            )));
        }
        Ok(payload)
    }

    /// The renderer calls a function of the agent (`callAgentFunction`) for `surface_id`: the
    /// message to send, its arguments' bindings and calls resolved now in the surface's data
    /// model (at its root). The processor waits for the `agentFunctionResponse` with the same
    /// `function_call_id` (the host's: unique among the calls waiting), and hands it back
    /// matched to the surface ([`Applied::AgentFunctionResponse`]).
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Applied, Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
    ///     "dataModel": {"sku": "ITEM-404"}}})).unwrap();
    /// let sent = p.call_agent_function("s", "q1", &json!({"call": "queryInventory", "catalogId": "store",
    ///     "args": {"sku": {"path": "/sku"}}}))?;
    /// assert_eq!(sent["callAgentFunction"]["callFunction"]["args"], json!({"sku": "ITEM-404"}));
    /// let Applied::AgentFunctionResponse(answer) = p.process(&json!({"version": "v1.0",
    ///     "agentFunctionResponse": {"functionCallId": "q1", "value": {"inStock": 12}}})).unwrap() else { panic!() };
    /// assert_eq!(answer.surface_id.as_deref(), Some("s"));
    /// assert_eq!(answer.outcome, Ok(json!({"inStock": 12})));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn call_agent_function(
        &mut self,
        surface_id: &str,
        function_call_id: &str,
        call: &Value,
    ) -> Result<Value, Error> {
        let bad = |why: String| Error::new(ErrorCode::ValidationFailed, why);
        if !self.surfaces.contains_key(surface_id) {
            return Err(bad(format!("Surface not found: '{surface_id}'")));
        }
        if self.pending_agent_calls.contains_key(function_call_id) {
            return Err(bad(format!(
                "a callAgentFunction '{function_call_id}' is already waiting for its response"
            )));
        }
        let Value::Object(call) = call else {
            return Err(bad(
                "callFunction must be an object {\"call\", \"catalogId\"?, \"args\"?}".into(),
            ));
        };
        if !matches!(call.get("call"), Some(Value::String(_))) {
            return Err(bad("callFunction needs a string 'call'".into()));
        }
        let mut out = call.clone();
        if let Some(args) = call.get("args") {
            let Value::Object(args) = args else {
                return Err(bad("callFunction's 'args' must be an object".into()));
            };
            let mut resolved = Map::new();
            for (key, value) in args {
                let value = if has_dynamic(value) {
                    let payload = self.compile_in_surface(surface_id, value)?;
                    let surface = &self.surfaces[surface_id];
                    payload.eval_read(surface.data.get(), &JsonPointer::root())?
                } else {
                    value.clone()
                };
                resolved.insert(key.clone(), value);
            }
            out.insert("args".into(), Value::Object(resolved));
        }
        self.pending_agent_calls
            .insert(function_call_id.to_owned(), surface_id.to_owned());
        Ok(
            json!({"version": Version::V1_0.as_str(), "callAgentFunction": {
            "surfaceId": surface_id, "functionCallId": function_call_id, "callFunction": out}}),
        )
    }

    /// The agent's `agentFunctionResponse` (`{functionCallId, value | error}`), matched to the
    /// call waiting for it.
    pub(super) fn agent_function_response(
        &mut self,
        key_at: &str,
        body: &Value,
    ) -> Result<Applied, Error> {
        let bad = |at: &str, why: &str| {
            Error::in_message(Category::Validation, format!("{key_at}{at}"), why)
        };
        let Value::Object(body) = body else {
            return Err(bad("", "agentFunctionResponse must be an object"));
        };
        let id = match body.get("functionCallId") {
            Some(Value::String(id)) => id.clone(),
            Some(_) => return Err(bad("/functionCallId", "functionCallId must be a string")),
            None => {
                return Err(bad(
                    "",
                    "agentFunctionResponse needs the 'functionCallId' it answers",
                ));
            }
        };
        let outcome = match (body.get("value"), body.get("error")) {
            (Some(value), None) => Ok(value.clone()),
            (None, Some(error)) => match (error.get("code"), error.get("message")) {
                (Some(Value::String(code)), Some(Value::String(message))) => {
                    Err((code.clone(), message.clone()))
                }
                _ => {
                    return Err(bad(
                        "/error",
                        "an agentFunctionResponse's error needs a string 'code' and 'message'",
                    ));
                }
            },
            _ => {
                return Err(bad(
                    "",
                    "an agentFunctionResponse carries exactly one of 'value' and 'error'",
                ));
            }
        };
        let surface_id = self.pending_agent_calls.remove(&id);
        Ok(Applied::AgentFunctionResponse(AgentFunctionResponse {
            function_call_id: id,
            surface_id,
            outcome,
        }))
    }
}

/// An agent's call without the `functionCallId` its response carries back.
fn missing_call_id(key: &str) -> Error {
    Error::in_message(
        Category::Validation,
        format!("/{key}"),
        format!("{key} needs a 'functionCallId' (the response carries it back)"),
    )
}

/// The suite's words for a call the catalog does not admit from the agent.
fn denial_message(name: &str, denial: Denial, allowed_callers: &str) -> String {
    match denial {
        Denial::UserActivation => {
            format!("Function '{name}' requires user activation context to execute.")
        }
        _ => format!(
            "Function '{name}' cannot be called by agent (allowedCallers is {allowed_callers})."
        ),
    }
}
