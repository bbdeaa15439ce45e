//! The basic catalog's id and the catalog document the crate implements.

/// The id of the basic catalog (v1.0).
pub const BASIC_CATALOG_ID: &str =
    "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// The basic catalog document the crate implements (the v1.0 specification's, 30 functions).
pub const BASIC_CATALOG_JSON: &str = include_str!("../../catalog/basic-catalog-v1.json");
