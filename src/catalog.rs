//! Catalogs: named sets of functions a payload can call, each with the schema of its arguments.
//!
//! A catalog knows functions only through the [`Function`] trait: the MCP catalog's functions
//! ([`Catalog::mcp`]) are implementations like any host's. Hosts register their own functions,
//! in their own catalogs or in the MCP one, as plain Rust closures or as [`Function`]
//! implementations.
//!
//! ```
//! use a2ui_catalog_mcp::{Args, Catalog, Environment, functions::ArgSchema, json::to_js_string};
//! use serde_json::{json, Value};
//!
//! // The guide's `parseCsv`: split CSV text into rows of cells.
//! let parsers = Catalog::new("https://example.com/catalogs/parsers.json").with_function(
//!     "parseCsv",
//!     ArgSchema::new().required("value"),
//!     |args: &Args<'_>| {
//!         let text = to_js_string(args.value_or_null("value"));
//!         Ok(text.split('\n').map(|line| line.split(',').map(Value::from).collect::<Value>()).collect())
//!     },
//! );
//! let mut env = Environment::new();
//! env.add_catalog(parsers);
//! let payload = env.compile(&json!({
//!     "@call": "parseCsv",
//!     "catalogId": "https://example.com/catalogs/parsers.json",
//!     "args": {"value": "a,b\nc,d"}
//! })).unwrap();
//! assert_eq!(payload.eval(&mut json!({})).unwrap(), json!([["a", "b"], ["c", "d"]]));
//! ```

use crate::error::{Error, ErrorCode};
use crate::limits::{EvalBudget, Limits};
use crate::model::DataModel;
use crate::origin::{Access, Origin};
use crate::path::{DataPath, JsonPointer};
use crate::value::{ArgValue, ArgView, SharedText};
use serde_json::Value;
use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

mod document;

pub use document::FunctionDeclaration;
pub(crate) use document::{foreign_catalog_message, foreign_catalog_ref, implementation};

/// State a function computed from a call site's literal arguments at compile time (a compiled
/// JMESPath expression, a compiled pattern), handed back on every call.
pub type Prepared = Box<dyn Any + Send + Sync>;

/// A catalog function.
///
/// Most functions only need [`call`](Function::call); a closure
/// `Fn(&Args) -> Result<Value, Error>` is a `Function` too.
pub trait Function: Send + Sync + 'static {
    /// Looks at one call site when the payload is compiled: rejects literal arguments that can
    /// never work, and prepares what can be prepared once. The default accepts everything. An
    /// error located relative to the call (`args/decimals`, no leading `/`) is reported at that
    /// argument; one without a location at the call.
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        let _ = args;
        Ok(None)
    }

    /// Runs the function on evaluated arguments. Writes to the data model go through
    /// [`CallContext::write`]; they are applied, all or nothing, when the call returns `Ok`.
    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error>;

    /// Whether a call site may write to the data model (through [`CallContext::write`], or as
    /// a tool call with a target), judged from its literal arguments when the payload is
    /// compiled. A function that writes must say so: [`Payload::may_write`](crate::Payload::may_write)
    /// reports the payloads that call one. The default is `false` (closures cannot write).
    fn may_write(&self, args: &StaticArgs<'_>) -> bool {
        let _ = args;
        false
    }

    /// The data model paths a call site reads by itself through [`CallContext::read`] (what it
    /// reads through its arguments' bindings is known already), judged from its literal
    /// arguments when the payload is compiled. They join the payload's
    /// [`dependencies`](crate::Payload::dependencies), so that a renderer recomputes the value
    /// when one of them changes. A function that cannot tell (its template is dynamic) says
    /// [`Reads::Everything`]: the value then depends on the whole model. The default is no path
    /// (a function that does not read the model).
    fn reads(&self, args: &StaticArgs<'_>) -> Reads {
        let _ = args;
        Reads::Paths(Vec::new())
    }

    /// Expands a literal argument into a payload that the compiler compiles in its place, so
    /// that a small language inside a string (the basic catalog's `formatString` templates)
    /// becomes ordinary bindings and calls: its paths are exact
    /// [`dependencies`](crate::Payload::dependencies), its calls are resolved and checked like
    /// any other, and a tool called inside it is a tool call of the payload. `arg` is the
    /// argument's name, `literal` its value in the payload (never a binding or a call).
    ///
    /// `Ok(None)` (the default) keeps the literal. An error is a compile-time problem at the
    /// argument. The function then receives the expansion's evaluated value instead of the
    /// literal, and [`StaticArgs::is_expanded`] tells [`prepare`](Function::prepare) so. The
    /// expansion is not expanded again (a call inside it whose argument is a literal keeps that
    /// literal), so expansion never recurses; errors inside it are located under the
    /// argument's pointer, in the expansion's own structure.
    fn expand(&self, arg: &str, literal: &Value, limits: &Limits) -> Result<Option<Value>, Error> {
        let _ = (arg, literal, limits);
        Ok(None)
    }
}

