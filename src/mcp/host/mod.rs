//! The host layer of MCP: what calls tools for payloads. The host's clients and router
//! ([`ToolClient`], [`ToolRouter`]), its policy and audit, the output schema check, the host
//! itself ([`McpHost`]) and the tool calls it makes for `callMcpTool` and for `McpApp` widgets.
//! It sits above the engine: it drives payloads, and the payload layers know it only through
//! the one operation they need of it (answering a tool call).

mod app_call;
mod audit;
pub(crate) mod call;
mod client;
mod mcp_host;
#[cfg(feature = "json-schema")]
mod output_schema;
mod policy;
#[cfg(feature = "rmcp")]
mod rmcp_client;

pub use audit::{AuditEvent, AuditSink, CallOutcome};
pub use client::{
    BoxFuture, ClientRouter, HostError, McpAppCallback, McpAppResource, MessageSink, ToolClient,
    ToolRouter,
};
pub use mcp_host::McpHost;
#[cfg(feature = "json-schema")]
pub use output_schema::{MAX_OUTPUT_SCHEMA_BYTES, OutputSchemaCheck};
pub use policy::{
    AllowAll, AllowList, Both, ConsentFn, ConsentForDestructive, Decision, DenyList,
    ReadOnlyUnlessUserAction, SameServerAsSource, ToolCallRequest, ToolPolicy, ToolPolicyExt,
    Unattended,
};
#[cfg(feature = "rmcp")]
pub use rmcp_client::{MAX_TOOL_LIST_PAGES, RmcpError};
