//! The basic catalog's safety check (`isSafeRegex`), reproduced verdict for verdict.
//!
//! The check has its own small tokenizer over UTF-16 code units, deliberately simpler than the
//! parser: `\b` is the letter `b`, `\u{61}` is `u` repeated 61 times, a class is its raw text.
//! Those quirks decide verdicts in the reference implementation, so they are kept: a payload that
//! one renderer refuses, every renderer refuses. It runs only on patterns the parser accepted.
//! The rules are stated in `docs/regex-dialect.md` ("The safety check").
//!
//! The tokenizer reads the pattern once, left to right, keeping the groups that are open on a
//! stack. Everything the check asks about a group (its summary, whether a quantifier sits
//! anywhere inside, whether its branches are unsafe when checked inside a repetition or not) is
//! decided when its `)` is read, from its branches' elements and their own, already decided,
//! facts. So the check never walks the nesting of the pattern.

/// Longest pattern, in UTF-16 code units, that can be safe.
pub(crate) const MAX_LEN: usize = 256;

/// Deepest group nesting the tokenizer follows; deeper is "internal failure", hence unsafe.
/// (A pattern of 256 code units nests at most 128 groups.)
const MAX_DEPTH: usize = 256;

/// The verdict of the reference check for a syntactically valid pattern.
pub(crate) fn is_safe(pattern: &str) -> bool {
    if pattern.is_empty() {
        return true;
    }
    let units: Vec<u16> = pattern.encode_utf16().collect();
    if units.len() > MAX_LEN {
        return false;
    }
    Tokenizer {
        units: &units,
        pos: 0,
    }
    .top_level()
    .is_some_and(|top| !top.unsafe_when[0])
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Quant {
    min: f64,
    max: f64,
}

impl Quant {
    /// Whether the quantifier repeats (its maximum is above 1).
    fn repeats(self) -> bool {
        self.max > 1.0
    }

    /// Whether it counts for "has a descendant quantifier": it repeats, or it is not a fixed
    /// count (so `?` counts).
    fn varies(self) -> bool {
        self.max > 1.0 || self.min != self.max
    }
}

/// An element that is not a group.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Leaf<'a> {
    Literal(u16),
    /// `d w s D W S`, or `.` (anything).
    Escape(u16),
    /// `[…]` and its raw content, escape pairs as written.
    Class {
        negated: bool,
        raw: &'a [u16],
    },
}

#[derive(Debug, Clone, Copy)]
enum Elem<'a> {
    Leaf(Leaf<'a>),
    Group(Group<'a>),
    Anchor,
}

#[derive(Debug, Clone, Copy)]
struct Item<'a> {
    elem: Elem<'a>,
    quant: Option<Quant>,
}

/// First-element summary of a branch: the element, looking through groups into their first
/// branch; `None` is "anything" (an empty branch, or one that starts with an anchor).
type Summary<'a> = Option<Leaf<'a>>;

/// What the check needs to know about a group, or about the whole pattern's branches.
#[derive(Debug, Clone, Copy)]
struct Group<'a> {
    /// Some element of some branch, at any depth, has a quantifier that varies.
    descendant_quantifier: bool,
    /// Every branch has a disjoint separator.
    disjoint_separator: bool,
    /// It has more than one branch and two of them overlap.
    overlapping_branches: bool,
    /// The summary of its first branch.
    summary: Summary<'a>,
    /// Whether some branch is unsafe when checked with `inside` false (`[0]`) or true (`[1]`).
    unsafe_when: [bool; 2],
}

/// The branches of a group (or of the pattern) read so far, and the current one's elements.
struct Open<'a> {
    descendant_quantifier: bool,
    disjoint_separator: bool,
    summaries: Vec<Summary<'a>>,
    unsafe_when: [bool; 2],
    items: Vec<Item<'a>>,
}

impl Open<'_> {
    fn new() -> Self {
        Open {
            descendant_quantifier: false,
            disjoint_separator: true,
            summaries: Vec::new(),
            unsafe_when: [false; 2],
            items: Vec::new(),
        }
    }
}

const fn u(c: char) -> u16 {
    c as u16
}

struct Tokenizer<'a> {
    units: &'a [u16],
    pos: usize,
}

