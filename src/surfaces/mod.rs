//! The A2UI message processor: what a renderer needs between "messages arrive" and "draw these
//! nodes" (the web reference's `MessageProcessor`; the behaviour is `docs/surfaces.md`'s).
//!
//! A [`Processor`] holds the surfaces a stream builds, by id: each with its default catalog, its
//! components by id, its data model, `sendDataModel`, theme, and where it came from. Messages
//! are read by [`crate::stream`] and applied atomically: a message that fails changes nothing
//! and comes back as a [`ProcessError`] located by message index and JSON Pointer, with the
//! renderer-to-agent `error` message ready to send ([`ProcessError::to_agent_message`]).
//!
//! - `updateComponents` upserts whole components by id (a component sent again replaces the
//!   old one whole). Duplicate ids in one message, a self reference and a cycle are errors.
//!   [`ProcessorOptions::strict`] adds a dangling child, an orphan and a missing `root`.
//! - Each component is checked against its catalog: its own `catalogId` or the surface's
//!   default (none of them: a `CatalogError`); unknown type, unknown property, wrong literal
//!   type, missing required property. A surface whose default catalog is not registered keeps
//!   its components unchecked against a schema (the host did not give one), unless
//!   [`ProcessorOptions::fallback_catalog`] names one.
//! - Every dynamic value of a component is compiled once, when the component arrives, with the
//!   surface's default catalog for calls that name none (a call does not inherit the catalog of
//!   its component or of the call around it; `@index` belongs to no catalog).
//!
//! - The agent's `callRendererFunction` runs as the agent, as its catalog allows, and comes
//!   back with the response to send ([`RendererFunctionCall`]); the renderer's
//!   `callAgentFunction` ([`Processor::call_agent_function`]) is matched to the agent's answer.
//!
//! The catalogs are the ones the host registered ([`Processor::register_catalog`]); the MCP
//! catalog is always there.
//!
//! ```
//! use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
//! use serde_json::json;
//!
//! let mut processor = Processor::new(ProcessorOptions::default());
//! processor.register_catalog(&json!({"catalogId": "my", "protocolVersion": "v1.0", "components": {
//!     "Text": {"properties": {"component": {"const": "Text"}, "text": {"$ref": "common_types.json#/$defs/DynamicString"}}, "required": ["component", "text"]}
//! }}))?;
//! processor.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my",
//!     "components": [{"id": "root", "component": "Text", "text": {"path": "/name"}}]}})).unwrap();
//! let err = processor.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s",
//!     "components": [{"id": "root", "component": "Txt", "text": "x"}]}})).unwrap_err();
//! assert_eq!(err.to_string(), "message 1 at /updateComponents/components/0/component: ValidationError: unknown component type 'Txt' in catalog 'my' (its types: Text)");
//! // The message changed nothing.
//! assert_eq!(processor.surface("s").unwrap().component("root").unwrap().component, "Text");
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

mod graph;
mod live;
mod resolve;
mod rpc;
mod tool_runs;

pub use graph::{MAX_STEPS_BASE, STEPS_PER_EDGE, slot_pointer};
pub use live::{Changes, InstanceId, LiveNode, LiveView, SurfaceChanges};
pub use resolve::{Node, NodeState, ResolveLimits, Tree};
pub use rpc::{
    AgentFunctionResponse, EXECUTION_ERROR, INVALID_FUNCTION_CALL, RendererFunctionCall,
};
pub use tool_runs::{RunOutcome, ToolDone, ToolRun};
mod schema;
#[cfg(test)]
mod tests;

use crate::env::{CompileScope, Environment};
use crate::error::{Error, ErrorCode, MissingCatalog};
use crate::origin::{Origin, Provenance};
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::TrackedModel;
use crate::stream::{
    Body, Category, ComponentDef, CreateSurface, MessageError, ParseOptions, UpdateComponents,
    Version, messages_of, parse_message_with,
};
use crate::syntax::Spelling;
use schema::{CatalogInfo, ComponentSchema};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// The most warnings a processor keeps until the host takes them
/// ([`Processor::take_warnings`]); later ones are dropped.
const MAX_WARNINGS: usize = 1024;

/// How a [`Processor`] judges messages.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProcessorOptions {
    /// Strict validation (the suite's `strictMode`, `check --strict`): a dangling child, an
    /// orphan and a missing `root` are errors of the message that leaves them, and literal
    /// arguments of every catalog function are validated against its catalog document's schema
    /// ([`Environment::set_schema_checks`]). Default off: a renderer draws a child not yet
    /// defined as pending, since streams send parents first.
    pub strict: bool,
    /// A message without `version` is an error (the v1.0 processor's rule). Default off: it
    /// reads as v0.9.
    pub require_version: bool,
    /// The catalog whose component schemas check the components of a surface whose default
    /// catalog is not registered (a validator given one catalog). Default none.
    pub fallback_catalog: Option<String>,
    /// The most components the processor's surfaces may hold together (each surface's, summed:
    /// a stream cannot multiply the limit by creating more surfaces). Default 100 000; a
    /// message that would pass it is `LIMIT_EXCEEDED` and changes nothing.
    pub max_components: usize,
    /// The most surfaces the processor may hold at once. Default 1 024; a `createSurface` past
    /// it is `LIMIT_EXCEEDED` (delete one first).
    pub max_surfaces: usize,
    /// The most bytes the processor's surfaces may hold together: their ids, their components
    /// (ids, properties, children, and again for what dynamic properties compile to) and their
    /// data models, estimated from above ([`TrackedModel::held_bytes`]). Default 32 MiB; an
    /// agent's message that would pass it (`createSurface`, `updateComponents`,
    /// `updateDataModel`) is `LIMIT_EXCEEDED` and changes nothing. What the surface's own
    /// evaluations and tool results write is bounded per evaluation ([`crate::Limits`]) and
    /// counted, so the next message of the agent finds it.
    pub max_held_bytes: usize,
    /// A `createSurface` may name a default catalog that is not registered (its components are
    /// then not checked against a schema). Default off: `Catalog not found`, a `CatalogError`.
    pub accept_unregistered_catalogs: bool,
    /// Calls are checked (their catalogs resolved, their functions and arguments compiled).
    /// Default on; a checker that compiles them itself, reporting every problem, turns it off.
    pub check_calls: bool,
    /// Keep each surface's resolved tree live, with the limits of its resolution, and record
    /// what each message, host write and refresh changes ([`Processor::take_changes`],
    /// [`Surface::live`]). Default none: a renderer that resolves whole trees
    /// ([`Surface::resolve`]) pays nothing for it.
    pub live: Option<ResolveLimits>,
    /// The most tool runs that may wait for their answer at once ([`Processor::take_tool_runs`]).
    /// Default 4 096; one more fails its evaluation with `LIMIT_EXCEEDED`.
    pub max_pending_runs: usize,
}

impl Default for ProcessorOptions {
    fn default() -> ProcessorOptions {
        ProcessorOptions {
            strict: false,
            require_version: false,
            fallback_catalog: None,
            max_components: 100_000,
            max_surfaces: 1024,
            max_held_bytes: 32 << 20,
            accept_unregistered_catalogs: false,
            check_calls: true,
            live: None,
            max_pending_runs: 4096,
        }
    }
}

impl ProcessorOptions {
    /// Sets [`strict`](ProcessorOptions::strict).
    pub fn strict(mut self, strict: bool) -> ProcessorOptions {
        self.strict = strict;
        self
    }

    /// Sets [`require_version`](ProcessorOptions::require_version).
    pub fn require_version(mut self, require: bool) -> ProcessorOptions {
        self.require_version = require;
        self
    }

    /// Sets [`fallback_catalog`](ProcessorOptions::fallback_catalog).
    pub fn fallback_catalog(mut self, id: impl Into<String>) -> ProcessorOptions {
        self.fallback_catalog = Some(id.into());
        self
    }

    /// Sets [`accept_unregistered_catalogs`](ProcessorOptions::accept_unregistered_catalogs).
    pub fn accept_unregistered_catalogs(mut self, accept: bool) -> ProcessorOptions {
        self.accept_unregistered_catalogs = accept;
        self
    }

    /// Sets [`check_calls`](ProcessorOptions::check_calls).
    pub fn check_calls(mut self, check: bool) -> ProcessorOptions {
        self.check_calls = check;
        self
    }

    /// Sets [`live`](ProcessorOptions::live).
    pub fn live(mut self, limits: ResolveLimits) -> ProcessorOptions {
        self.live = Some(limits);
        self
    }

    /// Sets [`max_pending_runs`](ProcessorOptions::max_pending_runs).
    pub fn max_pending_runs(mut self, max: usize) -> ProcessorOptions {
        self.max_pending_runs = max;
        self
    }

    /// Sets [`max_components`](ProcessorOptions::max_components).
    pub fn max_components(mut self, max: usize) -> ProcessorOptions {
        self.max_components = max;
        self
    }

    /// Sets [`max_surfaces`](ProcessorOptions::max_surfaces).
    pub fn max_surfaces(mut self, max: usize) -> ProcessorOptions {
        self.max_surfaces = max;
        self
    }

    /// Sets [`max_held_bytes`](ProcessorOptions::max_held_bytes).
    pub fn max_held_bytes(mut self, max: usize) -> ProcessorOptions {
        self.max_held_bytes = max;
        self
    }
}

/// A warning about a message the processor applied ([`Processor::take_warnings`]): its index
/// among the messages processed, its surface, and the warning, located by a JSON Pointer inside
/// the message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ProcessWarning {
    /// The message's index (0-based, counting every message given to the processor).
    pub index: usize,
    /// The surface it is about.
    pub surface_id: String,
    /// The warning (`OTHER_SPELLING`), its location a pointer inside the message.
    pub warning: crate::error::Warning,
}

/// What the components of one message say of their surface's spelling, and the warnings to give
/// when the message applies.
struct Spelled {
    spelling: Option<Spelling>,
    warnings: Vec<crate::error::Warning>,
    /// Where values of the other spelling show, on a surface that read the plain one.
    mixed_at: Option<String>,
}

