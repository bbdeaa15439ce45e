//! The basic catalog's `isSafeRegex`, reproduced verdict for verdict (regex-dialect.md §2).
//!
//! It has its own small tokenizer over UTF-16 code units, deliberately simpler than the parser
//! (`\b` is the letter `b`, `\u{61}` is `u` repeated 61 times): those quirks decide verdicts in the
//! reference implementation, so they are kept. It runs only on patterns the parser accepted.

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
    let mut t = Tokenizer {
        units: &units,
        pos: 0,
    };
    let Some(branches) = t.branches(0) else {
        return false;
    };
    branches.iter().all(|b| safe_sequence(b, false))
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Quant {
    min: f64,
    max: f64,
}

impl Quant {
    fn repeats(self) -> bool {
        self.max > 1.0
    }
}

#[derive(Debug)]
enum Elem {
    Group(Vec<Vec<Item>>),
    Class {
        negated: bool,
        raw: Vec<u16>,
    },
    /// `d w s D W S` or `.` (anything).
    Escape(u16),
    Literal(u16),
    Anchor,
}

#[derive(Debug)]
struct Item {
    elem: Elem,
    quant: Option<Quant>,
}

const fn u(c: char) -> u16 {
    c as u16
}

struct Tokenizer<'a> {
    units: &'a [u16],
    pos: usize,
}

