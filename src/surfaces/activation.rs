//! A user's tap on a component: its event for the agent, or its call run on the surface.

use super::judge::*;
use super::processor::*;
use super::*;
use crate::error::{Error, ErrorCode};
use crate::origin::Origin;
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::TrackedModel;
use crate::stream::Version;
use serde_json::{Map, Value, json};

/// What activating a component did ([`Processor::activate`](crate::surfaces::Processor::activate)).
#[derive(Debug)]
#[non_exhaustive]
pub struct Activation {
    /// The renderer-to-agent `action` message to send (an `event` action): `name`,
    /// `surfaceId`, `sourceComponentId`, `timestamp`, `context` evaluated now, `userMessage`.
    pub message: Option<Value>,
    /// The data models to attach, when the surface says `sendDataModel` (the form of
    /// [`Processor::data_models`](crate::surfaces::Processor::data_models)).
    pub data_model: Option<Value>,
    /// What a `functionCall` action returned (it runs on the renderer; no event is sent).
    pub value: Option<Value>,
    /// The `functionCall` stopped at a tool call: the run queued for the host
    /// ([`Processor::take_tool_runs`](crate::surfaces::Processor::take_tool_runs)); its value comes with
    /// [`Processor::finish_tool_run`](crate::surfaces::Processor::finish_tool_run).
    pub run: Option<u64>,
    /// What failed while evaluating (a context value that failed is `null` in the message).
    pub errors: Vec<Error>,
}

/// Runs a call: the one place where actions' `functionCall`s (on their surface's data model,
/// in the instance's data context) and the agent's `callRendererFunction`s (on no surface)
/// are evaluated, with the origin that governs what they may do. An action may write its
/// surface's data model; the agent's call has none, so it reads an empty one and may not
/// write. Tool calls need the host's executor (`Payload::eval_async`).
pub(super) fn run_call(
    payload: &Payload,
    surface: Option<(&mut TrackedModel<Value>, &JsonPointer)>,
    origin: Origin,
) -> Result<Value, Error> {
    // The origin governs what the call may do: an action runs with user activation
    // (`requiresUserActivation` holds), the agent only what `allowedCallers` admits.
    match surface {
        Some((model, context)) => payload.eval_from(model, context, origin),
        None => payload.eval_read_from(&Value::Object(Map::new()), &JsonPointer::root(), origin),
    }
}

