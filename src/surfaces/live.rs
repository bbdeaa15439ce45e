//! The live resolution: each surface's resolved tree kept between messages, with what changed.
//!
//! With [`ProcessorOptions::live`](super::ProcessorOptions::live) set, the processor keeps, per
//! surface, the instances of the tree [`Surface::resolve`] would give, and after each message,
//! host write ([`Processor::write`], [`Processor::write_path`]) and data change made by other
//! means ([`Processor::refresh`]), it records what changed ([`Processor::take_changes`]):
//! surfaces created and deleted, instances created and removed, and per instance the
//! properties whose resolved value changed.
//!
//! How a change finds what it reaches, without walking the tree:
//!
//! - a property of an instance in the root data context is registered in a [`PathIndex`] with
//!   the paths it reads;
//! - a template is registered once, at its array's path. A change under row `i` goes to the
//!   instances of row `i` alone (their properties that read below the row are compared with
//!   the rest of the changed path), so a one-row edit costs the row, not the list; a change at
//!   or above the array re-reads its length, keeps rows by position (an appended, inserted or
//!   removed item leaves the rows before it untouched), and re-evaluates what the rows read;
//! - an instance inside a row registers only the absolute paths it reads.
//!
//! A bare binding (`{"path": P}`) is read in the model, never evaluated: it keeps a copy of a
//! scalar value (to tell an equal write from a change) and nothing of an object or array (a
//! change that reaches it is reported, with nothing copied or compared). A computed value is
//! evaluated again and reported when it differs ([`json_eq`]). An `action` is not a reactive
//! property: its context is evaluated when the user activates it.
//!
//! A value that calls a tool is pending; each computation of it starts a [`ToolRun`] for the
//! host ([`Processor::take_tool_runs`]), whose result ([`Processor::finish_tool_run`]) is
//! reported as a change of the property, unless a later run superseded it.
//!
//! Trees are built and dropped with explicit work lists (no recursion), bounded by the
//! [`ResolveLimits`] of the options: a template longer than `max_template_items` makes its
//! instance `failed` with `LIMIT_EXCEEDED`, and past `max_nodes` instances no more are made.

use super::resolve::{Node, NodeState, ResolveLimits, Tree};
use super::tool_runs::{Start, Started};
use super::{Applied, Processor, Surface};
use crate::error::{Error, ErrorCode};
use crate::model::read_value;
use crate::origin::Origin;
use crate::path::{DataPath, JsonPointer, array_index, escape_token};
use crate::payload::Payload;
use crate::reactive::{ChangeSet, PathIndex, json_eq};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// An instance of the live tree: stable while the instance lives (a template row keeps its id
/// when items are appended, inserted or removed after it), never reused after it is removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId(u64);

impl InstanceId {
    fn new(slot: u32, generation: u32) -> InstanceId {
        InstanceId((u64::from(generation) << 32) | u64::from(slot))
    }

    fn slot(self) -> u32 {
        // The low half is the slot by construction.
        (self.0 & 0xFFFF_FFFF) as u32
    }

    fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// The id as a number (for a renderer's own maps).
    pub fn as_u64(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for InstanceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}.{}", self.slot(), self.generation())
    }
}

/// What changed in one surface ([`Changes::surfaces`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SurfaceChanges {
    /// Instances made, in the order they were made (parents before children).
    pub created: Vec<InstanceId>,
    /// Instances dropped (their children included), in the order they were dropped.
    pub removed: Vec<InstanceId>,
    /// Instances that existed before and still do, with the properties whose resolved value
    /// changed, sorted by instance, each property once. A property naming children (`child`,
    /// `children`) is listed when the instances it names changed (a template's rows appeared
    /// or disappeared, a placeholder was replaced); `checks` when the checks' outcome did. An
    /// instance whose component was sent again (same type) lists every property of the new
    /// definition: one complete snapshot, as `node_resolution.yaml` expects.
    pub updated: Vec<(InstanceId, Vec<String>)>,
}

impl SurfaceChanges {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.created.is_empty() && self.removed.is_empty() && self.updated.is_empty()
    }
}

/// What changed since the last [`Processor::take_changes`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Changes {
    /// Surfaces created (and still there).
    pub surfaces_created: Vec<String>,
    /// Surfaces deleted.
    pub surfaces_deleted: Vec<String>,
    /// Per surface still there, what changed in its tree (surfaces where nothing did are not
    /// listed; a surface created is listed with its instances created).
    pub surfaces: BTreeMap<String, SurfaceChanges>,
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.surfaces_created.is_empty()
            && self.surfaces_deleted.is_empty()
            && self.surfaces.is_empty()
    }
}

/// Tool runs started in one update: (instance, property, ticket).
type Runs = Vec<(u32, u32, u64)>;

/// Changes as they are recorded, put in order by [`Processor::take_changes`].
#[derive(Debug, Default)]
pub(crate) struct Journal {
    created_surfaces: Vec<String>,
    deleted_surfaces: Vec<String>,
    per_surface: HashMap<String, Raw>,
}

#[derive(Debug, Default)]
struct Raw {
    created: Vec<InstanceId>,
    removed: Vec<InstanceId>,
    updated: Vec<(InstanceId, Arc<str>)>,
}

impl Journal {
    fn take(&mut self) -> Changes {
        let journal = std::mem::take(self);
        let deleted: HashSet<&String> = journal.deleted_surfaces.iter().collect();
        let created: HashSet<&String> = journal.created_surfaces.iter().collect();
        let mut out = Changes {
            surfaces_created: journal
                .created_surfaces
                .iter()
                .filter(|s| !deleted.contains(s))
                .cloned()
                .collect(),
            surfaces_deleted: journal
                .deleted_surfaces
                .iter()
                .filter(|s| !created.contains(s))
                .cloned()
                .collect(),
            surfaces: BTreeMap::new(),
        };
        for (surface, raw) in journal.per_surface {
            // A surface deleted since (and not created again) has nothing left to report.
            if deleted.contains(&surface) && !out.surfaces_created.contains(&surface) {
                continue;
            }
            let removed: HashSet<InstanceId> = raw.removed.iter().copied().collect();
            let created: HashSet<InstanceId> = raw.created.iter().copied().collect();
            let mut updated: Vec<(InstanceId, Arc<str>)> = raw
                .updated
                .into_iter()
                .filter(|(id, _)| !removed.contains(id) && !created.contains(id))
                .collect();
            updated.sort_unstable();
            updated.dedup();
            let mut grouped: Vec<(InstanceId, Vec<String>)> = Vec::new();
            for (id, prop) in updated {
                match grouped.last_mut() {
                    Some((last, props)) if *last == id => props.push(prop.to_string()),
                    _ => grouped.push((id, vec![prop.to_string()])),
                }
            }
            let changes = SurfaceChanges {
                created: raw
                    .created
                    .into_iter()
                    .filter(|id| !removed.contains(id))
                    .collect(),
                removed: raw
                    .removed
                    .into_iter()
                    .filter(|id| !created.contains(id))
                    .collect(),
                updated: grouped,
            };
            if !changes.is_empty() {
                out.surfaces.insert(surface, changes);
            }
        }
        out
    }
}

/// The state of one dynamic property of an instance.
#[derive(Debug)]
enum PropState {
    /// A bare binding: its value is the model's at its path. A scalar is kept to compare
    /// with; an object or array is not (`None`).
    Bare(Option<Value>),
    /// A computed value, or its error's text.
    Computed(Result<Arc<Value>, String>),
    /// It needs a tool call: the run of this ticket, handed to the host
    /// ([`Processor::take_tool_runs`]), sets it ([`Processor::finish_tool_run`]); a later run
    /// supersedes it.
    Pending(u64),
    /// Not reactive: an action (its context is evaluated on activation).
    Inert,
}

/// How an instance hangs from its parent.
#[derive(Debug, Clone)]
enum SlotName {
    Root,
    /// `child`, `children[2]`, `tabs[0].child`; and its position among the parent's kids.
    Named(Arc<str>, u32),
    /// Row `i` of a template in slot `.0`.
    Item(Arc<str>, u32),
}

