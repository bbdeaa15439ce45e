//! Resolution: the tree a renderer draws, from `root`, breadth first. Each child list or template
//! item is one instance with its data context; every property is resolved in it (the dynamic ones
//! through the payloads compiled when the component arrived). The walk uses a queue, and the
//! instance count and template size are bounded ([`ResolveLimits`]): a component shared under
//! two parents is two instances, so sharing could otherwise multiply them.

use super::{Component, Surface};
pub(crate) use crate::json::value_bytes;
use crate::json::{ALLOCATION_BYTES, ENTRY_BYTES};
use crate::model::read_value;
use crate::path::{DataPath, JsonPointer, escape_token};
use crate::payload::Payload;
use serde_json::{Map, Value, json};
use std::collections::VecDeque;

/// Bounds of a resolution: of one tree ([`Surface::resolve`](super::Surface::resolve)), of
/// every tree of a processor together ([`Processor::render_json`](super::Processor::render_json)),
/// and of the live trees of a processor together
/// ([`ProcessorOptions::live`](super::ProcessorOptions::live)).
///
/// Each node is charged before it is made: what reaching a limit costs is the rest of the
/// trees, cut breadth first and marked `LIMIT_EXCEEDED` ([`Tree::truncated`]).
///
/// ```
/// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
/// use serde_json::json;
/// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
/// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
///     "dataModel": {"s": "x".repeat(1000), "rows": [0, 0, 0, 0]},
///     "components": [
///         {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
///         {"id": "row", "component": "Text", "text": {"path": "/s"}}
///     ]}})).unwrap();
/// let mut limits = ResolveLimits::default();
/// assert_eq!((limits.max_nodes, limits.max_bytes), (100_000, 16 << 20));
/// // Each row copies the 1 000-byte string: in 5 000 bytes two rows fit, not four.
/// limits.max_bytes = 5_000;
/// let tree = p.surface("s").unwrap().resolve(limits);
/// assert_eq!(tree.nodes.len(), 3);
/// assert!(tree.truncated.unwrap().starts_with("LIMIT_EXCEEDED"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveLimits {
    /// The most items a template expands. Default 10 000; a longer array makes the parent's
    /// node `failed` with `LIMIT_EXCEEDED`, its items not expanded.
    pub max_template_items: usize,
    /// The most nodes: of one tree, of the trees `render_json` gives together, of the live
    /// trees of a processor together. Default 100 000; the resolution stops there and says so.
    pub max_nodes: usize,
    /// The most bytes the nodes of `resolve` and `render_json` hold, estimated from above and
    /// charged before each is made: its id, data path, parent key and slot, its struct (and
    /// its JSON object in `render_json`), and each resolved value (a value bound by many nodes
    /// is copied by each, and charged to each). Same scope as `max_nodes`. Default 16 MiB; the
    /// resolution stops there and says so.
    pub max_bytes: usize,
}

impl Default for ResolveLimits {
    fn default() -> ResolveLimits {
        ResolveLimits {
            max_template_items: 10_000,
            max_nodes: 100_000,
            max_bytes: 16 << 20,
        }
    }
}

/// What a resolution may still make: nodes and bytes, shared by the trees resolved under it.
#[derive(Debug)]
pub(crate) struct Budget {
    nodes: usize,
    bytes: usize,
    /// What each node costs beyond its strings and values (its struct, and for `render_json`
    /// its JSON object).
    per_node: usize,
    limits: ResolveLimits,
    /// One evaluation budget for every property the resolution evaluates, made with the
    /// limits of the first payload evaluated.
    eval: Option<crate::limits::EvalBudget>,
}

/// The fixed part of a [`Node`]: its struct and its map of properties.
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>() + 64;

/// What a node's JSON object costs beyond its strings ([`Node::into_json`]): its nine entries,
/// their keys, and its place in the list of nodes.
pub(crate) const JSON_NODE_BYTES: usize = 9 * (std::mem::size_of::<Value>() + 24 + 16 + 16) + 128;

