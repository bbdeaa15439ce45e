//! A data model shared by concurrent evaluations, with the "latest call wins" rule of
//! `callMcpTool`'s `targetDataPath`: a call's response is written only when no newer call to
//! the same resolved path of the same model started after it (a call starts when its request
//! is sent).

use super::data_model::DataModel;
use crate::path::JsonPointer;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A data model that several evaluations use at once (a search box whose every keystroke calls
/// a tool). Each evaluation locks it only while it runs synchronously, never while a tool call
/// is pending, and the model remembers which call to each `targetDataPath` started last: an
/// older call's response does not overwrite a newer one's.
///
/// ```
/// use a2ui_catalog_mcp::SharedModel;
/// use serde_json::json;
///
/// let shared = SharedModel::new(json!({"query": "a2ui"}));
/// assert_eq!(shared.lock()["query"], "a2ui");
/// assert_eq!(shared.into_inner(), json!({"query": "a2ui"}));
/// ```
#[derive(Debug, Default)]
pub struct SharedModel<M> {
    model: Mutex<M>,
    calls: Mutex<Calls>,
}

#[derive(Debug, Default)]
struct Calls {
    started: u64,
    /// The latest call started for each path that has a call in flight.
    latest: HashMap<JsonPointer, u64>,
}

/// A started call to a `targetDataPath`.
#[derive(Debug)]
pub(crate) struct CallTicket {
    path: JsonPointer,
    number: u64,
}

impl<M: DataModel> SharedModel<M> {
    /// Shares `model`.
    pub fn new(model: M) -> SharedModel<M> {
        SharedModel {
            model: Mutex::new(model),
            calls: Mutex::new(Calls::default()),
        }
    }

    /// Locks the model (to read it, or to write it outside an evaluation).
    pub fn lock(&self) -> MutexGuard<'_, M> {
        // Writes are all or nothing, so a panic in another holder cannot leave a half-written
        // model behind: a poisoned lock is still usable.
        self.model.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The model, unshared.
    pub fn into_inner(self) -> M {
        self.model
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn calls(&self) -> MutexGuard<'_, Calls> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records that a call to `path` starts now; it becomes the latest for that path.
    pub(crate) fn start_call(&self, path: JsonPointer) -> CallTicket {
        let mut calls = self.calls();
        calls.started += 1;
        let number = calls.started;
        calls.latest.insert(path.clone(), number);
        CallTicket { path, number }
    }

    /// Whether no newer call to the same path has started after `ticket`'s so far; the ticket
    /// stays in flight (a newer call may still start: [`finish_call`](Self::finish_call)
    /// decides).
    pub(crate) fn is_latest(&self, ticket: &CallTicket) -> bool {
        self.calls().latest.get(&ticket.path) == Some(&ticket.number)
    }

    /// Whether no newer call to the same path started after `ticket`'s; ends the ticket either
    /// way (a path with no call in flight is forgotten). A caller that writes when this says
    /// yes holds the model's lock ([`lock`](Self::lock)) from this call until its write is
    /// made, so that no newer call's write can come in between.
    pub(crate) fn finish_call(&self, ticket: &CallTicket) -> bool {
        let mut calls = self.calls();
        let latest = calls.latest.get(&ticket.path) == Some(&ticket.number);
        if latest {
            calls.latest.remove(&ticket.path);
        }
        latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_latest_call_per_path_wins() {
        let shared = SharedModel::new(json!({}));
        let a = JsonPointer::parse("/a").unwrap();
        let first = shared.start_call(a.clone());
        let second = shared.start_call(a.clone());
        let other = shared.start_call(JsonPointer::parse("/b").unwrap());
        assert!(shared.finish_call(&second));
        assert!(
            !shared.finish_call(&first),
            "an older call never wins, even after the newer one finished"
        );
        assert!(shared.finish_call(&other));
        assert!(shared.calls().latest.is_empty());
    }
}
