//! What an expression reads of its input: the members and elements it looks at, found from the
//! compiled tree before the search, so that a large input (a tool's `json`) is decoded only as
//! far as the search goes ([`Need`]).
//!
//! The analysis follows values through the tree: a field, an index or the elements of a
//! projection or filter taken from a part of the input is a smaller part of it; a part that is
//! used any other way (compared, tested for truth, passed to a function, put in the result) is
//! needed whole. It over-approximates: whatever the search could observe is in the answer.

use super::ast::{Ast, Node, NodeId};
use super::expression::Expression;
use super::func::Func;
use crate::json::Need;

/// Deepest tree the analysis follows; past it, the input is needed whole.
const MAX_NESTING: usize = 256;

/// A part of the input, as a node of [`Places`]; `None` is a value the search computed.
type Place = Option<usize>;

/// The parts of the input the expression reads, as a tree.
#[derive(Default)]
struct Places {
    nodes: Vec<PlaceNode>,
    /// Too deep to follow: the input is needed whole.
    gave_up: bool,
}

#[derive(Default)]
struct PlaceNode {
    whole: bool,
    /// Its length is read (`length`): of an object, every member's name.
    counted: bool,
    fields: Vec<(Box<str>, usize)>,
    items: Option<usize>,
}

impl Places {
    fn field(&mut self, place: Place, name: &str) -> Place {
        let p = place?;
        if let Some(&(_, child)) = self.nodes[p].fields.iter().find(|(f, _)| **f == *name) {
            return Some(child);
        }
        let child = self.new_node();
        self.nodes[p].fields.push((name.into(), child));
        Some(child)
    }

    fn items(&mut self, place: Place) -> Place {
        let p = place?;
        if let Some(child) = self.nodes[p].items {
            return Some(child);
        }
        let child = self.new_node();
        self.nodes[p].items = Some(child);
        Some(child)
    }

    fn new_node(&mut self) -> usize {
        self.nodes.push(PlaceNode::default());
        self.nodes.len() - 1
    }

    /// The part is used whole.
    fn whole(&mut self, place: Place) {
        if let Some(p) = place {
            self.nodes[p].whole = true;
        }
    }

    /// The part's length is read.
    fn counted(&mut self, place: Place) {
        if let Some(p) = place {
            self.nodes[p].counted = true;
        }
    }

    /// The [`Need`] of the part at `p`, built without recursion (children are created after
    /// their parents, so building from the last node to the first finds every child built).
    fn need(&self, p: usize) -> Need {
        let mut built: Vec<Option<Need>> = (0..self.nodes.len()).map(|_| None).collect();
        for at in (p..self.nodes.len()).rev() {
            let node = &self.nodes[at];
            let need = if node.whole {
                Need::All
            } else {
                Need::Part {
                    fields: node
                        .fields
                        .iter()
                        .map(|(name, child)| {
                            (name.clone(), built[*child].take().unwrap_or(Need::All))
                        })
                        .collect(),
                    items: node
                        .items
                        .map(|child| Box::new(built[child].take().unwrap_or(Need::All))),
                    names: node.counted,
                }
            };
            built[at] = Some(need);
        }
        built[p].take().unwrap_or(Need::All)
    }
}

/// Follows node `id` evaluated against the part `cur`; the part its result is, if it is one.
fn follow(ast: &Ast, places: &mut Places, id: NodeId, cur: Place, nesting: usize) -> Place {
    if nesting > MAX_NESTING {
        places.gave_up = true;
        return None;
    }
    let n = nesting + 1;
    let used = |places: &mut Places, id: NodeId, cur: Place| {
        let place = follow(ast, places, id, cur, n);
        places.whole(place);
    };
    match ast.node(id) {
        Node::Identity => cur,
        Node::Field(name) => places.field(cur, name),
        Node::Index(_) => places.items(cur),
        Node::Sub(lhs, rhs) | Node::Pipe(lhs, rhs) => {
            let left = follow(ast, places, *lhs, cur, n);
            follow(ast, places, *rhs, left, n)
        }
        Node::Projection(lhs, rhs) => {
            let left = follow(ast, places, *lhs, cur, n);
            let item = places.items(left);
            used(places, *rhs, item);
            None
        }
        Node::Filter { lhs, cond, rhs } => {
            let left = follow(ast, places, *lhs, cur, n);
            let item = places.items(left);
            used(places, *cond, item);
            used(places, *rhs, item);
            None
        }
        Node::Records(records) => {
            let left = follow(ast, places, records.lhs, cur, n);
            let item = places.items(left);
            if let Some(cond) = records.cond {
                used(places, cond, item);
            }
            used(places, records.rhs, item);
            None
        }
        // What these results hold of the input is not followed: the part is needed whole.
        Node::Slice { .. } => {
            places.whole(cur);
            None
        }
        Node::Flatten(inner) => {
            let left = follow(ast, places, *inner, cur, n);
            places.whole(left);
            None
        }
        Node::ValueProjection(lhs, rhs) => {
            let left = follow(ast, places, *lhs, cur, n);
            places.whole(left);
            used(places, *rhs, None);
            None
        }
        Node::Or(a, b) | Node::And(a, b) | Node::Compare(_, a, b) => {
            used(places, *a, cur);
            used(places, *b, cur);
            None
        }
        Node::Not(a) => {
            used(places, *a, cur);
            None
        }
        Node::List(items) => {
            for item in items {
                used(places, *item, cur);
            }
            None
        }
        Node::Hash { pairs, .. } => {
            for (_, value) in pairs {
                used(places, *value, cur);
            }
            None
        }
        // `length` of a part reads its length only: an array's elements are kept whatever is
        // needed of them, an object's names are what it needs more, a string is read whole.
        Node::Call(Func::Length, args) if args.len() == 1 => {
            let place = follow(ast, places, args[0], cur, n);
            places.counted(place);
            None
        }
        Node::Call(_, args) => {
            for arg in args {
                used(places, *arg, cur);
            }
            None
        }
        // The expression is applied to values the function is given, which are needed whole;
        // what it computes from them reads nothing more of the input.
        Node::ExpRef(body) => {
            used(places, *body, None);
            None
        }
        Node::Literal(_) => None,
    }
}

