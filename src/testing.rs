//! Test helpers for hosts and payload authors: a scripted MCP server and a minimal executor.
//!
//! [`ScriptedServer`] plays the fixtures' `server` object (`docs/fixtures.md`): scripted tool
//! results (the last repeats), `tools/list`, resources by URI, and the surfaces the renderer
//! already holds. It records the tool calls and resource reads it sees and the messages it receives as
//! the message sink. Calls can be held and released one by one, to test concurrent calls that
//! complete in any order.
//!
//! ```
//! use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel, testing::{ScriptedServer, block_on}};
//! use serde_json::json;
//!
//! let server = ScriptedServer::from_json(&json!({
//!     "results": {"list_issues": [{"content": [{"type": "text", "text": "[{\"number\": 1}]"}]}]}
//! }))?;
//! let payload = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {
//!     "name": "list_issues", "arguments": {"state": "open"}, "targetDataPath": "/issues"}}))?;
//! let model = SharedModel::new(json!({}));
//! block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host()))?;
//! assert_eq!(model.into_inner()["issues"]["json"], json!([{"number": 1}]));
//! assert_eq!(server.tool_calls(), vec![json!({"name": "list_issues", "arguments": {"state": "open"}})]);
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

use crate::error::{Error, ErrorCode};
use crate::mcp::{
    AllowList, BoxFuture, ConsentForDestructive, DenyList, HostError, McpHost, MessageSink,
    ReadOnlyUnlessUserAction, SameServerAsSource, ToolClient, ToolPolicy, ToolPolicyExt,
};
use crate::origin::Provenance;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

/// A scripted MCP server that is also the renderer's message sink.
#[derive(Clone, Default)]
pub struct ScriptedServer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for ScriptedServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedServer")
            .field("name", &self.inner.name)
            .field("tools", &self.inner.results.keys().collect::<Vec<_>>())
            .field(
                "resources",
                &self.inner.resources.keys().collect::<Vec<_>>(),
            )
            .field("policy", &self.inner.policy.is_some())
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Inner {
    name: Option<String>,
    /// Where the surface under test came from (`source`).
    source: Option<Provenance>,
    /// `outputSchema`: `"fail"` or `"drop"` (read only with the feature `json-schema`, without
    /// which a server that has it is refused).
    #[cfg_attr(not(feature = "json-schema"), allow(dead_code))]
    output_schema: Option<String>,
    results: HashMap<String, Vec<Value>>,
    resources: Map<String, Value>,
    policy: Option<Arc<dyn ToolPolicy>>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    tools: Vec<Value>,
    tool_lists: usize,
    calls_per_tool: HashMap<String, usize>,
    /// Per tool, owned copies of what its next calls return, made ahead by
    /// [`ScriptedServer::stage_next_results`].
    staged: HashMap<String, std::collections::VecDeque<Value>>,
    tool_calls: Vec<Value>,
    resource_reads: Vec<String>,
    messages: Vec<Value>,
    /// Where each call's forwarded messages came from, one entry per `process_from`.
    message_sources: Vec<Provenance>,
    surfaces: Vec<String>,
    holding: bool,
    held: Vec<Gate>,
}

/// A held call: released when its flag is set.
#[derive(Clone, Default)]
struct Gate {
    inner: Arc<Mutex<(bool, Option<Waker>)>>,
}

impl Gate {
    fn open(&self) {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        g.0 = true;
        if let Some(w) = g.1.take() {
            w.wake();
        }
    }
}

impl Future for Gate {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut g = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if g.0 {
            Poll::Ready(())
        } else {
            g.1 = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

fn bad(why: String) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("invalid scripted server: {why}"),
    )
}

