//! Catalogs: named sets of functions a payload can call, each with the schema of its arguments.
//!
//! The MCP catalog is built in ([`Catalog::mcp`]); hosts register their own functions, in their
//! own catalogs or in the MCP one, as plain Rust closures or as [`Function`] implementations.
//!
//! ```
//! use a2ui_catalog_mcp::{catalog::{ArgSchema, Catalog}, Environment, functions::to_js_string};
//! use serde_json::{json, Value};
//!
//! // The guide's `parseCsv`: split CSV text into rows of cells.
//! let parsers = Catalog::new("https://example.com/catalogs/parsers.json").with_function(
//!     "parseCsv",
//!     ArgSchema::new().required("value"),
//!     |args: &a2ui_catalog_mcp::catalog::Args<'_>| {
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
use crate::limits::Limits;
use crate::mcp::ToolResponse;
use crate::slices::Slices;
use serde_json::Value;
use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

mod document;

pub use document::FunctionDeclaration;
pub(crate) use document::{implementation, is_dynamic_node};

/// The id of the MCP catalog.
pub const MCP_CATALOG_ID: &str = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";

/// The published MCP catalog schema, as the crate carries it.
pub const MCP_CATALOG_JSON: &str = include_str!("../catalog/mcp-catalog-v1.json");

/// State a function computed from a call site's literal arguments at compile time (a compiled
/// JMESPath expression, a compiled pattern), handed back on every call.
pub type Prepared = Box<dyn Any + Send + Sync>;

/// A catalog function.
///
/// Most functions only need [`call`](Function::call); a closure
/// `Fn(&Args) -> Result<Value, Error>` is a `Function` too.
pub trait Function: Send + Sync + 'static {
    /// Looks at one call site when the payload is compiled: rejects literal arguments that can
    /// never work, and prepares what can be prepared once. The default accepts everything.
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        let _ = args;
        Ok(None)
    }

    /// Runs the function on evaluated arguments. Writes to the data model go through
    /// [`CallContext::write`]; they are applied, all or nothing, when the call returns `Ok`.
    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error>;
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
/// use a2ui_catalog_mcp::catalog::ArgSchema;
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
    /// use a2ui_catalog_mcp::catalog::ArgSchema;
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
}

impl<'a> StaticArgs<'a> {
    /// A declared argument (`Absent` for an undeclared name too).
    pub fn get(&self, name: &str) -> StaticArg<'a> {
        self.schema
            .slot(name)
            .map_or(StaticArg::Absent, |slot| self.args[slot])
    }
}

/// A call's evaluated arguments, by declared name.
///
/// Values read through a binding are lent by the data model, not copied.
pub struct Args<'a> {
    pub(crate) schema: &'a ArgSchema,
    pub(crate) values: Vec<Option<ArgValue<'a>>>,
}

/// One evaluated argument: JSON (lent by the model or the payload, or owned), or a tool's
/// response object in its fast form, converted to JSON only if the function asks for JSON.
pub(crate) enum ArgValue<'a> {
    Json(Cow<'a, Value>),
    Response(Arc<ToolResponse>),
    /// Strings cut out of one shared text (a built-in function's result).
    Slices(Arc<Slices>),
}

