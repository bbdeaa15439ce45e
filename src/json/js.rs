//! Numbers and values as JavaScript prints them: `Number.prototype.toString` for numbers (what
//! JMESPath's `to_string` and `JSON.stringify` print) and `String(x ?? '')` for any value (what
//! `split` and `regexCapture` coerce their input with).

use serde_json::{Number, Value};
use std::borrow::Cow;

/// The largest integer every smaller one of which an `f64` holds exactly (JavaScript's
/// `Number.MAX_SAFE_INTEGER`). Integers up to it in magnitude print the same as an `f64` would.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `n` when it is an integer that prints as itself in JavaScript (`None` for a fraction or an
/// integer beyond [`MAX_SAFE_INTEGER`], which JavaScript rounds to an `f64` first).
fn safe_integer(n: &Number) -> Option<i64> {
    let i = n.as_i64()?;
    (i.unsigned_abs() <= MAX_SAFE_INTEGER).then_some(i)
}

/// `n` as JavaScript's `Number.prototype.toString` prints it, when it is not a safe integer.
fn push_f64(out: &mut String, n: &Number) {
    let f = n.as_f64().unwrap_or(f64::NAN);
    out.push_str(ryu_js::Buffer::new().format(f));
}

/// Appends a JSON number as JavaScript's `Number.prototype.toString` prints it (`3`, `1.5`,
/// `1e+21`, `0.30000000000000004`).
///
/// Integers beyond 2^53 go through `f64` first, as they would in JavaScript.
pub(crate) fn push_js_number(out: &mut String, n: &Number) {
    use std::fmt::Write;
    match safe_integer(n) {
        Some(i) => {
            let _ = write!(out, "{i}");
        }
        None => push_f64(out, n),
    }
}

/// A JSON number as JavaScript's `Number.prototype.toString` prints it (`3`, `1.5`, `1e+21`,
/// `0.30000000000000004`); integers beyond 2^53 go through `f64` first, as they would in
/// JavaScript.
///
/// ```
/// # use a2ui_catalog_mcp::json::js_number_string;
/// assert_eq!(js_number_string(&serde_json::Number::from_f64(1e21).unwrap()), "1e+21");
/// assert_eq!(js_number_string(&serde_json::Number::from_f64(3.0).unwrap()), "3");
/// assert_eq!(js_number_string(&serde_json::Number::from(7)), "7");
/// ```
pub fn js_number_string(n: &Number) -> String {
    match safe_integer(n) {
        // `to_string` of an integer is sized exactly and skips the formatting machinery: the
        // usual `to_string(number)` of a reshape is this.
        Some(i) => i.to_string(),
        None => {
            let mut out = String::new();
            push_f64(&mut out, n);
            out
        }
    }
}

/// `String(x ?? '')` for one item: borrows strings, prints everything else.
///
/// ```
/// # use a2ui_catalog_mcp::json::to_js_string;
/// # use serde_json::json;
/// assert_eq!(to_js_string(&json!(null)), "");
/// assert_eq!(to_js_string(&json!([1, null, "a"])), "1,,a");
/// assert_eq!(to_js_string(&json!({"a": 1})), "[object Object]");
/// ```
pub fn to_js_string(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(s) => Cow::Borrowed(s),
        Value::Null => Cow::Borrowed(""),
        Value::Bool(true) => Cow::Borrowed("true"),
        Value::Bool(false) => Cow::Borrowed("false"),
        Value::Object(_) => Cow::Borrowed("[object Object]"),
        Value::Number(n) => Cow::Owned(js_number_string(n)),
        Value::Array(_) => {
            let mut out = String::new();
            push_js_string(&mut out, value);
            Cow::Owned(out)
        }
    }
}

