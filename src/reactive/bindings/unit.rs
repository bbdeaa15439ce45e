//! What the index of [`Bindings`](crate::reactive::Bindings) points at: the distinct values
//! (a unit: one payload in one context, shared by every key bound to it) and the templates (one
//! payload evaluated in each row of an array).

use super::state::ValueState;
use crate::path::JsonPointer;
use crate::payload::Payload;
use std::sync::Arc;

/// A value's dense handle: one per distinct (payload, data context), shared by every key bound
/// to it.
pub(super) type UnitId = u32;

/// What the index holds: a value, or a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Slot {
    Unit(UnitId),
    Template(u32),
}

/// A template's per-row property: one payload evaluated in each element of an array.
pub(super) struct Template<K> {
    pub(super) key: K,
    pub(super) array: JsonPointer,
    pub(super) payload: Arc<Payload>,
    /// The row's context below its element (`array/i/item`).
    pub(super) item: Vec<String>,
    /// A bare relative binding: what each row reads, below its element.
    pub(super) bare: Option<Vec<String>>,
    /// What each row reads below its element (the item context joined with each relative path).
    pub(super) row_deps: Vec<Vec<String>>,
    /// The absolute paths every row reads.
    pub(super) abs_deps: Vec<JsonPointer>,
    /// Each row's state, for a computed payload (empty for a bare one).
    pub(super) rows: Vec<ValueState>,
    /// The row count at the last refresh.
    pub(super) len: usize,
    pub(super) fresh: bool,
}

impl<K> Template<K> {
    pub(super) fn row_context(&self, row: usize) -> JsonPointer {
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
pub(super) enum Identity {
    Path(JsonPointer),
    Computed(usize, JsonPointer),
}

/// One distinct value and the keys bound to it.
pub(super) struct Unit<K> {
    pub(super) payload: Arc<Payload>,
    /// The data context (the root for a bare binding, whose path is already absolute).
    pub(super) context: JsonPointer,
    /// The dependencies, as registered in the index (a bare binding's single path).
    pub(super) deps: Vec<JsonPointer>,
    /// A bare binding: its value is read in the model, never evaluated.
    pub(super) bare: bool,
    /// `None` until first evaluated.
    pub(super) state: Option<ValueState>,
    /// The keys bound to this value; each key knows its position here.
    pub(super) keys: Vec<K>,
    /// Registered (or bound again) since the last recompute: evaluated by the next one.
    pub(super) fresh: bool,
}

impl<K> Unit<K> {
    /// What makes the unit one value (rebuilt when it is dropped rather than kept: it repeats
    /// the path or the context, and memory per key counts).
    pub(super) fn identity(&self) -> Identity {
        if self.bare {
            Identity::Path(self.deps[0].clone())
        } else {
            Identity::Computed(Arc::as_ptr(&self.payload) as usize, self.context.clone())
        }
    }
}
