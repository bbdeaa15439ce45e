//! The representation of a tool's response object on its way through a payload.
//!
//! Tool results are large (a JSON list of issues, pages of search results) and most chains read
//! a small part of them with `transformData`. Building the response object's `json` as a
//! `serde_json::Value` would parse the tool's text into maps with hashed keys, which costs more
//! than everything else the chain does. So `json` is parsed by `sonic-rs` (object keys kept in
//! order) and read in place, the other members stay `serde_json` values, and JMESPath reads the
//! object member by member
//! ([`Expression::search_members`](crate::jmespath::Expression::search_members)). The whole
//! object becomes one `serde_json::Value` only when something needs one (a write to the data
//! model, a literal that holds it, a host function), once.
//!
//! On WebAssembly `json` is a `serde_json::Value`: `sonic-rs` hashes with `ahash`, whose random
//! seed would make the module import JavaScript functions (wasm-bindgen's) on
//! `wasm32-unknown-unknown`; there the crate imports nothing.

use crate::error::{Error, ErrorCode};
use crate::jmespath::Member;
#[cfg(not(target_family = "wasm"))]
use crate::jmespath::{JsonKind, JsonView};
#[cfg(not(target_family = "wasm"))]
use serde_json::Number;
use serde_json::{Map, Value};
#[cfg(not(target_family = "wasm"))]
use sonic_rs::{JsonContainerTrait, JsonType, JsonValueTrait};
use std::sync::OnceLock;

/// The parsed form of a tool's JSON text: `sonic-rs`'s value, or on WebAssembly `serde_json`'s.
#[cfg(not(target_family = "wasm"))]
pub(crate) type FastValue = sonic_rs::Value;
#[cfg(target_family = "wasm")]
pub(crate) type FastValue = Value;

/// The MCP App members of a response.
pub(crate) struct AppMembers {
    pub(crate) resource_uri: Value,
    pub(crate) html: Value,
    pub(crate) csp: Option<Value>,
    pub(crate) permissions: Option<Value>,
}

/// The response's `text`: the text blocks joined, or, when there is exactly one, that block's
/// text inside `toolResult` (not copied: tool texts are the large part of a result).
pub(crate) enum TextMember {
    Joined(String),
    /// The index in `toolResult.content` of the only text block.
    Block(usize),
}

/// A tool's response object, member by member, in the order of the object: `toolName`,
/// `toolInput`, `toolResult`, `structuredContent` (when the result has it), `text`, `json` (when
/// found), then the MCP App members. What each holds is in `docs/mcp.md`.
pub(crate) struct ToolResponse {
    pub(crate) tool_name: Value,
    pub(crate) tool_input: Value,
    pub(crate) tool_result: Value,
    pub(crate) structured_content: Option<Value>,
    pub(crate) text: TextMember,
    pub(crate) json: Option<FastValue>,
    pub(crate) app: Option<AppMembers>,
    /// The whole object as one `serde_json::Value`, once it was needed.
    whole: OnceLock<Value>,
}

/// The response's members in the documented order, as references.
type Members<'a> = Vec<(&'static str, Member<'a, FastValue>)>;

impl ToolResponse {
    pub(crate) fn new(
        tool_name: Value,
        tool_input: Value,
        tool_result: Value,
        structured_content: Option<Value>,
        text: TextMember,
        json: Option<FastValue>,
        app: Option<AppMembers>,
    ) -> ToolResponse {
        ToolResponse {
            tool_name,
            tool_input,
            tool_result,
            structured_content,
            text,
            json,
            app,
            whole: OnceLock::new(),
        }
    }

