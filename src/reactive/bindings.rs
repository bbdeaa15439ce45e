//! [`Bindings`]: a renderer's bound values, recomputed only where a change set reaches them.

use super::runs::{Run, Runs, Ticket};
use super::{ChangeSet, PathIndex, TrackedModel, json_eq};
use crate::error::{Error, ErrorCode};
use crate::mcp::McpHost;
use crate::model::{DataModel, SharedModel};
use crate::path::JsonPointer;
use crate::payload::Payload;
use serde_json::Value;
use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::Arc;

/// The state of one bound value.
#[derive(Debug)]
pub enum ValueState {
    /// The value, evaluated.
    Ready(Value),
    /// A run that calls a tool is in flight; `previous` is the value to keep showing (none
    /// before the first run completes).
    Pending {
        /// The last value the key had, if any.
        previous: Option<Value>,
    },
    /// The last evaluation failed; `previous` is the last value the key had, unchanged.
    Failed {
        /// Why it failed.
        error: Error,
        /// The last value the key had, if any.
        previous: Option<Value>,
    },
}

impl ValueState {
    /// The value to show: the ready value, or the previous one while pending or failed.
    pub fn value(&self) -> Option<&Value> {
        match self {
            ValueState::Ready(v) => Some(v),
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => {
                previous.as_ref()
            }
        }
    }

    /// Whether a run is in flight.
    pub fn is_pending(&self) -> bool {
        matches!(self, ValueState::Pending { .. })
    }

    /// The error of the last evaluation, when it failed.
    pub fn error(&self) -> Option<&Error> {
        match self {
            ValueState::Failed { error, .. } => Some(error),
            _ => None,
        }
    }

    fn into_value(self) -> Option<Value> {
        match self {
            ValueState::Ready(v) => Some(v),
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => previous,
        }
    }
}

/// A key whose state changed: redraw what shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change<K> {
    /// The key.
    pub key: K,
    /// Where its value changed, when every change that reached it lies strictly under a path
    /// it reads: those changed paths (absolute, in write order). A list bound to `/rows` whose
    /// row 3 was edited gets `["/rows/3/name"]`, and can redraw that row alone. Empty when the
    /// value changed as a whole: a change at or above a path it reads (the list was replaced),
    /// a key evaluated for the first time, or a change of state (pending, failed, ready again).
    pub under: Vec<JsonPointer>,
}

struct Entry {
    payload: Arc<Payload>,
    context: JsonPointer,
    /// The dependencies, as registered in the index.
    deps: Vec<JsonPointer>,
    /// `None` until the key is first evaluated.
    state: Option<ValueState>,
    /// Registered (or registered again) since the last recompute: evaluated by the next one.
    fresh: bool,
}

/// A renderer's bound values: for each key of its choosing (a component id and property, a
/// template row), a compiled payload, its data context and its last state. After a batch of
/// changes, [`recompute`](Bindings::recompute) evaluates only the keys the changes affect (the
/// rule of [`affects`](super::affects), through a [`PathIndex`]), and reports only those whose
/// value changed by [`json_eq`]: the renderer redraws those.
///
/// Values are evaluated read-only ([`Payload::eval_read`]): a bound value reads the model and
/// never writes it, so [`register`](Bindings::register) refuses a payload that may write (an
/// action, run when the user acts, is not a binding). A value that calls a tool
/// ([`Payload::calls_tools`]) cannot be evaluated synchronously: recomputing it makes it
/// [`Pending`](ValueState::Pending) and queues a [`ToolRun`] for the renderer to drive (see
/// [`take_tool_runs`](Bindings::take_tool_runs)); a newer run supersedes an older one.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, JsonPointer};
/// use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel};
/// use serde_json::json;
/// use std::sync::Arc;
///
/// let env = Environment::new();
/// let title = Arc::new(env.compile(&json!({"@path": "/title"}))?);
/// let row = Arc::new(env.compile(&json!({"@path": "name"}))?);
/// let mut model = TrackedModel::new(json!({"title": "Files", "rows": [{"name": "a"}, {"name": "b"}]}));
///
/// let mut bindings = Bindings::new();
/// bindings.register("title".to_string(), title, JsonPointer::root())?;
/// for i in 0..2 {
///     bindings.register(format!("row {i}"), row.clone(), JsonPointer::parse(&format!("/rows/{i}"))?)?;
/// }
/// // The first recompute evaluates every key.
/// assert_eq!(bindings.refresh(&mut model).len(), 3);
///
/// // A keystroke edits row 1; writing the same title again changes nothing visible.
/// model.set(&JsonPointer::parse("/rows/1/name")?, json!("b2"))?;
/// model.set(&JsonPointer::parse("/title")?, json!("Files"))?;
/// let changed = bindings.refresh(&mut model);
/// assert_eq!(changed.len(), 1);
/// assert_eq!(changed[0].key, "row 1");
/// assert_eq!(bindings.value("row 1"), Some(&json!("b2")));
/// assert_eq!(bindings.evaluations(), 5); // 3 at first, then row 1 and the title
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub struct Bindings<K> {
    index: PathIndex<K>,
    entries: HashMap<K, Entry>,
    /// Keys registered since the last recompute (some may have been unregistered since).
    fresh: Vec<K>,
    runs: Runs<K>,
    tool_runs: Vec<ToolRun<K>>,
    evaluations: u64,
}

