//! Which keys a change affects (src/reactive): the path index against a scan of every
//! registered path, the algorithm of the JavaScript reference renderer (`benches/node/
//! reactive_anchor.js` runs that algorithm in Node on the same data).
//!
//! Workload: N keys, one per row on `/rows/i/name`, plus 100 keys on `/rows`, 100 on `/` and
//! 100 on unrelated paths; one change at `/rows/{N/2}/name` (201 keys affected).
//!
//! What a renderer pays on that workload (`reactive-refresh`): `TrackedModel::set` and
//! `Bindings::refresh` end to end, one write at `/rows/{N/2}/name` and one at `/rows` (the list
//! replaced), against the real web renderer core in Node, same workload and bindings made as its
//! renderer makes them (`benches/node/reactive_web_core/`, run it in the same session). Memory
//! per registered key is counted by the allocator below and printed.
//!
//! And the recompute after one keystroke in the search surface of `examples/tui` with 1 000
//! result rows bound (two fields each): `Bindings::refresh`, which evaluates only the keys that
//! read `/query`, against evaluating every bound key and comparing it with its last value.
//!
//! `cargo bench --bench reactive -- --warm-up-time 1 --measurement-time 3`

use a2ui_catalog_mcp::reactive::{Bindings, ChangeSet, PathIndex, TrackedModel, json_eq};
use a2ui_catalog_mcp::{Environment, JsonPointer, Payload};
use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use std::alloc::System;
use std::collections::{HashMap, HashSet};
use std::hint::black_box;
use std::sync::Arc;

