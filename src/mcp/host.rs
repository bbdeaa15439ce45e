//! What the host supplies for `callMcpTool`: tool clients, the routing from tool names to
//! clients, the message sink, an optional MCP App callback and per-call `_meta`.
//!
//! The crate does no I/O. Every trait here is object-safe (hosts store `Arc<dyn ToolClient>`)
//! and returns boxed `Send` futures, so the engine runs on any executor and from
//! multi-threaded hosts.

use super::policy::{AuditSink, ToolPolicy};
use crate::cache::LruCache;
use crate::limits::DEFAULT_CACHE_CAPACITY;
use crate::origin::Provenance;
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

/// A boxed, `Send` future, as the host traits return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A host's error: any error type, boxed. It becomes the source of the crate's [`Error`].
///
/// [`Error`]: crate::Error
pub type HostError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A connection to one MCP server.
///
/// ```
/// use a2ui_catalog_mcp::mcp::{BoxFuture, HostError, ToolClient};
/// use serde_json::{json, Value};
///
/// struct Echo;
/// impl ToolClient for Echo {
///     fn call_tool<'a>(&'a self, name: &'a str, arguments: &'a Value, _meta: Option<&'a Value>)
///         -> BoxFuture<'a, Result<Value, HostError>> {
///         Box::pin(async move {
///             Ok(json!({"content": [{"type": "text", "text": format!("{name}: {arguments}")}]}))
///         })
///     }
///     fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
///         Box::pin(async move { Err(format!("no resource {uri}").into()) })
///     }
/// }
/// ```
pub trait ToolClient: Send + Sync {
    /// `tools/call`: the `CallToolResult` JSON. `meta` is the host's per-call `_meta`.
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>>;

    /// `resources/read`: the `ReadResourceResult` JSON.
    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>>;

    /// `tools/list`: the tool definitions. A client that cannot list declares none (the
    /// default).
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    /// The server's name (from its `initialize` answer), for the host's [`ToolPolicy`],
    /// [`AuditEvent`]s, MCP Apps visibility across servers and the provenance of the messages
    /// a call forwards. It is asked once per call, so it must be cheap. The default: `None`.
    ///
    /// [`ToolPolicy`]: crate::mcp::ToolPolicy
    /// [`AuditEvent`]: crate::mcp::AuditEvent
    fn server_name(&self) -> Option<String> {
        None
    }
}

/// Maps a tool name to the client that serves it (the guide's `getMcpClientForTool`).
pub trait ToolRouter: Send + Sync {
    /// The client for `tool`, or `None` when no connected server has it.
    fn client_for<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Arc<dyn ToolClient>>>;

    /// The tool's definition from `tools/list`, when the router already has it (so that the
    /// host does not list the tools again). The default knows nothing.
    fn tool_definition<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Value>> {
        let _ = tool;
        Box::pin(async { None })
    }
}

/// One client for every tool.
impl ToolRouter for Arc<dyn ToolClient> {
    fn client_for<'a>(&'a self, _tool: &'a str) -> BoxFuture<'a, Option<Arc<dyn ToolClient>>> {
        Box::pin(async move { Some(self.clone()) })
    }
}

/// The ready router for several servers: lists each client's tools once (on first use) and
/// routes each tool name to the first client that has it, else to the default client.
///
/// ```
/// # use std::sync::Arc;
/// # use a2ui_catalog_mcp::mcp::{ClientRouter, ToolClient};
/// # fn clients() -> (Arc<dyn ToolClient>, Arc<dyn ToolClient>) { unimplemented!() }
/// # fn _doc() {
/// let (github, search) = clients();
/// let router = ClientRouter::new().with_client(github).with_client(search.clone()).with_default(search);
/// # }
/// ```
#[derive(Default)]
pub struct ClientRouter {
    clients: Vec<Arc<dyn ToolClient>>,
    default: Option<Arc<dyn ToolClient>>,
    /// Filled on first use: tool name → (client index, definition).
    index: once::OnceAsync<HashMap<String, (usize, Value)>>,
}

impl std::fmt::Debug for ClientRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |c: &Arc<dyn ToolClient>| c.server_name();
        f.debug_struct("ClientRouter")
            .field(
                "clients",
                &self.clients.iter().map(names).collect::<Vec<_>>(),
            )
            .field("default", &self.default.as_ref().map(names))
            .finish_non_exhaustive()
    }
}

impl ClientRouter {
    /// A router without clients.
    pub fn new() -> ClientRouter {
        ClientRouter::default()
    }

    /// Adds a client; earlier clients win when two list the same tool.
    pub fn with_client(mut self, client: Arc<dyn ToolClient>) -> ClientRouter {
        self.clients.push(client);
        self
    }

    /// The client for tools no client lists.
    pub fn with_default(mut self, client: Arc<dyn ToolClient>) -> ClientRouter {
        self.default = Some(client);
        self
    }

