//! The MCP catalog: its published schema and the crate's implementations of its functions
//! (functions.md).
//!
//! The functions are [`Function`](crate::Function) implementations like a host's; what they
//! read besides their arguments (the limits, the caches for patterns that come from data) comes
//! from the call, so one catalog serves environments with different limits.

mod call_mcp_tool;
pub(crate) mod index;
mod regex_capture;
mod split;
mod transform_data;
mod update_data_model;

use crate::catalog::Catalog;
use serde_json::Value;

/// The id of the MCP catalog.
pub const MCP_CATALOG_ID: &str = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";

/// The published MCP catalog schema, as the crate carries it.
pub const MCP_CATALOG_JSON: &str = include_str!("../../catalog/mcp-catalog-v1.json");

impl Catalog {
    /// The built-in MCP catalog: its functions' schemas from the published catalog JSON
    /// ([`MCP_CATALOG_JSON`]) and the crate's implementations. A function the schema declares
    /// and the crate does not implement (a newer schema) stays declared: calling it fails when
    /// it runs, with an error that says so.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, MCP_CATALOG_ID};
    /// let mcp = Catalog::mcp();
    /// assert_eq!(mcp.id(), MCP_CATALOG_ID);
    /// assert!(mcp.function_names().contains(&"transformData"));
    /// ```
    pub fn mcp() -> Catalog {
        let schema: Value =
            serde_json::from_str(MCP_CATALOG_JSON).expect("the bundled catalog is valid JSON");
        let mut catalog = Catalog::from_schema_without_literal_checks(&schema)
            .expect("the bundled catalog is well formed");
        catalog.implement("callMcpTool", call_mcp_tool::CallMcpTool);
        catalog.mark_tool("callMcpTool");
        catalog.implement("split", split::Split);
        catalog.implement("regexCapture", regex_capture::RegexCapture::default());
        catalog.implement("transformData", transform_data::TransformData::default());
        catalog.implement("updateDataModel", update_data_model::UpdateDataModel);
        catalog
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mcp_catalog_implements_every_function_its_schema_declares() {
        let mcp = Catalog::mcp();
        assert_eq!(
            mcp.function_names(),
            [
                "callMcpTool",
                "regexCapture",
                "split",
                "transformData",
                "updateDataModel"
            ]
        );
        for name in mcp.function_names() {
            assert!(mcp.function(name).unwrap().imp.is_some(), "{name}");
        }
        assert!(mcp.function("callMcpTool").unwrap().tool);
    }
}