/// The host's tool policy a fixture's `server.policy` describes: any of `allow` (the tools
/// that may be called), `deny` (the tools that may not), `denyDestructive` (`true`: refuse
/// every tool that is destructive by MCP's defaults, reading the annotations of `tools`),
/// `readOnlyUnlessUserAction` (`true`: [`ReadOnlyUnlessUserAction`] trusting every server's
/// annotations; `{"trustedServers": [names]}`: only those servers') and `sameServerAsSource`
/// (`true`: [`SameServerAsSource`]). When several are given, a call must pass them all, in
/// that order.
const POLICY_KEYS: [&str; 5] = [
    "allow",
    "deny",
    "denyDestructive",
    "readOnlyUnlessUserAction",
    "sameServerAsSource",
];

fn policy_of(policy: &Value) -> Result<Option<Arc<dyn ToolPolicy>>, Error> {
    let Value::Object(members) = policy else {
        return Err(bad("'policy' is not an object".into()));
    };
    let names = |key: &str| -> Result<Option<Vec<String>>, Error> {
        let Some(list) = members.get(key) else {
            return Ok(None);
        };
        let not_names = || bad(format!("'policy.{key}' is not an array of tool names"));
        let list = list.as_array().ok_or_else(not_names)?;
        list.iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(not_names))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    };
    if let Some(key) = members.keys().find(|k| !POLICY_KEYS.contains(&k.as_str())) {
        return Err(bad(format!(
            "'policy' has '{key}'; it takes {}",
            POLICY_KEYS.map(|k| format!("'{k}'")).join(", ")
        )));
    }
    let flag = |key: &str| match members.get(key) {
        None | Some(Value::Bool(false)) => Ok(false),
        Some(Value::Bool(true)) => Ok(true),
        Some(_) => Err(bad(format!("'policy.{key}' is not a boolean"))),
    };
    let read_only = match members.get("readOnlyUnlessUserAction") {
        None | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => Some(ReadOnlyUnlessUserAction::trusting_every_server()),
        Some(Value::Object(o)) if o.keys().all(|k| k == "trustedServers") => {
            let servers = o
                .get("trustedServers")
                .and_then(Value::as_array)
                .and_then(|l| l.iter().map(|v| v.as_str()).collect::<Option<Vec<_>>>())
                .ok_or_else(|| {
                    bad("'policy.readOnlyUnlessUserAction.trustedServers' is not an array of server names".into())
                })?;
            Some(ReadOnlyUnlessUserAction::trusting(servers))
        }
        Some(_) => {
            return Err(bad(
                "'policy.readOnlyUnlessUserAction' is neither a boolean nor {\"trustedServers\": [names]}"
                    .into(),
            ));
        }
    };
    let same_server = flag("sameServerAsSource")?;
    let deny_destructive = flag("denyDestructive")?;
    // Each form, when given, as one policy; a call must pass them all.
    let mut parts: Vec<Arc<dyn ToolPolicy>> = Vec::new();
    if let Some(tools) = names("allow")? {
        parts.push(Arc::new(AllowList::new(tools)));
    }
    if let Some(tools) = names("deny")? {
        parts.push(Arc::new(DenyList::new(tools)));
    }
    if deny_destructive {
        parts.push(Arc::new(ConsentForDestructive::deny()));
    }
    if let Some(policy) = read_only {
        parts.push(Arc::new(policy));
    }
    if same_server {
        parts.push(Arc::new(SameServerAsSource));
    }
    Ok(parts
        .into_iter()
        .reduce(|all, next| Arc::new(all.and(next)) as Arc<dyn ToolPolicy>))
}