impl<K> std::fmt::Debug for Bindings<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bindings")
            .field("keys", &self.entries.len())
            .field("evaluations", &self.evaluations)
            .finish_non_exhaustive()
    }
}

impl<K: Eq + Hash + Clone> Default for Bindings<K> {
    fn default() -> Bindings<K> {
        Bindings::new()
    }
}

/// What one evaluation of a key gave.
enum Outcome {
    Evaluated(Result<Value, Error>),
    /// A tool run was started.
    Started,
}

/// The new state after `outcome`, and whether it differs from `old` (by [`json_eq`] for
/// values; by code, function, location and message for errors).
fn settle(old: Option<ValueState>, outcome: Outcome) -> (ValueState, bool) {
    match outcome {
        Outcome::Evaluated(Ok(value)) => {
            let same = matches!(&old, Some(ValueState::Ready(o)) if json_eq(o, &value));
            (ValueState::Ready(value), !same)
        }
        Outcome::Evaluated(Err(error)) => {
            let same =
                matches!(&old, Some(ValueState::Failed { error: e, .. }) if same_error(e, &error));
            let previous = old.and_then(ValueState::into_value);
            (ValueState::Failed { error, previous }, !same)
        }
        Outcome::Started => {
            let same = matches!(&old, Some(ValueState::Pending { .. }));
            let previous = old.and_then(ValueState::into_value);
            (ValueState::Pending { previous }, !same)
        }
    }
}

fn same_error(a: &Error, b: &Error) -> bool {
    (a.code(), a.function(), a.location(), a.message())
        == (b.code(), b.function(), b.location(), b.message())
}

impl<K: Eq + Hash + Clone> Bindings<K> {
    /// No bindings.
    pub fn new() -> Bindings<K> {
        Bindings {
            index: PathIndex::new(),
            entries: HashMap::new(),
            fresh: Vec::new(),
            runs: Runs::new(),
            tool_runs: Vec::new(),
            evaluations: 0,
        }
    }

    /// Binds `key` to `payload` evaluated in `context` (the root, or a template row). The next
    /// [`recompute`](Bindings::recompute) evaluates it whatever changed. A key already bound
    /// is bound again (its pending run, if any, is superseded) and keeps its state until then,
    /// so that an equal value is not reported.
    ///
    /// One compiled payload serves every row of a template: share it through the [`Arc`].
    ///
    /// A payload that may write ([`Payload::may_write`]) is refused (`DATA_ERROR`): bound
    /// values only read. A context of more tokens than the payload's
    /// [`Limits::max_depth`](crate::Limits::max_depth) is refused (`LIMIT_EXCEEDED`).
    pub fn register(
        &mut self,
        key: K,
        payload: Arc<Payload>,
        context: JsonPointer,
    ) -> Result<(), Error> {
        if payload.may_write() {
            return Err(Error::new(
                ErrorCode::DataError,
                "a bound value must not write to the data model: this payload may write \
                 (updateDataModel, a callMcpTool targetDataPath, or a host function that \
                 declares writes); run it as an action instead",
            ));
        }
        // A context longer than any path a write may make is an agent's attack, not a row.
        crate::path::check_pointer(&context, payload.limits().max_depth)?;
        let deps = payload.dependencies(&context);
        self.index.register(key.clone(), &deps);
        self.runs.cancel_with(&key, false);
        let state = self.entries.remove(&key).and_then(|e| e.state);
        self.entries.insert(
            key.clone(),
            Entry {
                payload,
                context,
                deps,
                state,
                fresh: true,
            },
        );
        self.fresh.push(key);
        Ok(())
    }