impl SlotName {
    fn to_string_opt(&self) -> Option<String> {
        match self {
            SlotName::Root => None,
            SlotName::Named(s, _) => Some(s.to_string()),
            SlotName::Item(s, i) => Some(format!("{s}[{i}]")),
        }
    }

    /// The property of the parent it belongs to: `children[2]` and `tabs[0].child` belong to
    /// `children` and `tabs`.
    fn prop(&self) -> Arc<str> {
        match self {
            SlotName::Root => Arc::from(""),
            SlotName::Named(s, _) | SlotName::Item(s, _) => {
                let end = s.find(['[', '.']).unwrap_or(s.len());
                Arc::from(&s[..end])
            }
        }
    }
}

/// A template of an instance: rows over the array at `array`.
#[derive(Debug)]
struct Rows {
    slot: Arc<str>,
    component: Arc<str>,
    /// `Err`: the template's path does not parse (the instance is failed).
    array: Result<JsonPointer, String>,
    rows: Vec<u32>,
    /// The template is longer than the limit: the instance is failed, no rows.
    too_long: Option<String>,
}

#[derive(Debug)]
enum Kid {
    One(u32),
    Rows(Box<Rows>),
}

#[derive(Debug)]
struct Inst {
    component: Arc<str>,
    /// The component's type when the instance was made (`None`: not defined then, a pending
    /// placeholder).
    ty: Option<Arc<str>>,
    context: Arc<JsonPointer>,
    parent: u32,
    slot: SlotName,
    kids: Vec<Kid>,
    /// Per compiled payload of the component, in its order.
    props: Vec<PropState>,
    /// Its position among the instances of its component.
    pos: u32,
    /// What it holds, as charged to the tree's [`ResolveLimits::max_bytes`]: its struct, its
    /// context, the values its properties keep.
    bytes: usize,
}

#[derive(Debug)]
struct Entry {
    generation: u32,
    inst: Option<Inst>,
}

/// What the index holds: a property of an instance, or a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Prop(u32, u32),
    Rows(u32, u32),
}

const NONE: u32 = u32::MAX;

/// The live tree of one surface.
#[derive(Debug, Default)]
pub(crate) struct LiveTree {
    entries: Vec<Entry>,
    free: Vec<u32>,
    root: Option<u32>,
    count: usize,
    index: PathIndex<Key>,
    names: HashMap<String, Arc<str>>,
    /// The instances of each component (an instance knows its position here), so that a
    /// component sent again finds its instances without walking the tree.
    instances_of: HashMap<Arc<str>, Vec<u32>>,
    truncated: Option<String>,
    /// The last tool run's ticket.
    tickets: u64,
    /// The bytes its instances hold (the sum of their `bytes`).
    bytes: usize,
    /// The limits it was built with, which also bound the copies [`LiveView::to_tree`] makes.
    limits: ResolveLimits,
}

/// The live trees of a processor together: what [`ResolveLimits::max_nodes`] and
/// [`ResolveLimits::max_bytes`] bound.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    nodes: usize,
    bytes: usize,
}

impl Totals {
    /// A surface's tree is gone (the surface deleted).
    pub(crate) fn forget(&mut self, surface: &Surface) {
        if let Some(tree) = surface.live.as_deref() {
            self.nodes -= tree.count;
            self.bytes -= tree.bytes;
        }
    }

    /// What the tree of one surface may hold: the limits less what the other trees hold.
    fn room(&self, limits: ResolveLimits, tree: &LiveTree) -> (usize, usize) {
        (
            limits.max_nodes.saturating_sub(self.nodes - tree.count),
            limits.max_bytes.saturating_sub(self.bytes - tree.bytes),
        )
    }

    /// Records the tree's size after an update that found it at `before` (nodes, bytes).
    fn update(&mut self, before: (usize, usize), tree: &LiveTree) {
        self.nodes = self.nodes - before.0 + tree.count;
        self.bytes = self.bytes - before.1 + tree.bytes;
    }
}

/// What an instance costs beyond its context and its values.
const INST_BYTES: usize = std::mem::size_of::<Entry>() + 64;

/// The longest scalar a bare binding keeps to tell an equal write from a change: a longer one
/// is read in the model when asked, and a change that reaches it is reported uncompared, so
/// that a long string bound by many instances is not copied by each.
const KEPT_SCALAR_BYTES: usize = 256;

/// What a property's state keeps, charged to the tree.
fn prop_bytes(state: &PropState) -> usize {
    std::mem::size_of::<PropState>()
        + match state {
            PropState::Bare(Some(v)) => super::resolve::value_bytes(v, usize::MAX).unwrap_or(0),
            PropState::Computed(Ok(v)) => super::resolve::value_bytes(v, usize::MAX).unwrap_or(0),
            PropState::Computed(Err(why)) => why.len(),
            _ => 0,
        }
}

/// The work of one update of a tree: what it reports, and the properties to re-evaluate.
struct Work<'a> {
    surface: &'a Surface,
    limits: ResolveLimits,
    /// The most nodes and bytes this tree may hold: the limits less the other trees.
    room: (usize, usize),
    /// One evaluation budget for every property the update evaluates: a message's work.
    eval: Option<crate::limits::EvalBudget>,
    raw: &'a mut Raw,
    dirty: Vec<(u32, u32)>,
    /// Tool runs started: (instance, property, ticket).
    runs: Vec<(u32, u32, u64)>,
    /// A property not to compute again: its own tool run made the changes.
    skip: Option<(u32, u32)>,
}

/// Whether two token paths overlap: one is a prefix of the other.
fn overlaps(a: &[String], b: &[String]) -> bool {
    let common = a.len().min(b.len());
    a[..common] == b[..common]
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Array(_))
}