/// A message the processor refused: its index among the messages processed, and the located
/// problem. Nothing the message carried was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessError {
    /// The message's index (0-based, counting every message given to the processor).
    pub index: usize,
    /// The surface the message is about, when it could be read.
    pub surface_id: Option<String>,
    /// The problem, its pointer inside the message.
    pub error: MessageError,
}

impl ProcessError {
    /// The error as the crate's [`Error`]: its category, the message's index, the pointer.
    pub fn to_error(&self) -> Error {
        self.error.to_error().with_message_index(self.index)
    }

    /// The renderer-to-agent `error` message to send the agent (v1.0):
    /// `{"version": "1.0", "error": {"code", "surfaceId", "path", "message"}}`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// let err = p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "x", "value": 1}})).unwrap_err();
    /// assert_eq!(err.to_agent_message()["error"]["path"], "/updateDataModel/path");
    /// assert_eq!(err.to_agent_message()["error"]["code"], "VALIDATION_FAILED");
    /// ```
    pub fn to_agent_message(&self) -> Value {
        let code = self.error.category.code().as_str();
        let mut body = Map::new();
        body.insert("code".into(), code.into());
        body.insert(
            "surfaceId".into(),
            self.surface_id.clone().unwrap_or_default().into(),
        );
        if code == "VALIDATION_FAILED" {
            body.insert("path".into(), self.error.pointer.clone().into());
        }
        body.insert("message".into(), self.error.message.clone().into());
        json!({"version": Version::V1_0.as_str(), "error": body})
    }
}

impl fmt::Display for ProcessError {
    /// `message 2 at /updateComponents/components/0: IntegrityError: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "message {} {}", self.index, self.error)
    }
}

impl std::error::Error for ProcessError {}

/// A component of a surface: its definition as last sent, and its dynamic properties compiled.
#[derive(Debug)]
pub struct Component {
    def: ComponentDef,
    /// The catalog whose schema checked it, when one did.
    catalog: Option<String>,
    /// The compiled value of each property that is dynamic (binding or call somewhere in it).
    compiled: Vec<(String, std::sync::Arc<Payload>)>,
    /// The children it names: (id, slot, whether a template).
    children: Vec<(String, String, bool)>,
    /// Its action's `functionCall`, compiled on the first tap and kept for the next ones (a
    /// component sent again is a new `Component`, so the cache goes with the old one).
    action_call: std::sync::OnceLock<std::sync::Arc<Payload>>,
    /// What it holds, charged to [`ProcessorOptions::max_held_bytes`].
    bytes: usize,
}

impl Component {
    /// The definition, as sent.
    pub fn def(&self) -> &ComponentDef {
        &self.def
    }

    /// The catalog the component resolved to (its own `catalogId` or the surface's default),
    /// when that catalog is registered.
    pub fn catalog(&self) -> Option<&str> {
        self.catalog.as_deref()
    }

    /// The children it names, each with its slot (`child`, `children[2]`, `tabs[0].child`, or
    /// `children` for a template) and whether it is a template.
    pub fn children(&self) -> &[(String, String, bool)] {
        &self.children
    }

    /// The compiled payload of a dynamic property (`None` for a literal one).
    pub fn compiled(&self, prop: &str) -> Option<&Payload> {
        self.compiled
            .iter()
            .find(|(p, _)| p == prop)
            .map(|(_, payload)| &**payload)
    }
}

impl std::ops::Deref for Component {
    type Target = ComponentDef;
    fn deref(&self) -> &ComponentDef {
        &self.def
    }
}

/// What [`Surface::graph_problems`] finds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphProblems {
    /// Whether the surface has a component `root`.
    pub has_root: bool,
    /// Children named but not defined: (component, slot, child id).
    pub dangling: Vec<(String, String, String)>,
    /// Components not reachable from `root` (none listed when there is no root), in the
    /// order they were first defined.
    pub orphans: Vec<String>,
}

/// A surface: what its messages built.
#[derive(Debug)]
pub struct Surface {
    id: String,
    version: Version,
    catalog_id: Option<String>,
    send_data_model: bool,
    theme: Option<Value>,
    metadata: Option<Value>,
    components: HashMap<String, Component>,
    /// Component ids in the order they were first defined.
    order: Vec<String>,
    /// Who names each component, so a message's graph checks cost what it touches.
    parents: graph::Parents,
    /// The sum of its components' `bytes`.
    component_bytes: usize,
    data: TrackedModel<Value>,
    source: Option<Provenance>,
    live: Option<Box<live::LiveTree>>,
    /// The spelling its values are read in, decided by the first binding or call it received
    /// (`None` before one): see [`Surface::spelling`].
    spelling: Option<Spelling>,
    /// Whether the surface was warned about values of the other spelling.
    spelling_warned: bool,
}

impl Surface {
    /// A surface as `createSurface` starts it: no components, an empty object as its model,
    /// no theme, metadata, source or live tree.
    fn empty(
        id: String,
        version: Version,
        catalog_id: Option<String>,
        send_data_model: bool,
    ) -> Surface {
        Surface {
            id,
            version,
            catalog_id,
            send_data_model,
            theme: None,
            metadata: None,
            components: HashMap::new(),
            order: Vec::new(),
            parents: graph::Parents::default(),
            component_bytes: 0,
            data: {
                // Measured from the start, so every write keeps the figure up to date.
                let mut data = TrackedModel::new(Value::Object(Map::new()));
                data.held_bytes();
                data
            },
            source: None,
            live: None,
            spelling: None,
            spelling_warned: false,
        }
    }

    /// What the surface holds, charged to [`ProcessorOptions::max_held_bytes`]: its id, its
    /// components and its data model.
    pub(crate) fn held(&self) -> usize {
        // The id is kept by the processor's map, the surface and its journal.
        SURFACE_BYTES + 3 * self.id.len() + self.component_bytes + self.data.held_bytes_now()
    }

    /// The spelling the surface's values are read in (`None` until a component brought a
    /// binding or a call). v1.0 reads both spellings, but one surface reads one: the `@`
    /// spelling as soon as a value of the surface is written with `@path` / `@call` (a plain
    /// `{"path": …}` or `{"call": …}` there is then a literal object, with an `OTHER_SPELLING`
    /// warning at its location, [`Processor::take_warnings`]), the plain one when its first
    /// bindings and calls are all plain (then `@` values are read too, and the surface is warned
    /// about once). A surface before v1.0 reads the plain spelling.
    pub fn spelling(&self) -> Option<Spelling> {
        self.spelling
    }

    /// The surface id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The protocol version of the message that created it.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The default catalog (optional in v1.0).
    pub fn catalog_id(&self) -> Option<&str> {
        self.catalog_id.as_deref()
    }

    /// Whether actions carry the data model.
    pub fn send_data_model(&self) -> bool {
        self.send_data_model
    }

    /// `theme`, as sent.
    pub fn theme(&self) -> Option<&Value> {
        self.theme.as_ref()
    }

    /// `metadata`, as sent.
    pub fn metadata(&self) -> Option<&Value> {
        self.metadata.as_ref()
    }

    /// A component by id.
    pub fn component(&self, id: &str) -> Option<&Component> {
        self.components.get(id)
    }

    /// The components, in the order they were first defined.
    pub fn components(&self) -> impl Iterator<Item = &Component> {
        self.order.iter().filter_map(|id| self.components.get(id))
    }

    /// How many components it holds.
    pub fn component_count(&self) -> usize {
        self.components.len()
    }

    /// The data model.
    pub fn data_model(&self) -> &Value {
        self.data.get()
    }

    /// The data model, tracked: the paths written since the last
    /// [`take_changes`](TrackedModel::take_changes), the processor's `updateDataModel` writes
    /// included. This is the seam to the reactive layer: a renderer takes the changes after
    /// each message or write and refreshes its bindings with them (until it does, they
    /// accumulate, one entry per distinct path written).
    pub fn tracked_data_model(&mut self) -> &mut TrackedModel<Value> {
        &mut self.data
    }

    /// The graph as it stands: whether there is a `root`, the children named but not
    /// defined, the components not reachable from `root`.
    pub fn graph_problems(&self) -> GraphProblems {
        graph::problems(self)
    }

    /// The tree a renderer draws, breadth first from `root`: one node per instance (a
    /// template makes one per item, with the item as its data context), every property
    /// resolved (see [`Node`]).
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
    ///     "dataModel": {"rows": [{"name": "a"}, {"name": "b"}]},
    ///     "components": [
    ///         {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
    ///         {"id": "row", "component": "Text", "text": {"path": "name"}}
    ///     ]}})).unwrap();
    /// let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    /// let rows: Vec<String> = tree.nodes[1..].iter().map(|n| format!("{} {}", n.key(), n.props["text"])).collect();
    /// assert_eq!(rows, ["row@/rows/0 \"a\"", "row@/rows/1 \"b\""]);
    /// ```
    pub fn resolve(&self, limits: ResolveLimits) -> Tree {
        resolve::resolve(self, &mut resolve::Budget::new(limits, resolve::NODE_BYTES))
    }

    /// Where it came from, when a tool returned it (the tool and its server): what a policy
    /// such as [`SameServerAsSource`](crate::mcp::SameServerAsSource) confines its calls to.
    pub fn source(&self) -> Option<&Provenance> {
        self.source.as_ref()
    }

    /// Records where the surface came from ([`SharedProcessor`] does it for the surfaces a
    /// tool's result creates).
    pub fn set_source(&mut self, source: Provenance) {
        self.source = Some(source);
    }
}

