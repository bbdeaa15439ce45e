//! [`Bindings`]: a renderer's bound values, recomputed only where a change set reaches them.

use super::runs::{Run, Runs, Ticket};
use super::{ChangeSet, PathIndex, TrackedModel, json_eq};
use crate::error::{Error, ErrorCode};
use crate::mcp::McpHost;
use crate::model::{DataModel, SharedModel};
use crate::path::JsonPointer;
use crate::payload::Payload;
use serde_json::Value;
use std::borrow::{Borrow, Cow};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::Arc;

/// The state of one bound value.
///
/// Values are shared, never copied per key: a computed value is held once in an [`Arc`] for
/// every key bound to the same payload in the same context, and a bare binding
/// (`{"@path": P}`) holds no value at all, [`Bound`](ValueState::Bound): the renderer reads it
/// in the model, through [`Bindings::value`].
#[derive(Debug)]
pub enum ValueState {
    /// The value, evaluated.
    Ready(Arc<Value>),
    /// A bare binding (`{"@path": P}`): its value is whatever the model holds at `P` (`null`
    /// when nothing is there), read in place with [`Bindings::value`], never evaluated nor
    /// copied. It changed exactly when a change reached `P`.
    Bound,
    /// A run that calls a tool is in flight; `previous` is the value to keep showing (none
    /// before the first run completes).
    Pending {
        /// The last value the key had, if any.
        previous: Option<Arc<Value>>,
    },
    /// The last evaluation failed; `previous` is the last value the key had, unchanged.
    Failed {
        /// Why it failed.
        error: Error,
        /// The last value the key had, if any.
        previous: Option<Arc<Value>>,
    },
}