/// What a call site reads from the data model by itself ([`Function::reads`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reads {
    /// These paths, written as a binding writes them: absolute (`/order/total`), or relative to
    /// the data context (`name`, `""` for the context itself).
    Paths(Vec<String>),
    /// Anything: the value depends on the whole model (the root, `/`).
    Everything,
}

impl Default for Reads {
    fn default() -> Reads {
        Reads::Paths(Vec::new())
    }
}

impl<F> Function for F
where
    F: Fn(&Args<'_>) -> Result<Value, Error> + Send + Sync + 'static,
{
    fn call(&self, args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
        self(args)
    }
}

/// The arguments a function declares: which exist, which are required, whether others may be
/// passed.
///
/// ```
/// use a2ui_catalog_mcp::functions::ArgSchema;
/// let schema = ArgSchema::new().required("value").optional("separator");
/// assert_eq!(schema.names().collect::<Vec<_>>(), ["value", "separator"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgSchema {
    names: Vec<String>,
    required: Vec<bool>,
    additional: bool,
}

impl ArgSchema {
    /// No arguments; undeclared ones are rejected.
    pub fn new() -> ArgSchema {
        ArgSchema::default()
    }

    /// Declares a required argument.
    pub fn required(mut self, name: impl Into<String>) -> ArgSchema {
        self.names.push(name.into());
        self.required.push(true);
        self
    }

    /// Declares an optional argument.
    pub fn optional(mut self, name: impl Into<String>) -> ArgSchema {
        self.names.push(name.into());
        self.required.push(false);
        self
    }

    /// Accepts undeclared arguments too (JSON Schema `additionalProperties: true`). They are
    /// evaluated but not passed to the function.
    pub fn allow_additional(mut self) -> ArgSchema {
        self.additional = true;
        self
    }

    /// Reads a function's entry of a catalog schema: `properties.args` with its `properties`,
    /// `required` and `additionalProperties` (default `true`, as in JSON Schema).
    ///
    /// ```
    /// use a2ui_catalog_mcp::functions::ArgSchema;
    /// use serde_json::json;
    /// let schema = ArgSchema::from_function_schema(&json!({
    ///     "properties": {"args": {"properties": {"value": {}}, "required": ["value"],
    ///                             "additionalProperties": false}}
    /// })).unwrap();
    /// assert_eq!(schema, ArgSchema::new().required("value"));
    /// ```
    pub fn from_function_schema(schema: &Value) -> Result<ArgSchema, Error> {
        let invalid = |why: &str| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("invalid function schema: {why}"),
            )
        };
        let args = schema
            .pointer("/properties/args")
            .ok_or_else(|| invalid("no properties.args"))?;
        let properties = match args.get("properties") {
            None => &serde_json::Map::new(),
            Some(Value::Object(map)) => map,
            Some(_) => return Err(invalid("properties.args.properties is not an object")),
        };
        let required: Vec<&str> = match args.get("required") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| invalid("required holds a non-string"))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(invalid("properties.args.required is not an array")),
        };
        let mut out = ArgSchema::new();
        for name in properties.keys() {
            out = if required.contains(&name.as_str()) {
                out.required(name)
            } else {
                out.optional(name)
            };
        }
        if let Some(missing) = required.iter().find(|r| !properties.contains_key(**r)) {
            out = out.required(*missing);
        }
        out.additional = !matches!(args.get("additionalProperties"), Some(Value::Bool(false)));
        Ok(out)
    }

    /// The declared argument names, in declaration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The slot of a declared argument.
    pub(crate) fn slot(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub(crate) fn is_required(&self, slot: usize) -> bool {
        self.required[slot]
    }

    pub(crate) fn accepts_additional(&self) -> bool {
        self.additional
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }
}

