//! `callMcpTool`: call the tool, build the response object, collect the A2UI messages and MCP
//! Apps its result links or embeds, and write the response to `targetDataPath` unless a newer
//! call to that path has started; forward what was collected only once all of that worked.
//! The steps and the response object's members are stated in `docs/mcp.md` and, in short, in
//! the `mcp` module's documentation.

use super::host::{McpAppResource, McpHost, MessageSink, ToolClient};
use super::protocol::{is_a2ui_mime_type, is_mcp_app_mime_type};
use super::tool_policy::{AuditRecord, CallOrigin, CallOutcome, Decision, ToolCallRequest};
use crate::catalog::ToolCall;
use crate::error::{Error, ErrorCode};
use crate::json::kind_name;
use crate::limits::Limits;
use crate::model::{DataModel, SharedModel, Write};
use crate::path::{JsonPointer, write_target};
use crate::payload::{Payload, Step};
use crate::value::{AppMembers, FastValue, TextMember, ToolResponse, fast_array, parse_fast};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::sync::Arc;

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
    pub async fn eval_async<M: DataModel + Send>(
        &self,
        model: &SharedModel<M>,
        context: &JsonPointer,
        host: &McpHost,
    ) -> Result<Value, Error> {
        let mut machine = self.machine(context);
        let mut state = EvalState::default();
        loop {
            let step = machine.run(&mut *model.lock(), true)?;
            let request = match step {
                Step::Done(value) => return Ok(value),
                Step::Tool(request) => request,
            };
            let value = call_tool(
                host,
                model,
                context,
                self.limits(),
                &mut state,
                request.call,
            )
            .await
            .map_err(|e| e.at_call(request.function, request.location))?;
            machine.resume(value);
        }
    }
}

/// What one evaluation remembers across its tool calls: the surfaces its forwarded messages
/// created (a later resource that would create one of them again is skipped).
#[derive(Default)]
struct EvalState {
    created_surfaces: HashSet<String>,
}

fn expression_error(message: String) -> Error {
    Error::new(ErrorCode::ExpressionError, message)
}

/// Runs one call through to its value. The model is locked only to write.
async fn call_tool<M: DataModel + Send>(
    host: &McpHost,
    model: &SharedModel<M>,
    context: &JsonPointer,
    limits: &Limits,
    state: &mut EvalState,
    call: ToolCall,
) -> Result<Arc<ToolResponse>, Error> {
    let ToolCall {
        name,
        arguments,
        target,
    } = call;
    let target = target
        .map(|path| write_target(&path, context))
        .transpose()?;
    let failed =
        |reason: String| expression_error(format!("Failed to execute MCP tool '{name}': {reason}"));
    let client = resolve(host, &name, &arguments, CallOrigin::Payload).await?;
    let audit = authorize(host, &client, &name, &arguments, CallOrigin::Payload).await?;
    // The call starts when its request is sent: from now on it is the latest for its path.
    let ticket = target.clone().map(|path| model.start_call(path));
    let result = client
        .call_tool(&name, &arguments, host.meta.as_ref())
        .await
        .map_err(|e| failed(e.to_string()).with_source(e));
    let tool_error = matches!(&result, Ok(r) if is_tool_error(r));
    let outcome = match result {
        Ok(result) => respond(host, &client, &name, arguments, result, limits, state).await,
        Err(e) => Err(e),
    };
    let Response {
        value,
        messages,
        apps,
    } = match outcome {
        Ok(response) => response,
        Err(e) => {
            if let Some(ticket) = &ticket {
                model.finish_call(ticket);
            }
            audit.finish(if tool_error {
                CallOutcome::ToolError
            } else {
                CallOutcome::HostFailure(e.message().to_owned())
            });
            return Err(e);
        }
    };

    let mut superseded = false;
    if let (Some(path), Some(ticket)) = (target, &ticket) {
        // The value is built (a large response takes a while) before the model is locked,
        // unless a newer call has already started; whether this call is still the latest is
        // decided again under the model's lock, and the write happens under that same lock:
        // a newer call that starts meanwhile is either seen here or writes after this one.
        let built = model.is_latest(ticket).then(|| value.value().clone());
        let mut locked = model.lock();
        superseded = !model.finish_call(ticket);
        if let (false, Some(built)) = (superseded, built) {
            let write = Write { path, value: built };
            if let Err(e) = locked.apply(vec![write], limits.max_index) {
                drop(locked);
                audit.finish(CallOutcome::HostFailure(e.message().to_owned()));
                return Err(e);
            }
        }
    }
    // Only now has every step worked: forward what the call collected.
    if let Some(sink) = &host.sink
        && !messages.is_empty()
    {
        sink.process(messages);
    }
    if let Some(on_app) = &host.on_app {
        for app in &apps {
            on_app(app);
        }
    }
    audit.finish(if superseded {
        CallOutcome::Superseded
    } else {
        CallOutcome::Ok
    });
    Ok(Arc::new(value))
}