/// Appends `String(x ?? '')`. Arrays join their elements with `,` (JavaScript's
/// `Array.prototype.toString`), with `null` elements as empty text. Nested arrays are walked
/// with an explicit stack: the data may come from a tool and nest arbitrarily deep.
fn push_js_string(out: &mut String, value: &Value) {
    // Each open array with whether its first element has been printed (commas go between).
    let mut stack: Vec<(std::slice::Iter<'_, Value>, bool)> = Vec::new();
    let mut current = value;
    loop {
        match current {
            Value::Array(items) => stack.push((items.iter(), false)),
            Value::Null => {}
            Value::String(s) => out.push_str(s),
            Value::Number(n) => push_js_number(out, n),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Object(_) => out.push_str("[object Object]"),
        }
        loop {
            let Some((items, started)) = stack.last_mut() else {
                return;
            };
            match items.next() {
                Some(next) => {
                    if *started {
                        out.push(',');
                    }
                    *started = true;
                    current = next;
                    break;
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
}

/// Whether `c` is whitespace in a JavaScript regular expression (`\s`: the ECMAScript
/// WhiteSpace and LineTerminator sets). Unlike Rust's `char::is_whitespace`, it holds U+FEFF
/// and not U+0085. The same set is ECMAScript's StrWhiteSpaceChar, which `Number(text)` trims
/// (JMESPath's `to_number`).
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0b}' | '\u{0c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// Why `text` is not a `"format": "uri"` value as the published v1.0 schemas state it since
/// November 2026: `^[A-Za-z][A-Za-z0-9+.-]*:\S*$`, a scheme, a colon, and no whitespace (`\S`
/// as JavaScript reads it). `None` when it is one. Only the form is judged: which schemes a
/// host opens is its own decision (`javascript:` has the form). Its users (`openUrl`, the
/// schema checks) come with the features `basic-catalog` and `json-schema`.
#[cfg(any(feature = "basic-catalog", feature = "json-schema", test))]
pub(crate) fn uri_format_problem(text: &str) -> Option<String> {
    let Some((scheme, rest)) = text.split_once(':') else {
        return Some("has no scheme (it must start with one, as in \"https:\")".to_owned());
    };
    let mut bytes = scheme.bytes();
    let scheme_ok = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !scheme_ok {
        return Some(format!(
            "has no scheme: {scheme:?} before the first ':' is not one (a letter, then letters, digits, '+', '-' or '.')"
        ));
    }
    if let Some((at, c)) = rest.char_indices().find(|(_, c)| is_js_space(*c)) {
        return Some(format!(
            "holds whitespace ({:?} at byte {}): a URI has none",
            c,
            scheme.len() + 1 + at
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_like_javascript() {
        let cases = [
            (json!(12), "12"),
            (json!(-7), "-7"),
            (json!(1.5), "1.5"),
            (json!(3.0), "3"),
            (json!(1e21), "1e+21"),
            (json!(1e-7), "1e-7"),
            (json!(0.30000000000000004), "0.30000000000000004"),
            (json!(12345678901234567890u64), "12345678901234567000"),
            (json!(-9007199254740993i64), "-9007199254740992"),
        ];
        for (value, expected) in cases {
            assert_eq!(to_js_string(&value), expected, "{value}");
        }
    }

    #[test]
    fn arrays_join_like_javascript() {
        assert_eq!(to_js_string(&json!([])), "");
        assert_eq!(to_js_string(&json!([null])), "");
        assert_eq!(
            to_js_string(&json!([1, [2, [3, null]], "x", true])),
            "1,2,3,,x,true"
        );
        assert_eq!(to_js_string(&json!([[], []])), ",");
        assert_eq!(to_js_string(&json!([{"a": 1}])), "[object Object]");
    }

    #[test]
    fn deep_arrays_do_not_overflow() {
        let mut v = json!("x");
        for _ in 0..200_000 {
            v = Value::Array(vec![v]);
        }
        assert_eq!(to_js_string(&v), "x");
        crate::json::drop_deep(v);
    }

    #[test]
    fn uris_have_the_published_form() {
        for ok in [
            "https://example.com",
            "mailto:a@b.c",
            "x:",
            "javascript:alert(1)",
            "a+b.c-d:e",
        ] {
            assert_eq!(uri_format_problem(ok), None, "{ok}");
        }
        for (bad, says) in [
            ("example.com", "has no scheme"),
            ("", "has no scheme"),
            (":x", "has no scheme"),
            ("1a:x", "has no scheme"),
            ("a_b:x", "has no scheme"),
            ("https://a b", "whitespace"),
            ("https://a\u{feff}b", "whitespace"),
            ("https://a\u{3000}", "whitespace"),
        ] {
            let why = uri_format_problem(bad).unwrap_or_default();
            assert!(why.contains(says), "{bad:?}: {why}");
        }
        // JavaScript's \s does not hold U+0085, which Rust's whitespace does.
        assert_eq!(uri_format_problem("https://a\u{85}b"), None);
    }
}
