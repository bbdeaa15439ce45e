//! The MCP catalog's conformance fixtures (`spec-fixtures/*.json`) written in the A2UI project's
//! conformance format (`spec-fixtures/conformance/*.yaml`, one file per fixture file), so that
//! an A2UI SDK's existing YAML harness can run them; the format is `docs/conformance.md`.
//!
//! The YAML files are generated from the JSON fixtures by [`to_suite_case`] and committed. The
//! test [`the_yaml_suite_is_generated_from_the_fixtures`] fails when a committed file differs from
//! what the fixtures give (`A2UI_WRITE_CONFORMANCE=1` rewrites them), and
//! [`the_yaml_suite_reads_back_to_the_same_results`] reads every YAML file back through
//! [`from_suite_case`] into fixtures and runs them through the crate: the same cases, equal to the
//! JSON ones, with the same outcomes.

use a2ui_catalog_mcp::fixtures::{FIXTURE_MAX_DEPTH, run_file};
use a2ui_catalog_mcp::reactive::json_eq;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// Case keys renamed between the two formats: (fixture key, suite key). Keys of neither list
/// pass through unchanged, so a fixture key added later survives the round trip.
const CASE_KEYS: &[(&str, &str)] = &[
    ("id", "name"),
    ("contextPath", "scope"),
    ("server", "mcpServer"),
];

/// `expect` members that become keys of their own in the suite's format.
const EXPECT_KEYS: &[(&str, &str)] = &[
    ("dataModel", "expectDataModel"),
    ("messages", "expectMessages"),
    ("toolCalls", "expectToolCalls"),
    ("resourceReads", "expectResourceReads"),
    ("dependencies", "expectDependencies"),
    ("changed", "expectChanged"),
    ("warnings", "expectWarnings"),
];

/// The suite's error categories for the crate's error codes.
const CATEGORIES: &[(&str, &str)] = &[
    ("EXPRESSION_ERROR", "ExpressionError"),
    ("DATA_ERROR", "DataError"),
    ("CATALOG_ERROR", "CatalogError"),
    ("INVALID_RESERVED_KEY", "ValidationError"),
    ("VALIDATION_FAILED", "ValidationError"),
    ("LIMIT_EXCEEDED", "LimitError"),
];

/// The members of a call that `evaluate_function` spells as keys of its own.
const CALL_KEYS: &[&str] = &["@call", "args", "catalogId", "returnType"];

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spec-fixtures")
}

fn suite_dir() -> PathBuf {
    fixtures_dir().join("conformance")
}

/// `spec-fixtures/*.json`, sorted.
fn fixture_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("spec-fixtures/ is readable")
        .map(|e| e.expect("spec-fixtures/ is readable").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a fixture file is readable");
    // Limit cases nest past the engine's default depth, as the fixture runner reads them.
    a2ui_catalog_mcp::json::from_str_limited(&text, FIXTURE_MAX_DEPTH)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rename(
    key: &str,
    table: &[(&'static str, &'static str)],
    forward: bool,
) -> Option<&'static str> {
    table
        .iter()
        .find(|(a, b)| if forward { *a == key } else { *b == key })
        .map(|(a, b)| if forward { *b } else { *a })
}

/// A payload `evaluate_function` can spell: a call in the `@` spelling with nothing else.
fn is_plain_call(payload: &Value) -> bool {
    payload.as_object().is_some_and(|call| {
        call.get("@call").is_some_and(Value::is_string)
            && call.keys().all(|k| CALL_KEYS.contains(&k.as_str()))
    })
}