    /// Unbinds `key` (its pending run, if any, is superseded). Returns whether it was bound;
    /// an unknown key is a no-op.
    pub fn unregister<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.index.unregister(key);
        self.runs.cancel_with(key, false);
        self.entries.remove(key).is_some()
    }

    /// Whether `key` is bound.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.entries.contains_key(key)
    }

    /// How many keys are bound.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key is bound.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The state of `key` (`None` for an unknown key, or one not evaluated yet).
    pub fn state<Q>(&self, key: &Q) -> Option<&ValueState>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.entries.get(key)?.state.as_ref()
    }

    /// The value to show for `key`: its [`ValueState::value`].
    pub fn value<Q>(&self, key: &Q) -> Option<&Value>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.state(key)?.value()
    }

    /// The absolute paths `key` reads, sorted (see [`Payload::dependencies`]).
    pub fn dependencies<Q>(&self, key: &Q) -> Option<&[JsonPointer]>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        Some(&self.entries.get(key)?.deps)
    }

    /// How many evaluations the bindings have made so far (synchronous evaluations and tool
    /// runs started): a renderer's tests use it to check that a change recomputes only what it
    /// affects.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Evaluates the keys registered since the last call and the keys `changes` affects,
    /// reading `model` (the model after the changes), and returns the keys whose state changed,
    /// each once, in no particular order. Nothing else is evaluated: the cost is the depth of
    /// the changes, plus one evaluation per affected key, whatever else is bound.
    ///
    /// A value that calls a tool becomes [`Pending`](ValueState::Pending) (reported when it
    /// was not pending already) and queues a [`ToolRun`]: take them with
    /// [`take_tool_runs`](Bindings::take_tool_runs).
    pub fn recompute<M: DataModel + ?Sized>(
        &mut self,
        model: &M,
        changes: &ChangeSet,
    ) -> Vec<Change<K>> {
        let mut out = Vec::new();
        let mut evaluated: HashSet<K> = HashSet::new();
        for key in std::mem::take(&mut self.fresh) {
            match self.entries.get_mut(&key) {
                Some(entry) if entry.fresh => entry.fresh = false,
                _ => continue,
            }
            let changed = self.update(&key, model);
            if !changes.is_empty() {
                evaluated.insert(key.clone());
            }
            if changed {
                out.push(Change {
                    key,
                    under: Vec::new(),
                });
            }
        }
        if changes.is_empty() {
            return out;
        }
        // The changes as an index of their own, built when a value first needs to know where
        // it changed: which changes lie at or above a path it reads, which under.
        let mut located: Option<PathIndex<u32>> = None;
        for key in self.index.affected(changes) {
            if evaluated.contains(&key) {
                continue;
            }
            let was_ready = matches!(
                self.entries.get(&key).and_then(|e| e.state.as_ref()),
                Some(ValueState::Ready(_))
            );
            if !self.update(&key, model) {
                continue;
            }
            let is_ready = matches!(
                self.entries.get(&key).and_then(|e| e.state.as_ref()),
                Some(ValueState::Ready(_))
            );
            let under = match (was_ready && is_ready, self.entries.get(&key)) {
                (true, Some(entry)) => {
                    let located = located.get_or_insert_with(|| index_changes(changes));
                    changes_under(located, &entry.deps, changes)
                }
                _ => Vec::new(),
            };
            out.push(Change { key, under });
        }
        out
    }

    /// Takes the changes `model` recorded ([`TrackedModel::take_changes`]) and
    /// [`recompute`](Bindings::recompute)s with them: what a renderer calls once per frame.
    pub fn refresh<M: DataModel>(&mut self, model: &mut TrackedModel<M>) -> Vec<Change<K>> {
        let changes = model.take_changes();
        self.recompute(model.get(), &changes)
    }

    /// Evaluates one key (or starts its tool run); returns whether its state changed.
    fn update<M: DataModel + ?Sized>(&mut self, key: &K, model: &M) -> bool {
        let Some(entry) = self.entries.get_mut(key) else {
            return false;
        };
        self.evaluations += 1;
        let outcome = if entry.payload.calls_tools() {
            // Bound values do not write, so the older run need not be waited for: its result is
            // refused by `finish`. The renderer may be holding the model's lock here.
            let ticket = self.runs.start_with(key.clone(), false);
            self.tool_runs.push(ToolRun {
                key: key.clone(),
                payload: entry.payload.clone(),
                context: entry.context.clone(),
                ticket,
            });
            Outcome::Started
        } else {
            Outcome::Evaluated(entry.payload.eval_read(model, &entry.context))
        };
        let (state, changed) = settle(entry.state.take(), outcome);
        entry.state = Some(state);
        changed
    }

    /// The tool runs queued by [`recompute`](Bindings::recompute) since the last call, for the
    /// renderer to drive ([`ToolRun::eval`]) on its executor, handing each result back to
    /// [`finish`](Bindings::finish). A run queued for a key recomputed again since is already
    /// superseded: it completes at once without calling anything.
    pub fn take_tool_runs(&mut self) -> Vec<ToolRun<K>> {
        std::mem::take(&mut self.tool_runs)
    }

    /// Records the result of a tool run: the key becomes [`Ready`](ValueState::Ready), or
    /// [`Failed`](ValueState::Failed) keeping its previous value. Returns the change to redraw,
    /// or `None` when the run was superseded (a later run of the key started, the key was
    /// unbound or bound again: the older result is never shown) or nothing changed.
    pub fn finish(&mut self, done: ToolDone<K>) -> Option<Change<K>> {
        let ToolDone {
            key,
            ticket,
            result,
        } = done;
        let result = result?;
        if !ticket.is_current() {
            return None;
        }
        let entry = self.entries.get_mut(&key)?;
        let (state, changed) = settle(entry.state.take(), Outcome::Evaluated(result));
        entry.state = Some(state);
        changed.then_some(Change {
            key,
            under: Vec::new(),
        })
    }
}

