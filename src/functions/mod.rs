//! The MCP catalog's functions (functions.md) and the coercion they share.

mod call_mcp_tool;
mod coerce;
mod regex_capture;
mod split;
mod transform_data;
mod update_data_model;

use crate::catalog::Catalog;
use crate::limits::Limits;

pub use coerce::{js_number_string, to_js_string};

/// Gives the MCP catalog's declared functions the crate's implementations. A function the
/// catalog schema declares and the crate does not implement (a newer schema) stays declared:
/// calling it is a compile-time error that says so.
pub(crate) fn implement_mcp(catalog: &mut Catalog, limits: &Limits) {
    catalog.implement("callMcpTool", call_mcp_tool::CallMcpTool);
    catalog.mark_tool("callMcpTool");
    catalog.implement("split", split::Split);
    catalog.implement("regexCapture", regex_capture::RegexCapture::new(limits));
    catalog.implement("transformData", transform_data::TransformData::new(limits));
    catalog.implement("updateDataModel", update_data_model::UpdateDataModel);
}