/// What one message did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Applied {
    /// A surface was created.
    SurfaceCreated(String),
    /// A surface was deleted (or there was none by that id: nothing to do).
    SurfaceDeleted(String),
    /// Components of a surface were upserted (their ids).
    ComponentsUpdated {
        /// The surface.
        surface_id: String,
        /// The ids sent.
        ids: Vec<String>,
    },
    /// The data model of a surface was written.
    DataModelUpdated(String),
    /// The agent's `callRendererFunction` ran (or was refused): the
    /// `rendererFunctionResponse` to send is [`RendererFunctionCall::response`].
    RendererFunction(RendererFunctionCall),
    /// The agent answered a `callAgentFunction` ([`Processor::call_agent_function`]).
    AgentFunctionResponse(AgentFunctionResponse),
    /// A message the processor does not apply to surfaces (renderer-to-agent messages), read
    /// and handed back.
    Other(Box<crate::stream::Message>),
}

/// The message processor. See the [module docs](self).
pub struct Processor {
    options: ProcessorOptions,
    env: Environment,
    /// Warnings of the messages applied, not yet taken.
    warnings: Vec<ProcessWarning>,
    catalogs: HashMap<String, CatalogInfo>,
    surfaces: BTreeMap<String, Surface>,
    /// The ids of deleted surfaces, to say so when a message names one: the latest, within
    /// [`DELETED_BYTES`] (older ones are then "never created", a wording only).
    deleted: Deleted,
    messages: usize,
    /// The `callAgentFunction`s waiting for their response: functionCallId → surface.
    pending_agent_calls: HashMap<String, String>,
    journal: live::Journal,
    /// The tool runs waiting for their answer.
    runs: tool_runs::Runs,
    /// Refused messages that tool results carried ([`Processor::take_forwarded_errors`]).
    forwarded_errors: Vec<ProcessError>,
    /// The size of the live trees together, bounded by the live [`ResolveLimits`].
    live_totals: live::Totals,
}

impl std::fmt::Debug for Processor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Processor")
            .field("options", &self.options)
            .field("surfaces", &self.surfaces.keys().collect::<Vec<_>>())
            .field("messages", &self.messages)
            .finish_non_exhaustive()
    }
}

impl Processor {
    /// A processor knowing the MCP catalog.
    pub fn new(options: ProcessorOptions) -> Processor {
        Processor::with_environment(Environment::new(), options)
    }

    /// A processor on the host's environment (its catalogs, functions and limits). Bindings
    /// and calls of v1.0 messages are read in both spellings, one per surface
    /// ([`Surface::spelling`]); before v1.0, in the plain one.
    pub fn with_environment(mut env: Environment, options: ProcessorOptions) -> Processor {
        env.set_spelling(Spelling::Plain);
        // Strict validation judges literal arguments by the catalogs' schemas, as `check` does.
        if options.strict {
            env.set_schema_checks(true);
        }
        let catalogs = env
            .catalog_ids()
            .into_iter()
            .map(|id| {
                (
                    id.to_owned(),
                    CatalogInfo {
                        version: None,
                        components: None,
                    },
                )
            })
            .collect();
        Processor {
            options,
            env,
            warnings: Vec::new(),
            catalogs,
            surfaces: BTreeMap::new(),
            deleted: Deleted::default(),
            messages: 0,
            pending_agent_calls: HashMap::new(),
            journal: live::Journal::default(),
            runs: tool_runs::Runs::default(),
            forwarded_errors: Vec::new(),
            live_totals: live::Totals::default(),
        }
    }

    /// The options.
    pub fn options(&self) -> &ProcessorOptions {
        &self.options
    }

    /// The environment.
    pub fn environment(&self) -> &Environment {
        &self.env
    }

