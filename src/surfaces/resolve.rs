//! Resolution: the tree a renderer draws, from `root`, breadth first. Each child list or template
//! item is one instance with its data context; every property is resolved in it (the dynamic ones
//! through the payloads compiled when the component arrived). The walk uses a queue, and the
//! instance count and template size are bounded ([`ResolveLimits`]): a component shared under
//! two parents is two instances, so sharing could otherwise multiply them.

use super::{Component, Surface};
use crate::model::read_value;
use crate::path::{DataPath, JsonPointer, escape_token};
use serde_json::{Map, Value, json};
use std::collections::VecDeque;

/// Bounds of one resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveLimits {
    /// The most items a template expands. Default 10 000; a longer array makes the parent's
    /// node `failed` with `LIMIT_EXCEEDED`, its items not expanded.
    pub max_template_items: usize,
    /// The most nodes of one tree. Default 100 000; the resolution stops there and says so.
    pub max_nodes: usize,
}

impl Default for ResolveLimits {
    fn default() -> ResolveLimits {
        ResolveLimits {
            max_template_items: 10_000,
            max_nodes: 100_000,
        }
    }
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
        let mut out = json!({
            "componentId": self.component_id,
            "type": self.component_type,
            "dataPath": self.data_path.to_string(),
            "parent": self.parent,
            "slot": self.slot,
            "props": self.props,
        });
        if let Some((valid, messages)) = &self.checks {
            out["checks"] = json!({"valid": valid, "messages": messages});
        }
        match &self.state {
            None => {}
            Some(NodeState::Pending) => out["state"] = json!("pending"),
            Some(NodeState::Failed(why)) => {
                out["state"] = json!("failed");
                out["error"] = json!(why);
            }
        }
        out
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

/// Resolves a surface's tree.
pub(crate) fn resolve(surface: &Surface, limits: ResolveLimits) -> Tree {
    let mut tree = Tree {
        nodes: Vec::new(),
        truncated: None,
    };
    if surface.component("root").is_none() && surface.component_count() == 0 {
        return tree;
    }
    let model = surface.data_model();
    let mut queue: VecDeque<(String, JsonPointer, Option<String>, Option<String>)> =
        VecDeque::from([("root".to_owned(), JsonPointer::root(), None, None)]);
    while let Some((id, context, parent, slot)) = queue.pop_front() {
        if tree.nodes.len() >= limits.max_nodes {
            tree.truncated = Some(format!(
                "LIMIT_EXCEEDED: the tree has more than {} nodes; the rest is not resolved",
                limits.max_nodes
            ));
            break;
        }
        let Some(component) = surface.component(&id) else {
            tree.nodes.push(Node {
                component_id: id,
                component_type: None,
                data_path: context,
                parent,
                slot,
                props: Map::new(),
                checks: None,
                state: Some(NodeState::Pending),
            });
            continue;
        };
        let mut node = instance(component, model, &context, parent, slot);
        let key = node.key();
        for (child, child_slot, template) in component.children() {
            if !template {
                queue.push_back((
                    child.clone(),
                    context.clone(),
                    Some(key.clone()),
                    Some(child_slot.clone()),
                ));
                continue;
            }
            let path = component
                .props
                .get(child_slot.as_str())
                .and_then(|t| t.get("path"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let at = match DataPath::parse(path) {
                Ok(p) => p.resolve(&context),
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
                queue.push_back((
                    child.clone(),
                    item,
                    Some(key.clone()),
                    Some(format!("{child_slot}[{i}]")),
                ));
            }
        }
        tree.nodes.push(node);
    }
    tree
}

/// One instance: its properties resolved in `context`.
fn instance(
    component: &Component,
    model: &Value,
    context: &JsonPointer,
    parent: Option<String>,
    slot: Option<String>,
) -> Node {
    let mut node = Node {
        component_id: component.id.clone(),
        component_type: Some(component.component.clone()),
        data_path: context.clone(),
        parent,
        slot,
        props: Map::new(),
        checks: None,
        state: None,
    };
    for (prop, value) in &component.props {
        let resolved = match component.compiled(prop) {
            None => value.clone(),
            // An action that runs a function does so on activation, never while drawing.
            Some(_) if value.get("functionCall").is_some() => value.clone(),
            Some(payload) if payload.calls_tools() => {
                node.state.get_or_insert(NodeState::Pending);
                Value::Null
            }
            Some(payload) => match payload.eval_read(model, context) {
                Ok(v) => v,
                Err(e) => {
                    if node.state.is_none() || node.state == Some(NodeState::Pending) {
                        node.state =
                            Some(NodeState::Failed(format!("{}: {e}", escape_token(prop))));
                    }
                    Value::Null
                }
            },
        };
        node.props.insert(prop.clone(), resolved);
    }
    if let Some(checks) = &component.checks {
        let evaluated = match component.compiled("checks") {
            Some(payload) => payload.eval_read(model, context),
            None => Ok(checks.clone()),
        };
        node.checks = Some(checks_outcome(evaluated));
    }
    node
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