impl ScriptedServer {
    /// A server from the fixtures' `server` object (all of its members optional):
    ///
    /// | member | what |
    /// |---|---|
    /// | `tools` | what `tools/list` returns: the tools' definitions, with their `_meta` and `annotations` |
    /// | `results` | tool name → the results of its 1st, 2nd, … call (the last repeats); `{"$error": "message"}` is a failed call |
    /// | `resources` | URI → what `resources/read` returns |
    /// | `surfaces` | the surface ids the renderer already holds |
    /// | `name` | the server's name, as [`ToolClient::server_name`] says it |
    /// | `policy` | the host's tool policy ([`host`](ScriptedServer::host) applies it): `{"allow": [names]}` (only these tools may be called), `{"deny": [names]}` (these may not), `{"denyDestructive": true}` (no tool that is destructive: unless its `annotations` in `tools` say `readOnlyHint: true` or `destructiveHint: false`; a tool missing from `tools` is destructive), `{"readOnlyUnlessUserAction": true}` (read-only tools from anywhere, others only from a user action; `{"trustedServers": [names]}` instead of `true` trusts only those servers' annotations), `{"sameServerAsSource": true}` (only tools of the server in `source`). Several members: a call must pass each |
    /// | `source` | `{"tool", "server"}`: where the surface under test came from; the fixture runner passes it with the case's `origin` |
    /// | `outputSchema` | `"fail"` or `"drop"`: `structuredContent` checked against the tools' `outputSchema` (feature `json-schema`) |
    ///
    /// A denied call never reaches the server: it is not in [`tool_calls`](ScriptedServer::tool_calls).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel, testing::{ScriptedServer, block_on}};
    /// use serde_json::json;
    ///
    /// let server = ScriptedServer::from_json(&json!({
    ///     "tools": [{"name": "delete_all", "inputSchema": {"type": "object"}}],
    ///     "results": {"delete_all": [{"content": []}]},
    ///     "policy": {"denyDestructive": true}
    /// }))?;
    /// let payload = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {"name": "delete_all"}}))?;
    /// let err = block_on(payload.eval_async(&SharedModel::new(json!({})), &JsonPointer::root(), &server.host())).unwrap_err();
    /// assert!(err.message().contains("not allowed"));
    /// assert!(server.tool_calls().is_empty());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn from_json(server: &Value) -> Result<ScriptedServer, Error> {
        let Value::Object(server) = server else {
            return Err(bad("not an object".into()));
        };
        let name = match server.get("name") {
            None => None,
            Some(Value::String(name)) => Some(name.clone()),
            Some(_) => return Err(bad("'name' is not a string".into())),
        };
        let policy = match server.get("policy") {
            None => None,
            Some(policy) => policy_of(policy)?,
        };
        let source = match server.get("source") {
            None => None,
            Some(Value::Object(o))
                if o.keys().all(|k| k == "tool" || k == "server")
                    && matches!(o.get("tool"), Some(Value::String(_)))
                    && matches!(o.get("server"), None | Some(Value::String(_) | Value::Null)) =>
            {
                Some(Provenance::new(
                    o["tool"].as_str().unwrap_or_default(),
                    o.get("server").and_then(Value::as_str).map(str::to_owned),
                ))
            }
            Some(_) => {
                return Err(bad(
                    "'source' is not {\"tool\": name, \"server\": name or null}".into(),
                ));
            }
        };
        let output_schema = match server.get("outputSchema") {
            None => None,
            Some(Value::String(mode)) if mode == "fail" || mode == "drop" => {
                if cfg!(feature = "json-schema") {
                    Some(mode.clone())
                } else {
                    return Err(bad(
                        "'outputSchema' needs the crate's json-schema feature".into()
                    ));
                }
            }
            Some(_) => return Err(bad("'outputSchema' is neither \"fail\" nor \"drop\"".into())),
        };
        let tools = match server.get("tools") {
            None => Vec::new(),
            Some(Value::Array(tools)) => tools.clone(),
            Some(_) => return Err(bad("'tools' is not an array".into())),
        };
        let mut results = HashMap::new();
        if let Some(map) = server.get("results") {
            let Value::Object(map) = map else {
                return Err(bad("'results' is not an object".into()));
            };
            for (tool, list) in map {
                match list {
                    Value::Array(list) if !list.is_empty() => {
                        results.insert(tool.clone(), list.clone());
                    }
                    _ => {
                        return Err(bad(format!(
                            "the results of '{tool}' are not a non-empty array"
                        )));
                    }
                }
            }
        }
        let resources = match server.get("resources") {
            None => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(_) => return Err(bad("'resources' is not an object".into())),
        };
        let surfaces = match server.get("surfaces") {
            None => Vec::new(),
            Some(Value::Array(ids)) => ids
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            Some(_) => return Err(bad("'surfaces' is not an array".into())),
        };
        let state = Mutex::new(State {
            tools,
            surfaces,
            ..State::default()
        });
        Ok(ScriptedServer {
            inner: Arc::new(Inner {
                name,
                source,
                output_schema,
                results,
                resources,
                policy,
                state,
            }),
        })
    }

    /// A host whose tools all go to this server and whose messages come back to it, with the
    /// server's `policy` when it has one.
    pub fn host(&self) -> McpHost {
        let host = McpHost::new(Arc::new(self.clone())).with_sink(Arc::new(self.clone()));
        #[cfg(feature = "json-schema")]
        let host = match self.inner.output_schema.as_deref() {
            Some("fail") => host.with_output_schema(crate::mcp::OutputSchemaCheck::Fail),
            Some(_) => host.with_output_schema(crate::mcp::OutputSchemaCheck::Drop),
            None => host,
        };
        match &self.inner.policy {
            Some(policy) => host.with_policy(policy.clone()),
            None => host,
        }
    }

    /// Where the surface under test came from (the `source` member), for the evaluation's
    /// [`Invocation`](crate::Invocation).
    pub fn source(&self) -> Option<Provenance> {
        self.inner.source.clone()
    }

    /// Replaces what `tools/list` returns from now on (a server whose tools changed).
    pub fn set_tools(&self, tools: Vec<Value>) {
        self.state().tools = tools;
    }

    /// The provenance of each batch of messages the sink received, in order.
    pub fn message_sources(&self) -> Vec<Provenance> {
        self.state().message_sources.clone()
    }

    /// How many times `tools/list` was asked.
    pub fn tool_list_requests(&self) -> usize {
        self.state().tool_lists
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Makes, now, an owned copy of what each tool's next call will return (when none is made
    /// yet), so that the call hands it over instead of copying the scripted result then.
    ///
    /// A real client owns each result it returns (it parsed it from the wire); a scripted one
    /// copies it, which for a multi-megabyte tool text is a measurable part of a chain. A
    /// benchmark calls this before it starts its clock (`eval --repeat` does), so that it times
    /// what a host pays. What the calls return is unchanged.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::testing::ScriptedServer;
    /// # use serde_json::json;
    /// let server = ScriptedServer::from_json(&json!({
    ///     "results": {"echo": [{"content": [{"type": "text", "text": "hi"}]}]}
    /// })).unwrap();
    /// server.stage_next_results();
    /// ```
    pub fn stage_next_results(&self) {
        let mut state = self.state();
        let state = &mut *state;
        for (name, list) in &self.inner.results {
            let staged = state.staged.entry(name.clone()).or_default();
            if staged.is_empty() {
                let calls = state.calls_per_tool.get(name).copied().unwrap_or(0);
                staged.push_back(list[calls.min(list.len() - 1)].clone());
            }
        }
    }

    /// From now on, tool calls wait until [`release`](ScriptedServer::release)d.
    pub fn hold_calls(&self) {
        self.state().holding = true;
    }

    /// How many calls are waiting (released or not).
    pub fn held_calls(&self) -> usize {
        self.state().held.len()
    }

    /// Lets the `index`-th held call (in the order the calls were made) complete.
    pub fn release(&self, index: usize) {
        let gate = self.state().held.get(index).cloned();
        if let Some(gate) = gate {
            gate.open();
        }
    }

    /// The tool calls seen, in order: `{"name", "arguments"}`.
    pub fn tool_calls(&self) -> Vec<Value> {
        self.state().tool_calls.clone()
    }

    /// The resource URIs read, in order.
    pub fn resource_reads(&self) -> Vec<String> {
        self.state().resource_reads.clone()
    }

    /// The A2UI messages received as the message sink, in order.
    pub fn messages(&self) -> Vec<Value> {
        self.state().messages.clone()
    }
}