    async fn index(&self) -> &HashMap<String, (usize, Value)> {
        self.index
            .get_or_init(async {
                let mut index = HashMap::new();
                for (i, client) in self.clients.iter().enumerate() {
                    // A client that fails to list its tools serves none by name; the default
                    // still catches its tools.
                    for tool in client.list_tools().await.unwrap_or_default() {
                        if let Some(name) = tool.get("name").and_then(Value::as_str) {
                            index.entry(name.to_owned()).or_insert((i, tool.clone()));
                        }
                    }
                }
                index
            })
            .await
    }
}

impl ToolRouter for ClientRouter {
    fn client_for<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Arc<dyn ToolClient>>> {
        Box::pin(async move {
            match self.index().await.get(tool) {
                Some((i, _)) => Some(self.clients[*i].clone()),
                None => self.default.clone(),
            }
        })
    }

    fn tool_definition<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Value>> {
        Box::pin(async move { self.index().await.get(tool).map(|(_, def)| def.clone()) })
    }
}

/// Clients are told apart by the address of their shared allocation.
pub(crate) fn client_key(client: &Arc<dyn ToolClient>) -> usize {
    Arc::as_ptr(client) as *const () as usize
}

/// A one-time asynchronous initialisation without a runtime: the first caller computes, later
/// callers reuse. Concurrent first callers may both compute; the first to finish is kept.
mod once {
    use std::sync::OnceLock;

    #[derive(Default)]
    pub(crate) struct OnceAsync<T> {
        cell: OnceLock<T>,
    }

    impl<T> OnceAsync<T> {
        pub(crate) async fn get_or_init(&self, init: impl std::future::Future<Output = T>) -> &T {
            if let Some(v) = self.cell.get() {
                return v;
            }
            let value = init.await;
            let _ = self.cell.set(value);
            self.cell
                .get()
                .expect("set above or by a concurrent caller")
        }
    }
}

/// The renderer's message processor: receives the A2UI messages tool results carry.
pub trait MessageSink: Send + Sync {
    /// Processes messages, in order.
    fn process(&self, messages: Vec<Value>);

    /// Processes messages that the result of `source.tool` (served by `source.server`)
    /// carried, in order. The crate calls this one; the default forgets the provenance and
    /// calls [`process`](MessageSink::process). A surfaces processor keeps it with the surfaces
    /// the messages create and passes it back with the surface's evaluations
    /// ([`Invocation::with_source`](crate::Invocation::with_source)), so that the host's
    /// policy can confine the surface to its server
    /// ([`SameServerAsSource`](crate::mcp::SameServerAsSource)).
    fn process_from(&self, messages: Vec<Value>, source: &Provenance) {
        let _ = source;
        self.process(messages);
    }

    /// Whether a surface with this id exists already.
    fn has_surface(&self, surface_id: &str) -> bool;
}

/// An MCP App resource a tool call produced: an item of a resource the result links or embeds
/// whose MIME type is `text/html` with `profile=mcp-app`, or whose URI starts with `ui://`.
///
/// Each goes to the host's MCP App callback, in order, once the call has succeeded; the last
/// one of a call also fills the response object's `resourceUri`, `html`, `csp` and
/// `permissions`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct McpAppResource {
    /// The tool whose call produced it.
    pub tool_name: String,
    /// The server that served the tool, as its client names it (`None` when it does not say):
    /// with `tool_name`, the app's [`source`](McpAppResource::source), for
    /// [`McpHost::call_app_tool_from`].
    pub server: Option<String>,
    /// The resource URI (`ui://…`).
    pub uri: String,
    /// The HTML, decoded.
    pub html: String,
    /// `_meta.ui.csp`, when present.
    pub csp: Option<Value>,
    /// `_meta.ui.permissions`, when present.
    pub permissions: Option<Value>,
}

impl McpAppResource {
    /// Where the app came from: its tool and server.
    pub fn source(&self) -> Provenance {
        Provenance::new(self.tool_name.clone(), self.server.clone())
    }
}

/// Receives each MCP App resource, in order.
pub type McpAppCallback = dyn Fn(&McpAppResource) + Send + Sync;

