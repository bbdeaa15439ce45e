//! The compiled form of a payload: a flat table of nodes, functions resolved to their
//! implementations and argument names to slots, so that evaluation does no lookups and no
//! parsing.

use crate::catalog::{ArgSchema, Function, Prepared};
use crate::origin::Access;
use crate::path::DataPath;
use serde_json::Value;
use std::sync::Arc;

/// Index of a node in [`Program::nodes`].
pub(crate) type NodeId = u32;

pub(crate) enum Node {
    /// A literal without any binding or call inside (folded at compile time).
    Const(Value),
    /// `{"@path": …}`.
    Bind(DataPath),
    /// A literal array with dynamic elements.
    Array(Vec<NodeId>),
    /// A literal object with dynamic members (keys already unescaped).
    Object(Vec<(String, NodeId)>),
    /// `{"@call": …}`.
    Call(Box<CallNode>),
}

pub(crate) struct CallNode {
    pub(crate) name: String,
    pub(crate) function: Arc<dyn Function>,
    pub(crate) schema: Arc<ArgSchema>,
    /// Who may call the function and when, as its catalog said when the payload was compiled.
    pub(crate) access: Access,
    /// `(slot, node)` in document order (the evaluation order); `slot` is `None` for an
    /// undeclared argument a schema with `additionalProperties` accepts (evaluated, not passed).
    pub(crate) args: Vec<(Option<usize>, NodeId)>,
    pub(crate) prepared: Option<Prepared>,
    /// JSON Pointer to this call in the payload, for errors.
    pub(crate) location: String,
    /// What [`Function::may_write`] said of this call site.
    pub(crate) may_write: bool,
    /// What [`Function::reads`] said of this call site (the root for everything).
    pub(crate) reads: Vec<DataPath>,
}

pub(crate) struct Program {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
    /// Whether any call is to a function its catalog marks as a tool call (`callMcpTool`).
    pub(crate) calls_tools: bool,
    /// The tools those calls name.
    pub(crate) tool_names: super::tool_names::ToolNames,
}

impl Program {
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// How many children a node evaluates before it completes.
    pub(crate) fn arity(&self, id: NodeId) -> usize {
        match self.node(id) {
            Node::Const(_) | Node::Bind(_) => 0,
            Node::Array(items) => items.len(),
            Node::Object(members) => members.len(),
            Node::Call(call) => call.args.len(),
        }
    }

    /// The `i`-th child of a node, in evaluation order.
    pub(crate) fn child(&self, id: NodeId, i: usize) -> NodeId {
        match self.node(id) {
            Node::Array(items) => items[i],
            Node::Object(members) => members[i].1,
            Node::Call(call) => call.args[i].1,
            Node::Const(_) | Node::Bind(_) => unreachable!("leaves have no children"),
        }
    }
}
