//! Message streams: checking 10 000 A2UI messages (surfaces created, filled with components
//! that call the basic and MCP catalogs, updated, deleted), against parsing the same JSON lines
//! with `serde_json` alone in the same run.
//!
//! `cargo bench --bench messages --all-features`

use a2ui_catalog_mcp::{Catalog, Environment, messages};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;

#[path = "../tests/support/long_stream.rs"]
mod long_stream;
use long_stream::long_stream as stream;

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
