//! Message streams: checking 10 000 A2UI messages (surfaces created, filled with components
//! that call the basic and MCP catalogs, updated, deleted), against parsing the same JSON lines
//! with `serde_json` alone in the same run.
//!
//! `cargo bench --bench messages --all-features`

use a2ui_catalog_mcp::{Catalog, Environment, MCP_CATALOG_ID, messages};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn stream(n: usize) -> String {
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

fn messages_10k(c: &mut Criterion) {
    let mut env = Environment::new();
    env.add_catalog(
        Catalog::from_schema_str(include_str!("../tests/data/basic-catalog.json")).unwrap(),
    );
    let text = stream(10_000);
    assert!(messages::check_stream(&env, &text).is_clean());
    let mut g = c.benchmark_group("stream-10000-messages");
    g.throughput(Throughput::Elements(10_000));
    g.sample_size(10);
    g.bench_function("serde_json-parse-lines (baseline)", |b| {
        b.iter(|| {
            black_box(&text)
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("check_stream", |b| {
        b.iter(|| messages::check_stream(&env, black_box(&text)))
    });
    g.finish();
}

criterion_group!(benches, messages_10k);
criterion_main!(benches);
