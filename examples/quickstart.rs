//! The main example: compile the guide's payloads once, evaluate them against a data model, and
//! print the model before and after.
//!
//! Run with `cargo run --example quickstart`.

use a2ui_catalog_mcp::json::to_js_string;
use a2ui_catalog_mcp::{Args, Catalog, functions::ArgSchema};
use a2ui_catalog_mcp::{Environment, JsonPointer};
use serde_json::{Value, json};

const PARSERS: &str = "https://example.com/catalogs/parsers.json";

fn main() -> Result<(), a2ui_catalog_mcp::Error> {
    // The host's environment: the MCP catalog is built in; the guide's parseCsv is the host's.
    let mut env = Environment::new();
    env.add_catalog(Catalog::new(PARSERS).with_function(
        "parseCsv",
        ArgSchema::new().required("value"),
        |args: &Args<'_>| {
            let text = to_js_string(args.value_or_null("value"));
            Ok(text
                .lines()
                .map(|line| line.split(',').map(Value::from).collect::<Value>())
                .collect())
        },
    ));

    let mut model = json!({
        "repository": "a2ui/a2ui",
        "csv": "number,title\n1,Render McpApp\n2,Cache resources",
        "files": [{"name": "notes.md"}, {"name": "todo.txt"}]
    });
    println!(
        "data model before:\n{}\n",
        serde_json::to_string_pretty(&model).unwrap_or_default()
    );

    let steps = [
        (
            "a row's button marks its own row (relative path) and records it at the root",
            "/files/1",
            json!({"@call": "updateDataModel", "args": {"updates": {"selected": true, "/lastTouched": {"@path": "name"}}}}),
        ),
        (
            "split the repository name into owner and project",
            "/",
            json!({"@call": "updateDataModel", "args": {"updates": {
                "/repoParts": {"@call": "split", "args": {"value": {"@path": "/repository"}, "separator": "/"}}
            }}}),
        ),
        (
            "a host function from another catalog parses CSV into rows",
            "/",
            json!({"@call": "updateDataModel", "args": {"updates": {
                "/table": {"@call": "parseCsv", "catalogId": PARSERS, "args": {"value": {"@path": "/csv"}}}
            }}}),
        ),
    ];
    for (what, context, payload) in steps {
        let compiled = env.compile(&payload)?;
        compiled.eval_in(&mut model, &JsonPointer::parse(context)?)?;
        println!("- {what}");
    }

    // A payload with problems: every one is reported, with its location.
    let bad = json!({"@call": "split", "args": {"value": {"@ref": "/x"}, "limit": 2}});
    if let Err(err) = env.compile(&bad) {
        println!("\na bad payload is rejected before it runs:\n{err:#}");
    }

    println!(
        "data model after:\n{}",
        serde_json::to_string_pretty(&model).unwrap_or_default()
    );
    Ok(())
}
