//! The containers a stream's messages come in: an array, `{"messages": [...]}`, the gallery's
//! `{name, description, messages}`.

use serde_json::{Map, Value};

/// The messages of a stream already parsed as one JSON value: a JSON array of messages,
/// `{"messages": [...]}`, the gallery's `{name, description, messages}`, or one message. Each
/// comes with the JSON Pointer of the message in `value` (`""` for a single message).
///
/// ```
/// use a2ui_catalog_mcp::stream::messages_of;
/// use serde_json::json;
/// let gallery = json!({"name": "x", "description": "y", "messages": [{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}]});
/// let found: Vec<String> = messages_of(&gallery).into_iter().map(|(at, _)| at).collect();
/// assert_eq!(found, ["/messages/0"]);
/// ```
pub fn messages_of(value: &Value) -> Vec<(String, &Value)> {
    match value {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("/{i}"), m))
            .collect(),
        Value::Object(map) if is_container(map) => match &map["messages"] {
            Value::Array(list) => list
                .iter()
                .enumerate()
                .map(|(i, m)| (format!("/messages/{i}"), m))
                .collect(),
            _ => Vec::new(),
        },
        other => vec![(String::new(), other)],
    }
}

/// Whether an object is a container of messages rather than a message: it has an array
/// `messages` and no message key, and nothing but `messages`, `name`, `description` (the
/// gallery's form) and `$schema`.
pub fn is_container(map: &Map<String, Value>) -> bool {
    matches!(map.get("messages"), Some(Value::Array(_)))
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "messages" | "name" | "description" | "$schema"))
}
