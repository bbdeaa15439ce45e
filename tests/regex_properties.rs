//! Property tests for the regex dialect: no input makes it panic, and a few laws hold.

use a2ui_catalog_mcp::regex::{Pattern, RegexErrorKind, validate};
use proptest::prelude::*;

/// Pattern-like text: syntax characters, escapes and letters, mostly short.
fn pattern_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "b",
        "é",
        "😀",
        "(",
        ")",
        "(?:",
        "(?<n>",
        "(?=",
        "[",
        "]",
        "[^",
        "{",
        "}",
        "{2}",
        "{1,3}",
        "{2,1}",
        "|",
        "^",
        "$",
        "\\",
        ".",
        "*",
        "+",
        "?",
        "-",
        ",",
        "0",
        "1",
        "\\d",
        "\\w",
        "\\s",
        "\\b",
        "\\B",
        "\\u{1F600}",
        "\\uD83D",
        "\\uDE00",
        "\\x41",
        "\\cJ",
        "\\p{L}",
        "\\P{Lu}",
        "\\p{Script=Greek}",
        "\\k<n>",
        "\\1",
        "\\0",
        "\n",
        "\u{2028}",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "^$\\.*+?()[]{}|/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

proptest! {
    #[test]
    fn never_panics_on_pattern_like_text(p in pattern_text(), input in "\\PC{0,40}") {
        let checked = validate(&p);
        match Pattern::new(&p) {
            Ok(compiled) => {
                prop_assert!(checked.is_ok());
                if let Some(groups) = compiled.captures(&input) {
                    prop_assert_eq!(groups.len(), compiled.group_count());
                }
            }
            Err(e) => {
                prop_assert!(!e.message().is_empty());
                prop_assert!(e.offset().is_none_or(|o| o <= p.len()));
            }
        }
    }

    #[test]
    fn never_panics_on_arbitrary_text(p in "\\PC{0,60}", input in "\\PC{0,20}") {
        if let Ok(compiled) = Pattern::new(&p) {
            let _ = compiled.captures(&input);
        }
    }

    #[test]
    fn an_escaped_text_matches_itself(text in "[a-z0-9 .*+?()\\[\\]{}|^$\\\\/é😀-]{1,60}") {
        let p = escape(&text);
        match Pattern::new(&p) {
            Ok(compiled) => {
                prop_assert_eq!(compiled.captures(&text), Some(vec![]));
                let wrapped = Pattern::new(&format!("({p})")).unwrap();
                let haystack = format!("x{text}y");
                prop_assert_eq!(wrapped.captures(&haystack), Some(vec![text.as_str()]));
            }
            // Only the safety check may refuse an escaped text: it reads `\{2}` as a quantifier.
            Err(e) => prop_assert_eq!(e.kind(), RegexErrorKind::Unsafe, "{}", e),
        }
    }
}
