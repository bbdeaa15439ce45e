//! The basic catalog's functions by name ([`Kind`]) and the reading of their arguments, written
//! once over an argument lookup ([`Get`]) so that the engine's calls and the interpolation of
//! templates from data read arguments the same way. Every function file reads its arguments
//! with these; nothing here knows a function's implementation.

use crate::catalog::Args;
use crate::error::{Error, ErrorCode};
use crate::json::kind_name;
use serde_json::{Number, Value};

/// The functions, by name (the catalog document's 30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Required,
    Regex,
    Length,
    Numeric,
    Email,
    FormatString,
    FormatNumber,
    FormatCurrency,
    FormatDate,
    Pluralize,
    OpenUrl,
    And,
    Or,
    Not,
    Add,
    Subtract,
    Multiply,
    Divide,
    GreaterThan,
    LessThan,
    Equals,
    NotEquals,
    Contains,
    StartsWith,
    EndsWith,
    Clamp,
    Round,
    Min,
    Max,
    Abs,
}

impl Kind {
    pub(crate) const ALL: [(&'static str, Kind); 30] = [
        ("required", Kind::Required),
        ("regex", Kind::Regex),
        ("length", Kind::Length),
        ("numeric", Kind::Numeric),
        ("email", Kind::Email),
        ("formatString", Kind::FormatString),
        ("formatNumber", Kind::FormatNumber),
        ("formatCurrency", Kind::FormatCurrency),
        ("formatDate", Kind::FormatDate),
        ("pluralize", Kind::Pluralize),
        ("openUrl", Kind::OpenUrl),
        ("and", Kind::And),
        ("or", Kind::Or),
        ("not", Kind::Not),
        ("add", Kind::Add),
        ("subtract", Kind::Subtract),
        ("multiply", Kind::Multiply),
        ("divide", Kind::Divide),
        ("greater_than", Kind::GreaterThan),
        ("less_than", Kind::LessThan),
        ("equals", Kind::Equals),
        ("not_equals", Kind::NotEquals),
        ("contains", Kind::Contains),
        ("starts_with", Kind::StartsWith),
        ("ends_with", Kind::EndsWith),
        ("clamp", Kind::Clamp),
        ("round", Kind::Round),
        ("min", Kind::Min),
        ("max", Kind::Max),
        ("abs", Kind::Abs),
    ];

    pub(crate) fn of(name: &str) -> Option<Kind> {
        Kind::ALL.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    pub(crate) fn name(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(n, _)| n)
    }
}

/// Reads a call's arguments by name.
pub(crate) trait Get {
    fn get(&self, name: &str) -> Option<&Value>;
}

impl Get for Args<'_> {
    fn get(&self, name: &str) -> Option<&Value> {
        Args::get(self, name)
    }
}

impl Get for [(String, Value)] {
    fn get(&self, name: &str) -> Option<&Value> {
        self.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// A JSON number for `n`: an integer when it is one (as JavaScript prints `3`, not `3.0`).
pub(crate) fn number_value(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        // Exact: |n| < 2^53 and integral (-0 becomes 0, as JSON.stringify writes it).
        Value::from(n as i64)
    } else {
        Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

pub(crate) fn arg_error(kind: Kind, arg: &str, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        format!("{}: '{arg}' {message}", kind.name()),
    )
    .with_function(kind.name())
}

/// JavaScript's `Number(x)` for a string: trimmed, empty is 0, decimal or `0x`/`0o`/`0b`
/// integers, `Infinity`; anything else is NaN (`None`).
pub(crate) fn js_string_number(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return Some(0.0);
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            return Some(digits.chars().fold(0.0, |acc, c| {
                acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
            }));
        }
    }
    match t {
        "Infinity" | "+Infinity" => return Some(f64::INFINITY),
        "-Infinity" => return Some(f64::NEG_INFINITY),
        _ => {}
    }
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
        && body != ".";
    if !ok {
        return None;
    }
    t.parse::<f64>().ok()
}

/// A number argument: a JSON number, or a string JavaScript's `Number()` reads. `None` when
/// absent or `null`.
pub(crate) fn number_arg(
    kind: Kind,
    args: &(impl Get + ?Sized),
    name: &str,
) -> Result<Option<f64>, Error> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(Value::String(s)) => match js_string_number(s) {
            Some(n) if n.is_finite() => Ok(Some(n)),
            _ => Err(arg_error(
                kind,
                name,
                format!("must be a number, got the text {s:?}"),
            )),
        },
        Some(other) => Err(arg_error(
            kind,
            name,
            format!("must be a number, got {}", kind_name(other)),
        )),
    }
}