/// What a function's argument is when the payload is compiled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StaticArg<'a> {
    /// Not passed.
    Absent,
    /// A literal, known now.
    Literal(&'a Value),
    /// A binding or a call: known only when the payload runs.
    Dynamic,
}

/// A call site's arguments at compile time, for [`Function::prepare`].
pub struct StaticArgs<'a> {
    pub(crate) schema: &'a ArgSchema,
    pub(crate) args: Vec<StaticArg<'a>>,
    pub(crate) limits: &'a Limits,
    /// The slots whose literal [`Function::expand`] replaced.
    pub(crate) expanded: Vec<bool>,
}

impl std::fmt::Debug for StaticArgs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.schema.names().zip(&self.args))
            .finish()
    }
}

impl<'a> StaticArgs<'a> {
    /// A declared argument (`Absent` for an undeclared name too).
    pub fn get(&self, name: &str) -> StaticArg<'a> {
        self.schema
            .slot(name)
            .map_or(StaticArg::Absent, |slot| self.args[slot])
    }

    /// The limits the payload is compiled with (the JMESPath limits, for one).
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Whether [`Function::expand`] replaced this argument's literal with a payload (the
    /// argument then reads as [`StaticArg::Dynamic`], and the call receives the expansion's
    /// value).
    pub fn is_expanded(&self, name: &str) -> bool {
        self.schema
            .slot(name)
            .is_some_and(|slot| self.expanded.get(slot).copied().unwrap_or(false))
    }
}

/// A call's evaluated arguments, by declared name.
///
/// Values read through a binding are lent by the data model, not copied.
pub struct Args<'a> {
    pub(crate) schema: &'a ArgSchema,
    pub(crate) values: Vec<Option<ArgValue<'a>>>,
}

impl std::fmt::Debug for Args<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let passed = self.schema.names().zip(&self.values);
        f.debug_map()
            .entries(passed.filter_map(|(name, v)| Some((name, v.as_ref()?.json()))))
            .finish()
    }
}

static NULL: Value = Value::Null;

impl<'a> Args<'a> {
    fn slot(&self, name: &str) -> Option<&ArgValue<'a>> {
        self.values[self.schema.slot(name)?].as_ref()
    }

    /// The argument's value, `None` when it was not passed.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.slot(name).map(ArgValue::json)
    }

    /// The argument's value, `null` when it was not passed.
    pub fn value_or_null(&self, name: &str) -> &Value {
        self.get(name).unwrap_or(&NULL)
    }

    /// Takes the argument out: owned values move, lent ones stay borrowed.
    pub fn take(&mut self, name: &str) -> Option<Cow<'a, Value>> {
        let slot = self.schema.slot(name)?;
        self.values[slot].take().map(ArgValue::into_json)
    }

    /// Takes the argument out if it is a string the call owns (a previous call's result), and
    /// leaves it in place otherwise.
    pub(crate) fn take_owned_string(&mut self, name: &str) -> Option<String> {
        let slot = self.values.get_mut(self.schema.slot(name)?)?;
        if !matches!(slot, Some(ArgValue::Json(Cow::Owned(Value::String(_))))) {
            return None;
        }
        match slot.take() {
            Some(ArgValue::Json(Cow::Owned(Value::String(text)))) => Some(text),
            _ => None,
        }
    }

    /// The argument in whichever form it has (`None` when it was not passed).
    pub(crate) fn view(&self, name: &str) -> Option<ArgView<'_>> {
        self.slot(name).map(ArgValue::view)
    }
}

