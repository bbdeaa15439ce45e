//! What a renderer reads of its bound values: each value's state ([`ValueState`]) and what a
//! refresh reports ([`Change`], with a template's [`RowChanges`]).

use crate::error::Error;
use crate::path::JsonPointer;
use serde_json::Value;
use std::sync::Arc;

/// The state of one bound value.
///
/// Values are shared, never copied per key: a computed value is held once in an [`Arc`] for
/// every key bound to the same payload in the same context, and a bare binding
/// (`{"@path": P}`) holds no value at all, [`Bound`](ValueState::Bound): the renderer reads it
/// in the model, through [`Bindings::value`](crate::reactive::Bindings::value).
#[derive(Debug)]
pub enum ValueState {
    /// The value, evaluated.
    Ready(Arc<Value>),
    /// A bare binding (`{"@path": P}`): its value is whatever the model holds at `P` (`null`
    /// when nothing is there), read in place with [`Bindings::value`](crate::reactive::Bindings::value), never evaluated nor
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
    /// with [`Bindings::value`](crate::reactive::Bindings::value), which covers both).
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

    pub(super) fn into_value(self) -> Option<Arc<Value>> {
        match self {
            ValueState::Ready(v) => Some(v),
            ValueState::Bound => None,
            ValueState::Pending { previous } | ValueState::Failed { previous, .. } => previous,
        }
    }

    /// The state without its error, sharing the value: what a key moving to a new value starts
    /// from.
    pub(super) fn snapshot(&self) -> Option<ValueState> {
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
    pub(super) fn is_ready(&self) -> bool {
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
    /// For a template ([`Bindings::register_template`](crate::reactive::Bindings::register_template)): which rows appeared, disappeared,
    /// moved or changed. `None` for other keys.
    pub rows: Option<Box<RowChanges>>,
}

/// What changed in a template's rows ([`Bindings::register_template`](crate::reactive::Bindings::register_template)), for the renderer to
/// update those rows alone: apply `removed` (rows after each moved up by one), then drop the
/// `disappeared` rows, add the `appeared` ones, and redraw the `changed` ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowChanges {
    /// How many rows there are now.
    pub len: usize,
    /// Rows removed, in order, each by its index when it was removed (an element removed from
    /// the array with [`DataModel::remove`](crate::DataModel::remove), recorded by [`ChangeSet::record_removal`](crate::reactive::ChangeSet::record_removal)).
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
    pub(super) fn is_empty(&self) -> bool {
        self.removed.is_empty()
            && self.appeared.is_empty()
            && self.disappeared.is_empty()
            && self.changed.is_empty()
            && !self.replaced
    }
}
