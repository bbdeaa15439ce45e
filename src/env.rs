//! The [`Environment`]: the catalogs, the default catalog, the limits and the spelling a host
//! compiles payloads with.

use crate::builtins::MCP_CATALOG_ID;
use crate::catalog::Catalog;
use crate::error::{Error, Phase, Warning};
use crate::limits::Limits;
use crate::origin::Origin;
use crate::payload::{self, Payload, Scope};
use crate::syntax::Spelling;
use serde_json::Value;
use std::collections::HashMap;

/// What payloads are compiled against: catalogs by id, the default catalog, limits, and the
/// [`Spelling`] of bindings and calls.
///
/// Create one per host (or per surface when surfaces differ), compile payloads with it, and
/// evaluate the compiled [`Payload`]s as often as needed.
///
/// ```
/// use a2ui_catalog_mcp::Environment;
/// use serde_json::json;
///
/// let env = Environment::new();
/// let payload = env.compile(&json!({
///     "@call": "updateDataModel",
///     "args": {"updates": {"/greeting": {"@call": "split", "args": {"value": "a b", "separator": " "}}}}
/// })).unwrap();
/// let mut model = json!({});
/// payload.eval(&mut model).unwrap();
/// assert_eq!(model, json!({"greeting": ["a", "b"]}));
/// ```
#[derive(Debug, Clone)]
pub struct Environment {
    catalogs: HashMap<String, Catalog>,
    default_catalog: String,
    limits: Limits,
    spelling: Spelling,
    schema_checks: bool,
}

impl Default for Environment {
    fn default() -> Environment {
        Environment::new()
    }
}

impl Environment {
    /// An environment with the MCP catalog registered and used as the default catalog, and the
    /// default [`Limits`].
    pub fn new() -> Environment {
        let mut env = Environment::empty();
        env.add_catalog(Catalog::mcp());
        env
    }

    /// An environment without any catalog. The default catalog id is still the MCP one: add a
    /// catalog with that id, or set another default.
    pub fn empty() -> Environment {
        Environment {
            catalogs: HashMap::new(),
            default_catalog: MCP_CATALOG_ID.to_owned(),
            limits: Limits::default(),
            spelling: Spelling::At,
            schema_checks: false,
        }
    }

    /// Registers a catalog (replacing one with the same id).
    pub fn add_catalog(&mut self, catalog: Catalog) -> &mut Environment {
        self.catalogs.insert(catalog.id().to_owned(), catalog);
        self
    }

    /// [`add_catalog`](Environment::add_catalog), by value: the form for building an
    /// environment in one expression.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, Environment};
    ///
    /// let env = Environment::new()
    ///     .with_catalog(Catalog::new("https://example.com/mine.json"))
    ///     .with_default_catalog("https://example.com/mine.json");
    /// assert_eq!(env.default_catalog(), "https://example.com/mine.json");
    /// ```
    pub fn with_catalog(mut self, catalog: Catalog) -> Environment {
        self.add_catalog(catalog);
        self
    }

    /// The catalog with this id, to add functions to it.
    pub fn catalog_mut(&mut self, id: &str) -> Option<&mut Catalog> {
        self.catalogs.get_mut(id)
    }

    /// Sets the catalog used by calls without `catalogId` (normally the surface's catalog).
    /// Default: the MCP catalog.
    pub fn with_default_catalog(mut self, id: impl Into<String>) -> Environment {
        self.default_catalog = id.into();
        self
    }

    /// The default catalog id.
    pub fn default_catalog(&self) -> &str {
        &self.default_catalog
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Replaces all limits. Payloads compiled from now on apply them (functions read them
    /// from each call); payloads compiled before keep theirs.
    pub fn with_limits(mut self, limits: Limits) -> Environment {
        self.limits = limits;
        self
    }

    /// Deepest payload nesting (default 128).
    pub fn with_max_depth(mut self, depth: usize) -> Environment {
        self.limits.max_depth = depth;
        self
    }

    /// Highest array index a write may use (default 10 000).
    pub fn with_max_index(mut self, index: usize) -> Environment {
        self.limits.max_index = index;
        self
    }

    /// Most items and bytes of text one function may return (defaults 4 194 304 and 64 MiB).
    pub fn with_max_output(mut self, items: usize, bytes: usize) -> Environment {
        self.limits.max_output_items = items;
        self.limits.max_output_bytes = bytes;
        self
    }

    /// Sets how bindings and calls are spelled: [`Spelling::At`] (the default:
    /// `{"@path": …}`, `{"@call": …}`) or [`Spelling::Plain`] (`{"path": …}` and `{"call": …}`
    /// too, as the A2UI specification writes them; see [`Spelling`] for the ambiguity this
    /// brings back). Payloads compiled before keep the reading they were compiled with.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, Spelling};
    /// use serde_json::json;
    ///
    /// let payload = json!({"@call": "updateDataModel", "args": {"updates": {"/copy": {"path": "/name"}}}});
    /// let env = Environment::new();
    /// let mut model = json!({"name": "Ada"});
    /// env.compile(&payload)?.eval(&mut model)?; // the `@` spelling: a literal object, and a warning
    /// assert_eq!(model["copy"], json!({"path": "/name"}));
    /// let env = env.with_spelling(Spelling::Plain);
    /// env.compile(&payload)?.eval(&mut model)?; // the plain spelling: a binding
    /// assert_eq!(model["copy"], json!("Ada"));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn with_spelling(mut self, spelling: Spelling) -> Environment {
        self.spelling = spelling;
        self
    }

    /// How bindings and calls are spelled (default [`Spelling::At`]).
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }

    /// Validates the literal arguments of every call against its function's argument schema
    /// in its catalog's document, the built-in catalogs' included (the bundled MCP and basic
    /// catalog documents), each problem at the argument (`/args/min`), as a linter does (the
    /// CLI's `check`, [`ProcessorOptions::strict`](crate::surfaces::ProcessorOptions::strict)).
    /// Default off: the built-in functions then check their own literal arguments by the
    /// reference renderer's rules, which read numeric text as a number and any value as a
    /// boolean where the schema says `number` or `boolean`. Documents a host reads
    /// ([`Catalog::from_schema`]) are validated either way. Needs the feature `json-schema`;
    /// without it, this does nothing.
    ///
    /// ```
    /// # #[cfg(feature = "basic-catalog")] {
    /// use a2ui_catalog_mcp::Environment;
    /// use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog};
    /// use serde_json::json;
    /// let mut env = Environment::new();
    /// env.add_catalog(BasicCatalog::new().build());
    /// let call = json!({"@call": "add", "catalogId": BASIC_CATALOG_ID, "args": {"a": "5", "b": 1}});
    /// assert!(env.compile(&call).is_ok()); // numeric text, as the reference adds it
    /// let env = env.with_schema_checks(true);
    /// # #[cfg(feature = "json-schema")]
    /// assert_eq!(env.check(&call).errors()[0].location(), "/args/a");
    /// # }
    /// ```
    pub fn with_schema_checks(mut self, on: bool) -> Environment {
        self.schema_checks = on;
        self
    }

    /// Whether literal arguments are validated against the catalogs' schemas
    /// ([`with_schema_checks`](Environment::with_schema_checks)).
    pub fn schema_checks(&self) -> bool {
        self.schema_checks
    }

