//! The data model a surface binds to, as a trait the host implements, and the built-in
//! implementation over a `serde_json::Value`.
//!
//! The engine resolves paths, rejects the forbidden tokens and groups writes; the store only
//! reads a pointer and applies a group of writes all or nothing. The rules a store follows are
//! on [`DataModel`] and, for implementers, in `docs/data-model.md`; [`apply_writes`] and
//! [`read_value`] implement them over a `serde_json::Value`.

use crate::error::{Error, ErrorCode};
use crate::path::{JsonPointer, array_index};
use serde_json::{Map, Value};
use std::borrow::Cow;

mod shared;

pub use shared::SharedModel;

/// One write of a group: the path and the value to store there. The engine gives a store
/// absolute paths; [`apply_writes`] reads them relative to the value it is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    /// Where to write.
    pub path: JsonPointer,
    /// What to store (replaces what was there; `null` is stored as `null`).
    pub value: Value,
}

/// A surface's data model, as the host stores it.
///
/// The crate implements it for `serde_json::Value`; a host implements it to plug in its own
/// store (signals, a reactive tree, a database row). `docs/data-model.md` is the guide for
/// implementers. In short:
///
/// - The engine hands the store absolute paths only. A payload's path that starts with `/` is
///   absolute; `""` and `"."` name the data context; any other path is joined to the data
///   context (`name` in `/employees/0` is `/employees/0/name`); `"/"` and `""` name the root.
/// - The engine refuses writes through the tokens `__proto__`, `constructor` and `prototype`
///   (`DATA_ERROR`) and reads them as `null`, so a store never sees them.
/// - A read of a missing path gives `None`, which the payload sees as `null`, never an error.
/// - A write group is all or nothing; missing (or `null`) parents are created (an array when
///   the next token is a canonical array index, an object otherwise), arrays are padded with
///   `null`, creating an index above `max_index` ([`Limits::max_index`](crate::Limits::max_index),
///   default 10 000) is `DATA_ERROR` (an element that exists is written whatever its index),
///   and the root path replaces the whole model:
///   `{"updates": {"/": 5}}` turns the model into `5`.
///
/// Reads return a [`Cow`] so that a store holding `serde_json::Value`s lends them without
/// copying, while a store of another shape (signals, a database row) can build the value.
/// [`read_value`] and [`apply_writes`] are the built-in implementation's two halves, for
/// stores that keep some of their data as `serde_json::Value`s.
///
/// ```
/// use a2ui_catalog_mcp::{DataModel, JsonPointer, data_model::Write};
/// use serde_json::json;
///
/// let mut model = json!({"user": {"name": "Ada"}});
/// let name = JsonPointer::parse("/user/name").unwrap();
/// assert_eq!(model.read(&name).unwrap().as_ref(), &json!("Ada"));
/// model.apply(vec![Write { path: JsonPointer::parse("/list/1").unwrap(), value: json!(true) }], 10_000).unwrap();
/// assert_eq!(model, json!({"user": {"name": "Ada"}, "list": [null, true]}));
/// ```
pub trait DataModel {
    /// The value at `path` (absolute; the root is the whole model), or `None` when nothing is
    /// there.
    ///
    /// In an array a token must be a canonical index (`0`, or digits without a leading zero)
    /// within bounds; through a string, number or boolean there is nothing. The engine reads
    /// `None` as `null`.
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>>;

    /// Applies `writes` in order, all or nothing: when one cannot be made (through a primitive,
    /// a non-index token on an array, an index above `max_index`), none is, and the error
    /// (`DATA_ERROR`) names that path. Each write sees the model as the earlier ones left it.
    ///
    /// The full rules (which container a missing parent becomes, padding, the root) are those
    /// of [`apply_writes`], which implements this method for `serde_json::Value`.
    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error>;

