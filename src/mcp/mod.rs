//! The Model Context Protocol side of the crate: pure functions over the JSON values that pass
//! between an A2UI renderer, an MCP client and an MCP server. Nothing here does I/O.
//!
//! - [`protocol`]: A2UI over MCP in both directions (the `A2UIAgent.MCP` helpers): the tool and
//!   resource definitions a server lists, the results it returns, and the readers a client (or a
//!   server receiving `a2ui_action` / `a2ui_error` calls) uses on them.
//! - [`app`]: the `McpApp` component of the MCP catalog: its properties parsed and checked, its
//!   `url_encoded:` HTML decoded, and the policy (allowed tools, allowed functions, data paths) a
//!   host applies to the app's requests.
//!
//! With the feature `rmcp`, [`ToolClient`] is implemented for the official Rust MCP SDK's client
//! (`rmcp::service::RunningService<RoleClient, _>` and `rmcp::Peer<RoleClient>`): `tools/call`
//! carries the host's `_meta`, `tools/list` is read page by page (at most
//! `MAX_TOOL_LIST_PAGES`), and rmcp's errors become an `RmcpError`, the source of the crate's
//! error. Timeouts are the host's (wrap the evaluation in its runtime's timeout); dropping an
//! evaluation drops its pending request, which rmcp cancels on the server.

pub mod app;
pub mod protocol;

mod base64;

mod app_call;
mod call;
mod host;
#[cfg(feature = "rmcp")]
mod rmcp_client;
mod tool_policy;

pub use host::{
    BoxFuture, ClientRouter, HostError, McpAppCallback, McpAppResource, McpHost, MessageSink,
    ToolClient, ToolRouter,
};
#[cfg(feature = "rmcp")]
pub use rmcp_client::{MAX_TOOL_LIST_PAGES, RmcpError};
pub use tool_policy::{
    AllowAll, AllowList, AuditEvent, AuditSink, Both, CallOrigin, CallOutcome, ConsentFn,
    ConsentForDestructive, Decision, DenyList, ToolCallRequest, ToolPolicy, ToolPolicyExt,
};