impl<'a> Tokenizer<'a> {
    fn peek(&self) -> Option<u16> {
        self.units.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<u16> {
        self.units.get(i).copied()
    }

    /// Reads the pattern and returns the facts of its top-level branches; `None` on an internal
    /// failure (nesting beyond [`MAX_DEPTH`]).
    fn top_level(&mut self) -> Option<Group<'a>> {
        let mut stack = vec![Open::new()];
        while let Some(c) = self.peek() {
            if c == u('|') {
                self.pos += 1;
                end_branch(stack.last_mut()?);
            } else if c == u(')') {
                if stack.len() == 1 {
                    // Nothing is open: the reference stops reading here.
                    break;
                }
                self.pos += 1;
                self.close_group(&mut stack)?;
            } else if c == u('(') {
                self.open_group();
                if stack.len() > MAX_DEPTH {
                    return None;
                }
                stack.push(Open::new());
            } else {
                let item = self.leaf_item(c);
                stack.last_mut()?.items.push(item);
            }
        }
        // Groups still open at the end close there, with no quantifier.
        while stack.len() > 1 {
            self.close_group(&mut stack)?;
        }
        stack.pop().map(finish)
    }

    /// Skips a group's `(` and prefix: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>` (to the
    /// `>`), and for any other `(?x` just the `?`.
    fn open_group(&mut self) {
        self.pos += 1;
        if self.peek() != Some(u('?')) {
            return;
        }
        let next = self.at(self.pos + 1);
        let after = self.at(self.pos + 2);
        if next == Some(u(':')) || next == Some(u('=')) || next == Some(u('!')) {
            self.pos += 2;
        } else if next == Some(u('<')) && (after == Some(u('=')) || after == Some(u('!'))) {
            self.pos += 3;
        } else if next == Some(u('<')) {
            while let Some(x) = self.peek() {
                self.pos += 1;
                if x == u('>') {
                    break;
                }
            }
        } else {
            self.pos += 1;
        }
    }

    /// Closes the innermost open group (its `)`, if any, already read) into an element of the
    /// enclosing one, with the quantifier that follows.
    fn close_group(&mut self, stack: &mut Vec<Open<'a>>) -> Option<()> {
        let group = finish(stack.pop()?);
        let quant = self.quantifier();
        stack.last_mut()?.items.push(Item {
            elem: Elem::Group(group),
            quant,
        });
        Some(())
    }

    /// An element that is not a group, and its quantifier.
    fn leaf_item(&mut self, c: u16) -> Item<'a> {
        let leaf = if c == u('[') {
            self.pos += 1;
            let negated = self.peek() == Some(u('^'));
            if negated {
                self.pos += 1;
            }
            let start = self.pos;
            let end = loop {
                match self.peek() {
                    None => break self.pos,
                    Some(x) if x == u('\\') => {
                        self.pos += 1;
                        if self.peek().is_some() {
                            self.pos += 1;
                        }
                    }
                    Some(x) if x == u(']') => {
                        self.pos += 1;
                        break self.pos - 1;
                    }
                    Some(_) => self.pos += 1,
                }
            };
            Leaf::Class {
                negated,
                raw: &self.units[start..end],
            }
        } else if c == u('\\') {
            self.pos += 1;
            match self.peek() {
                Some(e) => {
                    self.pos += 1;
                    if [u('d'), u('w'), u('s'), u('D'), u('W'), u('S')].contains(&e) {
                        Leaf::Escape(e)
                    } else {
                        Leaf::Literal(e)
                    }
                }
                None => Leaf::Literal(c),
            }
        } else if c == u('^') || c == u('$') {
            self.pos += 1;
            return Item {
                elem: Elem::Anchor,
                quant: None,
            };
        } else if c == u('.') {
            self.pos += 1;
            Leaf::Escape(u('.'))
        } else {
            self.pos += 1;
            Leaf::Literal(c)
        };
        let quant = self.quantifier();
        Item {
            elem: Elem::Leaf(leaf),
            quant,
        }
    }

    fn quantifier(&mut self) -> Option<Quant> {
        let c = self.peek()?;
        let q = if c == u('*') {
            self.pos += 1;
            Quant {
                min: 0.0,
                max: f64::INFINITY,
            }
        } else if c == u('+') {
            self.pos += 1;
            Quant {
                min: 1.0,
                max: f64::INFINITY,
            }
        } else if c == u('?') {
            self.pos += 1;
            Quant { min: 0.0, max: 1.0 }
        } else if c == u('{') {
            let close = self.units[self.pos..].iter().position(|&x| x == u('}'))? + self.pos;
            let body = &self.units[self.pos + 1..close];
            let (min, max) = match body.iter().position(|&x| x == u(',')) {
                None => {
                    let n = parse_int(body)?;
                    (n, n)
                }
                Some(comma) => {
                    let min = parse_int(&body[..comma])?;
                    let rest = &body[comma + 1..];
                    let max = if rest.is_empty() {
                        f64::INFINITY
                    } else {
                        parse_int(rest)?
                    };
                    (min, max)
                }
            };
            self.pos = close + 1;
            Quant { min, max }
        } else {
            return None;
        };
        if self.peek() == Some(u('?')) {
            self.pos += 1;
        }
        Some(q)
    }
}

