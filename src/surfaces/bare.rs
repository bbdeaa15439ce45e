//! A bare binding (`{"path": …}` alone) read in place, without evaluating it: what the resolved
//! tree and the live tree read of the model for such a property.

use crate::model::read_value;
use crate::path::{DataPath, JsonPointer, array_index};
use crate::payload::Payload;
use serde_json::Value;

/// The model's value at `context` joined with `rest`, without building the path.
pub(crate) fn read_under<'v>(
    model: &'v Value,
    context: &JsonPointer,
    rest: &[String],
) -> Option<&'v Value> {
    let mut cur = read_value(model, context)?;
    for token in rest {
        cur = match cur {
            Value::Object(map) => map.get(token.as_str())?,
            Value::Array(items) => items.get(array_index(token)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The path a bare binding reads in its context, when it is read in place (a path through a
/// forbidden token reads `null` whatever is there: evaluated instead).
pub(crate) fn bare_path(payload: &Payload) -> Option<&DataPath> {
    payload.bare_path().filter(|p| match p {
        DataPath::Absolute(a) => !a.has_forbidden_token(),
        DataPath::Relative(t) => {
            !JsonPointer::from_tokens(t.iter().map(String::as_str)).has_forbidden_token()
        }
    })
}

pub(crate) fn read_bare<'v>(
    model: &'v Value,
    path: &DataPath,
    context: &JsonPointer,
) -> Option<&'v Value> {
    match path {
        DataPath::Absolute(p) => read_value(model, p),
        DataPath::Relative(tokens) => read_under(model, context, tokens),
    }
}