/// The system allocator, counting the bytes in use, to measure memory per registered key
/// (`stats_alloc`: the counting wrapper is its unsafe code, not ours).
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes in use now, as the allocator counts them (a reallocation's growth or shrinkage is
/// already in `bytes_allocated` / `bytes_deallocated`).
fn in_use() -> isize {
    let stats = ALLOCATOR.stats();
    stats.bytes_allocated as isize - stats.bytes_deallocated as isize
}

/// The registrations of the workload: `(key, path)`.
fn workload(n: usize) -> Vec<(u32, String)> {
    let mut keys = Vec::with_capacity(n + 300);
    for i in 0..n {
        keys.push((i as u32, format!("/rows/{i}/name")));
    }
    let n = n as u32;
    for k in 0..100 {
        keys.push((n + k, "/rows".to_string()));
        keys.push((n + 100 + k, "/".to_string()));
        keys.push((n + 200 + k, format!("/settings/{k}/value")));
    }
    keys
}

/// The reference renderer's algorithm, in Rust: subscribers by exact path string; a write
/// notifies the exact path, each ancestor, and every registered path found under it by a scan.
struct Scan {
    by_path: HashMap<String, Vec<u32>>,
}

impl Scan {
    fn new(keys: &[(u32, String)]) -> Scan {
        let mut by_path: HashMap<String, Vec<u32>> = HashMap::new();
        for (key, path) in keys {
            by_path.entry(path.clone()).or_default().push(*key);
        }
        Scan { by_path }
    }

    fn affected(&self, change: &str) -> HashSet<u32> {
        let mut out = HashSet::new();
        let mut add = |path: &str| {
            if let Some(keys) = self.by_path.get(path) {
                out.extend(keys.iter().copied());
            }
        };
        add(change);
        let mut p = change;
        while p != "/" {
            p = match p.rfind('/') {
                Some(0) | None => "/",
                Some(i) => &p[..i],
            };
            add(p);
        }
        let prefix = if change == "/" {
            "/".to_string()
        } else {
            format!("{change}/")
        };
        for (path, keys) in &self.by_path {
            if path.starts_with(&prefix) {
                out.extend(keys.iter().copied());
            }
        }
        out
    }
}

fn affected(c: &mut Criterion) {
    let mut g = c.benchmark_group("reactive-affected");
    for n in [1_000usize, 10_000, 100_000] {
        let keys = workload(n);
        let mut index = PathIndex::new();
        for (key, path) in &keys {
            index.register(*key, [JsonPointer::parse(path).unwrap()]);
        }
        let change = format!("/rows/{}/name", n / 2);
        let changes: ChangeSet = [JsonPointer::parse(&change).unwrap()].into_iter().collect();
        assert_eq!(index.affected(&changes).len(), 201);
        g.bench_with_input(BenchmarkId::new("index", n), &n, |b, _| {
            b.iter(|| index.affected(black_box(&changes)))
        });
        let scan = Scan::new(&keys);
        assert_eq!(scan.affected(&change).len(), 201);
        g.bench_with_input(BenchmarkId::new("scan-baseline", n), &n, |b, _| {
            b.iter(|| scan.affected(black_box(&change)))
        });
    }
    g.finish();
}

fn register(c: &mut Criterion) {
    let mut g = c.benchmark_group("reactive-register");
    g.sample_size(10);
    let n = 10_000;
    let keys: Vec<(u32, JsonPointer)> = workload(n)
        .into_iter()
        .map(|(k, p)| (k, JsonPointer::parse(&p).unwrap()))
        .collect();
    g.bench_function(BenchmarkId::new("register-all", n), |b| {
        b.iter(|| {
            let mut index = PathIndex::new();
            for (key, path) in &keys {
                index.register(*key, std::slice::from_ref(path));
            }
            index
        })
    });
    g.finish();
}

/// The surface of `examples/tui`, its list filled with `rows` results: every property and every
/// template field of every row, as `(key, payload, context)`, and the data model.
fn tui_surface(rows: usize) -> (Vec<(String, Arc<Payload>, JsonPointer)>, Value) {
    let surface: Value =
        serde_json::from_str(include_str!("../examples/tui/surface.json")).unwrap();
    let env = Environment::new();
    let mut model = surface["dataModel"].clone();
    model["results"] = (0..rows)
        .map(|i| json!({"title": format!("Result {i}"), "url": format!("https://example.com/{i}")}))
        .collect();
    let mut keys = Vec::new();
    for component in surface["components"].as_array().unwrap() {
        let id = component["id"].as_str().unwrap();
        for property in ["text", "label", "value", "title", "pending", "items"] {
            if let Some(value) = component.get(property) {
                let payload = Arc::new(env.compile(value).unwrap());
                // A value that needs a tool call is not evaluated synchronously.
                if !payload.calls_tools() {
                    keys.push((format!("{id}.{property}"), payload, JsonPointer::root()));
                }
            }
        }
        if let Some(Value::Object(template)) = component.get("template") {
            for (field, payload) in template {
                let payload = Arc::new(env.compile(payload).unwrap());
                for row in 0..rows {
                    let context = JsonPointer::parse(&format!("/results/{row}")).unwrap();
                    keys.push((format!("{id}[{row}].{field}"), payload.clone(), context));
                }
            }
        }
    }
    (keys, model)
}

fn keystroke(c: &mut Criterion) {
    let mut g = c.benchmark_group("reactive-keystroke");
    let rows = 1_000;
    let (keys, data) = tui_surface(rows);
    let query = JsonPointer::parse("/query").unwrap();
    let texts = [json!("rust"), json!("rusty")];

    let mut model = TrackedModel::new(data.clone());
    let mut bindings = Bindings::new();
    for (key, payload, context) in &keys {
        bindings
            .register(key.clone(), payload.clone(), context.clone())
            .unwrap();
    }
    assert_eq!(bindings.refresh(&mut model).len(), keys.len());
    let mut turn = 0;
    let before = bindings.recomputed();
    model.set(&query, texts[0].clone()).unwrap();
    let changed = bindings.refresh(&mut model);
    // The field's value and the hint: two values refreshed (one evaluated, one a bare binding
    // read in place), two redraws, of 2 000+ keys.
    assert_eq!(
        (bindings.recomputed() - before, changed.len()),
        (2, 2),
        "{} keys",
        keys.len()
    );
    g.bench_function(BenchmarkId::new("only-affected", rows), |b| {
        b.iter(|| {
            turn += 1;
            model.set(&query, texts[turn % 2].clone()).unwrap();
            black_box(bindings.refresh(&mut model))
        })
    });

    // Every key evaluated again and compared with its last value, as without an index.
    let mut model = TrackedModel::new(data);
    let mut last: Vec<Value> = keys
        .iter()
        .map(|(_, p, c)| p.eval_read(model.get(), c).unwrap())
        .collect();
    g.bench_function(BenchmarkId::new("every-key-baseline", rows), |b| {
        b.iter(|| {
            turn += 1;
            model.set(&query, texts[turn % 2].clone()).unwrap();
            model.take_changes();
            let mut changed = 0;
            for ((_, payload, context), last) in keys.iter().zip(last.iter_mut()) {
                let value = payload.eval_read(model.get(), context).unwrap();
                if !json_eq(&value, last) {
                    *last = value;
                    changed += 1;
                }
            }
            black_box(changed)
        })
    });
    g.finish();
}

/// The data model of the workload: N rows with a name (`pad` bytes of it), 100 settings.
fn refresh_model(n: usize, tag: &str, pad: usize) -> Value {
    let rows: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("{tag}{i}{}", "x".repeat(pad))}))
        .collect();
    let settings: Vec<Value> = (0..100).map(|k| json!({"value": k})).collect();
    json!({"rows": rows, "settings": settings})
}

