//! The server side of A2UI over MCP, for a small recipe card: what an MCP server answers to
//! `tools/list`, `resources/list`, `resources/read` and `tools/call`, built with
//! `a2ui_catalog_mcp::mcp::protocol` and printed as pretty JSON (one object, keyed by method).
//!
//! The layout (createSurface + updateComponents, bound to `/recipe/…`) is a resource; the tool
//! returns only the data (updateDataModel) with a text fallback, and links the layout with
//! `_meta.ui`. The renderer's button sends an `a2ui_action` call, read back at the end.
//!
//! Run with `cargo run --example mcp_recipe_server`.

use a2ui_catalog_mcp::Limits;
use a2ui_catalog_mcp::mcp::protocol::{
    self, ResourceOptions, Role, ToolOptions, ToolResultOptions,
};
use serde_json::{Value, json};

const CARD_URI: &str = "a2ui://recipe-card";
const SURFACE: &str = "recipe";
const VERSION: &str = "v1.0";
const BASIC_CATALOG: &str = "https://a2ui.org/specification/v1_0/basic_catalog.json";

/// The card's layout: a surface and its components, bound to the data model.
fn layout() -> Vec<Value> {
    vec![
        json!({"version": VERSION, "createSurface": {
            "surfaceId": SURFACE, "catalogId": BASIC_CATALOG}}),
        json!({"version": VERSION, "updateComponents": {"surfaceId": SURFACE, "components": [
            {"id": "root", "component": "Card", "child": "body"},
            {"id": "body", "component": "Column",
             "children": ["title", "time", "ingredients", "save"]},
            {"id": "title", "component": "Text", "variant": "h2",
             "text": {"@path": "/recipe/title"}},
            {"id": "time", "component": "Text", "text": {"@path": "/recipe/time"}},
            {"id": "ingredients", "component": "Column",
             "children": ["ingredient-0", "ingredient-1", "ingredient-2"]},
            {"id": "ingredient-0", "component": "Text",
             "text": {"@path": "/recipe/ingredients/0"}},
            {"id": "ingredient-1", "component": "Text",
             "text": {"@path": "/recipe/ingredients/1"}},
            {"id": "ingredient-2", "component": "Text",
             "text": {"@path": "/recipe/ingredients/2"}},
            {"id": "save-label", "component": "Text", "text": "Save"},
            {"id": "save", "component": "Button", "child": "save-label",
             "action": {"event": {"name": "save_recipe",
                                  "context": {"title": {"@path": "/recipe/title"}}}}}
        ]}}),
    ]
}

/// The data of one recipe, for the tool's result.
fn recipe_data(dish: &str) -> Vec<Value> {
    vec![json!({"version": VERSION, "updateDataModel": {
        "surfaceId": SURFACE,
        "path": "/recipe",
        "value": {
            "title": dish,
            "time": "25 min",
            "ingredients": [
    "2 salmon fillets", "1 lemon", "1 tbsp olive oil"
            ]
        }
    }})]
}

fn main() -> Result<(), a2ui_catalog_mcp::Error> {
    let get_recipe = protocol::tool(
        "get_recipe",
        &ToolOptions::new()
            .with_title("Get a recipe")
            .with_description("Returns a recipe for a dish, shown as a recipe card.")
            .with_input_schema(json!({
                "type": "object",
                "properties": {"dish": {"type": "string", "description": "The dish to cook."}},
                "required": ["dish"]
            }))
            .with_resource_uri(CARD_URI),
    );
    let tools = json!({"tools": [get_recipe, protocol::action_tool(), protocol::error_tool()]});

    let resources = json!({"resources": [protocol::resource(
        CARD_URI,
        "Recipe card",
        &ResourceOptions::new().with_description("A card showing a recipe's title, time and ingredients."),
    )]});

    let read = protocol::resource_contents(CARD_URI, &layout(), &Limits::default())?;

    let dish = "Grilled salmon";
    let call = protocol::tool_result(
        &recipe_data(dish),
        &ToolResultOptions::new()
            .with_uri("a2ui://recipe-card/data")
            .with_resource_uri(CARD_URI)
            .with_text(format!("Generated recipe: {dish} (25 min, 3 ingredients)"))
            .with_audience([Role::User]),
        &Limits::default(),
    )?;

    // The renderer presses "Save": the server receives an a2ui_action call.
    let action = protocol::action(
        &json!({"name": "save_recipe", "surfaceId": SURFACE, "sourceComponentId": "save",
                "timestamp": "2026-11-30T12:00:00Z", "context": {"title": dish}}),
        VERSION,
        &Limits::default(),
    )?;

    let out = json!({
        "tools/list": tools,
        "resources/list": resources,
        "resources/read": read,
        "tools/call": call,
        "a2ui_action received": action,
    });
    println!(
        "{}",
        serde_json::to_string_pretty(&out).expect("a Value always serializes")
    );
    Ok(())
}
