//! `callMcpTool`: call the tool, build the response object, collect the A2UI messages and MCP
//! Apps its result links or embeds, and write the response to `targetDataPath` unless a newer
//! call to that path has started; forward what was collected only once all of that worked.
//! The steps and the response object's members are stated in `docs/mcp.md` and, in short, in
//! the `mcp` module's documentation.

use super::audit::{AuditRecord, CallOutcome};
use super::client::{McpAppResource, MessageSink, ToolClient};
use super::mcp_host::McpHost;
use super::policy::{Decision, ToolCallRequest};
use crate::catalog::ToolCall;
use crate::error::{Denial, Error, ErrorCode};
use crate::json::Structure;
use crate::json::kind_name;
use crate::limits::Limits;
use crate::mcp::protocol::Visibility;
use crate::mcp::protocol::{is_a2ui_mime_type, is_mcp_app_mime_type};
use crate::model::{DataModel, SharedModel, Write, check_write_depth, padding_bound};
use crate::origin::{Invocation, Origin, Provenance};
use crate::path::write_target;
use crate::payload::{Answer, CallScope, ToolHost, sealed};
use crate::value::{AppMembers, JsonMember, JsonText, TextMember, ToolResponse, read_json};
use serde_json::{Map, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// What one evaluation remembers across its tool calls: the surfaces its forwarded messages
/// created (a later resource that would create one of them again is skipped).
// `pub` in a private module: the host's session type of `ToolHost`, which no one outside the
// crate can name.
#[derive(Debug)]
pub struct EvalState {
    created_surfaces: HashSet<String>,
    /// The messages will be forwarded to the host's sink (which then says which surfaces
    /// exist); `false` when the evaluation's holder processes them itself.
    forward: bool,
}

impl Default for EvalState {
    fn default() -> EvalState {
        EvalState {
            created_surfaces: HashSet::new(),
            forward: true,
        }
    }
}

fn expression_error(message: String) -> Error {
    Error::new(ErrorCode::ExpressionError, message)
}

/// A call the policy allowed, with its client and its audit record (which the caller
/// finishes with the outcome).
struct Authorized<'h> {
    client: Arc<dyn ToolClient>,
    server: Option<String>,
    definition: Option<Value>,
    audit: AuditRecord<'h>,
}

/// Finds the call's client and asks the host's policy: the steps before a request is sent.
async fn authorized<'h>(
    host: &'h McpHost,
    name: &str,
    arguments: &Value,
    invocation: &Invocation,
) -> Result<Authorized<'h>, Error> {
    let client = resolve(host, name, arguments, invocation).await?;
    let server = client.server_name();
    let definition = host.tool_definition(&client, name).await;
    let audit = authorize(
        host,
        name,
        arguments,
        server.as_deref(),
        definition.as_ref(),
        invocation,
    )
    .await?;
    Ok(Authorized {
        client,
        server,
        definition,
        audit,
    })
}

/// Sends an authorized call and builds its response; a failure is audited here.
async fn send(
    host: &McpHost,
    authorized: &mut Option<Authorized<'_>>,
    name: &str,
    arguments: Value,
    limits: &Limits,
    state: &mut EvalState,
) -> Result<Response, Error> {
    let auth = authorized
        .as_ref()
        .expect("an authorized call is sent once");
    let failed =
        |reason: String| expression_error(format!("Failed to execute MCP tool '{name}': {reason}"));
    let result = auth
        .client
        .call_tool(name, &arguments, host.meta.as_ref())
        .await
        .map_err(|e| failed(e.to_string()).with_source(e));
    let tool_error = matches!(&result, Ok(r) if is_tool_error(r));
    let outcome = match result {
        Ok(result) => {
            let call = Called {
                client: &auth.client,
                name,
                definition: auth.definition.as_ref(),
            };
            respond(host, call, arguments, result, limits, state).await
        }
        Err(e) => Err(e),
    };
    if let Err(e) = &outcome {
        let auth = authorized.take().expect("taken once");
        auth.audit.finish(if tool_error {
            CallOutcome::ToolError
        } else {
            CallOutcome::HostFailure(e.message().to_owned())
        });
    }
    outcome
}