/// Ends the last branch of `open` and decides the facts of all its branches.
fn finish(mut open: Open<'_>) -> Group<'_> {
    end_branch(&mut open);
    let s = &open.summaries;
    let overlapping_branches =
        (0..s.len()).any(|i| (i + 1..s.len()).any(|j| summaries_overlap(s[i], s[j])));
    Group {
        descendant_quantifier: open.descendant_quantifier,
        disjoint_separator: open.disjoint_separator,
        overlapping_branches,
        summary: s.first().copied().flatten(),
        unsafe_when: open.unsafe_when,
    }
}

/// Ends the current branch of `open`: folds its facts into the group's.
fn end_branch(open: &mut Open<'_>) {
    let items = std::mem::take(&mut open.items);
    open.descendant_quantifier |= items.iter().any(|item| {
        item.quant.is_some_and(Quant::varies)
            || matches!(item.elem, Elem::Group(g) if g.descendant_quantifier)
    });
    open.disjoint_separator &= has_disjoint_separator(&items);
    open.summaries
        .push(match items.first().map(|item| item.elem) {
            Some(Elem::Leaf(leaf)) => Some(leaf),
            Some(Elem::Group(g)) => g.summary,
            Some(Elem::Anchor) | None => None,
        });
    for inside in [false, true] {
        open.unsafe_when[usize::from(inside)] |= sequence_unsafe(&items, inside);
    }
}

/// Whether element `item` is unsafe, checked with `inside`.
fn item_unsafe(item: &Item<'_>, inside: bool) -> bool {
    let repeating = item.quant.filter(|q| q.repeats());
    match item.elem {
        Elem::Group(g) => {
            let q = repeating.is_some();
            let d = q && g.disjoint_separator;
            if q && (inside || (g.descendant_quantifier && !d) || g.overlapping_branches) {
                return true;
            }
            let inner = !d && (inside || q);
            g.unsafe_when[usize::from(inner)]
        }
        Elem::Anchor => false,
        Elem::Leaf(_) => repeating
            .is_some_and(|q| inside || q.min > 1000.0 || (q.max.is_finite() && q.max > 1000.0)),
    }
}

/// Whether a branch is unsafe, checked with `inside`: one of its elements is. (The reference also
/// refuses two adjacent repetitions that overlap when `inside`, as in `(x+x+)+`; but when
/// `inside`, every repetition is refused on its own, so that rule never decides a verdict.)
fn sequence_unsafe(items: &[Item<'_>], inside: bool) -> bool {
    items.iter().any(|item| item_unsafe(item, inside))
}

fn can_match(elem: &Elem<'_>, c: u16) -> bool {
    match *elem {
        Elem::Leaf(Leaf::Literal(l)) => l == c,
        Elem::Leaf(Leaf::Class { negated, raw }) => class_matches(negated, raw, c),
        Elem::Leaf(Leaf::Escape(e)) => escape_matches(e, c),
        Elem::Group(_) => true,
        Elem::Anchor => false,
    }
}

/// Whether a branch has at least two elements and a separator character that no other
/// quantified element of the branch can match.
fn has_disjoint_separator(branch: &[Item<'_>]) -> bool {
    if branch.len() < 2 {
        return false;
    }
    let Some((at, c)) = separator(branch) else {
        return false;
    };
    branch
        .iter()
        .enumerate()
        .all(|(i, item)| i == at || item.quant.is_none() || !can_match(&item.elem, c))
}

fn summaries_overlap(a: Summary<'_>, b: Summary<'_>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    let dot = |l: Leaf<'_>| l == Leaf::Escape(u('.'));
    if dot(a) || dot(b) {
        return true;
    }
    // The reference's rule: an empty class overlaps only non-empty classes (and anything, and `.`).
    let empty_class = |l: Leaf<'_>| matches!(l, Leaf::Class { raw, .. } if raw.is_empty());
    if empty_class(a) || empty_class(b) {
        let other = if empty_class(a) { b } else { a };
        return matches!(other, Leaf::Class { .. }) && !empty_class(other);
    }
    match (a, b) {
        (Leaf::Literal(x), Leaf::Literal(y)) => x == y,
        (Leaf::Literal(l), Leaf::Escape(e)) | (Leaf::Escape(e), Leaf::Literal(l)) => {
            escape_matches(e, l)
        }
        (Leaf::Escape(x), Leaf::Escape(y)) => {
            x == y || (x == u('w') && y == u('d')) || (x == u('d') && y == u('w'))
        }
        (Leaf::Literal(l), Leaf::Class { negated, raw })
        | (Leaf::Class { negated, raw }, Leaf::Literal(l)) => class_matches(negated, raw, l),
        (Leaf::Class { .. }, _) | (_, Leaf::Class { .. }) => true,
    }
}

/// JavaScript `parseInt(text, 10)` restricted to what a valid pattern can hold between braces:
/// a prefix of decimal digits is enough, none is `NaN` (here `None`).
fn parse_int(text: &[u16]) -> Option<f64> {
    let mut value: Option<f64> = None;
    for &c in text {
        if !(u('0')..=u('9')).contains(&c) {
            break;
        }
        value = Some(value.unwrap_or(0.0) * 10.0 + f64::from(c - u('0')));
    }
    value
}

fn is_digit(c: u16) -> bool {
    (u('0')..=u('9')).contains(&c)
}

fn is_word(c: u16) -> bool {
    is_digit(c) || (u('a')..=u('z')).contains(&c) || (u('A')..=u('Z')).contains(&c) || c == u('_')
}

/// JavaScript `\s` on one code unit.
fn is_space(c: u16) -> bool {
    matches!(
        c,
        0x09..=0x0D
            | 0x20
            | 0xA0
            | 0x1680
            | 0x2000..=0x200A
            | 0x2028
            | 0x2029
            | 0x202F
            | 0x205F
            | 0x3000
            | 0xFEFF
    )
}

/// `\d`, `\w`, `\s` test their set and, as in the reference, also their own letter;
/// any other letter compares equal. The class scan and escape elements share this.
fn perl_or_letter_matches(e: u16, c: u16) -> bool {
    let set = if e == u('d') {
        is_digit(c)
    } else if e == u('w') {
        is_word(c)
    } else if e == u('s') {
        is_space(c)
    } else {
        false
    };
    set || e == c
}

/// Whether a class with raw content `raw` can match `c`: `\x` pairs as escapes (above), `a-b` a
/// range when two more units follow, anything else itself; inverted when negated.
fn class_matches(negated: bool, raw: &[u16], c: u16) -> bool {
    let mut found = false;
    let mut i = 0;
    while i < raw.len() {
        let x = raw[i];
        if x == u('\\') && i + 1 < raw.len() {
            found |= perl_or_letter_matches(raw[i + 1], c);
            i += 2;
        } else if i + 2 < raw.len() && raw[i + 1] == u('-') {
            found |= x <= c && c <= raw[i + 2];
            i += 3;
        } else {
            found |= x == c;
            i += 1;
        }
    }
    found != negated
}

/// Escape elements: `.` is anything, the rest as in a class.
fn escape_matches(e: u16, c: u16) -> bool {
    e == u('.') || perl_or_letter_matches(e, c)
}

/// The separator of a branch: its first element, else its last, if that element is an
/// unquantified literal, or an unquantified escape other than `d`, `w`, `s`, `.`.
fn separator(branch: &[Item<'_>]) -> Option<(usize, u16)> {
    let qualifies = |item: &Item<'_>| -> Option<u16> {
        if item.quant.is_some() {
            return None;
        }
        match item.elem {
            Elem::Leaf(Leaf::Literal(l)) => Some(l),
            Elem::Leaf(Leaf::Escape(e)) if ![u('d'), u('w'), u('s'), u('.')].contains(&e) => {
                Some(e)
            }
            _ => None,
        }
    };
    let first = branch.first().and_then(qualifies).map(|c| (0, c));
    first.or_else(|| {
        let last = branch.len().checked_sub(1)?;
        branch.last().and_then(qualifies).map(|c| (last, c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_unsafe_verdicts() {
        for p in [
            "(a+)+b",
            "(a+)+",
            "((a+)+)+",
            "(\\d+)+",
            "([a-z]+)+",
            "(a*)*b",
            "(a*)*",
            "([a-zA-Z]+)*$",
            "(?:[0-9]+)+",
            "(a{1,}){2,}",
            "(a+){2,}",
            "(a{2,})+",
            "(a|aa)+$",
            "(a|a+)+$",
            "(\\d|\\w)+",
            "(a|b|ab)+$",
            "(x+x+)+y",
            "(\\d+\\d+)+",
            "(a|.)+",
            "(a|.)+$",
            "(.|a)+",
            "(.*)+",
            "(.+)+",
            "(aa+)*",
            "(a+a)*",
            "(1\\d+)*",
            &"a".repeat(257),
        ] {
            assert!(!is_safe(p), "{p} should be unsafe");
        }
    }

    #[test]
    fn reference_safe_verdicts() {
        for p in [
            "^[a-z]+$",
            "^[0-9]+$",
            "^[a-zA-Z0-9_]+$",
            "^[a-zA-Z0-9_-]{3,16}$",
            "^[a-fA-F0-9]{32}$",
            "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9-]+\\.[a-zA-Z]{2,}$",
            "^https?://[^\\s/$.?#].[^\\s]*$",
            "^\\+?[1-9]\\d{1,14}$",
            "^\\d{5}$",
            "^\\d{5}(-\\d{4})?$",
            "^\\d{4}-\\d{2}-\\d{2}$",
            "^\\d{2}:\\d{2}(:\\d{2})?$",
            "^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$",
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
            "^[a-z]+(,[a-z]+)*$",
            "^(\\d{1,3}\\.){3}\\d{1,3}$",
            "^\\d+(\\.\\d+)?$",
            "^\\$\\d+(\\.\\d{2})?$",
            "",
            &"a".repeat(256),
        ] {
            assert!(is_safe(p), "{p} should be safe");
        }
    }

    #[test]
    fn quirks() {
        // UTF-16 code units.
        assert!(is_safe("(?:😀+😀+)+"));
        assert!(!is_safe("(?:😀|😁)+"));
        assert!(is_safe(&"😀".repeat(128)));
        assert!(!is_safe(&"😀".repeat(129)));
        // A leading anchor summarises as anything.
        assert!(!is_safe("(^a|b)+"));
        assert!(is_safe("(a|b)+"));
        // Empty classes.
        assert!(is_safe("([^]|a)+"));
        assert!(!is_safe("([^]|.)+"));
        assert!(!is_safe("([^]|[a])+"));
        // \d matches d, as an escape and in a class (then a negated class does not).
        assert!(!is_safe("(d|\\d)+"));
        assert!(is_safe("(e|\\d)+"));
        assert!(!is_safe("(d[\\d]+)*"));
        assert!(!is_safe("(s[\\s]+)*"));
        assert!(!is_safe("(d|[\\d])+"));
        assert!(is_safe("(e[\\d]+)*"));
        assert!(is_safe("(d[^\\d]+)*"));
        assert!(!is_safe("(e[^\\d]+)*"));
        // parseInt counts and no knowledge of \u{…}, \p{…}, \cX.
        assert!(!is_safe("(?:\\u{61}b+)+"));
        assert!(!is_safe("(?:\\cJ\\w+)+"));
        assert!(is_safe("(?:ab+)+"));
        assert!(!is_safe("\\u{1001}"));
        assert!(is_safe("\\u{1000}"));
        assert!(is_safe("\\p{L}+"));
    }

    /// Every example of docs/regex-dialect.md's "The safety check".
    #[test]
    fn the_documented_examples() {
        for p in [
            "(a|ab)+",
            "(\\d|\\w)+",
            "(^a|b)+",
            "(a+)+",
            "((ab)+)+",
            "(a?b?)+",
            "(a{2})+",
            "(d[\\d]+)*",
            "a{1001}",
            "a{0,1001}",
            "(?:😀|😁)+",
            "(?:\\u{61}b+)+",
            "(d|\\d)+",
            "(s[\\s]+)*",
        ] {
            assert!(!is_safe(p), "{p} should be unsafe");
        }
        for p in [
            "(,[a-z]+)*",
            "(\\.\\d+)*",
            "(\\d{1,3}\\.){3}",
            "(?:ab+)+",
            "(e[\\d]+)*",
            "([^]|a)+",
        ] {
            assert!(is_safe(p), "{p} should be safe");
        }
    }

    #[test]
    fn limits_and_disjoint_separators() {
        assert!(!is_safe("a{1001}"));
        assert!(!is_safe("a{0,1001}"));
        assert!(is_safe("a{1000}"));
        assert!(is_safe("(?:,a*)*"));
        assert!(!is_safe("(?:a,a*)*"));
        assert!(!is_safe("(\\d{1,3}\\.?){4}"));
        assert!(!is_safe("(\\w+\\s?)+$"));
        assert!(!is_safe("(.*a){12}"));
        assert!(!is_safe("^(\\d+,?)+$"));
        assert!(is_safe("([a-z]+\\.)+com"));
        assert!(is_safe("([a-z]+-)*[a-z]+"));
        assert!(is_safe("^(\\D\\d+)+$"));
    }
}
