//! The live tree of one surface: its instances, how a message or a write updates them
//! (templates by row, properties by the paths they read), and the byte and node budgets it
//! is built within.

use super::changes::*;
use crate::model::read_value;
use crate::origin::Origin;
use crate::path::{DataPath, JsonPointer, array_index};
use crate::payload::Payload;
use crate::reactive::{ChangeSet, PathIndex, json_eq};
use crate::surfaces::Surface;
use crate::surfaces::bare::{bare_path, read_bare};
use crate::surfaces::resolve::ResolveLimits;
use crate::surfaces::tool_runs::Start;
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// The state of one dynamic property of an instance.
#[derive(Debug)]
pub(super) enum PropState {
    /// A bare binding: its value is the model's at its path. A scalar is kept to compare
    /// with; an object or array is not (`None`).
    Bare(Option<Value>),
    /// A computed value, or its error's text.
    Computed(Result<Arc<Value>, String>),
    /// It needs a tool call: the run of this ticket, handed to the host
    /// ([`Processor::take_tool_runs`](crate::surfaces::Processor::take_tool_runs)), sets it ([`Processor::finish_tool_run`](crate::surfaces::Processor::finish_tool_run)); a later run
    /// supersedes it.
    Pending(u64),
    /// Not reactive: an action (its context is evaluated on activation).
    Inert,
}

/// How an instance hangs from its parent.
#[derive(Debug, Clone)]
pub(super) enum SlotName {
    Root,
    /// `child`, `children[2]`, `tabs[0].child`; and its position among the parent's kids.
    Named(Arc<str>, u32),
    /// Row `i` of a template in slot `.0`.
    Item(Arc<str>, u32),
}

impl SlotName {
    pub(super) fn to_string_opt(&self) -> Option<String> {
        match self {
            SlotName::Root => None,
            SlotName::Named(s, _) => Some(s.to_string()),
            SlotName::Item(s, i) => Some(format!("{s}[{i}]")),
        }
    }

    /// The property of the parent it belongs to: `children[2]` and `tabs[0].child` belong to
    /// `children` and `tabs`.
    pub(super) fn prop(&self) -> Arc<str> {
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
pub(super) struct Rows {
    pub(super) slot: Arc<str>,
    pub(super) component: Arc<str>,
    /// `Err`: the template's path does not parse (the instance is failed).
    pub(super) array: Result<JsonPointer, String>,
    pub(super) rows: Vec<u32>,
    /// The template is longer than the limit: the instance is failed, no rows.
    pub(super) too_long: Option<String>,
}

#[derive(Debug)]
pub(super) enum Kid {
    One(u32),
    Rows(Box<Rows>),
}

#[derive(Debug)]
pub(super) struct Inst {
    pub(super) component: Arc<str>,
    /// The component's type when the instance was made (`None`: not defined then, a pending
    /// placeholder).
    pub(super) ty: Option<Arc<str>>,
    pub(super) context: Arc<JsonPointer>,
    pub(super) parent: u32,
    pub(super) slot: SlotName,
    pub(super) kids: Vec<Kid>,
    /// Per compiled payload of the component, in its order.
    pub(super) props: Vec<PropState>,
    /// Its position among the instances of its component.
    pub(super) pos: u32,
    /// What it holds, as charged to the tree's [`ResolveLimits::max_bytes`](crate::surfaces::ResolveLimits::max_bytes): its struct, its
    /// context, the values its properties keep.
    pub(super) bytes: usize,
}

#[derive(Debug)]
pub(super) struct Entry {
    pub(super) generation: u32,
    pub(super) inst: Option<Inst>,
}

/// What the index holds: a property of an instance, or a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Prop(u32, u32),
    Rows(u32, u32),
}

pub(super) const NONE: u32 = u32::MAX;

/// The live tree of one surface.
#[derive(Debug, Default)]
pub(crate) struct LiveTree {
    pub(super) entries: Vec<Entry>,
    pub(super) free: Vec<u32>,
    pub(super) root: Option<u32>,
    pub(super) count: usize,
    pub(super) index: PathIndex<Key>,
    pub(super) names: HashMap<String, Arc<str>>,
    /// The instances of each component (an instance knows its position here), so that a
    /// component sent again finds its instances without walking the tree.
    pub(super) instances_of: HashMap<Arc<str>, Vec<u32>>,
    pub(super) truncated: Option<String>,
    /// The last tool run's ticket.
    pub(super) tickets: u64,
    /// The bytes its instances hold (the sum of their `bytes`).
    pub(super) bytes: usize,
    /// The limits it was built with, which also bound the copies [`LiveView::to_tree`](crate::surfaces::LiveView::to_tree) makes.
    pub(super) limits: ResolveLimits,
}

/// The live trees of a processor together: what [`ResolveLimits::max_nodes`](crate::surfaces::ResolveLimits::max_nodes) and
/// [`ResolveLimits::max_bytes`](crate::surfaces::ResolveLimits::max_bytes) bound.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(super) nodes: usize,
    pub(super) bytes: usize,
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
    pub(super) fn room(&self, limits: ResolveLimits, tree: &LiveTree) -> (usize, usize) {
        (
            limits.max_nodes.saturating_sub(self.nodes - tree.count),
            limits.max_bytes.saturating_sub(self.bytes - tree.bytes),
        )
    }

    /// Records the tree's size after an update that found it at `before` (nodes, bytes).
    pub(super) fn update(&mut self, before: (usize, usize), tree: &LiveTree) {
        self.nodes = self.nodes - before.0 + tree.count;
        self.bytes = self.bytes - before.1 + tree.bytes;
    }
}

/// What an instance costs beyond its context and its values.
pub(super) const INST_BYTES: usize = std::mem::size_of::<Entry>() + 64;

