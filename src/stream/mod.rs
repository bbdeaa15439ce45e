//! A2UI messages, typed: each message is read once into a [`Message`], every part of it known
//! with its JSON Pointer inside the message, and every problem the crate's [`Error`](crate::Error),
//! located by that pointer and of the A2UI suite's [`Category`].
//!
//! This is the one reading of A2UI messages the crate has: the surfaces processor
//! ([`crate::surfaces`]), the stream check ([`crate::messages`]) and
//! [`TrackedModel::apply_message`](crate::reactive::TrackedModel::apply_message) all go through
//! [`parse_message`].
//!
//! What is read:
//!
//! - versions `"v0.9"`, `"v0.9.1"`, `"v0.10"`, and v1.0 written `"v1.0"` or `"1.0"` (the same
//!   version); no `version` reads as v0.9 unless the caller requires it;
//! - agent to renderer: `createSurface` (with v1.0's inline `components` and `dataModel`),
//!   `updateComponents`, `updateDataModel`, `deleteSurface`, `callRendererFunction` (older name
//!   `callFunction`) and `agentFunctionResponse` (older name `actionResponse`);
//! - renderer to agent: `action`, `error`, `callAgentFunction`, `rendererFunctionResponse`;
//! - a component's envelope keys in both spellings (`catalogId` / `@catalogId`, `accessibility` /
//!   `@accessibility`, `checks` / `@checks`, `metadata` / `@metadata`);
//! - containers ([`messages_of`]): a JSON array of messages, `{"messages": [...]}` and the
//!   gallery's `{name, description, messages}`; a single message is a stream of one.
//!
//! ```
//! use a2ui_catalog_mcp::stream::{Body, Version, parse_message};
//! use serde_json::json;
//!
//! let message = parse_message(&json!({"version": "1.0", "updateComponents": {"surfaceId": "s",
//!     "components": [{"id": "root", "component": "Text", "@catalogId": "c", "text": "hi"}]}}))?;
//! assert_eq!(message.version, Some(Version::V1_0));
//! let Body::UpdateComponents(update) = &message.body else { unreachable!() };
//! assert_eq!(update.components[0].catalog_id.as_deref(), Some("c"));
//! assert_eq!(update.components[0].pointer, "/updateComponents/components/0");
//!
//! let err = parse_message(&json!({})).unwrap_err();
//! assert_eq!(err.to_string(), "VALIDATION_FAILED at /: not an A2UI message: it has none of the message keys (createSurface, updateComponents, updateDataModel, deleteSurface, callRendererFunction, agentFunctionResponse, callFunction, actionResponse, action, error, callAgentFunction, rendererFunctionResponse)");
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

mod container;
mod message;
mod read;
pub(crate) mod split;
mod version;

#[cfg(test)]
mod tests;

/// The kind of a problem, as the A2UI conformance suite names error categories (it lives with
/// [`Error`](crate::Error), whose [`category`](crate::Error::category) it is).
pub use crate::error::Category;

pub use container::{is_container, messages_of};
pub use message::{
    AGENT_TO_RENDERER, Body, ComponentDef, CreateSurface, FunctionCallMessage, Message,
    RENDERER_TO_AGENT, UpdateComponents, UpdateDataModel,
};
pub use read::{
    ParseOptions, parse_component, parse_message, parse_message_all, parse_message_with,
};
pub use version::Version;
