//! The guide's filter over generated issues: the crate's engine against the `jmespath` crate
//! (which converts its input to its own type first), plus parse-only.
//!
//! `cargo bench --bench jmespath -- --warm-up-time 1 --measurement-time 3`
//!
//! Both engines' results are built of many small blocks, so the allocator is a large part of
//! both measurements: glibc's `malloc` and `free` are about 60% of the instructions of our search
//! and of dropping its result. With `--features bench-mimalloc` the whole benchmark runs on
//! mimalloc, the allocator the CLI links, and the groups are named `jmespath_filter_mimalloc`
//! and `jmespath_parse_mimalloc`.

use a2ui_catalog_mcp::jmespath::Expression;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

#[cfg(feature = "bench-mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Suffix of the group names: which allocator the numbers are for.
const ALLOCATOR_NAME: &str = if cfg!(feature = "bench-mimalloc") {
    "_mimalloc"
} else {
    ""
};

const FILTER: &str =
    "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}";

/// A tool result like the guide's GitHub example, `{"json": [issue, ...]}`, two thirds open.
/// Each issue has the fields the guide names (number, title, state, labels, user, body), shaped
/// as GitHub's REST API returns them (label and user objects with their usual members, a body of
/// a few hundred bytes): about 2.3 KB of JSON per issue.
fn issues(n: usize) -> Value {
    let names = [
        "bug",
        "enhancement",
        "documentation",
        "good first issue",
        "wontfix",
    ];
    let items: Vec<Value> = (0..n)
        .map(|i| {
            let login = format!("user{}", i % 53);
            let user_id = 1000 + i % 53;
            json!({
                "number": i + 1,
                "title": format!("Renderer drops row {} when the list scrolls fast", i % 97),
                "state": if i % 3 == 2 { "closed" } else { "open" },
                "labels": (0..i % 4)
                    .map(|l| {
                        let name = names[(i + l) % names.len()];
                        json!({
                            "id": 208045946 + l,
                            "node_id": format!("MDU6TGFiZWwyMDgwNDU5NDY{l}"),
                            "url": format!("https://api.github.com/repos/acme/ui/labels/{name}"),
                            "name": name,
                            "description": format!("Issues labelled {name}"),
                            "color": "d73a4a",
                            "default": l == 0
                        })
                    })
                    .collect::<Vec<_>>(),
                "user": {
                    "login": login,
                    "id": user_id,
                    "node_id": format!("MDQ6VXNlcj{user_id}"),
                    "avatar_url": format!("https://avatars.githubusercontent.com/u/{user_id}?v=4"),
                    "gravatar_id": "",
                    "url": format!("https://api.github.com/users/{login}"),
                    "html_url": format!("https://github.com/{login}"),
                    "followers_url": format!("https://api.github.com/users/{login}/followers"),
                    "repos_url": format!("https://api.github.com/users/{login}/repos"),
                    "type": "User",
                    "site_admin": false
                },
                "body": format!(
                    "### Steps to reproduce\n\n1. Open the list with {} rows.\n2. Scroll to row {} \
                     quickly and release.\n\n### Expected\n\nThe row stays visible.\n\n\
                     ### Actual\n\nThe row disappears until the next render; seen on build {} \
                     with the default renderer and on build {} with the compact one. Logs show \
                     no error. Happens on every scroll faster than about two screens a second.",
                    100 + i % 900,
                    i % 50,
                    i * 7,
                    i * 7 + 1
                ),
            })
        })
        .collect();
    json!({ "json": items })
}

