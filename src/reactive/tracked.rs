//! [`TrackedModel`]: a data model that records which paths the writes applied to it changed.

use super::ChangeSet;
use crate::error::{Error, ErrorCode};
use crate::limits::Limits;
use crate::model::{DataModel, Write, check_write_depth};
use crate::path::{JsonPointer, check_pointer};
use crate::payload::Payload;
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
/// use a2ui_catalog_mcp::{data_model::Write, DataModel, Environment, JsonPointer};
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
/// The host's own writes have methods of their own, which check paths as payload writes are
/// checked and are recorded the same way: [`set`](TrackedModel::set) (a two-way bound text
/// field), [`remove`](DataModel::remove) and [`apply_message`](TrackedModel::apply_message)
/// (an A2UI `updateDataModel` message, a removal when it has no `value`).
///
/// With tool calls, share it like any model:
/// [`SharedModel::new(TrackedModel::new(…))`](crate::SharedModel::new). To record what one
/// evaluation writes into a model the host keeps unwrapped, see
/// [`Payload::eval_tracked`].
#[derive(Debug, Clone)]
pub struct TrackedModel<M = Value> {
    model: M,
    changes: ChangeSet,
    max_index: usize,
    max_depth: usize,
    /// The bytes the model holds, estimated as [`held_bytes`](TrackedModel::held_bytes) says,
    /// kept up to date by every write through this wrapper; unknown until first asked and after
    /// [`untracked_mut`](TrackedModel::untracked_mut).
    bytes: KeptBytes,
}

impl<M: Default> Default for TrackedModel<M> {
    fn default() -> TrackedModel<M> {
        TrackedModel::new(M::default())
    }
}

impl<M> TrackedModel<M> {
    /// Wraps `model`, with no changes recorded yet. The host's writes
    /// ([`set`](TrackedModel::set), [`apply_message`](TrackedModel::apply_message)) use the
    /// default [`Limits::max_index`]; see [`with_max_index`](TrackedModel::with_max_index).
    pub fn new(model: M) -> TrackedModel<M> {
        TrackedModel {
            model,
            changes: ChangeSet::new(),
            max_index: Limits::default().max_index,
            max_depth: Limits::default().max_depth,
            bytes: KeptBytes::default(),
        }
    }

    /// The highest array index the host's own writes may create (payload writes use their
    /// environment's limits): the same as the environment's, usually.
    pub fn with_max_index(mut self, max_index: usize) -> TrackedModel<M> {
        self.max_index = max_index;
        self
    }

