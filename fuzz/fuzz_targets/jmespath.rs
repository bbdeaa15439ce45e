//! Parse and evaluate arbitrary JMESPath expressions against arbitrary JSON: no input may panic,
//! hang or overflow the stack. Input: the expression, a newline, then the JSON document (a fixed
//! sample document when there is no newline or the JSON does not parse).

#![no_main]

use a2ui_catalog_mcp::jmespath::{Expression, JmespathLimits};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const SAMPLE: &str = r#"{"json": [
  {"number": 1, "title": "a", "state": "open", "labels": [{"name": "bug"}], "n": 1.5},
  {"number": 2, "title": "b", "state": "closed", "labels": [], "n": -3},
  {"number": 3, "title": "", "state": null, "tags": ["x", "y"], "n": 0}
], "foo": {"bar": {"baz": [1, 2, 3]}, "": "empty"}, "s": "héllo 😀"}"#;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let (expr, json) = text.split_once('\n').unwrap_or((text, SAMPLE));
    let data: Value = serde_json::from_str(json)
        .or_else(|_| serde_json::from_str(SAMPLE))
        .unwrap_or(Value::Null);
    // A small budget keeps each run short; exceeding it must be an error, not a hang.
    let mut limits = JmespathLimits::default();
    limits.max_steps = 200_000;
    if let Ok(expression) = Expression::compile_with(expr, &limits) {
        let _ = expression.search(&data);
    }
});
