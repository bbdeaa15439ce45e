//! A tool's JSON text reads as `JSON.parse` reads it (issue 26): generated texts (seeded) with
//! repeated member names, deep nesting, escapes and lone surrogates, invalid UTF-8 (decoded by
//! the client as `TextDecoder` does), long numbers, `-0`, `1e400`, and broken texts, compared
//! with Node.
//!
//! The cases and Node's answers are committed (`tests/data/json_parse_cases.json`), so a machine
//! without Node still checks them; with Node the generated cases are compared live too.
//! `A2UI_BLESS_JSON_CASES=1` writes the file again from Node's answers.
//!
//! The response's `json` is compared whole (`transformData("json")`), and, for each generated
//! text, the parts that expressions read (decoded on demand) against the same expressions over
//! the whole value.
//!
//! Member names are never array indices (`"0"`, `"12"`): a JavaScript object lists those first,
//! in numeric order, where JSON (and the crate) keep the order of the text.
#![cfg(feature = "testing")]

#[path = "support/node.rs"]
mod node;

#[path = "support/deep.rs"]
mod deep;
use a2ui_catalog_mcp::jmespath::Expression;
use a2ui_catalog_mcp::json::js_number_string;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, ErrorCode, JsonPointer, Limits, SharedModel};
use deep::drop_deep;
use serde_json::{Value, json};

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/json_parse_cases.json"
);

/// Deep enough for the generated nesting (the default limit is tested in `input_safety`).
const MAX_DEPTH: usize = 2_000;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// Member names: few, so that they repeat; never an array index.
const NAMES: &[&str] = &[
    "a",
    "b",
    "state",
    "n",
    "é",
    "\\u0061",
    "a\\\"b",
    "\\ud800",
    "k\\n",
    "__proto__",
    "",
];

fn string(r: &mut Rng, out: &mut String) {
    const PIECES: &[&str] = &[
        "text",
        " ",
        "é",
        "😀",
        "\\\"",
        "\\\\",
        "\\/",
        "\\b\\f\\n\\r\\t",
        "\\u00e9",
        "\\u0000",
        "\\ud83d\\ude00",
        "\\ud800",
        "\\udc00",
        "\\ud800\\ud800\\udc00",
        "\\uDBFF",
        "\\ud83d",
        "[",
        "{",
        "}",
        "]",
        ",",
        ":",
        "\u{7f}",
        "\u{2028}",
    ];
    out.push('"');
    for _ in 0..r.below(5) {
        out.push_str(r.pick(PIECES));
    }
    out.push('"');
}

fn number(r: &mut Rng, out: &mut String) {
    const NUMBERS: &[&str] = &[
        "0",
        "-0",
        "1",
        "-1",
        "42",
        "1.5",
        "-0.0",
        "1e3",
        "1E-3",
        "2.5e+2",
        "1e400",
        "-1e400",
        "1e308",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "5e-324",
        "2e-400",
        "9007199254740993",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "0.1",
        "0.30000000000000004",
        "2.2250738585072011e-308",
    ];
    match r.below(12) {
        0 => {
            // A long number: 10 000 digits, as an integer or with a fraction and exponent.
            out.push('1');
            for i in 0..9_999 {
                out.push(char::from(b'0' + (i % 10) as u8));
            }
            if r.below(2) == 0 {
                out.push_str(".5e-9990");
            }
        }
        _ => out.push_str(r.pick(NUMBERS)),
    }
}