/// A request to call an MCP tool, which a tool function (`callMcpTool`) hands to the
/// evaluation with [`CallContext::call_tool`]; the evaluation runs it with the host's client.
pub(crate) struct ToolCall {
    /// The tool's name, not empty.
    pub(crate) name: String,
    /// The arguments, an object.
    pub(crate) arguments: Value,
    /// Where to write the response object: a path (absolute, or relative to the data context),
    /// not empty.
    pub(crate) target: Option<String>,
}

/// What a tool function's [`Function::prepare`] returns for a call site whose tool name is a
/// literal, so that the compiled payload can list the tools it calls
/// ([`Payload::tool_names`](crate::Payload::tool_names)).
pub(crate) struct LiteralToolName(pub(crate) String);

/// Read access to the data model for a running function, whatever the model's type.
pub(crate) trait ReadModel {
    fn read_at(&self, path: &JsonPointer) -> Option<Cow<'_, Value>>;
}

/// A data model lent to [`CallContext::read`].
pub(crate) struct ModelReader<'m, M: ?Sized>(pub(crate) &'m M);

impl<M: DataModel + ?Sized> ReadModel for ModelReader<'_, M> {
    fn read_at(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        self.0.read(path)
    }
}

/// What a running function can reach besides its arguments.
pub struct CallContext<'a> {
    pub(crate) limits: &'a Limits,
    /// The data model as it is when the function runs.
    pub(crate) model: Option<&'a dyn ReadModel>,
    pub(crate) context: &'a JsonPointer,
    pub(crate) prepared: Option<&'a (dyn Any + Send + Sync)>,
    pub(crate) writes: Vec<(String, Value)>,
    /// A built-in function's result as shared text, which then stands for the returned value.
    pub(crate) text: Option<Arc<SharedText>>,
    /// Whether the evaluation can run tool calls (it is asynchronous, with a host).
    pub(crate) tools: bool,
    /// The tool call the function asked for, which then stands for its value.
    pub(crate) tool_call: Option<ToolCall>,
    /// What the evaluation may still spend, shared by all its calls (none outside one).
    pub(crate) budget: Option<&'a EvalBudget>,
    /// Why the evaluation runs.
    pub(crate) origin: Origin,
}

