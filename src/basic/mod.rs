//! The A2UI basic catalog (feature `basic-catalog`): its 30 functions, formatString's `${…}`
//! language ([`Template`]), and number, currency, plural and date formatting with the host's
//! locale and time zone.
//!
//! ```
//! use a2ui_catalog_mcp::basic::{BasicCatalog, BASIC_CATALOG_ID};
//! use a2ui_catalog_mcp::Environment;
//! use serde_json::json;
//!
//! let env = Environment::new()
//!     .with_catalog(BasicCatalog::new().with_locale("de-DE")?.build())
//!     .with_default_catalog(BASIC_CATALOG_ID);
//! let label = env.compile(&json!({"@call": "formatString", "args": {
//!     "value": "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')}"}}))?;
//! assert_eq!(label.eval(&mut json!({"name": "Tee", "price": 1234.5}))?, json!("Tee: 1.234,50\u{a0}€"));
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```
//!
//! # What the functions do
//!
//! The catalog document is the v1.0 specification's (`catalog/basic-catalog-v1.json`,
//! [`BASIC_CATALOG_JSON`]), read with [`Catalog::from_schema`](crate::Catalog::from_schema): required and undeclared
//! arguments are compile-time `VALIDATION_FAILED` with their location; literal arguments are
//! checked by the functions themselves (the suite's numeric text and truthy values pass where
//! the schema's types would refuse them), at compile time where they are literal. The rules follow
//! `docs/basic-catalog.md`:
//!
//! - `required`, `regex` (the crate's portable dialect and safety check), `length` (UTF-16
//!   code units, as JavaScript counts; `split` counts code points), `numeric`, `email` (the
//!   reference's ASCII check) return booleans; `and`, `or`, `not` use JavaScript truthiness and
//!   read a `validationResult` object's `valid`; `and` / `or` need at least two values.
//! - `formatNumber`, `formatCurrency`: ICU4X with the host's locale; `decimals` (0..=20) fixes
//!   the minimum and maximum fraction digits; absent, up to 3 for numbers and the currency's
//!   minor units; `null` gives `""`.
//! - `formatDate`: TR35 patterns formatted by ICU4X in the host's locale and time zone; `"ISO"`
//!   gives `toISOString()`'s form; an impossible date gives `""`.
//! - `pluralize`: the locale's CLDR cardinal category; `zero` / `one` / `two` win for exactly
//!   0 / 1 / 2; then `other`.
//! - Operators follow JavaScript's `Number` arithmetic; a result JSON cannot hold (`x / 0`) is
//!   `EXPRESSION_ERROR`. `equals` compares JSON values deeply.
//! - `openUrl` does no I/O: it queues the URL for the host ([`UrlRequests`]), for `http` and
//!   `https` only unless the host allows more ([`BasicCatalog::with_allowed_scheme`]).
//! - `formatString`: a literal template is expanded at compile time into bindings and calls
//!   ([`Function::expand`](crate::Function::expand)): its paths are exact dependencies, its
//!   calls are checked and located like any other, a tool called inside it is the payload's
//!   tool call. A template from data is parsed once per distinct text (bounded cache) and may
//!   read paths and call the catalog's pure functions only.

mod args;
mod builder;
mod date;
mod document;
mod format;
mod functions;
mod shared;
mod template;

pub use builder::BasicCatalog;
pub use document::{BASIC_CATALOG_ID, BASIC_CATALOG_JSON};
pub use shared::UrlRequests;
pub use template::{Call, Expr, MAX_NESTING, MAX_PARTS, MAX_TEMPLATE_BYTES, Template};

#[cfg(test)]
mod tests;
