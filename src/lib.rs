//! a2ui-catalog-mcp (crate docs are written with the README).

pub mod catalog;
mod env;
pub mod error;
pub mod fixtures;
pub mod functions;
pub mod json;
pub mod limits;
pub mod model;
pub mod path;
pub mod payload;

pub use catalog::{Catalog, MCP_CATALOG_ID};
pub use env::Environment;
pub use error::{Error, ErrorCode, Phase, Result};
pub use limits::Limits;
pub use model::DataModel;
pub use path::JsonPointer;
pub use payload::Payload;
