//! Every case of the official JMESPath compliance suite (vendored in `tests/jmespath-compliance/`,
//! `bench` entries excluded) against the crate's engine.

use a2ui_catalog_mcp::jmespath::{Expression, JmespathError};
use a2ui_catalog_mcp::reactive::json_eq;
use serde_json::Value;
use std::path::Path;

fn run(expression: &str, given: &Value) -> Result<Value, JmespathError> {
    Expression::compile(expression)?.search(given)
}

#[test]
fn compliance_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jmespath-compliance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("vendored compliance directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "schema.json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 16, "compliance files: {files:?}");

    let (mut passed, mut skipped) = (0usize, 0usize);
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable file");
        let groups: Value =
            a2ui_catalog_mcp::json::from_str_limited(&text, 1000).expect("valid JSON");
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        for group in groups.as_array().expect("array of groups") {
            let given = &group["given"];
            for case in group["cases"].as_array().expect("cases") {
                if case.get("bench").is_some() {
                    skipped += 1;
                    continue;
                }
                let expression = case["expression"].as_str().expect("expression");
                let outcome = run(expression, given);
                let ok = match (case.get("error"), &outcome) {
                    (Some(kind), Err(err)) => kind.as_str() == Some(err.kind().as_str()),
                    (None, Ok(value)) => json_eq(value, &case["result"]),
                    _ => false,
                };
                if ok {
                    passed += 1;
                } else {
                    failures.push(format!(
                        "{name}: {expression:?} expected {} got {outcome:?}",
                        case.get("error")
                            .map_or_else(|| case["result"].to_string(), |e| format!("error {e}"))
                    ));
                }
            }
        }
    }
    eprintln!("JMESPath compliance: {passed} passed, {skipped} bench entries skipped");
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        passed + failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, 892);
}