impl ValueState {
    /// The computed value to show: the ready value, or the previous one while pending or
    /// failed. `None` for [`Bound`](ValueState::Bound), whose value is in the model (read it
    /// with [`Bindings::value`], which covers both).
    pub fn value(&self) -> Option<&Value> {
        match self {
            ValueState::Ready(v) => Some(v),
            ValueState::Bound => None,
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => {
                previous.as_deref()
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

    fn into_value(self) -> Option<Arc<Value>> {
        match self {
            ValueState::Ready(v) => Some(v),
            ValueState::Bound => None,
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => previous,
        }
    }

    /// The state without its error, sharing the value: what a key moving to a new value starts
    /// from.
    fn snapshot(&self) -> Option<ValueState> {
        match self {
            ValueState::Ready(v) => Some(ValueState::Ready(v.clone())),
            ValueState::Bound => None,
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => {
                Some(ValueState::Pending {
                    previous: previous.clone(),
                })
            }
        }
    }

    /// Whether the value is current (not pending, not failed).
    fn is_ready(&self) -> bool {
        matches!(self, ValueState::Ready(_) | ValueState::Bound)
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
    ///
    /// Shared by every key of the value (keys bound to the same value get the same list).
    pub under: Arc<[JsonPointer]>,
    /// For a template ([`Bindings::register_template`]): which rows appeared, disappeared,
    /// moved or changed. `None` for other keys.
    pub rows: Option<Box<RowChanges>>,
}

/// What changed in a template's rows ([`Bindings::register_template`]), for the renderer to
/// update those rows alone: apply `removed` (rows after each moved up by one), then drop the
/// `disappeared` rows, add the `appeared` ones, and redraw the `changed` ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowChanges {
    /// How many rows there are now.
    pub len: usize,
    /// Rows removed, in order, each by its index when it was removed (an element removed from
    /// the array with [`DataModel::remove`], recorded by [`ChangeSet::record_removal`]).
    pub removed: Vec<usize>,
    /// New rows at the end (after the removals): indices in the array now.
    pub appeared: std::ops::Range<usize>,
    /// Rows gone from the end (after the removals): indices they had.
    pub disappeared: std::ops::Range<usize>,
    /// Rows (indices now) whose value changed, sorted; the appeared rows are not listed.
    pub changed: Vec<usize>,
    /// The array was replaced (a change at or above it), or the template is new: every row
    /// is listed in `changed` or `appeared`.
    pub replaced: bool,
}

impl RowChanges {
    fn is_empty(&self) -> bool {
        self.removed.is_empty()
            && self.appeared.is_empty()
            && self.disappeared.is_empty()
            && self.changed.is_empty()
            && !self.replaced
    }
}

/// A value's dense handle: one per distinct (payload, data context), shared by every key bound
/// to it.
type UnitId = u32;

/// What the index holds: a value, or a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Slot {
    Unit(UnitId),
    Template(u32),
}

/// A template's per-row property: one payload evaluated in each element of an array.
struct Template<K> {
    key: K,
    array: JsonPointer,
    payload: Arc<Payload>,
    /// The row's context below its element (`array/i/item`).
    item: Vec<String>,
    /// A bare relative binding: what each row reads, below its element.
    bare: Option<Vec<String>>,
    /// What each row reads below its element (the item context joined with each relative path).
    row_deps: Vec<Vec<String>>,
    /// The absolute paths every row reads.
    abs_deps: Vec<JsonPointer>,
    /// Each row's state, for a computed payload (empty for a bare one).
    rows: Vec<ValueState>,
    /// The row count at the last refresh.
    len: usize,
    fresh: bool,
}

impl<K> Template<K> {
    fn row_context(&self, row: usize) -> JsonPointer {
        let mut context = self.array.clone();
        context.push(row.to_string());
        for token in &self.item {
            context.push(token.clone());
        }
        context
    }
}

/// What makes two bindings one value: the same absolute path for bare bindings (as the web
/// reference keeps one signal per path, whichever payload object names it), the same compiled
/// payload (by identity) in the same context otherwise. A payload that reads no relative path
/// has one value in every context.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Identity {
    Path(JsonPointer),
    Computed(usize, JsonPointer),
}

/// One distinct value and the keys bound to it.
struct Unit<K> {
    payload: Arc<Payload>,
    /// The data context (the root for a bare binding, whose path is already absolute).
    context: JsonPointer,
    /// The dependencies, as registered in the index (a bare binding's single path).
    deps: Vec<JsonPointer>,
    /// A bare binding: its value is read in the model, never evaluated.
    bare: bool,
    /// `None` until first evaluated.
    state: Option<ValueState>,
    /// The keys bound to this value; each key knows its position here.
    keys: Vec<K>,
    /// Registered (or bound again) since the last recompute: evaluated by the next one.
    fresh: bool,
}

impl<K> Unit<K> {
    /// What makes the unit one value (rebuilt when it is dropped rather than kept: it repeats
    /// the path or the context, and memory per key counts).
    fn identity(&self) -> Identity {
        if self.bare {
            Identity::Path(self.deps[0].clone())
        } else {
            Identity::Computed(Arc::as_ptr(&self.payload) as usize, self.context.clone())
        }
    }
}

/// A renderer's bound values: for each key of its choosing (a component id and property, a
/// template row), a compiled payload, its data context and its last state. After a batch of
/// changes, [`recompute`](Bindings::recompute) refreshes only the values the changes affect (the
/// rule of [`affects`](super::affects), through a [`PathIndex`]), and reports the keys whose
/// value changed: the renderer redraws those.
///
/// What a refresh costs is what the changes reach, whatever the size of the values:
///
/// - a bare binding (`{"@path": P}`) is neither evaluated nor copied: it changed exactly when
///   a change reached `P`, and its value is read in the model ([`value`](Bindings::value) lends
///   it);
/// - a computed value is evaluated again and reported only when it differs from the previous
///   one by [`json_eq`]; it is held once, in an [`Arc`];
/// - keys bound to the same compiled payload in the same context (or to bare bindings of the
///   same absolute path) share one value and one evaluation.
///
/// Values are evaluated read-only ([`Payload::eval_read`]): a bound value reads the model and
/// never writes it, so [`register`](Bindings::register) refuses a payload that may write (an
/// action, run when the user acts, is not a binding). A value that calls a tool
/// ([`Payload::calls_tools`]) cannot be evaluated synchronously: recomputing it makes it
/// [`Pending`](ValueState::Pending) and queues a [`BindingRun`] for the renderer to drive (see
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
/// let count = Arc::new(env.compile(&json!({"@call": "transformData",
///     "args": {"data": {"@path": "/rows"}, "jmespath": "length(@)"}}))?);
/// let row = Arc::new(env.compile(&json!({"@path": "name"}))?);
/// let mut model = TrackedModel::new(json!({"title": "Files", "rows": [{"name": "a"}, {"name": "b"}]}));
///
/// let mut bindings = Bindings::new();
/// bindings.register("title".to_string(), title, JsonPointer::root())?;
/// bindings.register("count".to_string(), count, JsonPointer::root())?;
/// for i in 0..2 {
///     bindings.register(format!("row {i}"), row.clone(), JsonPointer::parse(&format!("/rows/{i}"))?)?;
/// }
/// // The first recompute reports every key; only the count is evaluated, the bare bindings
/// // are read in the model.
/// assert_eq!(bindings.refresh(&mut model).len(), 4);
/// assert_eq!(bindings.evaluations(), 1);
///
/// // A keystroke edits row 1: row 1 changed (no evaluation), the count is evaluated again and
/// // is still 2, so it is not reported.
/// model.set(&JsonPointer::parse("/rows/1/name")?, json!("b2"))?;
/// let changed = bindings.refresh(&mut model);
/// assert_eq!(changed.len(), 1);
/// assert_eq!(changed[0].key, "row 1");
/// assert_eq!(bindings.value("row 1", model.get()).as_deref(), Some(&json!("b2")));
/// assert_eq!(bindings.evaluations(), 2);
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub struct Bindings<K> {
    index: PathIndex<Slot>,
    templates: Vec<Option<Template<K>>>,
    free_templates: Vec<u32>,
    template_keys: HashMap<K, u32>,
    fresh_templates: Vec<u32>,
    units: Vec<Option<Unit<K>>>,
    free_units: Vec<UnitId>,
    by_identity: HashMap<Identity, UnitId>,
    /// Each key's value, and its position in that value's `keys`.
    keys: HashMap<K, (UnitId, u32)>,
    /// Values registered since the last recompute (some may have been dropped since).
    fresh: Vec<UnitId>,
    runs: Runs<UnitId>,
    tool_runs: Vec<BindingRun<K>>,
    evaluations: u64,
    recomputed: u64,
}

impl<K> std::fmt::Debug for Bindings<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bindings")
            .field("keys", &self.keys.len())
            .field("values", &self.by_identity.len())
            .field("evaluations", &self.evaluations)
            .finish_non_exhaustive()
    }
}

