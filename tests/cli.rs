//! The `a2ui-mcp` binary, as a user runs it.
#![cfg(feature = "cli")]

use serde_json::{Value, json};
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_a2ui-mcp"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn temp_file(name: &str, contents: &str) -> String {
    let path = std::env::temp_dir().join(format!("a2ui-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn eval_runs_the_guides_relative_update() {
    let (code, out, err) = run(&[
        "eval",
        "examples/payloads/update-relative.json",
        "--data",
        "examples/payloads/rows.json",
        "--context",
        "/rows/1",
        "--repeat",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["value"], Value::Null);
    assert_eq!(
        out["dataModel"]["rows"][1],
        json!({"name": "todo.txt", "selected": true})
    );
    assert_eq!(out["dataModel"]["lastTouched"], "todo.txt");
    assert_eq!(out["messages"], json!([]));
    for key in ["compileMicros", "evalMicrosMedian", "evalMicrosMin"] {
        assert!(
            out["timing"][key].as_f64().is_some_and(|t| t >= 0.0),
            "{key}"
        );
    }
}

#[test]
fn check_lists_every_problem_and_fails() {
    let file = temp_file(
        "bad.json",
        r#"{"@ref": 1, "b": {"@call": "split", "args": {"value": 1}}}"#,
    );
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1);
    let out: Value = serde_json::from_str(&out).unwrap();
    let locations: Vec<&str> = out["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["location"].as_str().unwrap())
        .collect();
    assert_eq!(locations, ["/@ref", "/b"]);
    let (code, _, err) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(err.contains("INVALID_RESERVED_KEY at /@ref"), "{err}");
}

#[test]
fn a_deep_payload_file_is_limit_exceeded() {
    let file = temp_file(
        "deep.json",
        &format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
    );
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1);
    assert!(out.contains("LIMIT_EXCEEDED"), "{out}");
}

#[test]
fn fixtures_reports_counts_and_failures() {
    let file = temp_file(
        "fixture.json",
        r#"{"cases": [
            {"id": "ok", "payload": [1], "expect": {"value": [1]}},
            {"id": "wrong", "payload": [1], "expect": {"value": [2]}}
        ]}"#,
    );
    let (code, out, _) = run(&["fixtures", &file]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL wrong"), "{out}");
    assert!(out.contains("value: expected [2], got [1]"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
}

/// `a2ui-mcp eval … | head`: the reader goes away before the output is written. The tool ends
/// quietly with status 0 instead of panicking on the broken pipe.
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Stdio;
    // More than a pipe's buffer, so that the write meets the closed pipe whatever the timing.
    let big = "x".repeat(1 << 20);
    let data = temp_file("pipe-data.json", &json!({"big": big}).to_string());
    let payload = temp_file("pipe-payload.json", r#"{"@path": "/big"}"#);
    let mut child = Command::new(env!("CARGO_BIN_EXE_a2ui-mcp"))
        .args(["eval", &payload, "--data", &data])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
