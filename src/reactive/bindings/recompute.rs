//! Recomputing bound values after a batch of changes: only the values the changes reach are
//! refreshed, each compared with its previous state, and the keys whose value changed are
//! reported; a tool run's result settles its value the same way.

use super::registry::Bindings;
use super::run::{BindingDone, BindingRun};
use super::state::{Change, ValueState};
use super::unit::{Slot, UnitId};
use crate::error::Error;
use crate::model::DataModel;
use crate::path::JsonPointer;
use crate::reactive::{ChangeSet, PathIndex, TrackedModel, json_eq};
use serde_json::Value;
use std::collections::HashSet;
use std::hash::Hash;
use std::sync::Arc;

/// What one refresh of a value gave.
pub(super) enum Outcome {
    Evaluated(Result<Value, Error>),
    /// A tool run was started.
    Started,
    /// A bare binding reached by a change (or new): changed, by definition.
    Bound,
}

/// The new state after `outcome`, and whether it differs from `old` (by [`json_eq`] for
/// values; by code, function, location and message for errors).
pub(super) fn settle(old: Option<ValueState>, outcome: Outcome) -> (ValueState, bool) {
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

pub(super) fn same_error(a: &Error, b: &Error) -> bool {
    (a.code(), a.function(), a.location(), a.message())
        == (b.code(), b.function(), b.location(), b.message())
}

impl<K: Eq + Hash + Clone> Bindings<K> {
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
    pub(super) fn report(&self, unit: UnitId, under: Arc<[JsonPointer]>, out: &mut Vec<Change<K>>) {
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
    pub(super) fn update<M: DataModel + ?Sized>(&mut self, unit: UnitId, model: &M) -> bool {
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
pub(super) const FEW: usize = 16;

/// [`changes_under`] by comparing each change with each path read: for a few of them.
pub(super) fn changes_under_few(deps: &[JsonPointer], changes: &ChangeSet) -> Vec<JsonPointer> {
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
pub(super) fn index_changes(changes: &ChangeSet) -> PathIndex<u32> {
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
pub(super) fn changes_under(
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