impl sealed::Sealed for McpHost {}

// Sealed: the types are the evaluator's own, which no one outside the crate names.
#[allow(private_interfaces)]
impl ToolHost for McpHost {
    type Session = EvalState;

    fn answer_call<'a, M: DataModel + Send>(
        &'a self,
        model: &'a SharedModel<M>,
        scope: CallScope<'a>,
        session: &'a mut EvalState,
        call: ToolCall,
    ) -> Answer<'a> {
        Box::pin(call_tool(self, model, scope, session, call))
    }
}

/// Runs one call through to its value. The model is locked only to write.
async fn call_tool<M: DataModel + Send>(
    host: &McpHost,
    model: &SharedModel<M>,
    scope: CallScope<'_>,
    state: &mut EvalState,
    call: ToolCall,
) -> Result<Arc<ToolResponse>, Error> {
    let CallScope {
        context,
        limits,
        invocation,
        budget,
    } = scope;
    let ToolCall {
        name,
        arguments,
        target,
    } = call;
    let target = target
        .map(|path| write_target(&path, context, limits.max_depth))
        .transpose()?;
    let mut auth = Some(authorized(host, &name, &arguments, invocation).await?);
    // The call starts when its request is sent: from now on it is the latest for its path.
    let ticket = target.clone().map(|path| model.start_call(path));
    let outcome = send(host, &mut auth, &name, arguments, limits, state).await;
    let Response {
        value,
        messages,
        apps,
        warnings,
    } = match outcome {
        Ok(response) => response,
        Err(e) => {
            if let Some(ticket) = &ticket {
                model.finish_call(ticket);
            }
            return Err(e);
        }
    };
    let Authorized {
        server, mut audit, ..
    } = auth.expect("kept on success");
    for warning in warnings {
        audit.warn(warning);
    }
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
            let written = check_write_depth(&write, limits.max_depth)
                .and_then(|()| {
                    let padding = padding_bound(&*locked, std::slice::from_ref(&write));
                    budget.spend_items(padding, &format!("padding arrays with {padding} nulls"))
                })
                .and_then(|()| locked.apply(vec![write], limits.max_index));
            if let Err(e) = written {
                drop(locked);
                audit.finish(CallOutcome::HostFailure(e.message().to_owned()));
                return Err(e);
            }
        }
    }
    // Only now has every step worked: forward what the call collected, with where it came
    // from.
    let messages: Vec<Value> = messages.into_iter().flatten().collect();
    if let Some(sink) = &host.sink
        && !messages.is_empty()
    {
        sink.process_from(messages, &Provenance::new(name.clone(), server.clone()));
    }
    deliver_apps(host, apps, &server);
    audit.finish(if superseded {
        CallOutcome::Superseded
    } else {
        CallOutcome::Ok
    });
    Ok(Arc::new(value))
}

fn deliver_apps(host: &McpHost, apps: Vec<McpAppResource>, server: &Option<String>) {
    if let Some(on_app) = &host.on_app {
        for mut app in apps {
            app.server.clone_from(server);
            on_app(&app);
        }
    }
}

/// The answer to a tool call whose evaluation its owner holds (a surface's pending run): the
/// response object, and the A2UI messages the result carried, one list per resource, for the
/// owner to process. Nothing of it is written or forwarded yet; its MCP Apps went to the host's
/// callback.
pub(crate) struct ToolAnswer {
    pub(crate) response: Arc<ToolResponse>,
    pub(crate) messages: Vec<Vec<Value>>,
    pub(crate) source: Provenance,
}