    /// The deepest nesting the host's own writes ([`set`](TrackedModel::set),
    /// [`apply_message`](TrackedModel::apply_message)) may make, path tokens and value
    /// together (payload writes use their environment's limits): default
    /// [`Limits::max_depth`], the same as the environment's, usually.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{ErrorCode, JsonPointer, reactive::TrackedModel};
    /// use serde_json::json;
    /// let mut model = TrackedModel::new(json!({})).with_max_depth(2);
    /// model.set(&JsonPointer::parse("/a")?, json!([1]))?;
    /// let err = model.set(&JsonPointer::parse("/a")?, json!([[1]])).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::LimitExceeded);
    /// assert_eq!(model.get(), &json!({"a": [1]}));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn with_max_depth(mut self, max_depth: usize) -> TrackedModel<M> {
        self.max_depth = max_depth;
        self
    }

    /// The wrapped model, to read it.
    pub fn get(&self) -> &M {
        &self.model
    }

    /// The wrapped model, to change it by other means than the [`DataModel`] methods: such
    /// changes are not recorded, say them with [`changes_mut`](TrackedModel::changes_mut).
    pub fn untracked_mut(&mut self) -> &mut M {
        self.bytes.set(None);
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
    /// The host writes `value` at `path` (a keystroke in a text field two-way bound to it),
    /// recorded as a change of `path`. A path through `__proto__`, `constructor` or
    /// `prototype`, or a write the model cannot take, is a `DATA_ERROR` and changes nothing; a
    /// path of more tokens than the depth limit ([`with_max_depth`](TrackedModel::with_max_depth)),
    /// or a value that would nest deeper than it there, is `LIMIT_EXCEEDED` and changes nothing.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::TrackedModel};
    /// use serde_json::json;
    /// let mut model = TrackedModel::new(json!({"query": ""}));
    /// model.set(&JsonPointer::parse("/query")?, json!("rust"))?;
    /// assert!(model.set(&JsonPointer::parse("/query/__proto__")?, json!(1)).is_err());
    /// assert_eq!(model.take_changes().to_strings(), ["/query"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn set(&mut self, path: &JsonPointer, value: Value) -> Result<(), Error> {
        check_pointer(path, self.max_depth)?;
        allowed(path)?;
        let write = Write {
            path: path.clone(),
            value,
        };
        check_write_depth(&write, self.max_depth)?;
        self.apply(vec![write], self.max_index)
    }

    /// Applies an A2UI `updateDataModel` message from the agent: the whole message
    /// (`{"version", "updateDataModel": {…}}`) or its body (`{"surfaceId", "path", "value"}`).
    /// It is read by [`crate::stream::parse_message`], a body as a message without version.
    /// `path` defaults to the root; with `value` the value is written there (v1.0: `value` is
    /// required and `null` removes; before v1.0 and for a body: `null` is written and a missing
    /// `value` removes), else what is there is removed ([`DataModel::remove`]; removing the root leaves an
    /// empty object). The change is recorded as for any write: a removed array element is a
    /// change of its array.
    ///
    /// `{}`, a message without `surfaceId`, a message of the wrong shape, a malformed path, or a
    /// path through a forbidden token is a `DATA_ERROR` and changes nothing; a path or value past
    /// the depth limit, as for [`set`](TrackedModel::set), is `LIMIT_EXCEEDED` and changes
    /// nothing. The surface id is the host's business: it routes the
    /// message to the surface's model before calling this.
    ///
    /// ```
    /// use a2ui_catalog_mcp::reactive::TrackedModel;
    /// use serde_json::json;
    /// let mut model = TrackedModel::new(json!({"rows": ["a", "b"], "user": {"nick": "x"}}));
    /// model.apply_message(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/title", "value": "Hi"}}))?;
    /// model.apply_message(&json!({"surfaceId": "s", "path": "/rows/0"}))?;
    /// model.apply_message(&json!({"surfaceId": "s", "path": "/user/nick"}))?;
    /// assert!(model.apply_message(&json!({"surfaceId": "s", "path": "title"})).is_err());
    /// assert_eq!(model.take_changes().to_strings(), ["/title", "/rows", "/user/nick"]);
    /// assert_eq!(model.get(), &json!({"rows": ["b"], "user": {}, "title": "Hi"}));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn apply_message(&mut self, message: &Value) -> Result<(), Error> {
        let bad = |why: String, at: String| Error::new(ErrorCode::DataError, why).with_location(at);
        // A bare body is read as the body of a message without version (v0.9's rules); `{}`
        // is not a body (it has no surfaceId), so it cannot wipe the model.
        let wrapped;
        let message = match message {
            Value::Object(map)
                if !map.is_empty()
                    && map
                        .keys()
                        .all(|k| matches!(k.as_str(), "surfaceId" | "path" | "value")) =>
            {
                wrapped = Value::Object(
                    std::iter::once(("updateDataModel".to_owned(), message.clone())).collect(),
                );
                &wrapped
            }
            _ => message,
        };
        let options = crate::stream::ParseOptions {
            max_depth: self.max_depth,
            ..Default::default()
        };
        let parsed = crate::stream::parse_message_with(message, options).map_err(|e| {
            if e.category() == crate::stream::Category::Recursion {
                e
            } else {
                let pointer = e.location().to_owned();
                bad(e.message().to_owned(), pointer)
            }
        })?;
        let crate::stream::Body::UpdateDataModel(update) = parsed.body else {
            return Err(bad(
                format!(
                    "not an updateDataModel message: expected an object with \
                     'updateDataModel', or with only 'surfaceId', 'path' and 'value', got a {} message",
                    parsed.kind()
                ),
                String::new(),
            ));
        };
        match update.value {
            Some(value) => self.set(&update.path, value),
            None => {
                check_pointer(&update.path, self.max_depth)?;
                self.remove(&update.path).map(drop)
            }
        }
    }

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

