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
//! [`Payload::eval_async`], against a [`SharedModel`] and an [`McpHost`] that holds the host's
//! tool clients ([`ToolClient`]; with the feature `rmcp`, rmcp clients are ones). The future
//! needs no particular runtime and is `Send`.
//!
//! Hosts add their own functions as [`Catalog`]s of [`Function`]s (closures over [`Args`], or
//! types that also prepare literal arguments at compile time and reach the [`CallContext`]),
//! or declare them from a catalog document's JSON ([`Catalog::from_schema`]). The environment
//! reads bindings and calls in the MCP catalog's `@` spelling, or also in the A2UI
//! specification's plain one ([`Spelling`]); what compiles but is most likely not meant comes
//! back as [`Warning`]s.
//!
//! | module | what |
//! |---|---|
//! | the root | the engine: [`Environment`], [`Payload`], [`Catalog`], [`DataModel`], [`Error`], [`Limits`], the MCP host types |
//! | [`mcp`] | A2UI over MCP ([`mcp::protocol`]), the `McpApp` component ([`mcp::app`]), the host traits |
//! | [`jmespath`] | the JMESPath engine behind `transformData` |
//! | [`regex`] | the A2UI regex dialect behind `regexCapture` (see `docs/regex-dialect.md`) |
//! | [`json`] | JSON text from untrusted sources, parsed under a depth limit |
//! | [`messages`] | A2UI message streams checked message by message, each problem located |
//! | [`reactive`] | for renderers: what a payload reads, what writes changed, which values to recompute |
//! | `basic` (feature `basic-catalog`) | the A2UI basic catalog: 30 functions, formatString's templates, ICU4X formatting |
//! | `testing`, `fixtures` (feature `testing`) | a scripted MCP server and a minimal executor; the conformance fixture runner |
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
//!   a linear-time engine;
//! - with `basic-catalog`, formatString templates are parsed in one pass without recursion,
//!   bounded to 64 KiB, 32 levels of nesting and 4 096 parts (`basic::MAX_TEMPLATE_BYTES`,
//!   `MAX_NESTING`, `MAX_PARTS`), templates from data cached per text within
//!   [`Limits::cache_capacity`]; formatDate patterns to 256 bytes and date text to 64 bytes.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The modules in layers, lowest first, each importing only from the layers before it
// (tests/layers.rs checks this); the root re-exports what an embedder uses.
mod error;

mod cache;

pub mod json;

mod path;

mod model;

pub mod jmespath;
pub mod regex;

mod limits;

mod value;

mod catalog;

mod builtins;

mod payload;

mod env;

#[cfg(feature = "basic-catalog")]
pub mod basic;

pub mod mcp;

pub mod messages;

pub mod reactive;

#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "testing")]
pub mod fixtures;

pub use builtins::{MCP_CATALOG_ID, MCP_CATALOG_JSON};
pub use catalog::{
    ArgSchema, Args, CallContext, Catalog, Function, FunctionDeclaration, Prepared, Reads,
    StaticArg, StaticArgs,
};
pub use env::{Diagnostics, Environment};
pub use error::{Error, ErrorCode, Phase, Result, Warning, WarningCode};
pub use json::{js_number_string, to_js_string};
pub use limits::{DEFAULT_CACHE_CAPACITY, Limits};
pub use mcp::{
    BoxFuture, ClientRouter, HostError, McpAppCallback, McpAppResource, McpHost, MessageSink,
    ToolClient, ToolRouter,
};
pub use model::{DataModel, SharedModel, Write, apply_writes, read_value};
pub use path::JsonPointer;
pub use payload::{Payload, Spelling, ToolNames};

// The README's examples use the scripted server of `testing`.
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "testing"))]
pub struct ReadmeDoctests;

// The examples of the pages in docs/ are tested like the README's.
#[doc = include_str!("../docs/data-model.md")]
#[cfg(doctest)]
pub struct DataModelDoctests;

#[doc = include_str!("../docs/basic-catalog.md")]
#[cfg(all(doctest, feature = "basic-catalog"))]
pub struct BasicCatalogDoctests;

#[doc = include_str!("../docs/mcp.md")]
#[cfg(all(doctest, feature = "testing"))]
pub struct McpDoctests;
