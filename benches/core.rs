//! The core engine: compile vs evaluate, atomic writes, split, and the JSON depth pre-scan.
//!
//! `cargo bench --bench core`

use a2ui_catalog_mcp::Environment;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Map, Value, json};
use std::hint::black_box;

/// A payload with 100 bindings and 100 calls: one `updateDataModel` whose updates hold, for each
/// of 100 rows, a binding to the row and a `split` of a bound string.
fn payload_100() -> Value {
    let mut updates = Map::new();
    for i in 0..100 {
        updates.insert(
            format!("/out/{i}/name"),
            json!({"@path": format!("/rows/{i}/name")}),
        );
        updates.insert(
            format!("/out/{i}/tags"),
            json!({"@call": "split", "args": {"value": {"@path": format!("/rows/{i}/tags")}, "separator": ","}}),
        );
    }
    json!({"@call": "updateDataModel", "args": {"updates": updates}})
}

fn model_100() -> Value {
    let rows: Vec<Value> = (0..100)
        .map(|i| json!({"name": format!("row {i}"), "tags": "a,b,c"}))
        .collect();
    json!({"rows": rows})
}

fn compile_vs_eval(c: &mut Criterion) {
    let env = Environment::new();
    let payload = payload_100();
    let text = payload.to_string();
    let model = model_100();
    let compiled = env.compile(&payload).unwrap();
    let mut g = c.benchmark_group("payload-100-bindings-100-calls");
    g.bench_function("parse+compile", |b| {
        b.iter(|| env.compile_str(black_box(&text)).unwrap())
    });
    g.bench_function("compile", |b| {
        b.iter(|| env.compile(black_box(&payload)).unwrap())
    });
    g.bench_function("eval-compiled", |b| {
        b.iter_batched_ref(
            || model.clone(),
            |m| compiled.eval(m).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    g.bench_function("compile+eval", |b| {
        b.iter_batched_ref(
            || model.clone(),
            |m| env.compile(black_box(&payload)).unwrap().eval(m).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn update_1000_paths(c: &mut Criterion) {
    let env = Environment::new();
    let mut updates = Map::new();
    for i in 0..1000 {
        updates.insert(format!("/section{}/item{i}/value", i % 10), json!(i));
    }
    let payload = env
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": updates}}))
        .unwrap();
    let mut g = c.benchmark_group("updateDataModel");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("1000-paths", |b| {
        b.iter_batched_ref(
            || json!({}),
            |m| payload.eval(m).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn split_1mb(c: &mut Criterion) {
    // A million code points are past the evaluation's default budget of values (524 288,
    // which keeps a small payload under about 64 MB): this measures speed, so it is raised.
    let mut env = Environment::new();
    let mut limits = env.limits().clone();
    limits.max_eval_items = 4 << 20;
    env = env.with_limits(limits);
    let line = "Title: A2UI and MCP\nURL: https://example.com/a2ui/mcp\n\n";
    let text: String = line.repeat((1 << 20) / line.len());
    // split only reads: the same model serves every iteration.
    let mut model = json!({"text": text});
    let mut g = c.benchmark_group("split-1MB");
    g.throughput(Throughput::Bytes(text.len() as u64));
    for separator in ["\n\n", ""] {
        let payload = env
            .compile(&json!({"@call": "split", "args": {"value": {"@path": "/text"}, "separator": separator}}))
            .unwrap();
        let name = if separator.is_empty() {
            "code-points"
        } else {
            "records"
        };
        g.bench_with_input(BenchmarkId::from_parameter(name), &payload, |b, p| {
            b.iter(|| p.eval(&mut model).unwrap())
        });
    }
    g.finish();
}

/// The depth scan (`json::nests_deeper_than`) on about 4 MB of issues: what guarded tool texts
/// before the crate's own reader checked the depth in its reading pass, and the floor issue 26
/// measures that reader against.
fn depth_scan_4mb(c: &mut Criterion) {
    let issue = |k: usize| {
        json!({
            "number": k, "title": format!("Fix \"quoted\" layout {k}"), "state": "open",
            "user": {"login": format!("user{k}"), "id": k, "type": "User"},
            "labels": [{"name": "p1"}, {"name": "renderer"}],
            "html_url": format!("https://github.com/a2ui/a2ui/issues/{k}"),
            "body": "render surface catalog button path token stream layout card ".repeat(3),
        })
    };
    let text = Value::Array((0..10_000).map(issue).collect()).to_string();
    let mut g = c.benchmark_group("depth-scan-4MB");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("nests_deeper_than", |b| {
        b.iter(|| a2ui_catalog_mcp::json::nests_deeper_than(black_box(&text), 128))
    });
    g.finish();
}

/// Reads of a large part of the model: a binding copied out whole, and a transform over a
/// bound argument. Each read is measured for depth first (a host's model may nest deeper than
/// the limit), which is the cost this group shows.
fn read_10k_rows(c: &mut Criterion) {
    let env = Environment::new();
    let rows: Vec<Value> = (0..10_000)
        .map(|k| {
            json!({
                "number": k, "title": format!("Issue {k}"),
                "state": if k % 3 == 0 { "closed" } else { "open" },
                "user": {"login": format!("user{k}"), "id": k},
                "labels": [{"name": "p1"}, {"name": "renderer"}],
            })
        })
        .collect();
    let mut model = json!({"rows": rows});
    let mut g = c.benchmark_group("read-10k-rows");
    let cases = [
        ("binding", json!({"@path": "/rows"})),
        (
            "transform",
            json!({"@call": "transformData", "args": {"jmespath": "[?state == 'open'].number", "data": {"@path": "/rows"}}}),
        ),
    ];
    for (name, payload) in cases {
        let payload = env.compile(&payload).unwrap();
        g.bench_function(name, |b| b.iter(|| payload.eval(&mut model).unwrap()));
    }
    g.finish();
}

criterion_group!(
    benches,
    compile_vs_eval,
    update_1000_paths,
    split_1mb,
    depth_scan_4mb,
    read_10k_rows
);
criterion_main!(benches);
