//! The tool runs of bound values: a value that calls a tool is evaluated by the renderer on its
//! executor ([`BindingRun`]) and its result handed back ([`BindingDone`]).

use super::unit::UnitId;
use crate::error::Error;
use crate::mcp::McpHost;
use crate::model::{DataModel, SharedModel};
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::runs::{Run, Ticket};
use serde_json::Value;
use std::sync::Arc;

/// A run of a value that calls a tool, queued by [`Bindings::recompute`](crate::reactive::Bindings::recompute): evaluate it with
/// [`eval`](BindingRun::eval) on any executor and hand the result to [`Bindings::finish`](crate::reactive::Bindings::finish).
#[derive(Debug)]
pub struct BindingRun<K> {
    pub(super) key: K,
    pub(super) unit: UnitId,
    pub(super) payload: Arc<Payload>,
    pub(super) context: JsonPointer,
    pub(super) ticket: Ticket,
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

/// The result of a [`BindingRun`], for [`Bindings::finish`](crate::reactive::Bindings::finish).
#[derive(Debug)]
pub struct BindingDone<K> {
    pub(super) key: K,
    pub(super) unit: UnitId,
    pub(super) ticket: Ticket,
    /// `None` when the run was superseded before it completed.
    pub(super) result: Option<Result<Value, Error>>,
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