/// A value nested at most `depth` more levels.
fn value(r: &mut Rng, depth: usize, out: &mut String) {
    let space = |r: &mut Rng, out: &mut String| {
        if r.below(4) == 0 {
            out.push_str(["", " ", "\n", "\t\r\n "][r.below(4) as usize]);
        }
    };
    space(r, out);
    match if depth == 0 { r.below(5) } else { r.below(8) } {
        0 => string(r, out),
        1 => number(r, out),
        2 => out.push_str(r.pick(&["true", "false", "null"])),
        3 | 4 => string(r, out),
        5 | 6 => {
            out.push('{');
            for i in 0..r.below(5) {
                if i > 0 {
                    out.push(',');
                }
                space(r, out);
                out.push('"');
                out.push_str(r.pick(NAMES));
                out.push('"');
                space(r, out);
                out.push(':');
                value(r, depth - 1, out);
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            for i in 0..r.below(5) {
                if i > 0 {
                    out.push(',');
                }
                value(r, depth - 1, out);
            }
            out.push(']');
        }
    }
    space(r, out);
}

/// A case: the tool's text, or the bytes a client decodes into it (hex, for invalid UTF-8).
fn generated() -> Vec<Value> {
    let mut r = Rng(0x5eed_1234_abcd_ef01);
    let mut cases = Vec::new();
    for k in 0..400 {
        let mut text = String::new();
        // Top level: an object or an array (other texts are prose, not `json`).
        if k % 2 == 0 {
            text.push('[');
            value(&mut r, 4, &mut text);
            text.push(']');
        } else {
            text.push_str("{\"issues\": ");
            value(&mut r, 5, &mut text);
            text.push_str(", \"n\": 1, \"n\": ");
            value(&mut r, 2, &mut text);
            text.push('}');
        }
        // Some broken: cut, or a stray byte.
        match r.below(10) {
            0 => {
                let mut cut = (r.below(text.len() as u64)) as usize;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut.max(1));
            }
            1 => {
                let mut at = (r.below(text.len() as u64)) as usize;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert(
                    at.max(1),
                    r.pick(&[",", "x", "\u{1}", "'", "\\"])
                        .chars()
                        .next()
                        .unwrap(),
                );
            }
            _ => {}
        }
        cases.push(json!({"text": text}));
    }
    // Fixed cases: the issue's, deep nesting, many repeated names, invalid UTF-8.
    cases.push(json!({"text": r#"{"a":1,"b":0,"a":2}"#}));
    cases.push(json!({"text": format!("{}1{}", "[".repeat(1_000), "]".repeat(1_000))}));
    cases.push(json!({"text": format!("{}{}", "{\"a\":".repeat(1_000), "}".repeat(1_000)).replacen("{\"a\":}", "{}", 1)}));
    let repeated: Vec<String> = (0..10_000).map(|i| format!("\"k{}\":{i}", i % 7)).collect();
    cases.push(json!({"text": format!("{{{}}}", repeated.join(","))}));
    for bytes in [
        &b"[\"a\xffb\"]"[..],
        b"[\"\xc3\"]",
        b"{\"\xe2\x82\":\"\xf0\x9f\x98\"}",
        b"[\"\xed\xa0\x80\"]",
        b"[\"\xc0\xaf\", \"\xf8\x88\x80\x80\x80\"]",
        b"[1, \xff]",
    ] {
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        cases.push(json!({ "hex": hex }));
    }
    cases
}

/// The case's text as a client hands it over: invalid UTF-8 replaced as `TextDecoder` does.
fn text_of(case: &Value) -> String {
    if let Some(text) = case["text"].as_str() {
        return text.to_owned();
    }
    let hex = case["hex"].as_str().unwrap();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A value written as `JSON.stringify` writes it (numbers as JavaScript prints them), without
/// recursion: the values nest deep.
fn canonical(value: &Value) -> String {
    enum Step<'v> {
        Value(&'v Value),
        Text(&'static str),
        Key(&'v str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push(':');
            }
            Step::Value(v) => match v {
                Value::Number(n) => out.push_str(&js_number_string(n)),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
                Value::Object(map) => {
                    out.push('{');
                    stack.push(Step::Text("}"));
                    for (i, (k, item)) in map.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
                other => out.push_str(&other.to_string()),
            },
        }
    }
    out
}

fn env() -> Environment {
    let mut env = Environment::new();
    let mut limits = Limits::default();
    limits.max_depth = MAX_DEPTH;
    env = env.with_limits(limits);
    env
}

/// What the crate gives for `expression` over the response to a tool that returns `text`.
fn crate_search(env: &Environment, text: &str, expression: &str) -> Result<Value, ErrorCode> {
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
        "results": {"t": [{"content": [{"type": "text", "text": text}]}]},
    }))
    .unwrap();
    let payload = env
        .compile(
            &json!({"@call": "transformData", "args": {"jmespath": expression,
            "data": {"@call": "callMcpTool", "args": {"name": "t"}}}}),
        )
        .unwrap();
    let model = SharedModel::new(json!({}));
    block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host())).map_err(|e| e.code())
}

/// The crate's answer in the form of Node's: `{"value": canonical}`, `{"syntax": true}` (not
/// JSON: `json` is absent) or `{"infinity": true}`.
fn crate_answer(env: &Environment, text: &str) -> Value {
    match crate_search(env, text, "json") {
        Ok(Value::Null) => json!({"syntax": true}),
        Ok(v) => {
            let answer = json!({"value": canonical(&v)});
            drop_deep(v);
            answer
        }
        Err(ErrorCode::ExpressionError) => json!({"infinity": true}),
        Err(code) => json!({"error": format!("{code:?}")}),
    }
}

