//! From our syntax tree to a `regex` crate pattern with JavaScript's meaning for every construct.
//!
//! The user's text never reaches the `regex` crate: the pattern is generated here, node by node,
//! in a fully explicit form: every literal and class is written as `\x{…}` code points and ranges
//! (classes are computed with `regex-syntax`'s `ClassUnicode`, so `[^…]`, `\D`, `\p{…}` have their
//! JavaScript sets), every repeated atom and every alternation sits in its own `(?:…)`, and
//! assertions are spelled unambiguously (`\A`, `\z`, `(?-u:\b)`). Printing a `regex-syntax` HIR
//! instead is not safe: its printer writes `(?:a{3,5})?` as `a{3,5}?`, a lazy repetition.
//!
//! Captures inside repetitions: JavaScript clears a repeated group's captures at the start of each
//! iteration, the `regex` crate keeps the last value it saw. For every repetition whose body holds
//! a capture that may skip an iteration, a hidden capture records the last iteration's span; a
//! capture that starts before the last iteration of an enclosing repetition is stale and reads as
//! "did not take part" (`""`), as in JavaScript.

use super::ast::{Assertion, Ast, ClassItem, NodeId, NodeKind, PerlClass, PerlKind, Property};
use super::error::{RegexError, RegexErrorKind};
use super::properties;
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
use std::fmt::Write;

/// Largest count a counted repetition may have (`(?:ab){100000}`); beyond it the compiled
/// program is too big anyway, and refusing early keeps compilation fast.
pub(crate) const MAX_COUNT: u32 = 100_000;

/// How to read one user capture group out of the compiled regex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroupPlan {
    /// Capture index of the group in the compiled regex; `None` when the group sits under `{0}`
    /// and can never take part.
    pub slot: Option<u32>,
    /// Hidden or enclosing captures holding the last iteration of each repetition in which this
    /// group may not take part; the group counts only if it starts inside all of them.
    pub guards: Vec<u32>,
}

/// A translated pattern.
#[derive(Debug)]
pub(crate) struct Translation {
    /// The pattern for `::regex::RegexBuilder`.
    pub pattern: String,
    /// Plans for groups 1..n, in order.
    pub groups: Vec<GroupPlan>,
    /// Whether the pattern can match the empty string through `\B` assertions alone. V8 also
    /// tries such patterns between the two UTF-16 halves of an astral character, where `\B`
    /// holds, so it finds an empty match there.
    pub matches_mid_pair: bool,
}