impl<K: Eq + Hash + Clone> Default for Bindings<K> {
    fn default() -> Bindings<K> {
        Bindings::new()
    }
}

/// What one refresh of a value gave.
enum Outcome {
    Evaluated(Result<Value, Error>),
    /// A tool run was started.
    Started,
    /// A bare binding reached by a change (or new): changed, by definition.
    Bound,
}

/// The new state after `outcome`, and whether it differs from `old` (by [`json_eq`] for
/// values; by code, function, location and message for errors).
fn settle(old: Option<ValueState>, outcome: Outcome) -> (ValueState, bool) {
    match outcome {
        Outcome::Evaluated(Ok(value)) => match old {
            Some(ValueState::Ready(o)) if json_eq(&o, &value) => (ValueState::Ready(o), false),
            _ => (ValueState::Ready(Arc::new(value)), true),
        },
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
        Outcome::Bound => (ValueState::Bound, true),
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
            templates: Vec::new(),
            free_templates: Vec::new(),
            template_keys: HashMap::new(),
            fresh_templates: Vec::new(),
            units: Vec::new(),
            free_units: Vec::new(),
            by_identity: HashMap::new(),
            keys: HashMap::new(),
            fresh: Vec::new(),
            runs: Runs::new(),
            tool_runs: Vec::new(),
            evaluations: 0,
            recomputed: 0,
        }
    }

    /// Binds `key` to `payload` evaluated in `context` (the root, or a template row). The next
    /// [`recompute`](Bindings::recompute) refreshes it whatever changed. A key already bound
    /// is bound again (its pending run, if any, is superseded); a computed value keeps its
    /// state until then, so that an equal value is not reported.
    ///
    /// One compiled payload serves every row of a template: share it through the [`Arc`].
    /// Keys bound to the same payload (the same `Arc`) in the same context share one value and
    /// one evaluation; so do bare bindings (`{"@path": P}`) of the same absolute path.
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
        // A path through a forbidden token reads `null` whatever the model holds: evaluated,
        // not read in place.
        let bare = payload
            .bare_path()
            .map(|path| path.resolve(&context))
            .filter(|path| !path.has_forbidden_token());
        // A payload that reads no relative path has one value in every context.
        let context = if bare.is_none() && !payload.depends_on_context() {
            JsonPointer::root()
        } else {
            context
        };
        let identity = match &bare {
            Some(path) => Identity::Path(path.clone()),
            None => Identity::Computed(Arc::as_ptr(&payload) as usize, context.clone()),
        };
        // The state the key had, to seed a new value with (a computed value equal to it is not
        // reported).
        self.detach_template(&key);
        let old = self.detach_key(&key);
        let unit = match self.by_identity.get(&identity) {
            Some(&unit) => unit,
            None => {
                let (deps, context) = match bare {
                    Some(path) => (vec![path], JsonPointer::root()),
                    None => (payload.dependencies(&context), context),
                };
                let bare = matches!(identity, Identity::Path(_));
                let state = old.filter(|s| !bare && !matches!(s, ValueState::Bound));
                let unit = Unit {
                    payload,
                    context,
                    deps,
                    bare,
                    state,
                    keys: Vec::new(),
                    fresh: false,
                };
                self.new_unit(unit, identity)
            }
        };
        let Some(entry) = self.units[unit as usize].as_mut() else {
            return Ok(());
        };
        // Positions fit in u32: there are no more keys than fit in memory.
        let position = entry.keys.len() as u32;
        entry.keys.push(key.clone());
        self.keys.insert(key, (unit, position));
        // Evaluated (again) by the next recompute; a pending run is superseded by it.
        self.runs.cancel_with(&unit, false);
        if !entry.fresh {
            entry.fresh = true;
            self.fresh.push(unit);
        }
        Ok(())
    }

    fn new_unit(&mut self, unit: Unit<K>, identity: Identity) -> UnitId {
        let deps = unit.deps.clone();
        let id = match self.free_units.pop() {
            Some(id) => {
                self.units[id as usize] = Some(unit);
                id
            }
            None => {
                self.units.push(Some(unit));
                // More values than u32 counts would not fit in memory.
                UnitId::try_from(self.units.len() - 1).unwrap_or(UnitId::MAX)
            }
        };
        self.index.register(Slot::Unit(id), &deps);
        self.by_identity.insert(identity, id);
        id
    }

    /// Takes `key` out of its value (dropping the value when no key is left); returns the
    /// state the key had.
    fn detach_key<Q>(&mut self, key: &Q) -> Option<ValueState>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let (unit_id, position) = self.keys.remove(key)?;
        let unit = self.units[unit_id as usize].as_mut()?;
        unit.keys.swap_remove(position as usize);
        if let Some(moved) = unit.keys.get(position as usize)
            && let Some(slot) = self.keys.get_mut::<K>(moved)
        {
            slot.1 = position;
        }
        if !unit.keys.is_empty() {
            return unit.state.as_ref().and_then(ValueState::snapshot);
        }
        let unit = self.units[unit_id as usize].take()?;
        self.index.unregister(&Slot::Unit(unit_id));
        self.runs.cancel_with(&unit_id, false);
        self.by_identity.remove(&unit.identity());
        self.free_units.push(unit_id);
        unit.state
    }

    /// Unbinds `key` (its pending run, if any, is superseded when no other key shares its
    /// value). Returns whether it was bound; an unknown key is a no-op.
    pub fn unregister<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        if self.detach_template(key) {
            return true;
        }
        if !self.keys.contains_key(key) {
            return false;
        }
        self.detach_key(key);
        true
    }

    /// Whether `key` is bound.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.keys.contains_key(key) || self.template_keys.contains_key(key)
    }

    /// How many keys are bound (a template is one key, whatever its rows).
    pub fn len(&self) -> usize {
        self.keys.len() + self.template_keys.len()
    }

    /// Whether no key is bound.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.template_keys.is_empty()
    }

    /// How many distinct values the keys share (one per payload and context, one per absolute
    /// path for bare bindings).
    pub fn values_len(&self) -> usize {
        self.by_identity.len()
    }

    fn unit_of<Q>(&self, key: &Q) -> Option<&Unit<K>>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let &(unit, _) = self.keys.get(key)?;
        self.units[unit as usize].as_ref()
    }

    /// The state of `key` (`None` for an unknown key, or one not refreshed yet). A bare
    /// binding's state is [`Bound`](ValueState::Bound): its value is in the model.
    pub fn state<Q>(&self, key: &Q) -> Option<&ValueState>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.unit_of(key)?.state.as_ref()
    }

    /// The value to show for `key`, lent without copying: a bare binding's value borrowed from
    /// `model` (the model the last recompute read; `null` when nothing is there), a computed
    /// value borrowed from the bindings (while pending or failed, the previous one). `None`
    /// for an unknown key, one not refreshed yet, or one without a value yet.
    ///
    /// To keep a computed value beyond the borrow, clone its [`Arc`] from
    /// [`state`](Bindings::state) (`ValueState::Ready(arc)`): no copy of the value either.
    pub fn value<'a, Q, M>(&'a self, key: &Q, model: &'a M) -> Option<Cow<'a, Value>>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
        M: DataModel + ?Sized,
    {
        let unit = self.unit_of(key)?;
        match unit.state.as_ref()? {
            ValueState::Bound => Some(model.read(&unit.deps[0]).unwrap_or(Cow::Owned(Value::Null))),
            state => state.value().map(Cow::Borrowed),
        }
    }

    /// The absolute paths `key` reads, sorted (see [`Payload::dependencies`]).
    pub fn dependencies<Q>(&self, key: &Q) -> Option<&[JsonPointer]>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        Some(&self.unit_of(key)?.deps)
    }

    /// How many evaluations the bindings have made so far (synchronous evaluations and tool
    /// runs started; a bare binding is never evaluated, and a value shared by several keys is
    /// evaluated once): a renderer's tests use it to check that a change recomputes only what
    /// it affects.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// How many values the bindings have refreshed so far: the [`evaluations`](Bindings::evaluations)
    /// plus the bare bindings found changed (which cost no evaluation). What a change reaches.
    pub fn recomputed(&self) -> u64 {
        self.recomputed
    }

    /// Refreshes the values registered since the last call and the values `changes` affects,
    /// reading `model` (the model after the changes), and returns the keys whose state changed,
    /// each once, in no particular order. Nothing else is evaluated: the cost is the depth of
    /// the changes, plus one evaluation per affected computed value, plus one entry per key
    /// reported, whatever else is bound and however large the values.
    ///
    /// A value that calls a tool becomes [`Pending`](ValueState::Pending) (reported when it
    /// was not pending already) and queues a [`BindingRun`]: take them with
    /// [`take_tool_runs`](Bindings::take_tool_runs).
    pub fn recompute<M: DataModel + ?Sized>(
        &mut self,
        model: &M,
        changes: &ChangeSet,
    ) -> Vec<Change<K>> {
        let mut out = Vec::new();
        let mut evaluated: HashSet<Slot> = HashSet::new();
        // The changes as an index of their own, built when a value first needs to know where
        // it changed: which changes lie at or above a path it reads, which under.
        let mut located: Option<PathIndex<u32>> = None;
        for template in std::mem::take(&mut self.fresh_templates) {
            match self.templates[template as usize].as_mut() {
                Some(t) if t.fresh => t.fresh = false,
                _ => continue,
            }
            evaluated.insert(Slot::Template(template));
            self.refresh_template(template, model, None, &mut out);
        }
        for unit in std::mem::take(&mut self.fresh) {
            match self.units[unit as usize].as_mut() {
                Some(entry) if entry.fresh => entry.fresh = false,
                _ => continue,
            }
            let changed = self.update(unit, model);
            if !changes.is_empty() {
                evaluated.insert(Slot::Unit(unit));
            }
            if changed {
                self.report(unit, Arc::from([]), &mut out);
            }
        }
        if changes.is_empty() {
            return out;
        }
        for slot in self.index.affected(changes) {
            if evaluated.contains(&slot) {
                continue;
            }
            let unit = match slot {
                Slot::Unit(unit) => unit,
                Slot::Template(template) => {
                    let located = located.get_or_insert_with(|| index_changes(changes));
                    self.refresh_template(template, model, Some((changes, located)), &mut out);
                    continue;
                }
            };
            let was_ready = self.units[unit as usize]
                .as_ref()
                .and_then(|u| u.state.as_ref())
                .is_some_and(ValueState::is_ready);
            if !self.update(unit, model) {
                continue;
            }
            let under = match self.units[unit as usize].as_ref() {
                Some(entry)
                    if was_ready && entry.state.as_ref().is_some_and(ValueState::is_ready) =>
                {
                    if changes.len().saturating_mul(entry.deps.len()) <= FEW {
                        Arc::from(changes_under_few(&entry.deps, changes))
                    } else {
                        let located = located.get_or_insert_with(|| index_changes(changes));
                        Arc::from(changes_under(located, &entry.deps, changes))
                    }
                }
                _ => Arc::from([]),
            };
            self.report(unit, under, &mut out);
        }
        out
    }

    /// Reports every key of `unit` as changed.
    fn report(&self, unit: UnitId, under: Arc<[JsonPointer]>, out: &mut Vec<Change<K>>) {
        let Some(entry) = self.units[unit as usize].as_ref() else {
            return;
        };
        if let Some((last, rest)) = entry.keys.split_last() {
            out.extend(rest.iter().map(|key| Change {
                key: key.clone(),
                under: under.clone(),
                rows: None,
            }));
            out.push(Change {
                key: last.clone(),
                under,
                rows: None,
            });
        }
    }

    /// Takes the changes `model` recorded ([`TrackedModel::take_changes`]) and
    /// [`recompute`](Bindings::recompute)s with them: what a renderer calls once per frame.
    pub fn refresh<M: DataModel>(&mut self, model: &mut TrackedModel<M>) -> Vec<Change<K>> {
        let changes = model.take_changes();
        self.recompute(model.get(), &changes)
    }

    /// Refreshes one value (evaluates it, starts its tool run, or for a bare binding only
    /// marks it); returns whether its state changed.
    fn update<M: DataModel + ?Sized>(&mut self, unit: UnitId, model: &M) -> bool {
        let Some(entry) = self.units[unit as usize].as_mut() else {
            return false;
        };
        self.recomputed += 1;
        let outcome = if entry.bare {
            Outcome::Bound
        } else if entry.payload.calls_tools() {
            self.evaluations += 1;
            // Bound values do not write, so the older run need not be waited for: its result is
            // refused by `finish`. The renderer may be holding the model's lock here.
            let ticket = self.runs.start_with(unit, false);
            self.tool_runs.push(BindingRun {
                key: entry.keys[0].clone(),
                unit,
                payload: entry.payload.clone(),
                context: entry.context.clone(),
                ticket,
            });
            Outcome::Started
        } else {
            self.evaluations += 1;
            Outcome::Evaluated(entry.payload.eval_read(model, &entry.context))
        };
        let (state, changed) = settle(entry.state.take(), outcome);
        entry.state = Some(state);
        changed
    }

    /// Binds `key` to a template's per-row property: `payload` evaluated in each element of the
    /// array at `array`, in the data context `array/i` joined with `item` (a path relative to
    /// the element; the root for the element itself). One registration, whatever the number
    /// of rows: the rows follow the array. A change reports, in [`Change::rows`], which rows
    /// appeared, disappeared, were removed (the rows after them moving up) or changed; a one-row
    /// edit refreshes that row alone, and a bare `{"@path": …}` row is never evaluated.
    ///
    /// A key already bound (to a value or a template) is bound again. A payload that may write
    /// is refused (`DATA_ERROR`), and so is one that calls a tool (bind such rows one by one
    /// with [`register`](Bindings::register), each with its own run).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer, DataModel};
    /// use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel};
    /// use serde_json::json;
    /// use std::sync::Arc;
    ///
    /// let env = Environment::new();
    /// let name = Arc::new(env.compile(&json!({"@path": "name"}))?);
    /// let p = |s: &str| JsonPointer::parse(s).unwrap();
    /// let mut model = TrackedModel::new(json!({"rows": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}));
    /// let mut bindings = Bindings::new();
    /// bindings.register_template("list.name", p("/rows"), name, JsonPointer::root())?;
    /// let first = bindings.refresh(&mut model);
    /// assert_eq!(first[0].rows.as_ref().unwrap().appeared, 0..3);
    ///
    /// // One row edited: that row alone.
    /// model.set(&p("/rows/2/name"), json!("c2"))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!(rows.changed, [2]);
    /// assert_eq!(bindings.row_value("list.name", 2, model.get()).as_deref(), Some(&json!("c2")));
    ///
    /// // Row 0 removed: rows 1 and 2 moved up, nothing to evaluate or redraw.
    /// model.remove(&p("/rows/0"))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!((rows.removed, rows.changed, rows.len), (vec![0], vec![], 2));
    ///
    /// // A row appended.
    /// model.set(&p("/rows/2"), json!({"name": "d"}))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!(rows.appeared, 2..3);
    /// assert_eq!(bindings.evaluations(), 0);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn register_template(
        &mut self,
        key: K,
        array: JsonPointer,
        payload: Arc<Payload>,
        item: JsonPointer,
    ) -> Result<(), Error> {
        if payload.may_write() || payload.calls_tools() {
            return Err(Error::new(
                ErrorCode::DataError,
                "a template's bound value must only read the data model: this payload may \
                 write, or calls a tool (bind such rows one by one with register, each with its \
                 own run)",
            ));
        }
        // Rows are the array's path plus an index plus the item context: bounded as a
        // register context is.
        let max_depth = payload.limits().max_depth;
        crate::path::check_pointer(&array, max_depth.saturating_sub(1 + item.tokens().len()))?;
        self.detach_template(&key);
        self.detach_key(&key);
        let item: Vec<String> = item.tokens().to_vec();
        let join =
            |tokens: &[String]| -> Vec<String> { item.iter().chain(tokens).cloned().collect() };
        let bare = match payload.bare_path() {
            Some(crate::path::DataPath::Relative(tokens)) => Some(join(tokens)).filter(|t| {
                !JsonPointer::from_tokens(t.iter().map(String::as_str)).has_forbidden_token()
            }),
            _ => None,
        };
        let row_deps: Vec<Vec<String>> = payload.relative_dependencies().map(join).collect();
        let abs_deps: Vec<JsonPointer> = payload.absolute_dependencies().cloned().collect();
        let mut deps = abs_deps.clone();
        deps.push(array.clone());
        let template = Template {
            key: key.clone(),
            array,
            payload,
            item,
            bare,
            row_deps,
            abs_deps,
            rows: Vec::new(),
            len: 0,
            fresh: true,
        };
        let id = match self.free_templates.pop() {
            Some(id) => {
                self.templates[id as usize] = Some(template);
                id
            }
            None => {
                self.templates.push(Some(template));
                u32::try_from(self.templates.len() - 1).unwrap_or(u32::MAX)
            }
        };
        self.index.register(Slot::Template(id), &deps);
        self.template_keys.insert(key, id);
        self.fresh_templates.push(id);
        Ok(())
    }

    /// Drops the template bound to `key`, if any; returns whether there was one.
    fn detach_template<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let Some(id) = self.template_keys.remove(key) else {
            return false;
        };
        self.templates[id as usize] = None;
        self.index.unregister(&Slot::Template(id));
        self.free_templates.push(id);
        true
    }

    /// How many rows the template bound to `key` had at the last recompute.
    pub fn rows<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        Some(self.templates[id as usize].as_ref()?.len)
    }

    /// The state of row `row` of the template bound to `key`: [`Bound`](ValueState::Bound)
    /// for a bare binding (read it with [`row_value`](Bindings::row_value)).
    pub fn row_state<Q>(&self, key: &Q, row: usize) -> Option<&ValueState>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        let template = self.templates[id as usize].as_ref()?;
        if row >= template.len {
            return None;
        }
        match template.bare {
            Some(_) => Some(&ValueState::Bound),
            None => template.rows.get(row),
        }
    }

    /// The value of row `row` of the template bound to `key`, lent without copying (as
    /// [`value`](Bindings::value)): a bare binding's borrowed from `model`, a computed one from
    /// the bindings.
    pub fn row_value<'a, Q, M>(
        &'a self,
        key: &Q,
        row: usize,
        model: &'a M,
    ) -> Option<Cow<'a, Value>>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
        M: DataModel + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        let template = self.templates[id as usize].as_ref()?;
        if row >= template.len {
            return None;
        }
        match &template.bare {
            Some(tokens) => {
                let mut path = template.array.clone();
                path.push(row.to_string());
                for token in tokens {
                    path.push(token.clone());
                }
                Some(model.read(&path).unwrap_or(Cow::Owned(Value::Null)))
            }
            None => template.rows.get(row)?.value().map(Cow::Borrowed),
        }
    }

    /// Refreshes a template: the rows the changes reach (all of them when `changes` is `None`,
    /// for a new template), and reports what changed.
    fn refresh_template<M: DataModel + ?Sized>(
        &mut self,
        id: u32,
        model: &M,
        changes: Option<(&ChangeSet, &PathIndex<u32>)>,
        out: &mut Vec<Change<K>>,
    ) {
        let Some(template) = self.templates[id as usize].as_mut() else {
            return;
        };
        let len = model
            .read(&template.array)
            .and_then(|v| v.as_array().map(Vec::len))
            .unwrap_or(0);
        let old_len = template.len;
        let mut rows = RowChanges {
            len,
            ..RowChanges::default()
        };
        // The rows there were (after removals) that the changes reach.
        let mut reach: Vec<usize> = Vec::new();
        let mut all = false;
        match changes {
            None => {
                all = true;
                rows.replaced = true;
            }
            Some((changes, located)) => {
                let mut under: Vec<u32> = Vec::new();
                located.strictly_below(&template.array, &mut under);
                let removals = changes
                    .removals_from(&template.array)
                    .filter(|_| under.is_empty() && !located.any_strictly_above(&template.array));
                if let Some(removed) = removals {
                    // Each removal must name a row there was, and the count must add up;
                    // otherwise the array changed in a way removals do not explain.
                    let fits = removed.len() <= old_len
                        && old_len - removed.len() == len
                        && removed.iter().enumerate().all(|(n, &i)| i < old_len - n);
                    if fits {
                        for &i in &removed {
                            if template.bare.is_none() && i < template.rows.len() {
                                template.rows.remove(i);
                            }
                        }
                        rows.removed = removed;
                    } else {
                        all = true;
                        rows.replaced = true;
                    }
                } else if located.any_at_or_above(&template.array) {
                    all = true;
                    rows.replaced = true;
                }
                if !all
                    && template
                        .abs_deps
                        .iter()
                        .any(|d| located.any_at_or_above(d) || located.any_strictly_below(d))
                {
                    all = true;
                }
                if !all {
                    let depth = template.array.tokens().len();
                    for change in under {
                        let Some(path) = changes.get(change as usize) else {
                            continue;
                        };
                        let tokens = &path.tokens()[depth..];
                        let Some(row) = tokens.first().and_then(|t| crate::path::array_index(t))
                        else {
                            continue;
                        };
                        let rest = &tokens[1..];
                        let reads = template.row_deps.iter().any(|d| {
                            let common = d.len().min(rest.len());
                            d[..common] == rest[..common]
                        });
                        if reads {
                            reach.push(row);
                        }
                    }
                    reach.sort_unstable();
                    reach.dedup();
                }
            }
        }
        let before = old_len - rows.removed.len();
        let kept = before.min(len);
        if all {
            reach = (0..kept).collect();
        }
        reach.retain(|&row| row < kept);
        rows.appeared = kept..len;
        rows.disappeared = len..before.max(len);
        match template.bare {
            Some(_) => {
                self.recomputed += (reach.len() + rows.appeared.len()) as u64;
                rows.changed = reach;
            }
            None => {
                template.rows.truncate(kept);
                for row in reach {
                    let context = template.row_context(row);
                    self.evaluations += 1;
                    self.recomputed += 1;
                    let outcome = Outcome::Evaluated(template.payload.eval_read(model, &context));
                    let old = std::mem::replace(&mut template.rows[row], ValueState::Bound);
                    let (state, changed) = settle(Some(old), outcome);
                    template.rows[row] = state;
                    if changed {
                        rows.changed.push(row);
                    }
                }
                for row in rows.appeared.clone() {
                    let context = template.row_context(row);
                    self.evaluations += 1;
                    self.recomputed += 1;
                    let outcome = Outcome::Evaluated(template.payload.eval_read(model, &context));
                    template.rows.push(settle(None, outcome).0);
                }
            }
        }
        template.len = len;
        if !rows.is_empty() {
            out.push(Change {
                key: template.key.clone(),
                under: Arc::from([]),
                rows: Some(Box::new(rows)),
            });
        }
    }

    /// The tool runs queued by [`recompute`](Bindings::recompute) since the last call, for the
    /// renderer to drive ([`BindingRun::eval`]) on its executor, handing each result back to
    /// [`finish`](Bindings::finish). A run queued for a value recomputed again since is already
    /// superseded: it completes at once without calling anything.
    pub fn take_tool_runs(&mut self) -> Vec<BindingRun<K>> {
        std::mem::take(&mut self.tool_runs)
    }

    /// Records the result of a tool run: the value becomes [`Ready`](ValueState::Ready), or
    /// [`Failed`](ValueState::Failed) keeping its previous value. Returns the changes to redraw
    /// (one per key sharing the value), none when the run was superseded (a later run of the
    /// value started, its keys were unbound or bound again: the older result is never shown) or
    /// nothing changed.
    pub fn finish(&mut self, done: BindingDone<K>) -> Vec<Change<K>> {
        let BindingDone {
            unit,
            ticket,
            result,
            ..
        } = done;
        let mut out = Vec::new();
        let Some(result) = result else {
            return out;
        };
        if !ticket.is_current() {
            return out;
        }
        let Some(entry) = self.units[unit as usize].as_mut() else {
            return out;
        };
        let (state, changed) = settle(entry.state.take(), Outcome::Evaluated(result));
        entry.state = Some(state);
        if changed {
            self.report(unit, Arc::from([]), &mut out);
        }
        out
    }
}