const NODE_SCRIPT: &str = r#"
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
function wellFormed(v) {
  // Strings as UTF-8 holds them (a lone surrogate is U+FFFD); Infinity noted. Iterative: deep.
  let infinite = false;
  const root = {v};
  const stack = [[root, 'v']];
  while (stack.length) {
    const [parent, key] = stack.pop();
    const x = parent[key];
    if (typeof x === 'string') parent[key] = x.toWellFormed();
    else if (typeof x === 'number' && !isFinite(x)) infinite = true;
    else if (Array.isArray(x)) x.forEach((_, i) => stack.push([x, i]));
    else if (x !== null && typeof x === 'object') {
      const fixed = Object.create(null);
      for (const k of Object.keys(x)) fixed[k.toWellFormed()] = x[k];
      parent[key] = fixed;
      for (const k of Object.keys(fixed)) stack.push([fixed, k]);
    }
  }
  return [root.v, infinite];
}
for (const line of lines) {
  const c = JSON.parse(line);
  const text = c.text !== undefined ? c.text : new TextDecoder().decode(Buffer.from(c.hex, 'hex'));
  let parsed;
  try { parsed = JSON.parse(text); } catch (e) { console.log(JSON.stringify({syntax: true})); continue; }
  const [v, infinite] = wellFormed(parsed);
  console.log(JSON.stringify(infinite ? {infinity: true} : {value: JSON.stringify(v)}));
}
"#;

#[test]
fn committed_cases_read_as_json_parse_reads_them() {
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(CASES).unwrap()).unwrap();
    let cases = cases.as_array().unwrap();
    assert!(cases.len() > 400);
    let env = env();
    let mut kinds = [0; 3];
    for case in cases {
        let text = text_of(&case["case"]);
        let want = &case["node"];
        assert_eq!(&crate_answer(&env, &text), want, "{}", case["case"]);
        kinds[usize::from(want.get("syntax").is_some())
            + 2 * usize::from(want.get("infinity").is_some())] += 1;
    }
    // The file holds each kind of answer.
    assert!(kinds.iter().all(|&n| n > 5), "{kinds:?}");
}

#[test]
fn generated_cases_read_as_json_parse_reads_them() {
    let cases = generated();
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let Some(out) = node::run(
        "generated_cases_read_as_json_parse_reads_them",
        NODE_SCRIPT,
        &input,
    ) else {
        return;
    };
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());
    let env = env();
    for (case, want) in cases.iter().zip(&answers) {
        let text = text_of(case);

        assert_eq!(&crate_answer(&env, &text), want, "{text}");
    }
    if std::env::var("A2UI_BLESS_JSON_CASES").is_ok_and(|v| v == "1") {
        let file: Vec<Value> = cases
            .iter()
            .zip(&answers)
            .map(|(case, node)| json!({"case": case, "node": node}))
            .collect();
        std::fs::write(CASES, serde_json::to_string_pretty(&file).unwrap() + "\n").unwrap();
    }
}

#[test]
fn what_an_expression_reads_is_what_it_reads_of_the_whole_value() {
    const EXPRESSIONS: &[&str] = &[
        "json.issues",
        "json.n",
        "json[0]",
        "json.issues[*].a",
        "json.issues[?state == 'open'].{n: to_string(n), t: a}",
        "json.issues[?a].b",
        "json[*][0]",
        "json.issues.a.state",
        "json[0][1].a",
        "length(json.issues)",
        "length(json)",
        "length(json[0])",
        "length(json.issues[0])",
        "[length(json), json.n, length(json.n)]",
        "{n: length(json.issues), open: json.issues[?state == 'open'].a}",
        "keys(json)",
        "json.issues[*].*",
        "json[][]",
    ];
    let env = env();
    let compiled: Vec<Expression> = EXPRESSIONS
        .iter()
        .map(|e| Expression::compile(e).unwrap())
        .collect();
    let mut compared = 0;
    for case in generated() {
        let text = text_of(&case);
        let Ok(whole) = crate_search(&env, &text, "json") else {
            continue;
        };
        if whole.is_null() {
            continue;
        }
        // The expressions read only `json`: over an object holding the whole value they
        // answer what they answer over the response.
        let holder = json!({ "json": whole });
        for (expression, compiled) in EXPRESSIONS.iter().zip(&compiled) {
            // Errors too (`keys` of an array): the same either way.
            let read = crate_search(&env, &text, expression).ok();
            assert_eq!(
                read,
                compiled.search(&holder).ok(),
                "{expression} over {text}"
            );
            compared += 1;
        }
        drop_deep(holder);
    }
    assert!(compared > 1_000, "{compared}");
}

