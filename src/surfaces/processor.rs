//! The processor: its catalogs and surfaces, and the messages that create, update and delete
//! them.

use super::options::*;
use super::schema::CatalogInfo;
use super::surface::*;
use super::*;
use crate::env::{CompileScope, Environment};
use crate::error::{Error, ErrorCode, Warning};
use crate::origin::Origin;
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::stream::{
    Body, Category, CreateSurface, ParseOptions, UpdateComponents, Version, messages_of,
    parse_message_with,
};
use crate::syntax::Spelling;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};

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
    /// The agent answered a `callAgentFunction` ([`Processor::call_agent_function`](crate::surfaces::Processor::call_agent_function)).
    AgentFunctionResponse(AgentFunctionResponse),
    /// A message the processor does not apply to surfaces (renderer-to-agent messages), read
    /// and handed back.
    Other(Box<crate::stream::Message>),
}

/// The message processor. See the [module docs](crate::surfaces).
pub struct Processor {
    pub(super) options: ProcessorOptions,
    pub(super) env: Environment,
    /// Warnings of the messages applied, not yet taken.
    pub(super) warnings: Vec<Warning>,
    pub(super) catalogs: HashMap<String, CatalogInfo>,
    pub(super) surfaces: BTreeMap<String, Surface>,
    /// The ids of deleted surfaces, to say so when a message names one: the latest, within
    /// [`DELETED_BYTES`] (older ones are then "never created", a wording only).
    pub(super) deleted: Deleted,
    pub(super) messages: usize,
    /// The `callAgentFunction`s waiting for their response: functionCallId → surface.
    pub(super) pending_agent_calls: HashMap<String, String>,
    pub(super) journal: live::Journal,
    /// The tool runs waiting for their answer.
    pub(super) runs: tool_runs::Runs,
    /// Refused messages that tool results carried ([`Processor::take_forwarded_errors`](crate::surfaces::Processor::take_forwarded_errors)).
    pub(super) forwarded_errors: Vec<Error>,
    /// The size of the live trees together, bounded by the live [`ResolveLimits`](crate::surfaces::ResolveLimits).
    pub(super) live_totals: live::Totals,
    /// While every problem of a message is judged ([`Processor::check`](crate::surfaces::Processor::check)): the
    /// problems of the values compiled, each value's all of them.
    pub(super) collecting: Option<Vec<Error>>,
    /// While every problem of a component is judged: the properties set aside for their own
    /// problems, which its required properties count as given.
    pub(super) set_aside: HashSet<String>,
    /// What [`Processor::check`](crate::surfaces::Processor::check) remembers of the stream's spellings, for its warnings.
    pub(super) stream_spelling: check::StreamSpelling,
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

/// The most bytes of deleted surfaces' ids a processor remembers.
pub(super) const DELETED_BYTES: usize = 1 << 20;

/// The ids of deleted surfaces, the latest within [`DELETED_BYTES`]: a stream that creates and
/// deletes surfaces forever keeps a bounded memory of them.
#[derive(Debug, Default)]
pub(super) struct Deleted {
    pub(super) ids: HashSet<std::sync::Arc<str>>,
    pub(super) order: std::collections::VecDeque<std::sync::Arc<str>>,
    pub(super) bytes: usize,
}

impl Deleted {
    /// What one id costs: its text and its two entries (so at most 16 384 ids are kept).
    pub(super) fn cost(id: &str) -> usize {
        id.len() + 64
    }

    pub(super) fn insert(&mut self, id: &str) {
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
    pub(super) fn remove(&mut self, id: &str) {
        if self.ids.remove(id) {
            self.bytes -= Deleted::cost(id);
            self.order.retain(|kept| &**kept != id);
        }
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }
}

impl Processor {
    /// A processor knowing the MCP catalog.
    pub fn new(options: ProcessorOptions) -> Processor {
        Processor::with_environment(Environment::new(), options)
    }

    /// A processor on the host's environment (its catalogs, functions and limits). Bindings
    /// and calls of v1.0 messages are read in both spellings, one per surface
    /// ([`Surface::spelling`](crate::surfaces::Surface::spelling)); before v1.0, in the plain one.
    pub fn with_environment(env: Environment, options: ProcessorOptions) -> Processor {
        let mut env = env.with_spelling(Spelling::Plain);
        // Strict validation judges literal arguments by the catalogs' schemas, as `check` does.
        if options.strict {
            env = env.with_schema_checks(true);
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
            collecting: None,
            set_aside: HashSet::new(),
            stream_spelling: check::StreamSpelling::default(),
        }
    }

