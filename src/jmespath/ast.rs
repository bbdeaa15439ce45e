//! The compiled form of an expression: nodes in one arena, addressed by index.

use super::functions::Func;
use serde_json::{Map, Value};

/// Index of a node in [`Ast::nodes`].
pub(crate) type NodeId = u32;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// One node of the syntax tree. Children are indices into the same arena, so the tree has no
/// recursive `Drop` and is cheap to share.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// `@`, and the implicit right-hand side of a projection.
    Identity,
    /// `foo` or `"foo"`.
    Field(Box<str>),
    /// `[n]` applied to the current value.
    Index(i64),
    /// `[start:stop:step]` applied to the current value (the step is never 0).
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    },
    /// A JSON or raw-string literal.
    Literal(Value),
    /// `lhs.rhs`, `lhs[n]`: evaluate `rhs` against the result of `lhs`.
    Sub(NodeId, NodeId),
    /// `lhs | rhs`: like [`Node::Sub`], and stops a projection.
    Pipe(NodeId, NodeId),
    /// `lhs[*].rhs`, `lhs[].rhs`, `lhs[a:b].rhs`: `rhs` over each element of the array `lhs`.
    Projection(NodeId, NodeId),
    /// `lhs.*.rhs`: `rhs` over each value of the object `lhs`.
    ValueProjection(NodeId, NodeId),
    /// `lhs[?cond].rhs`.
    Filter {
        lhs: NodeId,
        cond: NodeId,
        rhs: NodeId,
    },
    /// `lhs[]` before its projection: one level of arrays merged.
    Flatten(NodeId),
    Or(NodeId, NodeId),
    And(NodeId, NodeId),
    Not(NodeId),
    Compare(Cmp, NodeId, NodeId),
    /// `[a, b]`
    List(Vec<NodeId>),
    /// `{k: a, ...}`, keys unique. `template` holds the keys, in order, with `null` values:
    /// cloning it builds an output object without hashing each key again.
    Hash {
        pairs: Vec<(Box<str>, NodeId)>,
        template: Map<String, Value>,
    },
    /// A built-in function call; names and arities are checked at compile time.
    Call(Func, Vec<NodeId>),
    /// `&expr`, only as a function argument.
    ExpRef(NodeId),
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ast {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
}

impl Ast {
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}