/// One fixture case in the suite's format.
fn to_suite_case(case: &Value) -> Value {
    let mut out = Map::new();
    let input = case.as_object().expect("a case is an object");
    for (key, value) in input {
        match key.as_str() {
            "payload" if is_plain_call(value) => {
                out.insert("action".into(), json!("evaluate_function"));
                for (member, v) in value.as_object().unwrap() {
                    let name = if member == "@call" {
                        "function"
                    } else {
                        member
                    };
                    out.insert(name.into(), v.clone());
                }
            }
            "payload" => {
                out.insert("action".into(), json!("evaluate_value"));
                out.insert("value".into(), value.clone());
            }
            "expect" => {
                for (member, v) in value.as_object().expect("expect is an object") {
                    match member.as_str() {
                        "value" => {
                            out.insert("expect".into(), v.clone());
                        }
                        "error" => {
                            let mut error = Map::new();
                            if let Some(code) = v.get("code").and_then(Value::as_str) {
                                let category = rename(code, CATEGORIES, true)
                                    .unwrap_or_else(|| panic!("no category for {code}"));
                                error.insert("category".into(), json!(category));
                            }
                            error.extend(v.as_object().unwrap().clone());
                            out.insert("expectError".into(), Value::Object(error));
                        }
                        other => {
                            let name = rename(other, EXPECT_KEYS, true)
                                .unwrap_or_else(|| panic!("no suite key for expect.{other}"));
                            out.insert(name.into(), v.clone());
                        }
                    }
                }
            }
            other => {
                let name = rename(other, CASE_KEYS, true).unwrap_or(other);
                out.insert(name.into(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// The fixture case a suite case was written from.
fn from_suite_case(case: &Value) -> Value {
    let mut out = Map::new();
    let mut expect = Map::new();
    let mut call = Map::new();
    let action = case["action"].as_str().expect("a case has an action");
    for (key, value) in case.as_object().expect("a case is an object") {
        match key.as_str() {
            "action" => {}
            "function" if action == "evaluate_function" => {
                call.insert("@call".into(), value.clone());
            }
            k if action == "evaluate_function" && CALL_KEYS.contains(&k) => {
                call.insert(k.into(), value.clone());
            }
            "value" if action == "evaluate_value" => {
                out.insert("payload".into(), value.clone());
            }
            "expect" => {
                expect.insert("value".into(), value.clone());
            }
            "expectError" => {
                let mut error = value.as_object().expect("expectError is an object").clone();
                error.shift_remove("category");
                expect.insert("error".into(), Value::Object(error));
            }
            k if k.starts_with("expect") => {
                let name = rename(k, EXPECT_KEYS, false)
                    .unwrap_or_else(|| panic!("unknown expectation {k}"));
                expect.insert(name.into(), value.clone());
            }
            other => {
                let name = rename(other, CASE_KEYS, false).unwrap_or(other);
                out.insert(name.into(), value.clone());
            }
        }
    }
    if action == "evaluate_function" {
        out.insert("payload".into(), Value::Object(call));
    }
    out.insert("expect".into(), Value::Object(expect));
    Value::Object(out)
}

/// YAML readers cap nesting (this crate's reader at 128 levels), while the limit cases nest
/// deeper on purpose: a case member nesting deeper than this is written as JSON text under its
/// name with `Json` appended (`valueJson`, `dataModelJson`).
const YAML_DEPTH: usize = 64;

fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 1)];
    while let Some((v, d)) = pending.pop() {
        deepest = deepest.max(d);
        match v {
            Value::Array(items) => pending.extend(items.iter().map(|i| (i, d + 1))),
            Value::Object(members) => pending.extend(members.values().map(|i| (i, d + 1))),
            _ => {}
        }
    }
    deepest
}

fn deep_as_text(case: Map<String, Value>) -> Map<String, Value> {
    case.into_iter()
        .map(|(k, v)| {
            if depth(&v) > YAML_DEPTH {
                (format!("{k}Json"), Value::String(v.to_string()))
            } else {
                (k, v)
            }
        })
        .collect()
}

fn deep_from_text(case: Map<String, Value>) -> Map<String, Value> {
    case.into_iter()
        .map(|(k, v)| match (k.strip_suffix("Json"), &v) {
            (Some(name), Value::String(text)) => (
                name.to_owned(),
                a2ui_catalog_mcp::json::from_str_limited(text, FIXTURE_MAX_DEPTH)
                    .expect("a deep member is JSON text"),
            ),
            _ => (k, v),
        })
        .collect()
}

/// The cases of a fixture file other than `cases`, which have their own action each: the key of
/// the file, the action, and for stream cases the file's catalogs.
const OTHER_CASES: &[(&str, &str)] = &[
    ("regexCases", "regex_dialect"),
    ("affectsCases", "affects"),
    ("streamCases", "check_stream"),
];

/// The name of a case of `OTHER_CASES` that has no `id` in its fixture file (the A2UI format
/// requires a name): `<file stem>/<action>/<n>`, `n` from 0 in the file's order of that action.
fn generated_name(stem: &str, action: &str, n: usize) -> String {
    format!("{stem}/{action}/{n}")
}

/// A fixture file as a suite file: a list of cases. The file's `description` and top-level
/// `catalogs` go on every case (`fileDescription`, `fileCatalogs`), since a suite file is a list.
/// Every case has a `name`: its fixture `id`, or [`generated_name`] for the cases without one.
fn to_suite_file(stem: &str, file: &Value) -> Value {
    let mut cases = Vec::new();
    for (key, value) in file.as_object().expect("a fixture file is an object") {
        match key.as_str() {
            "cases" => cases.extend(value.as_array().unwrap().iter().map(to_suite_case)),
            k => {
                if let Some((_, action)) = OTHER_CASES.iter().find(|(f, _)| *f == k) {
                    for (n, case) in value.as_array().unwrap().iter().enumerate() {
                        let mut case = case.as_object().unwrap().clone();
                        let name = match case.shift_remove("id") {
                            Some(id) => id,
                            None => json!(generated_name(stem, action, n)),
                        };
                        let mut out = Map::new();
                        out.insert("name".into(), name);
                        out.insert("action".into(), json!(action));
                        out.extend(case);
                        cases.push(Value::Object(out));
                    }
                }
            }
        }
    }
    for case in &mut cases {
        *case = Value::Object(deep_as_text(std::mem::take(case.as_object_mut().unwrap())));
        let case = case.as_object_mut().unwrap();
        if let Some(d) = file.get("description") {
            case.insert("fileDescription".into(), d.clone());
        }
        if let Some(c) = file.get("catalogs") {
            case.insert("fileCatalogs".into(), c.clone());
        }
    }
    Value::Array(cases)
}

/// The fixture file a suite file was written from.
fn from_suite_file(stem: &str, suite: &Value) -> Value {
    let mut file = Map::new();
    let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
    for case in suite.as_array().expect("a suite file is a list") {
        let mut case = deep_from_text(case.as_object().unwrap().clone());
        for (key, name) in [
            ("fileDescription", "description"),
            ("fileCatalogs", "catalogs"),
        ] {
            if let Some(v) = case.shift_remove(key) {
                let previous = file.insert(name.into(), v.clone());
                assert!(
                    previous.is_none_or(|p| p == v),
                    "{key} differs between cases"
                );
            }
        }
        let action = case["action"].as_str().unwrap().to_owned();
        let (group, case) = match OTHER_CASES.iter().find(|(_, a)| *a == action) {
            Some((group, _)) => {
                case.shift_remove("action");
                let n = groups
                    .iter()
                    .find(|(g, _)| g == group)
                    .map_or(0, |(_, cases)| cases.len());
                let name = case.shift_remove("name");
                let mut back = Map::new();
                if let Some(name) = name.filter(|n2| n2 != &json!(generated_name(stem, &action, n)))
                {
                    back.insert("id".into(), name);
                }
                back.extend(case);
                (group.to_string(), Value::Object(back))
            }
            None => ("cases".to_owned(), from_suite_case(&Value::Object(case))),
        };
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, cases)) => cases.push(case),
            None => groups.push((group, vec![case])),
        }
    }
    for (group, cases) in groups {
        file.insert(group, Value::Array(cases));
    }
    Value::Object(file)
}

