//! `a2ui-mcp deps`: the dependency set of a payload, as an agent developer runs it.
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
    let path = std::env::temp_dir().join(format!("a2ui-deps-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn deps_prints_the_sorted_dependency_set() {
    // The guide's relative update: reads `name` in the row, writes targets that are not reads.
    let (code, out, err) = run(&[
        "deps",
        "examples/payloads/update-relative.json",
        "--context",
        "/rows/1",
    ]);
    assert_eq!(code, 0, "{err}");
    let deps: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(deps, json!(["/rows/1/name"]));

    let file = temp_file(
        "nested.json",
        r#"{"b": {"@path": "/z"}, "a": [{"@path": "/a/2"}, {"@path": "/a/10"}, {"@path": "."}]}"#,
    );
    let (code, out, err) = run(&["deps", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), r#"["/","/a/10","/a/2","/z"]"#);
}

#[test]
fn deps_reports_compile_errors() {
    let file = temp_file("bad.json", r#"{"@path": "/bad~2"}"#);
    let (code, out, err) = run(&["deps", &file]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("DATA_ERROR"), "{err}");
    let (code, _, err) = run(&["deps", &file, "--context", "rows"]);
    assert_eq!(code, 1);
    assert!(err.contains("JSON Pointer"), "{err}");
}
