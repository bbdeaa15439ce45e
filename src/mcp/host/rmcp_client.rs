//! [`ToolClient`] for the official Rust MCP SDK, [`rmcp`] (feature `rmcp`).
//!
//! A connected rmcp client is a tool client as it is: its [`RunningService`] (what
//! `().serve(transport)` returns) and its [`Peer`] both implement [`ToolClient`]. Calls go out as
//! `tools/call` with the host's `_meta`, resources are read with `resources/read`, tools are
//! listed page by page; the typed rmcp results are handed to the engine as the JSON they are on
//! the wire, and rmcp's errors become an [`RmcpError`] (the source of the crate's
//! [`Error`](crate::Error)).
//!
//! Timeouts are the host's: wrap the evaluation in the runtime's timeout. Dropping the evaluation
//! drops the pending request, which rmcp cancels on the server (`notifications/cancelled`).

use super::client::{BoxFuture, HostError, ToolClient};
use rmcp::model::{
    CallToolRequestParams, PaginatedRequestParams, ReadResourceRequestParams, RequestMetaObject,
};
use rmcp::service::{RoleClient, RunningService, Service, ServiceError};
use rmcp::{Peer, model::MetaObject};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;

/// The most `tools/list` pages read from one server: a server that keeps answering with a new
/// cursor must not keep the host listing forever.
pub const MAX_TOOL_LIST_PAGES: usize = 100;

/// A failed MCP request through rmcp: which request, and why.
///
/// The engine reports it as `Failed to execute MCP tool '<name>': <this>` (or the same for a
/// resource), with this error as the [`Error`](crate::Error)'s source; hosts that need rmcp's own
/// error find it with [`RmcpError::service_error`].
///
/// ```
/// # use a2ui_catalog_mcp::mcp::RmcpError;
/// fn is_closed(error: &a2ui_catalog_mcp::Error) -> bool {
///     std::error::Error::source(error)
///         .and_then(|s| s.downcast_ref::<RmcpError>())
///         .is_some_and(RmcpError::is_transport_closed)
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RmcpError {
    /// The server answered the request with a JSON-RPC error.
    #[error("the server answered {method} with error {code}: {message}")]
    Server {
        /// The request's method (`tools/call`, `resources/read`, `tools/list`).
        method: &'static str,
        /// The JSON-RPC error code.
        code: i32,
        /// The server's message.
        message: String,
        /// rmcp's error (with the server's `data`, when it sent one).
        #[source]
        source: ServiceError,
    },
    /// The connection failed or closed, the request timed out or was cancelled, or the answer
    /// was not the result the request asks for.
    #[error("{method} failed: {source}")]
    Service {
        /// The request's method.
        method: &'static str,
        /// rmcp's error.
        #[source]
        source: ServiceError,
    },
    /// The host's `_meta` is not a JSON object, so it cannot be a request's `_meta`.
    #[error("the host's _meta must be a JSON object, got {0}")]
    InvalidMeta(&'static str),
    /// The server listed more than [`MAX_TOOL_LIST_PAGES`] pages of tools, or repeated a cursor.
    #[error("tools/list did not end: {0}")]
    EndlessToolList(String),
    /// An rmcp result could not be turned into JSON (it cannot happen with rmcp's own types).
    #[error("the {method} result cannot be written as JSON: {source}")]
    Json {
        /// The request's method.
        method: &'static str,
        /// serde_json's error.
        #[source]
        source: serde_json::Error,
    },
}

impl RmcpError {
    fn from_service(method: &'static str, source: ServiceError) -> RmcpError {
        match &source {
            ServiceError::McpError(data) => RmcpError::Server {
                method,
                code: data.code.0,
                message: data.message.to_string(),
                source,
            },
            _ => RmcpError::Service { method, source },
        }
    }

    /// rmcp's error, when the request reached rmcp.
    pub fn service_error(&self) -> Option<&ServiceError> {
        match self {
            RmcpError::Server { source, .. } | RmcpError::Service { source, .. } => Some(source),
            _ => None,
        }
    }

    /// Whether the connection to the server is closed (the host may reconnect).
    pub fn is_transport_closed(&self) -> bool {
        matches!(self.service_error(), Some(ServiceError::TransportClosed))
    }
}

fn to_json<T: Serialize>(method: &'static str, value: &T) -> Result<Value, HostError> {
    serde_json::to_value(value).map_err(|source| RmcpError::Json { method, source }.into())
}

fn request_meta(meta: Option<&Value>) -> Result<Option<RequestMetaObject>, HostError> {
    match meta {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(RequestMetaObject(MetaObject(map.clone())))),
        Some(other) => Err(RmcpError::InvalidMeta(crate::json::kind_name(other)).into()),
    }
}

fn call_params(
    name: &str,
    arguments: &Value,
    meta: Option<&Value>,
) -> Result<CallToolRequestParams, HostError> {
    let mut params = CallToolRequestParams::new(name.to_owned());
    // The engine always passes an object; anything else is sent without arguments.
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments.clone());
    }
    params.meta = request_meta(meta)?;
    Ok(params)
}

