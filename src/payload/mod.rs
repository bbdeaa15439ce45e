//! Payloads: A2UI dynamic values compiled once ([`Environment::compile`]) and evaluated many
//! times ([`Payload::eval`]).
//!
//! [`Environment::compile`]: crate::Environment::compile

mod compile;
mod eval;
mod program;

use crate::env::Environment;
use crate::error::Error;
use crate::limits::Limits;
use crate::model::DataModel;
use crate::path::JsonPointer;
use serde_json::Value;

/// A compiled payload: shape checked, functions resolved, literal expressions and patterns
/// prepared. Evaluating it parses nothing and looks nothing up by name.
///
/// `Payload` is `Send + Sync` and independent of the [`Environment`] that compiled it.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, JsonPointer};
/// use serde_json::json;
///
/// let env = Environment::new();
/// let payload = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"selected": true}}})).unwrap();
/// let mut model = json!({"rows": [{"name": "notes.md"}]});
/// payload.eval_in(&mut model, &JsonPointer::parse("/rows/0").unwrap()).unwrap();
/// assert_eq!(model, json!({"rows": [{"name": "notes.md", "selected": true}]}));
/// ```
pub struct Payload {
    program: program::Program,
    limits: Limits,
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Payload")
            .field("nodes", &self.program.nodes.len())
            .finish_non_exhaustive()
    }
}

pub(crate) fn compile(env: &Environment, payload: &Value) -> Result<Payload, Error> {
    let program = compile::compile(env, payload)?;
    Ok(Payload {
        program,
        limits: env.limits().clone(),
    })
}

impl Payload {
    /// Evaluates with the root as the data context.
    pub fn eval<M: DataModel + ?Sized>(&self, model: &mut M) -> Result<Value, Error> {
        self.eval_in(model, &JsonPointer::root())
    }

    /// Evaluates with `context` as the data context (relative paths join it).
    ///
    /// On error, the writes of the failing chain have not happened; writes that completed
    /// before it (an earlier sibling's `updateDataModel`) stay.
    pub fn eval_in<M: DataModel + ?Sized>(
        &self,
        model: &mut M,
        context: &JsonPointer,
    ) -> Result<Value, Error> {
        eval::Machine::new(&self.program, &self.limits, context).run(model)
    }
}

#[cfg(test)]
mod tests;