    /// Removes the object member or array element at `path` (what an A2UI `updateDataModel`
    /// message without `value` does). Returns whether something was there to remove: a missing
    /// member, an index out of bounds or a path through a string, number or boolean removes
    /// nothing and is not an error. Removing an array element shifts the elements after it.
    /// Removing the root leaves an empty object.
    ///
    /// The provided implementation reads the parent container, removes the member from a copy
    /// and writes the copy back with [`apply`](DataModel::apply); stores that can remove in
    /// place (the `serde_json::Value` one does) override it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{DataModel, JsonPointer};
    /// use serde_json::json;
    /// let mut model = json!({"rows": ["a", "b", "c"], "user": {"nickname": "x"}});
    /// assert!(model.remove(&JsonPointer::parse("/rows/0")?)?);
    /// assert!(model.remove(&JsonPointer::parse("/user/nickname")?)?);
    /// assert!(!model.remove(&JsonPointer::parse("/user/missing")?)?);
    /// assert_eq!(model, json!({"rows": ["b", "c"], "user": {}}));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    fn remove(&mut self, path: &JsonPointer) -> Result<bool, Error> {
        let Some((last, parent)) = path.tokens().split_last() else {
            let empty = Write {
                path: JsonPointer::root(),
                value: Value::Object(Map::new()),
            };
            self.apply(vec![empty], 0)?;
            return Ok(true);
        };
        let parent = JsonPointer::from_tokens(parent.iter().map(String::as_str));
        let Some(container) = self.read(&parent) else {
            return Ok(false);
        };
        let mut container = container.into_owned();
        if !remove_member(&mut container, last) {
            return Ok(false);
        }
        // The parent exists, so no index on its path is new: the index limit cannot apply.
        let write = Write {
            path: parent,
            value: container,
        };
        self.apply(vec![write], usize::MAX)?;
        Ok(true)
    }
}

/// A mutable borrow of a data model is one, so that a wrapper such as
/// [`TrackedModel`](crate::reactive::TrackedModel) can wrap a model the host keeps owning.
impl<M: DataModel + ?Sized> DataModel for &mut M {
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        (**self).read(path)
    }

    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
        (**self).apply(writes, max_index)
    }

    fn remove(&mut self, path: &JsonPointer) -> Result<bool, Error> {
        (**self).remove(path)
    }
}

/// Removes the member `token` of an object or the element it indexes in an array; returns
/// whether there was one.
fn remove_member(container: &mut Value, token: &str) -> bool {
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

impl DataModel for Value {
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        read_value(self, path).map(Cow::Borrowed)
    }

    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
        apply_writes(self, writes, max_index)
    }

    fn remove(&mut self, path: &JsonPointer) -> Result<bool, Error> {
        let Some((last, parent)) = path.tokens().split_last() else {
            *self = Value::Object(Map::new());
            return Ok(true);
        };
        Ok(read_mut(self, parent).is_some_and(|container| remove_member(container, last)))
    }
}

/// Applies a group of writes to `target`, all or nothing, by the crate's write rules; the
/// paths are relative to `target`.
///
/// This is what [`DataModel::apply`] does for a `serde_json::Value`. A store of another shape
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

/// At most how many `null`s `writes` pad arrays with in `model` as it is now: for each index
/// token, the index minus the length of the array it indexes (the whole index where no array
/// is there yet). Writes of the same group that grow an array first make it an over-count,
/// never an under-count: the engine charges it to the evaluation's budget before applying.
pub(crate) fn padding_bound<M: DataModel + ?Sized>(model: &M, writes: &[Write]) -> u64 {
    let mut total: u64 = 0;
    for write in writes {
        let tokens = write.path.tokens();
        // Once a prefix is missing, everything below it is created (read nothing more).
        let mut existing = true;
        for (depth, token) in tokens.iter().enumerate() {
            let Some(index) = array_index(token) else {
                continue;
            };
            let len = if existing {
                let parent = JsonPointer::from_tokens(tokens[..depth].iter().map(String::as_str));
                match model.read(&parent) {
                    Some(value) => value.as_array().map_or(0, Vec::len),
                    None => {
                        existing = false;
                        0
                    }
                }
            } else {
                0
            };
            total = total.saturating_add(index.saturating_sub(len) as u64);
        }
    }
    total
}

/// Reads `path` in `root` without copying: what [`DataModel::read`] does for a
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