    /// A processor for another stream: the same options, environment and registered catalogs
    /// (their component schemas shared, not read again), with no surface, message or call of
    /// this one. A host that opens many streams registers its catalog documents once.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    ///
    /// let mut template = Processor::new(ProcessorOptions::default());
    /// template.register_catalog(&json!({"catalogId": "https://example.com/c.json", "components": {
    ///     "Text": {"properties": {"component": {"const": "Text"}, "text": {}}, "required": ["component", "text"]}}}))?;
    /// let mut one = template.fresh();
    /// one.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "https://example.com/c.json"}}))?;
    /// assert!(one.surface("s").is_some());
    /// let two = template.fresh();
    /// assert!(two.surface("s").is_none());
    /// assert_eq!(two.supported_catalog_ids(a2ui_catalog_mcp::stream::Version::V1_0), one.supported_catalog_ids(a2ui_catalog_mcp::stream::Version::V1_0));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn fresh(&self) -> Processor {
        let mut fresh = Processor::with_environment(self.env.clone(), self.options.clone());
        fresh.catalogs = self.catalogs.clone();
        fresh
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
                schema::read_components(c)
                    .map(std::sync::Arc::new)
                    .map_err(|why| bad(format!("catalog '{id}': {why}")))?,
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
    pub fn render_json(&self, errors: &[Error], limits: ResolveLimits) -> Value {
        let error_json = |e: &Error| json!({"index": e.message_index(), "pointer": e.location(), "category": e.category().as_str(), "message": e.message()});
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
                "errors": errors.iter().filter(|e| e.surface_id() == Some(surface.id.as_str())).map(error_json).collect::<Vec<_>>(),
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
                e.surface_id()
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
    /// own), its spelling ([`Surface::spelling`](crate::surfaces::Surface::spelling)). A surface that is not there gets neither
    /// catalog nor `@`.
    pub(super) fn scope_of_surface(
        &self,
        surface_id: &str,
        caller: Option<Origin>,
    ) -> CompileScope<'_> {
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
    pub(super) fn compile_in_surface(
        &self,
        surface_id: &str,
        value: &Value,
    ) -> Result<Payload, Error> {
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
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
    /// p.process(&json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": "c", "components": [
    ///     {"id": "root", "component": "Button", "action": {"functionCall": {"@call": "callMcpTool", "catalogId": MCP_CATALOG_ID,
    ///         "args": {"name": "list_dir", "arguments": {"path": "/docs"}}}}}]}})).unwrap();
    /// assert_eq!(p.surface("s").unwrap().spelling(), Some(Spelling::At));
    /// let warnings = p.take_warnings();
    /// assert_eq!(warnings[0].location(), "/createSurface/components/0/action/functionCall/args/arguments");
    /// assert_eq!((warnings[0].message_index(), warnings[0].surface_id()), (Some(0), Some("s")));
    /// ```
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// Counts a message that could not be read (its text is not JSON, or too large): it takes
    /// its place among the messages, as a checker numbers them, and comes back refused with
    /// `error`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use a2ui_catalog_mcp::{Error, stream::Category};
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// let err = p.refuse(Error::in_message(Category::Validation, "", "not JSON"));
    /// assert_eq!((err.message_index(), p.message_count()), (Some(0), 1));
    /// ```
    pub fn refuse(&mut self, error: Error) -> Error {
        let index = self.messages;
        self.messages += 1;
        error.of_message(index, None)
    }

    /// How many messages were given to the processor.
    pub fn message_count(&self) -> usize {
        self.messages
    }

    /// Processes every message of a stream parsed as one JSON value (an array, `{"messages"}`,
    /// the gallery's `{name, description, messages}`, or one message); each message is atomic
    /// and a bad one does not stop the others. Returns the errors.
    pub fn process_all(&mut self, stream: &Value) -> Vec<Error> {
        messages_of(stream)
            .into_iter()
            .filter_map(|(_, message)| self.process(message).err())
            .collect()
    }

    /// Processes one message, atomically. The agent's `callRendererFunction` runs here, as
    /// the agent (no user activation; see [`RendererFunctionCall`]), and comes back as
    /// [`Applied::RendererFunction`](crate::surfaces::Applied::RendererFunction) with the response to send; a call that is refused or fails
    /// is a response with an error, not an [`Error`] (a message missing its
    /// `functionCallId` or `callFunction` is one).
    pub fn process(&mut self, message: &Value) -> Result<Applied, Error> {
        let index = self.messages;
        self.messages += 1;
        let fail = |surface_id: Option<String>, error: Error| error.of_message(index, surface_id);
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

    pub(super) fn update_data_model(
        &mut self,
        update: crate::stream::UpdateDataModel,
    ) -> Result<Applied, Error> {
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
                Error::in_message(
                    Category::Validation,
                    format!("/updateDataModel{at}"),
                    e.message().to_owned(),
                )
            })
    }

    /// Refuses a message that would make the surfaces hold more than
    /// [`ProcessorOptions::max_held_bytes`](crate::surfaces::ProcessorOptions::max_held_bytes): `surface` (out of `self.surfaces`, or in it) with
    /// `added` bytes more and `replaced` fewer. Costs one look per surface.
    pub(super) fn check_held(
        &self,
        surface: &Surface,
        added: usize,
        replaced: usize,
        at: &str,
    ) -> Result<(), Error> {
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
        Err(Error::in_message(
            Category::Recursion,
            at,
            format!(
                "the surfaces would hold about {held} bytes (surface '{}' and the others), more than the limit of {} (ProcessorOptions::max_held_bytes)",
                surface.id, self.options.max_held_bytes
            ),
        ))
    }

    /// The surface a message updates, or an `IntegrityError` (never created, deleted).
    pub(super) fn existing(&mut self, id: &str, at: &str) -> Result<&mut Surface, Error> {
        let deleted = self.deleted.contains(id);
        self.surfaces.get_mut(id).ok_or_else(|| {
            let why = if deleted {
                format!("Surface not found: '{id}' was deleted (by an earlier deleteSurface)")
            } else {
                format!(
                    "Surface not found: '{id}' was never created (no createSurface before this message)"
                )
            };
            Error::in_message(Category::Integrity, format!("{at}/surfaceId"), why)
        })
    }

    /// A `createSurface` for a surface that exists is refused.
    pub(super) fn surface_exists(&self, id: &str) -> Option<Error> {
        self.surfaces.contains_key(id).then(|| {
            Error::in_message(
                Category::Integrity,
                "/createSurface/surfaceId",
                format!("surface '{id}' already exists (delete it before creating it again)"),
            )
        })
    }

    /// What is wrong with the default catalog a `createSurface` names: none before v1.0, an
    /// empty id, or one that is not registered (matchable by
    /// [`Error::missing_catalog`](crate::Error::missing_catalog): a processor that accepts
    /// unregistered catalogs lets that one pass, and a check reports it).
    pub(super) fn surface_catalog_problem(
        &self,
        version: Version,
        catalog_id: Option<&str>,
    ) -> Option<Error> {
        let at = "/createSurface";
        match catalog_id {
            None if !version.is_v1() => Some(Error::in_message(
                Category::Validation,
                at,
                "createSurface needs a 'catalogId' before A2UI v1.0",
            )),
            Some("") => Some(Error::in_message(
                Category::Catalog,
                format!("{at}/catalogId"),
                "Catalog not found: the catalogId is empty",
            )),
            Some(c) if !self.catalogs.contains_key(c) => {
                Some(self.catalog_not_found(c, format!("{at}/catalogId")))
            }
            _ => None,
        }
    }

    pub(super) fn create_surface(
        &mut self,
        version: Version,
        create: CreateSurface,
    ) -> Result<Applied, Error> {
        let id = create.surface_id.clone();
        if let Some(e) = self.surface_exists(&id) {
            return Err(e);
        }
        if self.surfaces.len() >= self.options.max_surfaces {
            return Err(Error::in_message(
                Category::Recursion,
                "/createSurface/surfaceId",
                format!(
                    "surface '{id}' would be one more than the limit of {} surfaces held at once (delete one first)",
                    self.options.max_surfaces
                ),
            ));
        }
        if let Some(e) = self.surface_catalog_problem(version, create.catalog_id.as_deref())
            && !(self.options.accept_unregistered_catalogs && e.missing_catalog().is_some())
        {
            return Err(e);
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
                Error::in_message(
                    Category::Validation,
                    "/createSurface/dataModel",
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

    pub(super) fn update_components(&mut self, update: UpdateComponents) -> Result<Applied, Error> {
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
}
