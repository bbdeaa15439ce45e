//! a2ui-catalog-mcp: the engine of the A2UI MCP catalog (crate docs are written with the core).

pub mod error;
pub mod functions;
pub mod json;
pub mod regex;

pub use error::{Error, ErrorCode, Phase, Result};
