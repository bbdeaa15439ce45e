//! Payloads: A2UI dynamic values compiled once ([`Environment::compile`]) and evaluated many
//! times ([`Payload::eval`]).
//!
//! The compiler receives what it compiles against (a [`Scope`]), not the environment, and the
//! evaluator is a machine that stops where a function asks for a tool call: the MCP layer
//! drives it for [`Payload::eval_async`] through the one operation of a [`ToolHost`].
//!
//! [`Environment::compile`]: crate::Environment::compile

mod compile;
mod deps;
mod eval;
mod eval_async;
mod program;
mod resumable;
mod tool_names;

pub use eval_async::ToolHost;
pub use tool_names::ToolNames;

pub(crate) use compile::Scope;
pub(crate) use eval::{Machine, Step};
pub(crate) use eval_async::{Answer, CallScope, sealed};
pub(crate) use resumable::{PendingCall, Progress, Resumable};

use crate::error::{Error, ErrorCode, Warning};
use crate::limits::Limits;
use crate::model::DataModel;
use crate::origin::Origin;
use crate::path::JsonPointer;
use serde_json::Value;

/// A compiled payload: shape checked, functions resolved, literal expressions and patterns
/// prepared. Evaluating it parses nothing and looks nothing up by name.
///
/// `Payload` is `Send + Sync` and independent of the [`Environment`](crate::Environment) that compiled it.
///
/// # The payload grammar
///
/// A payload is any JSON value, made of three kinds of node (written here in the default `@`
/// spelling; with [`Spelling::Plain`](crate::Spelling::Plain) a binding is `{"path": …}` and a call `{"call": …}`, and
/// the `@` forms are read too):
///
/// - a **binding**, an object whose only key is `"@path"`, with a string: reads that path of
///   the data model. A path that starts with `/` is absolute; `""` and `"."` are the data
///   context; any other path is joined to the context (`name` in `/rows/0` is
///   `/rows/0/name`). `"/"` is the root. A missing path reads `null`, never an error.
/// - a **call**, an object with `"@call"` (the function's name) and optionally `"args"` (an
///   object of dynamic values), `"catalogId"` (the catalog that provides the function;
///   without it, the environment's default catalog) and `"returnType"` (checked only where the
///   catalog declares a return type, and for `@index`, which returns a `number`).
/// - a **literal**: anything else. Arrays and objects are evaluated member by member, at any
///   depth. In a literal object a key that starts with `@@` stands for the key with one `@`
///   removed (`"@@path"` is the literal key `"@path"`).
///
/// What is wrong with a payload is found when it is compiled, all at once ([`Error::related`]),
/// each problem with its location (a JSON Pointer into the payload):
///
/// - any other key that starts with a single `@` in a literal object: `INVALID_RESERVED_KEY`;
/// - a binding with another key or a path that is not a string, a call with keys other than
///   the four above or members of the wrong type, an object with both `@path` and `@call`, a
///   missing required argument, an argument the function does not declare:
///   `VALIDATION_FAILED`;
/// - an unknown catalog id (`""` included; there is no fallback): `CATALOG_ERROR`; an unknown
///   function in a known catalog: `EXPRESSION_ERROR`, with [`Error::function`] naming it;
/// - nesting deeper than [`Limits::max_depth`](crate::Limits::max_depth): `LIMIT_EXCEEDED`;
/// - what a function can judge from literal arguments: a JMESPath expression that does not
///   parse, a regex pattern outside the dialect, an argument of the wrong type.
///
/// # Evaluation
///
/// - Eager and innermost first: every argument is evaluated before its function runs.
///   Siblings (array elements, object members, a call's arguments) are evaluated one after
///   another in document order, tool calls among them included.
/// - A value read through a binding, and anything a tool returns, is data: it is never
///   evaluated, even when it looks like `{"@path": …}` or `{"@call": …}`.
/// - Errors propagate: when a node fails, the functions above it do not run and the evaluation
///   returns the error. Writes happen only in calls (`updateDataModel`, `callMcpTool`'s
///   `targetDataPath`, a host function's writes), each call's writes all or nothing, so a
///   failing chain writes nothing; writes of calls that completed before the failure stay.
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
    /// What the program reads and whether it may write (see `deps.rs`).
    deps: deps::Deps,
    warnings: Vec<Warning>,
}

impl std::fmt::Debug for Payload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Payload")
            .field("nodes", &self.program.nodes.len())
            .finish_non_exhaustive()
    }
}

