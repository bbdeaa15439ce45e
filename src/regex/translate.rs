//! From our syntax tree to a `regex-syntax` HIR with JavaScript's meaning for every construct.
//!
//! The user's text never reaches the `regex` crate: the HIR is built node by node here, then
//! printed by `regex-syntax` (its printer round-trips) for `::regex::RegexBuilder`.
//!
//! Captures inside repetitions: JavaScript clears a repeated group's captures at the start of each
//! iteration, the `regex` crate keeps the last value it saw. For every repetition whose body holds
//! a capture that may skip an iteration, a hidden capture records the last iteration's span; a
//! capture that starts before the last iteration of an enclosing repetition is stale and reads as
//! "did not take part" (`""`), as in JavaScript.

use super::ast::{
    Assertion, Ast, ClassItem, Node, NodeKind, PerlClass, PerlKind, Property, Repeat,
};
use super::error::{RegexError, RegexErrorKind};
use super::properties;
use regex_syntax::hir::{self, ClassUnicode, ClassUnicodeRange, Hir, Look};

/// Largest count a counted repetition may have (`(?:ab){100000}`); beyond it the compiled
/// program is too big anyway, and refusing early keeps compilation fast.
pub(crate) const MAX_COUNT: u32 = 100_000;

/// How to read one user capture group out of the compiled regex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroupPlan {
    /// Capture index of the group in the compiled regex.
    pub slot: u32,
    /// Hidden or enclosing captures holding the last iteration of each repetition in which this
    /// group may not take part; the group counts only if it starts inside all of them.
    pub guards: Vec<u32>,
}

/// A translated pattern.
#[derive(Debug)]
pub(crate) struct Translation {
    pub hir: Hir,
    /// Plans for groups 1..n, in order.
    pub groups: Vec<GroupPlan>,
}

