//! The representation of a tool's response object on its way through a payload.
//!
//! Tool results are large (a JSON list of issues, pages of search results) and most chains read
//! a small part of them with `transformData`. Building the response object as a
//! `serde_json::Value` would parse the tool's JSON text into maps with hashed keys: in the
//! measurements behind mcp.md that alone is slower than the browser. So the response object is
//! built as a `sonic_rs::Value` (parsed several times faster, object keys in order, no hashing),
//! JMESPath reads it through its [`JsonView`](crate::jmespath::JsonView), and it becomes a
//! `serde_json::Value` only when something needs one (a write to the data model, a literal that
//! holds it, a host function) — once, then kept.

use crate::error::{Error, ErrorCode};
use crate::jmespath::{JsonKind, JsonView};
use serde_json::{Map, Number, Value};
use sonic_rs::{JsonContainerTrait, JsonType, JsonValueMutTrait, JsonValueTrait};
use std::sync::OnceLock;

/// A tool's response object: the fast form, and the `serde_json` form once it was needed.
pub(crate) struct ToolResponse {
    fast: sonic_rs::Value,
    json: OnceLock<Value>,
}

impl ToolResponse {
    pub(crate) fn new(fast: sonic_rs::Value) -> ToolResponse {
        ToolResponse {
            fast,
            json: OnceLock::new(),
        }
    }

    /// The fast form, for JMESPath.
    pub(crate) fn fast(&self) -> &sonic_rs::Value {
        &self.fast
    }

    /// The `serde_json` form (converted on first use).
    pub(crate) fn value(&self) -> &Value {
        self.json.get_or_init(|| to_serde(&self.fast))
    }

    /// The `serde_json` form, owned.
    pub(crate) fn into_value(self) -> Value {
        match self.json.into_inner() {
            Some(v) => v,
            None => to_serde(&self.fast),
        }
    }
}

/// Parses JSON text nested at most `max_depth` deep into the fast form.
pub(crate) fn parse(text: &str, max_depth: usize) -> Result<sonic_rs::Value, Error> {
    // The depth is checked before parsing: the parser recurses.
    if crate::json::nesting_depth(text, max_depth) > max_depth {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!("JSON nests deeper than the limit of {max_depth} levels"),
        ));
    }
    sonic_rs::from_str(text).map_err(|e| {
        Error::new(ErrorCode::ValidationFailed, format!("invalid JSON: {e}")).with_source(e)
    })
}

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

/// The fast form of a `serde_json` value (the caller has checked its depth).
pub(crate) fn to_fast(v: &Value) -> sonic_rs::Value {
    match v {
        Value::Null => sonic_rs::Value::new(),
        Value::Bool(b) => sonic_rs::Value::from(*b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                sonic_rs::Value::from(u)
            } else if let Some(i) = n.as_i64() {
                sonic_rs::Value::from(i)
            } else {
                n.as_f64()
                    .and_then(sonic_rs::Value::new_f64)
                    .unwrap_or_default()
            }
        }
        Value::String(s) => sonic_rs::Value::from(s.as_str()),
        Value::Array(items) => {
            let mut array = sonic_rs::Array::with_capacity(items.len());
            for item in items {
                array.push(to_fast(item));
            }
            array.into_value()
        }
        Value::Object(map) => {
            let mut object = sonic_rs::Object::with_capacity(map.len());
            for (key, value) in map {
                object.insert(key, to_fast(value));
            }
            object.into_value()
        }
    }
}

/// Inserts `value` under `key` in a fast object value.
pub(crate) fn insert(object: &mut sonic_rs::Value, key: &str, value: sonic_rs::Value) {
    if let Some(object) = object.as_object_mut() {
        object.insert(key, value);
    }
}

/// Object members of a fast value, in order.
pub struct FastMembers<'a>(Option<sonic_rs::value::object::Iter<'a>>);

impl<'a> Iterator for FastMembers<'a> {
    type Item = (&'a str, &'a sonic_rs::Value);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.as_mut()?.next()
    }
}

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

    fn get_at_hint(&self, key: &str, slot: &std::cell::Cell<usize>) -> Option<&sonic_rs::Value> {
        let object = self.as_object()?;
        // Records of one list usually have their keys in the same order: try last time's place.
        if let Some((k, v)) = object.iter().nth(slot.get())
            && k == key
        {
            return Some(v);
        }
        let (at, (_, v)) = object.iter().enumerate().find(|(_, (k, _))| *k == key)?;
        slot.set(at);
        Some(v)
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
    fn conversions_round_trip_in_order() {
        let v = json!({"z": 1, "a": [true, null, -3, 1.5, 18446744073709551615u64, "é😀"], "m": {"k": {}}});
        let fast = to_fast(&v);
        let back = to_serde(&fast);
        assert_eq!(back, v);
        assert_eq!(
            back.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["z", "a", "m"]
        );
        assert_eq!(to_serde(&parse(&v.to_string(), 10).unwrap()), v);
    }

    #[test]
    fn deep_text_is_refused_before_parsing() {
        let text = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
        assert_eq!(
            parse(&text, 128).unwrap_err().code(),
            ErrorCode::LimitExceeded
        );
        assert_eq!(
            parse("[1,", 128).unwrap_err().code(),
            ErrorCode::ValidationFailed
        );
    }

    #[test]
    fn jmespath_reads_the_fast_form_like_serde() {
        let data = json!({"issues": [{"number": 1, "state": "open", "title": "a"}, {"number": 2.5, "state": "closed", "title": "b"}]});
        let expression = crate::jmespath::Expression::compile("{open: issues[?state == 'open'].{n: to_string(number), t: title}, all: keys(@), s: sum(issues[].number)}").unwrap();
        assert_eq!(
            expression.search_view(&to_fast(&data)).unwrap(),
            expression.search(&data).unwrap()
        );
    }
}
