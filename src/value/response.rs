//! The representation of a tool's response object on its way through a payload.
//!
//! Tool results are large (a JSON list of issues, pages of search results) and most chains read
//! a small part of them with `transformData`. So the response's `json` is not built when the
//! result arrives: the tool's text is checked then (grammar, depth, numbers: a bad text is an
//! error of the call, [`read_json`]), and decoded when read, as far as the reader goes
//! ([`ToolResponse::json_for`]: a JMESPath expression decodes the members it reads, and steps
//! over the others). The other members stay `serde_json` values, and JMESPath reads the object
//! member by member
//! ([`Expression::search_members`](crate::jmespath::Expression::search_members)). The whole
//! object becomes one `serde_json::Value` only when something needs one (a write to the data
//! model, a literal that holds it, a host function), once.
//!
//! The reader is the crate's own ([`crate::json::scan`]), the same on every target: the value
//! is the one `JSON.parse` gives (a repeated member name takes its last value).

use crate::error::{Error, ErrorCode};
use crate::jmespath::{JsonKind, JsonView, Member};
use crate::json::{Lite, Lites, Need, ReadError, Structure, Values};
use serde_json::{Map, Value};
use std::sync::OnceLock;

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
    pub(crate) json: Option<JsonMember>,
    pub(crate) app: Option<AppMembers>,
    /// The whole object as one `serde_json::Value`, once it was needed.
    whole: OnceLock<Value>,
}

/// The response's members in the documented order, as references.
type Members<'a> = Vec<(&'static str, Member<'a, Value>)>;

/// Where a JSON text of the response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonText {
    /// The response's `text` member.
    Text,
    /// The text of `toolResult.content[i]`.
    Block(usize),
}

/// The response's `json`: the tool's text (or the texts of several blocks that are JSON),
/// checked, and decoded when read.
pub(crate) struct JsonMember {
    parts: Vec<(JsonText, Structure)>,
    /// Several blocks: `json` is the array of their values; else it is the one part's value.
    several: bool,
    /// The whole value, once it was needed.
    whole: OnceLock<Value>,
}

impl JsonMember {
    /// `json` of one text.
    pub(crate) fn one(text: JsonText, structure: Structure) -> JsonMember {
        JsonMember {
            parts: vec![(text, structure)],
            several: false,
            whole: OnceLock::new(),
        }
    }

    /// `json` of several blocks: the array of their values.
    pub(crate) fn several(parts: Vec<(JsonText, Structure)>) -> JsonMember {
        JsonMember {
            parts,
            several: true,
            whole: OnceLock::new(),
        }
    }
}

impl ToolResponse {
    pub(crate) fn new(
        tool_name: Value,
        tool_input: Value,
        tool_result: Value,
        structured_content: Option<Value>,
        text: TextMember,
        json: Option<JsonMember>,
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

    /// The members, for JMESPath, with the whole of `json`.
    pub(crate) fn members(&self) -> Members<'_> {
        self.members_with(self.json().map(Member::Json))
    }

    /// The text of a part of `json`.
    fn json_text(&self, at: JsonText) -> &str {
        match at {
            JsonText::Text => self.text(),
            JsonText::Block(i) => self
                .tool_result
                .get("content")
                .and_then(|c| c.get(i))
                .and_then(|b| b.get("text"))
                .and_then(Value::as_str)
                .unwrap_or(""),
        }
    }

    /// `json` decoded as far as `need` asks, built by `tree`.
    fn decode_json<'a, T: crate::json::Tree<'a>>(
        &'a self,
        tree: &T,
        json: &JsonMember,
        need: &Need,
    ) -> T::Value {
        let decode = |(at, structure): &(JsonText, Structure), need: &Need| {
            crate::json::decode(tree, self.json_text(*at), structure, need)
        };
        if json.several {
            let items = need.items();
            let mut array = tree.new_array(json.parts.len());
            for part in &json.parts {
                tree.push_item(&mut array, decode(part, items));
            }
            tree.array(array)
        } else {
            json.parts
                .first()
                .map_or_else(|| tree.null(), |p| decode(p, need))
        }
    }