/// Bad input (issue 26): large, deep, repetitive texts are `LIMIT_EXCEEDED` or read as
/// `JSON.parse` reads them, in time linear in their size (a quadratic step would take hours
/// at these sizes; the bound only catches that).
#[test]
fn bad_input_is_limit_exceeded_or_the_value_json_parse_gives() {
    let env = Environment::new();
    let timed = |text: &str, expression: &str| {
        let start = std::time::Instant::now();
        let answer = crate_search(&env, text, expression);
        let took = start.elapsed();
        assert!(took.as_secs() < 60, "{expression}: {took:?}");
        answer
    };
    // 10 000 levels: refused at the default limit (128), arrays and objects.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(timed(&deep, "json"), Err(ErrorCode::LimitExceeded));
    let deep = format!("{}1{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    assert_eq!(timed(&deep, "json.a"), Err(ErrorCode::LimitExceeded));
    // 1 000 000 repeated names: the last value, as JSON.parse gives.
    let repeated: Vec<String> = (0..1_000_000).map(|i| format!("\"k\":{i}")).collect();
    let text = format!("{{{}}}", repeated.join(","));
    assert_eq!(timed(&text, "json.k"), Ok(json!(999_999)));
    assert_eq!(timed(&text, "keys(json)"), Ok(json!(["k"])));
    // 1 000 000 distinct names, read in part and whole.
    let distinct: Vec<String> = (0..1_000_000).map(|i| format!("\"k{i}\":{i}")).collect();
    let text = format!("{{{},\"k5\":\"last\"}}", distinct.join(","));
    assert_eq!(
        timed(&text, "[json.k999999, json.k5]"),
        Ok(json!([999_999, "last"]))
    );
    assert_eq!(timed(&text, "length(json)"), Ok(json!(1_000_000)));
    // 50 MB: one long string and many records; the filter reads three members of each.
    let long = format!("[\"{}\", 1]", "é\\\"x".repeat((50 << 20) / 5 + 1));
    assert!(long.len() > 50 << 20);
    assert_eq!(timed(&long, "json[1]"), Ok(json!(1)));
    let record = r#"{"state":"open","n":7,"title":"t","body":"a long body that is stepped over, with \"quotes\" and [brackets]","user":{"login":"u","id":1}}"#;
    let records = format!(
        "[{}]",
        vec![record; (50 << 20) / record.len() + 1].join(",")
    );
    assert!(records.len() > 50 << 20);
    let rows = timed(
        &records,
        "length(json[?state == 'open'].{n: to_string(n), t: title})",
    );
    assert_eq!(rows, Ok(json!((50 << 20) / record.len() + 1)));
    // Invalid UTF-8 (decoded by the client), lone surrogates, 10 000-digit numbers.
    let lossy = String::from_utf8_lossy(b"[\"a\xffb\", \"\xed\xa0\x80\"]").into_owned();
    assert_eq!(
        timed(&lossy, "json"),
        Ok(json!(["a\u{fffd}b", "\u{fffd}\u{fffd}\u{fffd}"]))
    );
    assert_eq!(
        timed(r#"{"\ud800":"\udc00x"}"#, "json"),
        Ok(json!({"\u{fffd}": "\u{fffd}x"}))
    );
    let digits = "7".repeat(10_000);
    assert_eq!(
        timed(&format!("[{digits}]"), "json"),
        Err(ErrorCode::ExpressionError)
    );
    assert_eq!(
        timed(&format!("[0.{digits}]"), "json[0] < `1`"),
        Ok(json!(true))
    );
    assert_eq!(
        timed(&format!("[{digits}e-9999]"), "json"),
        Ok(json!([7.777777777777778]))
    );
}

/// Several text blocks: `json` is the array of those that are JSON, read in part or whole.
#[test]
fn several_blocks_read_in_part_like_the_whole() {
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
        "results": {"t": [{"content": [
            {"type": "text", "text": "prose first"},
            {"type": "text", "text": r#"{"a": 1, "b": {"c": [1, 2]}, "a": 2}"#},
            {"type": "text", "text": "[3, {\"a\": 4}]"},
        ]}]},
    }))
    .unwrap();
    let env = Environment::new();
    let search = |expression: &str| {
        let payload = env
            .compile(
                &json!({"@call": "transformData", "args": {"jmespath": expression,
                "data": {"@call": "callMcpTool", "args": {"name": "t"}}}}),
            )
            .unwrap();
        let model = SharedModel::new(json!({}));
        block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host())).unwrap()
    };
    assert_eq!(
        search("json"),
        json!([{"a": 2, "b": {"c": [1, 2]}}, [3, {"a": 4}]])
    );
    assert_eq!(search("json[*].a"), json!([2]));
    assert_eq!(search("json[0].b.c[1]"), json!(2));
    assert_eq!(search("json[1][1].a"), json!(4));
    assert_eq!(search("keys(json[0])"), json!(["a", "b"]));
}