impl<M: DataModel> TrackedModel<M> {
    /// The bytes the model holds, estimated from above (each string and key with its
    /// allocation, each value, array slot and object entry with its struct): what a host that
    /// bounds its models (the surfaces processor, `ProcessorOptions::max_held_bytes`) charges.
    /// The first call walks the model; from then on each write through this wrapper keeps the
    /// figure up to date at the cost of what it writes and what it replaces (each value is
    /// walked once when written and once when replaced or removed), so asking is free.
    ///
    /// ```
    /// use a2ui_catalog_mcp::reactive::TrackedModel;
    /// use a2ui_catalog_mcp::JsonPointer;
    /// use serde_json::json;
    /// let mut model = TrackedModel::new(json!({}));
    /// let empty = model.held_bytes();
    /// model.set(&JsonPointer::parse("/text")?, json!("x".repeat(1000)))?;
    /// assert!(model.held_bytes() > empty + 1000);
    /// model.set(&JsonPointer::parse("/text")?, json!(null))?;
    /// assert!(model.held_bytes() < empty + 200);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn held_bytes(&mut self) -> usize {
        self.held_bytes_now()
    }

    /// [`held_bytes`](TrackedModel::held_bytes) from a shared reference: a processor sums its
    /// surfaces' figures while it judges a message. Measured once when unknown, then kept.
    pub(crate) fn held_bytes_now(&self) -> usize {
        if let Some(bytes) = self.bytes.get() {
            return bytes;
        }
        let bytes = self.model.read(&JsonPointer::root()).map_or(0, |v| {
            crate::json::value_bytes(&v, usize::MAX).unwrap_or(usize::MAX)
        });
        self.bytes.set(Some(bytes));
        bytes
    }

    /// Where a write at `path` changes what the model holds, before it is made.
    fn spot(&self, path: &JsonPointer) -> Spot {
        // The common case: the path is there, the write replaces what it holds.
        if let Some(old) = self.model.read(path) {
            return Spot {
                before: content_bytes(&old),
                path: path.clone(),
                slot: None,
            };
        }
        let tokens = path.tokens();
        // Existence is monotone along a path's prefixes: the shallowest missing one is found
        // by bisection (the root and, from above, not the whole path).
        let exists = |k: usize| {
            self.model
                .read(&JsonPointer::from_tokens(
                    tokens[..k].iter().map(String::as_str),
                ))
                .is_some()
        };
        let (mut lo, mut hi) = (0, tokens.len()); // exists(lo), !exists(hi)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if exists(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let parent = JsonPointer::from_tokens(tokens[..lo].iter().map(String::as_str));
        let token = &tokens[lo];
        let held = self.model.read(&parent);
        let index = token.parse::<usize>();
        let slot = match (held.as_deref(), index) {
            (Some(Value::Object(_)), _) => token.len() + crate::json::ENTRY_BYTES,
            // Writing past an array's end pads it with nulls.
            (Some(Value::Array(items)), Ok(i)) => {
                (i + 1).saturating_sub(items.len()) * std::mem::size_of::<Value>()
            }
            // A write through a scalar (or a name in an array) replaces the parent: measured
            // whole.
            (other, _) => {
                return Spot {
                    before: other.map_or(0, content_bytes),
                    path: parent,
                    slot: None,
                };
            }
        };
        Spot {
            path: JsonPointer::from_tokens(tokens[..hi].iter().map(String::as_str)),
            before: 0,
            slot: Some(slot),
        }
    }

    /// What the spot holds once the write is made.
    fn after(&self, spot: &Spot) -> usize {
        match self.model.read(&spot.path) {
            Some(v) => content_bytes(&v) + spot.slot.unwrap_or(0),
            None => 0,
        }
    }
}

/// The kept figure of [`TrackedModel::held_bytes`]: atomic so that asking through a shared
/// reference can keep what it measured (`usize::MAX`: unknown).
#[derive(Debug)]
struct KeptBytes(std::sync::atomic::AtomicUsize);

impl KeptBytes {
    const UNKNOWN: usize = usize::MAX;