impl std::fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("origin", &self.origin)
            .field("data_context", &self.context)
            .field("writes", &self.writes)
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl<'a> CallContext<'a> {
    pub(crate) fn new(
        limits: &'a Limits,
        context: &'a JsonPointer,
        prepared: Option<&'a (dyn Any + Send + Sync)>,
        tools: bool,
    ) -> CallContext<'a> {
        CallContext {
            limits,
            model: None,
            context,
            prepared,
            writes: Vec::new(),
            text: None,
            tools,
            tool_call: None,
            budget: None,
            origin: Origin::Binding,
        }
    }

    /// The same context for an evaluation of this origin.
    pub(crate) fn with_origin(mut self, origin: Origin) -> CallContext<'a> {
        self.origin = origin;
        self
    }

    /// Why the evaluation runs: a binding, a user's action, an MCP App or the agent (see
    /// [`Origin`]). The engine has already refused calls the function's
    /// [`Access`](crate::functions::Access) does not admit; a function may decide more from it (an
    /// "open this URL" function that asks first when there was no tap).
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Lends the data model to the function (see [`read`](CallContext::read)).
    pub(crate) fn reading(mut self, model: &'a dyn ReadModel) -> CallContext<'a> {
        self.model = Some(model);
        self
    }

    /// Charges what the function spends to its evaluation's `budget`.
    pub(crate) fn within(mut self, budget: &'a EvalBudget) -> CallContext<'a> {
        self.budget = Some(budget);
        self
    }

    /// Charges `n` values the function is about to create to the evaluation's budget
    /// ([`Limits::max_eval_items`]), or refuses them (`LIMIT_EXCEEDED`); `what` names them.
    pub(crate) fn spend_items(&self, n: usize, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_items(n as u64, what),
            None => Ok(()),
        }
    }

    /// Charges `n` bytes of text or values the function is about to make to the evaluation's
    /// budget ([`Limits::max_eval_bytes`]), or refuses them (`LIMIT_EXCEEDED`).
    // Only the basic catalog's formatString makes text this way today.
    #[cfg_attr(not(feature = "basic-catalog"), allow(dead_code))]
    pub(crate) fn spend_bytes(&self, n: usize, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_bytes(n as u64, what),
            None => Ok(()),
        }
    }

    /// Charges a copy of `value` the function is about to make, or refuses it.
    // Only the basic catalog's formatString makes text this way today.
    #[cfg_attr(not(feature = "basic-catalog"), allow(dead_code))]
    pub(crate) fn spend_copy(&self, value: &Value, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_copy(value, what),
            None => Ok(()),
        }
    }

    /// The environment's limits (output size, index, JMESPath, caches).
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Reads the data model at `path`, written as a binding writes it: absolute (`/order/total`),
    /// or relative to the [data context](CallContext::data_context) (`name`; `""` is the
    /// context itself). The model is read as it is when the function runs: writes this call
    /// queued are not applied yet. `Ok(None)` when nothing is there (and for the tokens
    /// `__proto__`, `constructor` and `prototype`, which read as nothing everywhere); a
    /// malformed path is a `DATA_ERROR`.
    ///
    /// A function that reads the model should declare what it reads with [`Function::reads`],
    /// so that [`Payload::dependencies`](crate::Payload::dependencies) stays exact.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Args, CallContext, Catalog, Environment, Error, Function, JsonPointer, functions::ArgSchema};
    /// use serde_json::{json, Value};
    ///
    /// /// `{"@call": "greeting"}`: "Hello, " and the `name` of the data context.
    /// struct Greeting;
    /// impl Function for Greeting {
    ///     fn call(&self, _args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
    ///         let name = cx.read("name")?.map(|v| v.as_str().unwrap_or("").to_owned());
    ///         Ok(Value::from(format!("Hello, {}", name.unwrap_or_default())))
    ///     }
    /// }
    /// let mut env = Environment::new();
    /// env.catalog_mut(a2ui_catalog_mcp::MCP_CATALOG_ID).unwrap().add_function("greeting", ArgSchema::new(), Greeting);
    /// let payload = env.compile(&json!({"@call": "greeting"}))?;
    /// let mut model = json!({"people": [{"name": "Ada"}]});
    /// assert_eq!(payload.eval_in(&mut model, &JsonPointer::parse("/people/0")?)?, json!("Hello, Ada"));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn read(&self, path: &str) -> Result<Option<Cow<'_, Value>>, Error> {
        let pointer = DataPath::parse(path)?.resolve(self.context);
        if pointer.has_forbidden_token() {
            return Ok(None);
        }
        Ok(self.model.and_then(|model| model.read_at(&pointer)))
    }

    /// The data context the payload is evaluated in: relative paths join it, and inside a list
    /// template it ends with the item's array index (`/rows/2`).
    pub fn data_context(&self) -> &JsonPointer {
        self.context
    }

    /// Whether [`call_tool`](CallContext::call_tool) can run a tool in this evaluation.
    pub(crate) fn can_call_tools(&self) -> bool {
        self.tools
    }

    /// Makes the call's value the response of a tool call, which the evaluation runs once the
    /// function returns (what the function returns is then ignored).
    pub(crate) fn call_tool(&mut self, call: ToolCall) -> Value {
        self.tool_call = Some(call);
        Value::Null
    }

    /// What [`Function::prepare`] returned for this call site, if it is a `T`.
    pub fn prepared<T: 'static>(&self) -> Option<&T> {
        self.prepared.and_then(|p| p.downcast_ref())
    }

    /// Queues a write of `value` at `path` (absolute, or relative to the data context). The
    /// queued writes are checked and applied together, all or nothing, after the call returns.
    pub fn write(&mut self, path: impl Into<String>, value: Value) {
        self.writes.push((path.into(), value));
    }

    /// Makes `text` the call's value (for the built-in functions; what they return is then
    /// ignored).
    pub(crate) fn return_text(&mut self, text: SharedText) -> Value {
        self.text = Some(Arc::new(text));
        Value::Null
    }

    /// Fails with `LIMIT_EXCEEDED` when an output of `items` items and `bytes` bytes of text is
    /// over the limits.
    pub fn check_output(&self, items: usize, bytes: usize) -> Result<(), Error> {
        let (limits, over) = (self.limits, |what: String| {
            Err(Error::new(
                ErrorCode::LimitExceeded,
                format!("the output has more than {what}"),
            ))
        });
        if items > limits.max_output_items {
            return over(format!("{} items", limits.max_output_items));
        }
        if bytes > limits.max_output_bytes {
            return over(format!("{} bytes of text", limits.max_output_bytes));
        }
        Ok(())
    }
}

