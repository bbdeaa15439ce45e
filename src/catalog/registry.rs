//! A catalog: its id and the functions registered under it.

use super::args::{ArgSchema, Args};
use super::context::CallContext;
use super::document::{FunctionDeclaration, LiteralChecks, load};
use super::function::Function;
use crate::error::{Error, ErrorCode};
use crate::json::DEFAULT_MAX_DEPTH;
use crate::origin::Access;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

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
        Catalog::declared(schema, LiteralChecks::On)
    }

    /// A catalog document whose functions check their own literal arguments (the built-in
    /// ones, with the reference's messages): the schema declares their arguments only.
    pub(crate) fn from_schema_without_literal_checks(schema: &Value) -> Result<Catalog, Error> {
        Catalog::declared(schema, LiteralChecks::Off)
    }

    /// The catalog of a document's declarations, none of them implemented yet.
    fn declared(schema: &Value, checks: LiteralChecks) -> Result<Catalog, Error> {
        let (id, declarations) = load(schema, checks)?;
        let mut catalog = Catalog::new(id);
        for declaration in declarations {
            let name = declaration.name().to_owned();
            let def = FunctionDef {
                schema: Arc::new(declaration.arguments().clone()),
                imp: None,
                tool: false,
                access: declaration.access(),
                declaration: Some(Arc::new(declaration)),
            };
            catalog.functions.insert(name, def);
        }
        Ok(catalog)
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

/// What a declared function that the host has not implemented does when it is called.
struct NotImplemented {
    function: String,
    catalog: String,
}

impl Function for NotImplemented {
    fn call(&self, _args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
        Err(Error::new(
            ErrorCode::ExpressionError,
            format!(
                "function '{}' is declared by catalog '{}' but the host has not implemented it",
                self.function, self.catalog
            ),
        )
        .with_function(self.function.clone()))
    }
}

/// The implementation a call of `def` runs: its own, or one that fails naming the function and
/// its catalog.
pub(crate) fn implementation(def: &FunctionDef, name: &str) -> Arc<dyn Function> {
    match &def.imp {
        Some(function) => Arc::clone(function),
        None => Arc::new(NotImplemented {
            function: name.to_owned(),
            catalog: def
                .declaration
                .as_ref()
                .map_or_else(String::new, |d| d.catalog_id().to_owned()),
        }),
    }
}

impl Catalog {
    /// The declaration of a function this catalog read from its document (`None` for a
    /// function the host added with [`add_function`](Catalog::add_function), or an unknown
    /// name).
    pub fn declaration(&self, name: &str) -> Option<&FunctionDeclaration> {
        self.functions.get(name)?.declaration.as_deref()
    }

    /// Whether the catalog has an implementation for `name` (declared functions have none until
    /// the host attaches one with [`implement_function`](Catalog::implement_function)).
    pub fn is_implemented(&self, name: &str) -> bool {
        self.functions.get(name).is_some_and(|f| f.imp.is_some())
    }

    /// [`Catalog::from_schema`] on JSON text, parsed with the default depth limit (128).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, ErrorCode};
    /// let err = Catalog::from_schema_str(r#"{"$id": "x", "$defs": {}}"#).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::ValidationFailed);
    /// assert!(err.message().contains("not an A2UI catalog document"));
    /// ```
    pub fn from_schema_str(text: &str) -> Result<Catalog, Error> {
        let doc = crate::json::from_str_limited(text, DEFAULT_MAX_DEPTH)?;
        Catalog::from_schema(&doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Prepared, StaticArgs};

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
        let env = crate::Environment::new()
            .with_catalog(catalog)
            .with_default_catalog("c");
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