pub(crate) fn translate(ast: &Ast, pattern: &str) -> Result<Translation, RegexError> {
    let mut t = Translator {
        pattern,
        next_slot: 1,
        groups: vec![None; ast.group_count as usize],
        frames: Vec::new(),
    };
    let hir = t.walk(&ast.root, Ctx { optional_upto: 0 })?;
    let groups = t
        .groups
        .into_iter()
        .map(|g| {
            // A group the walk never reached cannot exist: the parser numbers only what it builds.
            g.ok_or_else(|| {
                RegexError::at(
                    RegexErrorKind::Syntax,
                    0,
                    "capture group numbering",
                    pattern,
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Translation { hir, groups })
}

struct Translator<'p> {
    pattern: &'p str,
    /// Next capture index in the compiled regex (0 is the whole match). Allocated in the order
    /// the printed pattern opens its groups, which is how the `regex` crate numbers them again.
    next_slot: u32,
    groups: Vec<Option<GroupPlan>>,
    /// Guards of the enclosing repetitions (max above 1), outermost first.
    frames: Vec<u32>,
}

/// Per-position context: the enclosing frames `frames[..optional_upto]` are the ones in which the
/// current position may be skipped by an iteration (an alternation or a `min = 0` repetition lies
/// between them and here).
#[derive(Clone, Copy)]
struct Ctx {
    optional_upto: usize,
}

impl Translator<'_> {
    fn walk(&mut self, node: &Node, ctx: Ctx) -> Result<Hir, RegexError> {
        Ok(match &node.kind {
            NodeKind::Empty => Hir::empty(),
            NodeKind::Literal(c) => Hir::literal(c.to_string().into_bytes()),
            NodeKind::Dot => class_hir(dot()),
            NodeKind::Perl(p) => class_hir(perl(*p)),
            NodeKind::Property(p) => class_hir(self.property(*p, node.span.start)?),
            NodeKind::Class(class) => {
                let mut set = ClassUnicode::empty();
                for item in &class.items {
                    let part = match *item {
                        ClassItem::Char(c) => ClassUnicode::new([ClassUnicodeRange::new(c, c)]),
                        ClassItem::Range(lo, hi) => range(lo, hi),
                        ClassItem::Perl(p) => perl(p),
                        ClassItem::Property(p) => self.property(p, node.span.start)?,
                    };
                    set.union(&part);
                }
                if class.negated {
                    set.negate();
                }
                class_hir(set)
            }
            NodeKind::Assertion(a) => Hir::look(match a {
                Assertion::Start => Look::Start,
                Assertion::End => Look::End,
                Assertion::WordBoundary => Look::WordAscii,
                Assertion::NotWordBoundary => Look::WordAsciiNegate,
            }),
            NodeKind::Group(group) => match &group.capture {
                None => self.walk(&group.node, ctx)?,
                Some(cap) => {
                    let slot = self.capture_slot(cap.index, ctx);
                    let sub = self.walk(&group.node, ctx)?;
                    capture(slot, sub)
                }
            },
            NodeKind::Concat(nodes) => {
                let mut subs = Vec::with_capacity(nodes.len());
                for n in nodes {
                    subs.push(self.walk(n, ctx)?);
                }
                Hir::concat(subs)
            }
            NodeKind::Alternation(nodes) => {
                let inner = Ctx {
                    optional_upto: self.frames.len(),
                };
                let mut subs = Vec::with_capacity(nodes.len());
                for n in nodes {
                    subs.push(self.walk(n, inner)?);
                }
                Hir::alternation(subs)
            }
            NodeKind::Repeat(rep) => self.repeat(rep, node, ctx)?,
        })
    }

    fn capture_slot(&mut self, index: u32, ctx: Ctx) -> u32 {
        let slot = self.next_slot;
        self.next_slot += 1;
        if let Some(entry) = self.groups.get_mut(index as usize - 1) {
            *entry = Some(GroupPlan {
                slot,
                guards: self.frames[..ctx.optional_upto].to_vec(),
            });
        }
        slot
    }

    fn repeat(&mut self, rep: &Repeat, node: &Node, ctx: Ctx) -> Result<Hir, RegexError> {
        let too_big = |n: u32| n > MAX_COUNT;
        if too_big(rep.min) || rep.max.is_some_and(too_big) {
            return Err(RegexError::at(
                RegexErrorKind::TooBig,
                node.span.start,
                &format!("a counted repetition above {MAX_COUNT} is too big to compile"),
                self.pattern,
            ));
        }
        let ctx = if rep.min == 0 {
            Ctx {
                optional_upto: self.frames.len(),
            }
        } else {
            ctx
        };
        let iterates = rep.max.is_none_or(|m| m > 1);
        let sub = if iterates && optional_capture(body_of(&rep.node), false) {
            match &rep.node.kind {
                // A repeated capture group already records the last iteration: it is the guard.
                NodeKind::Group(group) if group.capture.is_some() => {
                    let cap = group.capture.as_ref().map_or(0, |c| c.index);
                    let slot = self.capture_slot(cap, ctx);
                    self.frames.push(slot);
                    let inner = self.walk(
                        &group.node,
                        Ctx {
                            optional_upto: ctx.optional_upto,
                        },
                    );
                    self.frames.pop();
                    capture(slot, inner?)
                }
                _ => {
                    let slot = self.next_slot;
                    self.next_slot += 1;
                    self.frames.push(slot);
                    let inner = self.walk(&rep.node, ctx);
                    self.frames.pop();
                    capture(slot, inner?)
                }
            }
        } else {
            self.walk(&rep.node, ctx)?
        };
        Ok(Hir::repetition(hir::Repetition {
            min: rep.min,
            max: rep.max,
            greedy: rep.greedy,
            sub: Box::new(sub),
        }))
    }

    fn property(&self, p: Property, at: usize) -> Result<ClassUnicode, RegexError> {
        let mut class = properties::class(p.kind).ok_or_else(|| {
            RegexError::at(
                RegexErrorKind::UnsupportedProperty,
                at,
                "Unicode property has no table in this engine",
                self.pattern,
            )
        })?;
        if p.negated {
            class.negate();
        }
        Ok(class)
    }
}

/// The contents of a repeated atom: a group's inside, or the atom itself.
fn body_of(node: &Node) -> &Node {
    match &node.kind {
        NodeKind::Group(group) => &group.node,
        _ => node,
    }
}

/// Whether `node` holds a capture group that some successful path through `node` skips.
///
/// Bounded by the parser's nesting limit.
fn optional_capture(node: &Node, optional: bool) -> bool {
    match &node.kind {
        NodeKind::Group(group) => {
            (group.capture.is_some() && optional) || optional_capture(&group.node, optional)
        }
        NodeKind::Concat(nodes) => nodes.iter().any(|n| optional_capture(n, optional)),
        NodeKind::Alternation(nodes) => nodes.iter().any(|n| optional_capture(n, true)),
        NodeKind::Repeat(rep) => optional_capture(&rep.node, optional || rep.min == 0),
        _ => false,
    }
}

fn capture(slot: u32, sub: Hir) -> Hir {
    Hir::capture(hir::Capture {
        index: slot,
        name: None,
        sub: Box::new(sub),
    })
}

fn class_hir(class: ClassUnicode) -> Hir {
    Hir::class(hir::Class::Unicode(class))
}

fn ranges(list: &[(char, char)]) -> ClassUnicode {
    ClassUnicode::new(list.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)))
}

