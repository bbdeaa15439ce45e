//! [`Bindings`]: the keys a renderer binds, each to a shared value, and what it reads of them.
//! Recomputing is in `recompute.rs`, templates in `templates.rs`.

use super::run::BindingRun;
use super::state::ValueState;
use super::unit::{Identity, Slot, Template, Unit, UnitId};
use crate::error::{Error, ErrorCode};
use crate::model::DataModel;
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::PathIndex;
use crate::reactive::runs::Runs;
use serde_json::Value;
use std::borrow::{Borrow, Cow};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// A renderer's bound values: for each key of its choosing (a component id and property, a
/// template row), a compiled payload, its data context and its last state. After a batch of
/// changes, [`recompute`](Bindings::recompute) refreshes only the values the changes affect (the
/// rule of [`affects`](crate::reactive::affects), through a [`PathIndex`]), and reports the keys whose
/// value changed: the renderer redraws those.
///
/// What a refresh costs is what the changes reach, whatever the size of the values:
///
/// - a bare binding (`{"@path": P}`) is neither evaluated nor copied: it changed exactly when
///   a change reached `P`, and its value is read in the model ([`value`](Bindings::value) lends
///   it);
/// - a computed value is evaluated again and reported only when it differs from the previous
///   one by [`json_eq`](crate::reactive::json_eq); it is held once, in an [`Arc`];
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
    pub(super) index: PathIndex<Slot>,
    pub(super) templates: Vec<Option<Template<K>>>,
    pub(super) free_templates: Vec<u32>,
    pub(super) template_keys: HashMap<K, u32>,
    pub(super) fresh_templates: Vec<u32>,
    pub(super) units: Vec<Option<Unit<K>>>,
    pub(super) free_units: Vec<UnitId>,
    pub(super) by_identity: HashMap<Identity, UnitId>,
    /// Each key's value, and its position in that value's `keys`.
    pub(super) keys: HashMap<K, (UnitId, u32)>,
    /// Values registered since the last recompute (some may have been dropped since).
    pub(super) fresh: Vec<UnitId>,
    pub(super) runs: Runs<UnitId>,
    pub(super) tool_runs: Vec<BindingRun<K>>,
    pub(super) evaluations: u64,
    pub(super) recomputed: u64,
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

    pub(super) fn new_unit(&mut self, unit: Unit<K>, identity: Identity) -> UnitId {
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
    pub(super) fn detach_key<Q>(&mut self, key: &Q) -> Option<ValueState>
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

    pub(super) fn unit_of<Q>(&self, key: &Q) -> Option<&Unit<K>>
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
}
