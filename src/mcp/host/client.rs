//! What the host supplies for `callMcpTool`: tool clients, the routing from tool names to
//! clients, the message sink and the MCP App resources a call produces.
//!
//! The crate does no I/O. Every trait here is object-safe (hosts store `Arc<dyn ToolClient>`)
//! and returns boxed `Send` futures, so the engine runs on any executor and from
//! multi-threaded hosts.

use crate::origin::Provenance;
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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
    /// [`McpHost::call_app_tool_from`](super::McpHost::call_app_tool_from).
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