impl McpHost {
    /// Makes one tool call for an evaluation held elsewhere: the policy, the audit, the output
    /// schema, the resources the result links, as [`Payload::eval_async`] does, but nothing is
    /// written and no message is forwarded: the holder of the evaluation does both. The audit
    /// records the call `Ok` once its response is built (whether it is still wanted is the
    /// holder's to say).
    pub(crate) async fn answer(
        &self,
        name: &str,
        arguments: Value,
        invocation: &Invocation,
        limits: &Limits,
    ) -> Result<ToolAnswer, Error> {
        let mut auth = Some(authorized(self, name, &arguments, invocation).await?);
        // The holder applies "a resource that would create an existing surface is skipped" (it
        // knows its surfaces); here each call starts with none.
        let mut state = EvalState {
            created_surfaces: HashSet::new(),
            forward: false,
        };
        let Response {
            value,
            messages,
            apps,
            warnings,
        } = send(self, &mut auth, name, arguments, limits, &mut state).await?;
        let Authorized {
            server, mut audit, ..
        } = auth.expect("kept on success");
        for warning in warnings {
            audit.warn(warning);
        }
        deliver_apps(self, apps, &server);
        audit.finish(CallOutcome::Ok);
        Ok(ToolAnswer {
            response: Arc::new(value),
            messages,
            source: Provenance::new(name.to_owned(), server),
        })
    }
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
    invocation: &Invocation,
) -> Result<Arc<dyn ToolClient>, Error> {
    if let Some(client) = host.router.client_for(name).await {
        return Ok(client);
    }
    let reason = "no connected MCP server has this tool";
    AuditRecord::start(host.audit.as_deref(), name, arguments, None, invocation)
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
    name: &str,
    arguments: &Value,
    server: Option<&str>,
    definition: Option<&Value>,
    invocation: &Invocation,
) -> Result<AuditRecord<'h>, Error> {
    let origin = invocation.origin;
    // Started before the decision, so that an evaluation dropped while the policy decides (a
    // consent dialog left open) is audited as cancelled.
    let mut audit = AuditRecord::start(host.audit.as_deref(), name, arguments, server, invocation);
    // MCP Apps visibility comes first: it is the specification's rule, not the host's choice.
    let (decision, denial) = match visibility_refusal(host, definition, server, invocation) {
        Some(why) => (Decision::Deny(why), Denial::Visibility),
        None => match &host.policy {
            None => (Decision::Allow, Denial::Policy),
            Some(policy) => {
                let request = ToolCallRequest::new(name, arguments, origin)
                    .with_source(invocation.source.as_ref())
                    .with_server(server)
                    .with_definition(definition);
                (policy.decide(&request).await, Denial::Policy)
            }
        },
    };
    audit.decided(&decision);
    match decision {
        Decision::Allow => Ok(audit),
        Decision::Deny(reason) => {
            audit.finish(CallOutcome::Denied);
            Err(
                expression_error(format!("MCP tool '{name}' is not allowed: {reason}"))
                    .with_denial(denial),
            )
        }
    }
}

/// Why the tool's MCP Apps visibility keeps it from this caller (see the `visibility`
/// module), or `None`. A tool missing from the list has the default visibility: everyone.
fn visibility_refusal(
    host: &McpHost,
    definition: Option<&Value>,
    server: Option<&str>,
    invocation: &Invocation,
) -> Option<String> {
    let visibility = Visibility::of(definition?);
    if invocation.origin == Origin::App {
        if !visibility.app {
            return Some(
                "its visibility (_meta.ui.visibility) does not include \"app\": apps may not call it"
                    .to_owned(),
            );
        }
        if visibility.is_app_only() {
            let from = invocation.source.as_ref().and_then(|s| s.server.as_deref());
            return match (from, server) {
                (Some(from), Some(to)) if from == to => None,
                (Some(from), Some(to)) => Some(format!(
                    "only apps see it (_meta.ui.visibility), and an app of server '{from}' may not call an app-only tool of server '{to}'"
                )),
                _ => Some(
                    "only apps see it (_meta.ui.visibility), and the app's server is not known to be the tool's: the host did not say where the app came from, or a server has no name"
                        .to_owned(),
                ),
            };
        }
        return None;
    }
    (visibility.is_app_only() && !host.app_only_in_surfaces).then(|| {
        format!(
            "only MCP Apps see it (_meta.ui.visibility without \"model\"), and the call comes from {} of a surface",
            invocation.origin
        )
    })
}