/// Whether a `CallToolResult` says the tool failed (`isError: true`).
pub(super) fn is_tool_error(result: &Value) -> bool {
    result.get("isError").and_then(Value::as_bool) == Some(true)
}

/// The client that serves `name`. None is a failed call, audited as such (the policy is not
/// asked: there is nothing to send).
pub(super) async fn resolve(
    host: &McpHost,
    name: &str,
    arguments: &Value,
    origin: CallOrigin,
) -> Result<Arc<dyn ToolClient>, Error> {
    if let Some(client) = host.router.client_for(name).await {
        return Ok(client);
    }
    let reason = "no connected MCP server has this tool";
    AuditRecord::start(host.audit.as_deref(), name, arguments, None, origin)
        .finish(CallOutcome::HostFailure(reason.to_owned()));
    Err(expression_error(format!(
        "Failed to execute MCP tool '{name}': {reason}"
    )))
}

/// Asks the host's policy whether the call may be sent. Allowed, it returns the call's audit
/// record, which the caller finishes with the outcome (or which records a cancellation when
/// the caller's future is dropped). Denied, the call is audited and the error is the answer.
pub(super) async fn authorize<'h>(
    host: &'h McpHost,
    client: &Arc<dyn ToolClient>,
    name: &str,
    arguments: &Value,
    origin: CallOrigin,
) -> Result<AuditRecord<'h>, Error> {
    let server = if host.policy.is_some() || host.audit.is_some() {
        client.server_name()
    } else {
        None
    };
    // Started before the decision, so that an evaluation dropped while the policy decides (a
    // consent dialog left open) is audited as cancelled.
    let mut audit = AuditRecord::start(
        host.audit.as_deref(),
        name,
        arguments,
        server.as_deref(),
        origin,
    );
    let decision = match &host.policy {
        None => Decision::Allow,
        Some(policy) => {
            let definition = host.tool_definition(client, name).await;
            let request = ToolCallRequest::new(name, arguments, origin)
                .with_server(server.as_deref())
                .with_definition(definition.as_ref());
            policy.decide(&request).await
        }
    };
    audit.decided(&decision);
    match decision {
        Decision::Allow => Ok(audit),
        Decision::Deny(reason) => {
            audit.finish(CallOutcome::Denied);
            Err(expression_error(format!(
                "MCP tool '{name}' is not allowed: {reason}"
            )))
        }
    }
}

/// What a successful call produced.
struct Response {
    value: ToolResponse,
    messages: Vec<Value>,
    apps: Vec<McpAppResource>,
}

