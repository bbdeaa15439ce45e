//! ECMAScript pattern syntax in Unicode mode (`u` flag, no other flag), as Node.js 20 accepts it.
//!
//! Everything JavaScript rejects in `u` mode is a [`RegexErrorKind::Syntax`] error. Lookaround,
//! backreferences, lone surrogates and properties the two engines do not share are valid
//! JavaScript but outside the dialect: each is rejected with its own kind and offset.

use super::ast::{
    Assertion, Ast, Class, ClassItem, NodeId, NodeKind, PerlClass, PerlKind, Property, Repeat,
};
use super::error::{RegexError, RegexErrorKind};
use super::properties;
use regex_syntax::hir::ClassUnicode;
use std::sync::LazyLock;

/// Deepest group nesting the parser accepts. A pattern that nests deeper is longer than the
/// 256 UTF-16 code units the safety check allows, so it is rejected as unsafe as soon as the
/// parser sees it, before any work is spent on the rest.
pub(crate) const MAX_DEPTH: usize = 128;

/// Parses `pattern` into a syntax tree.
pub(crate) fn parse(pattern: &str) -> Result<Ast, RegexError> {
    let mut p = Parser {
        pattern,
        pos: 0,
        ast: Ast::new(),
        names: Vec::new(),
    };
    p.pattern()?;
    Ok(p.ast)
}

struct Parser<'p> {
    pattern: &'p str,
    pos: usize,
    ast: Ast,
    names: Vec<String>,
}

/// A disjunction being read: the whole pattern, or the inside of a group whose `)` has not come
/// yet.
struct Open {
    /// Where the disjunction starts (after the group's prefix).
    start: usize,
    alternatives: Vec<NodeId>,
    /// Where the current alternative starts, and its terms so far.
    alternative_start: usize,
    terms: Vec<NodeId>,
}

impl Open {
    fn new(start: usize) -> Open {
        Open {
            start,
            alternatives: Vec::new(),
            alternative_start: start,
            terms: Vec::new(),
        }
    }
}

/// A group whose `)` has not come yet.
struct OpenGroup {
    /// Where its `(` is.
    start: usize,
    capture: Option<u32>,
    inside: Open,
}

/// A class atom before ranges are formed: a code point (maybe a surrogate) or a set escape.
enum ClassAtom {
    Char(u32),
    Set(ClassItem),
}

const SURROGATES: std::ops::RangeInclusive<u32> = 0xD800..=0xDFFF;

fn is_syntax_char(c: char) -> bool {
    matches!(
        c,
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
    )
}