/// A catalog entry: the function's schema and, once implemented, the implementation.
#[derive(Clone)]
pub(crate) struct FunctionDef {
    pub(crate) schema: Arc<ArgSchema>,
    pub(crate) imp: Option<Arc<dyn Function>>,
    /// Whether the function calls tools (`callMcpTool`): a payload that calls it needs the
    /// asynchronous evaluation.
    pub(crate) tool: bool,
    /// Who may call the function and when; the evaluation checks every call against its origin.
    pub(crate) access: Access,
    /// What a catalog document declares of the function (return type, argument schema).
    pub(crate) declaration: Option<Arc<FunctionDeclaration>>,
}

/// A named set of functions.
#[derive(Clone)]
pub struct Catalog {
    id: String,
    functions: HashMap<String, FunctionDef>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.functions.keys().collect();
        names.sort();
        f.debug_struct("Catalog")
            .field("id", &self.id)
            .field("functions", &names)
            .finish()
    }
}

impl Catalog {
    /// An empty catalog with this id.
    pub fn new(id: impl Into<String>) -> Catalog {
        Catalog {
            id: id.into(),
            functions: HashMap::new(),
        }
    }

    /// The catalog a catalog document declares: its id (`catalogId`, else `$id`) and its
    /// `functions`, each with its arguments, return type and argument schema (see
    /// [`FunctionDeclaration`] and the notes below), without
    /// implementations: give them with [`implement_function`](Catalog::implement_function).
    /// Calling a declared function that has no implementation compiles, and fails when it runs
    /// with an `EXPRESSION_ERROR` naming the function and the catalog.
    ///
    /// A document that is not a catalog (not an object, no id, neither `catalogId`,
    /// `functions` nor `components`, an entry that declares no function) is a
    /// `VALIDATION_FAILED` error saying what is wrong.
    ///
    /// # Catalog documents
    ///
    /// Both entry shapes are read: the MCP catalog's (`properties."@call"` and
    /// `properties.args`, `returnType` beside them) and the basic catalog's (the same nested in
    /// `allOf` next to a `$ref` to the common types; `call` instead of `@call`). Arguments are
    /// the `properties` and `required` of the argument schemas; `additionalProperties: false` or
    /// `unevaluatedProperties: false` rejects undeclared ones. With the feature `json-schema`,
    /// literal arguments are also validated against the schema at compile time, dynamic ones
    /// left out; a call's `returnType` must match the declared one. [`FunctionDeclaration`]
    /// says exactly what is checked and which schema keywords are understood.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, Args};
    /// use serde_json::{json, Value};
    ///
    /// let mut catalog = Catalog::from_schema(&json!({
    ///     "catalogId": "https://example.com/parsers.json",
    ///     "functions": {
    ///         "upper": {"properties": {"args": {"properties": {"value": {}}, "required": ["value"], "additionalProperties": false}}},
    ///         "lower": {"properties": {"args": {"properties": {"value": {}}, "required": ["value"]}}}
    ///     }
    /// }))?;
    /// catalog.implement_function("upper", |args: &Args<'_>| Ok(Value::from(args.value_or_null("value").as_str().unwrap_or("").to_uppercase())))?;
    /// let mut env = Environment::new();
    /// env.add_catalog(catalog);
    /// let call = |f: &str| json!({"@call": f, "catalogId": "https://example.com/parsers.json", "args": {"value": "a"}});
    /// assert_eq!(env.compile(&call("upper"))?.eval(&mut json!({}))?, json!("A"));
    /// let lower = env.compile(&call("lower"))?; // compiles: the host may implement it later
    /// let err = lower.eval(&mut json!({})).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::ExpressionError);
    /// assert_eq!(err.message(), "function 'lower' is declared by catalog 'https://example.com/parsers.json' but the host has not implemented it");
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn from_schema(schema: &Value) -> Result<Catalog, Error> {
        document::load(schema, document::LiteralChecks::On)
    }

