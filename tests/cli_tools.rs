//! `a2ui-mcp check` lists the tools a payload can call and warns about tool names that come
//! from the data model.
#![cfg(feature = "cli")]

use serde_json::{Value, json};
use std::process::Command;

fn check(name: &str, payload: &Value, json_output: bool) -> (i32, String, String) {
    let path = std::env::temp_dir().join(format!("a2ui-cli-tools-{}-{name}", std::process::id()));
    std::fs::write(&path, payload.to_string()).unwrap();
    let mut args = vec!["check".to_owned(), path.to_string_lossy().into_owned()];
    if json_output {
        args.push("--json".into());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_a2ui-mcp"))
        .args(&args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn call(name: Value) -> Value {
    json!({"@call": "callMcpTool", "args": {"name": name, "targetDataPath": "/out"}})
}

#[test]
fn literal_names_are_listed_without_a_warning() {
    let chain = json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData",
        "args": {"jmespath": "{\"/x\": text}", "data": call(json!("search"))}}}});
    let payload = json!([chain, call(json!("list_issues")), call(json!("search"))]);
    let (code, out, err) = check("literal.json", &payload, false);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("tools it can call: list_issues, search"),
        "{out}"
    );
    assert!(!err.contains("warning"), "{err}");
    assert!(out.contains("no problems"), "{out}");
}

#[test]
fn a_name_from_the_data_model_is_a_warning_and_check_still_succeeds() {
    let payload = json!([call(json!("search")), call(json!({"@path": "/toolName"}))]);
    let (code, out, err) = check("dynamic.json", &payload, false);
    assert_eq!(code, 0, "a warning does not fail the check: {err}");
    assert!(out.contains("0 problems, 1 warning"), "{out}");
    assert!(out.contains("tools it can call: search"), "{out}");
    assert!(
        err.contains("warning DYNAMIC_TOOL_NAME at /1: the tool name of this callMcpTool comes from the data model"),
        "{err}"
    );

    let (code, out, _) = check("dynamic-json.json", &payload, true);
    assert_eq!(code, 0);
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["ok"], true);
    assert_eq!(out["tools"], json!(["search"]));
    assert_eq!(out["dynamicToolNames"], true);
    assert_eq!(out["warnings"][0]["code"], "DYNAMIC_TOOL_NAME");
    assert_eq!(out["warnings"][0]["location"], "/1");
    assert_eq!(out["warnings"].as_array().map(Vec::len), Some(1));
}

#[test]
fn a_payload_without_tool_calls_lists_nothing() {
    let (code, out, err) = check(
        "none.json",
        &json!({"@call": "split", "args": {"value": "a,b", "separator": ","}}),
        false,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("tools it can call"), "{out}");
    assert!(err.is_empty(), "{err}");
}
