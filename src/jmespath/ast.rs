//! The compiled form of an expression: nodes in one arena, addressed by index.

use super::func::Func;
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
    /// `lhs[*].{…}` or `lhs[?cond].{…}` where each value of the multi-select reads the element
    /// directly (the usual reshape of tool records). Evaluated as the [`Node::Projection`] or
    /// [`Node::Filter`] it stands for, except over an array of the input, whose elements are
    /// tested and turned into records without intermediate values.
    Records(Box<Records>),
    /// A built-in function call; names and arities are checked at compile time.
    Call(Func, Vec<NodeId>),
    /// `&expr`, only as a function argument.
    ExpRef(NodeId),
}

/// A [`Node::Records`]: the projection or filter in generic form, and the plan for elements of
/// an input array.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Records {
    pub(crate) lhs: NodeId,
    /// The filter's condition; `None` for a projection.
    pub(crate) cond: Option<NodeId>,
    /// The multi-select hash.
    pub(crate) rhs: NodeId,
    /// `cond`, when it compares a field with a string.
    pub(crate) field_test: Option<FieldTest>,
    /// `cond` is `@ != null` or ``@ != `null` `` (either way round): every element but `null`
    /// passes, which the element's own kind tells without evaluating the comparison (the
    /// guide's text chain keeps the records its pattern matched this way). A bare `null` is
    /// the member of that name, and it answers the same: an element's member is `null` unless
    /// the element is an object, and an object never equals one of its own members.
    pub(crate) not_null: bool,
    /// How each value of `rhs` reads the element, in `template`'s order.
    pub(crate) members: Vec<RecordMember>,
    /// `rhs`'s keys, in order, with `null` values.
    pub(crate) template: Map<String, Value>,
}

/// `field == 'text'` (`equal`) or `field != 'text'`, either way round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldTest {
    pub(crate) field: Box<str>,
    pub(crate) text: Box<str>,
    pub(crate) equal: bool,
}

/// What a value of a [`Records`] multi-select reads from the element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RecordMember {
    /// `field`.
    Field(Box<str>),
    /// `to_string(field)`.
    FieldText(Box<str>),
    /// `[n]`.
    Index(i64),
}

impl Node {
    /// The node evaluated in place of `self`, whose children are in `nodes`: a [`Node::Records`]
    /// for a projection or filter of that shape, else `self`. Deciding this when the expression
    /// is compiled keeps the evaluation from inspecting the tree again for each element.
    pub(crate) fn specialised(self, nodes: &[Node]) -> Node {
        let (lhs, cond, rhs) = match self {
            Node::Projection(lhs, rhs) => (lhs, None, rhs),
            Node::Filter { lhs, cond, rhs } => (lhs, Some(cond), rhs),
            other => return other,
        };
        let node = |id: NodeId| &nodes[id as usize];
        let Node::Hash { pairs, template } = node(rhs) else {
            return self;
        };
        let member = |&(_, id): &(Box<str>, NodeId)| match node(id) {
            Node::Field(field) => Some(RecordMember::Field(field.clone())),
            Node::Index(i) => Some(RecordMember::Index(*i)),
            Node::Call(Func::ToString, args) => match args.as_slice() {
                [arg] => match node(*arg) {
                    Node::Field(field) => Some(RecordMember::FieldText(field.clone())),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(members) = pairs.iter().map(member).collect() else {
            return self;
        };
        let field_test = cond.and_then(|cond| match node(cond) {
            Node::Compare(op @ (Cmp::Eq | Cmp::Ne), a, b) => match (node(*a), node(*b)) {
                (Node::Field(field), Node::Literal(Value::String(text)))
                | (Node::Literal(Value::String(text)), Node::Field(field)) => Some(FieldTest {
                    field: field.clone(),
                    text: text.as_str().into(),
                    equal: *op == Cmp::Eq,
                }),
                _ => None,
            },
            _ => None,
        });
        let is_null = |n: &Node| match n {
            Node::Literal(Value::Null) => true,
            Node::Field(name) => &**name == "null",
            _ => false,
        };
        let not_null = cond.is_some_and(|cond| match node(cond) {
            Node::Compare(Cmp::Ne, a, b) => match (node(*a), node(*b)) {
                (Node::Identity, other) | (other, Node::Identity) => is_null(other),
                _ => false,
            },
            _ => false,
        });
        Node::Records(Box::new(Records {
            lhs,
            cond,
            rhs,
            field_test,
            not_null,
            members,
            template: template.clone(),
        }))
    }
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
