//! The pure layer of MCP: A2UI over MCP in both directions (the helpers of the Elixir
//! reference's `A2UIAgent.MCP` module, in Rust, for servers and clients alike), the `McpApp`
//! component ([`app`]) and MCP Apps visibility ([`Visibility`]). JSON values in, JSON values
//! out: nothing here calls a tool or holds a host, so the payload layers may use it; the host
//! that does call tools is above the engine.
//!
//! Presentation and data travel separately. A server lists its layouts (`createSurface` and
//! `updateComponents` messages, with data bindings) as MCP resources of MIME type
//! [`MIME_TYPE`], and a tool call returns the data (usually an `updateDataModel` message) in an
//! embedded resource, after a text fallback for clients and models that do not render A2UI. A
//! tool links to the layout that presents its results with `_meta.ui` ([`ui_meta`]).
//!
//! The renderer states its capabilities once in `initialize` or with every tool call
//! ([`renderer_capabilities`]), and sends its users' actions and its errors back as calls of the
//! `a2ui_action` and `a2ui_error` tools ([`action_tool`], [`error_tool`], read with [`action`]
//! and [`error`]).
//!
//! Every function is pure: JSON values in, JSON values (or the crate's [`Error`](crate::Error))
//! out. Readers are lenient where the ecosystem is split: both MIME spellings
//! ([`is_a2ui_mime_type`]) and both version spellings ([`same_version`]) are accepted. Writers
//! take the version from the caller and always write [`MIME_TYPE`].
//!
//! ```
//! use a2ui_catalog_mcp::Limits;
//! use a2ui_catalog_mcp::mcp::protocol::{self, ToolOptions, ToolResultOptions};
//! use serde_json::json;
//!
//! let limits = Limits::default();
//! let get_recipe = protocol::tool(
//!     "get_recipe",
//!     &ToolOptions::new()
//!         .with_description("Returns a recipe.")
//!         .with_resource_uri("a2ui://recipe-card"),
//! );
//! assert_eq!(get_recipe["_meta"]["ui"]["resourceUri"], "a2ui://recipe-card");
//!
//! let messages = vec![json!({"version": "v1.0", "updateDataModel": {
//!     "surfaceId": "recipe", "path": "/", "value": {"title": "Grilled salmon"}}})];
//! let result = protocol::tool_result(
//!     &messages,
//!     &ToolResultOptions::new()
//!         .with_uri("a2ui://recipe-card/data")
//!         .with_resource_uri("a2ui://recipe-card")
//!         .with_text("Generated recipe: Grilled salmon"),
//!     &limits,
//! )?;
//! assert_eq!(protocol::a2ui_messages(&result, &limits)?, messages);
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

pub mod app;
// The host layer decodes `blob` resources and reads messages from tool results with these.
pub(crate) mod base64;
mod mime;
pub(crate) mod read;
mod visibility;
mod write;

pub use mime::{
    LEGACY_MIME_TYPE, MCP_APP_MIME_TYPE, MIME_TYPE, is_a2ui_mime_type, is_mcp_app_mime_type,
};
pub use read::{
    RendererCapabilities, a2ui_messages, action, error, renderer_capabilities, same_version,
};
pub use visibility::Visibility;
pub use write::{
    ACTION_TOOL_NAME, DEFAULT_MESSAGES_URI, ERROR_TOOL_NAME, ResourceOptions, Role, ToolOptions,
    ToolResultOptions, action_tool, error_tool, resource, resource_contents, tool, tool_result,
    ui_meta,
};
