//! JavaScript's answers (issue 27 item 4), checked against what Node gives: the values in
//! `tests/data/js_answers.json` were written by `tests/data/js_answers.js` (Node 20, the
//! reference JMESPath library `jmespath` 0.16, `JSON.parse`, V8's `RegExp` with the `u` flag).
//!
//! - `to_number` trims exactly ECMAScript's white space and line terminators (not U+0085);
//! - JMESPath compares and computes numbers as JavaScript's doubles, so an integer beyond 2^53
//!   equals the double it rounds to (`9007199254740993 == 9007199254740992`);
//! - a tool's JSON text with a lone surrogate escape reads as `JSON.parse` shows it once encoded
//!   as UTF-8 (U+FFFD), and JSON that `JSON.parse` reads is never taken for prose;
//! - the regex dialect accepts `(?:[]*)?`, which can only match empty text.
#![cfg(feature = "testing")]

use a2ui_catalog_mcp::jmespath::Expression;
use a2ui_catalog_mcp::regex::Pattern;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, ErrorCode, JsonPointer, SharedModel};
use serde_json::{Value, json};

fn answers() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/js_answers.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn search(data: &Value, expression: &str) -> Value {
    Expression::compile(expression)
        .unwrap_or_else(|e| panic!("{expression}: {e}"))
        .search(data)
        .unwrap_or_else(|e| panic!("{expression}: {e}"))
}

#[test]
fn to_number_trims_what_javascript_trims() {
    let cases = answers()["toNumber"].as_array().unwrap().clone();
    assert!(cases.len() > 30);
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let got = search(&json!({ "t": text }), "to_number(t)");
        assert_eq!(got, case["result"], "to_number({text:?})");
    }
}

#[test]
fn numbers_past_two_to_the_53_compare_and_add_as_doubles() {
    let answers = answers();
    let data: Value = serde_json::from_str(answers["dataText"].as_str().unwrap()).unwrap();
    for case in answers["jmes"].as_array().unwrap() {
        let expression = case["expression"].as_str().unwrap();
        let want: Value = serde_json::from_str(case["result"].as_str().unwrap()).unwrap();
        // Strict equality: an integral result is an integer, as JavaScript prints it.
        assert_eq!(search(&data, expression), want, "{expression}");
    }
    // Passed through unchanged, a number keeps its digits (JavaScript would have rounded it
    // to 9007199254740992 when it parsed the data): documented in docs/jmespath.md.
    assert_eq!(search(&data, "n"), json!(9_007_199_254_740_993_u64));
}

/// The `json` member a tool's text gives, through a real call.
fn tool_json(text: &str) -> Result<Value, a2ui_catalog_mcp::Error> {
    let server = ScriptedServer::from_json(
        &json!({"results": {"t": [{"content": [{"type": "text", "text": text}]}]}}),
    )?;
    let host = server.host();
    let payload = Environment::new()
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": "/r"}}))?;
    let model = SharedModel::new(json!({}));
    block_on(payload.eval_async(&model, &JsonPointer::root(), &host))?;
    let model = model.into_inner();
    Ok(model["r"].get("json").cloned().unwrap_or(Value::Null))
}

/// Decodes the fixture's hex strings and keys (UTF-8 bytes) back to text.
fn from_hex(v: &Value) -> Value {
    let text = |hex: &str| {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        String::from_utf8(bytes).unwrap()
    };
    match v {
        Value::String(hex) => Value::String(text(hex)),
        Value::Array(items) => Value::Array(items.iter().map(from_hex).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (text(k), from_hex(v))).collect())
        }
        other => other.clone(),
    }
}

#[test]
fn lone_surrogate_escapes_read_as_json_parse_shows_them_in_utf8() {
    for case in answers()["surrogates"].as_array().unwrap() {
        let text = case["text"].as_str().unwrap();
        assert_eq!(tool_json(text).unwrap(), from_hex(&case["utf8"]), "{text}");
    }
}

#[test]
fn json_that_json_parse_reads_is_never_silently_absent() {
    // JSON.parse('[1e400]') is [Infinity]: no JSON value holds it, so the call says so.
    let e = tool_json("[1e400]").unwrap_err();
    assert_eq!(e.code(), ErrorCode::ExpressionError);
    assert!(e.message().contains("Infinity"), "{}", e.message());
    // Text that is not JSON stays prose: no `json`, no error.
    assert_eq!(tool_json("[1e400").unwrap(), Value::Null);
    assert_eq!(tool_json("[1, 2]").unwrap(), json!([1, 2]));
}

#[test]
fn an_optional_repetition_of_nothing_is_accepted_and_matches_as_in_v8() {
    for case in answers()["patterns"].as_array().unwrap() {
        let pattern = case["pattern"].as_str().unwrap();
        let compiled = Pattern::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        for m in case["matches"].as_array().unwrap() {
            let input = m["input"].as_str().unwrap();
            // `captures` gives "" for a group that did not take part (JavaScript's undefined).
            // JavaScript's array starts with the whole match, which `captures` leaves out.
            let want: Option<Vec<String>> = m["match"].as_array().map(|groups| {
                groups[1..]
                    .iter()
                    .map(|g| g.as_str().unwrap_or("").to_owned())
                    .collect()
            });
            let got = compiled
                .captures(input)
                .map(|groups| groups.into_iter().map(str::to_owned).collect::<Vec<_>>());
            assert_eq!(got, want, "/{pattern}/u.exec({input:?})");
        }
    }
}
