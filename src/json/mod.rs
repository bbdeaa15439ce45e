//! JSON text and values from untrusted sources: parsing with a depth limit, and the few
//! whole-value walks the crate needs, all without recursion.
//!
//! `serde_json` parses and drops values recursively. Its default recursion limit (128) would
//! refuse data the crate accepts (its depth limit is configurable, and fixture files nest
//! deeper on purpose), and lifting it would let a deep document overflow the stack. So text is
//! first scanned for its nesting depth (a cheap byte loop), and only parsed when the depth is
//! within the caller's limit.

mod block_scan;

use crate::error::{Error, ErrorCode};
use serde_json::Value;

pub use block_scan::nests_deeper_than;

/// The depth used when the caller has no better limit: the payload default
/// ([`Limits::max_depth`](crate::Limits::max_depth)).
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// The deepest nesting of `[`/`{` in `text`, stopping early once it passes `limit`.
///
/// Strings are skipped (a bracket inside a string does not count). Malformed text is measured
/// all the same: the parser reports what is wrong with it afterwards.
pub fn nesting_depth(text: &str, limit: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string: to the next quote not escaped by a backslash.
                i += 1;
                loop {
                    i = quote_or_backslash(bytes, i);
                    match bytes.get(i) {
                        Some(b'\\') => i += 2,
                        Some(_) => break,
                        None => return deepest,
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > deepest {
                    deepest = depth;
                    if deepest > limit {
                        return deepest;
                    }
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// The position of the first `"` or `\` at or after `from` (`bytes.len()` when none). Most
/// strings of a JSON text are short (keys, numbers as text, names), so the first 16 bytes are
/// checked 8 at a time, which costs less than calling a vectorised search; what is longer
/// (descriptions, bodies: most of the bytes) is left to `memchr2`, which reads 32 at a time.
fn quote_or_backslash(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let mut i = from;
    for _ in 0..2 {
        let Some(chunk) = bytes.get(i..i + 8) else {
            break;
        };
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let hits =
            has_zero(word ^ (ONES * u64::from(b'"'))) | has_zero(word ^ (ONES * u64::from(b'\\')));
        if hits != 0 {
            // The lowest flagged byte is the first hit: bytes before it cannot be flagged by
            // the borrow that makes `has_zero` inexact (it only runs upwards).
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    if i + 8 <= bytes.len() {
        return memchr::memchr2(b'"', b'\\', &bytes[i..]).map_or(bytes.len(), |k| i + k);
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' {
            return i;
        }
        i += 1;
    }
    bytes.len()
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
pub fn depth_exceeds(value: &Value, limit: usize) -> bool {
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
pub fn drop_deep(value: Value) {
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
pub fn kind_name(value: &Value) -> &'static str {
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

    /// The byte-at-a-time definition the fast scan must agree with.
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
        fn fast_depth_scan_agrees_with_the_definition(text in r#"(éaaaaaaaaa|a{25}|[\[\]{}"\\a ,:]){0,48}"#) {
            prop_assert_eq!(nesting_depth(&text, usize::MAX), naive_depth(&text));
        }
    }

    #[test]
    fn depth_ignores_brackets_in_strings() {
        assert_eq!(nesting_depth(r#"["[[[", {"a": "\"{{"}]"#, 10), 2);
        assert_eq!(nesting_depth("1", 10), 0);
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