async fn respond(
    host: &McpHost,
    client: &Arc<dyn ToolClient>,
    name: &str,
    arguments: Value,
    result: Value,
    limits: &Limits,
    state: &mut EvalState,
) -> Result<Response, Error> {
    if crate::json::depth_exceeds(&result, limits.max_depth)
        || crate::json::depth_exceeds(&arguments, limits.max_depth)
    {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "the result of MCP tool '{name}' nests deeper than the limit of {} levels",
                limits.max_depth
            ),
        ));
    }
    let Value::Object(raw) = &result else {
        return Err(expression_error(format!(
            "Failed to execute MCP tool '{name}': the result is {}, not a CallToolResult object",
            kind_name(&result)
        )));
    };
    let empty = Vec::new();
    let content = raw
        .get("content")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    // The text blocks, with their index in `content`.
    let texts: Vec<(usize, &str)> = content
        .iter()
        .enumerate()
        .filter(|(_, b)| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|(i, b)| Some((i, b.get("text")?.as_str()?)))
        .collect();
    // One block (the usual case) is not copied: the response reads it inside `toolResult`.
    let single = match texts.as_slice() {
        [(i, _)] => Some(*i),
        _ => None,
    };
    let joined = single
        .is_none()
        .then(|| texts.iter().map(|(_, t)| *t).collect::<Vec<_>>().join("\n"));
    let text: &str = joined
        .as_deref()
        .unwrap_or_else(|| texts.first().map_or("", |(_, t)| t));
    if is_tool_error(&result) {
        let detail = if text.is_empty() { "no details" } else { text };
        return Err(expression_error(format!(
            "MCP tool '{name}' returned an error: {detail}"
        )));
    }
    let blocks: Vec<&str> = texts.iter().map(|(_, t)| *t).collect();
    let json = json_of(text, &blocks, limits)?;

    let mut collected = Collected {
        version: &host.default_version,
        limits,
        sink: host.sink.as_deref(),
        messages: Vec::new(),
        apps: Vec::new(),
        state,
    };
    // UI resources: the result's own, else the tool's declared ones; then MCP App links.
    let mut uris = resource_uris(raw.get("_meta"));
    if uris.is_empty()
        && let Some(def) = host.tool_definition(client, name).await
    {
        uris = resource_uris(def.get("_meta"));
    }
    for block in content {
        if block.get("type").and_then(Value::as_str) == Some("resource_link") {
            let uri = block.get("uri").and_then(Value::as_str).unwrap_or("");
            let mime = block.get("mimeType").and_then(Value::as_str).unwrap_or("");
            if !uri.is_empty()
                && (is_mcp_app_mime_type(mime) || uri.starts_with("ui://"))
                && !uris.iter().any(|u| u == uri)
            {
                uris.push(uri.to_owned());
            }
        }
    }
    for uri in &uris {
        let read = read_resource(host, client, uri).await.map_err(|e| {
            expression_error(format!(
                "Failed to read resource '{uri}' for MCP tool '{name}': {}",
                e.message()
            ))
            .with_source(e)
        })?;
        let read_meta = read.pointer("/_meta/ui");
        for item in read
            .get("contents")
            .and_then(Value::as_array)
            .unwrap_or(&empty)
        {
            collected.item(name, item, read_meta)?;
        }
    }
    // Inline resources, in content order. Text blocks are never A2UI.
    for block in content {
        if block.get("type").and_then(Value::as_str) == Some("resource")
            && let Some(item) = block.get("resource")
        {
            collected.item(name, item, None)?;
        }
    }

    let structured = raw.get("structuredContent").cloned();
    let Collected { messages, apps, .. } = collected;
    let app = apps.last().map(|app| AppMembers {
        resource_uri: Value::String(app.uri.clone()),
        html: Value::String(app.html.clone()),
        csp: app.csp.clone(),
        permissions: app.permissions.clone(),
    });
    let text = match single {
        Some(i) => TextMember::Block(i),
        None => TextMember::Joined(joined.unwrap_or_default()),
    };
    let value = ToolResponse::new(
        Value::String(name.to_owned()),
        arguments,
        result,
        structured,
        text,
        json,
        app,
    );
    Ok(Response {
        value,
        messages,
        apps,
    })
}

/// `json`: the joined text when it is a JSON object or array; otherwise, for several text
/// blocks, the array of those that are; absent when none is.
fn json_of(text: &str, texts: &[&str], limits: &Limits) -> Result<Option<FastValue>, Error> {
    if let Some(v) = parse_container(text, limits)? {
        return Ok(Some(v));
    }
    if texts.len() < 2 {
        return Ok(None);
    }
    let mut found = Vec::new();
    for block in texts {
        if let Some(v) = parse_container(block, limits)? {
            found.push(v);
        }
    }
    Ok(if found.is_empty() {
        None
    } else {
        Some(fast_array(found))
    })
}

/// The text as JSON when it is an object or an array. Text that is not JSON is prose (no
/// error); JSON nested past the depth limit is `LIMIT_EXCEEDED`.
fn parse_container(text: &str, limits: &Limits) -> Result<Option<FastValue>, Error> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return Ok(None);
    }
    match parse_fast(text, limits.max_depth) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.code() == ErrorCode::LimitExceeded => Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "the tool's text is JSON nested deeper than the limit of {} levels",
                limits.max_depth
            ),
        )),
        Err(e) if e.code() == ErrorCode::ExpressionError => Err(Error::new(
            ErrorCode::ExpressionError,
            format!(
                "the tool's text is JSON that cannot be read: {}",
                e.message()
            ),
        )),
        Err(_) => Ok(None),
    }
}