/// The model's value at `context` joined with `rest`, without building the path.
fn read_under<'v>(model: &'v Value, context: &JsonPointer, rest: &[String]) -> Option<&'v Value> {
    let mut cur = read_value(model, context)?;
    for token in rest {
        cur = match cur {
            Value::Object(map) => map.get(token.as_str())?,
            Value::Array(items) => items.get(array_index(token)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// The path a bare binding reads in its context, when it is read in place (a path through a
/// forbidden token reads `null` whatever is there: evaluated instead).
pub(super) fn bare_path(payload: &Payload) -> Option<&DataPath> {
    payload.bare_path().filter(|p| match p {
        DataPath::Absolute(a) => !a.has_forbidden_token(),
        DataPath::Relative(t) => {
            !JsonPointer::from_tokens(t.iter().map(String::as_str)).has_forbidden_token()
        }
    })
}

pub(super) fn read_bare<'v>(
    model: &'v Value,
    path: &DataPath,
    context: &JsonPointer,
) -> Option<&'v Value> {
    match path {
        DataPath::Absolute(p) => read_value(model, p),
        DataPath::Relative(tokens) => read_under(model, context, tokens),
    }
}

impl LiveTree {
    fn inst(&self, i: u32) -> &Inst {
        self.entries[i as usize]
            .inst
            .as_ref()
            .expect("a live instance")
    }

    fn inst_mut(&mut self, i: u32) -> &mut Inst {
        self.entries[i as usize]
            .inst
            .as_mut()
            .expect("a live instance")
    }

    fn id_of(&self, i: u32) -> InstanceId {
        InstanceId::new(i, self.entries[i as usize].generation)
    }

    fn lookup(&self, id: InstanceId) -> Option<u32> {
        let entry = self.entries.get(id.slot() as usize)?;
        (entry.generation == id.generation() && entry.inst.is_some()).then_some(id.slot())
    }

    fn name(&mut self, id: &str) -> Arc<str> {
        if let Some(name) = self.names.get(id) {
            return name.clone();
        }
        let name: Arc<str> = Arc::from(id);
        self.names.insert(id.to_owned(), name.clone());
        name
    }

    /// A pending value gets a new run (superseding any earlier one of the property).
    fn ticket(&mut self, work: &mut Work, i: u32, p: usize, state: PropState) -> PropState {
        match state {
            PropState::Pending(_) => {
                self.tickets += 1;
                work.runs.push((i, p as u32, self.tickets));
                PropState::Pending(self.tickets)
            }
            other => other,
        }
    }

    fn alloc(&mut self, inst: Inst) -> u32 {
        self.count += 1;
        let component = inst.component.clone();
        let i = match self.free.pop() {
            Some(i) => {
                let entry = &mut self.entries[i as usize];
                entry.generation = entry.generation.wrapping_add(1);
                entry.inst = Some(inst);
                i
            }
            None => {
                self.entries.push(Entry {
                    generation: 0,
                    inst: Some(inst),
                });
                // More instances than u32 counts would not fit in memory (max_nodes bounds them).
                u32::try_from(self.entries.len() - 1).unwrap_or(NONE)
            }
        };
        let list = self.instances_of.entry(component).or_default();
        let pos = list.len() as u32;
        list.push(i);
        self.inst_mut(i).pos = pos;
        i
    }

    /// Builds the tree of a surface from nothing.
    fn build(
        surface: &Surface,
        limits: ResolveLimits,
        totals: &mut Totals,
        raw: &mut Raw,
    ) -> (LiveTree, Runs) {
        let mut tree = LiveTree {
            limits,
            ..LiveTree::default()
        };
        let mut work = Work {
            surface,
            limits,
            room: totals.room(limits, &tree),
            eval: None,
            raw,
            dirty: Vec::new(),
            runs: Vec::new(),
            skip: None,
        };
        tree.ensure_root(&mut work);
        let runs = std::mem::take(&mut work.runs);
        totals.update((0, 0), &tree);
        (tree, runs)
    }

    /// The evaluations of the properties whose value calls a tool, computed in this update
    /// (those superseded in the same batch, or dropped since, left out).
    fn run_starts(&self, surface: &Surface, runs: Runs) -> Vec<Start> {
        let mut starts = Vec::new();
        for (i, p, ticket) in runs {
            let Some(inst) = self.entries[i as usize].inst.as_ref() else {
                continue;
            };
            if !matches!(inst.props.get(p as usize), Some(PropState::Pending(t)) if *t == ticket) {
                continue;
            }
            let Some((prop, payload)) = surface
                .component(&inst.component)
                .and_then(|c| c.compiled.get(p as usize))
            else {
                continue;
            };
            starts.push(Start {
                payload: payload.clone(),
                context: (*inst.context).clone(),
                origin: Origin::Binding,
                component_id: inst.component.to_string(),
                instance: Some(self.id_of(i)),
                prop: Some((prop.clone(), p, ticket)),
            });
        }
        starts
    }

    /// Whether `instance` is still in the tree.
    pub(crate) fn contains(&self, instance: InstanceId) -> bool {
        self.lookup(instance).is_some()
    }

    /// Whether the property `index` of `instance` still waits for the run of `ticket`.
    pub(crate) fn is_pending(&self, instance: InstanceId, index: u32, ticket: u64) -> bool {
        self.lookup(instance).is_some_and(|i| {
            matches!(self.inst(i).props.get(index as usize), Some(PropState::Pending(t)) if *t == ticket)
        })
    }

    /// The live instance of `component` whose data context is `context`.
    pub(crate) fn instance_at(&self, component: &str, context: &JsonPointer) -> Option<InstanceId> {
        self.instances_of
            .get(component)?
            .iter()
            .find(|&&i| {
                self.entries[i as usize]
                    .inst
                    .as_ref()
                    .is_some_and(|inst| *inst.context == *context)
            })
            .map(|&i| self.id_of(i))
    }

    /// Makes the root when the surface has one to show (as [`Surface::resolve`]: a surface
    /// with components but no `root` shows a pending root), drops it when it has none.
    fn ensure_root(&mut self, work: &mut Work) {
        let wanted = work.surface.component("root").is_some() || work.surface.component_count() > 0;
        match (self.root, wanted) {
            (None, true) => {
                let root = self.make(
                    work,
                    "root",
                    Arc::new(JsonPointer::root()),
                    NONE,
                    SlotName::Root,
                );
                self.root = root;
            }
            (Some(root), false) => {
                self.drop_subtree(root, work);
                self.root = None;
            }
            _ => {}
        }
    }

    /// Makes an instance of `component` and everything under it, breadth first; `None` past
    /// the node limit.
    fn make(
        &mut self,
        work: &mut Work,
        component: &str,
        context: Arc<JsonPointer>,
        parent: u32,
        slot: SlotName,
    ) -> Option<u32> {
        let first = self.make_one(work, component, context, parent, slot)?;
        let mut queue = VecDeque::from([first]);
        while let Some(i) = queue.pop_front() {
            self.make_kids(work, i, &mut queue);
        }
        Some(first)
    }

    /// One instance, its properties evaluated and registered, no children yet.
    fn make_one(
        &mut self,
        work: &mut Work,
        component: &str,
        context: Arc<JsonPointer>,
        parent: u32,
        slot: SlotName,
    ) -> Option<u32> {
        if self.count >= work.room.0 {
            self.truncated.get_or_insert_with(|| {
                format!(
                    "LIMIT_EXCEEDED: the live trees have more than {} nodes \
                     (ResolveLimits::max_nodes); the rest is not resolved",
                    work.limits.max_nodes
                )
            });
            return None;
        }
        let bytes = INST_BYTES + context.tokens().iter().map(|t| t.len() + 40).sum::<usize>();
        if self.bytes.saturating_add(bytes) > work.room.1 {
            if self.truncated.is_none() {
                self.truncated = Some(self.too_many_bytes(work));
            }
            return None;
        }
        let name = self.name(component);
        let def = work.surface.component(component);
        let ty = def.map(|d| self.name(&d.component));
        let inst = Inst {
            component: name,
            ty,
            context,
            parent,
            slot,
            kids: Vec::new(),
            props: Vec::new(),
            pos: 0,
            bytes,
        };
        self.bytes += bytes;
        let i = self.alloc(inst);
        let id = self.id_of(i);
        work.raw.created.push(id);
        if def.is_some() {
            self.set_props(work, i);
        }
        Some(i)
    }

    /// Evaluates and registers every dynamic property of instance `i` (its component's
    /// compiled payloads).
    fn set_props(&mut self, work: &mut Work, i: u32) {
        let inst = self.inst(i);
        let Some(component) = work.surface.component(&inst.component) else {
            return;
        };
        let context = inst.context.clone();
        let mut props = Vec::with_capacity(component.compiled.len());
        for (p, (name, payload)) in component.compiled.iter().enumerate() {
            let state = evaluate(
                work.surface,
                component,
                name,
                payload,
                &context,
                &mut work.eval,
            );
            let state = self.ticket(work, i, p, state);
            if !matches!(state, PropState::Inert) {
                // Inside a row, what the value reads below the row reaches it through the
                // template; the root context has no template above it.
                let deps: Vec<JsonPointer> = if context.is_root() {
                    payload.dependencies(&context)
                } else {
                    payload.absolute_dependencies().cloned().collect()
                };
                if !deps.is_empty() {
                    self.index.register(Key::Prop(i, p as u32), &deps);
                }
            }
            let state = self.charge(work, state);
            props.push(state);
        }
        let inst = self.inst_mut(i);
        inst.bytes += props.iter().map(prop_bytes).sum::<usize>();
        inst.props = props;
    }

    fn too_many_bytes(&self, work: &Work) -> String {
        format!(
            "LIMIT_EXCEEDED: the live trees would hold more than {} bytes \
             (ResolveLimits::max_bytes); the rest is not resolved",
            work.limits.max_bytes
        )
    }

    /// Charges what a property's new state keeps to the tree; a computed value that would
    /// take the trees past the byte limit is not kept: the property is failed instead.
    fn charge(&mut self, work: &Work, state: PropState) -> PropState {
        let bytes = prop_bytes(&state);
        if self.bytes.saturating_add(bytes) <= work.room.1 {
            self.bytes += bytes;
            return state;
        }
        let failed = PropState::Computed(Err(self.too_many_bytes(work)));
        self.bytes += prop_bytes(&failed);
        failed
    }

    /// Unregisters the properties of instance `i`.
    fn clear_props(&mut self, i: u32) {
        let n = self.inst(i).props.len();
        for p in 0..n {
            self.index.unregister(&Key::Prop(i, p as u32));
        }
        let inst = self.inst_mut(i);
        // Saturating, as a guard: a tool's result is charged when it is set.
        let kept: usize = inst.props.iter().map(prop_bytes).sum();
        inst.bytes = inst.bytes.saturating_sub(kept);
        inst.props.clear();
        self.bytes = self.bytes.saturating_sub(kept);
    }

    /// Makes the children of instance `i` (one level; the new ones are queued).
    fn make_kids(&mut self, work: &mut Work, i: u32, queue: &mut VecDeque<u32>) {
        let (component, context) = {
            let inst = self.inst(i);
            if inst.ty.is_none() {
                return;
            }
            (inst.component.clone(), inst.context.clone())
        };
        let Some(def) = work.surface.component(&component) else {
            return;
        };
        let mut kids = Vec::with_capacity(def.children().len());
        for (child, slot, template) in def.children() {
            let slot: Arc<str> = Arc::from(slot.as_str());
            if !template {
                match self.make_one(
                    work,
                    child,
                    context.clone(),
                    i,
                    SlotName::Named(slot.clone(), kids.len() as u32),
                ) {
                    Some(k) => {
                        queue.push_back(k);
                        kids.push(Kid::One(k));
                    }
                    // Past the limits: its siblings would be refused as it was.
                    None => break,
                }
                continue;
            }
            let path = def
                .props
                .get(&*slot)
                .and_then(|t| t.get("path"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let array = DataPath::parse(path)
                .map(|p| p.resolve(&context))
                .map_err(|e| e.to_string());
            let t = kids.len() as u32;
            if let Ok(array) = &array {
                self.index
                    .register(Key::Rows(i, t), std::slice::from_ref(array));
            }
            let mut rows = Rows {
                slot,
                component: self.name(child),
                array,
                rows: Vec::new(),
                too_long: None,
            };
            self.fit_rows(work, i, &mut rows, Some(queue));
            kids.push(Kid::Rows(Box::new(rows)));
        }
        // Cut by the limits, an instance keeps no room for the children it could not make.
        kids.shrink_to_fit();
        self.inst_mut(i).kids = kids;
    }

    /// Makes or drops rows so that a template has one per item of its array (or none, when
    /// it is too long); returns whether its rows changed. New rows are queued for their
    /// children when `queue` is given, else made whole.
    fn fit_rows(
        &mut self,
        work: &mut Work,
        owner: u32,
        rows: &mut Rows,
        mut queue: Option<&mut VecDeque<u32>>,
    ) -> bool {
        let Ok(array) = &rows.array else {
            return false;
        };
        let len = match read_value(work.surface.data_model(), array) {
            Some(Value::Array(items)) => items.len(),
            // No list (yet): no item.
            _ => 0,
        };
        let too_long = (len > work.limits.max_template_items).then(|| {
            format!(
                "LIMIT_EXCEEDED: the template over {array} has {len} items, more than the limit of {}",
                work.limits.max_template_items
            )
        });
        let state_changed = too_long != rows.too_long;
        rows.too_long = too_long;
        let want = if rows.too_long.is_some() { 0 } else { len };
        let had = rows.rows.len();
        while rows.rows.len() > want {
            let last = rows.rows.pop().expect("longer than want");
            self.drop_subtree(last, work);
        }
        while rows.rows.len() < want {
            let n = rows.rows.len();
            let mut context = array.clone();
            context.push(n.to_string());
            let slot = SlotName::Item(rows.slot.clone(), n as u32);
            let made = match queue.as_deref_mut() {
                Some(queue) => {
                    let made = self.make_one(work, &rows.component, Arc::new(context), owner, slot);
                    if let Some(k) = made {
                        queue.push_back(k);
                    }
                    made
                }
                None => self.make(work, &rows.component, Arc::new(context), owner, slot),
            };
            match made {
                Some(k) => rows.rows.push(k),
                None => break,
            }
        }
        state_changed || had != rows.rows.len()
    }

    /// Drops instance `i` and everything under it (explicit stack), reporting each.
    fn drop_subtree(&mut self, i: u32, work: &mut Work) {
        let mut stack = vec![i];
        while let Some(i) = stack.pop() {
            let id = self.id_of(i);
            let Some(inst) = self.entries[i as usize].inst.take() else {
                continue;
            };
            self.count -= 1;
            self.bytes -= inst.bytes;
            work.raw.removed.push(id);
            let pos = inst.pos as usize;
            let mut moved = None;
            if let Some(list) = self.instances_of.get_mut(&inst.component) {
                list.swap_remove(pos);
                moved = list.get(pos).copied();
                if list.is_empty() {
                    self.instances_of.remove(&inst.component);
                }
            }
            if let Some(moved) = moved {
                self.inst_mut(moved).pos = pos as u32;
            }
            for p in 0..inst.props.len() {
                self.index.unregister(&Key::Prop(i, p as u32));
            }
            for (t, kid) in inst.kids.into_iter().enumerate() {
                match kid {
                    Kid::One(k) => stack.push(k),
                    Kid::Rows(rows) => {
                        self.index.unregister(&Key::Rows(i, t as u32));
                        stack.extend(rows.rows);
                    }
                }
            }
            self.free.push(i);
        }
    }

    /// Applies the data changes: the properties and templates they reach.
    fn apply_data(&mut self, work: &mut Work, changes: &ChangeSet) {
        if changes.is_empty() {
            return;
        }
        // Each key with the instance it was registered by: a template reached first may drop
        // instances whose slots are then reused by the rows it makes.
        let affected: Vec<(Key, InstanceId)> = self
            .index
            .affected(changes)
            .into_iter()
            .map(|key| {
                let (Key::Prop(i, _) | Key::Rows(i, _)) = key;
                (key, self.id_of(i))
            })
            .collect();
        for (key, id) in affected {
            if self.lookup(id).is_none() {
                continue;
            }
            match key {
                Key::Prop(i, p) => work.dirty.push((i, p)),
                Key::Rows(i, t) => self.rows_changed(work, i, t, changes),
            }
        }
        self.flush(work);
    }

    /// A change reached the template `t` of instance `i`.
    fn rows_changed(&mut self, work: &mut Work, i: u32, t: u32, changes: &ChangeSet) {
        // The instance may have been dropped by an earlier template of the same batch.
        if self.entries[i as usize].inst.is_none() {
            return;
        }
        let Some(Kid::Rows(rows)) = self.inst(i).kids.get(t as usize) else {
            return;
        };
        let Ok(array) = &rows.array else { return };
        let depth = array.tokens().len();
        let mut whole = false;
        let mut refit = false;
        let mut reached: Vec<(u32, &[String])> = Vec::new();
        for change in changes {
            let tokens = change.tokens();
            if tokens.len() <= depth {
                whole |= array.tokens().starts_with(tokens);
                continue;
            }
            if !tokens.starts_with(array.tokens()) {
                continue;
            }
            match array_index(&tokens[depth]).filter(|&r| r < rows.rows.len()) {
                Some(r) => reached.push((rows.rows[r], &tokens[depth + 1..])),
                None => refit = true,
            }
        }
        for (row, rest) in reached {
            self.reach_row(work, row, Some(rest));
        }
        if !(whole || refit) {
            return;
        }
        let Kid::Rows(rows) = &mut self.inst_mut(i).kids[t as usize] else {
            return;
        };
        let mut rows = std::mem::replace(
            rows,
            Box::new(Rows {
                slot: Arc::from(""),
                component: Arc::from(""),
                array: Err(String::new()),
                rows: Vec::new(),
                too_long: None,
            }),
        );
        let kept = rows.rows.len();
        let changed = self.fit_rows(work, i, &mut rows, None);
        if whole {
            // The array was replaced: the rows kept read new items.
            for &row in &rows.rows[..kept.min(rows.rows.len())] {
                self.reach_row(work, row, None);
            }
        }
        if changed {
            let id = self.id_of(i);
            work.raw.updated.push((id, rows.slot_prop()));
        }
        if let Kid::Rows(slot) = &mut self.inst_mut(i).kids[t as usize] {
            *slot = rows;
        }
    }

    /// Marks dirty the properties of a row's instances (the row's root and its children in the
    /// same data context) that read below the row where `rest` was changed (all that read
    /// below the row when `None`).
    fn reach_row(&mut self, work: &mut Work, row: u32, rest: Option<&[String]>) {
        let mut stack = vec![row];
        while let Some(i) = stack.pop() {
            let inst = self.inst(i);
            if let Some(component) = work.surface.component(&inst.component)
                && inst.ty.is_some()
            {
                for (p, (_, payload)) in component.compiled.iter().enumerate() {
                    if matches!(inst.props.get(p), None | Some(PropState::Inert)) {
                        continue;
                    }
                    let reads = match rest {
                        None => payload.depends_on_context(),
                        Some(rest) => payload.relative_dependencies().any(|d| overlaps(d, rest)),
                    };
                    if reads {
                        work.dirty.push((i, p as u32));
                    }
                }
            }
            for kid in &inst.kids {
                if let Kid::One(k) = kid {
                    stack.push(*k);
                }
            }
        }
    }

    /// Re-evaluates the dirty properties, each once, and reports those that changed.
    fn flush(&mut self, work: &mut Work) {
        let mut dirty = std::mem::take(&mut work.dirty);
        dirty.sort_unstable();
        dirty.dedup();
        for (i, p) in dirty {
            if work.skip == Some((i, p)) {
                continue;
            }
            let Some(inst) = self.entries[i as usize].inst.as_ref() else {
                continue;
            };
            let Some(component) = work.surface.component(&inst.component) else {
                continue;
            };
            let Some((name, payload)) = component.compiled.get(p as usize) else {
                continue;
            };
            // A slot reused in the same batch may hold an instance of another component.
            if inst.props.len() <= p as usize {
                continue;
            }
            let new = evaluate(
                work.surface,
                component,
                name,
                payload,
                &inst.context,
                &mut work.eval,
            );
            let new = self.ticket(work, i, p as usize, new);
            // Charged before it is compared: a value past the byte limit is a failure, and
            // the property changed if it was not failed so before.
            let old_bytes = prop_bytes(&self.inst(i).props[p as usize]);
            self.bytes = self.bytes.saturating_sub(old_bytes);
            let new = self.charge(work, new);
            let inst = self.inst(i);
            let old = &inst.props[p as usize];
            let changed = match (old, &new) {
                (PropState::Bare(Some(a)), PropState::Bare(Some(b))) => !json_eq(a, b),
                (PropState::Computed(Ok(a)), PropState::Computed(Ok(b))) => !json_eq(a, b),
                (PropState::Computed(Err(a)), PropState::Computed(Err(b))) => a != b,
                (PropState::Pending(_), PropState::Pending(_))
                | (PropState::Inert, PropState::Inert) => false,
                _ => true,
            };
            let name = self.name(name);
            let id = self.id_of(i);
            let inst = self.inst_mut(i);
            inst.bytes = inst.bytes.saturating_sub(old_bytes) + prop_bytes(&new);
            inst.props[p as usize] = new;
            if changed {
                work.raw.updated.push((id, name));
            }
        }
    }

    /// Applies an `updateComponents` (or a removal) of the components `ids`: their
    /// instances are updated in place (same type: every property re-evaluated, children kept
    /// where the same child hangs from the same slot) or replaced (a placeholder now defined,
    /// a type changed, a component removed).
    fn apply_components(&mut self, work: &mut Work, ids: &HashSet<&str>) {
        let before = self.root;
        self.ensure_root(work);
        let Some(root) = self.root else { return };
        if before != Some(root) {
            // Made whole from the components as they are now.
            return;
        }
        // The instances of those components (an instance dropped by the replacement of one
        // above it is skipped).
        let mut found: Vec<u32> = ids
            .iter()
            .filter_map(|id| self.instances_of.get(*id))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        let found: Vec<InstanceId> = found.into_iter().map(|i| self.id_of(i)).collect();
        for id in found {
            // Dropped with an instance replaced above it.
            let Some(i) = self.lookup(id) else { continue };
            let inst = self.inst(i);
            let def = work.surface.component(&inst.component);
            let same_type = match (&def, &inst.ty) {
                (Some(def), Some(ty)) => **ty == *def.component,
                _ => false,
            };
            if same_type {
                self.update_in_place(work, i);
            } else {
                self.replace(work, i);
            }
        }
        self.flush(work);
    }

    /// Updates instance `i` for its component sent again with the same type: every property
    /// re-evaluated (and reported: one complete snapshot), children kept where the same child
    /// hangs from the same slot (a template: over the same array), the others made or dropped.
    fn update_in_place(&mut self, work: &mut Work, i: u32) {
        let id = self.id_of(i);
        self.clear_props(i);
        self.set_props(work, i);
        let (component, context) = {
            let inst = self.inst(i);
            (inst.component.clone(), inst.context.clone())
        };
        let Some(def) = work.surface.component(&component) else {
            return;
        };
        for name in def.props.keys() {
            let name = self.name(name);
            work.raw.updated.push((id, name));
        }
        if def.checks.is_some() {
            let name = self.name("checks");
            work.raw.updated.push((id, name));
        }
        let mut old = std::mem::take(&mut self.inst_mut(i).kids);
        for t in 0..old.len() {
            self.index.unregister(&Key::Rows(i, t as u32));
        }
        let mut kids = Vec::with_capacity(def.children().len());
        let mut touched: Vec<Arc<str>> = Vec::new();
        for (child, slot, template) in def.children() {
            let array = template.then(|| {
                let path = def
                    .props
                    .get(slot.as_str())
                    .and_then(|t| t.get("path"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                DataPath::parse(path)
                    .map(|p| p.resolve(&context))
                    .map_err(|e| e.to_string())
            });
            let kept = old.iter().position(|kid| match (kid, &array) {
                (Kid::One(k), None) => {
                    let inst = self.inst(*k);
                    *inst.component == **child
                        && matches!(&inst.slot, SlotName::Named(s, _) if **s == **slot)
                }
                (Kid::Rows(rows), Some(array)) => {
                    *rows.slot == **slot && *rows.component == **child && rows.array == *array
                }
                _ => false,
            });
            let t = kids.len() as u32;
            if let Some(at) = kept {
                let kid = old.swap_remove(at);
                if let Kid::One(k) = &kid
                    && let SlotName::Named(_, position) = &mut self.inst_mut(*k).slot
                {
                    *position = t;
                }
                if let Kid::Rows(rows) = &kid
                    && let Ok(array) = &rows.array
                {
                    self.index
                        .register(Key::Rows(i, t), std::slice::from_ref(array));
                }
                kids.push(kid);
                continue;
            }
            let slot_name: Arc<str> = Arc::from(slot.as_str());
            touched.push(SlotName::Named(slot_name.clone(), 0).prop());
            match array {
                None => {
                    if let Some(k) = self.make(
                        work,
                        child,
                        context.clone(),
                        i,
                        SlotName::Named(slot_name, kids.len() as u32),
                    ) {
                        kids.push(Kid::One(k));
                    }
                }
                Some(array) => {
                    if let Ok(array) = &array {
                        self.index
                            .register(Key::Rows(i, t), std::slice::from_ref(array));
                    }
                    let mut rows = Rows {
                        slot: slot_name,
                        component: self.name(child),
                        array,
                        rows: Vec::new(),
                        too_long: None,
                    };
                    self.fit_rows(work, i, &mut rows, None);
                    kids.push(Kid::Rows(Box::new(rows)));
                }
            }
        }
        for kid in old {
            match kid {
                Kid::One(k) => {
                    touched.push(self.inst(k).slot.prop());
                    self.drop_subtree(k, work);
                }
                Kid::Rows(rows) => {
                    touched.push(rows.slot_prop());
                    for row in rows.rows {
                        self.drop_subtree(row, work);
                    }
                }
            }
        }
        self.inst_mut(i).kids = kids;
        for prop in touched {
            work.raw.updated.push((id, prop));
        }
    }

    /// Replaces instance `i` by a new instance of its component (defined now, of another
    /// type, or gone: a placeholder), in the same place.
    fn replace(&mut self, work: &mut Work, i: u32) {
        let (component, context, parent, slot) = {
            let inst = self.inst(i);
            (
                inst.component.clone(),
                inst.context.clone(),
                inst.parent,
                inst.slot.clone(),
            )
        };
        self.drop_subtree(i, work);
        if parent == NONE {
            self.root = None;
            self.ensure_root(work);
            return;
        }
        let made = self.make(work, &component, context, parent, slot.clone());
        let parent_id = self.id_of(parent);
        let mut orphaned = Vec::new();
        let kids = &mut self.inst_mut(parent).kids;
        match &slot {
            SlotName::Named(_, t) => {
                let t = *t as usize;
                debug_assert!(matches!(kids.get(t), Some(Kid::One(k)) if *k == i));
                match made {
                    Some(new) => kids[t] = Kid::One(new),
                    None => {
                        kids.remove(t);
                        // The kids after it moved down by one.
                        let after: Vec<u32> = kids[t..]
                            .iter()
                            .filter_map(|kid| match kid {
                                Kid::One(k) => Some(*k),
                                Kid::Rows(_) => None,
                            })
                            .collect();
                        for k in after {
                            if let SlotName::Named(_, p) = &mut self.inst_mut(k).slot {
                                *p -= 1;
                            }
                        }
                    }
                }
            }
            SlotName::Item(_, r) => {
                let r = *r as usize;
                for kid in kids.iter_mut() {
                    if let Kid::Rows(rows) = kid
                        && rows.rows.get(r) == Some(&i)
                    {
                        match made {
                            Some(new) => rows.rows[r] = new,
                            // Past the node limit: the rows after it are not made either.
                            None => orphaned = rows.rows.split_off(r + 1),
                        }
                        break;
                    }
                }
            }
            SlotName::Root => {}
        }
        if let SlotName::Item(_, r) = &slot
            && made.is_none()
        {
            // The dropped row itself is no longer listed; the rows after it are dropped too.
            for kid in self.inst_mut(parent).kids.iter_mut() {
                if let Kid::Rows(rows) = kid
                    && rows.rows.get(*r as usize) == Some(&i)
                {
                    rows.rows.truncate(*r as usize);
                }
            }
        }
        for row in orphaned {
            self.drop_subtree(row, work);
        }
        work.raw.updated.push((parent_id, slot.prop()));
    }
}

impl Rows {
    /// The property of the owner its rows hang from.
    fn slot_prop(&self) -> Arc<str> {
        SlotName::Named(self.slot.clone(), 0).prop()
    }
}

/// Evaluates one compiled property in `context`.
fn evaluate(
    surface: &Surface,
    component: &super::Component,
    name: &str,
    payload: &Payload,
    context: &JsonPointer,
    eval: &mut Option<crate::limits::EvalBudget>,
) -> PropState {
    // An action that runs a function does so on activation, never while drawing.
    if name == "action"
        || component
            .props
            .get(name)
            .is_some_and(|v| v.get("functionCall").is_some())
    {
        return PropState::Inert;
    }
    if payload.calls_tools() {
        return PropState::Pending(0);
    }
    let model = surface.data_model();
    if let Some(path) = bare_path(payload) {
        let value = read_bare(model, path, context);
        return PropState::Bare(match value {
            None => Some(Value::Null),
            Some(Value::String(s)) if s.len() > KEPT_SCALAR_BYTES => None,
            Some(v) if is_scalar(v) => Some(v.clone()),
            Some(_) => None,
        });
    }
    let budget = eval.get_or_insert_with(|| crate::limits::EvalBudget::new(payload.limits()));
    PropState::Computed(
        payload
            .eval_read_within(model, context, budget)
            .map(Arc::new)
            .map_err(|e| e.to_string()),
    )
}

/// The live tree of a surface ([`Surface::live`]).
#[derive(Clone, Copy)]
pub struct LiveView<'a> {
    surface: &'a Surface,
    tree: &'a LiveTree,
}

impl std::fmt::Debug for LiveView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveView")
            .field("surface", &self.surface.id())
            .field("instances", &self.tree.count)
            .finish()
    }
}

/// One instance of the live tree ([`LiveView::node`]).
#[derive(Clone, Copy)]
pub struct LiveNode<'a> {
    surface: &'a Surface,
    tree: &'a LiveTree,
    i: u32,
}

impl std::fmt::Debug for LiveNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LiveNode({} {})", self.id(), self.key())
    }
}

