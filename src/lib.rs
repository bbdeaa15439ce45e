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
//! [`Payload::eval_async`], against a [`SharedModel`] and an [`McpHost`](mcp::McpHost) that holds
//! the host's tool clients ([`ToolClient`](mcp::ToolClient); with the feature `rmcp`, rmcp clients are ones). The future
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
//! | the root | the engine: [`Environment`], [`Payload`], [`Catalog`], [`Function`], [`DataModel`], [`Error`], [`Limits`], [`Origin`] |
//! | [`functions`] | what a host's own functions use beyond the root: prepared arguments, declarations |
//! | [`data_model`] | writes and reads of a [`DataModel`] the way payloads make them |
//! | [`mcp`] | the MCP host ([`mcp::McpHost`], tool clients, policy, audit), A2UI over MCP ([`mcp::protocol`]), the `McpApp` component ([`mcp::app`]) |
//! | [`jmespath`] | the JMESPath engine behind `transformData` |
//! | [`regex`] | the A2UI regex dialect behind `regexCapture` (see `docs/regex-dialect.md`) |
//! | [`json`] | JSON text from untrusted sources, parsed under a depth limit |
//! | [`stream`] | A2UI messages, typed: every message read once, each part located |
//! | [`messages`] | A2UI message streams checked message by message, each problem located |
//! | [`surfaces`] | the A2UI message processor: surfaces, components checked against their catalogs and the graph |
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
//!   ([`json::from_str_limited`]; tool texts are read by the crate's own reader, which checks
//!   the depth in the pass that reads and does not recurse); past [`Limits::max_depth`] (128)
//!   it is `LIMIT_EXCEEDED`;
//! - a path has at most [`Limits::max_depth`] (128) tokens: a binding, a write path of
//!   `updateDataModel` (joined to the data context), a `targetDataPath`, the path of an A2UI
//!   `updateDataModel` message ([`reactive::TrackedModel::apply_message`], and
//!   [`messages::check_stream`] reports it), a [`reactive::Bindings`] context. A longer one is
//!   `LIMIT_EXCEEDED`, counted before the path is split ([`JsonPointer::parse_limited`]);
//! - no write nests deeper than [`Limits::max_depth`]: a write whose path's tokens and value
//!   together would pass it is `LIMIT_EXCEEDED` and changes nothing, so what payloads, tools
//!   and agents write never nests past the limit;
//! - a host may keep a model deeper than the limit (its own writes through [`apply_writes`](data_model::apply_writes) or
//!   [`DataModel::apply`] are not bounded): reading a value deeper than the limit for a payload
//!   (a binding, or an argument a function may copy) is `LIMIT_EXCEEDED` instead of a copy, and
//!   the rollback of a failed write group drops what it made without recursion;
//! - writes cannot grow an array past [`Limits::max_index`] (10 000), and a function's output is
//!   bounded by [`Limits::max_output_items`] (4 194 304, `transformData`'s result included) and
//!   [`Limits::max_output_bytes`] (64 MiB);
//! - one evaluation of a payload has one budget, all its calls together, charged before memory
//!   is taken: [`Limits::max_eval_steps`] (4 194 304 steps: JMESPath's, and each payload node
//!   the evaluation visits), [`Limits::max_eval_items`] (524 288 values: the elements, object
//!   keys and 64-byte pieces of copied text of `transformData`'s results, the `null`s writes
//!   pad arrays with, the items of `split` and `regexCapture`) and [`Limits::max_eval_bytes`]
//!   (16 MiB: each binding's copy of the model's value, formatString's output and what a
//!   template from data reads). Reaching one is `LIMIT_EXCEEDED` for the evaluation, which
//!   writes nothing. With the defaults, the attacks of the input-safety reviews (eight
//!   `[@,@]`-doubling transforms, 3 000 padding writes, a split of millions of pieces, a result
//!   of millions of values, 3 000 bindings of a 55 KB string, 40 formatString calls of a
//!   template from data) stop under 64 MiB;
//! - the evaluator is a machine with an explicit stack, not a recursive walk. What it copies
//!   (`serde_json::Value`'s clone and drop recurse) is payload literals and tool output, parsed
//!   under the depth limit, and data read from the model, measured first;
//! - the surfaces processor ([`surfaces`]) bounds what a stream can make it hold, for the
//!   whole processor, each limit checked before anything is changed or allocated:
//!   - [`ProcessorOptions::max_components`](surfaces::ProcessorOptions::max_components)
//!     (100 000 components, all surfaces together) and
//!     [`ProcessorOptions::max_surfaces`](surfaces::ProcessorOptions::max_surfaces) (1 024
//!     surfaces at once), and
//!     [`ProcessorOptions::max_held_bytes`](surfaces::ProcessorOptions::max_held_bytes)
//!     (32 MiB of surface ids, components and data models together, estimated from above and
//!     kept up to date write by write, [`reactive::TrackedModel::held_bytes`]): an agent's
//!     message past one is `LIMIT_EXCEEDED` and changes nothing (what evaluations and tool
//!     results write is bounded per evaluation, and counted for the next message); the ids
//!     of deleted surfaces are remembered within 1 MiB;
//!   - a message's graph checks (cycles; in strict mode dangling children, orphans, `root`)
//!     cost what the message changes, through a reverse index of parents, never a walk of the
//!     whole graph; the cycle search follows at most 65 536 edges plus 64 per child the message
//!     names ([`surfaces::MAX_STEPS_BASE`], [`surfaces::STEPS_PER_EDGE`]), past which the message is
//!     `LIMIT_EXCEEDED` (only a message linking a long ancestry to a large subtree needs more);
//!   - what resolving costs, each node charged before it is queued or made:
//!     [`ResolveLimits::max_template_items`](surfaces::ResolveLimits::max_template_items)
//!     (10 000 items per template: a longer one fails its node with `LIMIT_EXCEEDED`),
//!     [`ResolveLimits::max_nodes`](surfaces::ResolveLimits::max_nodes) (100 000 nodes) and
//!     [`ResolveLimits::max_bytes`](surfaces::ResolveLimits::max_bytes) (16 MiB of ids, keys,
//!     contexts and resolved values, each node's copy counted): of one tree
//!     ([`Surface::resolve`](surfaces::Surface::resolve), `LiveView::to_tree`), of every tree
//!     and data model `render_json` gives at once, and of the live trees of
//!     [`ProcessorOptions::live`](surfaces::ProcessorOptions::live) together, a bound value's
//!     tool result included. Reaching one cuts the trees breadth first and marks them
//!     `LIMIT_EXCEEDED` (`Tree::truncated`, `LiveView::truncated`; a live value past the bytes
//!     fails its property); a bound string over 256 bytes is read in place, not kept per live
//!     instance;
//!   - all the evaluations one message causes (every row of its templates) share one
//!     evaluation budget ([`Limits::max_eval_steps`] and the rest, above);
//!   - [`ProcessorOptions::max_pending_runs`](surfaces::ProcessorOptions::max_pending_runs)
//!     (4 096 tool runs waiting at once): one more fails its evaluation with `LIMIT_EXCEEDED`;
//!     1 024 warnings are kept until the host takes them, the rest dropped;
//!   - a stream's messages are read one at a time, each at most
//!     [`messages::StreamOptions::max_message_bytes`] (16 MiB; larger is `LIMIT_EXCEEDED`
//!     without parsing it) and [`Limits::max_depth`] deep; a bad message is located and
//!     skipped, the others applied;
//!   - a check ([`surfaces::Processor::check`], [`messages::check_stream`], `a2ui-mcp check`)
//!     lists every problem of a refused message, a few at most per part it reads, so the list
//!     is linear in the message and the message still changes nothing; a refused
//!     `createSurface` leaves its empty surface for the check to judge the next messages
//!     against, counted against `max_surfaces`. One message of 100 000 components with three
//!     problems each (16 MB) is checked in 4.5 s in release, 520 MB at the peak with the CLI's
//!     output (the checker it replaced: 5.2 s, 460 MB).
//!
//!   With the defaults, the streams of the second review (nested templates of 4 000 × 4 000
//!   items, a DAG of 300 × 300 × 300 instances, 90 000 nodes bound to a 50 KB string, a 30 KB
//!   id under 10 000 rows, 40 surfaces of 100 000 nodes, 10 000 rows of a 4 000-part
//!   formatString, a 100 000-component subtree whose parent is sent 4 000 times, a chain
//!   re-rooted 4 000 times, 200 model writes or components of 1 MB, 1 000 surfaces with
//!   200 KB ids, 20 000 surfaces created and deleted) stay under 64 MiB and linear time: what
//!   surfaces hold (32 MiB), their live trees (16 MiB) and one resolution or one message at a
//!   time. Its graph walks, and the live
//!   trees' builds and drops, use explicit stacks and queues;
//! - JMESPath expressions are bounded in length, nesting and evaluation steps, and regex
//!   patterns are checked against the dialect (no catastrophic backtracking) before they run on
//!   a linear-time engine;
//! - a compiled regex pattern holds at most [`regex::DEFAULT_SIZE_LIMIT`] (1 MiB: its program
//!   and a first search's cache, [`regex::Pattern::memory_usage`]); a larger one is
//!   `EXPRESSION_ERROR` (`TooBig`). Each pattern cache (`regexCapture`'s, the basic catalog's
//!   `regex`'s) holds at most [`Limits::cache_capacity`] (256) patterns and
//!   [`Limits::pattern_cache_bytes`] (4 MiB) of programs, evicting the least recently used; a
//!   payload keeps only the text of its literal patterns. A pattern compiled during an
//!   evaluation (from data, or evicted since) is charged to the evaluation's budget (per
//!   message in a surface): its bytes to [`Limits::max_eval_bytes`] and one step per 64 of
//!   them to [`Limits::max_eval_steps`], before it is built (the build stops at what is left);
//!   reaching either is `LIMIT_EXCEEDED` at the call, and with under 4 KiB left no pattern is
//!   built. With the defaults, the regex attacks of the second review (257 distinct heavy
//!   patterns from the data under a 4 × 257-row template, 1 000 heavy literal patterns, 400
//!   TextFields with heavy checks) stay under 64 MiB, compiling each literal pattern once and
//!   about 20 patterns per message beyond;
//! - with `basic-catalog`, formatString templates are parsed in one pass without recursion,
//!   bounded to 64 KiB, 32 levels of nesting and 4 096 parts (`basic::MAX_TEMPLATE_BYTES`,
//!   `MAX_NESTING`, `MAX_PARTS`), templates from data cached per text within
//!   [`Limits::cache_capacity`]; formatDate patterns to 256 bytes and date text to 64 bytes,
//!   a field it cannot write an `EXPRESSION_ERROR`;
//! - a tool's `outputSchema` (feature `json-schema`, `McpHost::with_output_schema`) is
//!   compiled only when it is at most `mcp::MAX_OUTPUT_SCHEMA_BYTES` (256 KiB) of JSON and
//!   within [`Limits::max_depth`], has no `$ref` cycle that never reaches the value, and refers
//!   to no other document (nothing is ever fetched); otherwise the call fails naming the tool;
//! - who asks is the host's to say ([`Origin`]; a binding unless told otherwise), and what a
//!   catalog declares (`requiresUserActivation`, `allowedCallers`) is enforced whatever the
//!   host's policy.

