//! The built-in functions' shared-text path (`split` → `regexCapture` → `transformData` over one
//! text) against the same steps written with `str` and `Pattern::captures` directly.

use a2ui_catalog_mcp::regex::Pattern;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The chain over `/t`, lent by the model (split copies the pieces) or as a call's own
/// string (split shares it).
fn chain(separator: &str, pattern: &str, owned: bool) -> Value {
    let text = if owned {
        json!({"@call": "transformData", "args": {"jmespath": "@", "data": {"@path": "/t"}}})
    } else {
        json!({"@path": "/t"})
    };
    json!({"@call": "transformData", "args": {
        "jmespath": "{all: @, kept: [?@ != null].{a: [0], b: [1]}, n: length(@)}",
        "data": {"@call": "regexCapture", "args": {"pattern": pattern, "value": {
            "@call": "split", "args": {"separator": separator, "value": text}}}}
    }})
}

fn expected(text: &str, separator: &str, pattern: &str) -> Value {
    let p = Pattern::new(pattern).unwrap();
    let rows: Vec<Value> = text
        .split(separator)
        .map(|piece| p.captures(piece).map_or(Value::Null, |g| json!(g)))
        .collect();
    let kept: Vec<Value> = rows
        .iter()
        .filter(|r| !r.is_null())
        .map(|r| json!({"a": r.get(0), "b": r.get(1)}))
        .collect();
    json!({"all": rows, "kept": kept, "n": rows.len()})
}

proptest! {
    #[test]
    fn split_and_capture_answer_like_str_code(
        text in "(Title: |URL: |a|b|\n|\r|é|😀|\u{2028}){0,24}",
        separator in prop::sample::select(vec!["\n\n", "\n", "a", "é"]),
        pattern in prop::sample::select(vec!["^Title: (.*)\nURL: (.*)", "(a)(b)?", "(é|😀)+", "^(.*)"]),
    ) {
        let env = Environment::new();
        for owned in [false, true] {
            let payload = env.compile(&chain(separator, pattern, owned)).unwrap();
            let got = payload.eval(&mut json!({"t": text})).unwrap();
            prop_assert_eq!(got, expected(&text, separator, pattern));
        }
    }
}

#[test]
fn split_pieces_and_tool_texts_are_captured() {
    let env = Environment::new();
    let p = env
        .compile(
            &json!({"@call": "regexCapture", "args": {"pattern": "(\\w+)=(\\d+)?", "value": {
            "@call": "split", "args": {"separator": ";", "value": {
                "@call": "transformData", "args": {"jmespath": "@", "data": "x=1;y="}}}}}}),
        )
        .unwrap();
    assert_eq!(
        p.eval(&mut json!({})).unwrap(),
        json!([["x", "1"], ["y", ""]])
    );
    // An array of arrays is not shared text: its items are coerced to text, as in JS.
    let p = env
        .compile(
            &json!({"@call": "regexCapture", "args": {"pattern": "^(a)(b)", "value": {
            "@call": "split", "args": {"separator": ",", "value": ["ab,c"]}}}}),
        )
        .unwrap();
    assert_eq!(p.eval(&mut json!({})).unwrap(), json!([["a", "b"]]));
    // A tool's whole text, captured without splitting; then no match gives null.
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
        "results": {"t": [
            {"content": [{"type": "text", "text": "Found 12 results\n\nTitle: x"}]},
            {"content": [{"type": "text", "text": "nothing"}]}
        ]}
    }))
    .unwrap();
    let host = server.host();
    let p = env
        .compile(
            &json!({"@call": "regexCapture", "args": {"pattern": "^Found (\\d+) (\\w+)", "value": {
            "@call": "transformData", "args": {"jmespath": "text", "data": {
                "@call": "callMcpTool", "args": {"name": "t", "arguments": {}}}}}}}),
        )
        .unwrap();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    assert_eq!(
        block_on(p.eval_async(&model, &root, &host)).unwrap(),
        json!(["12", "results"])
    );
    assert_eq!(
        block_on(p.eval_async(&model, &root, &host)).unwrap(),
        json!(null)
    );
}

/// The guide's text chain from a tool (the text shared from `transformData("text")` to the
/// reshape) writes into the data model the rows that the same reshape writes from plain JSON
/// records lent by the model, and that `str` code finds: the data model receives the same JSON
/// whichever way the rows were built.
#[test]
fn the_guides_text_chain_writes_the_rows_plain_json_gives() {
    let text = "Found 4 results for \"q\":\n\nTitle: A é\nURL: https://a\nContent: x\n\n\
                Title: B 😀\nURL: https://b\n\nnoise\n\nTitle: \nURL: \nContent: empty\n\n\
                Title: C\nURL: https://c \"q\"";
    let reshape = "{\"/results\": [?@ != null].{title: [0], url: [1]}, \"/n\": length(@)}";
    let pattern = "^Title: (.*)\nURL: (.*)";
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "search", "inputSchema": {"type": "object"}}],
        "results": {"search": [{"content": [{"type": "text", "text": text}]}]}
    }))
    .unwrap();
    let from_tool = json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
        "jmespath": reshape,
        "data": {"@call": "regexCapture", "args": {"pattern": pattern, "value": {"@call": "split", "args": {
            "separator": "\n\n",
            "value": {"@call": "transformData", "args": {"jmespath": "text", "data": {
                "@call": "callMcpTool", "args": {"name": "search", "arguments": {}}}}}}}}}
    }}}});
    let from_model = json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
        "jmespath": reshape,
        "data": {"@call": "regexCapture", "args": {"pattern": pattern, "value": {"@path": "/records"}}}
    }}}});
    let env = Environment::new();
    let root = JsonPointer::root();
    let model = SharedModel::new(json!({}));
    let payload = env.compile(&from_tool).unwrap();
    let host = server.host();
    assert_eq!(
        block_on(payload.eval_async(&model, &root, &host)).unwrap(),
        json!(null)
    );
    let shared = model.into_inner();

    let records: Vec<&str> = text.split("\n\n").collect();
    let mut plain = json!({"records": records});
    env.compile(&from_model).unwrap().eval(&mut plain).unwrap();
    plain.as_object_mut().unwrap().shift_remove("records");

    let p = Pattern::new(pattern).unwrap();
    let rows: Vec<Value> = records
        .iter()
        .filter_map(|r| p.captures(r))
        .map(|g| json!({"title": g[0], "url": g[1]}))
        .collect();
    let expected = json!({"results": rows, "n": records.len()});
    assert_eq!(shared, expected);
    assert_eq!(plain, expected);
    // Key order too: the rows' keys in the expression's order.
    assert_eq!(shared.to_string(), plain.to_string());
}