impl Expression {
    /// What the expression reads of the member `name` of an object it searches (a tool
    /// response's `json`).
    pub(crate) fn reads_of_member(&self, name: &str) -> Need {
        let ast = &self.inner.ast;
        let mut places = Places::default();
        let root = Some(places.new_node());
        let result = follow(ast, &mut places, ast.root, root, 0);
        places.whole(result);
        if places.gave_up || places.nodes[0].whole {
            return Need::All;
        }
        match places.nodes[0].fields.iter().find(|(f, _)| **f == *name) {
            Some(&(_, p)) => places.need(p),
            None => Need::NOTHING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(expr: &str) -> Need {
        Expression::compile(expr).unwrap().reads_of_member("json")
    }

    fn need(fields: Vec<(&str, Need)>, items: Option<Need>, names: bool) -> Need {
        Need::Part {
            fields: fields.into_iter().map(|(f, n)| (f.into(), n)).collect(),
            items: items.map(Box::new),
            names,
        }
    }

    fn part(fields: Vec<(&str, Need)>, items: Option<Need>) -> Need {
        need(fields, items, false)
    }

    /// A part whose length is read besides.
    fn counted(fields: Vec<(&str, Need)>, items: Option<Need>) -> Need {
        need(fields, items, true)
    }

    #[test]
    fn the_guide_filter_reads_three_members_of_each_element() {
        assert_eq!(
            reads(
                "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}"
            ),
            part(
                vec![],
                Some(part(
                    vec![
                        ("state", Need::All),
                        ("number", Need::All),
                        ("title", Need::All)
                    ],
                    None
                ))
            )
        );
        assert_eq!(
            reads("json.items[*].user.login"),
            part(
                vec![(
                    "items",
                    part(
                        vec![],
                        Some(part(
                            vec![("user", part(vec![("login", Need::All)], None))],
                            None
                        ))
                    )
                )],
                None
            )
        );
    }

    #[test]
    fn length_reads_names_and_elements_not_values() {
        assert_eq!(reads("length(json)"), counted(vec![], None));
        assert_eq!(
            reads("length(json.a)"),
            part(vec![("a", counted(vec![], None))], None)
        );
        // With what else is read of the same part.
        assert_eq!(
            reads("[length(json), json.a]"),
            counted(vec![("a", Need::All)], None)
        );
        assert_eq!(
            reads("{n: length(json), rows: json[?a].b}"),
            counted(
                vec![],
                Some(part(vec![("a", Need::All), ("b", Need::All)], None))
            )
        );
        // Used whole besides: whole.
        assert_eq!(reads("[length(json), json]"), Need::All);
        // Of what the search computed: what the computation reads (a filter's result holds
        // its elements whole).
        assert_eq!(reads("length(json[?a])"), part(vec![], Some(Need::All)));
        // `length` with the wrong number of arguments is an error, not a read: compiling fails.
        assert!(Expression::compile("length(json, json)").is_err());
    }

    #[test]
    fn anything_else_reads_the_whole_value() {
        for expr in [
            "@",
            "json",
            "keys(@)",
            "json[0:2].a",
            "json[].a",
            "json.*.a",
            "sort_by(json, &a)[0].b",
            "json.a || json.b",
            "[json.a, toolName]",
            "values(@)[0]",
        ] {
            let need = reads(expr);
            let all_somewhere = match &need {
                Need::All => true,
                Need::Part { fields, .. } => fields.iter().any(|(_, n)| *n == Need::All),
            };
            assert!(all_somewhere, "{expr}: {need:?}");
        }
        assert_eq!(reads("toolName"), Need::NOTHING);
        assert_eq!(reads("text"), Need::NOTHING);
        assert_eq!(reads("@"), Need::All);
        assert_eq!(reads("values(@)[0]"), Need::All);
    }
}