    /// The whole `json` member, if the response has one (decoded on first use, then kept).
    pub(crate) fn json(&self) -> Option<&Value> {
        let json = self.json.as_ref()?;
        Some(
            json.whole
                .get_or_init(|| self.decode_json(&Values, json, &Need::All)),
        )
    }

    /// The `json` member as far as `need` asks: the parts of it a reader reads (what is left
    /// out the reader never observes), decoded when searched ([`JsonRead::search`]). The whole
    /// value when it was built already or is needed.
    pub(crate) fn json_for<'n>(&self, need: &'n Need) -> Option<JsonRead<'_, 'n>> {
        let json = self.json.as_ref()?;
        Some(match json.whole.get() {
            Some(whole) => JsonRead::Whole(whole),
            None if *need == Need::All => JsonRead::Whole(self.json()?),
            None => JsonRead::Part(json, need),
        })
    }

    /// The members, for JMESPath, with `json` as given (see [`ToolResponse::json_for`]).
    pub(crate) fn members_with<'a, V: ?Sized>(
        &'a self,
        json: Option<Member<'a, V>>,
    ) -> Vec<(&'static str, Member<'a, V>)> {
        let mut members: Vec<(&'static str, Member<'a, V>)> = vec![
            ("toolName", Member::Json(&self.tool_name)),
            ("toolInput", Member::Json(&self.tool_input)),
            ("toolResult", Member::Json(&self.tool_result)),
        ];
        if let Some(structured) = &self.structured_content {
            members.push(("structuredContent", Member::Json(structured)));
        }
        members.push(("text", Member::Str(self.text())));
        if let Some(json) = json {
            members.push(("json", json));
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
                    Member::View(v) => v.clone(),
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
        let json = self.json.take().map(|mut json| {
            let whole = json.whole.take();
            whole.unwrap_or_else(|| self.decode_json(&Values, &json, &Need::All))
        });
        let mut map = Map::new();
        map.insert("toolName".into(), self.tool_name);
        map.insert("toolInput".into(), self.tool_input);
        map.insert("toolResult".into(), self.tool_result);
        if let Some(structured) = self.structured_content {
            map.insert("structuredContent".into(), structured);
        }
        map.insert("text".into(), text);
        if let Some(json) = json {
            map.insert("json".into(), json);
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

/// The response's `json` as a reader gets it ([`ToolResponse::json_for`]).
pub(crate) enum JsonRead<'a, 'n> {
    /// The whole value.
    Whole(&'a Value),
    /// The parts the reader reads: what `need` asks of the member.
    Part(&'a JsonMember, &'n Need),
}

impl<'a> JsonRead<'a, '_> {
    /// Runs a search over `response`'s members with this `json`; a part is decoded for the
    /// search, into an arena dropped after it.
    pub(crate) fn search<R>(
        &self,
        response: &'a ToolResponse,
        search: impl FnOnce(&MembersOf<'_>) -> R,
    ) -> R {
        match self {
            JsonRead::Whole(json) => search(&MembersOf::Whole(
                response.members_with(Some(Member::Json(json))),
            )),
            JsonRead::Part(json, need) => {
                let arena = bumpalo::Bump::new();
                let lite = response.decode_json(&Lites::new(&arena), json, need);
                search(&MembersOf::Part(
                    response.members_with(Some(Member::View(&lite))),
                ))
            }
        }
    }
}

/// A response's members with its `json` whole or in part.
pub(crate) enum MembersOf<'a> {
    Whole(Members<'a>),
    Part(Vec<(&'static str, Member<'a, Lite<'a>>)>),
}

/// The members of a [`Lite`] object, for JMESPath.
pub(crate) struct LiteMembers<'a, 't>(std::slice::Iter<'a, (&'t str, Lite<'t>)>);

impl<'a, 't> Iterator for LiteMembers<'a, 't> {
    type Item = (&'a str, &'a Lite<'t>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (*k, v))
    }
}

impl<'t> JsonView for Lite<'t> {
    type ArrayIter<'a>
        = std::slice::Iter<'a, Lite<'t>>
    where
        Self: 'a;
    type ObjectIter<'a>
        = LiteMembers<'a, 't>
    where
        Self: 'a;

    fn kind(&self) -> JsonKind {
        match self {
            Lite::Null => JsonKind::Null,
            Lite::Bool(_) => JsonKind::Bool,
            Lite::Number(_) => JsonKind::Number,
            Lite::Str(_) => JsonKind::String,
            Lite::Array(_) => JsonKind::Array,
            Lite::Object(_) => JsonKind::Object,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match self {
            Lite::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<serde_json::Number> {
        match self {
            Lite::Number(n) => Some(n.clone()),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Lite::Str(s) => Some(s),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Self> {
        match self {
            Lite::Object(object) => object.get(key),
            _ => None,
        }
    }

    fn index(&self, index: usize) -> Option<&Self> {
        match self {
            Lite::Array(items) => items.get(index),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        match self {
            Lite::Array(items) => items.len(),
            Lite::Object(object) => object.members.len(),
            _ => 0,
        }
    }

    fn array_iter(&self) -> Option<Self::ArrayIter<'_>> {
        match self {
            Lite::Array(items) => Some(items.iter()),
            _ => None,
        }
    }

    fn object_iter(&self) -> Option<Self::ObjectIter<'_>> {
        match self {
            Lite::Object(object) => Some(LiteMembers(object.members.iter())),
            _ => None,
        }
    }
}

/// Checks a tool's JSON text nested at most `max_depth` deep, for a [`JsonMember`]: too deep is
/// `LIMIT_EXCEEDED`; what `JSON.parse` reads but JSON cannot hold (a number past the range of a
/// double, which JavaScript makes Infinity) is `EXPRESSION_ERROR`; anything else that is not
/// JSON is `VALIDATION_FAILED`.
pub(crate) fn read_json(text: &str, max_depth: usize) -> Result<Structure, Error> {
    crate::json::scan(text, max_depth).map_err(|e| match e {
        ReadError::TooDeep => Error::new(
            ErrorCode::LimitExceeded,
            format!("JSON nests deeper than the limit of {max_depth} levels"),
        ),
        // Said, rather than read as prose.
        ReadError::Infinity(_) => {
            Error::new(ErrorCode::ExpressionError, format!("the JSON has {e}"))
        }
        ReadError::Syntax(..) => {
            Error::new(ErrorCode::ValidationFailed, format!("invalid JSON: {e}"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A response whose only text block is `text`.
    fn response_of(text: &str) -> Result<ToolResponse, Error> {
        let structure = read_json(text, 10)?;
        Ok(ToolResponse::new(
            json!("t"),
            json!({"q": 1}),
            json!({"content": [{"type": "text", "text": text}]}),
            None,
            TextMember::Block(0),
            Some(JsonMember::one(JsonText::Text, structure)),
            None,
        ))
    }

    /// What `transformData` answers: `json` decoded as far as the expression reads it.
    fn search_read(r: &ToolResponse, expression: &crate::jmespath::Expression) -> Value {
        let need = expression.reads_of_member("json");
        let read = r.json_for(&need).unwrap();
        read.search(r, |members| match members {
            MembersOf::Whole(m) => expression.search_members(m),
            MembersOf::Part(m) => expression.search_members(m),
        })
        .unwrap()
    }

    fn parsed(text: &str) -> Value {
        response_of(text).unwrap().json().unwrap().clone()
    }

    #[test]
    fn parsed_values_keep_their_order() {
        let v = json!({"z": 1, "a": [true, null, -3, 1.5, 18446744073709551615u64, "é😀"], "m": {"k": {}}});
        let back = parsed(&v.to_string());
        assert_eq!(back, v);
        assert_eq!(
            back.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["z", "a", "m"]
        );
    }

    #[test]
    fn a_repeated_member_reads_as_json_parse_reads_it() {
        // JSON.parse('{"a":1,"b":0,"a":2}') is {a: 2, b: 0}: the last value, in the first place.
        // (sonic-rs, the reader before, answered json.a = 1.)
        let r = response_of(r#"{"a":1,"b":0,"a":2}"#).unwrap();
        let a = crate::jmespath::Expression::compile("json.a").unwrap();
        assert!(matches!(
            r.json_for(&a.reads_of_member("json")),
            Some(JsonRead::Part(..))
        ));
        assert_eq!(search_read(&r, &a), json!(2));
        let whole = r.json().unwrap();
        assert_eq!(whole, &json!({"a": 2, "b": 0}));
        assert_eq!(
            whole.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["a", "b"]
        );
    }

    #[test]
    fn length_of_json_reads_in_part_and_counts_a_repeated_name_once() {
        let r = response_of(r#"{"a":{"big":[1,2,3]},"b":"x","a":[4,5,6]}"#).unwrap();
        for (expression, want) in [
            ("length(json)", json!(2)),
            ("length(json.a)", json!(3)),
            ("[length(json), json.b]", json!([2, "x"])),
        ] {
            let compiled = crate::jmespath::Expression::compile(expression).unwrap();
            assert!(
                matches!(
                    r.json_for(&compiled.reads_of_member("json")),
                    Some(JsonRead::Part(..))
                ),
                "{expression}"
            );
            assert_eq!(search_read(&r, &compiled), want, "{expression}");
        }
        let r = response_of(r#"[{"a":1},[2,3],"four"]"#).unwrap();
        let compiled = crate::jmespath::Expression::compile("length(json)").unwrap();
        assert_eq!(search_read(&r, &compiled), json!(3));
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
            assert_eq!(&parsed(text), want, "{text}");
        }
    }

    #[test]
    fn json_that_json_parse_reads_is_never_prose() {
        // JSON.parse('[1e400]') is [Infinity]: an error that says so, not a missing `json`.
        for text in ["[1e400]", r#"{"a": [-1e400, 1]}"#] {
            let e = read_json(text, 10).unwrap_err();
            assert_eq!(e.code(), ErrorCode::ExpressionError, "{text}");
            assert!(e.message().contains("Infinity"), "{}", e.message());
        }
        for text in ["[1e400", "[1, 2]]", "[01]", r#"["\x"]"#] {
            assert_eq!(
                read_json(text, 10).unwrap_err().code(),
                ErrorCode::ValidationFailed,
                "{text}"
            );
        }
        // Still refused: what JSON.parse refuses.
        assert!(read_json(r#"["\ud800", ]"#, 10).is_err());
    }

    #[test]
    fn deep_text_is_refused() {
        let text = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
        assert_eq!(
            read_json(&text, 128).unwrap_err().code(),
            ErrorCode::LimitExceeded
        );
        assert_eq!(
            read_json("[1,", 128).unwrap_err().code(),
            ErrorCode::ValidationFailed
        );
    }

    fn response() -> ToolResponse {
        response_of(r#"{"issues": [{"number": 1, "state": "open", "title": "a"}, {"number": 2.5, "state": "closed", "title": "b"}]}"#).unwrap()
    }

    #[test]
    fn jmespath_reads_the_members_like_the_whole_value() {
        for expr in [
            "{open: json.issues[?state == 'open'].{n: to_string(number), t: title}, s: sum(json.issues[].number)}",
            "json.issues[?state == 'open'].{n: to_string(number), t: title}",
            "json.issues[*].title",
            "keys(@)",
            "@",
            "toolInput.q",
            "length(@)",
        ] {
            let expression = crate::jmespath::Expression::compile(expr).unwrap();
            let r = response();
            assert_eq!(
                search_read(&r, &expression),
                expression.search(response().value()).unwrap(),
                "{expr}"
            );
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
