//! The read-only JSON view the interpreter walks, so input parsed by any JSON library can be
//! searched without first being converted to `serde_json::Value`.

use crate::json::same_text;
use serde_json::{Number, Value};

/// The six JSON types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A JSON document as the JMESPath interpreter reads it: the kind of a node, its scalar value,
/// member lookup, and iteration of arrays and objects in document order.
///
/// Implemented for [`serde_json::Value`]; implement it for another parser's value type to search
/// that type directly with [`Expression::search_view`](super::Expression::search_view).
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{JsonKind, JsonView};
/// let doc = serde_json::json!({"b": [1, 2], "a": "x"});
/// assert_eq!(doc.kind(), JsonKind::Object);
/// assert_eq!(JsonView::get(&doc, "a").and_then(|v| JsonView::as_str(v)), Some("x"));
/// let keys: Vec<&str> = doc.object_iter().unwrap().map(|(k, _)| k).collect();
/// assert_eq!(keys, ["b", "a"]);
/// ```
pub trait JsonView {
    /// Iterator over the elements of an array, in order.
    type ArrayIter<'a>: Iterator<Item = &'a Self>
    where
        Self: 'a;
    /// Iterator over the members of an object, in document order.
    type ObjectIter<'a>: Iterator<Item = (&'a str, &'a Self)>
    where
        Self: 'a;

    /// The JSON type of this node.
    fn kind(&self) -> JsonKind;
    /// The boolean, if this is one.
    fn as_bool(&self) -> Option<bool>;
    /// The number, if this is one.
    fn as_number(&self) -> Option<Number>;
    /// The string, if this is one.
    fn as_str(&self) -> Option<&str>;
    /// The member named `key`, if this is an object that has it.
    fn get(&self, key: &str) -> Option<&Self>;
    /// The element at `index`, if this is an array that long.
    fn index(&self, index: usize) -> Option<&Self>;
    /// The number of elements of an array or members of an object (0 for anything else).
    fn len(&self) -> usize;
    /// Whether [`JsonView::len`] is 0.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The elements, if this is an array.
    fn array_iter(&self) -> Option<Self::ArrayIter<'_>>;
    /// The members, if this is an object.
    fn object_iter(&self) -> Option<Self::ObjectIter<'_>>;
}

impl JsonView for Value {
    type ArrayIter<'a> = std::slice::Iter<'a, Value>;
    type ObjectIter<'a> = ObjectMembers<'a>;

    #[inline]
    fn kind(&self) -> JsonKind {
        match self {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    #[inline]
    fn as_bool(&self) -> Option<bool> {
        Value::as_bool(self)
    }

    #[inline]
    fn as_number(&self) -> Option<Number> {
        match self {
            Value::Number(n) => Some(n.clone()),
            _ => None,
        }
    }

    #[inline]
    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }

    #[inline]
    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            // Comparing a few names costs less than hashing the key (SipHash), and tool records
            // are small objects.
            Value::Object(map) if map.len() <= 8 => {
                map.iter().find(|(k, _)| same_text(k, key)).map(|(_, v)| v)
            }
            Value::Object(map) => map.get(key),
            _ => None,
        }
    }

    #[inline]
    fn index(&self, index: usize) -> Option<&Value> {
        match self {
            Value::Array(items) => items.get(index),
            _ => None,
        }
    }

    #[inline]
    fn len(&self) -> usize {
        match self {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        }
    }

    #[inline]
    fn array_iter(&self) -> Option<std::slice::Iter<'_, Value>> {
        match self {
            Value::Array(items) => Some(items.iter()),
            _ => None,
        }
    }

    #[inline]
    fn object_iter(&self) -> Option<ObjectMembers<'_>> {
        match self {
            Value::Object(map) => Some(ObjectMembers(map.iter())),
            _ => None,
        }
    }
}

/// The members of a `serde_json` object as `(&str, &Value)` pairs.
#[derive(Debug, Clone)]
pub struct ObjectMembers<'a>(serde_json::map::Iter<'a>);

