use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;
fn issues(n: usize) -> Value {
    let labels = ["bug", "enhancement", "docs", "good first issue", "wontfix"];
    let items: Vec<Value> = (0..n).map(|i| json!({
        "number": i + 1,
        "title": format!("Issue {} : renderer drops the {}th row when scrolling", i + 1, i % 97),
        "state": if i % 3 == 2 { "closed" } else { "open" },
        "labels": (0..i % 4).map(|l| json!({"name": labels[(i + l) % labels.len()], "color": "d73a4a"})).collect::<Vec<_>>(),
        "user": {"login": format!("user{}", i % 53), "id": 1000 + i % 53, "site_admin": false},
        "body": format!("Steps to reproduce: open the list, scroll to row {} and release. Expected the row to stay; it disappears. Seen on build {}.", i % 50, i * 7),
        "comments": i % 11,
    })).collect();
    json!({ "json": items })
}
fn b(c: &mut Criterion) {
    let data = issues(1000);
    let arr = data["json"].as_array().unwrap();
    c.bench_function("get_state", |b| b.iter(|| {
        let mut n = 0; for it in black_box(arr) { if it.as_object().unwrap().get("state").and_then(|v| v.as_str()) == Some("open") { n += 1 } } n }));
    c.bench_function("scan_state", |b| b.iter(|| {
        let mut n = 0; for it in black_box(arr) { if it.as_object().unwrap().iter().find(|(k,_)| k.as_str()=="state").and_then(|(_,v)| v.as_str()) == Some("open") { n += 1 } } n }));
    c.bench_function("build_out", |b| b.iter(|| {
        let mut out = Vec::new();
        for it in black_box(arr) { let o = it.as_object().unwrap(); if o.get("state").and_then(|v| v.as_str()) == Some("open") {
            let mut m = serde_json::Map::with_capacity(2);
            m.insert("number".to_string(), Value::String(o.get("number").unwrap().to_string()));
            m.insert("title".to_string(), o.get("title").unwrap().clone());
            out.push(Value::Object(m));
        } } out }));
    c.bench_function("strings_only", |b| b.iter(|| {
        let mut out = Vec::new();
        for it in black_box(arr) { let o = it.as_object().unwrap(); if o.get("state").and_then(|v| v.as_str()) == Some("open") {
            out.push(("number".to_string(), o.get("number").unwrap().to_string(), "title".to_string(), o.get("title").unwrap().clone()));
        } } out }));
    c.bench_function("maps_only", |b| b.iter(|| {
        let mut out = Vec::new();
        for it in black_box(arr) { let o = it.as_object().unwrap(); if o.get("state").and_then(|v| v.as_str()) == Some("open") {
            let mut m = serde_json::Map::with_capacity(2);
            m.insert(String::new(), Value::Null);
            m.insert(String::new(), Value::Null);
            out.push(Value::Object(m));
        } } out }));
}
criterion_group!(benches, b);
criterion_main!(benches);
