//! A tool's text through `callMcpTool`: never a panic, and what an expression reads of the
//! response's `json` (decoded on demand, the rest stepped over) is what it reads of the whole
//! value.
#![no_main]

use a2ui_catalog_mcp::jmespath::Expression;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// Expressions that read part of `json` (fields, elements, filters, projections).
const EXPRESSIONS: &[&str] = &[
    "json.a",
    "json[0].a.b",
    "json[*].a",
    "json[?state == 'open'].{n: to_string(n), t: title}",
    "json.items[?a].b",
    "json[*][0]",
    "length(json.a)",
    "length(json)",
    "[length(json[0]), json[0].a]",
];

/// Built once: making an environment parses the MCP catalog, which would dominate each run.
static ENV: OnceLock<Environment> = OnceLock::new();

fn search(env: &Environment, text: &str, expression: &str) -> Option<Value> {
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
        "results": {"t": [{"content": [{"type": "text", "text": text}]}]},
    }))
    .ok()?;
    let payload = env
        .compile(
            &json!({"@call": "transformData", "args": {"jmespath": expression,
            "data": {"@call": "callMcpTool", "args": {"name": "t"}}}}),
        )
        .ok()?;
    let model = SharedModel::new(json!({}));
    block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host())).ok()
}

fuzz_target!(|input: &[u8]| {
    let text = String::from_utf8_lossy(input);
    let env = ENV.get_or_init(Environment::new);
    let Some(whole) = search(env, &text, "json") else {
        return;
    };
    let holder = json!({ "json": whole });
    for expression in EXPRESSIONS {
        let read = search(env, &text, expression);
        let want = Expression::compile(expression)
            .unwrap()
            .search(&holder)
            .ok();
        assert_eq!(read, want, "{expression}");
    }
});