fn class_contains(class: &ClassUnicode, c: char) -> bool {
    class
        .ranges()
        .binary_search_by(|r| {
            if r.end() < c {
                std::cmp::Ordering::Less
            } else if r.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

static ID_START: LazyLock<ClassUnicode> = LazyLock::new(|| {
    properties::class(super::ast::PropertyKind::Binary("ID_Start"))
        .unwrap_or_else(ClassUnicode::empty)
});
static ID_CONTINUE: LazyLock<ClassUnicode> = LazyLock::new(|| {
    properties::class(super::ast::PropertyKind::Binary("ID_Continue"))
        .unwrap_or_else(ClassUnicode::empty)
});

impl<'p> Parser<'p> {
    fn err(&self, at: usize, detail: &str) -> RegexError {
        RegexError::at(RegexErrorKind::Syntax, at, detail, self.pattern)
    }

    fn err_kind(&self, kind: RegexErrorKind, at: usize, detail: &str) -> RegexError {
        RegexError::at(kind, at, detail, self.pattern)
    }

    fn rest(&self) -> &'p str {
        &self.pattern[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.rest().chars();
        it.next();
        it.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Reads the whole pattern, one term at a time. Groups are not read by a recursive call:
    /// `(` opens an [`OpenGroup`] and `)` closes it into a term of the enclosing disjunction, so
    /// the nesting of the pattern never becomes nesting of calls.
    fn pattern(&mut self) -> Result<(), RegexError> {
        let mut top = Open::new(0);
        let mut groups: Vec<OpenGroup> = Vec::new();
        loop {
            let open = match groups.last_mut() {
                Some(group) => &mut group.inside,
                None => &mut top,
            };
            match self.peek() {
                None => break,
                Some('|') => {
                    let alternative = self.alternative(open);
                    open.alternatives.push(alternative);
                    self.bump();
                    open.alternative_start = self.pos;
                }
                Some(')') => {
                    let Some(group) = groups.pop() else {
                        // The only way the pattern stops early is a `)` with no group open.
                        return Err(self.err(self.pos, "unmatched ')'"));
                    };
                    let child = self.disjunction(group.inside);
                    self.bump();
                    let capture = group.capture;
                    let node = self
                        .ast
                        .push(NodeKind::Group { capture, child }, group.start);
                    let term = self.quantifier(node)?;
                    match groups.last_mut() {
                        Some(outer) => outer.inside.terms.push(term),
                        None => top.terms.push(term),
                    }
                }
                Some('(') => {
                    let start = self.pos;
                    if groups.len() >= MAX_DEPTH {
                        return Err(RegexError::unsafe_pattern(self.pattern));
                    }
                    let capture = self.group_prefix()?;
                    groups.push(OpenGroup {
                        start,
                        capture,
                        inside: Open::new(self.pos),
                    });
                }
                Some(_) => {
                    let term = self.term()?;
                    open.terms.push(term);
                }
            }
        }
        if let Some(innermost) = groups.last() {
            return Err(self.err(innermost.start, "unterminated group"));
        }
        self.disjunction(top);
        Ok(())
    }

    /// Closes the current alternative of `open`: its terms as one node.
    fn alternative(&mut self, open: &mut Open) -> NodeId {
        let start = open.alternative_start;
        let mut terms = std::mem::take(&mut open.terms);
        match terms.len() {
            0 => self.ast.push(NodeKind::Empty, start),
            1 => terms.remove(0),
            _ => self.ast.push(NodeKind::Concat(terms), start),
        }
    }

    /// Closes `open`'s last alternative and the disjunction: its alternatives as one node.
    fn disjunction(&mut self, mut open: Open) -> NodeId {
        let last = self.alternative(&mut open);
        let mut alternatives = open.alternatives;
        if alternatives.is_empty() {
            return last;
        }
        alternatives.push(last);
        self.ast
            .push(NodeKind::Alternation(alternatives), open.start)
    }

    /// One term other than a group: an assertion, or an atom and its quantifier.
    fn term(&mut self) -> Result<NodeId, RegexError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.err(start, "unexpected end of pattern"));
        };
        let assertion = match c {
            '^' => Some(Assertion::Start),
            '$' => Some(Assertion::End),
            '\\' if self.peek2() == Some('b') => Some(Assertion::WordBoundary),
            '\\' if self.peek2() == Some('B') => Some(Assertion::NotWordBoundary),
            _ => None,
        };
        if let Some(a) = assertion {
            self.bump();
            if c == '\\' {
                self.bump();
            }
            if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
                // In `u` mode assertions are not quantifiable.
                return Err(self.err(
                    self.pos,
                    "nothing to repeat (an assertion cannot be quantified)",
                ));
            }
            return Ok(self.ast.push(NodeKind::Assertion(a), start));
        }
        let kind = match c {
            '[' => self.class()?,
            '\\' => self.atom_escape()?,
            '.' => {
                self.bump();
                NodeKind::Dot
            }
            '*' | '+' | '?' => return Err(self.err(start, "nothing to repeat")),
            '{' => {
                return Err(if self.quantifier_braces().is_ok() {
                    self.err(start, "nothing to repeat")
                } else {
                    self.err(
                        start,
                        "lone quantifier bracket '{' (write \\{ for the character)",
                    )
                });
            }
            '}' => {
                return Err(self.err(
                    start,
                    "lone quantifier bracket '}' (write \\} for the character)",
                ));
            }
            ']' => return Err(self.err(start, "lone ']' (write \\] for the character)")),
            _ => {
                self.bump();
                NodeKind::Literal(c)
            }
        };
        let atom = self.ast.push(kind, start);
        self.quantifier(atom)
    }

    /// The quantifier after `atom`, if there is one, as a repetition of it.
    fn quantifier(&mut self, atom: NodeId) -> Result<NodeId, RegexError> {
        let qstart = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => {
                self.bump();
                (0, None)
            }
            Some('+') => {
                self.bump();
                (1, None)
            }
            Some('?') => {
                self.bump();
                (0, Some(1))
            }
            Some('{') => match self.quantifier_braces() {
                Ok(bounds) => bounds,
                Err(()) => {
                    return Err(self.err(
                        qstart,
                        "incomplete quantifier (write \\{ for the character)",
                    ));
                }
            },
            _ => return Ok(atom),
        };
        if let Some(max) = max
            && min > max
        {
            return Err(self.err(qstart, "numbers out of order in {} quantifier"));
        }
        let greedy = !self.eat('?');
        let saturate = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let repeat = Repeat {
            child: atom,
            min: saturate(min),
            max: max.map(saturate),
            greedy,
        };
        let start = self.ast.node(atom).at;
        Ok(self.ast.push(NodeKind::Repeat(repeat), start))
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the current `{`. On failure the position is unchanged.
    fn quantifier_braces(&mut self) -> Result<(u64, Option<u64>), ()> {
        let save = self.pos;
        let result = (|| {
            self.bump();
            let min = self.decimal().ok_or(())?;
            if self.eat('}') {
                return Ok((min, Some(min)));
            }
            if !self.eat(',') {
                return Err(());
            }
            if self.eat('}') {
                return Ok((min, None));
            }
            let max = self.decimal().ok_or(())?;
            if self.eat('}') {
                Ok((min, Some(max)))
            } else {
                Err(())
            }
        })();
        if result.is_err() {
            self.pos = save;
        }
        result
    }

    /// One or more decimal digits, saturating.
    fn decimal(&mut self) -> Option<u64> {
        let mut value: Option<u64> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.bump();
            value = Some(
                value
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(u64::from(d)),
            );
        }
        value
    }

    /// Reads a group's `(` and prefix (`?:`, `?<name>`); returns its capture number.
    fn group_prefix(&mut self) -> Result<Option<u32>, RegexError> {
        let start = self.pos;
        self.bump();
        let mut capture = None;
        if self.eat('?') {
            match self.peek() {
                Some(':') => {
                    self.bump();
                }
                Some('=') => {
                    return Err(self.err_kind(
                        RegexErrorKind::Lookaround,
                        start,
                        "lookahead '(?=' is not part of the A2UI regex dialect",
                    ));
                }
                Some('!') => {
                    return Err(self.err_kind(
                        RegexErrorKind::Lookaround,
                        start,
                        "negative lookahead '(?!' is not part of the A2UI regex dialect",
                    ));
                }
                Some('<') if self.peek2() == Some('=') => {
                    return Err(self.err_kind(
                        RegexErrorKind::Lookaround,
                        start,
                        "lookbehind '(?<=' is not part of the A2UI regex dialect",
                    ));
                }
                Some('<') if self.peek2() == Some('!') => {
                    return Err(self.err_kind(
                        RegexErrorKind::Lookaround,
                        start,
                        "negative lookbehind '(?<!' is not part of the A2UI regex dialect",
                    ));
                }
                Some('<') => {
                    self.bump();
                    let name = self.group_name()?;
                    if self.names.contains(&name) {
                        return Err(
                            self.err(start, &format!("duplicate capture group name '{name}'"))
                        );
                    }
                    self.names.push(name);
                    self.ast.group_count += 1;
                    capture = Some(self.ast.group_count);
                }
                _ => {
                    return Err(self.err(start, "invalid group (after '(?' only ':', '<name>' are allowed; flags like (?i) are not)"));
                }
            }
        } else {
            self.ast.group_count += 1;
            capture = Some(self.ast.group_count);
        }
        Ok(capture)
    }

    /// `RegExpIdentifierName` followed by `>`; the `<` is already consumed.
    fn group_name(&mut self) -> Result<String, RegexError> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            let at = self.pos;
            let c = match self.bump() {
                None => return Err(self.err(start, "unterminated group name")),
                Some('>') if !name.is_empty() => return Ok(name),
                Some('\\') => {
                    if !self.eat('u') {
                        return Err(self.err(at, "invalid escape in group name"));
                    }
                    let cp = self.unicode_escape(at)?;
                    char::from_u32(cp)
                        .ok_or_else(|| self.err(at, "invalid character in group name"))?
                }
                Some(c) => c,
            };
            let ok = if name.is_empty() {
                c == '$' || c == '_' || class_contains(&ID_START, c)
            } else {
                c == '$' || c == '\u{200C}' || c == '\u{200D}' || class_contains(&ID_CONTINUE, c)
            };
            if !ok {
                return Err(self.err(at, "invalid character in group name"));
            }
            name.push(c);
        }
    }

    /// After `\` outside a class (`\b` and `\B` are handled as assertions before).
    fn atom_escape(&mut self) -> Result<NodeKind, RegexError> {
        let start = self.pos;
        self.bump();
        let Some(c) = self.bump() else {
            return Err(self.err(start, "\\ at end of pattern"));
        };
        let kind = match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => NodeKind::Perl(perl(c)),
            'p' | 'P' => NodeKind::Property(self.property(start, c == 'P')?),
            '1'..='9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
                let text = &self.pattern[start..self.pos];
                return Err(self.err_kind(
                    RegexErrorKind::Backreference,
                    start,
                    &format!("backreference '{text}' is not part of the A2UI regex dialect"),
                ));
            }
            'k' if self.peek() == Some('<') => {
                while let Some(c) = self.bump() {
                    if c == '>' {
                        break;
                    }
                }
                let text = &self.pattern[start..self.pos];
                return Err(self.err_kind(
                    RegexErrorKind::Backreference,
                    start,
                    &format!("named backreference '{text}' is not part of the A2UI regex dialect"),
                ));
            }
            _ => {
                let cp = self.character_escape(c, start, false)?;
                match char::from_u32(cp) {
                    Some(ch) => NodeKind::Literal(ch),
                    None => return Err(self.lone_surrogate(start)),
                }
            }
        };
        Ok(kind)
    }

    fn lone_surrogate(&self, at: usize) -> RegexError {
        self.err_kind(
            RegexErrorKind::LoneSurrogate,
            at,
            "lone surrogate (it can never match well-formed text; write the character or a \\uHIGH\\uLOW pair)",
        )
    }

    /// `CharacterEscape` after `\c` has been read (`c` is the character after the backslash).
    fn character_escape(
        &mut self,
        c: char,
        start: usize,
        in_class: bool,
    ) -> Result<u32, RegexError> {
        Ok(match c {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.bump();
                    u32::from(l) % 32
                }
                _ => {
                    return Err(self.err(
                        start,
                        "invalid control escape (\\c must be followed by a letter)",
                    ));
                }
            },
            '0' => {
                if self.peek().is_some_and(|d| d.is_ascii_digit()) {
                    return Err(self.err(start, "invalid decimal escape"));
                }
                0
            }
            'x' => {
                let hi = self.peek().and_then(|c| c.to_digit(16));
                let lo = self.peek2().and_then(|c| c.to_digit(16));
                match (hi, lo) {
                    (Some(h), Some(l)) => {
                        self.bump();
                        self.bump();
                        h * 16 + l
                    }
                    _ => {
                        return Err(self.err(
                            start,
                            "invalid hexadecimal escape (\\x needs two hex digits)",
                        ));
                    }
                }
            }
            'u' => self.unicode_escape(start)?,
            '/' => u32::from('/'),
            '-' if in_class => u32::from('-'),
            c if is_syntax_char(c) => u32::from(c),
            _ => {
                return Err(self.err(
                    start,
                    "invalid escape (in u mode only syntax characters and / can be escaped)",
                ));
            }
        })
    }

    /// After `\u`: `{hex}` or four hex digits, joining a `\uHIGH\uLOW` pair into one code point.
    fn unicode_escape(&mut self, start: usize) -> Result<u32, RegexError> {
        if self.eat('{') {
            let mut value: u32 = 0;
            let mut digits = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                self.bump();
                digits += 1;
                value = value.saturating_mul(16).saturating_add(d);
            }
            if digits == 0 || value > 0x10FFFF || !self.eat('}') {
                return Err(self.err(
                    start,
                    "invalid Unicode escape (\\u{…} needs a code point up to 10FFFF)",
                ));
            }
            return Ok(value);
        }
        let value = self
            .hex4(self.pos)
            .ok_or_else(|| self.err(start, "invalid Unicode escape (\\u needs four hex digits)"))?;
        self.pos += 4;
        if (0xD800..=0xDBFF).contains(&value)
            && self.rest().starts_with("\\u")
            && let Some(low) = self.hex4(self.pos + 2)
            && (0xDC00..=0xDFFF).contains(&low)
        {
            self.pos += 6;
            return Ok(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00));
        }
        Ok(value)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let s = self.pattern.get(at..at + 4)?;
        if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(s, 16).ok()
    }

    /// After `\p` or `\P`: `{Name}` or `{Name=Value}`.
    fn property(&mut self, start: usize, negated: bool) -> Result<Property, RegexError> {
        if !self.eat('{') {
            return Err(self.err(start, "invalid property escape (\\p needs {Name})"));
        }
        let text_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
        {
            self.bump();
        }
        let text = &self.pattern[text_start..self.pos];
        if text.is_empty() || !self.eat('}') {
            return Err(self.err(start, "invalid property name"));
        }
        match properties::resolve(text) {
            Some(kind) => Ok(Property { kind, negated }),
            None => Err(self.err_kind(
                RegexErrorKind::UnsupportedProperty,
                start,
                &format!(
                    "Unicode property '{text}' is unknown or not shared by JavaScript and this engine (use a General_Category, Script=…, Script_Extensions=… or a listed binary property)"
                ),
            )),
        }
    }

    fn class(&mut self) -> Result<NodeKind, RegexError> {
        let start = self.pos;
        self.bump();
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.err(start, "unterminated character class")),
                Some(']') => {
                    self.bump();
                    break;
                }
                Some(_) => {}
            }
            let a_start = self.pos;
            let a = self.class_atom()?;
            if self.peek() == Some('-') && self.peek2().is_some_and(|c| c != ']') {
                self.bump();
                let b = self.class_atom()?;
                let (ClassAtom::Char(lo), ClassAtom::Char(hi)) = (a, b) else {
                    return Err(self.err(
                        a_start,
                        "invalid character class range (a class escape cannot end a range)",
                    ));
                };
                if lo > hi {
                    return Err(self.err(a_start, "range out of order in character class"));
                }
                if SURROGATES.contains(&lo) && SURROGATES.contains(&hi) {
                    return Err(self.lone_surrogate(a_start));
                }
                items.push(ClassItem::Range(lo, hi));
            } else {
                items.push(match a {
                    ClassAtom::Char(cp) => ClassItem::Char(
                        char::from_u32(cp).ok_or_else(|| self.lone_surrogate(a_start))?,
                    ),
                    ClassAtom::Set(item) => item,
                });
            }
        }
        Ok(NodeKind::Class(Class { negated, items }))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, RegexError> {
        let start = self.pos;
        let Some(c) = self.bump() else {
            return Err(self.err(start, "unterminated character class"));
        };
        if c != '\\' {
            return Ok(ClassAtom::Char(u32::from(c)));
        }
        let Some(e) = self.bump() else {
            return Err(self.err(start, "\\ at end of pattern"));
        };
        Ok(match e {
            'b' => ClassAtom::Char(0x08),
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => ClassAtom::Set(ClassItem::Perl(perl(e))),
            'p' | 'P' => ClassAtom::Set(ClassItem::Property(self.property(start, e == 'P')?)),
            _ => ClassAtom::Char(self.character_escape(e, start, true)?),
        })
    }
}

