//! Catalogs: named sets of functions a payload can call, each with the schema of its arguments.
//!
//! A catalog knows functions only through the [`Function`] trait: the MCP catalog's functions
//! ([`Catalog::mcp`]) are implementations like any host's. Hosts register their own functions,
//! in their own catalogs or in the MCP one, as plain Rust closures or as [`Function`]
//! implementations.
//!
//! ```
//! use a2ui_catalog_mcp::{Args, Catalog, Environment, functions::ArgSchema, json::to_js_string};
//! use serde_json::{json, Value};
//!
//! // The guide's `parseCsv`: split CSV text into rows of cells.
//! let parsers = Catalog::new("https://example.com/catalogs/parsers.json").with_function(
//!     "parseCsv",
//!     ArgSchema::new().required("value"),
//!     |args: &Args<'_>| {
//!         let text = to_js_string(args.value_or_null("value"));
//!         Ok(text.split('\n').map(|line| line.split(',').map(Value::from).collect::<Value>()).collect())
//!     },
//! );
//! let mut env = Environment::new();
//! env.add_catalog(parsers);
//! let payload = env.compile(&json!({
//!     "@call": "parseCsv",
//!     "catalogId": "https://example.com/catalogs/parsers.json",
//!     "args": {"value": "a,b\nc,d"}
//! })).unwrap();
//! assert_eq!(payload.eval(&mut json!({})).unwrap(), json!([["a", "b"], ["c", "d"]]));
//! ```

mod args;
mod context;
mod document;
mod function;
mod registry;

pub use args::{ArgSchema, Args, StaticArg, StaticArgs};
pub use context::CallContext;
pub(crate) use context::{LiteralToolName, ModelReader, ToolCall};
pub use document::FunctionDeclaration;
pub(crate) use document::{foreign_catalog_message, foreign_catalog_ref};
pub use function::{Function, Prepared, Reads};
pub use registry::Catalog;
pub(crate) use registry::{FunctionDef, implementation};
