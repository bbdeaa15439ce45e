//! A matcher for one common shape of pattern, with the same answers as the regex engine and
//! without running it: anchored at the start, literal text, and `(.*)` groups that each end at
//! a line. The guide's `^Title: (.*)\nURL: (.*)` is one.
//!
//! Why it is exact: JavaScript's `.` matches every code point but the four line terminators
//! (`\n`, `\r`, U+2028, U+2029). A greedy `(.*)` therefore first takes the whole rest of the
//! line; the pattern only accepts a group that is followed by the end of the pattern or by a
//! literal that *starts* with a line terminator, so no shorter choice of the group could let
//! that literal match (the character there would not be a line terminator). With `^` and no
//! flags only position 0 can start a match. So one forward pass decides, with no backtracking.

use super::ast::{Assertion, Ast, NodeId, NodeKind};
use std::ops::Range;

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// This text must come next.
    Literal(String),
    /// A capture group: the rest of the current line.
    Line,
}

/// The plan of a pattern of the supported shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LinePlan {
    steps: Vec<Step>,
}

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Whether `id` is `(.*)`: a capturing group of a greedy `.*`.
fn is_line_group(ast: &Ast, id: NodeId) -> bool {
    let NodeKind::Group {
        capture: Some(_),
        child,
    } = ast.node(id).kind
    else {
        return false;
    };
    let NodeKind::Repeat(repeat) = ast.node(child).kind else {
        return false;
    };
    repeat.greedy
        && repeat.min == 0
        && repeat.max.is_none()
        && matches!(ast.node(repeat.child).kind, NodeKind::Dot)
}

impl LinePlan {
    /// The plan for `ast`, when the pattern has the supported shape (all of its groups are
    /// `(.*)`, in order).
    pub(crate) fn new(ast: &Ast) -> Option<LinePlan> {
        let NodeKind::Concat(items) = &ast.node(ast.root()).kind else {
            return None;
        };
        let (&first, rest) = items.split_first()?;
        if !matches!(ast.node(first).kind, NodeKind::Assertion(Assertion::Start)) {
            return None;
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut groups = 0;
        for &item in rest {
            match ast.node(item).kind {
                NodeKind::Literal(c) => match steps.last_mut() {
                    Some(Step::Literal(text)) => text.push(c),
                    _ => steps.push(Step::Literal(c.to_string())),
                },
                _ if is_line_group(ast, item) => {
                    groups += 1;
                    steps.push(Step::Line);
                }
                _ => return None,
            }
        }
        // Every group is followed by the end or by a literal starting with a line terminator.
        for pair in steps.windows(2) {
            if let [Step::Line, next] = pair {
                match next {
                    Step::Literal(text) if text.starts_with(is_line_terminator) => {}
                    _ => return None,
                }
            }
        }
        (groups == ast.group_count).then_some(LinePlan { steps })
    }

    /// Groups 1..n of the match at position 0, or `None`.
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Vec<&'h str>> {
        let mut ranges = Vec::new();
        self.capture_ranges(haystack, &mut ranges)
            .then(|| ranges.into_iter().map(|r| &haystack[r]).collect())
    }

    /// Appends where groups 1..n of the match at position 0 are to `out`; `false` (and `out`
    /// as it was) when there is no match.
    pub(crate) fn capture_ranges(&self, haystack: &str, out: &mut Vec<Range<usize>>) -> bool {
        let before = out.len();
        let mut at = 0;
        for step in &self.steps {
            match step {
                Step::Literal(text) => {
                    if !haystack[at..].starts_with(text.as_str()) {
                        out.truncate(before);
                        return false;
                    }
                    at += text.len();
                }
                Step::Line => {
                    let end = at + line_end(&haystack[at..]);
                    out.push(at..end);
                    at = end;
                }
            }
        }
        true
    }
}

/// The byte length of `text` up to its first line terminator (all of it when there is none).
fn line_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut from = 0;
    // \n and \r are single bytes; U+2028 and U+2029 are E2 80 A8 / E2 80 A9.
    while let Some(k) = memchr::memchr3(b'\n', b'\r', 0xE2, &bytes[from..]) {
        let at = from + k;
        if bytes[at] != 0xE2 || matches!(bytes.get(at + 1..at + 3), Some([0x80, 0xA8 | 0xA9])) {
            return at;
        }
        from = at + 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::super::{Pattern, parser};
    use super::*;
    use proptest::prelude::*;

    fn plan(pattern: &str) -> Option<LinePlan> {
        LinePlan::new(&parser::parse(pattern).unwrap())
    }

    #[test]
    fn which_patterns_have_a_plan() {
        for yes in [
            "^Title: (.*)\nURL: (.*)",
            "^(.*)",
            "^a(.*)\r\nb",
            "^key=(.*)\u{2028}(.*)",
            "^abc",
        ] {
            assert!(plan(yes).is_some(), "{yes}");
        }
        for no in [
            "Title: (.*)",
            "^(.*)x",
            "^(.*)(.*)",
            "^(.+)",
            "^(.*?)\n",
            "^(a*)",
            "^(.*)$",
            "^(?:.*)\n",
            "^[a](.*)",
        ] {
            assert!(plan(no).is_none(), "{no}");
        }
    }

    proptest! {
        #[test]
        fn the_plan_answers_like_the_regex_engine(
            pattern in prop::sample::select(vec!["^Title: (.*)\nURL: (.*)", "^(.*)", "^a(.*)\r\nb(.*)", "^x(.*)\u{2028}y", "^é(.*)\n"]),
            haystack in "(Title: |URL: |a|b|x|y|é|\n|\r|\u{2028}|\u{2029}|\u{2027}|😀|z){0,12}",
        ) {
            let p = Pattern::new(pattern).unwrap();
            prop_assert!(p.inner.lines.is_some());
            prop_assert_eq!(p.captures(&haystack), p.captures_with_engine(&haystack));
        }
    }
}
