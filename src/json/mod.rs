//! JSON text and values from untrusted sources, the layer the rest of the crate builds on:
//! parsing with a depth limit, the few whole-value walks the crate needs (all without
//! recursion), and values printed as JavaScript prints them ([`to_js_string`]).
//!
//! `serde_json` parses and drops values recursively. Its default recursion limit (128) would
//! refuse data the crate accepts (its depth limit is configurable, and fixture files nest
//! deeper on purpose), and lifting it would let a deep document overflow the stack. So text is
//! first scanned for its nesting depth ([`nests_deeper_than`]), and only parsed when the depth
//! is within the caller's limit. Tool texts, the large ones, go through the crate's own reader
//! instead (`reader.rs`): one pass checks them, depth included, without recursion, and their
//! values are decoded as far as they are read.

mod js;
mod reader;

use crate::error::{Error, ErrorCode};
use serde_json::{Number, Value};

#[cfg(any(feature = "basic-catalog", feature = "json-schema"))]
pub(crate) use js::uri_format_problem;
pub(crate) use js::{MAX_SAFE_INTEGER, is_js_space, push_js_number};
pub use js::{js_number_string, to_js_string};
pub(crate) use reader::{Lite, Lites, Need, ReadError, Structure, Tree, Values, decode, scan};

/// Whether two strings are the same, compared inline when they are short.
///
/// Member names and the values a filter tests are a few bytes long, and most comparisons of a
/// search are of such strings: a call into the C library's comparison cost more than comparing
/// them here, with two overlapping loads of each.
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word4 = |s: &[u8], at: usize| {
        let mut w = [0; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    };
    let word8 = |s: &[u8], at: usize| {
        let mut w = [0; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    };
    match n {
        0 => true,
        // The first, middle and last bytes are every byte of these.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        9..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

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

/// Whether the tool-text reader's checking pass accepts `text` within `max_depth` (the grammar,
/// the depth limit, numbers within a double's range), recording the structure it would decode
/// from and dropping it. With the `internals` feature only: the benchmarks measure the pass
/// against [`nests_deeper_than`] with it.
///
/// ```
/// use a2ui_catalog_mcp::json::tool_text_checks;
/// assert!(tool_text_checks(r#"[{"a": "[[[["}]"#, 2));
/// assert!(!tool_text_checks("[[[1]]]", 2));
/// assert!(!tool_text_checks("[1,]", 2));
/// ```
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn tool_text_checks(text: &str, max_depth: usize) -> bool {
    scan(text, max_depth).is_ok()
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

/// Deep JSON equality with the number rule the caller chooses: object members in any order,
/// arrays in order, everything else by value. Iterative, for values of any depth. The engine has
/// two number rules: exact (`reactive::json_eq`, whether a value changed) and JavaScript's
/// doubles (the basic catalog's `equals`).
pub(crate) fn deep_equal(
    a: &Value,
    b: &Value,
    same_number: impl Fn(&Number, &Number) -> bool,
) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                if !same_number(x, y) {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (k, xv) in x {
                    match y.get(k) {
                        Some(yv) => stack.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            (x, y) => {
                if x != y {
                    return false;
                }
            }
        }
    }
    true
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

/// What the allocator keeps beside each allocation, at least.
pub(crate) const ALLOCATION_BYTES: usize = 16;

/// What one more entry of a JSON object costs beyond its key's and value's text: the value
/// itself, the key's `String` and its allocation, the entry's hash and the index's slot
/// (serde_json's `preserve_order` map).
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Value>() + 24 + ALLOCATION_BYTES + 16;

/// What each part of a JSON value costs, for [`bytes_with`]: beyond its text, a string's
/// allocation, an array's per item and for its allocation, an object's per entry (beside the
/// key's text) and for its allocations.
pub(crate) struct ByteCosts {
    pub(crate) string: usize,
    pub(crate) item: usize,
    pub(crate) array: usize,
    pub(crate) entry: usize,
    pub(crate) object: usize,
}

/// The costs of [`value_bytes`]: every allocation counted, the estimate the surfaces' limits
/// charge.
pub(crate) const HELD: ByteCosts = ByteCosts {
    string: ALLOCATION_BYTES,
    item: std::mem::size_of::<Value>(),
    array: ALLOCATION_BYTES,
    entry: ENTRY_BYTES,
    object: 2 * ALLOCATION_BYTES,
};

/// What a copy of `value` holds, estimated from above; `None` past `max`.
pub(crate) fn value_bytes(value: &Value, max: usize) -> Option<usize> {
    bytes_with(value, max, &HELD)
}

/// What `value` costs under `costs` (its own slot included); `None` past `max`. Walks with a
/// stack: a model's value may nest as deep as the host let it.
pub(crate) fn bytes_with(value: &Value, max: usize, costs: &ByteCosts) -> Option<usize> {
    let cost = |v: &Value| match v {
        Value::String(s) => s.len() + costs.string,
        Value::Array(items) => items.len() * costs.item + costs.array,
        Value::Object(map) => {
            map.keys().map(|k| k.len() + costs.entry).sum::<usize>() + costs.object
        }
        _ => 0,
    };
    let mut total = std::mem::size_of::<Value>() + cost(value);
    // A scalar, the common case of a write, is measured without a work list.
    if !matches!(value, Value::Array(_) | Value::Object(_)) || total > max {
        return (total <= max).then_some(total);
    }
    let mut stack: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) => map.values().collect(),
        _ => Vec::new(),
    };
    while let Some(v) = stack.pop() {
        // Checked before the children are stacked: a long container is refused unwalked.
        total += cost(v);
        if total > max {
            return None;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

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
