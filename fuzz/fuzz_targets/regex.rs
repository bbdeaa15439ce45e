//! Fuzz the regex dialect: pattern bytes and an input → validate, compile, match.
//! Never a panic, never a hang; every accepted pattern must stay within the dialect's limits.

#![no_main]

use a2ui_catalog_mcp::regex::{MAX_PATTERN_LEN, Pattern, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first two bytes (little-endian) say where the pattern ends and the input begins: one
    // byte could not reach patterns past the dialect's length limit.
    let [low, high, rest @ ..] = data else {
        return;
    };
    let at = usize::from(u16::from_le_bytes([*low, *high])).min(rest.len());
    let pattern = String::from_utf8_lossy(&rest[..at]);
    let input = String::from_utf8_lossy(&rest[at..]);
    let validated = validate(&pattern);
    match Pattern::new(&pattern) {
        Ok(p) => {
            assert!(
                validated.is_ok(),
                "compiled a pattern that does not validate: {pattern:?}"
            );
            assert!(pattern.encode_utf16().count() <= MAX_PATTERN_LEN);
            if let Some(groups) = p.captures(&input) {
                assert_eq!(groups.len(), p.group_count());
                for g in groups {
                    // Every capture is a slice of the input.
                    assert!(input.contains(g));
                }
            }
            assert_eq!(p.is_match(&input), p.captures(&input).is_some());
        }
        Err(e) => {
            assert!(!e.message().is_empty());
            if let Some(offset) = e.offset() {
                assert!(
                    offset <= pattern.len(),
                    "offset {offset} past the end of {pattern:?}"
                );
            }
        }
    }
});