/// Each change as a key of an index, numbered in write order.
fn index_changes(changes: &ChangeSet) -> PathIndex<u32> {
    let mut index = PathIndex::new();
    for (i, path) in changes.iter().enumerate() {
        // A change set larger than u32 counts would not fit in memory.
        index.register(
            u32::try_from(i).unwrap_or(u32::MAX),
            std::slice::from_ref(path),
        );
    }
    index
}

/// The changes strictly under the paths in `deps`, in write order; empty when any change lies
/// at or above one of them (the value was replaced as a whole). Costs the depth of the paths
/// plus the changes found: nested paths (`/rows` and `/rows/1`) are walked once, from the
/// outer one.
fn changes_under(
    located: &PathIndex<u32>,
    deps: &[JsonPointer],
    changes: &ChangeSet,
) -> Vec<JsonPointer> {
    if deps.iter().any(|d| located.any_at_or_above(d)) {
        return Vec::new();
    }
    let mut outer: Vec<&JsonPointer> = deps.iter().collect();
    // By tokens, a path's descendants follow it directly.
    outer.sort_unstable();
    let mut found = Vec::new();
    let mut last: Option<&JsonPointer> = None;
    for dep in outer {
        if last.is_some_and(|l| dep.tokens().starts_with(l.tokens())) {
            continue;
        }
        last = Some(dep);
        located.strictly_below(dep, &mut found);
    }
    found.sort_unstable();
    found.dedup();
    found
        .into_iter()
        .filter_map(|i| changes.get(i as usize).cloned())
        .collect()
}

/// A run of a value that calls a tool, queued by [`Bindings::recompute`]: evaluate it with
/// [`eval`](ToolRun::eval) on any executor and hand the result to [`Bindings::finish`].
#[derive(Debug)]
pub struct ToolRun<K> {
    key: K,
    payload: Arc<Payload>,
    context: JsonPointer,
    ticket: Ticket,
}

impl<K> ToolRun<K> {
    /// The key the run computes.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// Whether no later run of the same key has started.
    pub fn is_current(&self) -> bool {
        self.ticket.is_current()
    }

    /// Evaluates the payload with [`Payload::eval_async`] against `model` and `host`. Once a
    /// later run of the key starts, this one stops at its next poll (dropping its pending
    /// call) and its result is not kept. The future needs no particular runtime.
    pub async fn eval<M: DataModel + Send>(
        self,
        model: &SharedModel<M>,
        host: &McpHost,
    ) -> ToolDone<K> {
        let ToolRun {
            key,
            payload,
            context,
            ticket,
        } = self;
        let check = ticket.clone();
        let run: Run<_> = ticket.run(payload.eval_async(model, &context, host));
        let result = run.await;
        ToolDone {
            key,
            ticket: check,
            result,
        }
    }
}

/// The result of a [`ToolRun`], for [`Bindings::finish`].
#[derive(Debug)]
pub struct ToolDone<K> {
    key: K,
    ticket: Ticket,
    /// `None` when the run was superseded before it completed.
    result: Option<Result<Value, Error>>,
}

impl<K> ToolDone<K> {
    /// The key the run computed.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The run's result; `None` when it was superseded before it completed.
    pub fn result(&self) -> Option<&Result<Value, Error>> {
        self.result.as_ref()
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests;
