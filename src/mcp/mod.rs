//! The Model Context Protocol side of the crate: pure functions over the JSON values that pass
//! between an A2UI renderer, an MCP client and an MCP server. Nothing here does I/O.
//!
//! - [`protocol`]: A2UI over MCP in both directions (the `A2UIAgent.MCP` helpers): the tool and
//!   resource definitions a server lists, the results it returns, and the readers a client (or a
//!   server receiving `a2ui_action` / `a2ui_error` calls) uses on them.
//! - `callMcpTool`: the host's side ([`McpHost`], [`ToolClient`], [`ToolRouter`],
//!   [`MessageSink`]) and the evaluation that runs tool calls
//!   ([`Payload::eval_async`](crate::Payload::eval_async)). What a call does step by step, and
//!   its value (`toolName`, `toolInput`, `toolResult`, `structuredContent`, `text`, `json`,
//!   `resourceUri`, `html`, `csp`, `permissions`) member by member, are in `docs/mcp.md`; in
//!   short, below.
//! - [`app`]: the `McpApp` component of the MCP catalog: its properties parsed and checked, its
//!   `url_encoded:` HTML decoded, and the policy (allowed tools, allowed functions, data paths) a
//!   host applies to the app's requests.
//!
//! # `callMcpTool` in short
//!
//! `{"@call": "callMcpTool", "args": {"name", "arguments", "targetDataPath"}}` evaluates its
//! `arguments` (absent or `null` is `{}`), calls the tool through the host's router and builds
//! the **response object**:
//!
//! | member | contents |
//! |---|---|
//! | `toolName` | the tool's name |
//! | `toolInput` | the evaluated arguments sent |
//! | `toolResult` | the raw `CallToolResult` |
//! | `structuredContent` | the result's `structuredContent`, when it has one |
//! | `text` | the text of every `text` content block, joined with `\n` (`""` when none) |
//! | `json` | `text` parsed, when it is a JSON object or array; otherwise, with several text blocks, the array of those blocks that are; absent when none is |
//! | `resourceUri`, `html` | the URI and decoded HTML of the call's (last) MCP App resource, when it has one |
//! | `csp`, `permissions` | that resource's `_meta.ui.csp` and `_meta.ui.permissions`, when present |
//!
//! It then collects the A2UI messages and MCP Apps the result links (`_meta.ui.resourceUri`,
//! else the tool's own in `tools/list`; `resource_link`s to MCP Apps) or embeds (`resource`
//! blocks; never `text` blocks), writes the response object to `targetDataPath` (resolved
//! against the data context; absent or `""` writes nothing) unless a newer call to the same
//! path has started since (latest call wins), and only then forwards the messages to the
//! [`MessageSink`] and the MCP Apps to the callback: a call that fails at any step forwards
//! nothing and writes nothing. Without a host (`Payload::eval`), a call is `EXPRESSION_ERROR`
//! "callMcpTool is not configured"; a host error, or `isError: true` in the result, is
//! `EXPRESSION_ERROR` with the reason.
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

mod call;
mod host;
#[cfg(feature = "rmcp")]
mod rmcp_client;

pub use host::{
    BoxFuture, ClientRouter, HostError, McpAppCallback, McpAppResource, McpHost, MessageSink,
    ToolClient, ToolRouter,
};
#[cfg(feature = "rmcp")]
pub use rmcp_client::{MAX_TOOL_LIST_PAGES, RmcpError};