/// Everything `callMcpTool` needs from the host, plus the caches that belong to it: the tool
/// lists (fetched once per client) and the resources read (by URI, bounded).
///
/// The host's [`ToolPolicy`] decides which calls go ([`with_policy`](McpHost::with_policy);
/// without one every call goes), and its [`AuditSink`] hears of every call
/// ([`with_audit`](McpHost::with_audit)): see the [`mcp`](crate::mcp) module's "Security".
///
/// ```
/// use std::sync::Arc;
/// use a2ui_catalog_mcp::mcp::{McpHost, ToolClient};
/// # fn client() -> Arc<dyn ToolClient> { unimplemented!() }
/// # fn _doc() {
/// let host = McpHost::new(client())
///     .with_meta(serde_json::json!({"a2ui": {"clientCapabilities": {}}}))
///     .with_default_version("1.0");
/// # }
/// ```
pub struct McpHost {
    pub(crate) router: Arc<dyn ToolRouter>,
    pub(crate) sink: Option<Arc<dyn MessageSink>>,
    pub(crate) on_app: Option<Arc<McpAppCallback>>,
    pub(crate) meta: Option<Value>,
    pub(crate) default_version: String,
    pub(crate) policy: Option<Arc<dyn ToolPolicy>>,
    pub(crate) audit: Option<Arc<dyn AuditSink>>,
    /// Whether surfaces may call tools only MCP Apps see.
    pub(crate) app_only_in_surfaces: bool,
    /// Whether and how `structuredContent` is checked against `outputSchema`.
    #[cfg(feature = "json-schema")]
    pub(crate) output_check: Option<super::output_schema::OutputSchemaCheck>,
    #[cfg(feature = "json-schema")]
    pub(crate) output_schemas: super::output_schema::OutputSchemas,
    tool_lists: Mutex<HashMap<usize, Arc<Vec<Value>>>>,
    pub(crate) resources: LruCache<String, Arc<Value>>,
}

impl std::fmt::Debug for McpHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHost")
            .field("sink", &self.sink.is_some())
            .field("on_app", &self.on_app.is_some())
            .field("meta", &self.meta)
            .field("default_version", &self.default_version)
            .field("policy", &self.policy.is_some())
            .field("audit", &self.audit.is_some())
            .field("app_only_in_surfaces", &self.app_only_in_surfaces)
            .finish_non_exhaustive()
    }
}

impl McpHost {
    /// A host whose every tool goes to `client`.
    pub fn new(client: Arc<dyn ToolClient>) -> McpHost {
        McpHost::with_router(Arc::new(client))
    }

    /// A host that routes tools with `router` (for example a [`ClientRouter`]).
    pub fn with_router(router: Arc<dyn ToolRouter>) -> McpHost {
        McpHost {
            router,
            sink: None,
            on_app: None,
            meta: None,
            default_version: "1.0".to_owned(),
            policy: None,
            audit: None,
            app_only_in_surfaces: false,
            #[cfg(feature = "json-schema")]
            output_check: None,
            #[cfg(feature = "json-schema")]
            output_schemas: Default::default(),
            tool_lists: Mutex::new(HashMap::new()),
            resources: LruCache::new(DEFAULT_CACHE_CAPACITY),
        }
    }

    /// Where A2UI messages from tool results go. Without a sink they are dropped.
    pub fn with_sink(mut self, sink: Arc<dyn MessageSink>) -> McpHost {
        self.sink = Some(sink);
        self
    }

    /// Called with each MCP App resource.
    pub fn with_app_callback(
        mut self,
        callback: impl Fn(&McpAppResource) + Send + Sync + 'static,
    ) -> McpHost {
        self.on_app = Some(Arc::new(callback));
        self
    }

    /// `_meta` sent with every `tools/call` (for example `a2ui.clientCapabilities`).
    pub fn with_meta(mut self, meta: Value) -> McpHost {
        self.meta = Some(meta);
        self
    }

    /// The version stamped on messages that have none (default `"1.0"`).
    pub fn with_default_version(mut self, version: impl Into<String>) -> McpHost {
        self.default_version = version.into();
        self
    }

    /// How many resources to keep by URI (default 256, the default
    /// [`Limits::cache_capacity`](crate::Limits::cache_capacity)).
    pub fn with_resource_cache(mut self, capacity: usize) -> McpHost {
        self.resources = LruCache::new(capacity);
        self
    }