/// A read-only view of an argument, for functions that can read either form (JMESPath).
pub(crate) enum ArgView<'v> {
    Json(&'v Value),
    Response(&'v Arc<ToolResponse>),
    Slices(&'v Arc<Slices>),
}

static NULL: Value = Value::Null;

impl<'a> Args<'a> {
    /// The argument's value, `None` when it was not passed.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self.values[self.schema.slot(name)?].as_ref()? {
            ArgValue::Json(v) => Some(v),
            ArgValue::Response(r) => Some(r.value()),
            ArgValue::Slices(s) => Some(s.value()),
        }
    }

    /// The argument's value, `null` when it was not passed.
    pub fn value_or_null(&self, name: &str) -> &Value {
        self.get(name).unwrap_or(&NULL)
    }

    /// Takes the argument out: owned values move, lent ones stay borrowed.
    pub fn take(&mut self, name: &str) -> Option<Cow<'a, Value>> {
        Some(match self.values[self.schema.slot(name)?].take()? {
            ArgValue::Json(v) => v,
            ArgValue::Response(r) => Cow::Owned(
                Arc::try_unwrap(r).map_or_else(|r| r.value().clone(), ToolResponse::into_value),
            ),
            ArgValue::Slices(s) => Cow::Owned(
                Arc::try_unwrap(s).map_or_else(|s| s.value().clone(), Slices::into_value),
            ),
        })
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
        Some(match self.values[self.schema.slot(name)?].as_ref()? {
            ArgValue::Json(v) => ArgView::Json(v),
            ArgValue::Response(r) => ArgView::Response(r),
            ArgValue::Slices(s) => ArgView::Slices(s),
        })
    }
}

/// What a running function can reach besides its arguments.
pub struct CallContext<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) prepared: Option<&'a (dyn Any + Send + Sync)>,
    pub(crate) writes: Vec<(String, Value)>,
    /// A built-in function's result as `Slices`, which then stands for the returned value.
    pub(crate) slices: Option<Arc<Slices>>,
}

impl CallContext<'_> {
    /// The environment's limits (output size, index).
    pub fn limits(&self) -> &Limits {
        self.limits
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

    /// Makes `slices` the call's value (for the built-in functions; what they return is then
    /// ignored).
    pub(crate) fn return_slices(&mut self, slices: Slices) -> Value {
        self.slices = Some(Arc::new(slices));
        Value::Null
    }

    /// Fails with `LIMIT_EXCEEDED` when an output of `items` items and `bytes` bytes of text is
    /// over the limits.
    pub fn check_output(&self, items: usize, bytes: usize) -> Result<(), Error> {
        if items > self.limits.max_output_items {
            return Err(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the output has more than {} items",
                    self.limits.max_output_items
                ),
            ));
        }
        if bytes > self.limits.max_output_bytes {
            return Err(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the output has more than {} bytes of text",
                    self.limits.max_output_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// A catalog entry: the function's schema and, once implemented, the implementation.
#[derive(Clone)]
pub(crate) struct FunctionDef {
    pub(crate) schema: Arc<ArgSchema>,
    pub(crate) imp: Option<Arc<dyn Function>>,
    /// The built-in `callMcpTool`, which asynchronous evaluation runs with the host's client.
    pub(crate) tool: bool,
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

    /// The built-in MCP catalog, with its functions' schemas from the published catalog JSON
    /// and the crate's implementations, sized by the default [`Limits`].
    pub fn mcp() -> Catalog {
        Catalog::mcp_with(&Limits::default())
    }

    /// The MCP catalog with caches sized by `limits`.
    pub(crate) fn mcp_with(limits: &Limits) -> Catalog {
        let schema: Value =
            serde_json::from_str(MCP_CATALOG_JSON).expect("the bundled catalog is valid JSON");
        // The crate's functions check their own arguments, with the reference's messages.
        let mut catalog = document::load(&schema, document::LiteralChecks::Off)
            .expect("the bundled catalog is well formed");
        crate::functions::implement_mcp(&mut catalog, limits);
        catalog
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
    /// use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, catalog::Args};
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

    /// Marks a declared function as the tool call the asynchronous evaluation runs itself.
    pub(crate) fn mark_tool(&mut self, name: &str) {
        if let Some(def) = self.functions.get_mut(name) {
            def.tool = true;
        }
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
    fn the_mcp_catalog_implements_every_function_its_schema_declares() {
        let mcp = Catalog::mcp();
        assert_eq!(
            mcp.function_names(),
            [
                "callMcpTool",
                "regexCapture",
                "split",
                "transformData",
                "updateDataModel"
            ]
        );
        for name in mcp.function_names() {
            assert!(mcp.function(name).unwrap().imp.is_some(), "{name}");
        }
        assert!(mcp.function("callMcpTool").unwrap().tool);
    }

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
}
