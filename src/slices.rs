//! Text values cut out of one shared source: a tool's `text`, split into records, the records'
//! capture groups.
//!
//! The guide's text chain (`transformData("text")` → `split` → `regexCapture` →
//! `transformData`) turns one large tool text into thousands of small strings. As
//! `serde_json` values each of them is an allocation and a copy, built only to be read once by
//! the next function; that alone made the chain slower than the browser, whose strings are
//! slices of their source. So between the built-in functions these values travel as
//! [`Slices`]: byte ranges into one source text, which is shared, not copied. JMESPath reads
//! them through a [`JsonView`] built on demand; anything else (a host function, a write to the
//! data model, the payload's value) gets the `serde_json` value, built once when first asked.

use crate::jmespath::{JsonKind, JsonView};
use crate::mcp::ToolResponse;
use serde_json::{Number, Value};
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// The text the ranges point into.
#[derive(Clone)]
pub(crate) enum Source {
    /// A tool response's `text` member.
    Response(Arc<ToolResponse>),
    /// A string that was a `serde_json` value.
    Text(Arc<String>),
}

impl Source {
    pub(crate) fn text(&self) -> &str {
        match self {
            Source::Response(response) => response.text(),
            Source::Text(text) => text,
        }
    }
}

/// The JSON shape of a [`Slices`] value. Every string is a range of the source text.
pub(crate) enum Shape {
    /// A string.
    Str(Range<usize>),
    /// An array of strings (what `split` makes of a string).
    List(Vec<Range<usize>>),
    /// An array whose items are `null` or arrays of `width` strings (what `regexCapture` makes
    /// of an array of strings): `matched[i]` says which; the strings of matched rows follow
    /// each other in `groups`.
    Rows {
        width: usize,
        matched: Vec<bool>,
        groups: Vec<Range<usize>>,
    },
}

/// A JSON value whose strings are all ranges of one shared text (see the module docs).
pub(crate) struct Slices {
    source: Source,
    shape: Shape,
    /// The `serde_json` form, once something asked for it.
    value: OnceLock<Value>,
}

impl Slices {
    /// A value of `shape` over `source`. The ranges must lie on `source`'s char boundaries.
    pub(crate) fn new(source: Source, shape: Shape) -> Slices {
        Slices {
            source,
            shape,
            value: OnceLock::new(),
        }
    }

    pub(crate) fn source(&self) -> &Source {
        &self.source
    }

    pub(crate) fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The value as `serde_json` (built on first use).
    pub(crate) fn value(&self) -> &Value {
        self.value.get_or_init(|| build(&self.source, &self.shape))
    }

    /// The value as `serde_json`, owned.
    pub(crate) fn into_value(self) -> Value {
        let Slices {
            source,
            shape,
            value,
        } = self;
        value.into_inner().unwrap_or_else(|| build(&source, &shape))
    }

    /// Runs `f` on the value as a [`JsonView`], built for the call: two allocations whatever
    /// the number of strings, none of them copied.
    pub(crate) fn with_view<R>(&self, f: impl FnOnce(&Node<'_>) -> R) -> R {
        let text = self.source.text();
        let strings = |ranges: &[Range<usize>]| -> Vec<Node<'_>> {
            ranges.iter().map(|r| Node::Str(&text[r.clone()])).collect()
        };
        match &self.shape {
            Shape::Str(r) => f(&Node::Str(&text[r.clone()])),
            Shape::List(ranges) => f(&Node::Array(&strings(ranges))),
            Shape::Rows {
                width,
                matched,
                groups,
            } => {
                let strings = strings(groups);
                let mut next = 0;
                let rows: Vec<Node<'_>> = matched
                    .iter()
                    .map(|&m| {
                        if !m {
                            return Node::Null;
                        }
                        let row = &strings[next..next + width];
                        next += width;
                        Node::Array(row)
                    })
                    .collect();
                f(&Node::Array(&rows))
            }
        }
    }
}