    fn scope(&self, caller: Option<Origin>) -> Scope<'_> {
        Scope {
            catalogs: &self.catalogs,
            default_catalog: Some(&self.default_catalog),
            limits: &self.limits,
            spelling: self.spelling,
            caller,
            schema_checks: self.schema_checks,
        }
    }

    /// Compiles a payload with this environment's catalogs and limits in `scope` (its own
    /// default catalog, spelling and caller), returning its warnings too. What a surface or a
    /// message compiles in differs from the host's environment only in these settings, so they
    /// are passed here rather than set on a copy of the environment.
    pub(crate) fn compile_in(
        &self,
        payload: &Value,
        scope: CompileScope<'_>,
    ) -> (Result<Payload, Error>, Vec<Warning>) {
        payload::compile(&self.scope_in(scope), payload)
    }

    /// The compiler's scope for a [`CompileScope`]: this environment's catalogs, limits and
    /// schema checks, the rest from where the payload is.
    fn scope_in<'a>(&'a self, scope: CompileScope<'a>) -> Scope<'a> {
        Scope {
            catalogs: &self.catalogs,
            default_catalog: scope.default_catalog,
            limits: &self.limits,
            spelling: scope.spelling,
            caller: scope.caller,
            schema_checks: self.schema_checks,
        }
    }

    /// Compiles a payload in `scope` as [`compile_in`](Environment::compile_in) does, and says
    /// what the compiler's one walk saw of it: its depth, whether it compiles to itself (then
    /// there is no [`Payload`] to keep), each call with the catalog it names
    /// ([`Walk`](crate::payload::Walk)). What the surfaces processor judges a component's values by.
    pub(crate) fn compile_walked_in(
        &self,
        payload: &Value,
        scope: CompileScope<'_>,
    ) -> (Result<Option<Payload>, Error>, Vec<Warning>, payload::Walk) {
        payload::compile_walked(&self.scope_in(scope), payload)
    }

    /// Compiles a payload: checks its shape, resolves every function, checks arguments, and
    /// prepares literal JMESPath expressions and patterns. Every problem is reported at once
    /// (see [`Error::related`]); what compiles but most likely is not meant is in
    /// [`Payload::warnings`].
    pub fn compile(&self, payload: &Value) -> Result<Payload, Error> {
        payload::compile(&self.scope(None), payload).0
    }

    /// Compiles a payload that will only ever be evaluated for `caller`: a function whose
    /// catalog's `allowedCallers` does not admit it is refused now, at the call
    /// (`EXPRESSION_ERROR`, [`Denial::AllowedCallers`](crate::Denial::AllowedCallers)), instead
    /// of when it runs. A component's values are the renderer's ([`Origin::Binding`]): a
    /// function declared `agentOnly` there can never run (the A2UI rule since November 2026).
    /// [`compile`](Environment::compile) leaves the check to evaluation, where the origin is
    /// known; user activation is always judged then.
    ///
    /// ```
    /// use a2ui_catalog_mcp::functions::{Access, AllowedCallers};
    /// use a2ui_catalog_mcp::{Args, Catalog, Environment, ErrorCode, Origin};
    /// use serde_json::{json, Value};
    ///
    /// let mut catalog = Catalog::new("host").with_function("secret", Default::default(), |_: &Args<'_>| Ok(Value::Null));
    /// catalog.set_access("secret", Access::new(AllowedCallers::AgentOnly, false))?;
    /// let mut env = Environment::new();
    /// env.add_catalog(catalog);
    /// let call = json!({"@call": "updateDataModel", "args": {"updates": {"/x": {"@call": "secret", "catalogId": "host"}}}});
    /// let err = env.compile_for(&call, Origin::Binding).unwrap_err();
    /// assert_eq!((err.code(), err.location()), (ErrorCode::ExpressionError, "/args/updates/~1x"));
    /// assert!(env.compile_for(&json!({"@call": "secret", "catalogId": "host"}), Origin::Agent).is_ok());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn compile_for(&self, payload: &Value, caller: Origin) -> Result<Payload, Error> {
        payload::compile(&self.scope(Some(caller)), payload).0
    }

    /// Compiles a payload for its problems only, as a linter does: every error and every
    /// warning, whether it compiles or not.
    ///
    /// ```
    /// use a2ui_catalog_mcp::Environment;
    /// use serde_json::json;
    ///
    /// let found = Environment::new().check(&json!([{"path": "/a"}, {"@call": "split", "args": {}}]));
    /// assert_eq!(found.errors().len(), 2); // split's value and separator
    /// assert_eq!(found.warnings()[0].location(), "/0");
    /// assert!(!found.is_ok());
    /// ```
    pub fn check(&self, payload: &Value) -> Diagnostics {
        let (result, warnings) = payload::compile(&self.scope(None), payload);
        let (payload, errors) = match result {
            Ok(payload) => (Some(payload), Vec::new()),
            Err(err) => (None, err.into_problems()),
        };
        Diagnostics {
            errors,
            warnings,
            payload,
        }
    }

    /// Parses JSON text (with the depth limit) and compiles it.
    pub fn compile_str(&self, payload: &str) -> Result<Payload, Error> {
        let value = crate::json::from_str_limited(payload, self.limits.max_depth)
            .map_err(|e| e.with_phase(Phase::Compile))?;
        self.compile(&value)
    }

    /// The catalog with this id.
    pub fn catalog(&self, id: &str) -> Option<&Catalog> {
        self.catalogs.get(id)
    }

    /// The ids of the registered catalogs, sorted.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, MCP_CATALOG_ID};
    /// assert_eq!(Environment::new().catalog_ids(), [MCP_CATALOG_ID]);
    /// ```
    pub fn catalog_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.catalogs.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids
    }
}

/// The settings one compilation takes from where the payload is, not from the
/// [`Environment`] ([`Environment::compile_in`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompileScope<'a> {
    /// The catalog of calls that name none: a surface's `catalogId`; `None` when there is none
    /// (such a call is an error matched by [`MissingCatalog::NoDefault`](crate::MissingCatalog)).
    pub(crate) default_catalog: Option<&'a str>,
    /// How bindings and calls are spelled there.
    pub(crate) spelling: Spelling,
    /// Who evaluates the payload, when that is known now.
    pub(crate) caller: Option<Origin>,
}

/// What [`Environment::check`] found: every problem (each its own [`Error`], with its location)
/// and every [`Warning`].
#[derive(Debug, Default)]
pub struct Diagnostics {
    errors: Vec<Error>,
    warnings: Vec<Warning>,
    payload: Option<Payload>,
}

impl Diagnostics {
    /// The problems, in the order the compiler found them.
    pub fn errors(&self) -> &[Error] {
        &self.errors
    }

    /// The warnings, in document order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Whether the payload compiles (warnings or not).
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The compiled payload, when it compiles (to read its [`tool_names`](Payload::tool_names)
    /// or evaluate it without compiling again).
    pub fn payload(&self) -> Option<&Payload> {
        self.payload.as_ref()
    }
}