const LICENCE_HEADER: &str = "\
# The MCP catalog's conformance cases in the A2UI conformance format (docs/conformance.md).
# Generated from spec-fixtures/{stem}.json by tests/conformance/mcp_catalog.rs: edit the JSON
# fixtures, then run `A2UI_WRITE_CONFORMANCE=1 cargo test --all-features --test conformance`.
# Licensed under the Apache License, Version 2.0 (the crate's LICENSE).

";

fn yaml_text(stem: &str, file: &Value) -> String {
    let body = serde_yaml_ng::to_string(&to_suite_file(stem, file)).expect("JSON writes as YAML");
    format!("{}{body}", LICENCE_HEADER.replace("{stem}", stem))
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

#[test]
fn the_yaml_suite_is_generated_from_the_fixtures() {
    let write = std::env::var("A2UI_WRITE_CONFORMANCE").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for path in fixture_files() {
        let stem = stem(&path);
        let text = yaml_text(&stem, &read_json(&path));
        let target = suite_dir().join(format!("{stem}.yaml"));
        if write {
            std::fs::create_dir_all(suite_dir()).unwrap();
            std::fs::write(&target, text).unwrap();
        } else if std::fs::read_to_string(&target).ok().as_deref() != Some(text.as_str()) {
            stale.push(target.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these YAML files differ from what spec-fixtures/*.json give: {stale:?}; rewrite them with \
         `A2UI_WRITE_CONFORMANCE=1 cargo test --all-features --test conformance`"
    );
}

#[test]
fn the_yaml_suite_reads_back_to_the_same_results() {
    let files = fixture_files();
    assert!(files.len() >= 15, "{files:?}");
    let mut cases = 0;
    for path in files {
        let stem = stem(&path);
        let target = suite_dir().join(format!("{stem}.yaml"));
        let Ok(text) = std::fs::read_to_string(&target) else {
            panic!("{} is missing", target.display());
        };
        let suite: Value = serde_yaml_ng::from_str(&text).expect("the suite file is YAML");
        let back = from_suite_file(&stem, &suite);
        let original = read_json(&path);
        assert!(
            json_eq(&back, &original),
            "{stem}: the YAML reads back to another fixture file"
        );
        let ours = run_file(&original).expect("the JSON fixtures run");
        let theirs = run_file(&back).expect("the fixtures read from YAML run");
        assert_eq!(ours.len(), theirs.len(), "{stem}");
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a.id, b.id);
            assert!(
                b.passed(),
                "{stem}: {} fails from YAML: {:?}",
                b.id,
                b.failures
            );
            assert_eq!(a.passed(), b.passed(), "{stem}: {}", a.id);
        }
        cases += theirs.len();
    }
    println!("conformance spec-fixtures/conformance: {cases} passed, 0 failed, 0 skipped");
}

/// The suite's own keys where the A2UI format has them: every case has a name and an action,
/// calls are `evaluate_function` with `function` and `args`, errors carry a `category`.
#[test]
fn suite_cases_use_the_a2ui_keys() {
    let file = json!({"description": "d", "cases": [
        {"id": "split/x", "payload": {"@call": "split", "args": {"value": "a,b", "separator": ","}},
         "contextPath": "/rows/1", "expect": {"value": ["a", "b"], "dataModel": {"unchanged": true}}},
        {"id": "grammar/y", "payload": {"@path": "/a"},
         "expect": {"error": {"code": "EXPRESSION_ERROR", "messageContains": "m"}}}
    ]});
    let suite = to_suite_file("t", &file);
    assert_eq!(
        suite[0],
        json!({"name": "split/x", "action": "evaluate_function", "function": "split",
               "args": {"value": "a,b", "separator": ","}, "scope": "/rows/1",
               "expect": ["a", "b"], "expectDataModel": {"unchanged": true},
               "fileDescription": "d"})
    );
    assert_eq!(suite[1]["action"], "evaluate_value");
    assert_eq!(
        suite[1]["expectError"],
        json!({"category": "ExpressionError", "code": "EXPRESSION_ERROR", "messageContains": "m"})
    );
    assert!(json_eq(&from_suite_file("t", &suite), &file));
}

/// The A2UI format requires a name for every case: the fixture cases of their own action
/// without an `id` (`affectsCases`, `regexCases`) get one made from their file and place,
/// which reads back to no `id`; a stream case's `id` is its name.
#[test]
fn every_suite_case_has_a_name() {
    let file = json!({"description": "d",
        "affectsCases": [{"dependency": "/a", "change": "/a", "affects": true},
                         {"dependency": "/a", "change": "/b", "affects": false}],
        "streamCases": [{"id": "streams/one", "messages": [], "expect": {}}]});
    let suite = to_suite_file("reactive-affects", &file);
    let names: Vec<&str> = suite
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "reactive-affects/affects/0",
            "reactive-affects/affects/1",
            "streams/one"
        ]
    );
    assert!(json_eq(&from_suite_file("reactive-affects", &suite), &file));
    for path in fixture_files() {
        let stem = stem(&path);
        let text = std::fs::read_to_string(suite_dir().join(format!("{stem}.yaml"))).unwrap();
        let suite: Value = serde_yaml_ng::from_str(&text).unwrap();
        let mut seen = std::collections::HashSet::new();
        for case in suite.as_array().unwrap() {
            let name = case["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{stem}: a case without a name"));
            assert!(
                seen.insert(name.to_owned()),
                "{stem}: the name {name} twice"
            );
        }
    }
}
