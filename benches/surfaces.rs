//! The message processor with its live resolution (`ProcessorOptions::live`) against the real
//! web renderer core, `@a2ui/web_core`'s v0_9 `MessageProcessor` and its `NodeResolver`
//! (`benches/node/surfaces_web_core/`, run by this bench in the same run when its packages are
//! installed).
//!
//! Stream: `createSurface`, `updateComponents` (a Column with a Text and a List over `/rows`
//! whose row template, a Row, holds two bound Texts), `updateDataModel` of N rows, then one
//! row's edit.
//!
//! - `surfaces-stream/N`: the whole stream on a new processor, each message processed and its
//!   changes taken (the live tree made as the messages arrive: the first resolution);
//! - `surfaces-edit/N`: the one-row edit alone: the `updateDataModel` processed and its changes
//!   taken (one instance, one property);
//! - `surfaces-edit-pending/N`: the same edit while a tap's tool run waits for its answer;
//! - memory per rendered node, counted by the allocator below: the processor after the stream
//!   (data model included, as web_core's heap), and the live tree's share (the same processor
//!   without `live`, subtracted).
//!
//! `cargo bench --bench surfaces -- --warm-up-time 1 --measurement-time 3`

use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use std::alloc::System;
use std::hint::black_box;

/// The system allocator, counting the bytes in use (`stats_alloc`: the counting wrapper is
/// its unsafe code, not ours).
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn in_use() -> isize {
    let stats = ALLOCATOR.stats();
    stats.bytes_allocated as isize - stats.bytes_deallocated as isize
}

const SIZES: [usize; 2] = [1_000, 10_000];

fn stream(n: usize) -> Vec<Value> {
    let rows: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("r{i}"), "n": i}))
        .collect();
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "bench"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["title", "list"]},
            {"id": "title", "component": "Text", "text": "Rows"},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Row", "children": ["name", "count"]},
            {"id": "name", "component": "Text", "text": {"path": "name"}},
            {"id": "count", "component": "Text", "text": {"path": "n"}}
        ]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows", "value": rows}}),
    ]
}

fn edit(n: usize, value: &str) -> Value {
    json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": format!("/rows/{}/name", n / 2), "value": value}})
}

fn options(live: bool) -> ProcessorOptions {
    let mut limits = ResolveLimits::default();
    limits.max_template_items = 100_000;
    let options = ProcessorOptions::default().with_accept_unregistered_catalogs(true);
    if live {
        options.with_live(limits)
    } else {
        options
    }
}

/// A processor after the whole stream, each message's changes taken.
fn run(messages: &[Value], live: bool) -> Processor {
    let mut p = Processor::new(options(live));
    for m in messages {
        p.process(m).expect("the stream applies");
        black_box(p.take_changes());
    }
    p
}

fn nodes(p: &Processor) -> usize {
    p.surface("s").unwrap().live().unwrap().len()
}

/// Bytes the processor holds after the stream (and its edit).
fn bytes(messages: &[Value], live: bool) -> (usize, Option<usize>) {
    let before = in_use();
    let p = run(messages, live);
    let used = (in_use() - before) as usize;
    let count = live.then(|| nodes(&p));
    drop(p);
    (used, count)
}

fn web_core() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/node/surfaces_web_core"
    );
    if !std::path::Path::new(dir).join("node_modules").exists() {
        println!("web_core: not run (cd {dir} && npm install)");
        return;
    }
    let sizes: Vec<String> = SIZES.iter().map(|n| n.to_string()).collect();
    match std::process::Command::new("node")
        .arg("--expose-gc")
        .arg("bench.mjs")
        .args(&sizes)
        .current_dir(dir)
        .output()
    {
        Ok(out) => {
            print!("{}", String::from_utf8_lossy(&out.stdout));
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
        Err(e) => println!("web_core: node did not run: {e}"),
    }
}

fn surfaces(c: &mut Criterion) {
    web_core();
    for n in SIZES {
        let mut messages = stream(n);
        messages.push(edit(n, "x"));
        // Check what is timed: every row made, the edit reported on its node alone.
        let mut p = run(&messages[..3], true);
        assert_eq!(nodes(&p), 3 + 3 * n);
        p.process(&edit(n, "x")).unwrap();
        let changes = p.take_changes();
        assert_eq!(changes.surfaces["s"].updated.len(), 1);
        assert_eq!(changes.surfaces["s"].updated[0].1, ["text"]);
        let (live_bytes, count) = bytes(&messages, true);
        let (plain_bytes, _) = bytes(&messages, false);
        let count = count.unwrap();
        println!(
            "surfaces n={n}: {:.0} bytes per rendered node (processor and data model, {count} nodes), {:.0} of them the live tree",
            live_bytes as f64 / count as f64,
            (live_bytes as f64 - plain_bytes as f64) / count as f64
        );
    }
    let mut group = c.benchmark_group("surfaces-stream");
    for n in SIZES {
        let mut messages = stream(n);
        messages.push(edit(n, "x"));
        group.bench_with_input(BenchmarkId::from_parameter(n), &messages, |b, m| {
            b.iter_with_large_drop(|| run(m, true))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("surfaces-edit");
    for n in SIZES {
        let mut p = run(&stream(n), true);
        let edits = [edit(n, "x"), edit(n, "y")];
        let mut turn = 0;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_batched(
                || {
                    turn += 1;
                    &edits[turn % 2]
                },
                |m| {
                    p.process(m).unwrap();
                    black_box(p.take_changes())
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
    // The same edit while a tap's tool run waits for its answer (a Button outside the tree
    // whose action calls a tool, activated once): the processor must cost what it costs with
    // nothing pending.
    let mut group = c.benchmark_group("surfaces-edit-pending");
    for n in SIZES {
        let mut p = run(&stream(n), true);
        p.process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "fetch", "component": "Button", "child": "title", "action": {"functionCall":
                {"call": "callMcpTool", "catalogId": a2ui_catalog_mcp::MCP_CATALOG_ID,
                 "args": {"name": "list_issues", "targetDataPath": "/issues"}}}}]}}),
        )
        .unwrap();
        let tap = p
            .activate("s", "fetch", &a2ui_catalog_mcp::JsonPointer::root(), "t")
            .unwrap();
        assert!(tap.run.is_some() && p.pending_tool_runs() == 1);
        black_box(p.take_changes());
        let edits = [edit(n, "x"), edit(n, "y")];
        let mut turn = 0;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_batched(
                || {
                    turn += 1;
                    &edits[turn % 2]
                },
                |m| {
                    p.process(m).unwrap();
                    black_box(p.take_changes())
                },
                BatchSize::SmallInput,
            )
        });
        assert_eq!(p.pending_tool_runs(), 1);
    }
    group.finish();
}

criterion_group!(benches, surfaces);
criterion_main!(benches);
