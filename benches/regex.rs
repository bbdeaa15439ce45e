//! Regex dialect benchmarks: validation + compilation per pattern, and capture over 10 000
//! records through `Pattern::captures` against calling the `regex` crate directly.

use a2ui_catalog_mcp::regex::Pattern;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const GUIDE: &str = "^Title: (.*)\nURL: (.*)";

/// Patterns the reference safety check accepts (`docs/regex-dialect.md`, "The safety check").
const SAFE: &[&str] = &[
    "^[a-z]+$",
    "^[a-zA-Z0-9_-]{3,16}$",
    "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9-]+\\.[a-zA-Z]{2,}$",
    "^https?://[^\\s/$.?#].[^\\s]*$",
    "^\\+?[1-9]\\d{1,14}$",
    "^\\d{4}-\\d{2}-\\d{2}$",
    "^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$",
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    "^(\\d{1,3}\\.){3}\\d{1,3}$",
    "^\\$\\d+(\\.\\d{2})?$",
];

fn records() -> Vec<String> {
    (0..10_000)
        .map(|i| {
            if i % 10 == 9 {
                format!("no title here, record {i}\nsome body")
            } else {
                format!("Title: Document {i} — ébauche\nURL: https://a2ui.org/docs/{i}\nContent: Agent to UI #{i}")
            }
        })
        .collect()
}

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate_compile");
    group.bench_function("guide", |b| {
        b.iter(|| Pattern::new(black_box(GUIDE)).unwrap())
    });
    group.bench_function("reference_safe_patterns", |b| {
        b.iter(|| {
            for p in SAFE {
                black_box(Pattern::new(black_box(p)).unwrap());
            }
        })
    });
    group.finish();
}

fn capture(c: &mut Criterion) {
    let data = records();
    let ours = Pattern::new(GUIDE).unwrap();
    // The regex crate directly: for these records its `.` means what JavaScript's does.
    let direct = regex::Regex::new(GUIDE).unwrap();
    let mut group = c.benchmark_group("capture_10k_records");
    group.bench_function("dialect", |b| {
        b.iter(|| {
            let mut matched = 0usize;
            for r in &data {
                if let Some(groups) = ours.captures(black_box(r)) {
                    matched += groups.len();
                }
            }
            matched
        })
    });
    group.bench_function("regex_crate_direct", |b| {
        b.iter(|| {
            let mut matched = 0usize;
            for r in &data {
                if let Some(caps) = direct.captures(black_box(r)) {
                    let groups: Vec<&str> = (1..caps.len())
                        .map(|i| caps.get(i).map_or("", |m| m.as_str()))
                        .collect();
                    matched += groups.len();
                }
            }
            matched
        })
    });
    group.finish();
}

criterion_group!(benches, compile, capture);
criterion_main!(benches);