/// The `serde_json` form of a value.
fn build(source: &Source, shape: &Shape) -> Value {
    let text = source.text();
    let string = |r: &Range<usize>| Value::String(text[r.clone()].to_owned());
    match shape {
        Shape::Str(r) => string(r),
        Shape::List(ranges) => Value::Array(ranges.iter().map(string).collect()),
        Shape::Rows {
            width,
            matched,
            groups,
        } => {
            let mut next = 0;
            let rows = matched.iter().map(|&m| {
                if !m {
                    return Value::Null;
                }
                let row = &groups[next..next + width];
                next += width;
                row.iter().map(string).collect()
            });
            Value::Array(rows.collect())
        }
    }
}

/// A node of a [`Slices`] value, as JMESPath reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Node<'s> {
    Null,
    Str(&'s str),
    Array(&'s [Node<'s>]),
}

impl<'s> JsonView for Node<'s> {
    type ArrayIter<'a>
        = std::slice::Iter<'a, Node<'s>>
    where
        Self: 'a;
    type ObjectIter<'a>
        = std::iter::Empty<(&'a str, &'a Node<'s>)>
    where
        Self: 'a;

    fn kind(&self) -> JsonKind {
        match self {
            Node::Null => JsonKind::Null,
            Node::Str(_) => JsonKind::String,
            Node::Array(_) => JsonKind::Array,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        None
    }

    fn as_number(&self) -> Option<Number> {
        None
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    fn get(&self, _key: &str) -> Option<&Self> {
        None
    }

    fn index(&self, index: usize) -> Option<&Self> {
        match self {
            Node::Array(items) => items.get(index),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        match self {
            Node::Array(items) => items.len(),
            _ => 0,
        }
    }

    fn array_iter(&self) -> Option<Self::ArrayIter<'_>> {
        match self {
            Node::Array(items) => Some(items.iter()),
            _ => None,
        }
    }

    fn object_iter(&self) -> Option<Self::ObjectIter<'_>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jmespath::Expression;
    use serde_json::json;

    fn text(s: &str) -> Source {
        Source::Text(Arc::new(s.to_owned()))
    }

    fn rows() -> Slices {
        // "a1|b2|c3": rows a (matched: "a", "1"), b (no match), c (matched: "c", "3").
        Slices::new(
            text("a1|b2|c3"),
            Shape::Rows {
                width: 2,
                matched: vec![true, false, true],
                groups: vec![0..1, 1..2, 6..7, 7..8],
            },
        )
    }

    #[test]
    fn every_shape_builds_its_json() {
        let s = Slices::new(text("héllo"), Shape::Str(1..3));
        assert_eq!(s.value(), &json!("é"));
        let l = Slices::new(text("a,bc,"), Shape::List(vec![0..1, 2..4, 5..5]));
        assert_eq!(l.into_value(), json!(["a", "bc", ""]));
        assert_eq!(rows().value(), &json!([["a", "1"], null, ["c", "3"]]));
        let empty_rows = Slices::new(
            text("xy"),
            Shape::Rows {
                width: 0,
                matched: vec![true, false],
                groups: vec![],
            },
        );
        assert_eq!(empty_rows.into_value(), json!([[], null]));
    }

    #[test]
    fn jmespath_reads_the_view_like_the_json() {
        let value = rows().value().clone();
        for expr in [
            "[?@ != null].{a: [0], b: [1]}",
            "[*][1]",
            "length(@)",
            "[0].x",
            "sort_by([?@], &[1])[].join('-', @)",
            "@[?contains(@, 'c')]",
            "keys(@)",
            "[0][0] == 'a'",
            "type([1])",
        ] {
            let e = Expression::compile(expr).unwrap();
            let ours = rows().with_view(|root| e.search_view(root).map_err(|x| x.to_string()));
            let json = e.search(&value).map_err(|x| x.to_string());
            assert_eq!(ours, json, "{expr}");
        }
    }
}

#[cfg(test)]
mod chain_tests {
    //! The functions' shared-text path against the same steps written with `str` and
    //! `Pattern::captures` directly.

    use crate::model::SharedModel;
    use crate::regex::Pattern;
    use crate::testing::{ScriptedServer, block_on};
    use crate::{Environment, JsonPointer};
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
            .compile(&json!({"@call": "regexCapture", "args": {"pattern": "^Found (\\d+) (\\w+)", "value": {
                "@call": "transformData", "args": {"jmespath": "text", "data": {
                    "@call": "callMcpTool", "args": {"name": "t", "arguments": {}}}}}}}))
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
}
