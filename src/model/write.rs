//! A group of writes and the rules it is applied by, all or nothing, to a `serde_json::Value`:
//! the built-in store's half that changes.

use super::read::read_mut;
use crate::error::{Error, ErrorCode};
use crate::path::{JsonPointer, array_index};
use serde_json::{Map, Value};

/// One write of a group: the path and the value to store there. The engine gives a store
/// absolute paths; [`apply_writes`] reads them relative to the value it is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    /// Where to write.
    pub path: JsonPointer,
    /// What to store (replaces what was there; `null` is stored as `null`).
    pub value: Value,
}

/// Applies a group of writes to `target`, all or nothing, by the crate's write rules; the
/// paths are relative to `target`.
///
/// This is what [`DataModel::apply`](crate::DataModel::apply) does for a `serde_json::Value`. A store of another shape
/// reuses it for the part of its data it keeps as a `Value` (a document per surface, a subtree
/// per signal): on an error `target` is left exactly as it was, key order included. The rules:
///
/// - writes apply in order, each to the model as the earlier ones left it;
/// - an empty path (the root) replaces `target` whole;
/// - a missing or `null` intermediate becomes a container: an array when the token after it is
///   a canonical array index (`0`, or digits without a leading zero), an object otherwise;
/// - writing past the end of an array pads it with `null`; creating an index above
///   `max_index` is an error (an element that exists is written whatever its index), and so is
///   a token that is not a canonical index on an existing array (`-`, `01`);
/// - writing through a string, number or boolean is an error;
/// - the value is stored as given (`null` is stored as `null`); an object member that exists
///   keeps its place, a new one is appended.
///
/// The error is `DATA_ERROR` and its message names the path. Paths with the tokens
/// `__proto__`, `constructor` or `prototype` are refused by the engine before they reach a
/// store; this function stores them like any other key.
///
/// ```
/// use a2ui_catalog_mcp::{JsonPointer, data_model::{Write, apply_writes}};
/// use serde_json::json;
///
/// let w = |path: &str, value| Write { path: JsonPointer::parse(path).unwrap(), value };
/// let mut doc = json!({"name": "Ada"});
/// apply_writes(&mut doc, vec![w("/tags/1", json!("x")), w("/meta/seen", json!(true))], 10_000)?;
/// assert_eq!(doc, json!({"name": "Ada", "tags": [null, "x"], "meta": {"seen": true}}));
///
/// // One write fails (`/name` holds a string): none is made.
/// let err = apply_writes(&mut doc, vec![w("/count", json!(1)), w("/name/first", json!("A"))], 10_000)
///     .unwrap_err();
/// assert_eq!(err.message(), "cannot write '/name/first': '/name' holds a string");
/// assert_eq!(doc, json!({"name": "Ada", "tags": [null, "x"], "meta": {"seen": true}}));
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn apply_writes(target: &mut Value, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
    // The paths are kept for the undo records, which name their slot by depth in the path.
    let mut paths = Vec::with_capacity(writes.len());
    let mut undo = Vec::with_capacity(writes.len());
    for Write { path, value } in writes {
        let result = write(target, &path, value, max_index);
        paths.push(path);
        match result {
            Ok(record) => undo.push(record),
            Err(err) => {
                rollback(target, undo, &paths);
                return Err(err);
            }
        }
    }
    Ok(())
}

/// Refuses (`LIMIT_EXCEEDED`) a write whose path has more than `max_depth` tokens, or whose
/// value would then sit deeper than `max_depth` levels (the path's tokens plus the value's own
/// nesting): what the engine checks before any write it makes for untrusted input, so that no
/// write makes the model deeper than the limit.
pub(crate) fn check_write_depth(write: &Write, max_depth: usize) -> Result<(), Error> {
    crate::path::check_pointer(&write.path, max_depth)?;
    let room = max_depth - write.path.tokens().len();
    if crate::json::depth_exceeds(&write.value, room) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "cannot write '{}': the value would nest deeper than the limit of {max_depth} levels",
                write.path
            ),
        ));
    }
    Ok(())
}