    /// A catalog document whose functions check their own literal arguments (the built-in
    /// ones, with the reference's messages): the schema declares their arguments only.
    pub(crate) fn from_schema_without_literal_checks(schema: &Value) -> Result<Catalog, Error> {
        document::load(schema, document::LiteralChecks::Off)
    }

    /// Gives a function the catalog declares its implementation, keeping its declared schema.
    /// An undeclared name is an error (use [`add_function`](Catalog::add_function) to declare).
    pub fn implement_function(
        &mut self,
        name: &str,
        function: impl Function,
    ) -> Result<&mut Catalog, Error> {
        let def = self.functions.get_mut(name).ok_or_else(|| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("catalog '{}' declares no function '{name}'", self.id),
            )
        })?;
        def.imp = Some(Arc::new(function));
        Ok(self)
    }

    /// Adds (or replaces) a function.
    pub fn add_function(
        &mut self,
        name: impl Into<String>,
        schema: ArgSchema,
        function: impl Function,
    ) -> &mut Catalog {
        self.functions.insert(
            name.into(),
            FunctionDef {
                schema: Arc::new(schema),
                imp: Some(Arc::new(function)),
                tool: false,
                access: Access::default(),
                declaration: None,
            },
        );
        self
    }

    /// [`add_function`](Catalog::add_function), by value.
    pub fn with_function(
        mut self,
        name: impl Into<String>,
        schema: ArgSchema,
        function: impl Function,
    ) -> Catalog {
        self.add_function(name, schema, function);
        self
    }

    /// Gives a declared function its implementation, keeping its schema.
    pub(crate) fn implement(&mut self, name: &str, function: impl Function) {
        // The bundled schema declares every function the crate implements (tested).
        let _ = self.implement_function(name, function);
    }

    /// Marks a declared function as one that calls tools (see [`FunctionDef::tool`]).
    pub(crate) fn mark_tool(&mut self, name: &str) {
        if let Some(def) = self.functions.get_mut(name) {
            def.tool = true;
        }
    }

    /// Sets who may call a function and when (what a catalog document declares with
    /// `allowedCallers` and `requiresUserActivation`; functions added in code start with the
    /// A2UI default, [`Access::default`]: the renderer, without user activation). The engine
    /// refuses a call whose [`Origin`](crate::Origin) the access does not admit, whatever the
    /// host's tool policy; payloads compiled before keep the access they were compiled with.
    /// An unknown name is an error.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Args, Catalog, Environment, JsonPointer, Origin, functions::{Access, AllowedCallers}};
    /// use serde_json::{json, Value};
    ///
    /// let mut catalog = Catalog::new("https://example.com/shell.json")
    ///     .with_function("openUrl", Default::default(), |_: &Args<'_>| Ok(Value::Null));
    /// catalog.set_access("openUrl", Access::new(AllowedCallers::RendererOnly, true))?;
    /// let mut env = Environment::new();
    /// env.add_catalog(catalog);
    /// let open = env.compile(&json!({"@call": "openUrl", "catalogId": "https://example.com/shell.json"}))?;
    /// let mut model = json!({});
    /// assert!(open.eval(&mut model).is_err()); // a binding: no user activation
    /// assert!(open.eval_from(&mut model, &JsonPointer::root(), Origin::Action).is_ok());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn set_access(&mut self, name: &str, access: Access) -> Result<&mut Catalog, Error> {
        let def = self.functions.get_mut(name).ok_or_else(|| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("catalog '{}' has no function '{name}'", self.id),
            )
        })?;
        def.access = access;
        Ok(self)
    }

    /// Removes a function (to register part of a catalog only).
    pub fn remove_function(&mut self, name: &str) -> &mut Catalog {
        self.functions.remove(name);
        self
    }

    /// The catalog's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The names of its functions, sorted.
    pub fn function_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.functions.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    pub(crate) fn function(&self, name: &str) -> Option<&FunctionDef> {
        self.functions.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_that_cannot_be_read_are_errors() {
        assert!(Catalog::from_schema(&serde_json::json!({"functions": {}})).is_err());
        assert!(Catalog::from_schema(&serde_json::json!({"$id": "x", "functions": []})).is_err());
        assert!(
            Catalog::from_schema(&serde_json::json!({"$id": "x", "functions": {"f": {}}})).is_err()
        );
        assert!(Catalog::from_schema(&serde_json::json!({"$id": "x"})).is_err());
        let mut c = Catalog::from_schema(&serde_json::json!({"catalogId": "x"})).unwrap();
        assert!(
            c.implement_function("nope", |_: &Args<'_>| Ok(Value::Null))
                .is_err()
        );
    }

    /// A function sees its arguments and context in `{:?}`: the passed arguments by name, the
    /// absent ones left out.
    #[test]
    fn arguments_and_context_are_debuggable() {
        use serde_json::json;
        struct Show;
        impl Function for Show {
            fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
                Ok(Some(Box::new(format!("{args:?}"))))
            }
            fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
                let at_compile = cx.prepared::<String>().cloned().unwrap_or_default();
                Ok(json!([at_compile, format!("{args:?}"), format!("{cx:?}")]))
            }
        }
        let catalog = Catalog::new("c").with_function(
            "show",
            ArgSchema::new().required("a").optional("b").optional("c"),
            Show,
        );
        let mut env = crate::Environment::new();
        env.add_catalog(catalog).set_default_catalog("c");
        let payload = env
            .compile(&json!({"@call": "show", "args": {"a": {"@path": "/x"}, "b": 2}}))
            .unwrap();
        let shown = payload.eval(&mut json!({"x": "one"})).unwrap();
        assert_eq!(
            shown[0],
            r#"{"a": Dynamic, "b": Literal(Number(2)), "c": Absent}"#
        );
        assert_eq!(shown[1], r#"{"a": String("one"), "b": Number(2)}"#);
        let cx = shown[2].as_str().unwrap();
        assert!(
            cx.starts_with("CallContext { origin: Binding, data_context: "),
            "{cx}"
        );
    }
}