/// The URIs of `_meta.ui.resourceUri` (a string or an array): non-empty strings, each once.
fn resource_uris(meta: Option<&Value>) -> Vec<String> {
    let mut uris: Vec<String> = Vec::new();
    let mut add = |v: &Value| {
        if let Some(uri) = v.as_str().filter(|u| !u.is_empty())
            && !uris.iter().any(|u| u == uri)
        {
            uris.push(uri.to_owned());
        }
    };
    match meta.and_then(|m| m.pointer("/ui/resourceUri")) {
        Some(Value::Array(items)) => items.iter().for_each(&mut add),
        Some(v) => add(v),
        None => {}
    }
    uris
}

/// Reads a resource once per host (cached by URI, bounded).
async fn read_resource(
    host: &McpHost,
    client: &Arc<dyn ToolClient>,
    uri: &str,
) -> Result<Arc<Value>, Error> {
    if let Some(cached) = host.resources.get(uri) {
        return Ok(cached);
    }
    let read = client
        .read_resource(uri)
        .await
        .map_err(|e| expression_error(e.to_string()).with_source(e))?;
    let read = Arc::new(read);
    host.resources.insert(uri.to_owned(), read.clone());
    Ok(read)
}

/// The messages and MCP Apps a call has collected so far.
struct Collected<'a> {
    version: &'a str,
    limits: &'a Limits,
    sink: Option<&'a dyn MessageSink>,
    messages: Vec<Value>,
    apps: Vec<McpAppResource>,
    state: &'a mut EvalState,
}

impl Collected<'_> {
    /// One resource item (read or embedded): A2UI content, an MCP App, or something else.
    fn item(&mut self, tool: &str, item: &Value, read_meta: Option<&Value>) -> Result<(), Error> {
        let Value::Object(item) = item else {
            return Ok(());
        };
        let mime = item.get("mimeType").and_then(Value::as_str).unwrap_or("");
        let uri = item.get("uri").and_then(Value::as_str).unwrap_or("");
        if is_a2ui_mime_type(mime) {
            return self.a2ui(uri, item);
        }
        if is_mcp_app_mime_type(mime) || uri.starts_with("ui://") {
            let html = match (
                item.get("text").and_then(Value::as_str),
                item.get("blob").and_then(Value::as_str),
            ) {
                (Some(text), _) => text.to_owned(),
                (None, Some(blob)) => {
                    let bytes = super::base64::decode(blob).map_err(|e| {
                        expression_error(format!(
                            "the MCP App resource '{uri}' has a blob that is not base64: {e}"
                        ))
                    })?;
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                (None, None) => return Ok(()),
            };
            let own = item.get("_meta").and_then(|m| m.get("ui"));
            let pick = |key: &str| {
                own.and_then(|m| m.get(key))
                    .or_else(|| read_meta.and_then(|m| m.get(key)))
                    .cloned()
            };
            self.apps.push(McpAppResource {
                tool_name: tool.to_owned(),
                uri: uri.to_owned(),
                html,
                csp: pick("csp"),
                permissions: pick("permissions"),
            });
        }
        Ok(())
    }

    fn a2ui(&mut self, uri: &str, item: &Map<String, Value>) -> Result<(), Error> {
        let mut messages = Vec::new();
        let subject = format!("the A2UI resource '{uri}'");
        super::protocol::read::read_messages(item, "", self.limits, &subject, &mut messages)
            .map_err(|e| {
                let code = if e.code() == ErrorCode::LimitExceeded {
                    ErrorCode::LimitExceeded
                } else {
                    ErrorCode::ExpressionError
                };
                Error::new(code, e.message().to_owned()).with_source(e)
            })?;
        // A resource that would create a surface that already exists is skipped whole: a second
        // call reuses the surface instead of re-creating it.
        let creates = |m: &Value| {
            m.pointer("/createSurface/surfaceId")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let exists = |id: &str| {
            self.state.created_surfaces.contains(id) || self.sink.is_some_and(|s| s.has_surface(id))
        };
        if messages.iter().filter_map(creates).any(|id| exists(&id)) {
            return Ok(());
        }
        for mut message in messages {
            if let Some(id) = creates(&message) {
                self.state.created_surfaces.insert(id);
            }
            if let Value::Object(map) = &mut message
                && map.get("version").is_none_or(Value::is_null)
            {
                map.insert("version".into(), Value::String(self.version.to_owned()));
            }
            self.messages.push(message);
        }
        Ok(())
    }
}
