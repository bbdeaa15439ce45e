//! How a path is read in a `serde_json::Value`: the built-in store's half that lends.

use crate::path::{JsonPointer, array_index};
use serde_json::Value;

/// Reads `path` in `root` without copying: what [`DataModel::read`](crate::DataModel::read) does for a
/// `serde_json::Value`.
///
/// The empty path is `root` itself. An object member is found by its key; in an array the
/// token must be a canonical index (`0`, or digits without a leading zero) within bounds; a
/// missing member, an index out of bounds or a path through a string, number, boolean or
/// `null` gives `None`.
///
/// ```
/// use a2ui_catalog_mcp::{JsonPointer, data_model::read_value};
/// use serde_json::json;
///
/// let doc = json!({"rows": ["a", "b"], "n": null});
/// let at = |p: &str| read_value(&doc, &JsonPointer::parse(p).unwrap());
/// assert_eq!(at("/rows/1"), Some(&json!("b")));
/// assert_eq!(at("/rows/01"), None); // not a canonical index
/// assert_eq!(at("/rows/2"), None);
/// assert_eq!(at("/n"), Some(&json!(null)));
/// assert_eq!(at("/n/x"), None);
/// assert_eq!(at("/"), Some(&doc));
/// ```
pub fn read_value<'v>(root: &'v Value, path: &JsonPointer) -> Option<&'v Value> {
    let mut cur = root;
    for token in path.tokens() {
        cur = match cur {
            Value::Object(map) => map.get(token.as_str())?,
            Value::Array(items) => items.get(array_index(token)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

pub(super) fn read_mut<'v>(root: &'v mut Value, tokens: &[String]) -> Option<&'v mut Value> {
    let mut cur = root;
    for token in tokens {
        cur = match cur {
            Value::Object(map) => map.get_mut(token.as_str())?,
            Value::Array(items) => items.get_mut(array_index(token)?)?,
            _ => return None,
        };
    }
    Some(cur)
}
