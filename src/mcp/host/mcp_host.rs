//! The host of `callMcpTool` evaluations ([`McpHost`]): its tool router, message sink, MCP App
//! callback, per-call `_meta`, policy and audit, and the caches that belong to it (the tool
//! lists, the resources read by URI, the compiled output schemas).

use super::audit::AuditSink;
use super::client::{
    McpAppCallback, McpAppResource, MessageSink, ToolClient, ToolRouter, client_key,
};
use super::policy::ToolPolicy;
use crate::cache::LruCache;
use crate::limits::DEFAULT_CACHE_CAPACITY;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

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

    /// A host that routes tools with `router` (for example a [`ClientRouter`](super::ClientRouter)).
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
    pub fn with_app_only_tools_in_surfaces(mut self, allow: bool) -> McpHost {
        self.app_only_in_surfaces = allow;
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
    /// [`ClientRouter`](super::ClientRouter) indexes each client's tools once) answers for them instead: build a new
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
