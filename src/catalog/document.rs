//! Catalog documents: an A2UI catalog's JSON read into a [`Catalog`] of declared functions.
//!
//! [`Catalog::from_schema`] reads the function entries of both shapes A2UI catalogs use:
//!
//! - the MCP catalog's: `{"returnType": "any", "properties": {"@call": {"const": …}, "args":
//!   {…}}}`;
//! - the basic catalog's (v1.0): the entry nests its argument schema in `allOf`, next to a `$ref`
//!   to the common types, and declares `returnType` beside it: `{"returnType": "string",
//!   "allOf": [{"$ref": "…/common_types.json#/$defs/FunctionCommon"}, {"properties": {"call":
//!   {"const": …}, "args": {…}}}], "unevaluatedProperties": false}`. The v0.9 form, with
//!   `returnType` as `properties.returnType.const`, is read too.
//!
//! Each function keeps its declared arguments (required and optional, whether others are
//! accepted), its declared return type and its argument JSON Schema
//! ([`FunctionDeclaration`]). Functions are declared without implementations: the host attaches
//! them by name ([`Catalog::implement_function`]). Calling one the host did not implement
//! compiles, and fails when it runs, with an error naming the function and the catalog.
//!
//! What a call of a declared function is checked against, and which schema keywords are
//! understood: see [`FunctionDeclaration`].

mod declaration;
mod invalid;
#[cfg(feature = "json-schema")]
mod literal;
mod load;

pub use declaration::FunctionDeclaration;
pub(crate) use load::{LiteralChecks, foreign_catalog_message, foreign_catalog_ref, load};