impl Processor {
    /// The user activates the instance of `component_id` whose data context is `data_path`:
    /// its `action` is carried out now. An `event` action (or v0.9's `{name, context}`)
    /// becomes the renderer-to-agent `action` message, its context evaluated at this moment in
    /// the instance's data context (a value that fails is `null`, its error in
    /// [`Activation::errors`](crate::surfaces::Activation::errors)); a `functionCall` action runs on the renderer with user
    /// activation and sends nothing. `timestamp` is the host's (ISO 8601): the engine reads no
    /// clock.
    ///
    /// ```
    /// use a2ui_catalog_mcp::JsonPointer;
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "sendDataModel": true,
    ///     "dataModel": {"rows": [{"id": "r0"}, {"id": "r1"}]},
    ///     "components": [{"id": "root", "component": "Button", "child": "t",
    ///         "action": {"event": {"name": "open", "context": {"row": {"path": "id"}, "path": "literal"}}}}]}})).unwrap();
    /// let done = p.activate("s", "root", &JsonPointer::parse("/rows/1")?, "2026-12-04T18:00:00Z")?;
    /// assert_eq!(done.message.unwrap()["action"], json!({"name": "open", "surfaceId": "s", "sourceComponentId": "root",
    ///     "timestamp": "2026-12-04T18:00:00Z", "context": {"row": "r1", "path": "literal"}}));
    /// assert!(done.data_model.is_some());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn activate(
        &mut self,
        surface_id: &str,
        component_id: &str,
        data_path: &JsonPointer,
        timestamp: &str,
    ) -> Result<Activation, Error> {
        let bad = |why: String| Error::new(ErrorCode::ValidationFailed, why);
        let surface = self
            .surfaces
            .get(surface_id)
            .ok_or_else(|| bad(format!("Surface not found: '{surface_id}'")))?;
        let component = surface.components.get(component_id).ok_or_else(|| {
            bad(format!(
                "surface '{surface_id}' has no component '{component_id}'"
            ))
        })?;
        let action = component
            .props
            .get("action")
            .cloned()
            .ok_or_else(|| bad(format!("component '{component_id}' has no action")))?;
        let version = surface.version;
        let send = surface.send_data_model;
        let mut done = Activation {
            message: None,
            data_model: None,
            value: None,
            run: None,
            errors: Vec::new(),
        };
        if let Some(call) = action.get("functionCall") {
            let instance = surface
                .live
                .as_deref()
                .and_then(|tree| tree.instance_at(component_id, data_path));
            let cached = component.action_call.get().cloned();
            let compiled = match cached {
                Some(payload) => Ok(payload),
                None => {
                    // In the surface's spelling, which a component with a call has decided
                    // for good: the kept payload stays right.
                    let compiled = self
                        .compile_in_surface(surface_id, call)
                        .map(std::sync::Arc::new);
                    if let (Ok(payload), Some(component)) = (
                        &compiled,
                        self.surfaces
                            .get(surface_id)
                            .and_then(|s| s.components.get(component_id)),
                    ) {
                        let _ = component.action_call.set(payload.clone());
                    }
                    compiled
                }
            };
            match compiled {
                Ok(payload) => {
                    let start = tool_runs::Start {
                        payload,
                        context: data_path.clone(),
                        origin: Origin::Action,
                        component_id: component_id.to_owned(),
                        instance,
                        prop: None,
                    };
                    match self.start_run(surface_id, start) {
                        tool_runs::Started::Done(Ok(value)) => done.value = Some(value),
                        tool_runs::Started::Done(Err(e)) => done.errors.push(e),
                        tool_runs::Started::Waiting(id) => done.run = Some(id),
                    }
                }
                Err(e) => done.errors.push(e),
            }
            // What the call wrote reaches the live tree now.
            self.refresh(surface_id);
            return Ok(done);
        }
        // v1.0 `{"event": {…}}`, or v0.9's `{"name", "context"}`.
        let event = action.get("event").unwrap_or(&action);
        let name = event
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("the action of '{component_id}' has no event name")))?
            .to_owned();
        let mut context = Map::new();
        let mut user_message = None;
        let mut dynamic: Vec<(Option<String>, Value)> = Vec::new();
        if let Some(Value::Object(values)) = event.get("context") {
            // Each context value on its own: keys named `path` or `call` are keys.
            dynamic.extend(values.iter().map(|(k, v)| (Some(k.clone()), v.clone())));
        }
        if let Some(message) = event.get("userMessage") {
            dynamic.push((None, message.clone()));
        }
        for (key, value) in dynamic {
            let resolved = if has_dynamic(&value) {
                let compiled = self.compile_in_surface(surface_id, &value);
                let surface = &self.surfaces[surface_id];
                match compiled.and_then(|p| p.eval_read(surface.data.get(), data_path)) {
                    Ok(v) => v,
                    Err(e) => {
                        done.errors.push(e);
                        Value::Null
                    }
                }
            } else {
                value
            };
            match key {
                Some(key) => {
                    context.insert(key, resolved);
                }
                None => user_message = Some(resolved),
            }
        }
        let mut body = Map::new();
        body.insert("name".into(), name.into());
        body.insert("surfaceId".into(), surface_id.into());
        body.insert("sourceComponentId".into(), component_id.into());
        body.insert("timestamp".into(), timestamp.into());
        body.insert("context".into(), Value::Object(context));
        if let Some(m) = user_message {
            body.insert("userMessage".into(), m);
        }
        done.message = Some(json!({"version": Version::V1_0.as_str(), "action": body}));
        if send {
            done.data_model = self.data_models(version);
        }
        Ok(done)
    }
}