impl<'a> LiveView<'a> {
    /// The root instance (none for a surface without components).
    pub fn root(&self) -> Option<InstanceId> {
        self.tree.root.map(|i| self.tree.id_of(i))
    }

    /// An instance, while it lives.
    pub fn node(&self, id: InstanceId) -> Option<LiveNode<'a>> {
        let i = self.tree.lookup(id)?;
        Some(LiveNode {
            surface: self.surface,
            tree: self.tree,
            i,
        })
    }

    /// How many instances the tree holds.
    pub fn len(&self) -> usize {
        self.tree.count
    }

    /// Whether the tree is empty.
    pub fn is_empty(&self) -> bool {
        self.tree.count == 0
    }

    /// The instances breadth first from the root: the order of [`Surface::resolve`].
    pub fn instances(&self) -> Vec<InstanceId> {
        let mut out = Vec::with_capacity(self.tree.count);
        let mut queue: VecDeque<u32> = self.tree.root.into_iter().collect();
        while let Some(i) = queue.pop_front() {
            out.push(self.tree.id_of(i));
            for kid in &self.tree.inst(i).kids {
                match kid {
                    Kid::One(k) => queue.push_back(*k),
                    Kid::Rows(rows) => queue.extend(rows.rows.iter().copied()),
                }
            }
        }
        out
    }

    /// Why the tree stopped short, when the limits cut it (`LIMIT_EXCEEDED: …`): its
    /// instances past [`ResolveLimits::max_nodes`] or [`ResolveLimits::max_bytes`], for all
    /// the live trees of the processor together, are not made.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
    /// use serde_json::json;
    /// let mut limits = ResolveLimits::default();
    /// limits.max_nodes = 3;
    /// let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true).live(limits));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
    ///     "components": [{"id": "root", "component": "Column", "children": ["a", "b", "c"]}]}})).unwrap();
    /// let live = p.surface("s").unwrap().live().unwrap();
    /// assert_eq!(live.len(), 3);
    /// assert!(live.truncated().unwrap().starts_with("LIMIT_EXCEEDED"));
    /// ```
    pub fn truncated(&self) -> Option<&'a str> {
        self.tree.truncated.as_deref()
    }

    /// [`to_tree`](LiveView::to_tree) within `budget`: past it, the rest is not read and the
    /// tree is marked `LIMIT_EXCEEDED`.
    pub(crate) fn tree_within(&self, budget: &mut super::resolve::Budget) -> Tree {
        let mut tree = Tree {
            nodes: Vec::new(),
            truncated: self.tree.truncated.clone(),
        };
        for id in self.instances() {
            let Some(node) = self.node(id) else { continue };
            let node = node.to_node();
            if let Err(why) = budget.charge_node(&node) {
                tree.truncated = Some(why);
                break;
            }
            tree.nodes.push(node);
        }
        tree
    }

    /// The tree as [`Surface::resolve`] gives it, read from the live instances: the same
    /// nodes in the same order (below the limits). Each node copies its values, so the copies
    /// are charged to the limits the tree was built with, as [`Surface::resolve`] charges them
    /// (a value bound by 10 000 rows is held once by the live tree, but copied by each node
    /// here): past them the rest is not copied and the tree is marked `LIMIT_EXCEEDED`.
    pub fn to_tree(&self) -> Tree {
        let mut budget = super::resolve::Budget::new(self.tree.limits, super::resolve::NODE_BYTES);
        self.tree_within(&mut budget)
    }
}