fn read_mut<'v>(root: &'v mut Value, tokens: &[String]) -> Option<&'v mut Value> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn w(path: &str, value: Value) -> Write {
        Write {
            path: JsonPointer::parse(path).unwrap(),
            value,
        }
    }

    fn apply(model: &mut Value, writes: Vec<Write>) -> Result<(), Error> {
        model.apply(writes, 10_000)
    }

    #[test]
    fn reads_follow_the_rules() {
        let m = json!({"rows": ["a", "b"], "s": "text", "n": null});
        let get = |p: &str| read_value(&m, &JsonPointer::parse(p).unwrap()).cloned();
        assert_eq!(get("/rows/1"), Some(json!("b")));
        assert_eq!(get("/rows/01"), None);
        assert_eq!(get("/rows/2"), None);
        assert_eq!(get("/s/0"), None);
        assert_eq!(get("/n"), Some(Value::Null));
        assert_eq!(get("/"), Some(m.clone()));
    }

    #[test]
    fn writes_create_pad_and_replace() {
        let mut m = json!({});
        apply(
            &mut m,
            vec![
                w("/a/b/c", json!(1)),
                w("/list/2/name", json!("x")),
                w("/a/b/d", json!(2)),
            ],
        )
        .unwrap();
        assert_eq!(
            m,
            json!({"a": {"b": {"c": 1, "d": 2}}, "list": [null, null, {"name": "x"}]})
        );
        apply(
            &mut m,
            vec![
                w("/list/0", json!(0)),
                w("/list/4", json!(4)),
                w("/a", json!(null)),
            ],
        )
        .unwrap();
        assert_eq!(
            m,
            json!({"a": null, "list": [0, null, {"name": "x"}, null, 4]})
        );
        apply(&mut m, vec![w("/a/0", json!("x"))]).unwrap();
        assert_eq!(m["a"], json!(["x"]));
        let mut null_root = Value::Null;
        apply(&mut null_root, vec![w("/3", json!(true))]).unwrap();
        assert_eq!(null_root, json!([null, null, null, true]));
    }

    #[test]
    fn failures_change_nothing() {
        let original = json!({"name": "Ada", "rows": [1, {"x": 1}], "keep": {"k": [1, 2]}});
        let failing = [
            vec![w("/ok", json!(1)), w("/name/first", json!("A"))],
            vec![w("/rows/5", json!(1)), w("/rows/name", json!(1))],
            vec![
                w("/keep/k/9", json!(1)),
                w("/keep/new/x", json!(1)),
                w("/rows/-", json!(1)),
            ],
            vec![w("/a", json!(5)), w("/a/b", json!(1))],
            vec![w("/rows/1/x", json!(2)), w("/big/10001", json!(1))],
            vec![w("/", json!({"fresh": 1})), w("/fresh/x", json!(1))],
            vec![
                w("/rows/0", json!(null)),
                w("/rows/0/x/3/y", json!(1)),
                w("/rows/01", json!(1)),
            ],
            vec![w("/new/0/1/20000", json!(1))],
        ];
        for writes in failing {
            let mut m = original.clone();
            let shown = format!("{writes:?}");
            let err = apply(&mut m, writes).unwrap_err();
            assert_eq!(err.code(), ErrorCode::DataError, "{shown}");
            assert_eq!(m, original, "{shown}");
            assert_eq!(
                m.as_object().unwrap().keys().collect::<Vec<_>>(),
                ["name", "rows", "keep"]
            );
        }
    }

    #[test]
    fn index_limit_is_inclusive() {
        let mut m = json!({});
        apply(&mut m, vec![w("/a/10000", json!(1))]).unwrap();
        assert_eq!(m["a"].as_array().unwrap().len(), 10_001);
        let err = apply(&mut m, vec![w("/a/10001", json!(1))]).unwrap_err();
        assert!(err.message().contains("/a/10001"), "{}", err.message());
    }

    #[test]
    fn index_limit_bounds_growth_only() {
        // 60 elements with a limit of 10: the existing ones above 10 may be written (replaced,
        // or entered), new ones past the limit may not, and a failed write changes nothing.
        let mut m = json!({"rows": (0..60).map(|i| json!({"name": i})).collect::<Vec<_>>()});
        let w10 = |m: &mut Value, path: &str| apply_writes(m, vec![w(path, json!("x"))], 10);
        w10(&mut m, "/rows/50/name").unwrap();
        w10(&mut m, "/rows/59").unwrap();
        assert_eq!(
            (&m["rows"][50]["name"], &m["rows"][59]),
            (&json!("x"), &json!("x"))
        );
        let before = m.clone();
        for path in ["/rows/60", "/rows/61", "/rows/50/list/11", "/other/11"] {
            let err = w10(&mut m, path).unwrap_err();
            assert_eq!(err.code(), ErrorCode::DataError, "{path}");
            assert!(
                err.message().contains("above the limit of 10"),
                "{}",
                err.message()
            );
        }
        // A group whose later write pads past the limit: the earlier write is rolled back.
        let group = vec![w("/rows/55/name", json!("y")), w("/rows/70", json!(1))];
        assert!(apply_writes(&mut m, group, 10).is_err());
        assert_eq!(m, before);
        // Within the limit, growth is allowed as before.
        w10(&mut m, "/other/10").unwrap();
        assert_eq!(m["other"].as_array().unwrap().len(), 11);
    }

    #[test]
    fn error_names_the_path_and_the_obstacle() {
        let mut m = json!({"name": "Ada"});
        let err = apply(&mut m, vec![w("/name/first", json!(1))]).unwrap_err();
        assert_eq!(
            err.message(),
            "cannot write '/name/first': '/name' holds a string"
        );
    }

    #[test]
    fn removal_in_place_and_through_the_provided_method_agree() {
        /// A store that only reads and applies, to run the trait's own `remove`.
        struct Plain(Value);
        impl DataModel for Plain {
            fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
                self.0.read(path)
            }
            fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
                self.0.apply(writes, max_index)
            }
        }
        let original = json!({"rows": ["a", "b", "c"], "u": {"n": 1, "m": 2}, "s": "text"});
        for path in [
            "/rows/1", "/rows/3", "/rows/01", "/rows/x", "/u/n", "/u/z", "/s/0", "/none/a", "/",
            "/u",
        ] {
            let path = JsonPointer::parse(path).unwrap();
            let mut direct = original.clone();
            let mut plain = Plain(original.clone());
            let removed = direct.remove(&path).unwrap();
            assert_eq!(plain.remove(&path).unwrap(), removed, "{path}");
            assert_eq!(plain.0, direct, "{path}");
        }
        let mut m = original.clone();
        m.remove(&JsonPointer::parse("/rows/0").unwrap()).unwrap();
        assert_eq!(m["rows"], json!(["b", "c"]));
        m.remove(&JsonPointer::root()).unwrap();
        assert_eq!(m, json!({}));
    }

    #[test]
    fn missing_parents_follow_the_next_token() {
        let mut m = json!({"rows": []});
        apply(
            &mut m,
            vec![
                w("/a/0/b", json!(1)),
                w("/o/01/x", json!(2)),
                w("/o/-/y", json!(3)),
                w("/rows/1/k", json!(4)),
            ],
        )
        .unwrap();
        assert_eq!(
            m,
            json!({
                "rows": [null, {"k": 4}],
                "a": [{"b": 1}],
                "o": {"01": {"x": 2}, "-": {"y": 3}}
            })
        );
    }

    #[test]
    fn the_root_is_replaced_whole() {
        let mut m = json!({"a": 1});
        apply_writes(&mut m, vec![w("/", json!(5))], 10_000).unwrap();
        assert_eq!(m, json!(5));
        apply_writes(
            &mut m,
            vec![w("", json!({"b": 2})), w("/c", json!(3))],
            10_000,
        )
        .unwrap();
        assert_eq!(m, json!({"b": 2, "c": 3}));
        // Rolled back as a whole when a later write of the group fails.
        let err = apply_writes(&mut m, vec![w("/", json!([])), w("/x", json!(1))], 10_000);
        assert!(err.is_err());
        assert_eq!(m, json!({"b": 2, "c": 3}));
    }

    #[test]
    fn apply_writes_works_on_a_subtree_and_keeps_key_order() {
        // A store that keeps one document per surface writes into one of them.
        let mut store = json!({"s1": {"z": 1, "a": 2}, "s2": {}});
        let doc = store.get_mut("s1").unwrap();
        apply_writes(doc, vec![w("/z", json!(9)), w("/m", json!(0))], 10).unwrap();
        let keys: Vec<_> = store["s1"].as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["z", "a", "m"]);
        let doc = store.get_mut("s1").unwrap();
        let err = apply_writes(doc, vec![w("/a", json!(0)), w("/l/11", json!(0))], 10).unwrap_err();
        assert_eq!(err.code(), ErrorCode::DataError);
        assert_eq!(
            err.message(),
            "cannot write '/l/11': index 11 is above the limit of 10"
        );
        assert_eq!(store, json!({"s1": {"z": 9, "a": 2, "m": 0}, "s2": {}}));
    }

    #[test]
    fn the_trait_uses_apply_writes() {
        let writes = vec![w("/a/2", json!(true)), w("/a/0", json!(false))];
        let (mut by_trait, mut by_fn) = (json!({}), json!({}));
        DataModel::apply(&mut by_trait, writes.clone(), 10_000).unwrap();
        apply_writes(&mut by_fn, writes, 10_000).unwrap();
        assert_eq!(by_trait, by_fn);
        assert_eq!(by_fn, json!({"a": [false, null, true]}));
    }

    #[test]
    fn long_paths_do_not_recurse() {
        let mut m = json!({});
        let path = JsonPointer::from_tokens((0..50_000).map(|i| format!("k{i}")));
        apply(
            &mut m,
            vec![Write {
                path: path.clone(),
                value: json!(1),
            }],
        )
        .unwrap();
        assert_eq!(read_value(&m, &path), Some(&json!(1)));
        crate::json::drop_deep(m);
    }
}