// Feature badges on docs.rs (built with `--cfg docsrs`, see Cargo.toml): items behind a feature say so.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

// The modules in layers, lowest first, each importing only from the layers before it
// (tests/layers.rs checks this); the root re-exports what an embedder uses.
// The unit tests' random generator.
#[cfg(test)]
mod test_rng;

mod error;

mod origin;

mod cache;

pub mod json;

#[cfg(feature = "json-schema")]
mod json_schema;

mod path;

mod model;

pub mod jmespath;
pub mod regex;

mod limits;

mod syntax;

mod value;

mod catalog;

mod builtins;

mod payload;

mod env;

#[cfg(feature = "basic-catalog")]
pub mod basic;

// Two layers in two folders: its pure part (`mcp::protocol`) sits below `value`, its host (the
// policy and audit, the evaluation of tool calls) here.
pub mod mcp;

pub mod stream;

pub mod reactive;

pub mod surfaces;

pub mod messages;

// The host's I/O: connections to real MCP servers. Above everything it drives.
#[cfg(feature = "connect")]
pub mod connect;

#[cfg(feature = "testing")]
pub mod testing;

#[cfg(feature = "testing")]
pub mod fixtures;

pub use builtins::MCP_CATALOG_ID;
pub use catalog::{Args, CallContext, Catalog, Function};
pub use env::{Diagnostics, Environment};
pub use error::{Denial, Error, ErrorCode, MissingCatalog, Phase, Result, Warning, WarningCode};
pub use limits::Limits;
pub use model::{DataModel, SharedModel};
pub use origin::{Invocation, Origin};
pub use path::JsonPointer;
pub use payload::Payload;
pub use syntax::Spelling;

/// What a host's own functions use beyond [`Function`], [`Args`] and [`CallContext`]:
/// arguments read at compile time and what is prepared from them, what a call reads, and the
/// declarations of a catalog document (the MCP catalog's own is
/// [`MCP_CATALOG_JSON`](crate::functions::MCP_CATALOG_JSON)).
pub mod functions {
    pub use crate::builtins::MCP_CATALOG_JSON;
    pub use crate::catalog::{
        ArgSchema, FunctionDeclaration, Prepared, Reads, StaticArg, StaticArgs,
    };
    pub use crate::origin::{Access, AllowedCallers};
}

/// Writing to and reading from a [`DataModel`] the way payloads do: writes
/// bounded by the [`Limits`], reads by JSON Pointer.
pub mod data_model {
    pub use crate::model::{Write, apply_writes, read_value};
}

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
