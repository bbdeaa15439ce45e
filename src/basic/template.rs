//! formatString's `${…}` language: a template of literal text and interpolations, each an
//! expression: a path (`/user/name`, `name`, `my-path.with_underscores`), a string (`'…'` or
//! `"…"`, with backslash escapes), a number (`42`, `1.5`, `-3`), `true`, `false`, `null`, a call
//! with named arguments (`add(a: 1, b: ${/x})`), or another interpolation (`${${'x'}}`).
//! `\${` is a literal `${`.
//!
//! The parser is a single pass with an explicit stack (no recursion over the text), bounded in
//! length ([`MAX_TEMPLATE_BYTES`]), nesting ([`MAX_NESTING`]) and parts ([`MAX_PARTS`]); every
//! error names the byte offset where it was found. Because nesting is bounded, the parsed tree
//! is at most [`MAX_NESTING`] deep, which is what makes walking it recursively safe.

use crate::error::{Error, ErrorCode};
use serde_json::{Map, Value, json};

/// The longest template parsed, in bytes (longer: `LIMIT_EXCEEDED`).
pub const MAX_TEMPLATE_BYTES: usize = 64 * 1024;
/// The deepest nesting of interpolations and calls (deeper: `LIMIT_EXCEEDED`).
pub const MAX_NESTING: usize = 32;
/// The most parts and call arguments one template may hold (more: `LIMIT_EXCEEDED`).
pub const MAX_PARTS: usize = 4096;

/// An expression of the template language, as parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A literal: text between interpolations, a quoted string, a number, `true`, `false`,
    /// `null`.
    Literal(Value),
    /// A data model path, written as a binding writes it (absolute or relative).
    Path(String),
    /// A function call with named arguments, in the order written.
    Call(Call),
}

/// A call in a template: `name(arg: expr, …)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The function's name.
    pub name: String,
    /// The arguments, in the order written.
    pub args: Vec<(String, Expr)>,
}

/// A parsed template: its parts in order (literal text runs and interpolated expressions).
///
/// ```
/// use a2ui_catalog_mcp::basic::{Expr, Template};
/// use serde_json::json;
///
/// let t = Template::parse("Hi ${/user/name}, ${formatNumber(value: ${count})} new")?;
/// assert_eq!(t.parts()[0], Expr::Literal(json!("Hi ")));
/// assert_eq!(t.parts()[1], Expr::Path("/user/name".into()));
/// assert_eq!(t.paths(), ["/user/name", "count"]);
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    parts: Vec<Expr>,
}

/// An error of the template at byte `at`.
fn parse_error(at: usize, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        format!("formatString template: {message} at offset {at}"),
    )
}

fn limit_error(message: String) -> Error {
    Error::new(
        ErrorCode::LimitExceeded,
        format!("formatString template: {message}"),
    )
}

/// What the parser is inside of.
enum Frame {
    /// `${`, opened at this offset.
    Interp(usize),
    /// A call whose arguments are being read; `pending` is the name of the argument whose value
    /// comes next.
    Call {
        call: Call,
        pending: String,
        at: usize,
    },
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'@'
}