fn perl(c: char) -> PerlClass {
    let kind = match c.to_ascii_lowercase() {
        'd' => PerlKind::Digit,
        'w' => PerlKind::Word,
        _ => PerlKind::Space,
    };
    PerlClass {
        kind,
        negated: c.is_ascii_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(p: &str) -> Option<RegexErrorKind> {
        parse(p).err().map(|e| e.kind())
    }

    #[test]
    fn accepts_u_mode_syntax() {
        for p in [
            "",
            "a",
            "a|b|",
            "(a)(?:b)(?<n>c)",
            "[^]",
            "[]",
            "[a-z\\d-]",
            "[-a]",
            "[a-]",
            "\\u{1F600}",
            "\\uD83D\\uDE00",
            "\\x41\\0\\cJ\\f\\n\\r\\t\\v",
            "\\/\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|",
            "[\\b\\-]",
            "a{2}b{2,}c{2,3}?",
            "^$\\b\\B",
            "\\p{Lu}\\P{Script=Greek}[\\p{L}]",
            "(?<$é>x)",
            "(?<\\u0061>x)",
            "[[]",
            "[--0]",
            "[a&&b]",
            "a{0}",
            "[\\uD83D\\uDE00-\\uD83D\\uDE4F]",
        ] {
            assert!(parse(p).is_ok(), "{p}: {:?}", parse(p).err());
        }
    }

    #[test]
    fn rejects_what_javascript_rejects() {
        for p in [
            "a{2",
            "{",
            "}",
            "]",
            "(a",
            "[a",
            "a{,5}",
            "x{1,2}{3}",
            "[\\d-z]",
            "[a-\\d]",
            "a**",
            "\\_",
            "\\c1",
            "\\u{110000}",
            "[a--b]",
            "[a-z&&[^aeiou]]",
            "\\k",
            "\\a",
            "\\-",
            "a{2,1}",
            "*a",
            "+",
            "?",
            "(?",
            "(?i:a)",
            "(?<a>x)(?<a>y)",
            "(?<1a>x)",
            "(?<>x)",
            "^*",
            "\\b+",
            "$?",
            "\\00",
            "\\01",
            "[\\B]",
            "[\\1]",
            "[\\k]",
            "\\x4",
            "\\u12",
            "\\u{}",
            "\\p",
            "\\p{",
            "\\",
            ")",
            "a)",
            "[z-a]",
            "\\u{1F600",
            "(?<a",
            "\\p{L",
        ] {
            assert_eq!(kind_of(p), Some(RegexErrorKind::Syntax), "{p}");
        }
    }

    #[test]
    fn rejects_dialect_exclusions_with_their_kind_and_offset() {
        let cases = [
            ("foo(?=bar)", RegexErrorKind::Lookaround, 3),
            ("a(?!b)", RegexErrorKind::Lookaround, 1),
            ("(?<=\\$)(\\d+)", RegexErrorKind::Lookaround, 0),
            ("x(?<!y)", RegexErrorKind::Lookaround, 1),
            ("(a)(b)\\2", RegexErrorKind::Backreference, 6),
            ("(?<n>a)\\k<n>", RegexErrorKind::Backreference, 7),
            ("\\8", RegexErrorKind::Backreference, 0),
            ("é\\uD800", RegexErrorKind::LoneSurrogate, 2),
            ("[\\uDC00]", RegexErrorKind::LoneSurrogate, 1),
            ("[\\uD800-\\uDFFF]", RegexErrorKind::LoneSurrogate, 1),
            ("\\u{D83D}\\u{DE00}", RegexErrorKind::LoneSurrogate, 0),
            ("\\p{Foo}", RegexErrorKind::UnsupportedProperty, 0),
            ("[\\P{Cs}]", RegexErrorKind::UnsupportedProperty, 1),
        ];
        for (p, kind, offset) in cases {
            let e = parse(p).unwrap_err();
            assert_eq!(
                (e.kind(), e.offset()),
                (kind, Some(offset)),
                "{p}: {}",
                e.message()
            );
        }
    }

    #[test]
    fn builds_the_tree() {
        let ast = parse("(a)|[^\\d-]+?").unwrap();
        assert_eq!(ast.group_count, 1);
        let root = ast.node(ast.root());
        let NodeKind::Alternation(alts) = &root.kind else {
            panic!("{root:?}")
        };
        let repeat = ast.node(alts[1]);
        assert_eq!(repeat.at, 4);
        let NodeKind::Repeat(r) = repeat.kind else {
            panic!()
        };
        assert_eq!((r.min, r.max, r.greedy), (1, None, false));
        let NodeKind::Class(c) = &ast.node(r.child).kind else {
            panic!()
        };
        assert!(c.negated);
        assert_eq!(c.items.len(), 2);
        // Children come before their parents; a subtree is a contiguous run ending at its root.
        assert_eq!(ast.props(ast.root()).first, 0);
        assert_eq!(ast.props(alts[1]).first, r.child);
        let single = parse("\\uD83D\\uDE00").unwrap();
        assert_eq!(single.node(single.root()).kind, NodeKind::Literal('😀'));
        let control = parse("\\cj").unwrap();
        assert_eq!(control.node(control.root()).kind, NodeKind::Literal('\n'));
        let big = parse("a{99999999999}").unwrap();
        let NodeKind::Repeat(r) = big.node(big.root()).kind else {
            panic!()
        };
        assert_eq!(r.min, u32::MAX);
    }

    #[test]
    fn offsets_of_groups_and_alternatives() {
        let ast = parse("x(?:ab|(c))d").unwrap();
        let NodeKind::Concat(terms) = &ast.node(ast.root()).kind else {
            panic!()
        };
        assert_eq!(ast.node(terms[1]).at, 1);
        let NodeKind::Group {
            capture: None,
            child,
        } = ast.node(terms[1]).kind
        else {
            panic!()
        };
        let NodeKind::Alternation(alts) = &ast.node(child).kind else {
            panic!()
        };
        assert_eq!(ast.node(child).at, 4);
        assert_eq!(ast.node(alts[1]).at, 7);
        assert_eq!(ast.group_count, 1);
        let empty_alternative = parse("a|").unwrap();
        assert_eq!(
            empty_alternative.node(empty_alternative.root()).kind,
            NodeKind::Alternation(vec![0, 1])
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "(".repeat(MAX_DEPTH) + &")".repeat(MAX_DEPTH);
        assert!(parse(&deep).is_ok());
        let deeper = "(".repeat(MAX_DEPTH + 1) + &")".repeat(MAX_DEPTH + 1);
        assert_eq!(kind_of(&deeper), Some(RegexErrorKind::Unsafe));
        assert_eq!(kind_of(&"(".repeat(100_000)), Some(RegexErrorKind::Unsafe));
    }
}
