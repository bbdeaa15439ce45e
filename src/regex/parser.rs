//! ECMAScript pattern syntax in Unicode mode (`u` flag, no other flag), as Node.js 20 accepts it.
//!
//! Everything JavaScript rejects in `u` mode is a [`RegexErrorKind::Syntax`] error. Lookaround,
//! backreferences, lone surrogates and properties the two engines do not share are valid
//! JavaScript but outside the dialect: each is rejected with its own kind and offset.

use super::ast::{
    Assertion, Ast, Capture, Class, ClassItem, Group, Node, NodeKind, PerlClass, PerlKind,
    Property, Repeat, Span,
};
use super::error::{RegexError, RegexErrorKind};
use super::properties;
use regex_syntax::hir::ClassUnicode;
use std::sync::LazyLock;

/// Deepest group nesting the parser accepts. A pattern that nests deeper is longer than the
/// 256 UTF-16 code units the safety check allows, so it is rejected as unsafe; the limit keeps
/// every later walk over the tree shallow.
pub(crate) const MAX_DEPTH: usize = 128;

/// Parses `pattern` into a syntax tree.
pub(crate) fn parse(pattern: &str) -> Result<Ast, RegexError> {
    let mut p = Parser {
        pattern,
        pos: 0,
        group_count: 0,
        names: Vec::new(),
    };
    let root = p.disjunction(0)?;
    if p.pos < pattern.len() {
        // The only way an alternative stops early is a `)` with no group open.
        return Err(p.err(p.pos, "unmatched ')'"));
    }
    Ok(Ast {
        root,
        group_count: p.group_count,
    })
}

struct Parser<'p> {
    pattern: &'p str,
    pos: usize,
    group_count: u32,
    names: Vec<String>,
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

    fn span(&self, start: usize) -> Span {
        Span {
            start,
            end: self.pos,
        }
    }

    fn disjunction(&mut self, depth: usize) -> Result<Node, RegexError> {
        let start = self.pos;
        let mut alternatives = vec![self.alternative(depth)?];
        while self.eat('|') {
            alternatives.push(self.alternative(depth)?);
        }
        if alternatives.len() == 1 {
            return Ok(alternatives.remove(0));
        }
        Ok(Node {
            kind: NodeKind::Alternation(alternatives),
            span: self.span(start),
        })
    }

    fn alternative(&mut self, depth: usize) -> Result<Node, RegexError> {
        let start = self.pos;
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term(depth)?);
        }
        Ok(match terms.len() {
            0 => Node {
                kind: NodeKind::Empty,
                span: self.span(start),
            },
            1 => terms.remove(0),
            _ => Node {
                kind: NodeKind::Concat(terms),
                span: self.span(start),
            },
        })
    }

    fn term(&mut self, depth: usize) -> Result<Node, RegexError> {
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
            return Ok(Node {
                kind: NodeKind::Assertion(a),
                span: self.span(start),
            });
        }
        let atom = match c {
            '(' => self.group(depth)?,
            '[' => self.class()?,
            '\\' => self.atom_escape()?,
            '.' => {
                self.bump();
                Node {
                    kind: NodeKind::Dot,
                    span: self.span(start),
                }
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
                Node {
                    kind: NodeKind::Literal(c),
                    span: self.span(start),
                }
            }
        };
        self.quantifier(atom)
    }

    fn quantifier(&mut self, atom: Node) -> Result<Node, RegexError> {
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
        let start = atom.span.start;
        Ok(Node {
            kind: NodeKind::Repeat(Box::new(Repeat {
                node: atom,
                min: saturate(min),
                max: max.map(saturate),
                greedy,
            })),
            span: self.span(start),
        })
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

    fn group(&mut self, depth: usize) -> Result<Node, RegexError> {
        let start = self.pos;
        if depth >= MAX_DEPTH {
            return Err(RegexError::unsafe_pattern(self.pattern));
        }
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
                    self.names.push(name.clone());
                    self.group_count += 1;
                    capture = Some(Capture {
                        index: self.group_count,
                        name: Some(name),
                    });
                }
                _ => {
                    return Err(self.err(start, "invalid group (after '(?' only ':', '<name>' are allowed; flags like (?i) are not)"));
                }
            }
        } else {
            self.group_count += 1;
            capture = Some(Capture {
                index: self.group_count,
                name: None,
            });
        }
        let node = self.disjunction(depth + 1)?;
        if !self.eat(')') {
            return Err(self.err(start, "unterminated group"));
        }
        Ok(Node {
            kind: NodeKind::Group(Box::new(Group { capture, node })),
            span: self.span(start),
        })
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
    fn atom_escape(&mut self) -> Result<Node, RegexError> {
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
        Ok(Node {
            kind,
            span: self.span(start),
        })
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

    fn class(&mut self) -> Result<Node, RegexError> {
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
        Ok(Node {
            kind: NodeKind::Class(Class { negated, items }),
            span: self.span(start),
        })
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
        let NodeKind::Alternation(alts) = &ast.root.kind else {
            panic!("{:?}", ast.root)
        };
        assert_eq!(alts[1].span, Span { start: 4, end: 12 });
        let NodeKind::Repeat(r) = &alts[1].kind else {
            panic!()
        };
        assert_eq!((r.min, r.max, r.greedy), (1, None, false));
        let NodeKind::Class(c) = &r.node.kind else {
            panic!()
        };
        assert!(c.negated);
        assert_eq!(c.items.len(), 2);
        assert_eq!(
            parse("\\uD83D\\uDE00").unwrap().root.kind,
            NodeKind::Literal('😀')
        );
        assert_eq!(parse("\\cj").unwrap().root.kind, NodeKind::Literal('\n'));
        let big = parse("a{99999999999}").unwrap();
        let NodeKind::Repeat(r) = big.root.kind else {
            panic!()
        };
        assert_eq!(r.min, u32::MAX);
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
