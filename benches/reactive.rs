//! Which keys a change affects (src/reactive): the path index against a scan of every
//! registered path, the algorithm of the JavaScript reference renderer (`benches/node/
//! reactive_anchor.js` runs that algorithm in Node on the same data).
//!
//! Workload: N keys, one per row on `/rows/i/name`, plus 100 keys on `/rows`, 100 on `/` and
//! 100 on unrelated paths; one change at `/rows/{N/2}/name` (201 keys affected).
//!
//! `cargo bench --bench reactive -- --warm-up-time 1 --measurement-time 3`

use a2ui_catalog_mcp::JsonPointer;
use a2ui_catalog_mcp::reactive::{ChangeSet, PathIndex};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::collections::{HashMap, HashSet};
use std::hint::black_box;

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

criterion_group!(benches, affected, register);
criterion_main!(benches);
