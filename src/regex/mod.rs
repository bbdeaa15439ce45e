//! The A2UI regex dialect: JavaScript `u`-mode pattern meaning on the linear-time `regex` crate.
//!
//! A pattern is in the dialect when JavaScript accepts it with the `u` flag (and no other flag),
//! it uses no lookaround and no backreference, and the basic catalog's safety check does not call
//! it vulnerable to catastrophic backtracking. [`Pattern::new`] checks all that, then builds the
//! regex from its own syntax tree so that every construct means what JavaScript means (`.`, `\d`,
//! `\w`, `\s`, `\b`, `^`, `$`, `[^]`, `\p{…}`, captures in repetitions): one payload gives the
//! same answer here as `new RegExp(pattern, 'u').exec(text)` in a browser. `docs/regex-dialect.md`
//! is the user's guide.
//!
//! ```
//! use a2ui_catalog_mcp::regex::Pattern;
//!
//! let p = Pattern::new(r"^Title: (.*)\nURL: (.*)").unwrap();
//! let text = "Title: A2UI\nURL: https://a2ui.org/\nContent: Agent to UI";
//! assert_eq!(p.captures(text), Some(vec!["A2UI", "https://a2ui.org/"]));
//!
//! // JavaScript clears a repeated group's captures on each iteration.
//! let p = Pattern::new("(?:(a)|b)+").unwrap();
//! assert_eq!(p.captures("ab"), Some(vec![""]));
//! ```

mod ast;
mod error;
mod lines;
mod parser;
mod pattern;
mod properties;
mod safety;
mod scripts;
mod translate;

pub use error::{RegexError, RegexErrorKind};
pub use pattern::{DEFAULT_SIZE_LIMIT, MAX_PATTERN_LEN, Pattern, validate};
#[cfg(feature = "internals")]
pub use pattern::{compilations, property_code_points};
/// Every `\p{…}` name the dialect accepts (with the `internals` feature only).
#[cfg(feature = "internals")]
pub use properties::accepted_names as accepted_property_names;