    /// Registers a catalog document (`catalogId`, optional `protocolVersion`, `components`,
    /// `functions`): its component schemas check components, its functions (declared; the
    /// host implements them on the environment) compile calls. Returns its id.
    pub fn register_catalog(&mut self, document: &Value) -> Result<String, Error> {
        let bad = |why: String| Error::new(ErrorCode::CatalogError, why);
        let Value::Object(doc) = document else {
            return Err(bad("a catalog document is a JSON object".into()));
        };
        let Some(Value::String(id)) = doc.get("catalogId") else {
            return Err(bad("a catalog document needs a string 'catalogId'".into()));
        };
        if let Some((pointer, target)) = crate::catalog::foreign_catalog_ref(document) {
            return Err(bad(format!(
                "catalog '{id}': {}",
                crate::catalog::foreign_catalog_message(&pointer, &target)
            )));
        }
        let version = match doc.get("protocolVersion") {
            None => None,
            Some(Value::String(v)) => Some(
                Version::parse(v)
                    .ok_or_else(|| bad(format!("catalog '{id}': unknown protocolVersion '{v}'")))?,
            ),
            Some(_) => {
                return Err(bad(format!(
                    "catalog '{id}': protocolVersion must be a string"
                )));
            }
        };
        let components = match doc.get("components") {
            None => None,
            // An empty map declares no component types: nothing to check components against.
            Some(Value::Object(c)) if c.is_empty() => None,
            Some(Value::Object(c)) => Some(
                schema::read_components(c).map_err(|why| bad(format!("catalog '{id}': {why}")))?,
            ),
            Some(_) => return Err(bad(format!("catalog '{id}': components must be an object"))),
        };
        if self.env.catalog(id).is_none() {
            let functions = doc
                .get("functions")
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new()));
            let catalog = crate::catalog::Catalog::from_schema(
                &json!({"catalogId": id, "functions": functions}),
            )?;
            self.env.add_catalog(catalog);
        }
        // A document that declares no components (functions only) keeps the component
        // schemas an earlier document of the same catalog gave.
        let previous = self.catalogs.remove(id);
        let components = components.or(previous.as_ref().and_then(|p| p.components.clone()));
        let version = version.or(previous.and_then(|p| p.version));
        self.catalogs.insert(
            id.clone(),
            CatalogInfo {
                version,
                components,
            },
        );
        Ok(id.clone())
    }

    /// The ids of the registered catalogs built for `version` (or for any version), sorted:
    /// the renderer capabilities' `supportedCatalogIds`.
    pub fn supported_catalog_ids(&self, version: Version) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .catalogs
            .iter()
            .filter(|(_, c)| c.version.is_none_or(|v| v.same_line(version)))
            .map(|(id, _)| id.as_str())
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The renderer capabilities for `version`:
    /// `{"<version>": {"supportedCatalogIds": [...]}}`.
    pub fn capabilities(&self, version: Version) -> Value {
        json!({version.as_str(): {"supportedCatalogIds": self.supported_catalog_ids(version)}})
    }

    /// The data models of the surfaces of `version` that `sendDataModel`:
    /// `{"version", "surfaces": {"<id>": model}}`, or `None` when there is none.
    pub fn data_models(&self, version: Version) -> Option<Value> {
        let surfaces: Map<String, Value> = self
            .surfaces
            .values()
            .filter(|s| s.send_data_model && s.version.same_line(version))
            .map(|s| (s.id.clone(), s.data.get().clone()))
            .collect();
        (!surfaces.is_empty()).then(|| json!({"version": version.as_str(), "surfaces": surfaces}))
    }

    /// A surface by id.
    pub fn surface(&self, id: &str) -> Option<&Surface> {
        self.surfaces.get(id)
    }

    /// A surface by id, mutable (its data model, its origin).
    pub fn surface_mut(&mut self, id: &str) -> Option<&mut Surface> {
        self.surfaces.get_mut(id)
    }

    /// The surfaces, by id.
    pub fn surfaces(&self) -> impl Iterator<Item = &Surface> {
        self.surfaces.values()
    }

    /// What `a2ui-mcp render` prints: `{"surfaces": {"<id>": {"catalogId", "dataModel",
    /// "errors", "nodes"}}}`, each error with its message index and pointer (the errors of no
    /// surface under `"errors"` at the top). A surface with a live tree is drawn from it (tool
    /// results included), others resolved with `limits`.
    pub fn render_json(&self, errors: &[ProcessError], limits: ResolveLimits) -> Value {
        let error_json = |e: &ProcessError| json!({"index": e.index, "pointer": e.error.pointer, "category": e.error.category.as_str(), "message": e.error.message});
        let mut surfaces = Map::new();
        // One budget for every tree: all of them are held at once in what is returned, so each
        // node is charged its JSON object too, and each is moved into it, not copied.
        let mut budget =
            resolve::Budget::new(limits, resolve::NODE_BYTES + resolve::JSON_NODE_BYTES);
        for surface in self.surfaces.values() {
            // The data model is copied into the answer: charged first, left out past the budget.
            let model = budget.copy(surface.data.get());
            // The live tree, when kept, holds what tool runs answered; `resolve` shows such
            // values pending.
            let tree = match surface.live() {
                Some(live) => live.tree_within(&mut budget),
                None => resolve::resolve(surface, &mut budget),
            };
            let mut out = json!({
                "catalogId": surface.catalog_id,
                "dataModel": if model.is_ok() { surface.data.get().clone() } else { Value::Null },
                "errors": errors.iter().filter(|e| e.surface_id.as_deref() == Some(surface.id.as_str())).map(error_json).collect::<Vec<_>>(),
                "nodes": tree.nodes.into_iter().map(Node::into_json).collect::<Vec<_>>(),
            });
            if let Some(why) = model.err().or(tree.truncated) {
                out["truncated"] = json!(why);
            }
            surfaces.insert(surface.id.clone(), out);
        }
        let orphans: Vec<Value> = errors
            .iter()
            .filter(|e| {
                e.surface_id
                    .as_deref()
                    .is_none_or(|id| !self.surfaces.contains_key(id))
            })
            .map(error_json)
            .collect();
        let mut out = json!({"surfaces": surfaces});
        if !orphans.is_empty() {
            out["errors"] = json!(orphans);
        }
        out
    }

    /// Where a surface's values are compiled: its default catalog (none: a call must name its
    /// own), its spelling ([`Surface::spelling`]). A surface that is not there gets neither
    /// catalog nor `@`.
    fn scope_of_surface(&self, surface_id: &str, caller: Option<Origin>) -> CompileScope<'_> {
        let (default_catalog, spelling) = match self.surfaces.get(surface_id) {
            Some(s) => (
                s.catalog_id.as_deref(),
                s.spelling.unwrap_or(Spelling::Plain),
            ),
            None => (None, Spelling::Plain),
        };
        CompileScope {
            default_catalog,
            spelling,
            caller,
        }
    }

    /// Compiles a value of a surface in the surface's scope
    /// ([`scope_of_surface`](Processor::scope_of_surface)).
    fn compile_in_surface(&self, surface_id: &str, value: &Value) -> Result<Payload, Error> {
        let scope = self.scope_of_surface(surface_id, None);
        self.env.compile_in(value, scope).0
    }

    /// The warnings of the messages applied since the last call, each with its message index
    /// and surface: values of a surface in the `@` spelling written in the plain one (read as
    /// literals, `OTHER_SPELLING` at their location), and once per surface a surface that mixes
    /// the two spellings. A message that fails gives none. At most 1 024 are kept between two
    /// calls (a host that never asks keeps a bounded number); later ones are dropped.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use a2ui_catalog_mcp::{MCP_CATALOG_ID, Spelling};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "components": [
    ///     {"id": "root", "component": "Button", "action": {"functionCall": {"@call": "callMcpTool", "catalogId": MCP_CATALOG_ID,
    ///         "args": {"name": "list_dir", "arguments": {"path": "/docs"}}}}}]}})).unwrap();
    /// assert_eq!(p.surface("s").unwrap().spelling(), Some(Spelling::At));
    /// let warnings = p.take_warnings();
    /// assert_eq!(warnings[0].warning.location(), "/createSurface/components/0/action/functionCall/args/arguments");
    /// ```
    pub fn take_warnings(&mut self) -> Vec<ProcessWarning> {
        std::mem::take(&mut self.warnings)
    }

    /// The user activates the instance of `component_id` whose data context is `data_path`:
    /// its `action` is carried out now. An `event` action (or v0.9's `{name, context}`)
    /// becomes the renderer-to-agent `action` message, its context evaluated at this moment in
    /// the instance's data context (a value that fails is `null`, its error in
    /// [`Activation::errors`]); a `functionCall` action runs on the renderer with user
    /// activation and sends nothing. `timestamp` is the host's (ISO 8601): the engine reads no
    /// clock.
    ///
    /// ```
    /// use a2ui_catalog_mcp::JsonPointer;
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "sendDataModel": true,
    ///     "dataModel": {"rows": [{"id": "r0"}, {"id": "r1"}]},
    ///     "components": [{"id": "root", "component": "Button", "child": "t",
    ///         "action": {"event": {"name": "open", "context": {"row": {"path": "id"}, "path": "literal"}}}}]}})).unwrap();
    /// let done = p.activate("s", "root", &JsonPointer::parse("/rows/1")?, "2026-12-04T18:00:00Z")?;
    /// assert_eq!(done.message.unwrap()["action"], json!({"name": "open", "surfaceId": "s", "sourceComponentId": "root",
    ///     "timestamp": "2026-12-04T18:00:00Z", "context": {"row": "r1", "path": "literal"}}));
    /// assert!(done.data_model.is_some());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn activate(
        &mut self,
        surface_id: &str,
        component_id: &str,
        data_path: &JsonPointer,
        timestamp: &str,
    ) -> Result<Activation, Error> {
        let bad = |why: String| Error::new(ErrorCode::ValidationFailed, why);
        let surface = self
            .surfaces
            .get(surface_id)
            .ok_or_else(|| bad(format!("Surface not found: '{surface_id}'")))?;
        let component = surface.components.get(component_id).ok_or_else(|| {
            bad(format!(
                "surface '{surface_id}' has no component '{component_id}'"
            ))
        })?;
        let action = component
            .props
            .get("action")
            .cloned()
            .ok_or_else(|| bad(format!("component '{component_id}' has no action")))?;
        let version = surface.version;
        let send = surface.send_data_model;
        let mut done = Activation {
            message: None,
            data_model: None,
            value: None,
            run: None,
            errors: Vec::new(),
        };
        if let Some(call) = action.get("functionCall") {
            let instance = surface
                .live
                .as_deref()
                .and_then(|tree| tree.instance_at(component_id, data_path));
            let cached = component.action_call.get().cloned();
            let compiled = match cached {
                Some(payload) => Ok(payload),
                None => {
                    // In the surface's spelling, which a component with a call has decided
                    // for good: the kept payload stays right.
                    let compiled = self
                        .compile_in_surface(surface_id, call)
                        .map(std::sync::Arc::new);
                    if let (Ok(payload), Some(component)) = (
                        &compiled,
                        self.surfaces
                            .get(surface_id)
                            .and_then(|s| s.components.get(component_id)),
                    ) {
                        let _ = component.action_call.set(payload.clone());
                    }
                    compiled
                }
            };
            match compiled {
                Ok(payload) => {
                    let start = tool_runs::Start {
                        payload,
                        context: data_path.clone(),
                        origin: Origin::Action,
                        component_id: component_id.to_owned(),
                        instance,
                        prop: None,
                    };
                    match self.start_run(surface_id, start) {
                        tool_runs::Started::Done(Ok(value)) => done.value = Some(value),
                        tool_runs::Started::Done(Err(e)) => done.errors.push(e),
                        tool_runs::Started::Waiting(id) => done.run = Some(id),
                    }
                }
                Err(e) => done.errors.push(e),
            }
            // What the call wrote reaches the live tree now.
            self.refresh(surface_id);
            return Ok(done);
        }
        // v1.0 `{"event": {…}}`, or v0.9's `{"name", "context"}`.
        let event = action.get("event").unwrap_or(&action);
        let name = event
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("the action of '{component_id}' has no event name")))?
            .to_owned();
        let mut context = Map::new();
        let mut user_message = None;
        let mut dynamic: Vec<(Option<String>, Value)> = Vec::new();
        if let Some(Value::Object(values)) = event.get("context") {
            // Each context value on its own: keys named `path` or `call` are keys.
            dynamic.extend(values.iter().map(|(k, v)| (Some(k.clone()), v.clone())));
        }
        if let Some(message) = event.get("userMessage") {
            dynamic.push((None, message.clone()));
        }
        for (key, value) in dynamic {
            let resolved = if has_dynamic(&value) {
                let compiled = self.compile_in_surface(surface_id, &value);
                let surface = &self.surfaces[surface_id];
                match compiled.and_then(|p| p.eval_read(surface.data.get(), data_path)) {
                    Ok(v) => v,
                    Err(e) => {
                        done.errors.push(e);
                        Value::Null
                    }
                }
            } else {
                value
            };
            match key {
                Some(key) => {
                    context.insert(key, resolved);
                }
                None => user_message = Some(resolved),
            }
        }
        let mut body = Map::new();
        body.insert("name".into(), name.into());
        body.insert("surfaceId".into(), surface_id.into());
        body.insert("sourceComponentId".into(), component_id.into());
        body.insert("timestamp".into(), timestamp.into());
        body.insert("context".into(), Value::Object(context));
        if let Some(m) = user_message {
            body.insert("userMessage".into(), m);
        }
        done.message = Some(json!({"version": Version::V1_0.as_str(), "action": body}));
        if send {
            done.data_model = self.data_models(version);
        }
        Ok(done)
    }

    /// Every component problem of a `createSurface` or `updateComponents` message, judged
    /// against its surface as it stands and applying nothing (what [`process`](Processor::process)
    /// stops at is the first): each duplicate id, each component's problems (a property that is
    /// refused is set aside and the rest of the component judged again, so an unknown property
    /// does not hide a bad `variant`), then the graph of the components that passed. A message
    /// that does not parse gives its one parse error; other messages give none. The message is
    /// not counted.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// p.register_catalog(&json!({"catalogId": "my", "components": {
    ///     "Text": {"properties": {"component": {"const": "Text"}, "text": {"type": "string"},
    ///         "variant": {"enum": ["h1", "body"]}}, "required": ["component", "text"]}}}))?;
    /// let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my", "components": [
    ///     {"id": "root", "component": "Text", "text": "x", "colour": "red", "variant": "huge"},
    ///     {"id": "b", "component": "Txt"}]}});
    /// let found: Vec<String> = p.component_problems(&message).iter().map(|e| e.pointer.clone()).collect();
    /// assert_eq!(found, ["/createSurface/components/0/colour", "/createSurface/components/0/variant",
    ///     "/createSurface/components/1/component"]);
    /// assert!(p.surface("s").is_none());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn component_problems(&mut self, message: &Value) -> Vec<MessageError> {
        let mut options = ParseOptions::default();
        options.require_version = self.options.require_version;
        options.max_depth = self.env.limits().max_depth;
        let parsed = match parse_message_with(message, options) {
            Ok(parsed) => parsed,
            Err(e) => return vec![e],
        };
        let version = parsed.version_or_default();
        let (surface, defs, existing) = match parsed.body {
            Body::UpdateComponents(update) => match self.surfaces.remove(&update.surface_id) {
                Some(surface) => (surface, update.components, true),
                None => return Vec::new(),
            },
            Body::CreateSurface(create) => {
                let Some(components) = create.components else {
                    return Vec::new();
                };
                let mut surface = Surface::empty(
                    create.surface_id,
                    version,
                    create.catalog_id,
                    create.send_data_model,
                );
                if let Some(model) = create.data_model {
                    // A model that cannot be written is process()'s problem, not a component's.
                    let _ = surface.data.set(&JsonPointer::root(), model);
                }
                (surface, components, false)
            }
            _ => return Vec::new(),
        };
        let mut problems = Vec::new();
        let mut seen = HashSet::with_capacity(defs.len());
        let mut passed = Vec::with_capacity(defs.len());
        let (spelling, _, _) = message_spelling(&surface, &defs);
        for def in defs {
            if !seen.insert(def.id.clone()) {
                problems.push(MessageError::new(
                    Category::Integrity,
                    format!("{}/id", def.pointer),
                    format!("duplicate component id '{}' in one message", def.id),
                ));
                continue;
            }
            let mut def = def;
            let first = problems.len();
            // The properties the schema does not name are set aside in one pass (judging the
            // component again per unknown property would be quadratic in its properties).
            // The property a problem is at, when it is at one.
            let prop_of = |pointer: &str, at: &str| {
                pointer
                    .strip_prefix(&format!("{at}/"))
                    .map(|rest| rest.split('/').next().unwrap_or(rest))
                    .map(|token| token.replace("~1", "/").replace("~0", "~"))
            };
            let mut unknown = Vec::new();
            let mut positions: HashMap<String, usize> = HashMap::new();
            if let Some(schema) = self.schema_of(&surface, &def)
                && def.props.keys().any(|p| !schema.props.contains_key(p))
            {
                for (i, prop) in def.props.keys().enumerate() {
                    positions.insert(prop.clone(), i + 1);
                    if !schema.props.contains_key(prop) {
                        let pointer =
                            format!("{}/{}", def.pointer, crate::path::escape_token(prop));
                        unknown.push((
                            i + 1,
                            unknown_property(pointer, prop, &def.component, schema),
                        ));
                    }
                }
                def.props.retain(|p, _| schema.props.contains_key(p));
            }
            // Bounded: each round sets one property the schema names aside.
            loop {
                match self.component(&surface, def.clone(), spelling, &mut Vec::new()) {
                    Ok(component) => {
                        passed.push(component);
                        break;
                    }
                    Err(e) => {
                        let prop = prop_of(&e.pointer, &def.pointer)
                            .filter(|p| def.props.contains_key(p.as_str()));
                        problems.push(e);
                        match prop {
                            Some(prop) => {
                                def.props.shift_remove(&prop);
                            }
                            None => break,
                        }
                    }
                }
            }
            if !unknown.is_empty() {
                // In the order of the component's properties, as judging one at a time found
                // them (a problem of the whole component first).
                let mut found: Vec<(usize, MessageError)> = problems
                    .drain(first..)
                    .map(|e| {
                        let at = prop_of(&e.pointer, &def.pointer)
                            .and_then(|p| positions.get(&p).copied())
                            .unwrap_or(0);
                        (at, e)
                    })
                    .collect();
                found.extend(unknown);
                found.sort_by_key(|(at, _)| *at);
                problems.extend(found.into_iter().map(|(_, e)| e));
            }
        }
        if let Err(e) = graph::check(&surface, &passed, self.options.strict) {
            problems.push(e);
        }
        // The graph check stops at its first problem: in strict mode every dangling child.
        if self.options.strict {
            let ids: HashSet<&str> = passed.iter().map(|c| c.def.id.as_str()).collect();
            // Looked up, not scanned: a message of many dangling children stays linear.
            let mut reported: HashSet<String> =
                problems.iter().map(|p| p.pointer.clone()).collect();
            for component in &passed {
                for (child, slot, _) in &component.children {
                    let pointer = format!("{}/{}", component.def.pointer, slot_pointer(slot));
                    if ids.contains(child.as_str())
                        || surface.components.contains_key(child)
                        || !reported.insert(pointer.clone())
                    {
                        continue;
                    }
                    problems.push(MessageError::new(
                        Category::Integrity,
                        pointer,
                        format!(
                            "Dangling reference: component '{}' names the child '{child}' ({slot}), which is not defined",
                            component.def.id
                        ),
                    ));
                }
            }
        }
        if existing {
            self.surfaces.insert(surface.id.clone(), surface);
        }
        problems
    }

    /// Counts a message that could not be read (its text is not JSON, or too large): it takes
    /// its place among the messages, as a checker numbers them, and comes back refused with
    /// `error`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use a2ui_catalog_mcp::stream::{Category, MessageError};
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// let err = p.refuse(MessageError::new(Category::Validation, "", "not JSON"));
    /// assert_eq!((err.index, p.message_count()), (0, 1));
    /// ```
    pub fn refuse(&mut self, error: MessageError) -> ProcessError {
        let index = self.messages;
        self.messages += 1;
        ProcessError {
            index,
            surface_id: None,
            error,
        }
    }

    /// How many messages were given to the processor.
    pub fn message_count(&self) -> usize {
        self.messages
    }

    /// Processes every message of a stream parsed as one JSON value (an array, `{"messages"}`,
    /// the gallery's `{name, description, messages}`, or one message); each message is atomic
    /// and a bad one does not stop the others. Returns the errors.
    pub fn process_all(&mut self, stream: &Value) -> Vec<ProcessError> {
        messages_of(stream)
            .into_iter()
            .filter_map(|(_, message)| self.process(message).err())
            .collect()
    }

    /// Processes one message, atomically. The agent's `callRendererFunction` runs here, as
    /// the agent (no user activation; see [`RendererFunctionCall`]), and comes back as
    /// [`Applied::RendererFunction`] with the response to send; a call that is refused or fails
    /// is a response with an error, not a [`ProcessError`] (a message missing its
    /// `functionCallId` or `callFunction` is one).
    pub fn process(&mut self, message: &Value) -> Result<Applied, ProcessError> {
        let index = self.messages;
        self.messages += 1;
        let fail = |surface_id: Option<String>, error: MessageError| ProcessError {
            index,
            surface_id,
            error,
        };
        let mut options = ParseOptions::default();
        options.require_version = self.options.require_version;
        options.max_depth = self.env.limits().max_depth;
        let parsed = parse_message_with(message, options).map_err(|e| {
            let surface = message
                .as_object()
                .and_then(|m| m.values().find_map(|b| b.get("surfaceId")))
                .and_then(Value::as_str)
                .map(str::to_owned);
            fail(surface, e)
        })?;
        let version = parsed.version_or_default();
        let surface_id = parsed.surface_id().map(str::to_owned);
        let existed = surface_id
            .as_ref()
            .is_some_and(|id| self.surfaces.contains_key(id));
        let result = match parsed.body {
            Body::CreateSurface(create) => self.create_surface(version, create),
            Body::UpdateComponents(update) => self.update_components(update),
            Body::UpdateDataModel(update) => self.update_data_model(update),
            Body::DeleteSurface { surface_id } => {
                if let Some(gone) = self.surfaces.remove(&surface_id) {
                    self.live_totals.forget(&gone);
                    self.deleted.insert(&surface_id);
                }
                Ok(Applied::SurfaceDeleted(surface_id))
            }
            Body::CallRendererFunction(call) => self.call_renderer_function(call),
            Body::AgentFunctionResponse(body) => {
                let key = if message.get("actionResponse").is_some() {
                    "/actionResponse"
                } else {
                    "/agentFunctionResponse"
                };
                self.agent_function_response(key, &body)
            }
            body => Ok(Applied::Other(Box::new(crate::stream::Message {
                version: parsed.version,
                body,
            }))),
        };
        if let Ok(applied) = &result {
            if let Applied::SurfaceDeleted(id) = applied {
                self.runs.drop_surface(id);
            }
            self.live_after(applied, existed);
        }
        result.map_err(|e| fail(surface_id, e))
    }

    fn update_data_model(
        &mut self,
        update: crate::stream::UpdateDataModel,
    ) -> Result<Applied, MessageError> {
        self.existing(&update.surface_id, "/updateDataModel")?;
        if let Some(value) = &update.value {
            let surface = &self.surfaces[&update.surface_id];
            let old = crate::model::DataModel::read(&surface.data, &update.path)
                .map_or(0, |v| crate::json::value_bytes(&v, usize::MAX).unwrap_or(0));
            let slot = update
                .path
                .tokens()
                .last()
                .map_or(0, |t| t.len() + crate::json::ENTRY_BYTES);
            let new = crate::json::value_bytes(value, usize::MAX).unwrap_or(usize::MAX);
            self.check_held(
                surface,
                new.saturating_add(slot),
                old,
                "/updateDataModel/value",
            )?;
        }
        let surface = self.existing(&update.surface_id, "/updateDataModel")?;
        let data = &mut surface.data;
        let written = match update.value {
            Some(value) => data.set(&update.path, value),
            None => crate::model::DataModel::remove(data, &update.path).map(drop),
        };
        written
            .map(|()| Applied::DataModelUpdated(update.surface_id))
            .map_err(|e| {
                let at = if update.path.is_root() { "" } else { "/path" };
                MessageError::new(
                    Category::Validation,
                    format!("/updateDataModel{at}"),
                    e.message().to_owned(),
                )
            })
    }

    /// Refuses a message that would make the surfaces hold more than
    /// [`ProcessorOptions::max_held_bytes`]: `surface` (out of `self.surfaces`, or in it) with
    /// `added` bytes more and `replaced` fewer. Costs one look per surface.
    fn check_held(
        &self,
        surface: &Surface,
        added: usize,
        replaced: usize,
        at: &str,
    ) -> Result<(), MessageError> {
        let others: usize = self
            .surfaces
            .values()
            .filter(|s| s.id != surface.id)
            .map(Surface::held)
            .sum();
        let held = (others + surface.held())
            .saturating_sub(replaced)
            .saturating_add(added);
        if held <= self.options.max_held_bytes {
            return Ok(());
        }
        Err(MessageError::new(
            Category::Recursion,
            at,
            format!(
                "the surfaces would hold about {held} bytes (surface '{}' and the others), more than the limit of {} (ProcessorOptions::max_held_bytes)",
                surface.id, self.options.max_held_bytes
            ),
        ))
    }

    /// The surface a message updates, or an `IntegrityError` (never created, deleted).
    fn existing(&mut self, id: &str, at: &str) -> Result<&mut Surface, MessageError> {
        let deleted = self.deleted.contains(id);
        self.surfaces.get_mut(id).ok_or_else(|| {
            let why = if deleted {
                format!("Surface not found: '{id}' was deleted (by an earlier deleteSurface)")
            } else {
                format!(
                    "Surface not found: '{id}' was never created (no createSurface before this message)"
                )
            };
            MessageError::new(Category::Integrity, format!("{at}/surfaceId"), why)
        })
    }

    fn create_surface(
        &mut self,
        version: Version,
        create: CreateSurface,
    ) -> Result<Applied, MessageError> {
        let at = "/createSurface";
        let id = create.surface_id.clone();
        if self.surfaces.contains_key(&id) {
            return Err(MessageError::new(
                Category::Integrity,
                format!("{at}/surfaceId"),
                format!("surface '{id}' already exists (delete it before creating it again)"),
            ));
        }
        if self.surfaces.len() >= self.options.max_surfaces {
            return Err(MessageError::new(
                Category::Recursion,
                format!("{at}/surfaceId"),
                format!(
                    "surface '{id}' would be one more than the limit of {} surfaces held at once (delete one first)",
                    self.options.max_surfaces
                ),
            ));
        }
        match &create.catalog_id {
            None if !version.is_v1() => {
                return Err(MessageError::new(
                    Category::Validation,
                    at,
                    "createSurface needs a 'catalogId' before A2UI v1.0",
                ));
            }
            Some(c) if c.is_empty() => {
                return Err(MessageError::new(
                    Category::Catalog,
                    format!("{at}/catalogId"),
                    "Catalog not found: the catalogId is empty",
                ));
            }
            Some(c)
                if !self.catalogs.contains_key(c) && !self.options.accept_unregistered_catalogs =>
            {
                return Err(MessageError::new(
                    Category::Catalog,
                    format!("{at}/catalogId"),
                    format!(
                        "Catalog not found: {c} (registered: {})",
                        self.catalog_list()
                    ),
                ));
            }
            _ => {}
        }
        let mut surface = Surface::empty(
            id.clone(),
            version,
            create.catalog_id,
            create.send_data_model,
        );
        surface.theme = create.theme;
        surface.metadata = create.metadata;
        if let Some(model) = create.data_model {
            surface.data.set(&JsonPointer::root(), model).map_err(|e| {
                MessageError::new(
                    Category::Validation,
                    format!("{at}/dataModel"),
                    e.message().to_owned(),
                )
            })?;
        }
        if let Some(components) = create.components {
            let (upserts, spelled) = self.prepare(&surface, components)?;
            install(&mut surface, upserts);
            self.note_spelling(&mut surface, spelled);
        }
        self.check_held(&surface, 0, 0, "/createSurface/dataModel")?;
        surface.data.take_changes();
        self.deleted.remove(&id);
        self.surfaces.insert(id.clone(), surface);
        Ok(Applied::SurfaceCreated(id))
    }

    fn update_components(&mut self, update: UpdateComponents) -> Result<Applied, MessageError> {
        self.existing(&update.surface_id, "/updateComponents")?;
        // The surface is taken out while its candidate is judged, and put back either way.
        let mut surface = self
            .surfaces
            .remove(&update.surface_id)
            .expect("checked above");
        let ids: Vec<String> = update.components.iter().map(|c| c.id.clone()).collect();
        let prepared = self.prepare(&surface, update.components);
        let applied = prepared.map(|(upserts, spelled)| {
            install(&mut surface, upserts);
            self.note_spelling(&mut surface, spelled);
        });
        self.surfaces.insert(update.surface_id.clone(), surface);
        applied.map(|()| Applied::ComponentsUpdated {
            surface_id: update.surface_id,
            ids,
        })
    }

    /// Checks the components of one message against their catalogs and the surface's graph as
    /// it would be, and compiles them; nothing is changed.
    fn prepare(
        &mut self,
        surface: &Surface,
        defs: Vec<ComponentDef>,
    ) -> Result<(Vec<Component>, Spelled), MessageError> {
        let mut seen = HashSet::with_capacity(defs.len());
        for def in &defs {
            if !seen.insert(def.id.as_str()) {
                return Err(MessageError::new(
                    Category::Integrity,
                    format!("{}/id", def.pointer),
                    format!("duplicate component id '{}' in one message", def.id),
                ));
            }
        }
        let new_count = defs
            .iter()
            .filter(|d| !surface.components.contains_key(&d.id))
            .count();
        // The surface being judged is out of `self.surfaces` (or not in it yet).
        let others: usize = self.surfaces.values().map(|s| s.components.len()).sum();
        let held = others + surface.components.len() + new_count;
        if held > self.options.max_components {
            return Err(MessageError::new(
                Category::Recursion,
                "",
                format!(
                    "surface '{}' would hold {} components ({held} with the other surfaces), more than the limit of {}",
                    surface.id,
                    surface.components.len() + new_count,
                    self.options.max_components
                ),
            ));
        }
        let (spelling, decided, mixed_at) = message_spelling(surface, &defs);
        let mut spelled = Spelled {
            spelling: decided,
            warnings: Vec::new(),
            mixed_at,
        };
        let mut out = Vec::with_capacity(defs.len());
        for def in defs {
            out.push(self.component(surface, def, spelling, &mut spelled.warnings)?);
        }
        let replaced: usize = out
            .iter()
            .filter_map(|c| surface.components.get(&c.def.id))
            .map(|c| c.bytes)
            .sum();
        let added: usize = out.iter().map(|c| c.bytes).sum();
        self.check_held(surface, added, replaced, "")?;
        graph::check(surface, &out, self.options.strict)?;
        Ok((out, spelled))
    }

    /// Applies what [`prepare`](Processor::prepare) found of a message's spelling to the surface
    /// the message changed, and keeps its warnings.
    fn note_spelling(&mut self, surface: &mut Surface, spelled: Spelled) {
        // A host that never takes the warnings keeps a bounded number of them.
        let room = MAX_WARNINGS.saturating_sub(self.warnings.len());
        let spelled = Spelled {
            warnings: spelled.warnings.into_iter().take(room).collect(),
            ..spelled
        };
        let index = self.messages.saturating_sub(1);
        if surface.spelling.is_none() {
            surface.spelling = spelled.spelling;
        }
        let warn = |warning| ProcessWarning {
            index,
            surface_id: surface.id.clone(),
            warning,
        };
        self.warnings.extend(spelled.warnings.into_iter().map(warn));
        if let Some(at) = spelled.mixed_at
            && !surface.spelling_warned
        {
            surface.spelling_warned = true;
            if self.warnings.len() >= MAX_WARNINGS {
                return;
            }
            let message = format!(
                "surface '{}' reads its values in the plain spelling (its first bindings and calls were plain), and this one is written with '@': both are read, but write one",
                surface.id
            );
            self.warnings.push(warn(
                crate::error::Warning::new(crate::error::WarningCode::OtherSpelling, message)
                    .with_location(at),
            ));
        }
    }

    /// The schema of a component type in the catalog a component resolves to.
    fn schema_of<'a>(
        &'a self,
        surface: &Surface,
        def: &ComponentDef,
    ) -> Option<&'a ComponentSchema> {
        let catalog = self.component_catalog(surface, def)?;
        self.catalogs
            .get(&catalog)?
            .components
            .as_ref()?
            .get(&def.component)
    }

    /// The registered catalog a component is checked against, when there is one.
    fn component_catalog(&self, surface: &Surface, def: &ComponentDef) -> Option<String> {
        let named = def.catalog_id.as_ref().or(surface.catalog_id.as_ref())?;
        if self.catalogs.contains_key(named) {
            return Some(named.clone());
        }
        self.options
            .fallback_catalog
            .clone()
            .filter(|f| def.catalog_id.is_none() && self.catalogs.contains_key(f))
    }

    /// Checks one component against its catalog and compiles its dynamic values in `spelling`
    /// (their warnings go to `warnings`, located in the message).
    fn component(
        &mut self,
        surface: &Surface,
        def: ComponentDef,
        spelling: Spelling,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Result<Component, MessageError> {
        let at = def.pointer.clone();
        let limit = self.env.limits().max_depth;
        let parts = def
            .props
            .values()
            .chain(def.checks.iter())
            .chain(def.accessibility.iter());
        for value in parts {
            if let Some(depth) = deeper_than(value, limit) {
                return Err(MessageError::new(
                    Category::Recursion,
                    at,
                    format!(
                        "Global recursion limit exceeded: component '{}' nests {depth} levels, deeper than the limit of {limit}",
                        def.id
                    ),
                ));
            }
        }
        // Catalog resolution: the component's own catalogId, else the surface's default.
        match (&def.catalog_id, &surface.catalog_id) {
            (Some(c), _) => self.known_catalog(surface, c, &at, "catalogId")?,
            (None, None) => {
                return Err(MessageError::new(
                    Category::Catalog,
                    at,
                    format!(
                        "component '{}' names no catalogId and surface '{}' has no default catalogId",
                        def.id, surface.id
                    ),
                ));
            }
            (None, Some(_)) => {}
        }
        let catalog = self.component_catalog(surface, &def);
        if let Some(catalog) = &catalog
            && let Some(types) = &self.catalogs[catalog].components
        {
            let Some(schema) = types.get(&def.component) else {
                let mut names: Vec<&str> = types.keys().map(String::as_str).collect();
                names.sort_unstable();
                return Err(MessageError::new(
                    Category::Validation,
                    format!("{at}/component"),
                    format!(
                        "unknown component type '{}' in catalog '{catalog}' (its types: {})",
                        def.component,
                        names.join(", ")
                    ),
                ));
            };
            for required in &schema.required {
                if !def.props.contains_key(required) {
                    return Err(MessageError::new(
                        Category::Validation,
                        at.clone(),
                        format!(
                            "{} '{}' needs the property '{required}'",
                            def.component, def.id
                        ),
                    ));
                }
            }
            if def.checks.is_some() && !schema.checkable {
                return Err(MessageError::new(
                    Category::Validation,
                    def.envelope_pointer("checks"),
                    format!("{} takes no checks", def.component),
                ));
            }
            for (prop, value) in &def.props {
                let pointer = format!("{at}/{}", crate::path::escape_token(prop));
                let Some(kind) = schema.props.get(prop) else {
                    return Err(unknown_property(pointer, prop, &def.component, schema));
                };
                schema::check_prop(&pointer, &def.component, prop, kind, value)?;
            }
        }
        if let Some(accessibility) = &def.accessibility {
            schema::check_accessibility(
                &def.envelope_pointer("accessibility"),
                accessibility,
                spelling,
            )?;
        }
        let compiled = if self.options.check_calls {
            self.check_call_catalogs(surface, &def, spelling)?;
            self.compile(surface, &def, spelling, warnings)?
        } else {
            Vec::new()
        };
        let schema = catalog.as_ref().and_then(|c| {
            self.catalogs[c]
                .components
                .as_ref()
                .and_then(|t| t.get(&def.component))
        });
        let children = schema::children_of(&def.props, schema);
        let bytes = component_bytes(&def, &compiled, &children);
        Ok(Component {
            def,
            catalog,
            compiled,
            children,
            action_call: std::sync::OnceLock::new(),
            bytes,
        })
    }

    /// The registered catalog ids, sorted, comma-separated.
    fn catalog_list(&self) -> String {
        let mut ids: Vec<&str> = self.catalogs.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids.join(", ")
    }

    /// A catalog a component or call names: non-empty, registered, built for the surface's
    /// protocol version.
    fn known_catalog(
        &self,
        surface: &Surface,
        id: &str,
        at: &str,
        key: &str,
    ) -> Result<(), MessageError> {
        let pointer = format!("{at}/{key}");
        if id.is_empty() {
            return Err(MessageError::new(
                Category::Catalog,
                pointer,
                "Catalog not found: the catalogId is empty",
            ));
        }
        match self.catalogs.get(id) {
            None => Err(MessageError::new(
                Category::Catalog,
                pointer,
                format!(
                    "Catalog not found: {id} (registered: {})",
                    self.catalog_list()
                ),
            )),
            Some(info) => match info.version {
                Some(v) if !v.same_line(surface.version) => Err(MessageError::new(
                    Category::Catalog,
                    pointer,
                    format!(
                        "Catalog not found for surface '{}': catalog '{id}' is built for {v}, and a {} surface uses the catalogs of its protocol version",
                        surface.id, surface.version
                    ),
                )),
                _ => Ok(()),
            },
        }
    }

    /// Every call in the component names a usable catalog, or none (then the surface default,
    /// which must exist); `@index` belongs to no catalog. The walk uses an explicit stack.
    fn check_call_catalogs(
        &self,
        surface: &Surface,
        def: &ComponentDef,
        spelling: Spelling,
    ) -> Result<(), MessageError> {
        let mut stack: Vec<(String, &Value)> = def
            .props
            .iter()
            .map(|(k, v)| {
                (
                    format!("{}/{}", def.pointer, crate::path::escape_token(k)),
                    v,
                )
            })
            .collect();
        for (key, value) in [
            ("checks", &def.checks),
            ("accessibility", &def.accessibility),
        ] {
            if let Some(value) = value {
                stack.push((def.envelope_pointer(key), value));
            }
        }
        while let Some((at, value)) = stack.pop() {
            match value {
                Value::Object(map) => {
                    // `@call` is always a call; the plain `call` only in the call's exact shape
                    // (an object with `path` and `call` beside each other is data), and only
                    // on a surface that reads the plain spelling.
                    let plain_call = spelling == Spelling::Plain
                        && map.keys().all(|k| {
                            matches!(k.as_str(), "call" | "args" | "catalogId" | "returnType")
                        });
                    let name = map
                        .get("@call")
                        .or(map.get("call").filter(|_| plain_call))
                        .and_then(Value::as_str);
                    // `root` starts the tree and is never a template item (a template of it
                    // would be a cycle), so `@index` in it can never be evaluated.
                    if name == Some("@index") && def.id == "root" {
                        return Err(MessageError::new(
                            Category::Validation,
                            at,
                            "@index can only be evaluated inside a template item, and the component 'root' is drawn once, at the top of the tree",
                        ));
                    }
                    // The same holds for `${@index()}` in a formatString template written
                    // in the component (a template from data is read when evaluated).
                    #[cfg(feature = "basic-catalog")]
                    if name == Some("formatString")
                        && def.id == "root"
                        && let Some(Value::String(text)) =
                            map.get("args").and_then(|args| args.get("value"))
                        && crate::basic::Template::parse(text)
                            .is_ok_and(|t| t.calls().contains(&"@index"))
                    {
                        return Err(MessageError::new(
                            Category::Validation,
                            format!("{at}/args/value"),
                            "@index can only be evaluated inside a template item, and the component 'root' is drawn once, at the top of the tree (its formatString calls ${@index()})",
                        ));
                    }
                    if let Some(name) = name
                        && name != "@index"
                    {
                        match map.get("catalogId") {
                            None if surface.catalog_id.is_none() => {
                                return Err(MessageError::new(
                                    Category::Catalog,
                                    at,
                                    format!(
                                        "the call of '{name}' names no catalogId and surface '{}' has no default catalogId",
                                        surface.id
                                    ),
                                ));
                            }
                            None => {}
                            Some(Value::String(c)) => {
                                self.known_catalog(surface, c, &at, "catalogId")?
                            }
                            Some(other) => {
                                return Err(MessageError::new(
                                    Category::Validation,
                                    format!("{at}/catalogId"),
                                    format!(
                                        "a call's catalogId must be a string, got {}",
                                        crate::json::kind_name(other)
                                    ),
                                ));
                            }
                        }
                        let catalog = match map.get("catalogId") {
                            Some(Value::String(c)) => Some(c.as_str()),
                            _ => surface.catalog_id.as_deref(),
                        };
                        if let Some(catalog) = catalog.and_then(|c| self.env.catalog(c))
                            && !catalog.function_names().contains(&name)
                        {
                            return Err(MessageError::new(
                                Category::Validation,
                                at,
                                format!(
                                    "Unrecognized function '{name}' in catalog '{}' (its functions: {})",
                                    catalog.id(),
                                    catalog.function_names().join(", ")
                                ),
                            ));
                        }
                    }
                    for (k, v) in map {
                        stack.push((format!("{at}/{}", crate::path::escape_token(k)), v));
                    }
                }
                Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        stack.push((format!("{at}/{i}"), v));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Compiles each property that holds a binding or a call, with the surface's default
    /// catalog for calls that name none.
    fn compile(
        &mut self,
        surface: &Surface,
        def: &ComponentDef,
        spelling: Spelling,
        warnings: &mut Vec<crate::error::Warning>,
    ) -> Result<Vec<(String, std::sync::Arc<Payload>)>, MessageError> {
        let known_default = surface
            .catalog_id
            .as_deref()
            .is_some_and(|id| self.catalogs.contains_key(id));
        let scope = CompileScope {
            default_catalog: surface.catalog_id.as_deref(),
            spelling,
            caller: Some(Origin::Binding),
        };
        let mut out = Vec::new();
        let mut parts: Vec<(&str, &Value)> =
            def.props.iter().map(|(k, v)| (k.as_str(), v)).collect();
        if let Some(checks) = &def.checks {
            parts.push(("checks", checks));
        }
        // `accessibility` holds dynamic values (`label`, `description`, and `hidden` since
        // November 2026): they are compiled so that their problems are the message's, and
        // left to the renderer to resolve (the resolved tree carries the component's props).
        if let Some(accessibility) = &def.accessibility {
            parts.push(("accessibility", accessibility));
        }
        for (prop, value) in parts {
            if !has_dynamic(value) {
                continue;
            }
            // A component's values run on the renderer: a function only the agent may call
            // is refused now, not at every evaluation.
            let at = if matches!(prop, "checks" | "accessibility") {
                def.envelope_pointer(prop)
            } else {
                format!("{}/{}", def.pointer, crate::path::escape_token(prop))
            };
            let compiled = self.env.compile_in(value, scope).0;
            if let Ok(payload) = &compiled {
                warnings.extend(payload.warnings().iter().map(|w| {
                    let location = format!("{at}{}", w.location());
                    w.clone().with_location(location)
                }));
            }
            match compiled {
                Ok(_) if prop == "accessibility" => {}
                Ok(payload) => out.push((prop.to_owned(), std::sync::Arc::new(payload))),
                Err(err) => {
                    let e = err
                        .into_problems()
                        .into_iter()
                        .next()
                        .expect("an error has a problem");
                    // Calls relying on a default catalog the host did not register are not
                    // checked (the surface's catalog is the host's business).
                    match e.missing_catalog() {
                        Some(MissingCatalog::NoDefault) => {
                            return Err(MessageError::new(
                                Category::Catalog,
                                format!("{}/{prop}{}", def.pointer, e.location()),
                                format!(
                                    "surface '{}' has no default catalogId for this call",
                                    surface.id
                                ),
                            ));
                        }
                        Some(MissingCatalog::NotRegistered(id))
                            if !known_default && surface.catalog_id.as_deref() == Some(id) =>
                        {
                            continue;
                        }
                        _ => {}
                    }
                    return Err(MessageError::new(
                        e.category(),
                        format!("{at}{}", e.location()),
                        e.message().to_owned(),
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// A processor shared with an [`McpHost`](crate::mcp::McpHost) as its
/// [`MessageSink`](crate::mcp::MessageSink): the A2UI messages a tool returns are processed as they
/// arrive, each atomic, the refused ones kept for the host to read
/// ([`take_errors`](SharedProcessor::take_errors)). A `callRendererFunction` or an
/// `agentFunctionResponse` among them is refused, not taken: a tool is not the agent.
///
/// ```
/// use a2ui_catalog_mcp::mcp::MessageSink;
/// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, SharedProcessor};
/// use serde_json::json;
/// let shared = SharedProcessor::new(Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true)));
/// shared.process(vec![json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c"}}), json!({})]);
/// assert!(shared.has_surface("s"));
/// assert_eq!(shared.take_errors().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct SharedProcessor {
    inner: std::sync::Arc<std::sync::Mutex<(Processor, Vec<ProcessError>)>>,
}

impl SharedProcessor {
    /// Shares `processor`.
    pub fn new(processor: Processor) -> SharedProcessor {
        SharedProcessor {
            inner: std::sync::Arc::new(std::sync::Mutex::new((processor, Vec::new()))),
        }
    }

    /// Runs `f` on the processor (a poisoned lock is taken over: the processor's state is
    /// consistent between messages, since each applies atomically).
    pub fn with<R>(&self, f: impl FnOnce(&mut Processor) -> R) -> R {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut guard.0)
    }

    /// The errors of the messages refused since the last call.
    pub fn take_errors(&self) -> Vec<ProcessError> {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut guard.1)
    }
}

impl SharedProcessor {
    fn process_all(&self, messages: &[Value], source: Option<&Provenance>) {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (processor, errors) = &mut *guard;
        for message in messages {
            if let Some(key) = rpc::agent_call_key(message) {
                errors.push(processor.refuse_function_call(key));
                continue;
            }
            match processor.process(message) {
                Ok(Applied::SurfaceCreated(id)) => {
                    if let (Some(source), Some(surface)) = (source, processor.surface_mut(&id)) {
                        surface.set_source(source.clone());
                    }
                }
                Ok(_) => {}
                Err(e) => errors.push(e),
            }
        }
    }
}

impl crate::mcp::MessageSink for SharedProcessor {
    fn process(&self, messages: Vec<Value>) {
        self.process_all(&messages, None);
    }

    /// Processes the messages a tool returned; the surfaces they create remember the tool and
    /// its server ([`Surface::source`]).
    fn process_from(&self, messages: Vec<Value>, source: &Provenance) {
        self.process_all(&messages, Some(source));
    }

    fn has_surface(&self, surface_id: &str) -> bool {
        self.with(|p| p.surface(surface_id).is_some())
    }
}

/// What activating a component did ([`Processor::activate`]).
#[derive(Debug)]
#[non_exhaustive]
pub struct Activation {
    /// The renderer-to-agent `action` message to send (an `event` action): `name`,
    /// `surfaceId`, `sourceComponentId`, `timestamp`, `context` evaluated now, `userMessage`.
    pub message: Option<Value>,
    /// The data models to attach, when the surface says `sendDataModel` (the form of
    /// [`Processor::data_models`]).
    pub data_model: Option<Value>,
    /// What a `functionCall` action returned (it runs on the renderer; no event is sent).
    pub value: Option<Value>,
    /// The `functionCall` stopped at a tool call: the run queued for the host
    /// ([`Processor::take_tool_runs`]); its value comes with
    /// [`Processor::finish_tool_run`].
    pub run: Option<u64>,
    /// What failed while evaluating (a context value that failed is `null` in the message).
    pub errors: Vec<Error>,
}

/// Installs prepared components: each replaces the one of its id whole.
/// How the values of a components message are read on `surface`
/// ([`Surface::spelling`]): the spelling to compile them in, the surface's spelling once the
/// message applies (`None`: still undecided), and where values of the other spelling show on a
/// surface that reads the plain one (its once-per-surface warning). Before v1.0 everything is
/// plain.
fn message_spelling(
    surface: &Surface,
    defs: &[ComponentDef],
) -> (Spelling, Option<Spelling>, Option<String>) {
    if !surface.version.is_v1() {
        return (Spelling::Plain, Some(Spelling::Plain), None);
    }
    let mut evidence = crate::syntax::Evidence::default();
    for def in defs {
        for (key, value) in &def.props {
            let at = format!("{}/{}", def.pointer, crate::path::escape_token(key));
            evidence.add(at, value);
        }
        for (key, value) in [
            ("checks", &def.checks),
            ("accessibility", &def.accessibility),
        ] {
            if let Some(value) = value {
                evidence.add(def.envelope_pointer(key), value);
            }
        }
    }
    let decided = evidence.decide(surface.spelling);
    let mixed_at = match decided {
        Some(Spelling::Plain) => evidence.other_than(Spelling::Plain).map(str::to_owned),
        _ => None,
    };
    (decided.unwrap_or(Spelling::Plain), decided, mixed_at)
}

/// A property the component's schema does not name.
fn unknown_property(
    pointer: String,
    prop: &str,
    component: &str,
    schema: &ComponentSchema,
) -> MessageError {
    let mut known: Vec<&str> = schema.props.keys().map(String::as_str).collect();
    known.sort_unstable();
    MessageError::new(
        Category::Validation,
        pointer,
        format!(
            "unknown property '{prop}' of {component} (its properties: {})",
            known.join(", ")
        ),
    )
}

/// What a surface holds beyond its id, components and model: its struct and its entries in the
/// processor's maps.
const SURFACE_BYTES: usize = std::mem::size_of::<Surface>() + 256;

/// What a component holds, estimated from above as values are ([`crate::json::value_bytes`]):
/// its struct, id, type and pointer, its properties, its children, and each dynamic property
/// once more for what it compiles to.
fn component_bytes(
    def: &ComponentDef,
    compiled: &[(String, std::sync::Arc<Payload>)],
    children: &[(String, String, bool)],
) -> usize {
    let value = |v: &Value| crate::json::value_bytes(v, usize::MAX).unwrap_or(usize::MAX);
    let props: usize = def
        .props
        .iter()
        .map(|(k, v)| k.len() + crate::json::ENTRY_BYTES + value(v))
        .fold(0, usize::saturating_add);
    let envelope: usize = [&def.checks, &def.accessibility]
        .into_iter()
        .flatten()
        .map(value)
        .fold(0, usize::saturating_add);
    let compiled: usize = compiled
        .iter()
        .filter_map(|(prop, _)| def.props.get(prop))
        .map(value)
        .fold(0, usize::saturating_add);
    let children: usize = children
        .iter()
        .map(|(id, slot, _)| id.len() + slot.len() + 64)
        .sum();
    (std::mem::size_of::<Component>() + 128 + def.id.len() * 3 + def.component.len())
        .saturating_add(def.pointer.len())
        .saturating_add(props)
        .saturating_add(envelope)
        .saturating_add(compiled)
        .saturating_add(children)
}

/// The most bytes of deleted surfaces' ids a processor remembers.
const DELETED_BYTES: usize = 1 << 20;

/// The ids of deleted surfaces, the latest within [`DELETED_BYTES`]: a stream that creates and
/// deletes surfaces forever keeps a bounded memory of them.
#[derive(Debug, Default)]
struct Deleted {
    ids: HashSet<std::sync::Arc<str>>,
    order: std::collections::VecDeque<std::sync::Arc<str>>,
    bytes: usize,
}

impl Deleted {
    /// What one id costs: its text and its two entries (so at most 16 384 ids are kept).
    fn cost(id: &str) -> usize {
        id.len() + 64
    }

    fn insert(&mut self, id: &str) {
        if Deleted::cost(id) > DELETED_BYTES || self.ids.contains(id) {
            return;
        }
        let id: std::sync::Arc<str> = id.into();
        self.bytes += Deleted::cost(&id);
        self.ids.insert(id.clone());
        self.order.push_back(id);
        while self.bytes > DELETED_BYTES
            && let Some(old) = self.order.pop_front()
        {
            self.ids.remove(&old);
            self.bytes -= Deleted::cost(&old);
        }
    }

    /// A surface created again: bounded by the ids kept.
    fn remove(&mut self, id: &str) {
        if self.ids.remove(id) {
            self.bytes -= Deleted::cost(id);
            self.order.retain(|kept| &**kept != id);
        }
    }

    fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }
}

fn install(surface: &mut Surface, upserts: Vec<Component>) {
    for component in upserts {
        let id = component.def.id.clone();
        surface.parents.link(&id, &component.children);
        surface.component_bytes += component.bytes;
        match surface.components.insert(id.clone(), component) {
            Some(old) => {
                surface.parents.unlink(&id, &old.children);
                surface.component_bytes -= old.bytes;
            }
            None => surface.order.push(id),
        }
    }
}

/// Runs a call: the one place where actions' `functionCall`s (on their surface's data model,
/// in the instance's data context) and the agent's `callRendererFunction`s (on no surface)
/// are evaluated, with the origin that governs what they may do. An action may write its
/// surface's data model; the agent's call has none, so it reads an empty one and may not
/// write. Tool calls need the host's executor (`Payload::eval_async`).
fn run_call(
    payload: &Payload,
    surface: Option<(&mut TrackedModel<Value>, &JsonPointer)>,
    origin: Origin,
) -> Result<Value, Error> {
    // The origin governs what the call may do: an action runs with user activation
    // (`requiresUserActivation` holds), the agent only what `allowedCallers` admits.
    match surface {
        Some((model, context)) => payload.eval_from(model, context, origin),
        None => payload.eval_read_from(&Value::Object(Map::new()), &JsonPointer::root(), origin),
    }
}

/// The depth of a value when it is deeper than `limit` (explicit stack, stops at the first
/// level past the limit).
fn deeper_than(value: &Value, limit: usize) -> Option<usize> {
    let mut stack = vec![(value, 1usize)];
    while let Some((v, depth)) = stack.pop() {
        if depth > limit {
            return Some(depth);
        }
        match v {
            Value::Object(map) => stack.extend(map.values().map(|c| (c, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    None
}

/// Whether a value holds a binding or a call anywhere, or a key with the reserved `@` (which
/// the compiler reads: `@@` escapes, a bare or unknown `@` key is an error); explicit stack.
fn has_dynamic(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if schema::is_dynamic(v) || map.keys().any(|k| k.starts_with('@')) {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

// The guide's examples are tested like the README's.
#[doc = include_str!("../../docs/surfaces.md")]
#[cfg(doctest)]
pub struct SurfacesGuideDoctests;
