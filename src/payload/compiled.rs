//! [`Payload`]: a compiled payload, and what it tells about itself without being evaluated
//! (what it reads, whether it may write, the tools it names, its warnings). Its evaluations are
//! in `eval_sync.rs` and `eval_async.rs`.

use super::compile::{self, Scope};
use super::deps::Deps;
use super::eval::Machine;
use super::program::{self, Program};
use super::tool_names::ToolNames;
use crate::error::{Error, Warning};
use crate::limits::Limits;
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
    // The unit tests count its nodes.
    pub(super) program: Program,
    limits: Limits,
    /// What the program reads and whether it may write (see `deps.rs`).
    deps: Deps,
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
    (payload_of(scope, program, &warnings), warnings)
}

/// Compiles a payload as [`compile`] does, and says what the compiler's walk saw of it
/// ([`Walk`](compile::Walk)); a payload that compiles to itself (not
/// [`rewritten`](compile::Walk::rewritten)) is not made into a [`Payload`] (`Ok(None)`).
pub(crate) fn compile_walked(
    scope: &Scope<'_>,
    payload: &Value,
) -> (Result<Option<Payload>, Error>, Vec<Warning>, compile::Walk) {
    let (program, warnings, walk) = compile::compile_walked(scope, payload);
    let payload = match program {
        Ok(_) if !walk.rewritten => Ok(None),
        program => payload_of(scope, program, &warnings).map(Some),
    };
    (payload, warnings, walk)
}

fn payload_of(
    scope: &Scope<'_>,
    program: Result<Program, Error>,
    warnings: &[Warning],
) -> Result<Payload, Error> {
    program.map(|program| Payload {
        deps: Deps::of(&program),
        program,
        limits: scope.limits.clone(),
        warnings: warnings.to_vec(),
    })
}

impl Payload {
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

    /// The absolute paths this payload reads when evaluated with `context` as the data context:
    /// every binding (`@path`) at any depth, relative ones joined to `context` as evaluation
    /// joins them, sorted by pointer string (the root prints as `/`), each once.
    ///
    /// A binding to a path that does not exist yet is a dependency too: writing it later
    /// changes the value. The keys of `updateDataModel`'s `updates` and a literal
    /// `targetDataPath` are write targets, not dependencies. A function that reads the model
    /// itself adds the paths it declares ([`Function::reads`](crate::Function::reads)), or the
    /// root `/` (the whole model) when it cannot tell. The list is known without evaluating, and computing it
    /// for another context only joins the relative paths (see
    /// [`depends_on_context`](Payload::depends_on_context)).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer};
    /// use serde_json::json;
    ///
    /// let env = Environment::new();
    /// let payload = env.compile(&json!({
    ///     "@call": "updateDataModel",
    ///     "args": {"updates": {"/copy": {"@path": "name"}, "/seen": {"@path": "/clock"}}}
    /// }))?;
    /// let row = JsonPointer::parse("/rows/3")?;
    /// let deps: Vec<String> = payload.dependencies(&row).iter().map(ToString::to_string).collect();
    /// assert_eq!(deps, ["/clock", "/rows/3/name"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn dependencies(&self, context: &JsonPointer) -> Vec<JsonPointer> {
        self.deps.dependencies(context)
    }

    /// Whether the payload has relative bindings, so that its
    /// [`dependencies`](Payload::dependencies) differ from one data context to another. When it
    /// has none, one list serves every row of a template.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::Environment;
    /// # use serde_json::json;
    /// let env = Environment::new();
    /// assert!(env.compile(&json!({"@path": "name"}))?.depends_on_context());
    /// assert!(!env.compile(&json!({"@path": "/title"}))?.depends_on_context());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn depends_on_context(&self) -> bool {
        self.deps.depends_on_context()
    }

    /// The absolute paths the payload reads, whatever its context (sorted, each once).
    pub(crate) fn absolute_dependencies(&self) -> impl Iterator<Item = &JsonPointer> {
        self.deps.absolute_dependencies()
    }

    /// The relative paths the payload reads, as tokens to append to its context.
    pub(crate) fn relative_dependencies(&self) -> impl Iterator<Item = &[String]> {
        self.deps.relative_dependencies()
    }

    /// Whether evaluating the payload may write to the data model: it calls `updateDataModel`,
    /// passes a `targetDataPath` to `callMcpTool`, or calls a host function that declares writes
    /// ([`Function::may_write`](crate::catalog::Function::may_write)). A payload that may not
    /// write only reads the model.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::Environment;
    /// # use serde_json::json;
    /// let env = Environment::new();
    /// let label = env.compile(&json!({"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": ","}}))?;
    /// assert!(!label.may_write());
    /// let select = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/selected": 1}}}))?;
    /// assert!(select.may_write());
    /// let search = env.compile(&json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}))?;
    /// assert!(search.may_write());
    /// let fetch = env.compile(&json!({"@call": "callMcpTool", "args": {"name": "search"}}))?;
    /// assert!(!fetch.may_write());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn may_write(&self) -> bool {
        self.deps.may_write()
    }
}
