//! Standard JMESPath (<https://jmespath.org/specification.html>) over `serde_json`, or over any
//! JSON document through the [`JsonView`] trait.
//!
//! - Compiled once into a compact tree ([`Expression`]); function names and arities are checked
//!   then. Extensions (`let`, `$`, the ternary `?:`, arithmetic) are syntax errors.
//! - Evaluation reads the input in place: fields, projections and filters borrow from it, and
//!   only the result is built as a `serde_json::Value`.
//! - Results match the JavaScript library `jmespath` 0.16: object keys keep their order, integer
//!   results stay integers (`sum([1, 2])` is `3`), `to_string` prints numbers as JavaScript
//!   does, `avg([])` is `null`. Where that library departs from the specification, the
//!   specification wins: ordering comparisons of non-numbers are `null`, `max_by`/`min_by` of
//!   `[]` are `null`, `[:::]` is a syntax error, `length` counts code points, strings sort and
//!   compare (`sort`, `max`, `min`) by code point, and a projection goes on after an object
//!   wildcard or a multi-select (`foo.*.bar.baz` projects `bar.baz` and `foo[*].{a: a}.a`
//!   projects `.a`, as `foo[*].bar.baz` does; the JavaScript parser ends the projection there
//!   and applies the rest to the whole list, which usually gives `null`).
//! - Numbers compare and compute as JavaScript's doubles: an integer beyond 2^53 equals the
//!   double it rounds to (with `{"n": 9007199254740993}`, `` n == `9007199254740992` `` is
//!   true and `sum([n])` is `9007199254740992`), and `to_number` trims exactly ECMAScript's
//!   white space and line terminators (not U+0085). One difference remains: a number of the
//!   data that a result passes on unchanged (`n`, `max([n])`, `sort`, a projection or filter)
//!   keeps its digits (`9007199254740993`), where JavaScript, having parsed the data into
//!   doubles, gives `9007199254740992`. Data that holds integers beyond 2^53 and must round-trip
//!   exactly keeps them; data made by `JSON.parse` never has them.
//! - Bounded: expression length and nesting are limited ([`JmespathLimits`]), input of any depth is
//!   walked without recursion, and an evaluation budget stops runaway work.
//!
//! ```
//! use a2ui_catalog_mcp::jmespath::Expression;
//! use serde_json::json;
//!
//! let expr = Expression::compile(
//!     "issues[?state == 'open'].{number: to_string(number), title: title}",
//! )?;
//! let data = json!({"issues": [
//!     {"number": 7, "title": "Crash", "state": "open"},
//!     {"number": 8, "title": "Typo", "state": "closed"},
//! ]});
//! assert_eq!(expr.search(&data)?, json!([{"number": "7", "title": "Crash"}]));
//! # Ok::<(), a2ui_catalog_mcp::jmespath::JmespathError>(())
//! ```

mod allowance;
mod ast;
mod error;
mod expression;
mod func;
mod functions;
mod interpreter;
mod lexer;
mod limits;
mod parser;
mod reads;
mod value;
mod view;

pub use allowance::Allowance;
pub use error::{JmespathError, JmespathErrorKind};
pub use expression::{Expression, Member};
pub use limits::{JmespathLimits, MAX_DEPTH_CEILING};
pub use view::{JsonKind, JsonView, ObjectMembers};
