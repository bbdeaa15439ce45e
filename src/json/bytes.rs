//! What a JSON value costs in memory, estimated from above, for the limits that count bytes.

use serde_json::Value;

/// What the allocator keeps beside each allocation, at least.
pub(crate) const ALLOCATION_BYTES: usize = 16;

/// What one more entry of a JSON object costs beyond its key's and value's text: the value
/// itself, the key's `String` and its allocation, the entry's hash and the index's slot
/// (serde_json's `preserve_order` map).
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Value>() + 24 + ALLOCATION_BYTES + 16;

/// What each part of a JSON value costs, for [`bytes_with`]: beyond its text, a string's
/// allocation, an array's per item and for its allocation, an object's per entry (beside the
/// key's text) and for its allocations.
pub(crate) struct ByteCosts {
    pub(crate) string: usize,
    pub(crate) item: usize,
    pub(crate) array: usize,
    pub(crate) entry: usize,
    pub(crate) object: usize,
}

/// The costs of [`value_bytes`]: every allocation counted, the estimate the surfaces' limits
/// charge.
pub(crate) const HELD: ByteCosts = ByteCosts {
    string: ALLOCATION_BYTES,
    item: std::mem::size_of::<Value>(),
    array: ALLOCATION_BYTES,
    entry: ENTRY_BYTES,
    object: 2 * ALLOCATION_BYTES,
};

/// What a copy of `value` holds, estimated from above; `None` past `max`.
pub(crate) fn value_bytes(value: &Value, max: usize) -> Option<usize> {
    bytes_with(value, max, &HELD)
}

/// What `value` costs under `costs` (its own slot included); `None` past `max`. Walks with a
/// stack: a model's value may nest as deep as the host let it.
pub(crate) fn bytes_with(value: &Value, max: usize, costs: &ByteCosts) -> Option<usize> {
    let cost = |v: &Value| match v {
        Value::String(s) => s.len() + costs.string,
        Value::Array(items) => items.len() * costs.item + costs.array,
        Value::Object(map) => {
            map.keys().map(|k| k.len() + costs.entry).sum::<usize>() + costs.object
        }
        _ => 0,
    };
    let mut total = std::mem::size_of::<Value>() + cost(value);
    // A scalar, the common case of a write, is measured without a work list.
    if !matches!(value, Value::Array(_) | Value::Object(_)) || total > max {
        return (total <= max).then_some(total);
    }
    let mut stack: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) => map.values().collect(),
        _ => Vec::new(),
    };
    while let Some(v) = stack.pop() {
        // Checked before the children are stacked: a long container is refused unwalked.
        total += cost(v);
        if total > max {
            return None;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    Some(total)
}
