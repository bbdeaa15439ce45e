//! The guide's filter over generated issues: the crate's engine against the `jmespath` crate
//! (which converts its input to its own type first), plus parse-only.
//!
//! `cargo bench --bench jmespath -- --warm-up-time 1 --measurement-time 3`

use a2ui_catalog_mcp::jmespath::Expression;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

const FILTER: &str =
    "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}";

/// A tool result like the guide's GitHub example: `{"json": [issue, ...]}`, two thirds open.
fn issues(n: usize) -> Value {
    let labels = ["bug", "enhancement", "docs", "good first issue", "wontfix"];
    let items: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "number": i + 1,
                "title": format!("Issue {} : renderer drops the {}th row when scrolling", i + 1, i % 97),
                "state": if i % 3 == 2 { "closed" } else { "open" },
                "labels": (0..i % 4)
                    .map(|l| json!({"name": labels[(i + l) % labels.len()], "color": "d73a4a"}))
                    .collect::<Vec<_>>(),
                "user": {"login": format!("user{}", i % 53), "id": 1000 + i % 53, "site_admin": false},
                "body": format!(
                    "Steps to reproduce: open the list, scroll to row {} and release. \
                     Expected the row to stay; it disappears. Seen on build {}.",
                    i % 50,
                    i * 7
                ),
                "comments": i % 11,
            })
        })
        .collect();
    json!({ "json": items })
}

fn filter(c: &mut Criterion) {
    let ours = Expression::compile(FILTER).expect("valid expression");
    let theirs = jmespath::compile(FILTER).expect("valid expression");
    let mut group = c.benchmark_group("jmespath_filter");
    for n in [1_000usize, 10_000] {
        let data = issues(n);
        let expected = ours.search(&data).expect("search");
        assert_eq!(expected["/issues"].as_array().map(Vec::len), Some(n - n / 3));
        group.bench_with_input(BenchmarkId::new("ours", n), &data, |b, data| {
            b.iter(|| ours.search(black_box(data)).expect("search"))
        });
        group.bench_with_input(BenchmarkId::new("jmespath_crate", n), &data, |b, data| {
            b.iter(|| theirs.search(black_box(data)).expect("search"))
        });
    }
    group.finish();
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("jmespath_parse");
    group.bench_function("ours", |b| {
        b.iter(|| Expression::compile(black_box(FILTER)).expect("valid"))
    });
    group.bench_function("jmespath_crate", |b| {
        b.iter(|| jmespath::compile(black_box(FILTER)).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, filter, parse);
criterion_main!(benches);