/// A range of code points without its surrogate part (well-formed text holds none).
fn range(lo: u32, hi: u32) -> ClassUnicode {
    let mut parts = Vec::with_capacity(2);
    if lo <= 0xD7FF
        && let (Some(a), Some(b)) = (char::from_u32(lo), char::from_u32(hi.min(0xD7FF)))
    {
        parts.push(ClassUnicodeRange::new(a, b));
    }
    if hi >= 0xE000
        && let (Some(a), Some(b)) = (char::from_u32(lo.max(0xE000)), char::from_u32(hi))
    {
        parts.push(ClassUnicodeRange::new(a, b));
    }
    ClassUnicode::new(parts)
}

/// `.`: everything but JavaScript's line terminators.
fn dot() -> ClassUnicode {
    let mut c = ranges(&[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]);
    c.negate();
    c
}

fn perl(p: PerlClass) -> ClassUnicode {
    let mut c = match p.kind {
        PerlKind::Digit => ranges(&[('0', '9')]),
        PerlKind::Word => ranges(&[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')]),
        // ECMAScript WhiteSpace (TAB, VT, FF, ZWNBSP, Zs) and LineTerminator (LF, CR, LS, PS).
        PerlKind::Space => ranges(&[
            ('\t', '\r'),
            (' ', ' '),
            ('\u{A0}', '\u{A0}'),
            ('\u{1680}', '\u{1680}'),
            ('\u{2000}', '\u{200A}'),
            ('\u{2028}', '\u{2029}'),
            ('\u{202F}', '\u{202F}'),
            ('\u{205F}', '\u{205F}'),
            ('\u{3000}', '\u{3000}'),
            ('\u{FEFF}', '\u{FEFF}'),
        ]),
    };
    if p.negated {
        c.negate();
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regex::parser::parse;

    fn translated(p: &str) -> Translation {
        translate(&parse(p).unwrap(), p).unwrap()
    }

    #[test]
    fn printed_hir_round_trips_through_regex_syntax() {
        for p in [
            "^Title: (.*)\nURL: (.*)",
            "[^]",
            "[]",
            "x[]",
            "\\b(caf)\\B",
            "[\\u0000-\\uFFFF]",
            "\\p{L}\\P{Lu}",
            "(?:(a)|b)+",
            "(a|(b))*?c{2,5}",
            "[^\\D\\s]",
            "$^",
            "\\u{10FFFF}[\\[\\]&&~~\\-]",
        ] {
            let t = translated(p);
            let printed = t.hir.to_string();
            let reparsed = regex_syntax::ParserBuilder::new()
                .nest_limit(1024)
                .build()
                .parse(&printed)
                .unwrap();
            assert_eq!(reparsed, t.hir, "{p} printed as {printed}");
        }
    }

    #[test]
    fn guards_only_where_a_capture_can_skip_an_iteration() {
        let t = translated("(a)+(?:(b)c)*");
        assert_eq!(
            t.groups,
            vec![
                GroupPlan {
                    slot: 1,
                    guards: vec![]
                },
                GroupPlan {
                    slot: 2,
                    guards: vec![]
                }
            ]
        );
        let t = translated("(?:(a)|b)+");
        assert_eq!(
            t.groups,
            vec![GroupPlan {
                slot: 2,
                guards: vec![1]
            }]
        );
        let t = translated("(x|(y))+");
        assert_eq!(
            t.groups[1],
            GroupPlan {
                slot: 2,
                guards: vec![1]
            }
        );
        let t = translated("(?:(?:(a)|b)*c)+");
        assert_eq!(
            t.groups,
            vec![GroupPlan {
                slot: 3,
                guards: vec![1, 2]
            }]
        );
        let t = translated("(?:(a)|b)?");
        assert_eq!(
            t.groups,
            vec![GroupPlan {
                slot: 1,
                guards: vec![]
            }]
        );
    }

    #[test]
    fn classes_have_javascript_meaning() {
        let space = perl(PerlClass {
            kind: PerlKind::Space,
            negated: false,
        });
        assert!(
            !space
                .ranges()
                .iter()
                .any(|r| r.start() <= '\u{85}' && '\u{85}' <= r.end())
        );
        let d = dot();
        assert!(
            !d.ranges()
                .iter()
                .any(|r| r.start() <= '\u{2028}' && '\u{2028}' <= r.end())
        );
        let r = range(0xD000, 0xE001);
        assert_eq!(r.ranges().len(), 2);
        assert!(range(0xD800, 0xDFFF).ranges().is_empty());
    }

    #[test]
    fn huge_counts_are_too_big() {
        let p = "(?:ab){100001}";
        let e = translate(&parse(p).unwrap(), p).unwrap_err();
        assert_eq!(e.kind(), RegexErrorKind::TooBig);
    }
}
