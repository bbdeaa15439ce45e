//! Whether JSON text nests deeper than a limit, 64 bytes at a time.
//!
//! Tool results are parsed by `sonic-rs`, whose parser recurses without a bound, so their
//! depth must be known first; on the guide's list of issues that check cost as much as the
//! parse itself when done byte by byte. Here each 64-byte block is classified with 16-byte
//! vector compares (`wide`, safe SIMD: SSE2 on x86-64, NEON on aarch64, plain code elsewhere)
//! into bit masks of quotes, backslashes and brackets. The
//! bytes inside strings are then found with a prefix XOR of the quote mask, and the brackets
//! outside strings are only counted: a block can only pass the limit when its opening brackets
//! could take the depth there, and only then are its brackets walked one by one. In a block
//! with a backslash (an escape can hide a quote), or one that starts right after a backslash,
//! the marked bytes are visited in order instead; the tail is scanned byte by byte.

/// Where the scan is between bytes: the depth, and whether it is inside a string, right after
/// a backslash in one.
#[derive(Default)]
struct State {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

/// Whether `text` nests `[`/`{` deeper than `limit`: the answer of
/// [`nesting_depth`](super::nesting_depth)`(text, limit) > limit`, found about twice as fast
/// on typical tool results. Use it before handing text to a parser that recurses.
///
/// ```
/// use a2ui_catalog_mcp::json::nests_deeper_than;
/// assert!(!nests_deeper_than(r#"[{"a": "[[[["}]"#, 2));
/// assert!(nests_deeper_than("[[[1]]]", 2));
/// ```
pub fn nests_deeper_than(text: &str, limit: usize) -> bool {
    let bytes = text.as_bytes();
    let mut state = State::default();
    let mut blocks = bytes.chunks_exact(64);
    for block in &mut blocks {
        let masks = Masks::of(block);
        let deeper = if masks.backslash == 0 && !state.escaped {
            counted(&masks, &mut state, limit)
        } else {
            walked(&masks, &mut state, limit)
        };
        if deeper {
            return true;
        }
    }
    byte_by_byte(blocks.remainder(), &mut state, limit)
}

/// One block without backslashes: brackets outside strings counted, walked only near `limit`.
fn counted(masks: &Masks, state: &mut State, limit: usize) -> bool {
    let mut inside = prefix_xor(masks.quote);
    if state.in_string {
        inside = !inside;
    }
    // A quote's own bit is set when it opens a string and clear when it closes one, so the last
    // bit says whether the block ends inside a string.
    state.in_string = inside >> 63 == 1;
    let open = masks.open & !inside;
    let close = masks.close & !inside;
    let (opens, closes) = (open.count_ones() as usize, close.count_ones() as usize);
    // The depth stays within [depth - closes, depth + opens] in this block: when that is within
    // [0, limit], neither the limit nor the floor at 0 can be met on the way.
    if state.depth + opens <= limit && closes <= state.depth {
        state.depth = state.depth + opens - closes;
        return false;
    }
    let mut brackets = open | close;
    while brackets != 0 {
        let bit = 1u64 << brackets.trailing_zeros();
        if open & bit != 0 {
            state.depth += 1;
            if state.depth > limit {
                return true;
            }
        } else {
            state.depth = state.depth.saturating_sub(1);
        }
        brackets &= brackets - 1;
    }
    false
}

/// One block with escapes: its quotes, backslashes and brackets visited in order (usually a
/// few, against 64 bytes), with `byte_by_byte`'s rules.
fn walked(masks: &Masks, state: &mut State, limit: usize) -> bool {
    let mut marked = masks.quote | masks.backslash | masks.open | masks.close;
    // The position of the byte a backslash escapes: skipped if it is marked (`\"`, `\\`).
    let mut escaped_at = if state.escaped { Some(0) } else { None };
    state.escaped = false;
    while marked != 0 {
        let at = marked.trailing_zeros();
        marked &= marked - 1;
        let bit = 1u64 << at;
        if state.in_string {
            if escaped_at == Some(at) {
                continue;
            }
            if masks.backslash & bit != 0 {
                match at {
                    63 => state.escaped = true,
                    _ => escaped_at = Some(at + 1),
                }
            } else if masks.quote & bit != 0 {
                state.in_string = false;
            }
        } else if masks.quote & bit != 0 {
            state.in_string = true;
        } else if masks.open & bit != 0 {
            state.depth += 1;
            if state.depth > limit {
                return true;
            }
        } else if masks.close & bit != 0 {
            state.depth = state.depth.saturating_sub(1);
        }
    }
    false
}

/// The definition, one byte at a time (`nesting_depth`'s rules), continuing from `state`.
fn byte_by_byte(bytes: &[u8], state: &mut State, limit: usize) -> bool {
    for &b in bytes {
        if state.in_string {
            match (state.escaped, b) {
                (true, _) => state.escaped = false,
                (false, b'\\') => state.escaped = true,
                (false, b'"') => state.in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => state.in_string = true,
            b'[' | b'{' => {
                state.depth += 1;
                if state.depth > limit {
                    return true;
                }
            }
            b']' | b'}' => state.depth = state.depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Each bit says whether the byte at that position of the block (bit 0 first) is in the set
/// after it: strings' brackets included, the scan sorts them out.
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
            let mut array = [0u8; 16];
            array.copy_from_slice(lane);
            let bytes = u8x16::new(array);
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

/// Bit `i` of the result is the XOR of bits `0..=i` of `x`: set from an opening quote up to
/// the byte before the closing one.
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::super::nesting_depth;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn prefix_xor_marks_strings() {
        // Quotes at 1 and 4: bytes 1..4 are inside.
        assert_eq!(prefix_xor(0b10010), 0b01110);
    }

    #[test]
    fn blocks_and_tails_agree_with_the_definition() {
        let issue = r#"{"n":1,"title":"Fix \"quoted\" [x]","labels":[{"name":"a{"}],"body":"long text without anything special in it at all, long enough to span blocks"},"#;
        let text = format!("[{}{{}}]", issue.repeat(50));
        for limit in 0..6 {
            assert_eq!(
                nests_deeper_than(&text, limit),
                nesting_depth(&text, limit) > limit,
                "limit {limit}"
            );
        }
        let deep = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
        assert!(nests_deeper_than(&deep, 999));
        assert!(!nests_deeper_than(&deep, 1000));
    }

    proptest! {
        #[test]
        fn agrees_with_the_definition(
            text in r#"(a{30}|é|"|\\|\[|\]|\{|\}| |,|:){0,300}"#,
            limit in 0usize..12,
        ) {
            prop_assert_eq!(nests_deeper_than(&text, limit), nesting_depth(&text, limit) > limit);
        }
    }
}
