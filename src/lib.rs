//! An embeddable, no-I/O engine for the A2UI MCP catalog.
//!
//! A2UI payloads are JSON whose values may be dynamic: `{"@path": "/x"}` reads the data model,
//! `{"@call": "fn", "args": {…}}` calls a catalog function. An [`Environment`] holds the catalogs
//! (the MCP catalog is built in), the default catalog and the [`Limits`]; it compiles a payload
//! once into a [`Payload`], reporting every static problem at once; the payload is then evaluated
//! against any [`DataModel`] (implemented for `serde_json::Value`) as often as the data changes.
//!
//! ```
//! use a2ui_catalog_mcp::Environment;
//! use serde_json::json;
//!
//! let env = Environment::new();
//! let payload = env.compile(&json!({"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": ","}}))?;
//! assert_eq!(payload.eval(&mut json!({"csv": "a,b"}))?, json!(["a", "b"]));
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```
//!
//! Payloads that call MCP tools (`callMcpTool`) evaluate as a future with
//! [`Payload::eval_async`], against a [`model::SharedModel`] and an [`mcp::McpHost`] that holds
//! the host's tool clients ([`mcp::ToolClient`]; with the feature `rmcp`, rmcp clients are ones).
//! The future needs no particular runtime and is `Send`.
//!
//! | module | what |
//! |---|---|
//! | [`catalog`], [`functions`] | catalogs, host functions, the MCP catalog's functions |
//! | [`path`], [`model`] | JSON Pointers and relative paths; the data model and its write rules |
//! | [`jmespath`] | the JMESPath engine behind `transformData` |
//! | [`regex`] | the A2UI regex dialect behind `regexCapture` (see `docs/regex-dialect.md`) |
//! | [`mcp`] | host traits and `callMcpTool`; A2UI over MCP ([`mcp::protocol`]); `McpApp` ([`mcp::app`]) |
//! | [`messages`] | A2UI message streams checked message by message, each problem located |
//! | [`testing`] | a scripted MCP server and a minimal executor, for tests |
//! | [`fixtures`] | the conformance fixture runner |
//!
//! # Errors
//!
//! One [`Error`] type: an [`ErrorCode`], the function involved, a JSON Pointer into the payload,
//! and a message. `Display` is one line; `{:#}` lists every problem the compiler found.
//!
//! # Input safety
//!
//! Payloads, data and tool results are untrusted. The crate never panics on them, and:
//!
//! - no walk over untrusted JSON recurses: the compiler, the text coercion and the depth checks
//!   use explicit stacks, and JSON text is measured for depth before it is parsed
//!   ([`json::from_str_limited`]; tool texts, which `sonic-rs` parses recursively, go through
//!   [`json::nests_deeper_than`]); past [`Limits::max_depth`] (128) it is `LIMIT_EXCEEDED`;
//! - writes cannot grow an array past [`Limits::max_index`] (10 000), and a function's output is
//!   bounded by [`Limits::max_output_items`] and [`Limits::max_output_bytes`];
//! - the evaluator is a machine with an explicit stack, not a recursive walk. What it copies
//!   (`serde_json::Value`'s clone and drop recurse) is either payload literals, bounded by the
//!   depth limit, or data: the host's own data model, and tool output parsed under the limit;
//! - JMESPath expressions are bounded in length, nesting and evaluation steps, and regex
//!   patterns are checked against the dialect (no catastrophic backtracking) before they run on
//!   a linear-time engine.

mod cache;
pub mod catalog;
mod env;
pub mod error;
pub mod fixtures;
pub mod functions;
pub mod jmespath;
pub mod json;
pub mod limits;
pub mod mcp;
pub mod messages;
pub mod model;
pub mod path;
pub mod payload;
pub mod regex;
mod slices;
pub mod testing;

pub use catalog::{Catalog, MCP_CATALOG_ID};
pub use env::Environment;
pub use error::{Error, ErrorCode, Phase, Result};
pub use limits::Limits;
pub use model::DataModel;
pub use path::JsonPointer;
pub use payload::Payload;

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
