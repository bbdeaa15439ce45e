//! A value's kind, named as the reference's error messages name it.

use serde_json::Value;

/// The kind of a value as the reference's error messages name it (`a string`, `an array`, …).
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
