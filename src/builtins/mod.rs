//! The MCP catalog: its published schema and the crate's implementations of its functions.
//!
//! The functions are [`Function`](crate::Function) implementations like a host's; what they
//! read besides their arguments (the limits, the caches for patterns that come from data) comes
//! from the call, so one catalog serves environments with different limits.
//!
//! # The functions' rules
//!
//! The argument names and shapes are the published catalog's ([`MCP_CATALOG_JSON`]). The goal
//! is that a payload gives the same value here as in a JavaScript renderer running the
//! reference `@a2ui/catalog-mcp`; "like JavaScript" below is the reason for a rule. Wrong
//! argument types are `EXPRESSION_ERROR`; when the argument is a literal in the payload, that
//! is found when the payload is compiled.
//!
//! ## Coercion to text (`split`, `regexCapture`)
//!
//! `split`'s `value` and `separator`, and `regexCapture`'s `value` and `pattern`, accept any
//! JSON value. A `value` that is an array is mapped element by element, one level only;
//! anything else is one item. An item becomes text as JavaScript's `String(x ?? '')` makes it
//! ([`to_js_string`](crate::json::to_js_string)):
//!
//! - `null` → `""`; a string → itself; `true` / `false` → `"true"` / `"false"`;
//! - a number → as JavaScript prints it: `12`, `1.5`, `3` for `3.0`, `1e+21`, `1e-7`,
//!   `0.30000000000000004`; integers beyond 2^53 are rounded through a double first
//!   (`12345678901234567890` → `"12345678901234567000"`);
//! - an array → its elements coerced the same way and joined with `,`, nested arrays
//!   flattened, `null` elements as empty text (`[1, null, "a"]` → `"1,,a"`);
//! - an object → `"[object Object]"`.
//!
//! ## `split` — `{value, separator}`
//!
//! - A literal split on the coerced `separator` (no regex meaning: `.` is a dot), empty fields
//!   kept: `"a,,b"` → `["a", "", "b"]`, `",a,"` → `["", "a", ""]`, `""` → `[""]`, `null` →
//!   `[""]` (it is `""`).
//! - An empty separator (`""`, or `null`, which coerces to `""`) splits into Unicode code
//!   points, not UTF-16 units: `"h€llo"` gives 5 items, `"a😀"` gives 2; `""` gives `[]`.
//! - An array `value` gives an array of arrays, one per element (`["a:1", null]` on `:` →
//!   `[["a", "1"], [""]]`).
//! - The pieces count against [`Limits::max_output_items`](crate::Limits::max_output_items)
//!   and [`Limits::max_output_bytes`](crate::Limits::max_output_bytes) (`LIMIT_EXCEEDED`).
//!
//! ## `regexCapture` — `{value, pattern}`
//!
//! - `pattern` is coerced to text and must be in the A2UI regex dialect (the
//!   [`regex`](crate::regex) module; `docs/regex-dialect.md`), a portable subset of JavaScript's patterns with the `u`
//!   flag and no other; otherwise `EXPRESSION_ERROR` with the reason (`Unsafe regex pattern
//!   (catastrophic backtracking risk): (a+)+b`).
//! - Per item: the first match anywhere in the text (not anchored; `^` and `$` are the start and
//!   end of the whole text). No match: `null`. A match: the array of capture groups 1..n as
//!   strings, a group that did not take part giving `""`; a pattern without groups that
//!   matches gives `[]`.
//! - An array `value` gives an array with `null` in place of the items that did not match (the
//!   usual follow-up is the JMESPath filter `[?@ != null]`).
//! - A literal pattern is checked and compiled with the payload; one that comes from data is
//!   compiled on first use and kept, with its verdict, in a bounded cache
//!   ([`Limits::cache_capacity`](crate::Limits::cache_capacity)).
//!
//! ## `transformData` — `{jmespath, data}`
//!
//! - Evaluates the standard JMESPath expression `jmespath` against `data` (the
//!   [`jmespath`](crate::jmespath) module states the dialect: the specification's 26 functions,
//!   no extensions, results like the JavaScript library `jmespath` 0.16 where the specification
//!   allows). `data` absent or `null` is evaluated as `null`.
//! - `jmespath` must evaluate to a string, else `EXPRESSION_ERROR` `transformData expects a
//!   string expression, got <kind>.` (`<kind>`: `null`, `an array`, `an object`, `a number`, `a
//!   boolean`).
//! - A parse or runtime error is `EXPRESSION_ERROR` (`LIMIT_EXCEEDED` past the JMESPath limits)
//!   whose message ends with ` in JMESPath expression: <expression>`.
//! - A literal expression is compiled with the payload (so its errors are compile-time errors);
//!   one that comes from data is compiled on first use and kept in a bounded cache.
//! - A tool's response object is read member by member, without converting it first.
//!
//! ## `updateDataModel` — `{updates}`
//!
//! - `updates` `null` (or a binding to a missing path): nothing happens. Not an object:
//!   `EXPRESSION_ERROR` `updateDataModel expects an object of data model paths, got <kind>.`
//! - Each key is a path: absolute when it starts with `/`, `""` and `"."` the data context, any
//!   other joined to the data context (`selected` in `/rows/1` is `/rows/1/selected`); `"/"` is
//!   the root, so `{"/": 5}` replaces the whole model. Each value is written there, in the
//!   object's key order, each write seeing the model as the earlier keys left it.
//! - All or nothing: a malformed path, a path through `__proto__`, `constructor` or
//!   `prototype`, or a write the model cannot take (`{"/a": 5, "/a/b": 1}`: `/a` holds a
//!   number by then) is `DATA_ERROR` naming that path, and nothing is written. How writes
//!   create, pad and replace is stated on [`apply_writes`](crate::data_model::apply_writes).
//! - The value is `null`.
//!
//! ## `callMcpTool` — `{name, arguments, targetDataPath}`
//!
//! Calls an MCP tool through the host; its value is the tool's response object. The
//! [`mcp`](crate::mcp) module and `docs/mcp.md` state what it does.

mod call_mcp_tool;
pub(crate) mod index;
mod mcp_catalog;
mod regex_capture;
mod split;
mod transform_data;
mod update_data_model;

pub use mcp_catalog::{MCP_CATALOG_ID, MCP_CATALOG_JSON};