pub(crate) fn translate(ast: &Ast, pattern: &str) -> Result<Translation, RegexError> {
    let mut t = Translator {
        ast,
        pattern,
        out: String::new(),
        next_slot: 1,
        groups: vec![None; ast.group_count as usize],
        frames: Vec::new(),
    };
    t.run()?;
    let groups = t
        .groups
        .into_iter()
        .map(|g| {
            // The parser numbers only groups it builds, and the walk visits every node.
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
    Ok(Translation {
        pattern: t.out,
        groups,
        matches_mid_pair: ast.props(ast.root()).empty_mid_pair,
    })
}

struct Translator<'a> {
    ast: &'a Ast,
    pattern: &'a str,
    out: String,
    /// Next capture index in the compiled regex (0 is the whole match). Allocated in the order
    /// the generated pattern opens its groups, which is how the `regex` crate numbers them.
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

/// What is left to do, in the order it is popped from the walk's stack.
enum Step {
    /// Write a node.
    Node(NodeId, Ctx),
    /// Write fixed text.
    Text(&'static str),
    /// Leave the innermost repetition frame.
    PopFrame,
    /// Write a repetition's counts and laziness.
    Counts {
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

impl Translator<'_> {
    /// Writes the whole pattern. The walk keeps its own stack of steps: a node's opening text is
    /// written when it is reached, and what comes after its children is pushed below them.
    fn run(&mut self) -> Result<(), RegexError> {
        let mut todo = vec![Step::Node(self.ast.root(), Ctx { optional_upto: 0 })];
        while let Some(step) = todo.pop() {
            match step {
                Step::Node(id, ctx) => self.node(id, ctx, &mut todo)?,
                Step::Text(text) => self.out.push_str(text),
                Step::PopFrame => {
                    self.frames.pop();
                }
                Step::Counts { min, max, greedy } => {
                    let _ = match max {
                        None => write!(self.out, "{{{min},}}"),
                        Some(max) => write!(self.out, "{{{min},{max}}}"),
                    };
                    if !greedy {
                        self.out.push('?');
                    }
                }
            }
        }
        Ok(())
    }

    fn node(&mut self, id: NodeId, ctx: Ctx, todo: &mut Vec<Step>) -> Result<(), RegexError> {
        let node = self.ast.node(id);
        match &node.kind {
            NodeKind::Empty => self.out.push_str("(?:)"),
            NodeKind::Literal(c) => push_char(&mut self.out, *c),
            NodeKind::Dot => push_class(&mut self.out, &dot()),
            NodeKind::Perl(p) => push_class(&mut self.out, &perl(*p)),
            NodeKind::Property(p) => {
                let class = self.property(*p, node.at)?;
                push_class(&mut self.out, &class);
            }
            NodeKind::Class(class) => {
                let mut set = ClassUnicode::empty();
                for item in &class.items {
                    let part = match *item {
                        ClassItem::Char(c) => ClassUnicode::new([ClassUnicodeRange::new(c, c)]),
                        ClassItem::Range(lo, hi) => range(lo, hi),
                        ClassItem::Perl(p) => perl(p),
                        ClassItem::Property(p) => self.property(p, node.at)?,
                    };
                    set.union(&part);
                }
                if class.negated {
                    set.negate();
                }
                push_class(&mut self.out, &set);
            }
            NodeKind::Assertion(a) => self.out.push_str(match a {
                Assertion::Start => r"\A",
                Assertion::End => r"\z",
                Assertion::WordBoundary => r"(?-u:\b)",
                Assertion::NotWordBoundary => r"(?-u:\B)",
            }),
            NodeKind::Group { capture, child } => {
                match capture {
                    None => self.out.push_str("(?:"),
                    Some(index) => {
                        let slot = self.capture_slot(*index, ctx);
                        self.open_capture(slot);
                    }
                }
                todo.push(Step::Text(")"));
                todo.push(Step::Node(*child, ctx));
            }
            NodeKind::Concat(items) => {
                todo.extend(items.iter().rev().map(|&item| Step::Node(item, ctx)));
            }
            NodeKind::Alternation(items) => {
                let inner = Ctx {
                    optional_upto: self.frames.len(),
                };
                self.out.push_str("(?:");
                todo.push(Step::Text(")"));
                for (i, &item) in items.iter().enumerate().rev() {
                    todo.push(Step::Node(item, inner));
                    if i > 0 {
                        todo.push(Step::Text("|"));
                    }
                }
            }
            NodeKind::Repeat(rep) => {
                let (min, max, greedy, child) = (rep.min, rep.max, rep.greedy, rep.child);
                let too_big = |n: u32| n > MAX_COUNT;
                if too_big(min) || max.is_some_and(too_big) {
                    return Err(RegexError::at(
                        RegexErrorKind::TooBig,
                        node.at,
                        &format!("a counted repetition above {MAX_COUNT} is too big to compile"),
                        self.pattern,
                    ));
                }
                let body = self.ast.props(child);
                if max.is_none_or(|max| max > min) && body.nullable && body.consumes {
                    return Err(RegexError::at(
                        RegexErrorKind::EmptyIteration,
                        node.at,
                        "an optional repetition of something that can match both empty and non-empty text (like (a*)?, (\\p{L}?){2,3} \
                         or (?:x{0}|y)+) can match differently in JavaScript, which skips empty optional iterations; make the \
                         repeated part non-empty (write (a+)? for (a*)?)",
                        self.pattern,
                    ));
                }
                // JavaScript refuses an optional iteration that matches empty text, so a body
                // that can match nothing else (`[]*`, `\b`) never iterates past `min`: with
                // `min` 0 it is `x{0}`.
                if max == Some(0) || (min == 0 && !body.consumes) {
                    // `x{0}` matches the empty string; its groups never take part.
                    self.never_participate(child);
                    self.out.push_str("(?:)");
                    return Ok(());
                }
                let ctx = if min == 0 {
                    Ctx {
                        optional_upto: self.frames.len(),
                    }
                } else {
                    ctx
                };
                let iterates = max.is_none_or(|m| m > 1);
                self.out.push_str("(?:");
                todo.push(Step::Counts { min, max, greedy });
                todo.push(Step::Text(")"));
                if iterates && body.skips_capture {
                    // The last iteration's span is kept in a capture (the frame's guard): a
                    // repeated capture group already records it, anything else gets a hidden one.
                    let (slot, inside) = match self.ast.node(child).kind {
                        NodeKind::Group {
                            capture: Some(index),
                            child: inside,
                        } => (self.capture_slot(index, ctx), inside),
                        _ => {
                            let slot = self.next_slot;
                            self.next_slot += 1;
                            (slot, child)
                        }
                    };
                    self.open_capture(slot);
                    self.frames.push(slot);
                    todo.push(Step::Text(")"));
                    todo.push(Step::PopFrame);
                    todo.push(Step::Node(inside, ctx));
                } else {
                    todo.push(Step::Node(child, ctx));
                }
            }
        }
        Ok(())
    }

    /// Writes `(` for capture `slot`; slots are handed out in writing order, so this is a check.
    fn open_capture(&mut self, slot: u32) {
        debug_assert_eq!(slot + 1, self.next_slot);
        self.out.push('(');
    }

    fn capture_slot(&mut self, index: u32, ctx: Ctx) -> u32 {
        let slot = self.next_slot;
        self.next_slot += 1;
        if let Some(entry) = self.groups.get_mut(index as usize - 1) {
            *entry = Some(GroupPlan {
                slot: Some(slot),
                guards: self.frames[..ctx.optional_upto].to_vec(),
            });
        }
        slot
    }

    /// Records every capture group in `id`'s subtree (a contiguous run of nodes) as never
    /// taking part.
    fn never_participate(&mut self, id: NodeId) {
        let first = self.ast.props(id).first;
        for node in &self.ast.nodes[first..=id] {
            if let NodeKind::Group {
                capture: Some(index),
                ..
            } = node.kind
                && let Some(entry) = self.groups.get_mut(index as usize - 1)
            {
                *entry = Some(GroupPlan {
                    slot: None,
                    guards: Vec::new(),
                });
            }
        }
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

fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
    }
}

fn push_class(out: &mut String, class: &ClassUnicode) {
    if class.ranges().is_empty() {
        // An empty class never matches; `regex` spells it as an empty intersection.
        out.push_str("[a&&b]");
        return;
    }
    out.push('[');
    for r in class.ranges() {
        push_char(out, r.start());
        if r.end() != r.start() {
            out.push('-');
            push_char(out, r.end());
        }
    }
    out.push(']');
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
    fn generated_patterns_are_explicit() {
        assert_eq!(translated("(?:a{3,5})?").pattern, "(?:(?:(?:a){3,5})){0,1}");
        assert_eq!(
            translated("^a|b.$").pattern,
            r"(?:\Aa|b[\x{0}-\x{9}\x{B}-\x{C}\x{E}-\x{2027}\x{202A}-\x{10FFFF}]\z)"
        );
        assert_eq!(translated("x[]").pattern, "x[a&&b]");
        assert_eq!(translated("[^]").pattern, r"[\x{0}-\x{10FFFF}]");
        assert_eq!(
            translated("\\b\\Ba+?").pattern,
            r"(?-u:\b)(?-u:\B)(?:a){1,}?"
        );
    }

    #[test]
    fn every_generated_pattern_compiles() {
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
            "(a){0}(b)",
        ] {
            let t = translated(p);
            assert!(
                ::regex::Regex::new(&t.pattern).is_ok(),
                "{p} as {}",
                t.pattern
            );
        }
    }

    #[test]
    fn guards_only_where_a_capture_can_skip_an_iteration() {
        let plan = |slot: u32, guards: &[u32]| GroupPlan {
            slot: Some(slot),
            guards: guards.to_vec(),
        };
        assert_eq!(
            translated("(a)+(?:(b)c)*").groups,
            vec![plan(1, &[]), plan(2, &[])]
        );
        assert_eq!(translated("(?:(a)|b)+").groups, vec![plan(2, &[1])]);
        assert_eq!(translated("(x|(y))+").groups[1], plan(2, &[1]));
        assert_eq!(
            translated("(?:(?:(a)|b)*c)+").groups,
            vec![plan(3, &[1, 2])]
        );
        assert_eq!(translated("(?:(a)|b)?").groups, vec![plan(1, &[])]);
        let t = translated("(.|Z){0}(.)");
        assert_eq!(
            t.groups,
            vec![
                GroupPlan {
                    slot: None,
                    guards: vec![]
                },
                plan(1, &[])
            ]
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
        assert_eq!(range(0xD000, 0xE001).ranges().len(), 2);
        assert!(range(0xD800, 0xDFFF).ranges().is_empty());
    }

    #[test]
    fn huge_counts_are_too_big() {
        let p = "(?:ab){100001}";
        let e = translate(&parse(p).unwrap(), p).unwrap_err();
        assert_eq!(e.kind(), RegexErrorKind::TooBig);
    }
}