/// `FILTER` written out by hand.
fn handwritten(data: &Value) -> Value {
    let mut issues = Vec::new();
    for issue in data["json"].as_array().into_iter().flatten() {
        if issue.get("state").and_then(Value::as_str) == Some("open") {
            let mut out = serde_json::Map::with_capacity(2);
            let number = match issue.get("number") {
                Some(Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            out.insert("number".to_string(), Value::String(number));
            out.insert(
                "title".to_string(),
                issue.get("title").cloned().unwrap_or(Value::Null),
            );
            issues.push(Value::Object(out));
        }
    }
    result(issues)
}

/// The number (as text) and title of each open issue.
fn output_rows(data: &Value) -> Vec<(String, String)> {
    data["json"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|issue| issue["state"] == "open")
        .map(|issue| {
            (
                issue["number"].to_string(),
                issue["title"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The member `name` of `issue`, found as the engine finds it in a small object: by comparing
/// names in order.
fn member<'a>(issue: &'a Value, name: &str) -> Option<&'a Value> {
    let found = issue.as_object()?.iter().find(|(k, _)| k.as_str() == name);
    found.map(|(_, v)| v)
}

/// The output's record of `number` and `title`, copied from a two-key template as the engine
/// copies it.
fn record(template: &serde_json::Map<String, Value>, values: [Value; 2]) -> Value {
    let mut object = serde_json::Map::with_capacity(2);
    object.clone_from(template);
    for (slot, value) in object.values_mut().zip(values) {
        *slot = value;
    }
    Value::Object(object)
}

/// The template [`record`] copies.
fn record_template() -> serde_json::Map<String, Value> {
    let mut template = serde_json::Map::new();
    template.insert("number".to_owned(), Value::Null);
    template.insert("title".to_owned(), Value::Null);
    template
}

/// `FILTER`'s result: the records under `/issues`.
fn result(issues: Vec<Value>) -> Value {
    let mut result = serde_json::Map::with_capacity(1);
    result.insert("/issues".to_owned(), Value::Array(issues));
    Value::Object(result)
}

/// What the filter reads of the input and nothing else: each issue's `state` found by its name
/// and compared, and for an open one its `number` and `title` found; no output. Members are
/// found as the engine finds them in a small object, by comparing names in order. With
/// `output_only`, the floor of this search over `serde_json` input.
fn reads_only(data: &Value) -> usize {
    let mut read = 0;
    for issue in data["json"].as_array().into_iter().flatten() {
        if member(issue, "state").and_then(Value::as_str) == Some("open") {
            read += usize::from(black_box(member(issue, "number")).is_some());
            read += usize::from(black_box(member(issue, "title")).is_some());
        }
    }
    read
}

/// `FILTER` by hand at its best over `serde_json`, the floor of any engine that reads this input
/// and builds this output: one pass, members found by comparing names in order (as
/// `reads_only`), each record copied from a two-key template (as `output_only`), no expression.
fn fused(data: &Value) -> Value {
    let template = record_template();
    let all = data["json"].as_array().map_or(&[][..], Vec::as_slice);
    let mut issues = Vec::with_capacity(all.len());
    for issue in all {
        if member(issue, "state").and_then(Value::as_str) != Some("open") {
            continue;
        }
        let number = match member(issue, "number") {
            Some(Value::Number(n)) => Value::String(n.to_string()),
            _ => Value::Null,
        };
        let title = member(issue, "title").cloned().unwrap_or(Value::Null);
        issues.push(record(&template, [number, title]));
    }
    result(issues)
}

/// `FILTER`'s result built from `output_rows`.
fn build_output(rows: &[(String, String)]) -> Value {
    let template = record_template();
    let mut issues = Vec::with_capacity(rows.len());
    for (number, title) in rows {
        let mut object = serde_json::Map::with_capacity(2);
        object.clone_from(&template);
        for (slot, text) in object.values_mut().zip([number, title]) {
            *slot = Value::String(text.as_str().to_owned());
        }
        issues.push(Value::Object(object));
    }
    result(issues)
}

fn filter(c: &mut Criterion) {
    let ours = Expression::compile(FILTER).expect("valid expression");
    let theirs = jmespath::compile(FILTER).expect("valid expression");
    let mut group = c.benchmark_group(format!("jmespath_filter{ALLOCATOR_NAME}"));
    for n in [1_000usize, 10_000] {
        let data = issues(n);
        let expected = ours.search(&data).expect("search");
        assert_eq!(
            expected["/issues"].as_array().map(Vec::len),
            Some(n - n / 3)
        );
        group.bench_with_input(BenchmarkId::new("ours", n), &data, |b, data| {
            b.iter(|| ours.search(black_box(data)).expect("search"))
        });
        // The floor for this output: the same result built by a hand-written loop over
        // `serde_json` (no expression), to show how much of the time is the engine's.
        group.bench_with_input(BenchmarkId::new("handwritten_loop", n), &data, |b, data| {
            b.iter(|| handwritten(black_box(data)))
        });
        assert_eq!(handwritten(&data), expected);
        group.bench_with_input(BenchmarkId::new("fused_floor", n), &data, |b, data| {
            b.iter(|| fused(black_box(data)))
        });
        assert_eq!(fused(&data), expected);
        // Only the output: the same objects built from strings extracted beforehand, by
        // copying a two-key template as the engine does, with no input read and no expression. What is left of
        // the engine's time once this is subtracted is the search itself.
        let rows = output_rows(&data);
        group.bench_with_input(BenchmarkId::new("output_only", n), &rows, |b, rows| {
            b.iter(|| build_output(black_box(rows)))
        });
        assert_eq!(build_output(&rows), expected);
        group.bench_with_input(BenchmarkId::new("reads_only", n), &data, |b, data| {
            b.iter(|| reads_only(black_box(data)))
        });
        assert_eq!(reads_only(&data), 2 * rows.len());
        group.bench_with_input(BenchmarkId::new("jmespath_crate", n), &data, |b, data| {
            b.iter(|| theirs.search(black_box(data)).expect("search"))
        });
    }
    group.finish();
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("jmespath_parse{ALLOCATOR_NAME}"));
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