/// What a successful call produced.
struct Response {
    value: ToolResponse,
    /// One list per resource.
    messages: Vec<Vec<Value>>,
    apps: Vec<McpAppResource>,
    /// For the audit event (a dropped `structuredContent`).
    warnings: Vec<String>,
}

/// The call `respond` builds the response of.
struct Called<'c> {
    client: &'c Arc<dyn ToolClient>,
    name: &'c str,
    /// The tool's `tools/list` entry, as the host holds it.
    definition: Option<&'c Value>,
}

async fn respond(
    host: &McpHost,
    call: Called<'_>,
    arguments: Value,
    #[cfg_attr(not(feature = "json-schema"), allow(unused_mut))] mut result: Value,
    limits: &Limits,
    state: &mut EvalState,
) -> Result<Response, Error> {
    let Called {
        client,
        name,
        definition,
    } = call;
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
    #[cfg_attr(not(feature = "json-schema"), allow(unused_mut))]
    let mut warnings = Vec::new();
    #[cfg(feature = "json-schema")]
    if let Some(mode) = host.output_check
        && result.is_object()
        && !is_tool_error(&result)
    {
        use super::output_schema::Checked;
        let key = super::client::client_key(client);
        match host
            .output_schemas
            .check(mode, key, name, definition, &result, limits.max_depth)?
        {
            Checked::Keep => {}
            Checked::Drop(warning) => {
                if let Value::Object(map) = &mut result {
                    map.remove("structuredContent");
                }
                warnings.push(warning);
            }
        }
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
    let json = json_of(text, &texts, limits)?;

    let mut collected = Collected {
        version: &host.default_version,
        limits,
        sink: if state.forward {
            host.sink.as_deref()
        } else {
            None
        },
        messages: Vec::new(),
        apps: Vec::new(),
        state,
    };
    // UI resources: the result's own, else the tool's declared ones; then MCP App links.
    let mut uris = resource_uris(raw.get("_meta"));
    if uris.is_empty()
        && let Some(def) = definition
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
        warnings,
    })
}

/// `json`: the joined text when it is a JSON object or array; otherwise, for several text
/// blocks (with their index in `content`), the array of those that are; absent when none is.
/// The texts are checked here; their values are decoded when read.
fn json_of(
    text: &str,
    texts: &[(usize, &str)],
    limits: &Limits,
) -> Result<Option<JsonMember>, Error> {
    if let Some(structure) = parse_container(text, limits)? {
        return Ok(Some(JsonMember::one(JsonText::Text, structure)));
    }
    if texts.len() < 2 {
        return Ok(None);
    }
    let mut found = Vec::new();
    for (i, block) in texts {
        if let Some(structure) = parse_container(block, limits)? {
            found.push((JsonText::Block(*i), structure));
        }
    }
    Ok((!found.is_empty()).then(|| JsonMember::several(found)))
}

/// The text checked as JSON when it is an object or an array. Text that is not JSON is prose
/// (no error); JSON nested past the depth limit is `LIMIT_EXCEEDED`.
fn parse_container(text: &str, limits: &Limits) -> Result<Option<Structure>, Error> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return Ok(None);
    }
    match read_json(text, limits.max_depth) {
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
    /// One list per resource.
    messages: Vec<Vec<Value>>,
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
                    let bytes = crate::mcp::protocol::base64::decode(blob).map_err(|e| {
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
                server: None,
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
        crate::mcp::protocol::read::read_messages(item, "", self.limits, &subject, &mut messages)
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
        for message in &mut messages {
            if let Some(id) = creates(message) {
                self.state.created_surfaces.insert(id);
            }
            if let Value::Object(map) = message
                && map.get("version").is_none_or(Value::is_null)
            {
                map.insert("version".into(), Value::String(self.version.to_owned()));
            }
        }
        if !messages.is_empty() {
            self.messages.push(messages);
        }
        Ok(())
    }
}