impl<'a> LiveNode<'a> {
    fn inst(&self) -> &'a Inst {
        self.tree.inst(self.i)
    }

    /// Its id.
    pub fn id(&self) -> InstanceId {
        self.tree.id_of(self.i)
    }

    /// The component's id.
    pub fn component_id(&self) -> &'a str {
        &self.inst().component
    }

    /// The component's type (`None` for a placeholder: the component is not defined yet).
    pub fn component_type(&self) -> Option<&'a str> {
        self.inst().ty.as_deref()
    }

    /// Its data context.
    pub fn data_path(&self) -> &'a JsonPointer {
        &self.inst().context
    }

    /// `componentId@dataPath`.
    pub fn key(&self) -> String {
        format!("{}@{}", self.component_id(), self.data_path())
    }

    /// The parent instance (`None` for the root).
    pub fn parent(&self) -> Option<InstanceId> {
        let parent = self.inst().parent;
        (parent != NONE).then(|| self.tree.id_of(parent))
    }

    /// The slot it hangs from (`child`, `children[2]`); `None` for the root.
    pub fn slot(&self) -> Option<String> {
        self.inst().slot.to_string_opt()
    }

    /// Its children, in slot order (a template's rows in item order).
    pub fn children(&self) -> Vec<InstanceId> {
        let mut out = Vec::new();
        for kid in &self.inst().kids {
            match kid {
                Kid::One(k) => out.push(self.tree.id_of(*k)),
                Kid::Rows(rows) => out.extend(rows.rows.iter().map(|r| self.tree.id_of(*r))),
            }
        }
        out
    }

    fn compiled_index(&self, prop: &str) -> Option<usize> {
        let component = self.surface.component(self.component_id())?;
        component.compiled.iter().position(|(name, _)| name == prop)
    }

    /// The absolute path a two-way bound property writes ([`Processor::write`]): its bare
    /// binding's path in the instance's data context. `None` for a literal or computed one.
    pub fn writable_path(&self, prop: &str) -> Option<JsonPointer> {
        self.inst().ty.as_ref()?;
        let component = self.surface.component(self.component_id())?;
        let payload = component.compiled(prop)?;
        if prop == "action" || prop == "checks" {
            return None;
        }
        bare_path(payload).map(|p| p.resolve(self.data_path()))
    }

    /// A property resolved: literal as sent, a binding read in the model, a computed value
    /// as last evaluated (`null` while pending or failed), an action with its event context
    /// evaluated now. `None` when the component has no such property.
    pub fn prop(&self, prop: &str) -> Option<Value> {
        let component = self.surface.component(self.component_id())?;
        let literal = component.props.get(prop)?;
        let Some(p) = self.compiled_index(prop) else {
            return Some(literal.clone());
        };
        let context = self.data_path();
        let (_, payload) = &component.compiled[p];
        Some(match &self.inst().props.get(p)? {
            PropState::Inert if literal.get("functionCall").is_some() => literal.clone(),
            PropState::Inert if payload.calls_tools() => Value::Null,
            PropState::Inert => payload
                .eval_read(self.surface.data_model(), context)
                .unwrap_or(Value::Null),
            PropState::Pending(_) => Value::Null,
            PropState::Bare(Some(v)) => v.clone(),
            PropState::Bare(None) => bare_path(payload)
                .and_then(|path| read_bare(self.surface.data_model(), path, context))
                .cloned()
                .unwrap_or(Value::Null),
            PropState::Computed(Ok(v)) => (**v).clone(),
            PropState::Computed(Err(_)) => Value::Null,
        })
    }

    /// Pending or failed, when it is (as [`Node::state`]).
    pub fn state(&self) -> Option<NodeState> {
        let inst = self.inst();
        if inst.ty.is_none() {
            return Some(NodeState::Pending);
        }
        let component = self.surface.component(self.component_id())?;
        let mut state = None;
        for name in component.props.keys() {
            let Some(p) = self.compiled_index(name) else {
                continue;
            };
            match &inst.props[p] {
                PropState::Pending(_) => {
                    state.get_or_insert(NodeState::Pending);
                }
                PropState::Inert
                    if component.compiled[p].1.calls_tools()
                        && component.props[name].get("functionCall").is_none() =>
                {
                    state.get_or_insert(NodeState::Pending);
                }
                PropState::Inert => {
                    let literal = &component.props[name];
                    if literal.get("functionCall").is_none()
                        && let Err(e) = component.compiled[p]
                            .1
                            .eval_read(self.surface.data_model(), self.data_path())
                        && !matches!(state, Some(NodeState::Failed(_)))
                    {
                        state = Some(NodeState::Failed(format!("{}: {e}", escape_token(name))));
                    }
                }
                PropState::Computed(Err(why)) if !matches!(state, Some(NodeState::Failed(_))) => {
                    state = Some(NodeState::Failed(format!("{}: {why}", escape_token(name))));
                }
                _ => {}
            }
        }
        for kid in &inst.kids {
            if let Kid::Rows(rows) = kid {
                match (&rows.array, &rows.too_long) {
                    (Err(why), _) | (Ok(_), Some(why)) => {
                        state = Some(NodeState::Failed(why.clone()))
                    }
                    _ => {}
                }
            }
        }
        state
    }

    /// The node as [`Surface::resolve`] gives it.
    pub fn to_node(&self) -> Node {
        let inst = self.inst();
        let parent = self.parent().and_then(|p| {
            let p = self.tree.lookup(p)?;
            Some(
                LiveNode {
                    surface: self.surface,
                    tree: self.tree,
                    i: p,
                }
                .key(),
            )
        });
        let mut node = Node {
            component_id: self.component_id().to_owned(),
            component_type: inst.ty.as_deref().map(str::to_owned),
            data_path: self.data_path().clone(),
            parent,
            slot: self.slot(),
            props: Map::new(),
            checks: None,
            state: self.state(),
        };
        let Some(component) = self
            .surface
            .component(self.component_id())
            .filter(|_| inst.ty.is_some())
        else {
            return node;
        };
        for name in component.props.keys() {
            if let Some(v) = self.prop(name) {
                node.props.insert(name.clone(), v);
            }
        }
        if let Some(checks) = &component.checks {
            let evaluated = match self.compiled_index("checks") {
                Some(p) => match &inst.props[p] {
                    PropState::Computed(Ok(v)) => Ok((**v).clone()),
                    PropState::Computed(Err(e)) => Err(e.clone()),
                    PropState::Bare(_) | PropState::Pending(_) | PropState::Inert => {
                        Ok(Value::Null)
                    }
                },
                None => Ok(checks.clone()),
            };
            node.checks = Some(super::resolve::checks_outcome(evaluated));
        }
        node
    }
}