impl Budget {
    /// A budget of `limits`, each node costing `per_node` beyond what it holds.
    pub(crate) fn new(limits: ResolveLimits, per_node: usize) -> Budget {
        Budget {
            nodes: limits.max_nodes,
            bytes: limits.max_bytes,
            per_node,
            limits,
            eval: None,
        }
    }

    /// The budget of the resolution's evaluations.
    fn eval(&mut self, payload: &Payload) -> &crate::limits::EvalBudget {
        self.eval
            .get_or_insert_with(|| crate::limits::EvalBudget::new(payload.limits()))
    }

    /// Charges one node holding `bytes` of strings, or refuses it (charging nothing) with the
    /// reason the tree is cut.
    fn node(&mut self, bytes: usize) -> Result<(), String> {
        if self.nodes == 0 {
            return Err(format!(
                "LIMIT_EXCEEDED: the tree has more than {} nodes (ResolveLimits::max_nodes); \
                 the rest is not resolved",
                self.limits.max_nodes
            ));
        }
        self.bytes(bytes.saturating_add(self.per_node))?;
        self.nodes -= 1;
        Ok(())
    }

    /// Charges `n` bytes, or refuses them (charging nothing).
    fn bytes(&mut self, n: usize) -> Result<(), String> {
        if n > self.bytes {
            return Err(self.too_many_bytes());
        }
        self.bytes -= n;
        Ok(())
    }

    /// Charges a copy of `value` (walking no more of it than the budget has left), or refuses
    /// it.
    pub(crate) fn copy(&mut self, value: &Value) -> Result<(), String> {
        match value_bytes(value, self.bytes) {
            Some(n) => self.bytes(n),
            None => Err(self.too_many_bytes()),
        }
    }

    /// Charges a node already made (a live tree's, read into a [`Tree`]), or refuses it: what
    /// is kept never passes the budget, the node refused being dropped at once.
    pub(crate) fn charge_node(&mut self, node: &Node) -> Result<(), String> {
        let mut bytes = node.component_id.len()
            + pointer_bytes(&node.data_path)
            + node.parent.as_ref().map_or(0, String::len)
            + node.slot.as_ref().map_or(0, String::len)
            + 3 * ALLOCATION_BYTES;
        for (prop, value) in &node.props {
            let size = value_bytes(value, self.bytes).ok_or_else(|| self.too_many_bytes())?;
            bytes = bytes.saturating_add(prop.len() + ENTRY_BYTES + size);
        }
        if let Some((_, messages)) = &node.checks {
            bytes += messages.iter().map(|m| m.len() + 24).sum::<usize>();
        }
        self.node(bytes)
    }

    /// Gives back the charge of a node not made after all ([`Budget::node`]).
    fn refund(&mut self, bytes: usize) {
        self.nodes += 1;
        self.bytes += bytes.saturating_add(self.per_node);
    }

    fn too_many_bytes(&self) -> String {
        format!(
            "LIMIT_EXCEEDED: the tree would hold more than {} bytes (ResolveLimits::max_bytes); \
             the rest is not resolved",
            self.limits.max_bytes
        )
    }
}

/// The length of `pointer`'s text, without writing it.
pub(crate) fn pointer_len(pointer: &JsonPointer) -> usize {
    pointer
        .tokens()
        .iter()
        .map(|t| 1 + t.len() + t.bytes().filter(|b| matches!(b, b'~' | b'/')).count())
        .sum()
}

/// The bytes of a pointer's tokens as a node keeps them.
fn pointer_bytes(pointer: &JsonPointer) -> usize {
    pointer
        .tokens()
        .iter()
        .map(|t| t.len() + 24 + ALLOCATION_BYTES)
        .sum()
}

/// The state of a node that is not simply drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeState {
    /// The component is not defined yet (streams send parents first), or a property needs a
    /// tool call that has not resolved.
    Pending,
    /// A property failed to resolve, or a template is too long: the error.
    Failed(String),
}

