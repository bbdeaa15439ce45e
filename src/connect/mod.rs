//! Connections to real MCP servers (feature `connect`): a server started as a child process and
//! spoken to over stdio, or one reached over streamable HTTP, through the official Rust MCP
//! SDK (rmcp) on a tokio runtime, and the [`ToolRouter`](crate::mcp::ToolRouter) across them that an [`McpHost`] takes.
//!
//! This is the crate's only I/O, apart from the engine, which never needs it: the CLI
//! (`a2ui-mcp eval --mcp …`) and the examples use it, and a host with its own transport does
//! not turn it on.
//!
//! - **Servers** are given as [`ServerSpec`]s: a command line (split into words as a shell
//!   splits them, [`split_command_line`], and started without a shell) or an `http://` URL.
//! - **One name, one server.** [`Connections::connect`] lists every server's tools once
//!   (`tools/list`, every page) and routes each tool name to the server that offers it. When two
//!   servers offer the same name, **the first server given wins** and
//!   [`Connections::warnings`] names both; a server that lists one name twice is an error (its
//!   tool list is ambiguous, and a policy could read the wrong annotations).
//! - **Errors name the server** ([`ConnectError`]: its command line or URL): one that cannot be
//!   started, exits, closes its connection, sends a message over
//!   [`ConnectOptions::max_message_bytes`] or an answer that is not JSON-RPC, or does not answer
//!   within [`ConnectOptions::timeout`] (default 30 s) the `initialize`, `tools/list`,
//!   `tools/call` or `resources/read` it was sent. The end of the server's standard error comes
//!   with the error.
//! - **Standard error** of a stdio server is captured (the host's own output stays clean):
//!   shown in errors, and copied to the host's standard error, each line prefixed with the
//!   server, with [`ConnectOptions::echo_stderr`].
//! - **Renderer capabilities** go in `initialize`, under `capabilities.experimental.a2ui.
//!   clientCapabilities` ([`ConnectOptions::client_capabilities`]): rmcp's typed capabilities
//!   have no member for a top-level `a2ui`, and `experimental` is where MCP puts capabilities it
//!   does not define; [`renderer_capabilities`](crate::mcp::protocol::renderer_capabilities)
//!   reads both. Send them with every call too ([`McpHost::with_meta`], at the guide's
//!   `_meta.a2ui.clientCapabilities`; [`Connections::call_meta`] builds it).
//! - **No process outlives its connection.** A stdio server runs in a process group of its own
//!   (what `npx` or a shell script starts is in it): [`Connections::close`] closes its input, lets
//!   it exit, then terminates and kills the group; dropping the connections kills the group at
//!   once.
//!
//! HTTP is plain `http://` (local and development servers): this build has no TLS.
//!
//! ```no_run
//! use a2ui_catalog_mcp::connect::{ConnectOptions, Connections, ServerSpec, Unattended};
//! use a2ui_catalog_mcp::mcp::McpHost;
//! use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel};
//! use serde_json::json;
//! use std::sync::Arc;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let servers = [ServerSpec::command("npx -y @modelcontextprotocol/server-filesystem /tmp")];
//! let capabilities = json!({"v1.0": {"supportedCatalogIds": [a2ui_catalog_mcp::MCP_CATALOG_ID]}});
//! let options = ConnectOptions::new().with_client_capabilities(capabilities);
//! let connections = Connections::connect(&servers, &options).await?;
//! for warning in connections.warnings() {
//!     eprintln!("warning: {warning}");
//! }
//! let host = McpHost::with_router(Arc::new(connections.clone()))
//!     .with_meta(connections.call_meta(&options))
//!     .with_policy(Unattended::allowing(["write_file"]));
//! let payload = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {
//!     "name": "list_directory", "arguments": {"path": "/tmp"}, "targetDataPath": "/listing"}}))?;
//! let model = SharedModel::new(json!({}));
//! payload.eval_async(&model, &JsonPointer::root(), &host).await?;
//! connections.close().await;
//! # Ok(()) }
//! ```
//!
//! [`McpHost`]: crate::mcp::McpHost
//! [`McpHost::with_meta`]: crate::mcp::McpHost::with_meta

mod audit;
mod command_line;
mod connections;
mod diagnostics;
mod error;
mod options;
mod server;
mod spec;
mod stdio;

pub use crate::mcp::Unattended;
pub use audit::JsonLinesAudit;
pub use command_line::split_command_line;
pub use connections::Connections;
pub use error::{ConnectError, ConnectErrorKind};
pub use options::{ConnectOptions, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_TIMEOUT};
pub use server::Server;
pub use spec::ServerSpec;
