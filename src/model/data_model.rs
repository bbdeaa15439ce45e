//! The trait a host's store implements, and its implementation for a `serde_json::Value`.

use super::read::{read_mut, read_value};
use super::write::{Write, apply_writes, remove_member};
use crate::error::Error;
use crate::path::{JsonPointer, array_index};
use serde_json::{Map, Value};
use std::borrow::Cow;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
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
