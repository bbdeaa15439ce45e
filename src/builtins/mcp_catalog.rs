//! The MCP catalog itself: its id, its published document, and [`Catalog::mcp`], which joins
//! the document's declarations to the implementations of the files beside this one.

use super::{call_mcp_tool, regex_capture, split, transform_data, update_data_model};
use crate::catalog::Catalog;
use serde_json::Value;
use std::sync::OnceLock;

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
        // The bundled document is read once per process (every `Environment::new` builds this
        // catalog); its declarations are shared. The implementations are made anew: their
        // caches of compiled expressions and patterns are each environment's own.
        static DECLARED: OnceLock<Catalog> = OnceLock::new();
        let mut catalog = DECLARED
            .get_or_init(|| {
                let schema: Value = serde_json::from_str(MCP_CATALOG_JSON)
                    .expect("the bundled catalog is valid JSON");
                Catalog::from_schema_without_literal_checks(&schema)
                    .expect("the bundled catalog is well formed")
            })
            .clone();
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
    use std::sync::Arc;

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

    #[test]
    fn the_bundled_document_is_read_once_and_the_implementations_made_per_catalog() {
        let (a, b) = (Catalog::mcp(), Catalog::mcp());
        for name in a.function_names() {
            let (a, b) = (a.function(name).unwrap(), b.function(name).unwrap());
            let declared = |d: &crate::catalog::FunctionDef| d.declaration.clone().unwrap();
            assert!(Arc::ptr_eq(&declared(a), &declared(b)), "{name}");
            let (a, b) = (a.imp.clone().unwrap(), b.imp.clone().unwrap());
            assert!(!Arc::ptr_eq(&a, &b), "{name}");
        }
    }
}
