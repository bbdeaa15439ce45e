//! JSON text and values from untrusted sources, the layer the rest of the crate builds on:
//! parsing with a depth limit, the few whole-value walks the crate needs (all without
//! recursion), and values printed as JavaScript prints them ([`to_js_string`]).
//!
//! `serde_json` parses and drops values recursively. Its default recursion limit (128) would
//! refuse data the crate accepts (its depth limit is configurable, and fixture files nest
//! deeper on purpose), and lifting it would let a deep document overflow the stack. So text is
//! first scanned for its nesting depth ([`nests_deeper_than`]), and only parsed when the depth
//! is within the caller's limit. Tool texts, the large ones, go through the crate's own reader
//! instead (`reader.rs`): one pass checks them, depth included, without recursion, and their
//! values are decoded as far as they are read.

mod bytes;
mod depth;
mod equality;
mod js;
mod kind;
mod reader;

pub(crate) use bytes::{ALLOCATION_BYTES, ByteCosts, ENTRY_BYTES, bytes_with, value_bytes};
pub(crate) use depth::{DEFAULT_MAX_DEPTH, depth_exceeds, drop_deep};
pub use depth::{from_str_limited, nests_deeper_than};
pub(crate) use equality::{deep_equal, same_text};
#[cfg(any(feature = "basic-catalog", feature = "json-schema"))]
pub(crate) use js::uri_format_problem;
pub(crate) use js::{MAX_SAFE_INTEGER, is_js_space, push_js_number};
pub use js::{js_number_string, to_js_string};
pub(crate) use kind::kind_name;
#[cfg(feature = "internals")]
pub use reader::tool_text_checks;
pub(crate) use reader::{Lite, Lites, Need, ReadError, Structure, Tree, Values, decode, scan};