impl Tokenizer<'_> {
    fn peek(&self) -> Option<u16> {
        self.units.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<u16> {
        self.units.get(i).copied()
    }

    /// Branches up to the end or a `)` (left for the caller).
    fn branches(&mut self, depth: usize) -> Option<Vec<Vec<Item>>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut branches = vec![Vec::new()];
        while let Some(c) = self.peek() {
            if c == u('|') {
                self.pos += 1;
                branches.push(Vec::new());
                continue;
            }
            if c == u(')') {
                break;
            }
            let item = self.element(depth)?;
            branches.last_mut()?.push(item);
        }
        Some(branches)
    }

    fn element(&mut self, depth: usize) -> Option<Item> {
        let c = self.peek()?;
        let elem = if c == u('(') {
            self.pos += 1;
            if self.peek() == Some(u('?')) {
                let next = self.at(self.pos + 1);
                let after = self.at(self.pos + 2);
                if next == Some(u(':')) || next == Some(u('=')) || next == Some(u('!')) {
                    self.pos += 2;
                } else if next == Some(u('<')) && (after == Some(u('=')) || after == Some(u('!'))) {
                    self.pos += 3;
                } else if next == Some(u('<')) {
                    // A named group: skip the name through `>`.
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
            let branches = self.branches(depth + 1)?;
            if self.peek() == Some(u(')')) {
                self.pos += 1;
            }
            Elem::Group(branches)
        } else if c == u('[') {
            self.pos += 1;
            let negated = self.peek() == Some(u('^'));
            if negated {
                self.pos += 1;
            }
            let mut raw = Vec::new();
            while let Some(x) = self.peek() {
                if x == u('\\') {
                    raw.push(x);
                    self.pos += 1;
                    if let Some(y) = self.peek() {
                        raw.push(y);
                        self.pos += 1;
                    }
                    continue;
                }
                self.pos += 1;
                if x == u(']') {
                    break;
                }
                raw.push(x);
            }
            Elem::Class { negated, raw }
        } else if c == u('\\') {
            self.pos += 1;
            match self.peek() {
                Some(e) => {
                    self.pos += 1;
                    if [u('d'), u('w'), u('s'), u('D'), u('W'), u('S')].contains(&e) {
                        Elem::Escape(e)
                    } else {
                        Elem::Literal(e)
                    }
                }
                None => Elem::Literal(c),
            }
        } else if c == u('^') || c == u('$') {
            self.pos += 1;
            return Some(Item {
                elem: Elem::Anchor,
                quant: None,
            });
        } else if c == u('.') {
            self.pos += 1;
            Elem::Escape(u('.'))
        } else {
            self.pos += 1;
            Elem::Literal(c)
        };
        let quant = self.quantifier();
        Some(Item { elem, quant })
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

fn class_matches(negated: bool, raw: &[u16], c: u16) -> bool {
    let mut found = false;
    let mut i = 0;
    while i < raw.len() {
        let x = raw[i];
        if x == u('\\') && i + 1 < raw.len() {
            let e = raw[i + 1];
            let hit = if e == u('d') {
                is_digit(c)
            } else if e == u('w') {
                is_word(c)
            } else if e == u('s') {
                is_space(c)
            } else {
                e == c
            };
            found |= hit;
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

/// Escape elements: `.` is anything; `d w s` test their set and, a quirk of the reference (Q4),
/// also their own letter; any other letter compares equal.
fn escape_matches(e: u16, c: u16) -> bool {
    if e == u('.') {
        return true;
    }
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

fn can_match(elem: &Elem, c: u16) -> bool {
    match elem {
        Elem::Literal(l) => *l == c,
        Elem::Class { negated, raw } => class_matches(*negated, raw, c),
        Elem::Escape(e) => escape_matches(*e, c),
        Elem::Group(_) => true,
        Elem::Anchor => false,
    }
}

fn has_descendant_quantifier(branches: &[Vec<Item>]) -> bool {
    branches.iter().flatten().any(|item| {
        item.quant.is_some_and(|q| q.max > 1.0 || q.min != q.max)
            || matches!(&item.elem, Elem::Group(inner) if has_descendant_quantifier(inner))
    })
}

fn separator(branch: &[Item]) -> Option<(usize, u16)> {
    let qualifies = |item: &Item| -> Option<u16> {
        if item.quant.is_some() {
            return None;
        }
        match item.elem {
            Elem::Literal(l) => Some(l),
            Elem::Escape(e) if ![u('d'), u('w'), u('s'), u('.')].contains(&e) => Some(e),
            _ => None,
        }
    };
    let first = branch.first().and_then(qualifies).map(|c| (0, c));
    first.or_else(|| {
        let last = branch.len().checked_sub(1)?;
        branch.last().and_then(qualifies).map(|c| (last, c))
    })
}

fn has_disjoint_separator(branches: &[Vec<Item>]) -> bool {
    branches.iter().all(|branch| {
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
    })
}

/// First-element summary of a branch.
enum Summary<'a> {
    Anything,
    Elem(&'a Elem),
}

fn summary(branch: &[Item]) -> Summary<'_> {
    match branch.first() {
        None => Summary::Anything,
        Some(item) => match &item.elem {
            Elem::Group(inner) => match inner.first() {
                Some(b) => summary(b),
                None => Summary::Anything,
            },
            Elem::Anchor => Summary::Anything,
            e => Summary::Elem(e),
        },
    }
}

fn summaries_overlap(a: &Summary<'_>, b: &Summary<'_>) -> bool {
    let (a, b) = match (a, b) {
        (Summary::Anything, _) | (_, Summary::Anything) => return true,
        (Summary::Elem(a), Summary::Elem(b)) => (*a, *b),
    };
    let dot = |e: &Elem| matches!(e, Elem::Escape(x) if *x == u('.'));
    if dot(a) || dot(b) {
        return true;
    }
    let empty_class = |e: &Elem| matches!(e, Elem::Class { raw, .. } if raw.is_empty());
    let class = |e: &Elem| matches!(e, Elem::Class { .. });
    if empty_class(a) || empty_class(b) {
        let other = if empty_class(a) { b } else { a };
        return class(other) && !empty_class(other);
    }
    match (a, b) {
        (Elem::Literal(x), Elem::Literal(y)) => x == y,
        (Elem::Literal(l), Elem::Escape(e)) | (Elem::Escape(e), Elem::Literal(l)) => {
            escape_matches(*e, *l)
        }
        (Elem::Escape(x), Elem::Escape(y)) => {
            x == y || (*x == u('w') && *y == u('d')) || (*x == u('d') && *y == u('w'))
        }
        (Elem::Literal(l), Elem::Class { negated, raw })
        | (Elem::Class { negated, raw }, Elem::Literal(l)) => class_matches(*negated, raw, *l),
        (Elem::Class { .. }, _) | (_, Elem::Class { .. }) => true,
        _ => false,
    }
}

fn nodes_overlap(a: &Elem, b: &Elem) -> bool {
    !matches!((a, b), (Elem::Literal(x), Elem::Literal(y)) if x != y)
}

fn safe_sequence(items: &[Item], inside: bool) -> bool {
    if !items.iter().all(|item| safe_item(item, inside)) {
        return false;
    }
    if inside {
        let repeats = |i: &Item| i.quant.is_some_and(Quant::repeats);
        for w in items.windows(2) {
            if repeats(&w[0]) && repeats(&w[1]) && nodes_overlap(&w[0].elem, &w[1].elem) {
                return false;
            }
        }
    }
    true
}

fn safe_item(item: &Item, inside: bool) -> bool {
    let repeating = item.quant.filter(|q| q.repeats());
    match &item.elem {
        Elem::Group(branches) => {
            let q = repeating.is_some();
            let d = q && has_disjoint_separator(branches);
            if q && inside {
                return false;
            }
            if q && has_descendant_quantifier(branches) && !d {
                return false;
            }
            if q && branches.len() > 1 {
                let sums: Vec<Summary<'_>> = branches.iter().map(|b| summary(b)).collect();
                for i in 0..sums.len() {
                    for j in i + 1..sums.len() {
                        if summaries_overlap(&sums[i], &sums[j]) {
                            return false;
                        }
                    }
                }
            }
            let inner = if d { false } else { inside || q };
            branches.iter().all(|b| safe_sequence(b, inner))
        }
        Elem::Anchor => true,
        _ => match repeating {
            None => true,
            Some(q) => !inside && q.min <= 1000.0 && !(q.max.is_finite() && q.max > 1000.0),
        },
    }
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
        // Q1: UTF-16 code units.
        assert!(is_safe("(?:😀+😀+)+"));
        assert!(!is_safe("(?:😀|😁)+"));
        assert!(is_safe(&"😀".repeat(128)));
        assert!(!is_safe(&"😀".repeat(129)));
        // Q2: a leading anchor summarises as anything.
        assert!(!is_safe("(^a|b)+"));
        assert!(is_safe("(a|b)+"));
        // Q3: empty classes.
        assert!(is_safe("([^]|a)+"));
        assert!(!is_safe("([^]|.)+"));
        assert!(!is_safe("([^]|[a])+"));
        // Q4: \d matches d.
        assert!(!is_safe("(d|\\d)+"));
        assert!(is_safe("(e|\\d)+"));
        // Q5: parseInt counts and no knowledge of \u{…}, \p{…}, \cX.
        assert!(!is_safe("(?:\\u{61}b+)+"));
        assert!(!is_safe("(?:\\cJ\\w+)+"));
        assert!(is_safe("(?:ab+)+"));
        assert!(!is_safe("\\u{1001}"));
        assert!(is_safe("\\u{1000}"));
        assert!(is_safe("\\p{L}+"));
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