/// Every page of `tools/list`, as JSON, up to [`MAX_TOOL_LIST_PAGES`].
async fn list_all_tools(peer: &Peer<RoleClient>) -> Result<Vec<Value>, HostError> {
    const METHOD: &str = "tools/list";
    let mut tools = Vec::new();
    let mut seen = HashSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_TOOL_LIST_PAGES {
        let params = cursor
            .take()
            .map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
        let page = peer
            .list_tools(params)
            .await
            .map_err(|e| RmcpError::from_service(METHOD, e))?;
        for tool in &page.tools {
            tools.push(to_json(METHOD, tool)?);
        }
        match page.next_cursor {
            None => return Ok(tools),
            Some(next) if !seen.insert(next.clone()) => {
                return Err(
                    RmcpError::EndlessToolList(format!("the cursor {next:?} came twice")).into(),
                );
            }
            Some(next) => cursor = Some(next),
        }
    }
    Err(RmcpError::EndlessToolList(format!("more than {MAX_TOOL_LIST_PAGES} pages")).into())
}

/// The name the server gave in its `initialize` answer, when it gave one.
fn server_name(peer: &Peer<RoleClient>) -> Option<String> {
    Some(peer.peer_info()?.server_info.as_ref()?.name.clone())
}

/// A peer sends each request once: a server's `input_required` answer (SEP-2322) is an error
/// here. Use the [`RunningService`], which answers such rounds with the local client handler.
impl ToolClient for Peer<RoleClient> {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            const METHOD: &str = "tools/call";
            let params = call_params(name, arguments, meta)?;
            let result = Peer::call_tool(self, params)
                .await
                .map_err(|e| RmcpError::from_service(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            const METHOD: &str = "resources/read";
            let result = Peer::read_resource(self, ReadResourceRequestParams::new(uri))
                .await
                .map_err(|e| RmcpError::from_service(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        Box::pin(list_all_tools(self))
    }

    /// The `serverInfo.name` of the server's `initialize` answer.
    fn server_name(&self) -> Option<String> {
        server_name(self)
    }
}

/// A running client: what `client_handler.serve(transport).await?` returns, ready to share as
/// `Arc<dyn ToolClient>`.
///
/// ```no_run
/// use std::sync::Arc;
/// use a2ui_catalog_mcp::mcp::{McpHost, ToolClient};
/// use rmcp::ServiceExt;
///
/// # async fn connect(transport: tokio::io::DuplexStream) -> Result<(), Box<dyn std::error::Error>> {
/// let client = ().serve(transport).await?;
/// let host = McpHost::new(Arc::new(client) as Arc<dyn ToolClient>);
/// # Ok(()) }
/// ```
impl<S: Service<RoleClient>> ToolClient for RunningService<RoleClient, S> {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            const METHOD: &str = "tools/call";
            let params = call_params(name, arguments, meta)?;
            let result = RunningService::call_tool(self, params)
                .await
                .map_err(|e| RmcpError::from_service(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            const METHOD: &str = "resources/read";
            let result = RunningService::read_resource(self, ReadResourceRequestParams::new(uri))
                .await
                .map_err(|e| RmcpError::from_service(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        Box::pin(list_all_tools(self.peer()))
    }

    /// The `serverInfo.name` of the server's `initialize` answer.
    fn server_name(&self) -> Option<String> {
        server_name(self.peer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ErrorCode, ErrorData};
    use serde_json::json;

    #[test]
    fn meta_must_be_an_object() {
        assert_eq!(request_meta(None).unwrap(), None);
        assert_eq!(request_meta(Some(&Value::Null)).unwrap(), None);
        let meta = json!({"a2ui": {"clientCapabilities": {"v1.0": {}}}});
        let sent = request_meta(Some(&meta)).unwrap().unwrap();
        assert_eq!(serde_json::to_value(&sent).unwrap(), meta);
        let err = request_meta(Some(&json!(["x"]))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the host's _meta must be a JSON object, got an array"
        );
    }

    #[test]
    fn call_params_carry_arguments_and_meta() {
        let params = call_params(
            "list_issues",
            &json!({"repository": "a2ui/a2ui"}),
            Some(&json!({"trace": "t1"})),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            json!({"_meta": {"trace": "t1"}, "name": "list_issues",
                   "arguments": {"repository": "a2ui/a2ui"}})
        );
    }

    #[test]
    fn server_errors_keep_code_message_and_data() {
        let source = ServiceError::McpError(ErrorData::new(
            ErrorCode(-32602),
            "Unknown tool: nope",
            Some(json!({"tool": "nope"})),
        ));
        let err = RmcpError::from_service("tools/call", source);
        assert_eq!(
            err.to_string(),
            "the server answered tools/call with error -32602: Unknown tool: nope"
        );
        assert!(matches!(&err, RmcpError::Server { code: -32602, .. }));
        let Some(ServiceError::McpError(data)) = err.service_error() else {
            panic!("rmcp's error is kept")
        };
        assert_eq!(data.data, Some(json!({"tool": "nope"})));
        assert!(!err.is_transport_closed());

        let closed = RmcpError::from_service("resources/read", ServiceError::TransportClosed);
        assert_eq!(
            closed.to_string(),
            "resources/read failed: Transport closed"
        );
        assert!(closed.is_transport_closed());
        assert!(RmcpError::InvalidMeta("array").service_error().is_none());
    }
}