/// One instance of a component in the resolved tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The component's id.
    pub component_id: String,
    /// Its type (`None` when it is not defined yet).
    pub component_type: Option<String>,
    /// Its data context.
    pub data_path: JsonPointer,
    /// The parent's `componentId@dataPath` (`None` for the root).
    pub parent: Option<String>,
    /// The property the node hangs from (`child`, `children[2]`); `None` for the root.
    pub slot: Option<String>,
    /// Every property resolved (actions with their event context resolved as it would be
    /// sent; a `functionCall` action as written: it runs on activation only).
    pub props: Map<String, Value>,
    /// Whether its checks pass, and the messages of those that fail (`None`: no checks).
    pub checks: Option<(bool, Vec<String>)>,
    /// Pending or failed, when it is.
    pub state: Option<NodeState>,
}

impl Node {
    /// `componentId@dataPath`, how children name their parent.
    pub fn key(&self) -> String {
        format!("{}@{}", self.component_id, self.data_path)
    }

    /// The spec's JSON form: `{"componentId", "type", "dataPath", "parent", "slot", "props",
    /// "state"?}` (and `"checks": {"valid", "messages"}` when it has checks).
    pub fn to_json(&self) -> Value {
        self.clone().into_json()
    }

    /// [`to_json`](Node::to_json), its strings and values moved, not copied.
    pub(crate) fn into_json(self) -> Value {
        let mut out = Map::with_capacity(9);
        out.insert("componentId".into(), self.component_id.into());
        out.insert("type".into(), self.component_type.into());
        out.insert("dataPath".into(), self.data_path.to_string().into());
        out.insert("parent".into(), self.parent.into());
        out.insert("slot".into(), self.slot.into());
        out.insert("props".into(), Value::Object(self.props));
        if let Some((valid, messages)) = self.checks {
            out.insert(
                "checks".into(),
                json!({"valid": valid, "messages": messages}),
            );
        }
        match self.state {
            None => {}
            Some(NodeState::Pending) => {
                out.insert("state".into(), "pending".into());
            }
            Some(NodeState::Failed(why)) => {
                out.insert("state".into(), "failed".into());
                out.insert("error".into(), why.into());
            }
        }
        Value::Object(out)
    }
}

/// The tree, and what stopped it early if anything did.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The nodes, breadth first from `root`.
    pub nodes: Vec<Node>,
    /// Set when [`ResolveLimits::max_nodes`] stopped the walk.
    pub truncated: Option<String>,
}

/// A node waiting in the queue: what it borrows from the surface, its context, and its parent's
/// position in the tree (the parent's key is made once the node is, never per queued entry).
struct Queued<'a> {
    id: &'a str,
    context: JsonPointer,
    parent: Option<usize>,
    slot: Option<(&'a str, Option<usize>)>,
    /// What [`Budget::node`] charged for it, given back if it is dropped unmade.
    charged: usize,
}

