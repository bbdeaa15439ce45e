//! Text values cut out of one shared source: a tool's `text`, split into records, the records'
//! capture groups.
//!
//! The guide's text chain (`transformData("text")` → `split` → `regexCapture` →
//! `transformData`) turns one large tool text into thousands of small strings. As
//! `serde_json` values each of them would be an allocation and a copy, built only to be read
//! once by the next function, where a browser's strings are slices of their source. So between
//! the built-in functions these values travel as [`SharedText`]: byte ranges into one source
//! text, which is shared, not copied. JMESPath reads them through a [`SharedTextView`] built on
//! demand; anything else (a host function, a write to the data model, the payload's value) gets
//! the `serde_json` value, built once when first asked.

use super::response::ToolResponse;
use crate::jmespath::{JsonKind, JsonView};
use serde_json::{Number, Value};
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// The text the ranges point into.
#[derive(Clone)]
pub(crate) enum TextSource {
    /// A tool response's `text` member.
    Response(Arc<ToolResponse>),
    /// A string that was a `serde_json` value.
    Text(Arc<String>),
}

impl TextSource {
    pub(crate) fn text(&self) -> &str {
        match self {
            TextSource::Response(response) => response.text(),
            TextSource::Text(text) => text,
        }
    }
}

/// The JSON shape of a [`SharedText`] value. Every string is a range of the source text.
pub(crate) enum TextShape {
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
pub(crate) struct SharedText {
    source: TextSource,
    shape: TextShape,
    /// The `serde_json` form, once something asked for it.
    value: OnceLock<Value>,
}

impl SharedText {
    /// A value of `shape` over `source`. The ranges must lie on `source`'s char boundaries.
    pub(crate) fn new(source: TextSource, shape: TextShape) -> SharedText {
        SharedText {
            source,
            shape,
            value: OnceLock::new(),
        }
    }

    pub(crate) fn source(&self) -> &TextSource {
        &self.source
    }

    pub(crate) fn shape(&self) -> &TextShape {
        &self.shape
    }

    /// The value as `serde_json` (built on first use).
    pub(crate) fn value(&self) -> &Value {
        self.value.get_or_init(|| build(&self.source, &self.shape))
    }

    /// The value as `serde_json`, owned.
    pub(crate) fn into_value(self) -> Value {
        let SharedText {
            source,
            shape,
            value,
        } = self;
        value.into_inner().unwrap_or_else(|| build(&source, &shape))
    }

    /// Runs `f` on the value as a [`JsonView`], built for the call: two allocations whatever
    /// the number of strings, none of them copied.
    pub(crate) fn with_view<R>(&self, f: impl FnOnce(&SharedTextView<'_>) -> R) -> R {
        let text = self.source.text();
        let strings = |ranges: &[Range<usize>]| -> Vec<SharedTextView<'_>> {
            ranges
                .iter()
                .map(|r| SharedTextView::Str(&text[r.clone()]))
                .collect()
        };
        match &self.shape {
            TextShape::Str(r) => f(&SharedTextView::Str(&text[r.clone()])),
            TextShape::List(ranges) => f(&SharedTextView::Array(&strings(ranges))),
            TextShape::Rows {
                width,
                matched,
                groups,
            } => {
                let strings = strings(groups);
                let rows: Vec<SharedTextView<'_>> = rows(matched, *width, &strings)
                    .map(|row| row.map_or(SharedTextView::Null, SharedTextView::Array))
                    .collect();
                f(&SharedTextView::Array(&rows))
            }
        }
    }
}

/// The `serde_json` form of a value.
fn build(source: &TextSource, shape: &TextShape) -> Value {
    let text = source.text();
    let string = |r: &Range<usize>| Value::String(text[r.clone()].to_owned());
    match shape {
        TextShape::Str(r) => string(r),
        TextShape::List(ranges) => Value::Array(ranges.iter().map(string).collect()),
        TextShape::Rows {
            width,
            matched,
            groups,
        } => Value::Array(
            rows(matched, *width, groups)
                .map(|row| row.map_or(Value::Null, |row| row.iter().map(string).collect()))
                .collect(),
        ),
    }
}

/// The rows of a [`TextShape::Rows`] over `groups` (its ranges, or views of them): `None` for
/// an item that did not match, else its `width` groups.
fn rows<'a, T>(
    matched: &'a [bool],
    width: usize,
    groups: &'a [T],
) -> impl Iterator<Item = Option<&'a [T]>> + 'a {
    let mut next = 0;
    matched.iter().map(move |&m| {
        m.then(|| {
            next += width;
            &groups[next - width..next]
        })
    })
}

/// A node of a [`SharedText`] value, as JMESPath reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SharedTextView<'s> {
    Null,
    Str(&'s str),
    Array(&'s [SharedTextView<'s>]),
}

impl<'s> JsonView for SharedTextView<'s> {
    type ArrayIter<'a>
        = std::slice::Iter<'a, SharedTextView<'s>>
    where
        Self: 'a;
    type ObjectIter<'a>
        = std::iter::Empty<(&'a str, &'a SharedTextView<'s>)>
    where
        Self: 'a;

    fn kind(&self) -> JsonKind {
        match self {
            SharedTextView::Null => JsonKind::Null,
            SharedTextView::Str(_) => JsonKind::String,
            SharedTextView::Array(_) => JsonKind::Array,
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
            SharedTextView::Str(s) => Some(s),
            _ => None,
        }
    }

    fn get(&self, _key: &str) -> Option<&Self> {
        None
    }

    fn index(&self, index: usize) -> Option<&Self> {
        match self {
            SharedTextView::Array(items) => items.get(index),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        match self {
            SharedTextView::Array(items) => items.len(),
            _ => 0,
        }
    }

    fn array_iter(&self) -> Option<Self::ArrayIter<'_>> {
        match self {
            SharedTextView::Array(items) => Some(items.iter()),
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

    fn text(s: &str) -> TextSource {
        TextSource::Text(Arc::new(s.to_owned()))
    }

    fn rows() -> SharedText {
        // "a1|b2|c3": rows a (matched: "a", "1"), b (no match), c (matched: "c", "3").
        SharedText::new(
            text("a1|b2|c3"),
            TextShape::Rows {
                width: 2,
                matched: vec![true, false, true],
                groups: vec![0..1, 1..2, 6..7, 7..8],
            },
        )
    }

    #[test]
    fn every_shape_builds_its_json() {
        let s = SharedText::new(text("héllo"), TextShape::Str(1..3));
        assert_eq!(s.value(), &json!("é"));
        let l = SharedText::new(text("a,bc,"), TextShape::List(vec![0..1, 2..4, 5..5]));
        assert_eq!(l.into_value(), json!(["a", "bc", ""]));
        assert_eq!(rows().value(), &json!([["a", "1"], null, ["c", "3"]]));
        let empty_rows = SharedText::new(
            text("xy"),
            TextShape::Rows {
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