    /// The policy every tool call must pass before it is sent: calls of payloads
    /// (`callMcpTool`) and of `McpApp` widgets ([`call_app_tool`](McpHost::call_app_tool)). It
    /// replaces the previous one; combine several with
    /// [`ToolPolicyExt::and`](crate::mcp::ToolPolicyExt::and). Without a policy every call goes.
    ///
    /// The policy sees the tool's definition from the tool list this host holds (see
    /// [`refresh_tool_lists`](McpHost::refresh_tool_lists)); with a policy, a call lists its
    /// client's tools before its first `tools/call`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::{ConsentForDestructive, DenyList, McpHost, ToolPolicyExt};
    /// # fn client() -> std::sync::Arc<dyn a2ui_catalog_mcp::mcp::ToolClient> { unimplemented!() }
    /// # fn _doc() {
    /// let host = McpHost::new(client())
    ///     .with_policy(DenyList::new(["delete_repository"]).and(ConsentForDestructive::deny()));
    /// # }
    /// ```
    pub fn with_policy(mut self, policy: impl ToolPolicy + 'static) -> McpHost {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// Where every tool call is reported once it ends, allowed or denied (a closure
    /// `Fn(&AuditEvent)` will do).
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::{AuditEvent, McpHost};
    /// # fn client() -> std::sync::Arc<dyn a2ui_catalog_mcp::mcp::ToolClient> { unimplemented!() }
    /// # fn _doc() {
    /// let host = McpHost::new(client()).with_audit(|event: &AuditEvent| eprintln!("tool call: {event}"));
    /// # }
    /// ```
    ///
    /// [`AuditEvent`]: crate::mcp::AuditEvent
    pub fn with_audit(mut self, sink: impl AuditSink + 'static) -> McpHost {
        self.audit = Some(Arc::new(sink));
        self
    }

    /// Lets surfaces (payloads' `callMcpTool`) call tools whose MCP Apps visibility is only
    /// `["app"]`. By default they may not: the agent does not see such tools, and a surface is
    /// the agent's writing (see [`Visibility`](crate::mcp::Visibility)). A call refused for its
    /// visibility is a [`Denial::Visibility`](crate::Denial::Visibility).
    pub fn allow_app_only_tools_in_surfaces(mut self) -> McpHost {
        self.app_only_in_surfaces = true;
        self
    }

    /// Checks the `structuredContent` of every payload's tool call against the tool's
    /// `outputSchema` from the tool list this host holds (compiled once per tool and list), and
    /// says what a mismatch does: fail the call or drop `structuredContent` with a warning in
    /// the audit event. A tool that declares no `outputSchema` is not checked; one whose schema
    /// cannot be used (not a schema, a `$ref` to another document, which is never fetched, a
    /// `$ref` cycle, over [`MAX_OUTPUT_SCHEMA_BYTES`](crate::mcp::MAX_OUTPUT_SCHEMA_BYTES) or
    /// the depth limit) fails its calls with an error naming the tool. Results with
    /// `isError: true` are not checked. `McpApp` widgets' calls return the result to the app
    /// as it is.
    ///
    /// ```
    /// # #[cfg(feature = "testing")] {
    /// use a2ui_catalog_mcp::{Denial, Environment, JsonPointer, SharedModel, testing::{ScriptedServer, block_on}};
    /// use a2ui_catalog_mcp::mcp::OutputSchemaCheck;
    /// use serde_json::json;
    /// let server = ScriptedServer::from_json(&json!({
    ///     "tools": [{"name": "count", "outputSchema": {"type": "object", "required": ["n"]}}],
    ///     "results": {"count": [{"content": [], "structuredContent": {"m": 1}}]}
    /// }))?;
    /// let host = server.host().with_output_schema(OutputSchemaCheck::Fail);
    /// let count = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {"name": "count", "targetDataPath": "/n"}}))?;
    /// let model = SharedModel::new(json!({}));
    /// let err = block_on(count.eval_async(&model, &JsonPointer::root(), &host)).unwrap_err();
    /// assert_eq!(err.denial(), Some(Denial::OutputSchema));
    /// assert_eq!(*model.lock(), json!({}));
    /// # }
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    #[cfg(feature = "json-schema")]
    pub fn with_output_schema(mut self, check: super::output_schema::OutputSchemaCheck) -> McpHost {
        self.output_check = Some(check);
        self
    }

    /// Forgets the tool lists this host fetched from its clients: the next call that needs a
    /// tool's definition (its annotations for the policy, its `_meta.ui` resources) lists the
    /// tools again. Call it when a server says its tools changed
    /// (`notifications/tools/list_changed`). Until then, the host keeps the list it fetched
    /// first, whatever the server lists later. A router that knows definitions itself (a
    /// [`ClientRouter`] indexes each client's tools once) answers for them instead: build a new
    /// router to refresh it.
    pub fn refresh_tool_lists(&self) {
        self.tool_lists
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        #[cfg(feature = "json-schema")]
        self.output_schemas.clear();
    }

    /// The definition of `tool` from `tools/list`: from the router when it knows it, else
    /// from `client`'s list, fetched once per client (until
    /// [`refresh_tool_lists`](McpHost::refresh_tool_lists)).
    pub(crate) async fn tool_definition(
        &self,
        client: &Arc<dyn ToolClient>,
        tool: &str,
    ) -> Option<Value> {
        if let Some(def) = self.router.tool_definition(tool).await {
            return Some(def);
        }
        let key = client_key(client);
        let cached = self
            .tool_lists
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        let list = match cached {
            Some(list) => list,
            None => {
                // A client that cannot list tools declares none.
                let list = Arc::new(client.list_tools().await.unwrap_or_default());
                self.tool_lists
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, list.clone());
                list
            }
        };
        list.iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(tool))
            .cloned()
    }
}