    /// The members, for JMESPath.
    pub(crate) fn members(&self) -> Members<'_> {
        let mut members: Members<'_> = vec![
            ("toolName", Member::Json(&self.tool_name)),
            ("toolInput", Member::Json(&self.tool_input)),
            ("toolResult", Member::Json(&self.tool_result)),
        ];
        if let Some(structured) = &self.structured_content {
            members.push(("structuredContent", Member::Json(structured)));
        }
        members.push(("text", Member::Str(self.text())));
        if let Some(json) = &self.json {
            members.push(("json", Member::View(json)));
        }
        if let Some(app) = &self.app {
            members.push(("resourceUri", Member::Json(&app.resource_uri)));
            members.push(("html", Member::Json(&app.html)));
            if let Some(csp) = &app.csp {
                members.push(("csp", Member::Json(csp)));
            }
            if let Some(permissions) = &app.permissions {
                members.push(("permissions", Member::Json(permissions)));
            }
        }
        members
    }

    /// The `text` member.
    pub(crate) fn text(&self) -> &str {
        match &self.text {
            TextMember::Joined(text) => text,
            TextMember::Block(i) => self
                .tool_result
                .get("content")
                .and_then(|c| c.get(*i))
                .and_then(|b| b.get("text"))
                .and_then(Value::as_str)
                .unwrap_or(""),
        }
    }

    /// The whole object as a `serde_json::Value` (built on first use).
    pub(crate) fn value(&self) -> &Value {
        self.whole.get_or_init(|| {
            let mut map = Map::new();
            for (key, member) in self.members() {
                let value = match member {
                    Member::Json(v) => v.clone(),
                    Member::Str(text) => Value::String(text.to_owned()),
                    Member::View(v) => to_serde(v),
                };
                map.insert(key.to_owned(), value);
            }
            Value::Object(map)
        })
    }

    /// The whole object, owned (moving the members when it was not built yet).
    pub(crate) fn into_value(mut self) -> Value {
        if let Some(whole) = self.whole.take() {
            return whole;
        }
        let text = Value::String(self.text().to_owned());
        let mut map = Map::new();
        map.insert("toolName".into(), self.tool_name);
        map.insert("toolInput".into(), self.tool_input);
        map.insert("toolResult".into(), self.tool_result);
        if let Some(structured) = self.structured_content {
            map.insert("structuredContent".into(), structured);
        }
        map.insert("text".into(), text);
        if let Some(json) = &self.json {
            map.insert("json".into(), to_serde(json));
        }
        if let Some(app) = self.app {
            map.insert("resourceUri".into(), app.resource_uri);
            map.insert("html".into(), app.html);
            if let Some(csp) = app.csp {
                map.insert("csp".into(), csp);
            }
            if let Some(permissions) = app.permissions {
                map.insert("permissions".into(), permissions);
            }
        }
        Value::Object(map)
    }
}

/// Parses JSON text nested at most `max_depth` deep into the fast form.
pub(crate) fn parse_fast(text: &str, max_depth: usize) -> Result<FastValue, Error> {
    // The depth is checked before parsing: the parser recurses.
    if crate::json::nests_deeper_than(text, max_depth) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!("JSON nests deeper than the limit of {max_depth} levels"),
        ));
    }
    let parsed = parse_text(text).or_else(|e| match lone_surrogates_replaced(text) {
        // `JSON.parse` accepts a lone surrogate escape (`"\ud800"`); its string, encoded as
        // UTF-8, has U+FFFD there: the text is read again with that replacement.
        Some(repaired) => parse_text(&repaired),
        None => Err(e),
    });
    parsed.map_err(|e| {
        if is_json_grammar(text) {
            // What JSON.parse reads but a JSON value cannot hold: a number past the double
            // range, which JavaScript makes Infinity. Said, rather than read as prose.
            Error::new(
                ErrorCode::ExpressionError,
                format!(
                    "the JSON has a number beyond the range of a double (JavaScript reads it as \
                     Infinity, which JSON cannot hold): {e}"
                ),
            )
        } else {
            Error::new(ErrorCode::ValidationFailed, format!("invalid JSON: {e}"))
        }
        .with_source(e)
    })
}

/// Whether `text` follows the JSON grammar, whatever its numbers' magnitude (and with lone
/// surrogate escapes, which the grammar allows).
fn is_json_grammar(text: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    <serde::de::IgnoredAny as serde::Deserialize>::deserialize(&mut de)
        .and_then(|_| de.end())
        .is_ok()
}

#[cfg(not(target_family = "wasm"))]
fn parse_text(text: &str) -> Result<FastValue, sonic_rs::Error> {
    sonic_rs::from_str(text)
}

#[cfg(target_family = "wasm")]
fn parse_text(text: &str) -> Result<FastValue, serde_json::Error> {
    // serde_json's own nesting limit (128) would refuse what `parse_fast`'s check allows.
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).and_then(|v| de.end().map(|()| v))
}

/// `text` with every `\uXXXX` escape of a lone surrogate (a high one not followed by an
/// escaped low one, or a low one not preceded by a high one) written `\ufffd`; `None` when it
/// has none. Outside strings a backslash is not JSON anyway, so every backslash is read as the
/// start of an escape.
fn lone_surrogates_replaced(text: &str) -> Option<String> {
    /// The code unit of a `\uXXXX` escape starting at `at` (the backslash).
    fn unit(bytes: &[u8], at: usize) -> Option<u16> {
        if bytes.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(bytes.get(at + 2..at + 6)?).ok()?;
        u16::from_str_radix(hex, 16).ok()
    }
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let lone = match unit(bytes, i) {
            Some(0xD800..=0xDBFF) if matches!(unit(bytes, i + 6), Some(0xDC00..=0xDFFF)) => {
                i += 12;
                continue;
            }
            Some(0xD800..=0xDFFF) => true,
            Some(_) => false,
            // Any other escape is two bytes (an invalid one fails the parse either way).
            None => {
                i += 2;
                continue;
            }
        };
        if lone {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            copied = i + 6;
        }
        i += 6;
    }
    let mut out = out?;
    out.push_str(&text[copied..]);
    Some(out)
}

