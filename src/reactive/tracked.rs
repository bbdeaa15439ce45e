//! [`TrackedModel`]: a data model that records which paths the writes applied to it changed.

use super::ChangeSet;
use crate::error::Error;
use crate::model::{DataModel, Write};
use crate::path::JsonPointer;
use serde_json::Value;
use std::borrow::Cow;

/// A data model that records, in a [`ChangeSet`], the path of every write applied to it.
///
/// Every write reaches a data model through [`DataModel::apply`], as a group applied all or
/// nothing: `updateDataModel`'s updates, a tool's `targetDataPath`, a host function's writes,
/// and the host's own writes (a two-way bound text field, an A2UI `updateDataModel` message).
/// Wrapping the store records them all the same way, and records only what happened: a group
/// that fails is rolled back and records nothing, a chain that fails before its write never
/// applies it, and a tool call superseded by a later one to the same target, or an evaluation
/// dropped while its call was pending, never writes.
///
/// A renderer keeps its store wrapped, and at the end of each frame takes the changes
/// ([`take_changes`](TrackedModel::take_changes)) to ask its
/// [`PathIndex`](super::PathIndex) what to recompute.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, JsonPointer, DataModel, Write};
/// use a2ui_catalog_mcp::reactive::TrackedModel;
/// use serde_json::json;
///
/// let env = Environment::new();
/// let select = env.compile(&json!({
///     "@call": "updateDataModel", "args": {"updates": {"selected": true, "/last": {"@path": "name"}}}
/// }))?;
/// let mut model = TrackedModel::new(json!({"rows": [{"name": "a"}, {"name": "b"}]}));
/// select.eval_in(&mut model, &JsonPointer::parse("/rows/1")?)?;
/// // The host's own write, a keystroke in a field bound to /query.
/// model.apply(vec![Write { path: JsonPointer::parse("/query")?, value: json!("x") }], 10_000)?;
/// assert_eq!(model.take_changes().to_strings(), ["/rows/1/selected", "/last", "/query"]);
/// assert!(model.changes().is_empty());
/// assert_eq!(model.get()["last"], "b");
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
///
/// With tool calls, share it like any model:
/// [`SharedModel::new(TrackedModel::new(…))`](crate::SharedModel::new).
#[derive(Debug, Default, Clone)]
pub struct TrackedModel<M = Value> {
    model: M,
    changes: ChangeSet,
}

impl<M> TrackedModel<M> {
    /// Wraps `model`, with no changes recorded yet.
    pub fn new(model: M) -> TrackedModel<M> {
        TrackedModel {
            model,
            changes: ChangeSet::new(),
        }
    }

    /// The wrapped model, to read it.
    pub fn get(&self) -> &M {
        &self.model
    }

    /// The wrapped model, to change it by other means than [`DataModel::apply`] (a removal):
    /// such changes are not recorded, say them with [`changes_mut`](TrackedModel::changes_mut).
    pub fn untracked_mut(&mut self) -> &mut M {
        &mut self.model
    }

    /// The changes recorded since the last [`take_changes`](TrackedModel::take_changes).
    pub fn changes(&self) -> &ChangeSet {
        &self.changes
    }

    /// Takes the changes recorded so far, leaving none.
    pub fn take_changes(&mut self) -> ChangeSet {
        std::mem::take(&mut self.changes)
    }

    /// The changes, to record what the host changed by other means (for a removal,
    /// [`ChangeSet::record_removal_in`] says which path changed).
    pub fn changes_mut(&mut self) -> &mut ChangeSet {
        &mut self.changes
    }

    /// The model and the changes not taken yet.
    pub fn into_parts(self) -> (M, ChangeSet) {
        (self.model, self.changes)
    }
}

impl<M: DataModel> TrackedModel<M> {
    /// Records the removal of the member or element at `path`, before or after the host
    /// removes it through [`untracked_mut`](TrackedModel::untracked_mut): an array element is
    /// a change of its array (the elements after it shift), anything else a change of `path`
    /// (see [`ChangeSet::record_removal`]).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::TrackedModel};
    /// use serde_json::json;
    /// let mut model = TrackedModel::new(json!({"rows": ["a", "b"]}));
    /// model.record_removal(JsonPointer::parse("/rows/0").unwrap());
    /// model.untracked_mut()["rows"].as_array_mut().unwrap().remove(0);
    /// assert_eq!(model.changes().to_strings(), ["/rows"]);
    /// ```
    pub fn record_removal(&mut self, path: JsonPointer) {
        self.changes.record_removal_in(&self.model, path);
    }
}

impl<M: DataModel> DataModel for TrackedModel<M> {
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        self.model.read(path)
    }

    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
        let paths: Vec<JsonPointer> = writes.iter().map(|w| w.path.clone()).collect();
        self.model.apply(writes, max_index)?;
        self.changes.extend(paths);
        Ok(())
    }
}

// The tests drive tool calls through the scripted server of `testing`.
#[cfg(all(test, feature = "testing"))]
mod tests;
