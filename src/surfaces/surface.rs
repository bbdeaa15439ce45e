//! A surface as its messages built it: its components, their children and what it holds.

use super::*;
use crate::origin::Provenance;
use crate::payload::Payload;
use crate::reactive::TrackedModel;
use crate::stream::{ComponentDef, Version};
use crate::syntax::Spelling;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// A component of a surface: its definition as last sent, and its dynamic properties compiled.
#[derive(Debug)]
pub struct Component {
    pub(super) def: ComponentDef,
    /// The catalog whose schema checked it, when one did.
    pub(super) catalog: Option<String>,
    /// The compiled value of each property that is dynamic (binding or call somewhere in it).
    pub(super) compiled: Vec<(String, std::sync::Arc<Payload>)>,
    /// The children it names: (id, slot, whether a template).
    pub(super) children: Vec<(String, String, bool)>,
    /// Its action's `functionCall`, compiled on the first tap and kept for the next ones (a
    /// component sent again is a new `Component`, so the cache goes with the old one).
    pub(super) action_call: std::sync::OnceLock<std::sync::Arc<Payload>>,
    /// What it holds, charged to [`ProcessorOptions::max_held_bytes`](crate::surfaces::ProcessorOptions::max_held_bytes).
    pub(super) bytes: usize,
    /// The index of the message that sent it (its definition is at `def.pointer` there).
    pub(super) message: usize,
}

impl Component {
    /// The definition, as sent.
    pub fn def(&self) -> &ComponentDef {
        &self.def
    }

    /// The index of the message that sent this definition (0-based, counting every message
    /// given to the processor); [`def`](Component::def)'s `pointer` is where it is in it.
    pub fn message_index(&self) -> usize {
        self.message
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

/// What [`Surface::graph_problems`](crate::surfaces::Surface::graph_problems) finds.
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
    pub(super) id: String,
    pub(super) version: Version,
    pub(super) catalog_id: Option<String>,
    pub(super) send_data_model: bool,
    pub(super) theme: Option<Value>,
    pub(super) metadata: Option<Value>,
    pub(super) components: HashMap<String, Component>,
    /// Component ids in the order they were first defined.
    pub(super) order: Vec<String>,
    /// Who names each component, so a message's graph checks cost what it touches.
    pub(super) parents: graph::Parents,
    /// The sum of its components' `bytes`.
    pub(super) component_bytes: usize,
    pub(super) data: TrackedModel<Value>,
    pub(super) source: Option<Provenance>,
    pub(super) live: Option<Box<live::LiveTree>>,
    /// The spelling its values are read in, decided by the first binding or call it received
    /// (`None` before one): see [`Surface::spelling`](crate::surfaces::Surface::spelling).
    pub(super) spelling: Option<Spelling>,
    /// Whether the surface was warned about values of the other spelling.
    pub(super) spelling_warned: bool,
}

impl Surface {
    /// A surface as `createSurface` starts it: no components, an empty object as its model,
    /// no theme, metadata, source or live tree.
    pub(super) fn empty(
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

    /// What the surface holds, charged to [`ProcessorOptions::max_held_bytes`](crate::surfaces::ProcessorOptions::max_held_bytes): its id, its
    /// components and its data model.
    pub(crate) fn held(&self) -> usize {
        // The id is kept by the processor's map, the surface and its journal.
        SURFACE_BYTES + 3 * self.id.len() + self.component_bytes + self.data.held_bytes_now()
    }

    /// The spelling the surface's values are read in (`None` until a component brought a
    /// binding or a call). v1.0 reads both spellings, but one surface reads one: the `@`
    /// spelling as soon as a value of the surface is written with `@path` / `@call` (a plain
    /// `{"path": …}` or `{"call": …}` there is then a literal object, with an `OTHER_SPELLING`
    /// warning at its location, [`Processor::take_warnings`](crate::surfaces::Processor::take_warnings)), the plain one when its first
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
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
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

    /// Records where the surface came from ([`SharedProcessor`](crate::surfaces::SharedProcessor) does it for the surfaces a
    /// tool's result creates).
    pub fn set_source(&mut self, source: Provenance) {
        self.source = Some(source);
    }
}

/// What a surface holds beyond its id, components and model: its struct and its entries in the
/// processor's maps.
pub(super) const SURFACE_BYTES: usize = std::mem::size_of::<Surface>() + 256;

/// What a component holds, estimated from above as values are ([`crate::json::value_bytes`]):
/// its struct, id, type and pointer, its properties, its children, and each dynamic property
/// once more for what it compiles to.
pub(super) fn component_bytes(
    def: &ComponentDef,
    compiled: &[(String, std::sync::Arc<Payload>)],
    children: &[(String, String, bool)],
) -> usize {
    let value = |v: &Value| crate::json::value_bytes(v, usize::MAX).unwrap_or(usize::MAX);
    // Each property walked once; a dynamic one counted twice, for what it compiles to.
    let props: usize = def
        .props
        .iter()
        .map(|(k, v)| {
            let size = value(v);
            let twice = compiled.iter().any(|(p, _)| p == k);
            (k.len() + crate::json::ENTRY_BYTES)
                .saturating_add(size)
                .saturating_add(if twice { size } else { 0 })
        })
        .fold(0, usize::saturating_add);
    let envelope: usize = [&def.checks, &def.accessibility]
        .into_iter()
        .flatten()
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
        .saturating_add(children)
}

pub(super) fn install(surface: &mut Surface, upserts: Vec<Component>) {
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