impl Surface {
    /// The live tree, when the processor keeps one
    /// ([`ProcessorOptions::live`](super::ProcessorOptions::live)).
    pub fn live(&self) -> Option<LiveView<'_>> {
        let tree = self.live.as_deref()?;
        Some(LiveView {
            surface: self,
            tree,
        })
    }
}

impl Processor {
    /// What changed since the last call (see [`Changes`]): with
    /// [`ProcessorOptions::live`](super::ProcessorOptions::live) set, every message, write
    /// and refresh records what it changed in the live trees; until taken, changes accumulate.
    pub fn take_changes(&mut self) -> Changes {
        self.journal.take()
    }

    /// A property's tool run ended: it shows the value (or is failed with the error), and the
    /// change is recorded, unless the property was computed again since (`ticket`) or its
    /// instance is gone.
    pub(crate) fn set_prop(
        &mut self,
        surface_id: &str,
        instance: InstanceId,
        index: u32,
        ticket: u64,
        result: Result<Value, String>,
    ) -> bool {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return false;
        };
        let Some(tree) = surface.live.as_deref_mut() else {
            return false;
        };
        if !tree.is_pending(instance, index, ticket) {
            return false;
        }
        let Some(i) = tree.lookup(instance) else {
            return false;
        };
        let Some(prop) = surface
            .components
            .get(&*tree.inst(i).component)
            .and_then(|c| c.compiled.get(index as usize))
            .map(|(name, _)| name.clone())
        else {
            return false;
        };
        // The result is charged as the tree's own values are: past the live trees' byte limit
        // the property fails with LIMIT_EXCEEDED instead of keeping it.
        let before = (tree.count, tree.bytes);
        let room = self.live_totals.room(tree.limits, tree);
        let old = prop_bytes(&tree.inst(i).props[index as usize]);
        let mut state = PropState::Computed(result.map(Arc::new));
        if (tree.bytes - old).saturating_add(prop_bytes(&state)) > room.1 {
            state = PropState::Computed(Err(format!(
                "LIMIT_EXCEEDED: the tool's result would make the live trees hold more than {} bytes (ResolveLimits::max_bytes)",
                tree.limits.max_bytes
            )));
        }
        let new = prop_bytes(&state);
        let inst = tree.inst_mut(i);
        inst.bytes = inst.bytes.saturating_sub(old) + new;
        inst.props[index as usize] = state;
        tree.bytes = tree.bytes.saturating_sub(old) + new;
        self.live_totals.update(before, tree);
        let name = tree.name(&prop);
        self.journal
            .per_surface
            .entry(surface_id.to_owned())
            .or_default()
            .updated
            .push((instance, name));
        true
    }

    /// Updates the live trees after a message that applied.
    pub(crate) fn live_after(&mut self, applied: &Applied, existed: bool) {
        let Some(limits) = self.options.live else {
            return;
        };
        match applied {
            Applied::SurfaceCreated(id) => {
                let Some(surface) = self.surfaces.get_mut(id) else {
                    return;
                };
                let raw = self.journal.per_surface.entry(id.clone()).or_default();
                let (tree, runs) = LiveTree::build(surface, limits, &mut self.live_totals, raw);
                let starts = tree.run_starts(surface, runs);
                surface.live = Some(Box::new(tree));
                self.journal.created_surfaces.push(id.clone());
                self.start_prop_runs(id, starts);
            }
            Applied::SurfaceDeleted(id) if existed => {
                self.journal.per_surface.remove(id);
                self.journal.deleted_surfaces.push(id.clone());
            }
            Applied::ComponentsUpdated { surface_id, ids } => {
                let ids: HashSet<&str> = ids.iter().map(String::as_str).collect();
                self.update_live(surface_id, limits, Some(&ids), None);
            }
            Applied::DataModelUpdated(id) => self.update_live(id, limits, None, None),
            _ => {}
        }
    }

    /// Starts the evaluations of properties that call tools: each runs, read-only, until its
    /// first tool call (its run queued) or its value.
    fn start_prop_runs(&mut self, surface_id: &str, starts: Vec<Start>) {
        for start in starts {
            let Some((_, index, ticket)) = start.prop.clone() else {
                continue;
            };
            let Some(instance) = start.instance else {
                continue;
            };
            if let Started::Done(result) = self.start_run(surface_id, start) {
                let result = result.map_err(|e| e.to_string());
                self.set_prop(surface_id, instance, index, ticket, result);
            }
        }
    }

    /// Applies to a surface's live tree the data changes recorded since, then the components
    /// `ids` sent again, if any; the property `skip` is not computed again (it made the
    /// changes).
    fn update_live(
        &mut self,
        surface_id: &str,
        limits: ResolveLimits,
        ids: Option<&HashSet<&str>>,
        skip: Option<(InstanceId, u32)>,
    ) {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return;
        };
        let Some(mut tree) = surface.live.take() else {
            return;
        };
        let changes = surface.data.take_changes();
        let raw = self
            .journal
            .per_surface
            .entry(surface_id.to_owned())
            .or_default();
        let skip = skip.and_then(|(instance, index)| Some((tree.lookup(instance)?, index)));
        let before = (tree.count, tree.bytes);
        let mut work = Work {
            surface,
            limits,
            room: self.live_totals.room(limits, &tree),
            eval: None,
            raw,
            dirty: Vec::new(),
            runs: Vec::new(),
            skip,
        };
        tree.apply_data(&mut work, &changes);
        if let Some(ids) = ids {
            tree.apply_components(&mut work, ids);
        }
        let runs = std::mem::take(&mut work.runs);
        self.live_totals.update(before, &tree);
        let starts = tree.run_starts(surface, runs);
        surface.live = Some(tree);
        self.start_prop_runs(surface_id, starts);
    }

    /// Applies to the live tree of `surface_id` the data changes made by other means since
    /// the last message or write: through [`Surface::tracked_data_model`], or by an action's
    /// function call ([`Processor::activate`]). Nothing to do without
    /// [`ProcessorOptions::live`](super::ProcessorOptions::live).
    pub fn refresh(&mut self, surface_id: &str) {
        self.refresh_skipping(surface_id, None);
    }

    /// [`refresh`](Processor::refresh), without computing the property `skip` again.
    pub(crate) fn refresh_skipping(&mut self, surface_id: &str, skip: Option<(InstanceId, u32)>) {
        if let Some(limits) = self.options.live {
            self.update_live(surface_id, limits, None, skip);
        }
    }

    /// The host writes `value` into the property `prop` of an instance: a two-way bound input
    /// (its property a bare binding, `{"path": P}`) writes `P` in the instance's data context.
    /// What it changed is recorded ([`take_changes`](Processor::take_changes)). A property
    /// that is not a bare binding, an instance gone, or a write the model refuses is an error
    /// and changes nothing.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true).live(ResolveLimits::default()));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
    ///     "dataModel": {"people": [{"name": "Ada"}, {"name": "Lin"}]},
    ///     "components": [
    ///         {"id": "root", "component": "Column", "children": {"componentId": "field", "path": "/people"}},
    ///         {"id": "field", "component": "TextField", "label": "Name", "value": {"path": "name"}}
    ///     ]}})).unwrap();
    /// let created = p.take_changes();
    /// assert_eq!(created.surfaces["s"].created.len(), 3);
    /// let live = p.surface("s").unwrap().live().unwrap();
    /// let second = live.node(live.root().unwrap()).unwrap().children()[1];
    ///
    /// p.write("s", second, "value", json!("Grace"))?;
    /// assert_eq!(p.surface("s").unwrap().data_model()["people"][1]["name"], "Grace");
    /// let changes = p.take_changes();
    /// assert_eq!(changes.surfaces["s"].updated, [(second, vec!["value".to_string()])]);
    ///
    /// // An item appended: one instance made, the rows before it kept, the list's children changed.
    /// p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/people/2", "value": {"name": "Bo"}}})).unwrap();
    /// let changes = p.take_changes();
    /// assert_eq!(changes.surfaces["s"].created.len(), 1);
    /// assert_eq!(changes.surfaces["s"].updated[0].1, ["children"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn write(
        &mut self,
        surface_id: &str,
        instance: InstanceId,
        prop: &str,
        value: Value,
    ) -> Result<(), Error> {
        let bad = |why: String| Error::new(ErrorCode::ValidationFailed, why);
        let surface = self
            .surfaces
            .get(surface_id)
            .ok_or_else(|| bad(format!("Surface not found: '{surface_id}'")))?;
        let live = surface.live().ok_or_else(|| {
            bad("the processor keeps no live tree (set ProcessorOptions::live)".into())
        })?;
        let node = live
            .node(instance)
            .ok_or_else(|| bad(format!("no instance {instance} in surface '{surface_id}'")))?;
        let path = node.writable_path(prop).ok_or_else(|| {
            bad(format!(
                "property '{prop}' of '{}' is not two-way bound (not a bare path binding)",
                node.key()
            ))
        })?;
        self.set_data(surface_id, &path, value)
    }

    /// The host writes `value` at `path` (absolute, or relative to `context`, a node's data
    /// context), as a two-way bound input does; recorded as [`write`](Processor::write) is.
    pub fn write_path(
        &mut self,
        surface_id: &str,
        context: &JsonPointer,
        path: &str,
        value: Value,
    ) -> Result<(), Error> {
        let path = DataPath::parse(path)?.resolve(context);
        self.set_data(surface_id, &path, value)
    }

    fn set_data(
        &mut self,
        surface_id: &str,
        path: &JsonPointer,
        value: Value,
    ) -> Result<(), Error> {
        let surface = self.surfaces.get_mut(surface_id).ok_or_else(|| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("Surface not found: '{surface_id}'"),
            )
        })?;
        surface.data.set(path, value)?;
        self.refresh(surface_id);
        Ok(())
    }

    /// The host removes a component from a surface (A2UI messages have no removal; a host
    /// editing a surface, or a test harness, may): its instances become pending placeholders,
    /// and the root's removal empties the tree when nothing else is left. Returns whether
    /// there was one.
    pub fn remove_component(&mut self, surface_id: &str, component_id: &str) -> bool {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return false;
        };
        let Some(removed) = surface.components.remove(component_id) else {
            return false;
        };
        surface.parents.unlink(component_id, &removed.children);
        surface.component_bytes -= removed.bytes;
        surface.order.retain(|id| id != component_id);
        if let Some(limits) = self.options.live {
            let ids = HashSet::from([component_id]);
            self.update_live(surface_id, limits, Some(&ids), None);
        }
        true
    }
}
