//! Splits a JMESPath expression into tokens, each with its byte offset.

use super::error::JmespathError;
use serde_json::Value;

/// One token of an expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// `foo`
    Ident(String),
    /// `"foo"` (JSON string escapes decoded)
    Quoted(String),
    /// `` `...` `` or `'...'` (a raw string is a string literal)
    Literal(Value),
    /// `-12` (only valid inside brackets)
    Number(i64),
    Dot,
    Star,
    LBracket,
    RBracket,
    /// `[?`
    Filter,
    /// `[]`
    Flatten,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Colon,
    /// `@`
    At,
    /// `&`
    Ampersand,
    Pipe,
    Or,
    And,
    Not,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Eof,
    /// A token the parser has consumed and moved out.
    Taken,
}

impl Tok {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        let s = match self {
            Tok::Ident(name) => return format!("identifier '{name}'"),
            Tok::Quoted(name) => return format!("quoted identifier \"{name}\""),
            Tok::Literal(_) => "literal",
            Tok::Number(n) => return format!("number {n}"),
            Tok::Dot => "'.'",
            Tok::Star => "'*'",
            Tok::LBracket => "'['",
            Tok::RBracket => "']'",
            Tok::Filter => "'[?'",
            Tok::Flatten => "'[]'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::Comma => "','",
            Tok::Colon => "':'",
            Tok::At => "'@'",
            Tok::Ampersand => "'&'",
            Tok::Pipe => "'|'",
            Tok::Or => "'||'",
            Tok::And => "'&&'",
            Tok::Not => "'!'",
            Tok::Eq => "'=='",
            Tok::Ne => "'!='",
            Tok::Lt => "'<'",
            Tok::Le => "'<='",
            Tok::Gt => "'>'",
            Tok::Ge => "'>='",
            Tok::Eof => "end of expression",
            Tok::Taken => "token",
        };
        s.to_string()
    }
}

/// A token and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) offset: usize,
}

/// Tokenizes the whole expression; the last token is always [`Tok::Eof`].
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, JmespathError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(text.len() / 2 + 1);
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        let (tok, len) = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = scan_while(bytes, i + 1, |c| c.is_ascii_alphanumeric() || c == b'_');
                (Tok::Ident(text[i..end].to_string()), end - i)
            }
            b'0'..=b'9' | b'-' => {
                let digits_from = if b == b'-' { i + 1 } else { i };
                let end = scan_while(bytes, digits_from, |c| c.is_ascii_digit());
                if end == digits_from {
                    return Err(JmespathError::syntax(
                        start,
                        "'-' must be followed by digits",
                    ));
                }
                let n: i64 = text[i..end].parse().map_err(|_| {
                    JmespathError::syntax(start, format!("number {} is too large", &text[i..end]))
                })?;
                (Tok::Number(n), end - i)
            }
            b'"' => {
                let end = scan_quoted(bytes, i, b'"').ok_or_else(|| {
                    JmespathError::syntax(start, "unterminated quoted identifier")
                })?;
                let name: String = serde_json::from_str(&text[i..end]).map_err(|e| {
                    JmespathError::syntax(start, format!("invalid quoted identifier: {e}"))
                })?;
                (Tok::Quoted(name), end - i)
            }
            b'\'' => {
                let end = scan_quoted(bytes, i, b'\'')
                    .ok_or_else(|| JmespathError::syntax(start, "unterminated raw string"))?;
                let raw = text[i + 1..end - 1].replace("\\'", "'");
                (Tok::Literal(Value::String(raw)), end - i)
            }
            b'`' => {
                let end = scan_quoted(bytes, i, b'`')
                    .ok_or_else(|| JmespathError::syntax(start, "unterminated literal"))?;
                let body = text[i + 1..end - 1].replace("\\`", "`");
                (Tok::Literal(parse_literal(&body, start)?), end - i)
            }
            b'.' => (Tok::Dot, 1),
            b'*' => (Tok::Star, 1),
            b'[' => match next {
                Some(b']') => (Tok::Flatten, 2),
                Some(b'?') => (Tok::Filter, 2),
                _ => (Tok::LBracket, 1),
            },
            b']' => (Tok::RBracket, 1),
            b'{' => (Tok::LBrace, 1),
            b'}' => (Tok::RBrace, 1),
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b',' => (Tok::Comma, 1),
            b':' => (Tok::Colon, 1),
            b'@' => (Tok::At, 1),
            b'&' if next == Some(b'&') => (Tok::And, 2),
            b'&' => (Tok::Ampersand, 1),
            b'|' if next == Some(b'|') => (Tok::Or, 2),
            b'|' => (Tok::Pipe, 1),
            b'!' if next == Some(b'=') => (Tok::Ne, 2),
            b'!' => (Tok::Not, 1),
            b'=' if next == Some(b'=') => (Tok::Eq, 2),
            b'<' if next == Some(b'=') => (Tok::Le, 2),
            b'<' => (Tok::Lt, 1),
            b'>' if next == Some(b'=') => (Tok::Ge, 2),
            b'>' => (Tok::Gt, 1),
            _ => {
                let c = text[i..].chars().next().unwrap_or('\u{fffd}');
                let what = match c {
                    '=' => "'=' is not an operator (did you mean '=='?)".to_string(),
                    '$' => "'$' (variables are not standard JMESPath)".to_string(),
                    '?' => "'?' (the ternary operator is not standard JMESPath)".to_string(),
                    _ => format!("unexpected character {c:?}"),
                };
                return Err(JmespathError::syntax(start, what));
            }
        };
        tokens.push(Token { tok, offset: start });
        i += len;
    }
    tokens.push(Token {
        tok: Tok::Eof,
        offset: text.len(),
    });
    Ok(tokens)
}