impl ToolClient for ScriptedServer {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        _meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        let (result, gate) = {
            let mut state = self.state();
            state
                .tool_calls
                .push(json!({"name": name, "arguments": arguments}));
            let staged = state.staged.get_mut(name).and_then(|s| s.pop_front());
            let n = state.calls_per_tool.entry(name.to_owned()).or_default();
            let result = staged.or_else(|| {
                self.inner
                    .results
                    .get(name)
                    .map(|list| list[(*n).min(list.len() - 1)].clone())
            });
            *n += 1;
            let gate = state.holding.then(Gate::default);
            if let Some(gate) = &gate {
                state.held.push(gate.clone());
            }
            (result, gate)
        };
        Box::pin(async move {
            if let Some(gate) = gate {
                gate.await;
            }
            match result {
                None => Err(format!("the scripted server has no tool '{name}'").into()),
                Some(Value::Object(r)) if r.contains_key("$error") => Err(r["$error"]
                    .as_str()
                    .unwrap_or("scripted failure")
                    .to_owned()
                    .into()),
                Some(result) => Ok(result),
            }
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        self.state().resource_reads.push(uri.to_owned());
        let found = self.inner.resources.get(uri).cloned();
        Box::pin(async move {
            found.ok_or_else(|| format!("the scripted server has no resource '{uri}'").into())
        })
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        let tools = {
            let mut state = self.state();
            state.tool_lists += 1;
            state.tools.clone()
        };
        Box::pin(async move { Ok(tools) })
    }

    fn server_name(&self) -> Option<String> {
        self.inner.name.clone()
    }
}

impl MessageSink for ScriptedServer {
    fn process(&self, messages: Vec<Value>) {
        let mut state = self.state();
        for message in messages {
            // Like a renderer's processor: a createSurface makes the surface exist.
            if let Some(id) = message
                .pointer("/createSurface/surfaceId")
                .and_then(Value::as_str)
            {
                state.surfaces.push(id.to_owned());
            }
            state.messages.push(message);
        }
    }

