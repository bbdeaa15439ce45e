//! A long A2UI message stream, shared by `tests/messages.rs` and `benches/messages.rs`.

use a2ui_catalog_mcp::MCP_CATALOG_ID;
use serde_json::json;

/// The basic catalog's id, which the stream's surfaces use.
pub const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// A stream of `n` messages: surfaces created, filled with components that call both catalogs,
/// updated with data, and deleted.
pub fn long_stream(n: usize) -> String {
    let mut lines = Vec::with_capacity(n);
    let mut surface = 0;
    while lines.len() < n {
        let id = format!("s{surface}");
        surface += 1;
        lines.push(
            json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": BASIC}}),
        );
        lines.push(json!({"version": "v1.0", "updateComponents": {"surfaceId": id, "components": [
            {"id": "root", "component": "Column", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Text", "text": {"@call": "formatString", "args": {"value": "${name}: ${qty}"}}},
            {"id": "total", "component": "Text", "text": {"@call": "formatCurrency", "args": {"value": {"@path": "/total"}, "currency": "EUR", "decimals": 2}}},
            {"id": "name", "component": "TextField", "value": {"@path": "/form/name"}, "checks": [
                {"condition": {"@call": "length", "args": {"value": {"@path": "/form/name"}, "min": 1, "max": 40}}, "message": "1 to 40"}]},
            {"id": "go", "component": "Button", "child": "total", "action": {"functionCall": {"@call": "callMcpTool", "catalogId": MCP_CATALOG_ID,
                "args": {"name": "refresh", "arguments": {"id": {"@path": "/id"}}, "targetDataPath": "/result"}}}}
        ]}}));
        for k in 0..6 {
            lines.push(json!({"version": "v1.0", "updateDataModel": {"surfaceId": id, "path": format!("/rows/{k}"), "value": {"name": "item", "qty": k}}}));
        }
        lines.push(json!({"version": "v1.0", "deleteSurface": {"surfaceId": id}}));
    }
    lines.truncate(n);
    lines.iter().map(|l| format!("{l}\n")).collect()
}