/// Removes the member `token` of an object or the element it indexes in an array; returns
/// whether there was one.
pub(super) fn remove_member(container: &mut Value, token: &str) -> bool {
    match container {
        Value::Object(map) => map.shift_remove(token).is_some(),
        Value::Array(items) => match array_index(token) {
            Some(i) if i < items.len() => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// How to restore the model after one write: the highest slot the write changed, and what was
/// there. Everything below that slot was created by the write, so restoring the slot undoes it.
enum Undo {
    Root(Value),
    /// The member named by the path's token at `depth`, in the object its first `depth` tokens
    /// name. `old: None` means the key did not exist (the write appended it).
    Key {
        depth: usize,
        old: Option<Value>,
    },
    /// Element `index` of the array the path's first `depth` tokens name, which had `old_len`
    /// elements; `old` is the element the write replaced, if any.
    Index {
        depth: usize,
        old_len: usize,
        index: usize,
        old: Option<Value>,
    },
}

/// Undoes the writes of a failed group, last first. What the writes made is dropped without
/// recursion: a write through a long path builds a chain as deep as the path, which the
/// derived drop of `Value` would walk on the stack.
fn rollback(root: &mut Value, undo: Vec<Undo>, paths: &[JsonPointer]) {
    use crate::json::drop_deep;
    for (record, path) in undo.into_iter().zip(paths).rev() {
        let tokens = path.tokens();
        match record {
            Undo::Root(old) => drop_deep(std::mem::replace(root, old)),
            Undo::Key { depth, old } => {
                if let Some(Value::Object(map)) = read_mut(root, &tokens[..depth]) {
                    let made = match old {
                        Some(v) => map.insert(tokens[depth].clone(), v),
                        None => map.shift_remove(&tokens[depth]),
                    };
                    if let Some(made) = made {
                        drop_deep(made);
                    }
                }
            }
            Undo::Index {
                depth,
                old_len,
                index,
                old,
            } => {
                if let Some(Value::Array(items)) = read_mut(root, &tokens[..depth]) {
                    if let Some(v) = old {
                        drop_deep(std::mem::replace(&mut items[index], v));
                    }
                    if items.len() > old_len {
                        items.drain(old_len..).for_each(drop_deep);
                    }
                }
            }
        }
    }
}

/// A new container for a missing or `null` intermediate: an array when the next token is a
/// canonical index, an object otherwise.
fn container_for(next: &str) -> Value {
    if array_index(next).is_some() {
        Value::Array(Vec::new())
    } else {
        Value::Object(Map::new())
    }
}

fn write_error(path: &JsonPointer, why: String) -> Error {
    Error::new(
        ErrorCode::DataError,
        format!("cannot write '{path}': {why}"),
    )
}

/// Writes one value, returning how to undo it. Nothing is changed when it fails: the existing
/// part of the path is checked on the way down, and the part to be created is checked (by
/// [`check_new`]) before the first change.
fn write(
    root: &mut Value,
    path: &JsonPointer,
    value: Value,
    max_index: usize,
) -> Result<Undo, Error> {
    let tokens = path.tokens();
    if tokens.is_empty() {
        return Ok(Undo::Root(std::mem::replace(root, value)));
    }
    if root.is_null() {
        check_new(tokens, path, max_index)?;
        let mut fresh = container_for(&tokens[0]);
        fill_new(&mut fresh, tokens, value);
        return Ok(Undo::Root(std::mem::replace(root, fresh)));
    }
    // Invariant: `cur` is never null (null children are replaced, not entered).
    let mut cur: &mut Value = root;
    for (i, token) in tokens.iter().enumerate() {
        let rest = &tokens[i + 1..];
        match cur {
            Value::Object(map) => {
                if rest.is_empty() {
                    let old = map.insert(token.clone(), value);
                    return Ok(Undo::Key { depth: i, old });
                }
                if map.get(token.as_str()).is_none_or(Value::is_null) {
                    check_new(rest, path, max_index)?;
                    let mut fresh = container_for(&rest[0]);
                    fill_new(&mut fresh, rest, value);
                    let old = map.insert(token.clone(), fresh);
                    return Ok(Undo::Key { depth: i, old });
                }
                cur = map.get_mut(token.as_str()).expect("present: checked above");
            }
            Value::Array(items) => {
                let Some(index) = array_index(token) else {
                    return Err(write_error(
                        path,
                        format!("'{token}' is not an array index"),
                    ));
                };
                let old_len = items.len();
                // The limit stops a write from growing (padding) an array; an element that
                // exists may be written whatever its index.
                if index > max_index && index >= old_len {
                    return Err(write_error(
                        path,
                        format!("index {token} is above the limit of {max_index}"),
                    ));
                }
                let replace = index >= old_len || items[index].is_null();
                if rest.is_empty() || replace {
                    let new = if rest.is_empty() {
                        value
                    } else {
                        check_new(rest, path, max_index)?;
                        let mut fresh = container_for(&rest[0]);
                        fill_new(&mut fresh, rest, value);
                        fresh
                    };
                    let old = if index < old_len {
                        Some(std::mem::replace(&mut items[index], new))
                    } else {
                        items.resize(index, Value::Null);
                        items.push(new);
                        None
                    };
                    return Ok(Undo::Index {
                        depth: i,
                        old_len,
                        index,
                        old,
                    });
                }
                cur = &mut items[index];
            }
            other => {
                let at = JsonPointer::from_tokens(tokens[..i].iter().cloned());
                let kind = crate::json::kind_name(other);
                return Err(write_error(path, format!("'{at}' holds {kind}")));
            }
        }
    }
    unreachable!("every iteration either descends or returns, and the last token returns")
}

/// Checks that the tokens below a container about to be created can all be created: an index
/// token creates an array, and that index must be within the limit.
fn check_new(rest: &[String], path: &JsonPointer, max_index: usize) -> Result<(), Error> {
    for token in rest {
        if array_index(token).is_some_and(|index| index > max_index) {
            return Err(write_error(
                path,
                format!("index {token} is above the limit of {max_index}"),
            ));
        }
    }
    Ok(())
}

/// Builds the chain of new containers for `rest` inside `fresh` (a new, empty container chosen
/// by `container_for(rest[0])`) and stores `value` at the end. Iterative: paths come from
/// payloads and may be long. The caller has run [`check_new`].
fn fill_new(fresh: &mut Value, rest: &[String], value: Value) {
    let mut cur = fresh;
    let mut value = Some(value);
    for (i, token) in rest.iter().enumerate() {
        let child = match rest.get(i + 1) {
            Some(next) => container_for(next),
            None => value.take().unwrap_or(Value::Null),
        };
        cur = match cur {
            Value::Object(map) => map.entry(token.clone()).or_insert(child),
            Value::Array(items) => {
                // An array was created only for a canonical index token.
                let index = array_index(token).unwrap_or_default();
                items.resize(index, Value::Null);
                items.push(child);
                &mut items[index]
            }
            _ => unreachable!("fill_new only walks containers it created"),
        };
    }
}