fn is_path_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/' | b'@')
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    stack: Vec<Frame>,
    items: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn count(&mut self) -> Result<(), Error> {
        self.items += 1;
        if self.items > MAX_PARTS {
            return Err(limit_error(format!(
                "more than {MAX_PARTS} parts and arguments"
            )));
        }
        Ok(())
    }

    fn push(&mut self, frame: Frame) -> Result<(), Error> {
        if self.stack.len() >= MAX_NESTING {
            return Err(limit_error(format!(
                "nested deeper than {MAX_NESTING} levels at offset {}",
                self.pos
            )));
        }
        self.stack.push(frame);
        Ok(())
    }

    /// Reads a quoted string starting at the quote.
    fn string(&mut self) -> Result<Value, Error> {
        let start = self.pos;
        let quote = self.bytes[self.pos];
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            if c as u32 == u32::from(quote) {
                self.pos += i + 1;
                return Ok(Value::String(out));
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some((_, e)) = chars.next() else { break };
            match e {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                '0' => out.push('\0'),
                other => out.push(other),
            }
        }
        Err(parse_error(start, "unterminated string literal"))
    }

    /// Reads a number starting at a digit or `-`.
    fn number(&mut self) -> Result<Value, Error> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || c == b'.' || c.is_ascii_alphabetic())
        {
            self.pos += 1;
        }
        let token = &self.text[start..self.pos];
        let valid = {
            let digits = token.strip_prefix('-').unwrap_or(token);
            let mut halves = digits.splitn(2, '.');
            let int = halves.next().unwrap_or("");
            let frac = halves.next();
            !int.is_empty()
                && int.bytes().all(|c| c.is_ascii_digit())
                && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
        };
        let parsed = token.parse::<f64>().ok().filter(|n| n.is_finite());
        match (valid, parsed) {
            (true, Some(n)) => Ok(super::args::number_value(n)),
            _ => Err(parse_error(
                start,
                format!("Invalid number literal '{token}'"),
            )),
        }
    }

    /// Reads an argument name and its colon, after `(` or `,`.
    fn arg_name(&mut self) -> Result<String, Error> {
        self.skip_ws();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(parse_error(start, "expected an argument name"));
        }
        let name = self.text[start..self.pos].to_owned();
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(parse_error(self.pos, "Expected ':' after argument name"));
        }
        self.pos += 1;
        Ok(name)
    }

    /// Reads one expression's start: either a complete value, or a frame opened (a call's
    /// arguments or a nested interpolation), whose value completes later.
    fn expression(&mut self) -> Result<Option<Expr>, Error> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            None => Err(parse_error(
                start,
                "Unclosed interpolation: expected an expression",
            )),
            Some(b'$') if self.bytes.get(self.pos + 1) == Some(&b'{') => {
                self.pos += 2;
                self.push(Frame::Interp(start))?;
                Ok(None)
            }
            Some(b'\'' | b'"') => Ok(Some(Expr::Literal(self.string()?))),
            Some(c) if c.is_ascii_digit() || c == b'-' => Ok(Some(Expr::Literal(self.number()?))),
            Some(c) if is_path_char(c) => {
                while self.peek().is_some_and(is_path_char) {
                    self.pos += 1;
                }
                let token = &self.text[start..self.pos];
                let ident = is_ident_start(c)
                    && token
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'@');
                self.skip_ws();
                if ident && self.peek() == Some(b'(') {
                    self.pos += 1;
                    let call = Call {
                        name: token.to_owned(),
                        args: Vec::new(),
                    };
                    self.skip_ws();
                    if self.peek() == Some(b')') {
                        self.pos += 1;
                        return Ok(Some(Expr::Call(call)));
                    }
                    let pending = self.arg_name()?;
                    self.push(Frame::Call {
                        call,
                        pending,
                        at: start,
                    })?;
                    return Ok(None);
                }
                Ok(Some(match token {
                    "true" => Expr::Literal(Value::Bool(true)),
                    "false" => Expr::Literal(Value::Bool(false)),
                    "null" => Expr::Literal(Value::Null),
                    path => Expr::Path(path.to_owned()),
                }))
            }
            Some(_) => {
                let c = self.text[start..].chars().next().unwrap_or('?');
                Err(parse_error(start, format!("Unexpected character '{c}'")))
            }
        }
    }

    /// Hands a completed expression to the frame it belongs to; returns it when it completes
    /// an interpolation at the top level.
    fn complete(&mut self, mut expr: Expr) -> Result<Option<Expr>, Error> {
        loop {
            self.count()?;
            match self.stack.last_mut() {
                None => return Ok(Some(expr)),
                Some(Frame::Interp(opened)) => {
                    let opened = *opened;
                    self.skip_ws();
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            self.stack.pop();
                            if self.stack.is_empty() {
                                return Ok(Some(expr));
                            }
                            // The interpolation's value completes its parent in turn.
                            continue;
                        }
                        None => {
                            return Err(parse_error(opened, "Unclosed interpolation: missing '}'"));
                        }
                        Some(_) => {
                            return Err(parse_error(
                                self.pos,
                                "Unexpected characters after expression",
                            ));
                        }
                    }
                }
                Some(Frame::Call { call, pending, .. }) => {
                    call.args.push((std::mem::take(pending), expr));
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            let name = self.arg_name()?;
                            if let Some(Frame::Call { pending, .. }) = self.stack.last_mut() {
                                *pending = name;
                            }
                            return Ok(None);
                        }
                        Some(b')') => {
                            self.pos += 1;
                            let Some(Frame::Call { call, .. }) = self.stack.pop() else {
                                unreachable!("the top frame is this call")
                            };
                            expr = Expr::Call(call);
                            continue;
                        }
                        _ => {
                            let at = match self.stack.last() {
                                Some(Frame::Call { at, .. }) => *at,
                                _ => self.pos,
                            };
                            return Err(parse_error(
                                self.pos,
                                format!(
                                    "Expected ')' after function arguments (the call at offset {at})"
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
}

impl Template {
    /// Parses a template. Errors are `EXPRESSION_ERROR` with the byte offset (`Unclosed
    /// interpolation`, `Expected ':' after argument name`, `Expected ')' after function
    /// arguments`, `Unexpected characters after expression`, `Invalid number literal`), or
    /// `LIMIT_EXCEEDED` past the limits of this module.
    pub fn parse(text: &str) -> Result<Template, Error> {
        if text.len() > MAX_TEMPLATE_BYTES {
            return Err(limit_error(format!(
                "{} bytes, more than the limit of {MAX_TEMPLATE_BYTES}",
                text.len()
            )));
        }
        let mut p = Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            stack: Vec::new(),
            items: 0,
        };
        let mut parts: Vec<Expr> = Vec::new();
        let mut literal = String::new();
        while p.pos < p.bytes.len() {
            let rest = &p.text[p.pos..];
            if rest.starts_with("\\${") {
                literal.push_str("${");
                p.pos += 3;
                continue;
            }
            if !rest.starts_with("${") {
                // Up to the next `$` or `\`, whole.
                let next = memchr::memchr2(b'$', b'\\', &rest.as_bytes()[1..])
                    .map_or(rest.len(), |i| i + 1);
                literal.push_str(&rest[..next]);
                p.pos += next;
                continue;
            }
            if !literal.is_empty() {
                p.count()?;
                parts.push(Expr::Literal(Value::String(std::mem::take(&mut literal))));
            }
            p.stack.push(Frame::Interp(p.pos));
            p.pos += 2;
            loop {
                let done = match p.expression()? {
                    Some(expr) => p.complete(expr)?,
                    None => None,
                };
                if let Some(expr) = done {
                    parts.push(expr);
                    break;
                }
            }
        }
        if !literal.is_empty() || parts.is_empty() {
            parts.push(Expr::Literal(Value::String(literal)));
        }
        Ok(Template { parts })
    }

    /// The parts, in order.
    pub fn parts(&self) -> &[Expr] {
        &self.parts
    }

    /// Whether the template is literal text only (no interpolation).
    pub fn is_text(&self) -> bool {
        matches!(self.parts.as_slice(), [Expr::Literal(Value::String(_))])
    }

    /// Every path the template reads, in the order written (nested ones included).
    pub fn paths(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut stack: Vec<&Expr> = self.parts.iter().rev().collect();
        while let Some(expr) = stack.pop() {
            match expr {
                Expr::Literal(_) => {}
                Expr::Path(p) => out.push(p.as_str()),
                Expr::Call(call) => stack.extend(call.args.iter().rev().map(|(_, e)| e)),
            }
        }
        out
    }

    /// Every function the template calls, in the order written.
    pub fn calls(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut stack: Vec<&Expr> = self.parts.iter().rev().collect();
        while let Some(expr) = stack.pop() {
            if let Expr::Call(call) = expr {
                out.push(call.name.as_str());
                stack.extend(call.args.iter().rev().map(|(_, e)| e));
            }
        }
        out
    }

    /// The template as an A2UI payload (`@` spelling): an array of its parts, each a literal,
    /// a binding or a call. `catalog_of` gives the `catalogId` a call names (`None`: the
    /// environment's default catalog).
    pub fn to_payload(&self, catalog_of: &dyn Fn(&str) -> Option<String>) -> Value {
        Value::Array(
            self.parts
                .iter()
                .map(|e| expr_payload(e, catalog_of))
                .collect(),
        )
    }
}

/// The payload of one expression. The tree is at most [`MAX_NESTING`] deep (the parser's
/// limit), so this recursion is bounded.
fn expr_payload(expr: &Expr, catalog_of: &dyn Fn(&str) -> Option<String>) -> Value {
    match expr {
        Expr::Literal(v) => escape_literal(v),
        Expr::Path(p) => json!({"@path": p}),
        Expr::Call(call) => {
            let args: Map<String, Value> = call
                .args
                .iter()
                .map(|(k, e)| (k.clone(), expr_payload(e, catalog_of)))
                .collect();
            let mut out = Map::new();
            out.insert("@call".into(), Value::String(call.name.clone()));
            out.insert("args".into(), Value::Object(args));
            if let Some(id) = catalog_of(&call.name) {
                out.insert("catalogId".into(), Value::String(id));
            }
            Value::Object(out)
        }
    }
}

/// Template literals are scalars, which a payload reads as themselves.
fn escape_literal(v: &Value) -> Value {
    v.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(t: &str) -> Vec<Expr> {
        Template::parse(t).unwrap().parts
    }

    fn err(t: &str) -> Error {
        Template::parse(t).unwrap_err()
    }

    #[test]
    fn forms() {
        assert_eq!(parts(""), [Expr::Literal(json!(""))]);
        assert_eq!(
            parts("a ${x} b"),
            [
                Expr::Literal(json!("a ")),
                Expr::Path("x".into()),
                Expr::Literal(json!(" b"))
            ]
        );
        assert_eq!(parts("${-1.5}"), [Expr::Literal(json!(-1.5))]);
        assert_eq!(parts("${${${'x'}}}"), [Expr::Literal(json!("x"))]);
        assert_eq!(parts("\\${a} \\x $"), [Expr::Literal(json!("${a} \\x $"))]);
        assert_eq!(
            parts("${f(a: g(b: ${/x}), c: 'u}')}"),
            [Expr::Call(Call {
                name: "f".into(),
                args: vec![
                    (
                        "a".into(),
                        Expr::Call(Call {
                            name: "g".into(),
                            args: vec![("b".into(), Expr::Path("/x".into()))]
                        })
                    ),
                    ("c".into(), Expr::Literal(json!("u}"))),
                ]
            })]
        );
    }

    #[test]
    fn errors_are_located() {
        let e = err("hello ${world");
        assert!(e.message().contains("Unclosed interpolation"), "{e}");
        assert!(e.message().contains("offset 6"), "{e}");
        assert!(
            err("${add(a: 1, b: 2}")
                .message()
                .contains("after function arguments")
        );
        assert!(err("${add(a 1)}").message().contains("after argument name"));
        assert!(
            err("${true false}")
                .message()
                .contains("Unexpected characters")
        );
        assert!(err("${1.2.3}").message().contains("Invalid number literal"));
        assert!(err("${'abc}").message().contains("unterminated string"));
        assert!(err("${f(a: 1,").message().contains("argument name"));
        assert!(err("${").message().contains("Unclosed interpolation"));
    }

    #[test]
    fn limits_without_recursion() {
        let deep = "${".repeat(10_000) + "1" + &"}".repeat(10_000);
        assert_eq!(err(&deep).code(), ErrorCode::LimitExceeded);
        let calls = "${f(a: ".repeat(10_000);
        assert_eq!(err(&calls).code(), ErrorCode::LimitExceeded);
        let big = "x".repeat(MAX_TEMPLATE_BYTES + 1);
        assert_eq!(err(&big).code(), ErrorCode::LimitExceeded);
        let many = "${a}".repeat(MAX_PARTS + 1);
        assert_eq!(err(&many).code(), ErrorCode::LimitExceeded);
        let ok = "${".repeat(MAX_NESTING) + "1" + &"}".repeat(MAX_NESTING);
        assert_eq!(parts(&ok), [Expr::Literal(json!(1))]);
    }
}