    fn process_from(&self, messages: Vec<Value>, source: &Provenance) {
        self.state().message_sources.push(source.clone());
        self.process(messages);
    }

    fn has_surface(&self, surface_id: &str) -> bool {
        self.state().surfaces.iter().any(|s| s == surface_id)
    }
}

struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs a future to completion on the current thread (parks between polls). Enough for tests
/// and command-line tools; hosts use their own executor.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(server: &ScriptedServer, calls: usize) -> Vec<Value> {
        (0..calls)
            .map(|_| block_on(server.call_tool("t", &json!({}), None)).unwrap())
            .collect()
    }

    #[test]
    fn staged_results_are_the_ones_the_calls_would_return() {
        let script = json!({"results": {"t": [{"n": 0}, {"n": 1}, {"n": 2}], "u": [{"u": 0}]}});
        let plain = ScriptedServer::from_json(&script).unwrap();
        let expected = answers(&plain, 5);
        let staged = ScriptedServer::from_json(&script).unwrap();
        let mut got = Vec::new();
        for _ in 0..5 {
            staged.stage_next_results();
            // Staging twice before a call stages once: the calls still follow the script.
            staged.stage_next_results();
            got.extend(answers(&staged, 1));
        }
        assert_eq!(got, expected);
        // One copy staged ahead of two calls: the second is copied at the call, in order.
        let ahead = ScriptedServer::from_json(&script).unwrap();
        ahead.stage_next_results();
        assert_eq!(answers(&ahead, 2), expected[..2]);
        assert_eq!(ahead.tool_calls().len(), 2);
    }
}