impl<'a> Iterator for ObjectMembers<'a> {
    type Item = (&'a str, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k.as_str(), v))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Expression;
    use super::*;
    use serde_json::json;

    /// A document type of another shape (members in a vector, numbers as `f64`), to check the
    /// interpreter needs nothing but the trait.
    enum Doc {
        Null,
        Num(f64),
        Text(String),
        List(Vec<Doc>),
        Record(Vec<(String, Doc)>),
    }

    impl JsonView for Doc {
        type ArrayIter<'a> = std::slice::Iter<'a, Doc>;
        type ObjectIter<'a> = std::iter::Map<
            std::slice::Iter<'a, (String, Doc)>,
            fn(&'a (String, Doc)) -> (&'a str, &'a Doc),
        >;

        fn kind(&self) -> JsonKind {
            match self {
                Doc::Null => JsonKind::Null,
                Doc::Num(_) => JsonKind::Number,
                Doc::Text(_) => JsonKind::String,
                Doc::List(_) => JsonKind::Array,
                Doc::Record(_) => JsonKind::Object,
            }
        }
        fn as_bool(&self) -> Option<bool> {
            None
        }
        fn as_number(&self) -> Option<Number> {
            match self {
                Doc::Num(f) => Number::from_f64(*f),
                _ => None,
            }
        }
        fn as_str(&self) -> Option<&str> {
            match self {
                Doc::Text(s) => Some(s),
                _ => None,
            }
        }
        fn get(&self, key: &str) -> Option<&Doc> {
            match self {
                Doc::Record(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }
        fn index(&self, index: usize) -> Option<&Doc> {
            match self {
                Doc::List(items) => items.get(index),
                _ => None,
            }
        }
        fn len(&self) -> usize {
            match self {
                Doc::List(items) => items.len(),
                Doc::Record(members) => members.len(),
                _ => 0,
            }
        }
        fn array_iter(&self) -> Option<Self::ArrayIter<'_>> {
            match self {
                Doc::List(items) => Some(items.iter()),
                _ => None,
            }
        }
        fn object_iter(&self) -> Option<Self::ObjectIter<'_>> {
            fn pair(member: &(String, Doc)) -> (&str, &Doc) {
                (&member.0, &member.1)
            }
            match self {
                Doc::Record(members) => Some(members.iter().map(pair)),
                _ => None,
            }
        }
    }

    #[test]
    fn searches_any_view() {
        let issue = |n: f64, state: &str| {
            Doc::Record(vec![
                ("number".into(), Doc::Num(n)),
                ("state".into(), Doc::Text(state.into())),
                ("extra".into(), Doc::Null),
            ])
        };
        let doc = Doc::Record(vec![(
            "json".into(),
            Doc::List(vec![
                issue(1.0, "open"),
                issue(2.5, "closed"),
                issue(3.0, "open"),
            ]),
        )]);
        let expr =
            Expression::compile("{open: json[?state == 'open'].to_string(number), all: json[*]}")
                .unwrap();
        assert_eq!(
            expr.search_view(&doc).unwrap(),
            json!({
                "open": ["1", "3"],
                "all": [
                    {"number": 1.0, "state": "open", "extra": null},
                    {"number": 2.5, "state": "closed", "extra": null},
                    {"number": 3.0, "state": "open", "extra": null}
                ]
            })
        );
    }

    #[test]
    fn lookups_in_small_and_large_objects() {
        // Small objects are scanned, large ones hashed: both find every member and nothing else.
        for size in [1usize, 7, 8, 9, 40] {
            let mut map = serde_json::Map::new();
            for i in 0..size {
                map.insert(format!("k{i}é"), json!(i));
            }
            let doc = Value::Object(map);
            for i in 0..size {
                assert_eq!(JsonView::get(&doc, &format!("k{i}é")), Some(&json!(i)));
            }
            for missing in ["k", "k0", "missing", "k999é"] {
                assert_eq!(JsonView::get(&doc, missing), None);
            }
        }
    }
}