/// Up to this many (change, path read) pairs, [`changes_under_few`] compares them directly
/// rather than building an index of the changes (a keystroke's frame has one change).
const FEW: usize = 16;

/// [`changes_under`] by comparing each change with each path read: for a few of them.
fn changes_under_few(deps: &[JsonPointer], changes: &ChangeSet) -> Vec<JsonPointer> {
    let mut found = Vec::new();
    for change in changes {
        let mut below = false;
        for dep in deps {
            let (c, d) = (change.tokens(), dep.tokens());
            if c.len() <= d.len() && d.starts_with(c) {
                // At or above a path read: the value changed as a whole.
                return Vec::new();
            }
            below |= c.starts_with(d);
        }
        if below {
            found.push(change.clone());
        }
    }
    found
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
/// [`eval`](BindingRun::eval) on any executor and hand the result to [`Bindings::finish`].
#[derive(Debug)]
pub struct BindingRun<K> {
    key: K,
    unit: UnitId,
    payload: Arc<Payload>,
    context: JsonPointer,
    ticket: Ticket,
}

impl<K> BindingRun<K> {
    /// The key the run computes (one of them, when several keys share the value).
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
    ) -> BindingDone<K> {
        let BindingRun {
            key,
            unit,
            payload,
            context,
            ticket,
        } = self;
        let check = ticket.clone();
        let run: Run<_> = ticket.run(payload.eval_async(model, &context, host));
        let result = run.await;
        BindingDone {
            key,
            unit,
            ticket: check,
            result,
        }
    }
}

/// The result of a [`BindingRun`], for [`Bindings::finish`].
#[derive(Debug)]
pub struct BindingDone<K> {
    key: K,
    unit: UnitId,
    ticket: Ticket,
    /// `None` when the run was superseded before it completed.
    result: Option<Result<Value, Error>>,
}

impl<K> BindingDone<K> {
    /// The key the run computed (one of them, when several keys share the value).
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
