//! The synchronous evaluations of a [`Payload`]: against a model it may write
//! ([`Payload::eval_in`]) or through a shared borrow when it cannot write
//! ([`Payload::eval_read`]). A tool call cannot be answered here: it fails, and
//! `eval_async.rs` drives the same machine where tools are called.

use super::compiled::Payload;
use super::eval::Step;
use crate::error::{Error, ErrorCode};
use crate::limits::EvalBudget;
use crate::model::{DataModel, Write};
use crate::origin::Origin;
use crate::path::JsonPointer;
use serde_json::Value;

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
        self.eval_from(model, context, Origin::Binding)
    }

    /// [`eval_in`](Payload::eval_in) for an evaluation of this [`Origin`] (the others are
    /// [`Origin::Binding`]s): a user's action, an MCP App, the agent. Functions see it
    /// ([`CallContext::origin`](crate::CallContext::origin)), and a call whose
    /// [`Access`](crate::functions::Access) (a catalog's `allowedCallers`, `requiresUserActivation`) does
    /// not admit it is an `EXPRESSION_ERROR` at the call: the function does not run, nor
    /// anything above it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, Environment, JsonPointer, Origin};
    /// use serde_json::json;
    ///
    /// let mut catalog = Catalog::from_schema(&json!({"catalogId": "https://example.com/c.json", "functions": {
    ///     "submit": {"returnType": "void", "requiresUserActivation": true,
    ///                "properties": {"call": {"const": "submit"}, "args": {"properties": {}}}}}}))?;
    /// catalog.implement_function("submit", |_: &a2ui_catalog_mcp::Args<'_>| Ok(json!("sent")))?;
    /// let mut env = Environment::new();
    /// env.add_catalog(catalog);
    /// let submit = env.compile(&json!({"@call": "submit", "catalogId": "https://example.com/c.json"}))?;
    /// let mut model = json!({});
    /// let root = JsonPointer::root();
    /// assert_eq!(submit.eval_from(&mut model, &root, Origin::Action)?, json!("sent"));
    /// let err = submit.eval_from(&mut model, &root, Origin::Binding).unwrap_err();
    /// assert!(err.message().contains("requiresUserActivation"), "{err}");
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn eval_from<M: DataModel + ?Sized>(
        &self,
        model: &mut M,
        context: &JsonPointer,
        origin: Origin,
    ) -> Result<Value, Error> {
        match self.machine(context, origin).run(model, false)? {
            Step::Done(value) => Ok(value),
            Step::Tool(_) => unreachable!("tool calls only suspend when asked to"),
        }
    }

    /// Evaluates a payload that cannot write ([`may_write`](Payload::may_write) is `false`)
    /// with `context` as the data context, through a shared borrow of the model: a renderer can
    /// evaluate its labels while other parts of it hold the model too.
    ///
    /// A payload that may write is refused before anything runs (`DATA_ERROR`, use
    /// [`eval_in`](Payload::eval_in)). A host function that queues writes although its
    /// [`Function::may_write`](crate::Function::may_write) said it would not fails the call
    /// (`DATA_ERROR`, naming the function and its location) instead of writing. A payload that
    /// calls a tool needs [`eval_async`](Payload::eval_async), as with `eval_in`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer, ErrorCode};
    /// use serde_json::json;
    ///
    /// let env = Environment::new();
    /// let model = json!({"rows": [{"name": "a,b"}]});
    /// let label = env.compile(&json!({"@call": "split", "args": {"value": {"@path": "name"}, "separator": ","}}))?;
    /// let row = JsonPointer::parse("/rows/0")?;
    /// assert_eq!(label.eval_read(&model, &row)?, json!(["a", "b"]));
    ///
    /// let select = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"selected": true}}}))?;
    /// assert_eq!(select.eval_read(&model, &row).unwrap_err().code(), ErrorCode::DataError);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn eval_read<M: DataModel + ?Sized>(
        &self,
        model: &M,
        context: &JsonPointer,
    ) -> Result<Value, Error> {
        self.eval_read_from(model, context, Origin::Binding)
    }

    /// [`eval_read`](Payload::eval_read) spending from `budget`, shared with other evaluations
    /// (a surface message's).
    pub(crate) fn eval_read_within<M: DataModel + ?Sized>(
        &self,
        model: &M,
        context: &JsonPointer,
        budget: &EvalBudget,
    ) -> Result<Value, Error> {
        if self.may_write() {
            return self.eval_read(model, context);
        }
        match self
            .machine(context, Origin::Binding)
            .within(budget)
            .run(&mut ReadOnly(model), false)?
        {
            Step::Done(value) => Ok(value),
            Step::Tool(_) => unreachable!("tool calls only suspend when asked to"),
        }
    }

    /// [`eval_read`](Payload::eval_read) for an evaluation of this [`Origin`] (see
    /// [`eval_from`](Payload::eval_from)).
    pub fn eval_read_from<M: DataModel + ?Sized>(
        &self,
        model: &M,
        context: &JsonPointer,
        origin: Origin,
    ) -> Result<Value, Error> {
        if self.may_write() {
            return Err(Error::new(
                ErrorCode::DataError,
                "this payload may write to the data model (updateDataModel, a callMcpTool \
                 targetDataPath, or a host function that declares writes): evaluate it with a \
                 mutable model, not read-only",
            ));
        }
        match self
            .machine(context, origin)
            .run(&mut ReadOnly(model), false)?
        {
            Step::Done(value) => Ok(value),
            Step::Tool(_) => unreachable!("tool calls only suspend when asked to"),
        }
    }
}

/// A shared borrow of a model seen as a data model that refuses every write: the machine
/// runs unchanged on it, and a write that was not declared fails where it is attempted.
pub(crate) struct ReadOnly<'m, M: ?Sized>(pub(crate) &'m M);

impl<M: DataModel + ?Sized> DataModel for ReadOnly<'_, M> {
    fn read(&self, path: &JsonPointer) -> Option<std::borrow::Cow<'_, Value>> {
        self.0.read(path)
    }

    fn apply(&mut self, writes: Vec<Write>, _max_index: usize) -> Result<(), Error> {
        let path = writes
            .first()
            .map_or_else(String::new, |w| w.path.to_string());
        Err(Error::new(
            ErrorCode::DataError,
            format!(
                "cannot write '{path}': the data model is read-only in this evaluation (the \
                 function writes, but its Function::may_write says it does not)"
            ),
        ))
    }

    fn remove(&mut self, path: &JsonPointer) -> Result<bool, Error> {
        self.apply(
            vec![Write {
                path: path.clone(),
                value: Value::Null,
            }],
            0,
        )
        .map(|()| false)
    }
}