    fn get(&self) -> Option<usize> {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            KeptBytes::UNKNOWN => None,
            bytes => Some(bytes),
        }
    }

    fn set(&self, bytes: Option<usize>) {
        // A figure of usize::MAX (a model past measuring) stays unknown: measured again.
        let value = bytes.unwrap_or(KeptBytes::UNKNOWN);
        self.0.store(value, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for KeptBytes {
    fn default() -> KeptBytes {
        KeptBytes(std::sync::atomic::AtomicUsize::new(KeptBytes::UNKNOWN))
    }
}

impl Clone for KeptBytes {
    fn clone(&self) -> KeptBytes {
        KeptBytes(std::sync::atomic::AtomicUsize::new(
            self.0.load(std::sync::atomic::Ordering::Relaxed),
        ))
    }
}

/// What a write changes the model's bytes at: the path measured (the write's own, or the
/// shallowest part of it the write creates), what was there, and for a part the write creates
/// what its slot in the parent costs.
struct Spot {
    path: JsonPointer,
    before: usize,
    slot: Option<usize>,
}

/// A value's bytes without its own struct (counted by the slot that holds it).
fn content_bytes(value: &Value) -> usize {
    crate::json::value_bytes(value, usize::MAX)
        .unwrap_or(usize::MAX)
        .saturating_sub(std::mem::size_of::<Value>())
}

/// The paths of a group of writes that no other path of the group lies under: the subtrees
/// the group changes, each once.
fn tops(paths: &[JsonPointer]) -> Vec<&JsonPointer> {
    let mut sorted: Vec<&JsonPointer> = paths.iter().collect();
    sorted.sort_by_key(|p| p.tokens().len());
    let mut chosen: std::collections::HashSet<&[String]> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in sorted {
        let tokens = path.tokens();
        if (0..=tokens.len()).any(|k| chosen.contains(&tokens[..k])) {
            continue;
        }
        chosen.insert(tokens);
        out.push(path);
    }
    out
}

impl<M: DataModel> DataModel for TrackedModel<M> {
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        self.model.read(path)
    }

    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
        let paths: Vec<JsonPointer> = writes.iter().map(|w| w.path.clone()).collect();
        // The common case, one write replacing what a path holds: what it held is read once,
        // what it will hold is the value written.
        if let (Some(bytes), [write]) = (self.bytes.get(), writes.as_slice())
            && let Some(before) = self.model.read(&write.path).map(|old| content_bytes(&old))
        {
            let after = content_bytes(&write.value);
            self.model.apply(writes, max_index)?;
            self.bytes
                .set(Some(bytes.saturating_sub(before).saturating_add(after)));
            self.changes.extend(paths);
            return Ok(());
        }
        let mut spots: Vec<Spot> = Vec::new();
        if self.bytes.get().is_some() {
            for top in tops(&paths) {
                let spot = self.spot(top);
                // Two writes creating the same missing parent measure it once.
                if !spots.iter().any(|s| s.path == spot.path) {
                    spots.push(spot);
                }
            }
        }
        self.model.apply(writes, max_index)?;
        if let Some(bytes) = self.bytes.get() {
            let before: usize = spots.iter().map(|s| s.before).sum();
            let after: usize = spots.iter().map(|s| self.after(s)).sum();
            self.bytes
                .set(Some(bytes.saturating_sub(before).saturating_add(after)));
        }
        self.changes.extend(paths);
        Ok(())
    }

    /// Removes through the wrapped model and records the change (nothing when nothing was
    /// there): an array element is a change of its array, anything else a change of `path`. A
    /// path through a forbidden token is refused, as for a write.
    fn remove(&mut self, path: &JsonPointer) -> Result<bool, Error> {
        allowed(path)?;
        let parent_is_array = match path.tokens().split_last() {
            Some((_, parent)) => {
                let parent = JsonPointer::from_tokens(parent.iter().map(String::as_str));
                self.model.read(&parent).is_some_and(|v| v.is_array())
            }
            None => false,
        };
        let held = match self.bytes.get() {
            Some(_) => self.model.read(path).map(|v| {
                content_bytes(&v)
                    + match path.tokens().last() {
                        Some(key) if !parent_is_array => key.len() + crate::json::ENTRY_BYTES,
                        _ => std::mem::size_of::<Value>(),
                    }
            }),
            None => None,
        };
        let removed = self.model.remove(path)?;
        if removed && let (Some(bytes), Some(held)) = (self.bytes.get(), held) {
            // Removing the root leaves an empty object, measured again when asked.
            self.bytes.set(if path.tokens().is_empty() {
                None
            } else {
                Some(bytes.saturating_sub(held))
            });
        }
        if removed {
            self.changes.record_removal(path.clone(), parent_is_array);
        }
        Ok(removed)
    }
}

/// Refuses the paths payloads may not write either.
fn allowed(path: &JsonPointer) -> Result<(), Error> {
    if path.has_forbidden_token() {
        return Err(Error::new(
            ErrorCode::DataError,
            format!(
                "cannot write '{path}': the tokens __proto__, constructor and prototype are reserved"
            ),
        ));
    }
    Ok(())
}

impl Payload {
    /// [`eval_in`](Payload::eval_in), recording in `changes` the paths the evaluation wrote, in
    /// the order written, after those already there (a renderer gathers a frame's writes in one
    /// change set).
    ///
    /// Only writes that happened are recorded: a chain that fails writes nothing (its group is
    /// rolled back or never applied), while a write that completed before the failure (an
    /// earlier sibling's `updateDataModel`) stays and is recorded, so read `changes` whether the
    /// evaluation succeeded or not. For payloads that call tools, wrap the store in a
    /// [`TrackedModel`] inside the [`SharedModel`](crate::SharedModel) instead.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer, reactive::ChangeSet};
    /// use serde_json::json;
    ///
    /// let env = Environment::new();
    /// let select = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"selected": true, "/last": {"@path": "name"}}}}))?;
    /// let mut model = json!({"rows": [{"name": "a"}]});
    /// let mut frame = ChangeSet::new();
    /// select.eval_tracked(&mut model, &JsonPointer::parse("/rows/0")?, &mut frame)?;
    /// assert_eq!(frame.to_strings(), ["/rows/0/selected", "/last"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn eval_tracked<M: DataModel + ?Sized>(
        &self,
        model: &mut M,
        context: &JsonPointer,
        changes: &mut ChangeSet,
    ) -> Result<Value, Error> {
        let mut tracked = TrackedModel::new(model);
        let result = self.eval_in(&mut tracked, context);
        changes.merge(tracked.changes);
        result
    }
}

// The tests drive tool calls through the scripted server of `testing`.
#[cfg(all(test, feature = "testing"))]
mod tests;
