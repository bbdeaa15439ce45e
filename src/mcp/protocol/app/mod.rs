//! The `McpApp` component of the MCP catalog (`htmlContent`, `title`, `allowedTools`,
//! `allowedFunctions`, `data.paths`, `csp`, `permissions`): what a host needs to render it
//! safely.
//!
//! Rendering the app (the double-iframe sandbox, the MCP Apps bridge) is the host's job. This
//! module gives it the decisions, as pure functions:
//!
//! - [`McpAppProps::parse`]: the component's properties, checked against the catalog schema and
//!   typed; every problem is reported at once.
//! - [`decode_html_content`] / [`decode_uri_component`]: `url_encoded:` HTML, decoded exactly
//!   like JavaScript's `decodeURIComponent`.
//! - [`McpAppProps::check_tool_call`]: a `tools/call` request of the app against
//!   `allowedTools`.
//! - [`McpAppProps::check_function_call`]: a `ui/requests/function-call` request against
//!   `allowedFunctions` and the JSON Schema of the function's arguments. The schema check needs
//!   the `json-schema` feature; without it a call whose schema constrains anything is refused
//!   ([`AppDenial::SchemaNotChecked`]), never allowed unchecked.
//! - [`AppBinding`]: the reserved `data.paths` keys and the MCP Apps messages they map to.
//!
//! ```
//! use a2ui_catalog_mcp::mcp::app::{AppBinding, McpAppProps, ToolCallDecision};
//! use serde_json::json;
//!
//! let props = McpAppProps::parse(&json!({
//!     "id": "board",
//!     "component": "McpApp",
//!     "htmlContent": "url_encoded:%3Ch1%3EKanban%3C%2Fh1%3E",
//!     "title": {"@path": "/board/title"},
//!     "allowedTools": ["move_card"],
//!     "allowedFunctions": {"formatDate": {"type": "object", "required": ["value"]}},
//!     "data": {"paths": {"toolResult": "/board/last", "cards": "/board/cards"}}
//! }), &a2ui_catalog_mcp::Limits::default())?;
//! assert_eq!(props.html_content.as_literal(), Some("<h1>Kanban</h1>"));
//! assert_eq!(props.data_paths[0].binding.method(), "ui/notifications/tool-result");
//!
//! let call = json!({"name": "move_card", "arguments": {"card": 3, "to": "done"}});
//! assert!(matches!(props.check_tool_call(&call)?, ToolCallDecision::Allowed { .. }));
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

mod paths;
mod policy;
mod props;
mod uri;

pub use paths::{AppBinding, DATA_MODEL_CHANGE, DATA_MODEL_UPDATE, PathBinding};
pub use policy::{AllowedFunction, AppDenial, FunctionCallDecision, ToolCallDecision};
pub use props::{COMPONENT_NAME, Csp, DynamicString, McpAppProps, Permission, Permissions};
pub use uri::{URL_ENCODED_PREFIX, decode_html_content, decode_uri_component};

#[cfg(test)]
mod tests;
