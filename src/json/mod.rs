//! JSON text and values from untrusted sources, the layer the rest of the crate builds on:
//! parsing with a depth limit, the few whole-value walks the crate needs (all without
//! recursion), and values printed as JavaScript prints them ([`to_js_string`]).
//!
//! `serde_json` parses and drops values recursively. Its default recursion limit (128) would
//! refuse test data the spec allows, and lifting it would let a deep document overflow the
//! stack. So text is first scanned for its nesting depth (a cheap byte loop), and only parsed
//! when the depth is within the caller's limit.

mod js;

use crate::error::{Error, ErrorCode};
use serde_json::Value;

pub(crate) use js::{MAX_SAFE_INTEGER, push_js_number};
pub use js::{js_number_string, to_js_string};

/// The depth limit of the MCP protocol and app readers, which do not take the host's
/// [`Limits`](crate::Limits) yet: the same as its default `max_depth`.
pub(crate) const DEFAULT_MAX_DEPTH: usize = 128;

/// Whether `text` nests `[`/`{` deeper than `limit`. Use it before handing text to a parser that
/// recurses.
///
/// Brackets inside strings do not count. Malformed text is measured all the same: the parser
/// reports what is wrong with it afterwards. The scan stops as soon as the limit is passed.
///
/// ```
/// use a2ui_catalog_mcp::json::nests_deeper_than;
/// assert!(!nests_deeper_than(r#"[{"a": "[[[["}]"#, 2));
/// assert!(nests_deeper_than("[[[1]]]", 2));
/// ```
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => match closing_quote(bytes, i + 1) {
                Some(end) => i = end,
                None => return false,
            },
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    false
}

/// The position of the quote that ends the string whose first byte is at `from`: the next one no
/// backslash escapes. `None` when the text ends first.
fn closing_quote(bytes: &[u8], from: usize) -> Option<usize> {
    // Most strings are short (keys, numbers as text, names) and end within a few bytes, where
    // stepping costs less than setting up a search; long ones (bodies, descriptions: most of a
    // tool result's bytes) are searched many bytes at a time.
    let mut i = from;
    let stepped_until = (from + 16).min(bytes.len());
    while i < stepped_until {
        match bytes[i] {
            b'"' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    loop {
        let rest = bytes.get(i..)?;
        let at = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[at] == b'"' {
            return Some(i + at);
        }
        i += at + 2;
    }
}

/// Parses JSON text whose nesting is at most `max_depth`, else `LIMIT_EXCEEDED`.
///
/// Invalid JSON is `VALIDATION_FAILED` with `serde_json`'s message (line and column).
///
/// ```
/// use a2ui_catalog_mcp::{json::from_str_limited, ErrorCode};
/// assert!(from_str_limited("[[1]]", 2).is_ok());
/// assert_eq!(from_str_limited("[[[1]]]", 2).unwrap_err().code(), ErrorCode::LimitExceeded);
/// ```
pub fn from_str_limited(text: &str, max_depth: usize) -> Result<Value, Error> {
    if nests_deeper_than(text, max_depth) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!("JSON nests deeper than the limit of {max_depth} levels"),
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // The depth was checked above, so serde_json's own limit (128) can be lifted safely.
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de)
        .and_then(|v: Value| de.end().map(|()| v))
        .map_err(|e| {
            Error::new(ErrorCode::ValidationFailed, format!("invalid JSON: {e}")).with_source(e)
        })?;
    Ok(value)
}

/// Whether `value` nests deeper than `limit` (a scalar has depth 0, `[]` depth 1).
/// Walks with an explicit stack and stops as soon as the limit is passed.
pub(crate) fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth + 1 > limit {
            return true;
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    false
}

/// Drops a value of any depth without recursion (the derived drop of `Value` recurses).
pub(crate) fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The kind of a value as the reference's error messages name it (`a string`, `an array`, …).
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, one byte at a time with an explicit string state.
    fn naive_depth(text: &str) -> usize {
        let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
        for b in text.bytes() {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        deepest
    }

    proptest! {
        #[test]
        fn depth_scan_agrees_with_the_definition(
            text in r#"(a{30}|é|"|\\|\[|\]|\{|\}| |,|:){0,300}"#,
            limit in 0usize..12,
        ) {
            prop_assert_eq!(nests_deeper_than(&text, limit), naive_depth(&text) > limit);
        }
    }

    #[test]
    fn depth_ignores_brackets_in_strings() {
        assert!(!nests_deeper_than(r#"["[[[", {"a": "\"{{"}]"#, 2));
        assert!(nests_deeper_than(r#"["[[[", {"a": "\"{{"}]"#, 1));
        assert!(!nests_deeper_than("1", 0));
        let deep = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
        assert!(nests_deeper_than(&deep, 999));
        assert!(!nests_deeper_than(&deep, 1000));
    }

    #[test]
    fn deep_text_is_limit_exceeded_not_a_crash() {
        let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let err = from_str_limited(&text, 128).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
    }

    #[test]
    fn depth_beyond_serde_default_parses() {
        let text = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let v = from_str_limited(&text, 1000).unwrap();
        assert!(!depth_exceeds(&v, 300));
        assert!(depth_exceeds(&v, 299));
        drop_deep(v);
    }

    #[test]
    fn invalid_json_is_validation_failed() {
        let err = from_str_limited("[1,", 10).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ValidationFailed);
        assert!(from_str_limited("1 2", 10).is_err());
    }
}