/// Resolves a surface's tree, within `budget`.
pub(crate) fn resolve(surface: &Surface, budget: &mut Budget) -> Tree {
    let limits = budget.limits;
    let mut tree = Tree {
        nodes: Vec::new(),
        truncated: None,
    };
    if surface.component("root").is_none() && surface.component_count() == 0 {
        return tree;
    }
    let model = surface.data_model();
    // Each node is charged when it is queued (its strings) and when it is made (its values):
    // the queue never holds more than the budget admits, and once a node is refused no more
    // are queued, so the tree is a breadth-first prefix as the limits cut it.
    let root_bytes = "root".len();
    if let Err(why) = budget.node(root_bytes) {
        tree.truncated = Some(why);
        return tree;
    }
    let mut queue = VecDeque::from([Queued {
        id: "root",
        context: JsonPointer::root(),
        parent: None,
        slot: None,
        charged: root_bytes,
    }]);
    let mut cut: Option<String> = None;
    while let Some(q) = queue.pop_front() {
        let parent = q.parent.map(|p| tree.nodes[p].key());
        let slot = q.slot.map(|(s, i)| match i {
            Some(i) => format!("{s}[{i}]"),
            None => s.to_owned(),
        });
        let Some(component) = surface.component(q.id) else {
            tree.nodes.push(Node {
                component_id: q.id.to_owned(),
                component_type: None,
                data_path: q.context,
                parent,
                slot,
                props: Map::new(),
                checks: None,
                state: Some(NodeState::Pending),
            });
            continue;
        };
        // A node whose values do not fit drops the nodes queued last, so that the tree stays
        // the breadth-first prefix that fits.
        let mut free = |budget: &mut Budget| match queue.pop_back() {
            Some(last) => {
                budget.refund(last.charged);
                cut.get_or_insert_with(|| budget.too_many_bytes());
                true
            }
            None => false,
        };
        let mut node = match instance(
            component, model, &q.context, parent, slot, budget, &mut free,
        ) {
            Ok(node) => node,
            Err(why) => {
                cut = Some(why);
                break;
            }
        };
        let me = tree.nodes.len();
        let key_len = component.id.len() + 1 + pointer_len(&q.context);
        for (child, child_slot, template) in component.children() {
            if cut.is_some() {
                break;
            }
            // The strings a child will hold: its id, its data path, its parent's key, its slot.
            let strings = |context: &JsonPointer, item: bool| {
                child.len()
                    + pointer_bytes(context)
                    + key_len
                    + child_slot.len()
                    + if item { 8 } else { 0 }
                    + 3 * ALLOCATION_BYTES
            };
            if !template {
                let charged = strings(&q.context, false);
                match budget.node(charged) {
                    Ok(()) => queue.push_back(Queued {
                        id: child,
                        context: q.context.clone(),
                        parent: Some(me),
                        slot: Some((child_slot, None)),
                        charged,
                    }),
                    Err(why) => cut = Some(why),
                }
                continue;
            }
            let path = component
                .props
                .get(child_slot.as_str())
                .and_then(|t| t.get("path"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let at = match DataPath::parse(path) {
                Ok(p) => p.resolve(&q.context),
                Err(e) => {
                    node.state = Some(NodeState::Failed(e.to_string()));
                    continue;
                }
            };
            let len = match read_value(model, &at) {
                Some(Value::Array(items)) => items.len(),
                // No list (yet): no item.
                _ => 0,
            };
            if len > limits.max_template_items {
                node.state = Some(NodeState::Failed(format!(
                    "LIMIT_EXCEEDED: the template over {at} has {len} items, more than the limit of {}",
                    limits.max_template_items
                )));
                continue;
            }
            for i in 0..len {
                let mut item = at.clone();
                item.push(i.to_string());
                let charged = strings(&item, true);
                if let Err(why) = budget.node(charged) {
                    cut = Some(why);
                    break;
                }
                queue.push_back(Queued {
                    id: child,
                    context: item,
                    parent: Some(me),
                    slot: Some((child_slot, Some(i))),
                    charged,
                });
            }
        }
        tree.nodes.push(node);
    }
    tree.truncated = cut;
    tree
}

/// A property's value before it is copied into its node.
enum Resolved<'a> {
    /// Copied as written (a literal, an action that runs on activation only).
    Literal(&'a Value),
    /// A bare binding, copied from the model once charged.
    Bare(&'a Payload),
    /// Evaluated already (what evaluating it makes is the evaluation's own budget).
    Made(Result<Value, crate::error::Error>),
    /// Waits for a tool call.
    Pending,
}

/// One instance: its properties resolved in `context`. Everything it holds is measured first
/// and charged at once; when that does not fit, `free` gives back the charge of the node queued
/// last (the last of the breadth-first order) until it does. `Err` when nothing more can be
/// freed, or a value alone is larger than the whole budget.
fn instance(
    component: &Component,
    model: &Value,
    context: &JsonPointer,
    parent: Option<String>,
    slot: Option<String>,
    budget: &mut Budget,
    free: &mut dyn FnMut(&mut Budget) -> bool,
) -> Result<Node, String> {
    let max = budget.limits.max_bytes;
    let whole = |budget: &Budget| budget.too_many_bytes();
    let mut need = 0usize;
    let mut values = Vec::with_capacity(component.props.len());
    for (prop, value) in &component.props {
        let resolved = match component.compiled(prop) {
            None => Resolved::Literal(value),
            Some(_) if value.get("functionCall").is_some() => Resolved::Literal(value),
            Some(payload) if payload.calls_tools() => Resolved::Pending,
            Some(payload) => match super::bare::bare_path(payload) {
                Some(_) => Resolved::Bare(payload),
                None => {
                    Resolved::Made(payload.eval_read_within(model, context, budget.eval(payload)))
                }
            },
        };
        let size = match &resolved {
            Resolved::Literal(v) => value_bytes(v, max),
            Resolved::Bare(payload) => super::bare::bare_path(payload)
                .and_then(|path| super::bare::read_bare(model, path, context))
                .map_or(Some(0), |v| value_bytes(v, max)),
            Resolved::Made(Ok(v)) => value_bytes(v, max),
            Resolved::Made(Err(_)) | Resolved::Pending => Some(0),
        };
        need = need
            .saturating_add(prop.len() + ENTRY_BYTES)
            .saturating_add(size.ok_or_else(|| whole(budget))?);
        values.push((prop, resolved));
    }
    let checks = component.checks.as_ref().map(|checks| {
        checks_outcome(match component.compiled("checks") {
            Some(payload) => payload.eval_read_within(model, context, budget.eval(payload)),
            None => Ok(checks.clone()),
        })
    });
    if let Some((_, messages)) = &checks {
        need = need.saturating_add(messages.iter().map(|m| m.len() + 24).sum());
    }
    if need > max {
        return Err(whole(budget));
    }
    while budget.bytes(need).is_err() {
        if !free(budget) {
            return Err(whole(budget));
        }
    }
    let mut node = Node {
        component_id: component.id.clone(),
        component_type: Some(component.component.clone()),
        data_path: context.clone(),
        parent,
        slot,
        props: Map::with_capacity(values.len()),
        checks,
        state: None,
    };
    for (prop, resolved) in values {
        let value = match resolved {
            Resolved::Literal(v) => Ok(v.clone()),
            Resolved::Bare(payload) => payload.eval_read(model, context),
            Resolved::Made(v) => v,
            Resolved::Pending => {
                node.state.get_or_insert(NodeState::Pending);
                Ok(Value::Null)
            }
        };
        let value = value.unwrap_or_else(|e| {
            if node.state.is_none() || node.state == Some(NodeState::Pending) {
                node.state = Some(NodeState::Failed(format!("{}: {e}", escape_token(prop))));
            }
            Value::Null
        });
        node.props.insert(prop.clone(), value);
    }
    Ok(node)
}

/// Whether checks pass, and the messages of those that fail, from the evaluated `checks`.
pub(crate) fn checks_outcome(
    evaluated: Result<Value, impl std::fmt::Display>,
) -> (bool, Vec<String>) {
    match evaluated {
        Ok(Value::Array(rules)) => {
            let mut messages = Vec::new();
            for rule in &rules {
                let condition = rule.get("condition").unwrap_or(&Value::Null);
                // A condition yields a boolean or a v1.0 validationResult object.
                let (valid, message) = match condition {
                    Value::Bool(b) => (*b, None),
                    Value::Object(r) => (
                        r.get("valid").and_then(Value::as_bool).unwrap_or(false),
                        r.get("message").and_then(Value::as_str),
                    ),
                    _ => (false, None),
                };
                if !valid {
                    let text = message
                        .or(rule.get("message").and_then(Value::as_str))
                        .unwrap_or("invalid");
                    messages.push(text.to_owned());
                }
            }
            (messages.is_empty(), messages)
        }
        Ok(_) => (false, vec!["checks must be a list".to_owned()]),
        Err(e) => (false, vec![e.to_string()]),
    }
}
