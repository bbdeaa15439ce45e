//! Deep values in tests: built on purpose past the depth a recursive drop survives.

use serde_json::Value;

/// Drops a value of any depth without recursion.
pub fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
