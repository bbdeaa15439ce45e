//! The MCP helpers on realistic inputs: a tool result written and read back, an McpApp parsed
//! (schemas compiled) and its requests checked, and a large url_encoded HTML decoded.

use a2ui_catalog_mcp::Limits;
use a2ui_catalog_mcp::mcp::app::{McpAppProps, decode_html_content};
use a2ui_catalog_mcp::mcp::protocol::{self, ToolResultOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

fn messages(rows: usize) -> Vec<Value> {
    let items: Vec<Value> = (0..rows)
        .map(|i| {
            json!({"id": i, "title": format!("Issue {i}"), "state": "open",
                        "labels": ["bug", "ui"], "body": "Some text ".repeat(8)})
        })
        .collect();
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c"}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/issues",
                                                     "value": items}}),
    ]
}

fn protocol_benches(c: &mut Criterion) {
    let messages = messages(200);
    let options = ToolResultOptions::new()
        .with_text("200 issues")
        .with_resource_uri("a2ui://issues");
    c.bench_function("tool_result 200 rows", |b| {
        b.iter(|| {
            protocol::tool_result(black_box(&messages), &options, &Limits::default()).unwrap()
        })
    });
    let result = protocol::tool_result(&messages, &options, &Limits::default()).unwrap();
    c.bench_function("a2ui_messages 200 rows", |b| {
        b.iter(|| protocol::a2ui_messages(black_box(&result), &Limits::default()).unwrap())
    });
}

fn app_benches(c: &mut Criterion) {
    let component = json!({
        "id": "board", "component": "McpApp",
        "htmlContent": "url_encoded:%3Ch1%3EBoard%3C%2Fh1%3E",
        "allowedTools": ["move_card", "add_card"],
        "allowedFunctions": {"formatDate": {"type": "object",
            "properties": {"value": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
                           "format": {"enum": ["short", "long"]}},
            "required": ["value"], "additionalProperties": false}},
        "data": {"paths": {"toolResult": "/board/last", "cards": "/board/cards"}},
        "csp": {"connectDomains": ["https://api.example.com"]}
    });
    c.bench_function("McpAppProps::parse", |b| {
        b.iter(|| McpAppProps::parse(black_box(&component), &Limits::default()).unwrap())
    });
    let props = McpAppProps::parse(&component, &Limits::default()).unwrap();
    let call = json!({"call": "formatDate", "args": {"value": "2026-11-30", "format": "long"}});
    c.bench_function("check_function_call", |b| {
        b.iter(|| props.check_function_call(black_box(&call)).unwrap())
    });
    let tool = json!({"name": "move_card", "arguments": {"card": 3, "to": "done"}});
    c.bench_function("check_tool_call", |b| {
        b.iter(|| props.check_tool_call(black_box(&tool)).unwrap())
    });
    let page = "<div class=\"card\">Grilled salmon — 25 min 🍣</div>\n".repeat(2000);
    let encoded: String = page
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let html = format!("url_encoded:{encoded}");
    c.bench_function("decode_html_content 100 KB", |b| {
        b.iter(|| decode_html_content(black_box(&html)).unwrap())
    });
}

criterion_group!(benches, protocol_benches, app_benches);
criterion_main!(benches);
