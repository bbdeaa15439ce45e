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
//! - [`ToolPolicy`] and [`AuditSink`]: who may call which tool, and the record of every call
//!   (see "Security" below).
//!
//! Two layers, two folders. [`protocol`] (with [`app`] and [`Visibility`] in it; `mcp::app`
//! and `mcp::Visibility` name the same items) is pure: it reads and writes JSON and needs
//! nothing of the engine's evaluation, so the payload layers below the host may use it. The
//! host layer ([`McpHost`], its clients, the policy, the audit, the tool calls it makes) drives
//! payloads from above; its items are re-exported here.
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
//!
//! # Security
//!
//! **The trust boundary.** A surface comes from an agent, and an agent's output can be steered
//! by any text it has read (a web page, an issue, a tool result). Every tool call a surface
//! makes is therefore a request from untrusted input, with arguments that may come from the
//! data model (what the user typed) and, unless the payload names its tools as literals, a tool
//! name that may come from there too. The crate does not decide what may run: the host does,
//! with a policy on its [`McpHost`].
//!
//! **Policy.** Before `tools/call` is sent, once the arguments are evaluated and the client
//! that would serve the tool is known, the host's [`ToolPolicy`] sees a [`ToolCallRequest`]:
//! the tool's name, the arguments exactly as they would be sent, the server's name
//! ([`ToolClient::server_name`]), the tool's definition from `tools/list` (with its
//! `annotations`) and why the call is made ([`Origin`](crate::Origin): a binding, a user's action, an MCP
//! App, the agent). It answers, asynchronously,
//! [`Decision::Allow`] or [`Decision::Deny`] with a reason. A denied call is an
//! `EXPRESSION_ERROR` `MCP tool '<name>' is not allowed: <reason>`: nothing is sent to the
//! server, nothing is written, no message is forwarded, and the rest of the payload does not
//! run. **Without a policy every call is allowed** (the behaviour of [`AllowAll`]). Ready-made:
//! [`AllowList`], [`DenyList`], [`ConsentForDestructive`], [`Unattended`] (no one at the keyboard); [`ToolPolicyExt::and`] composes
//! them (both must allow; the first denial answers). The tool calls an `McpApp` widget asks
//! for go through [`McpHost::call_app_tool`]: its `allowedTools` first, then the same policy.
//!
//! **Consent.** MCP asks clients to keep a human in the loop for sensitive operations and to
//! show a tool's inputs before calling it. [`ConsentForDestructive`] lets non-destructive tools
//! through and asks the host's callback (a dialog showing the tool and its arguments) about
//! the others; the evaluation waits for the answer while other evaluations go on. A tool is
//! destructive unless its annotations say `readOnlyHint: true` or `destructiveHint: false` (the
//! MCP defaults); a tool missing from `tools/list` is destructive.
//!
//! **Annotations are hints.** They come from the server and are only as trustworthy as the
//! server: trust them from servers you trust, and decide by name (an allow list) for the
//! others. The policy reads them from the tool list the host holds: each client's tools are
//! listed once (with a policy, before the client's first call) and kept, so a server that
//! changes its annotations later does not change a decision until the host lists again
//! ([`McpHost::refresh_tool_lists`], for `notifications/tools/list_changed`).
//!
//! **Knowing the tools in advance.** [`Payload::tool_names`](crate::Payload::tool_names) lists
//! the tools a compiled payload names as literals, and says whether a tool name is dynamic: a
//! host can show "this surface can call `list_issues`, `search`" when the surface arrives and
//! pre-approve exactly those (an [`AllowList`] of them). `a2ui-mcp check` prints the list and
//! warns about dynamic names.
//!
//! **Audit.** With [`McpHost::with_audit`], every call, allowed or denied, is reported once it
//! ends as an [`AuditEvent`]: tool, arguments, server, origin, decision, [`CallOutcome`] (ok,
//! `isError`, host failure, cancelled, superseded by a newer call to the same
//! `targetDataPath`) and duration. An [`AuditSink`] is a plain trait; closures are sinks.
//!
//! **Who asks, and from where.** An evaluation has an [`Origin`](crate::Origin): a binding (the
//! default), a user's action, an MCP App, the agent. Catalog declarations
//! (`requiresUserActivation`, `allowedCallers`) are enforced by the engine against it, whatever
//! the policy. The messages a tool returned reach the sink with their
//! [`Provenance`] ([`MessageSink::process_from`]); the host passes it back with
//! the surface's evaluations ([`Invocation`](crate::Invocation)), and the policy sees both
//! ([`ToolCallRequest::origin`], [`ToolCallRequest::source`]). Ready-made for them:
//! [`ReadOnlyUnlessUserAction`] and [`SameServerAsSource`]. MCP Apps visibility
//! ([`Visibility`]) is enforced before the policy. A refusal carries a
//! [`Denial`](crate::Denial) kind ([`Error::denial`](crate::Error::denial)).
//!
//! **Timeouts** are the host's: wrap the evaluation's future in the runtime's timeout (the
//! time a consent dialog stays open counts). Dropping the future cancels the evaluation at
//! once, whether it waits for the policy or for the server: nothing is sent or written after
//! that, and the call is audited as cancelled.
//!
//! ```
//! use a2ui_catalog_mcp::mcp::{AllowList, AuditEvent, ConsentForDestructive, McpHost, ToolPolicyExt};
//! # use a2ui_catalog_mcp::mcp::ToolClient;
//! # use std::sync::Arc;
//! # fn client() -> Arc<dyn ToolClient> { unimplemented!() }
//! # fn _doc() {
//! // Only the tools this surface was reviewed for, and a dialog before any destructive one.
//! let policy = AllowList::new(["list_issues", "close_issue"]).and(ConsentForDestructive::new(|call| {
//!     let question = format!("Call {} with {}?", call.name, call.arguments);
//!     Box::pin(async move { ask_the_user(&question).await })
//! }));
//! let host = McpHost::new(client())
//!     .with_policy(policy)
//!     .with_audit(|event: &AuditEvent| eprintln!("tool call: {event}"));
//! # }
//! # async fn ask_the_user(_question: &str) -> bool { true }
//! ```

// Two layers, two folders: `protocol` is pure JSON (below the engine: payloads may use it),
// `host` calls tools and drives payloads (above the engine).
pub mod protocol;

mod host;

pub use host::{
    AllowAll, AllowList, AuditEvent, AuditSink, Both, BoxFuture, CallOutcome, ClientRouter,
    ConsentFn, ConsentForDestructive, Decision, DenyList, HostError, McpAppCallback,
    McpAppResource, McpHost, MessageSink, ReadOnlyUnlessUserAction, SameServerAsSource,
    ToolCallRequest, ToolClient, ToolPolicy, ToolPolicyExt, ToolRouter, Unattended,
};
#[cfg(feature = "json-schema")]
pub use host::{MAX_OUTPUT_SCHEMA_BYTES, OutputSchemaCheck};
#[cfg(feature = "rmcp")]
pub use host::{MAX_TOOL_LIST_PAGES, RmcpError};
// The surfaces' own tool runs make their calls through the host's `answer`.
pub(crate) use host::call;
pub use protocol::{Visibility, app};

pub use crate::origin::Provenance;
pub use crate::payload::{ToolHost, ToolNames};