/// The workload's bindings, as a renderer makes them: one compiled `{"@path": "name"}` for every
/// row (in the row's context), and each of the other 300 keys compiled on its own.
/// With `template`, the rows are one template registration (`Bindings::register_template`,
/// key `u32::MAX`) instead of N keys.
fn refresh_bindings(n: usize, template: bool) -> Bindings<u32> {
    let env = Environment::new();
    let name = Arc::new(env.compile(&json!({"@path": "name"})).unwrap());
    let mut bindings = Bindings::new();
    if template {
        let rows = JsonPointer::parse("/rows").unwrap();
        bindings
            .register_template(u32::MAX, rows, name, JsonPointer::root())
            .unwrap();
    } else {
        for i in 0..n {
            let row = JsonPointer::parse(&format!("/rows/{i}")).unwrap();
            bindings.register(i as u32, name.clone(), row).unwrap();
        }
    }
    let n = n as u32;
    for k in 0..100u32 {
        let at = |path: String| Arc::new(env.compile(&json!({ "@path": path })).unwrap());
        let root = JsonPointer::root();
        bindings
            .register(n + k, at("/rows".into()), root.clone())
            .unwrap();
        bindings
            .register(n + 100 + k, at("/".into()), root.clone())
            .unwrap();
        bindings
            .register(n + 200 + k, at(format!("/settings/{k}/value")), root)
            .unwrap();
    }
    bindings
}

/// Bytes the bindings hold per registered key, after the first refresh: the model is built
/// first and not counted.
fn bytes_per_key(n: usize, pad: usize) -> f64 {
    let mut model = TrackedModel::new(refresh_model(n, "r", pad));
    let before = in_use();
    let mut bindings = refresh_bindings(n, false);
    let first = bindings.refresh(&mut model);
    drop(first);
    let after = in_use();
    let keys = bindings.len();
    drop(bindings);
    (after - before).max(0) as f64 / keys as f64
}

fn refresh(c: &mut Criterion) {
    let mut g = c.benchmark_group("reactive-refresh");
    for n in [1_000usize, 10_000, 100_000] {
        eprintln!(
            "reactive-refresh n={n}: {:.0} bytes per key (names of 8 bytes), {:.0} (names of 1 KB)",
            bytes_per_key(n, 0),
            bytes_per_key(n.min(10_000), 1_024)
        );
        let mut model = TrackedModel::new(refresh_model(n, "r", 0));
        let mut bindings = refresh_bindings(n, false);
        assert_eq!(bindings.refresh(&mut model).len(), n + 300);
        let row = JsonPointer::parse(&format!("/rows/{}/name", n / 2)).unwrap();
        model.set(&row, json!("x")).unwrap();
        assert_eq!(bindings.refresh(&mut model).len(), 201);
        let texts = [json!("x"), json!("y")];
        let mut turn = 0;
        g.bench_with_input(BenchmarkId::new("set-row+refresh", n), &n, |b, _| {
            b.iter(|| {
                turn += 1;
                model.set(&row, texts[turn % 2].clone()).unwrap();
                black_box(bindings.refresh(&mut model))
            })
        });
        let rows = JsonPointer::parse("/rows").unwrap();
        let lists = [
            refresh_model(n, "a", 0)["rows"].take(),
            refresh_model(n, "b", 0)["rows"].take(),
        ];
        model.set(&rows, lists[0].clone()).unwrap();
        assert_eq!(bindings.refresh(&mut model).len(), n + 200);
        // The new list is built outside the timing (web_core is handed one too); dropping the
        // old one, and the changes reported, are timed.
        g.bench_with_input(BenchmarkId::new("set-rows+refresh", n), &n, |b, _| {
            b.iter_batched(
                || {
                    turn += 1;
                    lists[turn % 2].clone()
                },
                |list| {
                    model.set(&rows, list).unwrap();
                    bindings.refresh(&mut model)
                },
                BatchSize::LargeInput,
            )
        });

        // The rows as one template: one registration, one change listing the rows.
        let mut model = TrackedModel::new(refresh_model(n, "r", 0));
        let mut bindings = refresh_bindings(n, true);
        assert_eq!(bindings.refresh(&mut model).len(), 301);
        model.set(&row, json!("x")).unwrap();
        let changed = bindings.refresh(&mut model);
        assert_eq!(changed.len(), 201);
        let rows_changed = changed.iter().find_map(|c| c.rows.as_ref()).unwrap();
        assert_eq!(rows_changed.changed, [n / 2]);
        g.bench_with_input(
            BenchmarkId::new("template:set-row+refresh", n),
            &n,
            |b, _| {
                b.iter(|| {
                    turn += 1;
                    model.set(&row, texts[turn % 2].clone()).unwrap();
                    black_box(bindings.refresh(&mut model))
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, refresh, affected, register, keystroke);
criterion_main!(benches);