/// An array of fast values.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn fast_array(items: Vec<FastValue>) -> FastValue {
    let mut array = sonic_rs::Array::with_capacity(items.len());
    for item in items {
        array.push(item);
    }
    array.into_value()
}

/// An array of fast values.
#[cfg(target_family = "wasm")]
pub(crate) fn fast_array(items: Vec<FastValue>) -> FastValue {
    Value::Array(items)
}

/// The `serde_json` form of a fast value, which on WebAssembly already is one.
#[cfg(target_family = "wasm")]
pub(crate) fn to_serde(v: &FastValue) -> Value {
    v.clone()
}

#[cfg(not(target_family = "wasm"))]
fn number_to_serde(n: &sonic_rs::Value) -> Value {
    if let Some(u) = n.as_u64() {
        Value::Number(u.into())
    } else if let Some(i) = n.as_i64() {
        Value::Number(i.into())
    } else {
        n.as_f64()
            .and_then(Number::from_f64)
            .map_or(Value::Null, Value::Number)
    }
}

/// The `serde_json` form of a fast value. Recursion is bounded: fast values are built from text
/// parsed under the depth limit, or from `serde_json` values checked against it.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn to_serde(v: &sonic_rs::Value) -> Value {
    match v.get_type() {
        JsonType::Null => Value::Null,
        JsonType::Boolean => Value::Bool(JsonValueTrait::as_bool(v).unwrap_or_default()),
        JsonType::Number => number_to_serde(v),
        JsonType::String => Value::String(JsonValueTrait::as_str(v).unwrap_or_default().to_owned()),
        JsonType::Array => Value::Array(
            v.as_array()
                .map(|a| a.iter().map(to_serde).collect())
                .unwrap_or_default(),
        ),
        JsonType::Object => {
            let Some(object) = v.as_object() else {
                return Value::Object(Map::new());
            };
            let mut map = Map::with_capacity(object.len());
            for (key, value) in object.iter() {
                map.insert(key.to_owned(), to_serde(value));
            }
            Value::Object(map)
        }
    }
}

/// Object members of a fast value, in order.
#[cfg(not(target_family = "wasm"))]
pub struct FastMembers<'a>(Option<sonic_rs::value::object::Iter<'a>>);

#[cfg(not(target_family = "wasm"))]
impl std::fmt::Debug for FastMembers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastMembers").finish_non_exhaustive()
    }
}

#[cfg(not(target_family = "wasm"))]
impl<'a> Iterator for FastMembers<'a> {
    type Item = (&'a str, &'a sonic_rs::Value);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.as_mut()?.next()
    }
}

#[cfg(not(target_family = "wasm"))]
impl JsonView for sonic_rs::Value {
    type ArrayIter<'a> = std::slice::Iter<'a, sonic_rs::Value>;
    type ObjectIter<'a> = FastMembers<'a>;

