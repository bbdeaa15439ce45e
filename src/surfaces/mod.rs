//! The A2UI message processor: what a renderer needs between "messages arrive" and "draw these
//! nodes" (the web reference's `MessageProcessor`; the behaviour is `docs/surfaces.md`'s).
//!
//! A [`Processor`] holds the surfaces a stream builds, by id: each with its default catalog, its
//! components by id, its data model, `sendDataModel`, theme, and where it came from. Messages
//! are read by [`crate::stream`] and applied atomically: a message that fails changes nothing
//! and comes back as the crate's [`Error`](crate::Error), located by its
//! [`message_index`](crate::Error::message_index) and a JSON Pointer, with the renderer-to-agent
//! `error` message ready to send ([`agent_error_message`]).
//!
//! - `updateComponents` upserts whole components by id (a component sent again replaces the
//!   old one whole). Duplicate ids in one message, a self reference and a cycle are errors.
//!   [`ProcessorOptions::strict`] adds a dangling child, an orphan and a missing `root`.
//! - Each component is checked against its catalog: its own `catalogId` or the surface's
//!   default (none of them: a `CatalogError`); unknown type, unknown property, wrong literal
//!   type, missing required property. A surface whose default catalog is not registered keeps
//!   its components unchecked against a schema (the host did not give one), unless
//!   [`ProcessorOptions::fallback_catalog`] names one.
//! - Every dynamic value of a component is compiled once, when the component arrives, with the
//!   surface's default catalog for calls that name none (a call does not inherit the catalog of
//!   its component or of the call around it; `@index` belongs to no catalog).
//!
//! - The agent's `callRendererFunction` runs as the agent, as its catalog allows, and comes
//!   back with the response to send ([`RendererFunctionCall`]); the renderer's
//!   `callAgentFunction` ([`Processor::call_agent_function`]) is matched to the agent's answer.
//!
//! The catalogs are the ones the host registered ([`Processor::register_catalog`]); the MCP
//! catalog is always there.
//!
//! ```
//! use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
//! use serde_json::json;
//!
//! let mut processor = Processor::new(ProcessorOptions::default());
//! processor.register_catalog(&json!({"catalogId": "my", "protocolVersion": "v1.0", "components": {
//!     "Text": {"properties": {"component": {"const": "Text"}, "text": {"$ref": "common_types.json#/$defs/DynamicString"}}, "required": ["component", "text"]}
//! }}))?;
//! processor.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my",
//!     "components": [{"id": "root", "component": "Text", "text": {"path": "/name"}}]}})).unwrap();
//! let err = processor.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
//!     "components": [{"id": "root", "component": "Txt", "text": "x"}]}})).unwrap_err();
//! assert_eq!(err.to_string(), "message 1 at /updateComponents/components/0/component: VALIDATION_FAILED: unknown component type 'Txt' in catalog 'my' (its types: Text)");
//! // The message changed nothing.
//! assert_eq!(processor.surface("s").unwrap().component("root").unwrap().component, "Text");
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

mod activation;
mod agent_error;
mod bare;
mod check;
mod graph;
mod guide;
mod instance;
mod judge;
mod live;
mod options;
mod processor;
mod resolve;
mod rpc;
mod schema;
mod shared;
mod spelled;
mod surface;
mod tool_runs;

#[cfg(test)]
mod tests;

pub use graph::{MAX_STEPS_BASE, STEPS_PER_EDGE, slot_pointer};
pub use instance::InstanceId;
pub use live::{Changes, LiveNode, LiveView, SurfaceChanges};
pub use resolve::{Node, NodeState, ResolveLimits, Tree};
pub use rpc::{
    AgentFunctionResponse, EXECUTION_ERROR, INVALID_FUNCTION_CALL, RendererFunctionCall,
};
pub use tool_runs::{RunOutcome, ToolDone, ToolRun};

pub use activation::Activation;
pub use agent_error::agent_error_message;
pub use check::Checked;
pub use options::ProcessorOptions;
pub use processor::{Applied, Processor};
pub use shared::SharedProcessor;
pub use surface::{Component, GraphProblems, Surface};
