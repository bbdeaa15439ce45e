//! How deep JSON nests: text measured before it is parsed (so that `serde_json`, which
//! recurses, only sees text within the limit), values measured and dropped without recursion.

use crate::error::{Error, ErrorCode};
use serde_json::Value;

/// The default of [`Limits::max_depth`](crate::Limits::max_depth), for readers that run before
/// any environment's limits apply (a catalog document loaded on its own).
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
    let mut scan = DepthScan::default();
    let mut blocks = text.as_bytes().chunks_exact(BLOCK);
    if blocks.any(|block| scan.passes(block, limit)) {
        return true;
    }
    // The last bytes, padded with zeros, which are not structural.
    let mut last = [0; BLOCK];
    let rest = blocks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    scan.passes(&last, limit)
}

/// Bytes classified at a time by [`nests_deeper_than`]: one bit each in a `u64`.
const BLOCK: usize = 64;

/// Where the depth scan is between blocks.
#[derive(Default)]
struct DepthScan {
    depth: usize,
    in_string: bool,
    /// The previous block ended with a backslash inside a string, which escapes the next byte.
    escaped: bool,
}

impl DepthScan {
    /// Scans one block of [`BLOCK`] bytes; whether the depth passed `limit` in it.
    ///
    /// Tool results are mostly text inside strings, which a scan byte by byte has to step
    /// through (and stop at each escape of). Here the block's quotes, backslashes and brackets
    /// are found by 16-byte vector compares (`wide`: SSE2 on x86-64, NEON on aarch64, plain code
    /// elsewhere), and only those bytes are visited, in order.
    fn passes(&mut self, block: &[u8], limit: usize) -> bool {
        let masks = Masks::of(block);
        let mut marked = masks.quote | masks.backslash | masks.open | masks.close;
        if std::mem::take(&mut self.escaped) {
            marked &= !1;
        }
        while marked != 0 {
            let at = marked.trailing_zeros();
            let bit = 1u64 << at;
            marked &= marked - 1;
            if self.in_string {
                if masks.backslash & bit != 0 {
                    // The byte after it is text, even a quote or a backslash.
                    match at {
                        63 => self.escaped = true,
                        _ => marked &= !(bit << 1),
                    }
                } else if masks.quote & bit != 0 {
                    self.in_string = false;
                }
            } else if masks.quote & bit != 0 {
                self.in_string = true;
            } else if masks.open & bit != 0 {
                self.depth += 1;
                if self.depth > limit {
                    return true;
                }
            } else if masks.close & bit != 0 {
                self.depth = self.depth.saturating_sub(1);
            }
        }
        false
    }
}

/// Bit `i` of each mask says whether byte `i` of a block is in the mask's set.
struct Masks {
    quote: u64,
    backslash: u64,
    open: u64,
    close: u64,
}

impl Masks {
    fn of(block: &[u8]) -> Masks {
        use wide::u8x16;
        // `[` and `{` differ only in bit 0x20, as do `]` and `}`: setting it folds each pair.
        let (quote, backslash) = (u8x16::splat(b'"'), u8x16::splat(b'\\'));
        let (open, close, fold) = (u8x16::splat(b'{'), u8x16::splat(b'}'), u8x16::splat(0x20));
        let mut masks = Masks {
            quote: 0,
            backslash: 0,
            open: 0,
            close: 0,
        };
        for (k, lane) in block.chunks_exact(16).enumerate() {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(lane);
            let bytes = u8x16::new(bytes);
            let folded = bytes | fold;
            let bits = |v: u8x16| u64::from(v.move_mask() as u16) << (16 * k);
            masks.quote |= bits(bytes.cmp_eq(quote));
            masks.backslash |= bits(bytes.cmp_eq(backslash));
            masks.open |= bits(folded.cmp_eq(open));
            masks.close |= bits(folded.cmp_eq(close));
        }
        masks
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
/// Walks depth first with a stack of one iterator per open container, so the stack never holds
/// more than `limit` entries, and stops as soon as the limit is passed.
pub(crate) fn depth_exceeds(value: &Value, limit: usize) -> bool {
    /// The children of one open container still to visit.
    enum Children<'v> {
        Items(std::slice::Iter<'v, Value>),
        Members(serde_json::map::Values<'v>),
    }
    fn open(value: &Value) -> Option<Children<'_>> {
        match value {
            Value::Array(items) => Some(Children::Items(items.iter())),
            Value::Object(map) => Some(Children::Members(map.values())),
            _ => None,
        }
    }
    let Some(first) = open(value) else {
        return false;
    };
    if limit == 0 {
        return true;
    }
    let mut stack = vec![first];
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Children::Items(items) => items.next(),
            Children::Members(members) => members.next(),
        };
        match next {
            None => {
                stack.pop();
            }
            Some(child) => {
                if let Some(children) = open(child) {
                    if stack.len() >= limit {
                        return true;
                    }
                    stack.push(children);
                }
            }
        }
    }
    false
}

/// Drops a value of any depth without recursion (the derived drop of `Value` recurses): what
/// the engine drops that it did not build under its limits (a rolled-back write into the
/// host's model), fixture files, and the tests that build values deeper than the limits.
pub(crate) fn drop_deep(value: Value) {
    let mut stack = match value {
        Value::Array(items) => items,
        Value::Object(map) => map.into_iter().map(|(_, v)| v).collect(),
        _ => return,
    };
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::same_text;

    #[test]
    fn same_text_agrees_with_equality_at_every_length_and_place() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=40 {
            let a = std::str::from_utf8(&base[..n]).unwrap();
            assert!(same_text(a, a));
            if n > 0 {
                assert!(!same_text(a, &a[..n - 1]));
            }
            for at in 0..n {
                let mut other = base[..n].to_vec();
                other[at] = b'#';
                let b = std::str::from_utf8(&other).unwrap();
                assert_eq!(same_text(a, b), a == b, "{a:?} {b:?}");
            }
        }
        assert!(same_text("é", "é"));
        assert!(!same_text("é", "è"));
    }
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
    fn escapes_and_strings_across_blocks() {
        // A backslash as the last byte of a block escapes the first of the next one.
        for pad in 0..70 {
            let text = format!("[{}\"{}\\\"[[[\"]", " ".repeat(pad), "a".repeat(pad));
            assert_eq!(nests_deeper_than(&text, 1), naive_depth(&text) > 1, "{pad}");
            assert!(!nests_deeper_than(&text, 1), "{pad}");
        }
        let issue = r#"{"n":1,"title":"Fix \"quoted\" [x]","labels":[{"name":"a{"}],"body":"long text without anything special in it at all, long enough to span blocks"},"#;
        let text = format!("[{}{{}}]", issue.repeat(50));
        for limit in 0..6 {
            assert_eq!(nests_deeper_than(&text, limit), naive_depth(&text) > limit);
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
