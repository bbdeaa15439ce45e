//! The `regexCases` of the reference conformance set (regex-dialect.json), with the crate's own
//! additions at the end (the safety check's class rule: `(d[\d]+)*` is unsafe): every verdict,
//! message and capture must hold exactly.

use a2ui_catalog_mcp::regex::Pattern;
use serde_json::Value;

const CASES: &str = include_str!("data/regex-dialect-cases.json");

#[test]
fn reference_regex_cases() {
    let doc: Value = serde_json::from_str(CASES).expect("valid JSON");
    let cases = doc["regexCases"].as_array().expect("regexCases array");
    assert!(cases.len() >= 90, "only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut checked_inputs = 0;
    for case in cases {
        let pattern = case["pattern"].as_str().expect("pattern");
        let accept = case["accept"].as_bool().expect("accept");
        match (Pattern::new(pattern), accept) {
            (Ok(_), false) => failures.push(format!("{pattern:?}: accepted, expected rejection")),
            (Err(e), true) => {
                failures.push(format!("{pattern:?}: rejected ({e}), expected acceptance"))
            }
            (Err(e), false) => {
                if let Some(needle) = case["messageContains"].as_str()
                    && !e.message().contains(needle)
                {
                    failures.push(format!(
                        "{pattern:?}: message {:?} lacks {needle:?}",
                        e.message()
                    ));
                }
            }
            (Ok(p), true) => {
                let inputs = case["inputs"]
                    .as_object()
                    .map(|m| m.iter())
                    .into_iter()
                    .flatten();
                for (input, expected) in inputs {
                    checked_inputs += 1;
                    let got = p.captures(input);
                    let expected: Option<Vec<&str>> = match expected {
                        Value::Null => None,
                        Value::Array(items) => Some(
                            items
                                .iter()
                                .map(|v| v.as_str().expect("string capture"))
                                .collect(),
                        ),
                        other => panic!("bad expectation {other}"),
                    };
                    if got != expected {
                        failures.push(format!(
                            "{pattern:?} on {input:?}: got {got:?}, expected {expected:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(checked_inputs >= 100, "only {checked_inputs} inputs");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