    fn kind(&self) -> JsonKind {
        match self.get_type() {
            JsonType::Null => JsonKind::Null,
            JsonType::Boolean => JsonKind::Bool,
            JsonType::Number => JsonKind::Number,
            JsonType::String => JsonKind::String,
            JsonType::Array => JsonKind::Array,
            JsonType::Object => JsonKind::Object,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        JsonValueTrait::as_bool(self)
    }

    fn as_number(&self) -> Option<Number> {
        match number_to_serde(self) {
            Value::Number(n) if self.is_number() => Some(n),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        JsonValueTrait::as_str(self)
    }

    fn get(&self, key: &str) -> Option<&sonic_rs::Value> {
        self.as_object()?.get(&key)
    }

    fn index(&self, index: usize) -> Option<&sonic_rs::Value> {
        self.as_array()?.get(index)
    }

    fn len(&self) -> usize {
        if let Some(a) = self.as_array() {
            a.len()
        } else if let Some(o) = self.as_object() {
            o.len()
        } else {
            0
        }
    }

    fn array_iter(&self) -> Option<std::slice::Iter<'_, sonic_rs::Value>> {
        self.as_array().map(|a| a.iter())
    }

    fn object_iter(&self) -> Option<FastMembers<'_>> {
        self.as_object().map(|o| FastMembers(Some(o.iter())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parsed_values_convert_in_order() {
        let v = json!({"z": 1, "a": [true, null, -3, 1.5, 18446744073709551615u64, "é😀"], "m": {"k": {}}});
        let back = to_serde(&parse_fast(&v.to_string(), 10).unwrap());
        assert_eq!(back, v);
        assert_eq!(
            back.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["z", "a", "m"]
        );
    }

    #[test]
    fn a_lone_surrogate_escape_reads_as_u_fffd_as_json_parse_shows_it_in_utf8() {
        // Node: Buffer.from(JSON.parse('["\\ud800","ok"]')[0]) is ef bf bd (U+FFFD).
        let cases = [
            (r#"["\ud800","ok"]"#, json!(["\u{fffd}", "ok"])),
            (r#"["a\udc00b"]"#, json!(["a\u{fffd}b"])),
            (
                r#"{"\udbff": "\ud83d\ude00\ud83d"}"#,
                json!({"\u{fffd}": "😀\u{fffd}"}),
            ),
            (
                r#"["\\ud800", "\ud800\ud800\udc00"]"#,
                json!(["\\ud800", "\u{fffd}𐀀"]),
            ),
        ];
        for (text, want) in &cases {
            let got = to_serde(&parse_fast(text, 10).unwrap());
            assert_eq!(&got, want, "{text}");
        }
        assert_eq!(lone_surrogates_replaced(r#"["\ud83d\ude00", "\n"]"#), None);
        // Both parsers refuse the escape as written (sonic-rs natively, serde_json on
        // WebAssembly), and both read the repaired text.
        for (text, want) in &cases {
            assert!(parse_text(text).is_err(), "{text}");
            assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
            let repaired = lone_surrogates_replaced(text).unwrap();
            assert_eq!(&serde_json::from_str::<Value>(&repaired).unwrap(), want);
        }
    }

    #[test]
    fn json_that_json_parse_reads_is_never_prose() {
        // JSON.parse('[1e400]') is [Infinity]: an error that says so, not a missing `json`.
        for text in ["[1e400]", r#"{"a": [-1e400, 1]}"#] {
            let e = parse_fast(text, 10).unwrap_err();
            assert_eq!(e.code(), ErrorCode::ExpressionError, "{text}");
            assert!(e.message().contains("Infinity"), "{}", e.message());
        }
        for text in ["[1e400", "[1, 2]]", "[01]", r#"["\x"]"#] {
            assert_eq!(
                parse_fast(text, 10).unwrap_err().code(),
                ErrorCode::ValidationFailed,
                "{text}"
            );
        }
        // Still refused: what JSON.parse refuses.
        assert!(parse_fast(r#"["\ud800", ]"#, 10).is_err());
    }

    #[test]
    fn deep_text_is_refused_before_parsing() {
        let text = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
        assert_eq!(
            parse_fast(&text, 128).unwrap_err().code(),
            ErrorCode::LimitExceeded
        );
        assert_eq!(
            parse_fast("[1,", 128).unwrap_err().code(),
            ErrorCode::ValidationFailed
        );
    }

    fn response() -> ToolResponse {
        let json = parse_fast(r#"{"issues": [{"number": 1, "state": "open", "title": "a"}, {"number": 2.5, "state": "closed", "title": "b"}]}"#, 10).unwrap();
        ToolResponse::new(
            json!("t"),
            json!({"q": 1}),
            json!({"content": [{"type": "text", "text": "{...}"}]}),
            None,
            TextMember::Block(0),
            Some(json),
            None,
        )
    }

    #[test]
    fn jmespath_reads_the_members_like_the_whole_value() {
        let r = response();
        for expr in [
            "{open: json.issues[?state == 'open'].{n: to_string(number), t: title}, s: sum(json.issues[].number)}",
            "keys(@)",
            "@",
            "toolInput.q",
            "length(@)",
        ] {
            let expression = crate::jmespath::Expression::compile(expr).unwrap();
            assert_eq!(
                expression.search_members(&r.members()).unwrap(),
                expression.search(r.value()).unwrap(),
                "{expr}"
            );
        }
    }

    #[test]
    fn the_whole_value_keeps_the_documented_order() {
        let keys = ["toolName", "toolInput", "toolResult", "text", "json"];
        assert_eq!(
            response()
                .value()
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            keys
        );
        assert_eq!(
            response()
                .into_value()
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            keys
        );
        assert_eq!(response().into_value(), *response().value());
    }
}
