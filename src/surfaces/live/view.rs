//! What a renderer reads of a live tree: [`LiveView`] and [`LiveNode`].

use super::changes::*;
use super::tree::*;
use crate::path::{JsonPointer, escape_token};
use crate::surfaces::Surface;
use crate::surfaces::bare::{bare_path, read_bare};
use crate::surfaces::resolve::{Node, NodeState, Tree};
use serde_json::{Map, Value};
use std::collections::VecDeque;

/// The live tree of a surface ([`Surface::live`](crate::surfaces::Surface::live)).
#[derive(Clone, Copy)]
pub struct LiveView<'a> {
    pub(super) surface: &'a Surface,
    pub(super) tree: &'a LiveTree,
}

impl std::fmt::Debug for LiveView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveView")
            .field("surface", &self.surface.id())
            .field("instances", &self.tree.count)
            .finish()
    }
}

/// One instance of the live tree ([`LiveView::node`](crate::surfaces::LiveView::node)).
#[derive(Clone, Copy)]
pub struct LiveNode<'a> {
    pub(super) surface: &'a Surface,
    pub(super) tree: &'a LiveTree,
    pub(super) i: u32,
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

    /// The instances breadth first from the root: the order of [`Surface::resolve`](crate::surfaces::Surface::resolve).
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
    /// instances past [`ResolveLimits::max_nodes`](crate::surfaces::ResolveLimits::max_nodes) or [`ResolveLimits::max_bytes`](crate::surfaces::ResolveLimits::max_bytes), for all
    /// the live trees of the processor together, are not made.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
    /// use serde_json::json;
    /// let mut limits = ResolveLimits::default();
    /// limits.max_nodes = 3;
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true).with_live(limits));
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
    pub(crate) fn tree_within(&self, budget: &mut crate::surfaces::resolve::Budget) -> Tree {
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

    /// The tree as [`Surface::resolve`](crate::surfaces::Surface::resolve) gives it, read from the live instances: the same
    /// nodes in the same order (below the limits). Each node copies its values, so the copies
    /// are charged to the limits the tree was built with, as [`Surface::resolve`](crate::surfaces::Surface::resolve) charges them
    /// (a value bound by 10 000 rows is held once by the live tree, but copied by each node
    /// here): past them the rest is not copied and the tree is marked `LIMIT_EXCEEDED`.
    pub fn to_tree(&self) -> Tree {
        let mut budget = crate::surfaces::resolve::Budget::new(
            self.tree.limits,
            crate::surfaces::resolve::NODE_BYTES,
        );
        self.tree_within(&mut budget)
    }
}

impl<'a> LiveNode<'a> {
    pub(super) fn inst(&self) -> &'a Inst {
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

    pub(super) fn compiled_index(&self, prop: &str) -> Option<usize> {
        let component = self.surface.component(self.component_id())?;
        component.compiled.iter().position(|(name, _)| name == prop)
    }

    /// The absolute path a two-way bound property writes ([`Processor::write`](crate::surfaces::Processor::write)): its bare
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

    /// Pending or failed, when it is (as [`Node::state`](crate::surfaces::Node::state)).
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

    /// The node as [`Surface::resolve`](crate::surfaces::Surface::resolve) gives it.
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
            node.checks = Some(crate::surfaces::resolve::checks_outcome(evaluated));
        }
        node
    }
}