/// Compiles a payload; the warnings come whether it compiles or not (a compiled payload holds
/// them too).
pub(crate) fn compile(
    scope: &Scope<'_>,
    payload: &Value,
) -> (Result<Payload, Error>, Vec<Warning>) {
    let (program, warnings) = compile::compile(scope, payload);
    let payload = program.map(|program| Payload {
        deps: deps::Deps::of(&program),
        program,
        limits: scope.limits.clone(),
        warnings: warnings.clone(),
    });
    (payload, warnings)
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
        budget: &crate::limits::EvalBudget,
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

    /// The path of a payload that is a bare binding (`{"@path": P}` and nothing else): its
    /// value is the model's at `P` in its context, so a renderer can read it in place instead of
    /// evaluating (and copying) it.
    pub(crate) fn bare_path(&self) -> Option<&crate::path::DataPath> {
        match self.program.node(self.program.root) {
            program::Node::Bind(path) => Some(path),
            _ => None,
        }
    }

    /// A machine that evaluates the payload with `context` as the data context.
    pub(crate) fn machine<'p>(&'p self, context: &'p JsonPointer, origin: Origin) -> Machine<'p> {
        Machine::new(&self.program, &self.limits, context, origin)
    }

    /// The limits the payload was compiled with, which its evaluation applies.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// What the payload compiled with but most likely does not mean, each with its location:
    /// in the `@` spelling, a literal object shaped exactly like a binding or a call of the
    /// plain spelling ([`Spelling`](crate::Spelling)). Warnings never change evaluation.
    ///
    /// ```
    /// use a2ui_catalog_mcp::Environment;
    /// use serde_json::json;
    ///
    /// let payload = Environment::new().compile(&json!({"label": {"call": "split", "args": {"value": "a b", "separator": " "}}}))?;
    /// assert_eq!(payload.warnings()[0].location(), "/label");
    /// assert_eq!(payload.warnings()[0].suggestion(), Some(r#"{"@call": "split", …}"#));
    /// assert!(Environment::new().compile(&json!({"@path": "/label"}))?.warnings().is_empty());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Whether the payload calls tools (`callMcpTool`): such a payload needs
    /// [`eval_async`](Payload::eval_async) with an [`McpHost`](crate::mcp::McpHost); evaluated
    /// synchronously, a tool call fails with "callMcpTool is not configured".
    pub fn calls_tools(&self) -> bool {
        self.program.calls_tools
    }

    /// The tools the payload can call: the names its tool calls give as literals, and whether
    /// (and where) a call takes its name from the data when it runs (then the list is not
    /// complete).
    ///
    /// A host can show the list when a surface arrives ("this surface can call `list_issues`,
    /// `search`") and pre-approve it in its [`ToolPolicy`](crate::mcp::ToolPolicy).
    ///
    /// ```
    /// use a2ui_catalog_mcp::Environment;
    /// use serde_json::json;
    /// let env = Environment::new();
    /// let call = |name| json!({"@call": "callMcpTool", "args": {"name": name}});
    /// let payload = env.compile(&json!([call(json!("search")), call(json!("list_issues")), call(json!("search"))]))?;
    /// assert_eq!(payload.tool_names().literal, ["list_issues", "search"]);
    /// assert!(!payload.tool_names().dynamic);
    ///
    /// let typed = env.compile(&call(json!({"@path": "/toolName"})))?;
    /// assert!(typed.tool_names().literal.is_empty() && typed.tool_names().dynamic);
    /// assert_eq!(typed.tool_names().dynamic_at, [""]); // the root is the call
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn tool_names(&self) -> &ToolNames {
        &self.program.tool_names
    }
}

/// A shared borrow of a model seen as a data model that refuses every write: the machine
/// runs unchanged on it, and a write that was not declared fails where it is attempted.
struct ReadOnly<'m, M: ?Sized>(&'m M);

impl<M: DataModel + ?Sized> DataModel for ReadOnly<'_, M> {
    fn read(&self, path: &JsonPointer) -> Option<std::borrow::Cow<'_, Value>> {
        self.0.read(path)
    }

    fn apply(&mut self, writes: Vec<crate::model::Write>, _max_index: usize) -> Result<(), Error> {
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
            vec![crate::model::Write {
                path: path.clone(),
                value: Value::Null,
            }],
            0,
        )
        .map(|()| false)
    }
}

#[cfg(test)]
pub(crate) mod tests;