fn scan_while(bytes: &[u8], mut i: usize, pred: impl Fn(u8) -> bool) -> usize {
    while i < bytes.len() && pred(bytes[i]) {
        i += 1;
    }
    i
}

/// The end (one past the closing quote) of a token delimited by `quote`, where a backslash
/// escapes the next byte.
fn scan_quoted(bytes: &[u8], start: usize, quote: u8) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// A backtick literal: JSON, or (the deprecated form the JavaScript library still accepts) the
/// text of a string when it does not look like JSON, as in `` `foo` ``.
fn parse_literal(body: &str, offset: usize) -> Result<Value, JmespathError> {
    let text = body.trim_start_matches([' ', '\t', '\n', '\r']);
    let parsed = if looks_like_json(text) {
        serde_json::from_str(text)
    } else {
        serde_json::from_str(&format!("\"{text}\""))
    };
    parsed.map_err(|e| JmespathError::syntax(offset, format!("invalid JSON literal: {e}")))
}

fn looks_like_json(text: &str) -> bool {
    match text.as_bytes().first() {
        None => false,
        Some(b'[' | b'{' | b'"') => true,
        Some(b'-' | b'0'..=b'9') => serde_json::from_str::<Value>(text).is_ok(),
        Some(_) => matches!(text.trim_end(), "true" | "false" | "null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokenize(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn operators_and_brackets() {
        assert_eq!(
            toks("a[?b<=`1`]|[]"),
            vec![
                Tok::Ident("a".into()),
                Tok::Filter,
                Tok::Ident("b".into()),
                Tok::Le,
                Tok::Literal(serde_json::json!(1)),
                Tok::RBracket,
                Tok::Pipe,
                Tok::Flatten,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(toks(r#""a\"b""#)[0], Tok::Quoted("a\"b".into()));
        assert_eq!(toks(r"'it\'s \z'")[0], Tok::Literal("it's \\z".into()));
        assert_eq!(toks(r"`foo`")[0], Tok::Literal("foo".into()));
        assert_eq!(toks("`\"a\\`b\"`")[0], Tok::Literal("a`b".into()));
        assert_eq!(toks("-12")[0], Tok::Number(-12));
    }

    #[test]
    fn extensions_are_rejected() {
        for text in [
            "$.foo",
            "a ? b : c",
            "a = b",
            "`[1`",
            "'open",
            "\"\\u\"",
            "-x",
            "#",
        ] {
            let err = tokenize(text).unwrap_err();
            assert_eq!(
                err.kind(),
                super::super::JmespathErrorKind::Syntax,
                "{text}"
            );
        }
    }
}