/// The longest scalar a bare binding keeps to tell an equal write from a change: a longer one
/// is read in the model when asked, and a change that reaches it is reported uncompared, so
/// that a long string bound by many instances is not copied by each.
pub(super) const KEPT_SCALAR_BYTES: usize = 256;

/// What a property's state keeps, charged to the tree.
pub(super) fn prop_bytes(state: &PropState) -> usize {
    std::mem::size_of::<PropState>()
        + match state {
            PropState::Bare(Some(v)) => {
                crate::surfaces::resolve::value_bytes(v, usize::MAX).unwrap_or(0)
            }
            PropState::Computed(Ok(v)) => {
                crate::surfaces::resolve::value_bytes(v, usize::MAX).unwrap_or(0)
            }
            PropState::Computed(Err(why)) => why.len(),
            _ => 0,
        }
}

/// The work of one update of a tree: what it reports, and the properties to re-evaluate.
pub(super) struct Work<'a> {
    pub(super) surface: &'a Surface,
    pub(super) limits: ResolveLimits,
    /// The most nodes and bytes this tree may hold: the limits less the other trees.
    pub(super) room: (usize, usize),
    /// One evaluation budget for every property the update evaluates: a message's work.
    pub(super) eval: Option<crate::limits::EvalBudget>,
    pub(super) raw: &'a mut Raw,
    pub(super) dirty: Vec<(u32, u32)>,
    /// Tool runs started: (instance, property, ticket).
    pub(super) runs: Vec<(u32, u32, u64)>,
    /// A property not to compute again: its own tool run made the changes.
    pub(super) skip: Option<(u32, u32)>,
}

/// Whether two token paths overlap: one is a prefix of the other.
pub(super) fn overlaps(a: &[String], b: &[String]) -> bool {
    let common = a.len().min(b.len());
    a[..common] == b[..common]
}

pub(super) fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Array(_))
}

impl LiveTree {
    pub(super) fn inst(&self, i: u32) -> &Inst {
        self.entries[i as usize]
            .inst
            .as_ref()
            .expect("a live instance")
    }

    pub(super) fn inst_mut(&mut self, i: u32) -> &mut Inst {
        self.entries[i as usize]
            .inst
            .as_mut()
            .expect("a live instance")
    }

    pub(super) fn id_of(&self, i: u32) -> InstanceId {
        InstanceId::new(i, self.entries[i as usize].generation)
    }

    pub(super) fn lookup(&self, id: InstanceId) -> Option<u32> {
        let entry = self.entries.get(id.slot() as usize)?;
        (entry.generation == id.generation() && entry.inst.is_some()).then_some(id.slot())
    }

    pub(super) fn name(&mut self, id: &str) -> Arc<str> {
        if let Some(name) = self.names.get(id) {
            return name.clone();
        }
        let name: Arc<str> = Arc::from(id);
        self.names.insert(id.to_owned(), name.clone());
        name
    }

    /// A pending value gets a new run (superseding any earlier one of the property).
    pub(super) fn ticket(
        &mut self,
        work: &mut Work,
        i: u32,
        p: usize,
        state: PropState,
    ) -> PropState {
        match state {
            PropState::Pending(_) => {
                self.tickets += 1;
                work.runs.push((i, p as u32, self.tickets));
                PropState::Pending(self.tickets)
            }
            other => other,
        }
    }

    pub(super) fn alloc(&mut self, inst: Inst) -> u32 {
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
    pub(super) fn build(
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
    pub(super) fn run_starts(&self, surface: &Surface, runs: Runs) -> Vec<Start> {
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

    /// Makes the root when the surface has one to show (as [`Surface::resolve`](crate::surfaces::Surface::resolve): a surface
    /// with components but no `root` shows a pending root), drops it when it has none.
    pub(super) fn ensure_root(&mut self, work: &mut Work) {
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
    pub(super) fn make(
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
    pub(super) fn make_one(
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
    pub(super) fn set_props(&mut self, work: &mut Work, i: u32) {
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

    pub(super) fn too_many_bytes(&self, work: &Work) -> String {
        format!(
            "LIMIT_EXCEEDED: the live trees would hold more than {} bytes \
             (ResolveLimits::max_bytes); the rest is not resolved",
            work.limits.max_bytes
        )
    }

    /// Charges what a property's new state keeps to the tree; a computed value that would
    /// take the trees past the byte limit is not kept: the property is failed instead.
    pub(super) fn charge(&mut self, work: &Work, state: PropState) -> PropState {
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
    pub(super) fn clear_props(&mut self, i: u32) {
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
    pub(super) fn make_kids(&mut self, work: &mut Work, i: u32, queue: &mut VecDeque<u32>) {
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
    pub(super) fn fit_rows(
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
    pub(super) fn drop_subtree(&mut self, i: u32, work: &mut Work) {
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
    pub(super) fn apply_data(&mut self, work: &mut Work, changes: &ChangeSet) {
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
    pub(super) fn rows_changed(&mut self, work: &mut Work, i: u32, t: u32, changes: &ChangeSet) {
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
    pub(super) fn reach_row(&mut self, work: &mut Work, row: u32, rest: Option<&[String]>) {
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
    pub(super) fn flush(&mut self, work: &mut Work) {
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
    pub(super) fn apply_components(&mut self, work: &mut Work, ids: &HashSet<&str>) {
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
    pub(super) fn update_in_place(&mut self, work: &mut Work, i: u32) {
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
    pub(super) fn replace(&mut self, work: &mut Work, i: u32) {
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
    pub(super) fn slot_prop(&self) -> Arc<str> {
        SlotName::Named(self.slot.clone(), 0).prop()
    }
}

/// Evaluates one compiled property in `context`.
pub(super) fn evaluate(
    surface: &Surface,
    component: &crate::surfaces::Component,
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
