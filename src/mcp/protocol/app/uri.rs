//! `url_encoded:` HTML, decoded the way JavaScript's `decodeURIComponent` decodes it.

use crate::error::{Error, ErrorCode};
use std::borrow::Cow;

/// The prefix that marks `htmlContent` as percent-encoded: `url_encoded:`.
pub const URL_ENCODED_PREFIX: &str = "url_encoded:";

fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

fn uri_error(offset: usize, what: &str) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("URIError: malformed URI sequence at byte {offset}: {what}"),
    )
}

/// The byte that `%XX` at `at` encodes, or why there is none.
fn escaped_byte(bytes: &[u8], at: usize) -> Result<u8, Error> {
    if bytes.get(at) != Some(&b'%') {
        return Err(uri_error(at, "expected '%' continuing a UTF-8 sequence"));
    }
    match (
        bytes.get(at + 1).copied().and_then(hex),
        bytes.get(at + 2).copied().and_then(hex),
    ) {
        (Some(high), Some(low)) => Ok(high << 4 | low),
        _ => Err(uri_error(at, "'%' is not followed by two hex digits")),
    }
}

/// Decodes percent-escapes exactly as JavaScript's `decodeURIComponent` does.
///
/// Every `%XX` is decoded (nothing is reserved); bytes of 0x80 and above must form, with the
/// escapes after them, one well-formed UTF-8 sequence. A `%` without two hex digits, a stray
/// continuation byte, a truncated sequence, an overlong form, a surrogate or a code point above
/// U+10FFFF is an error (`VALIDATION_FAILED`, message starting `URIError:` like the
/// JavaScript exception, with the byte offset of the failing escape). `+` stays `+`.
///
/// ```
/// use a2ui_catalog_mcp::mcp::app::decode_uri_component;
///
/// assert_eq!(decode_uri_component("%3Ch1%3Ecaf%C3%A9%20%F0%9F%8D%B0%3C%2Fh1%3E")?,
///            "<h1>café 🍰</h1>");
/// assert_eq!(decode_uri_component("a+b%2b")?, "a+b+");
/// assert!(decode_uri_component("100%").is_err());
/// assert!(decode_uri_component("%E9").is_err()); // Latin-1 é, not UTF-8
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn decode_uri_component(text: &str) -> Result<String, Error> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] != b'%' {
            k += 1;
            continue;
        }
        // Unescaped text is valid UTF-8 and '%' is ASCII, so these slices fall on char edges.
        out.push_str(&text[copied_to..k]);
        let start = k;
        let lead = escaped_byte(bytes, k)?;
        k += 3;
        if lead < 0x80 {
            out.push(char::from(lead));
        } else {
            let len = match lead.leading_ones() {
                2 => 2,
                3 => 3,
                4 => 4,
                _ => return Err(uri_error(start, "the byte cannot start a UTF-8 sequence")),
            };
            let mut sequence = [lead, 0, 0, 0];
            for slot in sequence.iter_mut().take(len).skip(1) {
                let byte = escaped_byte(bytes, k)?;
                if byte & 0xC0 != 0x80 {
                    return Err(uri_error(k, "expected a UTF-8 continuation byte"));
                }
                *slot = byte;
                k += 3;
            }
            let decoded = std::str::from_utf8(&sequence[..len])
                .map_err(|_| uri_error(start, "not a valid UTF-8 encoding of a code point"))?;
            out.push_str(decoded);
        }
        copied_to = k;
    }
    out.push_str(&text[copied_to..]);
    Ok(out)
}

/// The HTML of an `McpApp`'s `htmlContent`: decoded with [`decode_uri_component`] when it
/// starts with [`URL_ENCODED_PREFIX`], as it is otherwise (borrowed).
///
/// ```
/// use a2ui_catalog_mcp::mcp::app::decode_html_content;
///
/// assert_eq!(decode_html_content("url_encoded:%3Cp%3EHi%3C%2Fp%3E")?, "<p>Hi</p>");
/// assert_eq!(decode_html_content("<p>50%</p>")?, "<p>50%</p>");
/// assert!(decode_html_content("url_encoded:<p>50%</p>").is_err());
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn decode_html_content(html: &str) -> Result<Cow<'_, str>, Error> {
    match html.strip_prefix(URL_ENCODED_PREFIX) {
        Some(encoded) => decode_uri_component(encoded).map(Cow::Owned),
        None => Ok(Cow::Borrowed(html)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn escape_bytes(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("%{b:02X}")).collect()
    }

    proptest! {
        /// Escaped bytes decode exactly when they are UTF-8, to that text: JavaScript's rule
        /// (well-formed UTF-8 only, no overlongs or surrogates) is Rust's `from_utf8`.
        #[test]
        fn escaped_bytes_decode_iff_utf8(bytes in proptest::collection::vec(any::<u8>(), 0..12)) {
            let decoded = decode_uri_component(&escape_bytes(&bytes));
            match std::str::from_utf8(&bytes) {
                Ok(text) => prop_assert_eq!(decoded.unwrap(), text),
                Err(_) => prop_assert!(decoded.is_err()),
            }
        }

        #[test]
        fn fully_escaped_text_round_trips(text in any::<String>()) {
            prop_assert_eq!(decode_uri_component(&escape_bytes(text.as_bytes())).unwrap(), text);
        }

        #[test]
        fn text_without_percent_is_unchanged(text in "[^%]*") {
            prop_assert_eq!(decode_uri_component(&text).unwrap(), text);
        }

        /// Mixed text and (possibly broken) escapes: an error or a string, never a panic; a
        /// success leaves no escape behind except those that decoded to '%'.
        #[test]
        fn mixed_input_never_panics(text in "(%[0-9A-Fa-f]{0,2}|[a-zé]|%[C-F][0-9A-F]){0,24}") {
            if let Ok(decoded) = decode_uri_component(&text) {
                prop_assert!(decoded.matches('%').count() <= text.matches("%25").count());
            }
        }
    }

    #[test]
    fn decodes_like_javascript() {
        assert_eq!(decode_uri_component("").unwrap(), "");
        assert_eq!(
            decode_uri_component("plain é text").unwrap(),
            "plain é text"
        );
        assert_eq!(decode_uri_component("%25%2F%3f%23%26").unwrap(), "%/?#&");
        assert_eq!(decode_uri_component("%00").unwrap(), "\0");
        assert_eq!(decode_uri_component("%7F%C2%80").unwrap(), "\u{7F}\u{80}");
        assert_eq!(decode_uri_component("%DF%BF").unwrap(), "\u{7FF}");
        assert_eq!(decode_uri_component("%EF%BF%BF").unwrap(), "\u{FFFF}");
        assert_eq!(decode_uri_component("%F4%8F%BF%BF").unwrap(), "\u{10FFFF}");
        assert_eq!(decode_uri_component("é%C3%A9é").unwrap(), "ééé");
    }

    #[test]
    fn malformed_escapes_are_uri_errors() {
        for (input, offset) in [
            ("%", 0),
            ("%4", 0),
            ("ab%G1", 2),
            ("%%41", 0),
            ("%80", 0),          // a continuation byte cannot lead
            ("%BF", 0),          //
            ("%F8%88%80%80", 0), // five-byte lead
            ("%FF", 0),
            ("%C3", 3),    // truncated: nothing follows
            ("%C3A", 3),   // truncated: a character instead of an escape
            ("%C3%4", 3),  // truncated escape
            ("%C3%41", 3), // not a continuation byte
            ("%E2%82", 6), // three-byte sequence cut short
        ] {
            let err = decode_uri_component(input).unwrap_err();
            assert_eq!(err.code(), ErrorCode::ValidationFailed, "{input}");
            assert!(
                err.message().starts_with(&format!(
                    "URIError: malformed URI sequence at byte {offset}:"
                )),
                "{input}: {}",
                err.message()
            );
        }
    }

    #[test]
    fn invalid_utf8_encodings_are_uri_errors() {
        for input in [
            "%C0%80",       // overlong NUL
            "%C1%BF",       // overlong
            "%E0%80%80",    // overlong
            "%ED%A0%80",    // surrogate U+D800
            "%ED%BF%BF",    // surrogate U+DFFF
            "%F0%80%80%80", // overlong
            "%F4%90%80%80", // above U+10FFFF
            "%F5%80%80%80",
        ] {
            let err = decode_uri_component(input).unwrap_err();
            assert!(
                err.message().contains("not a valid UTF-8 encoding"),
                "{input}: {}",
                err.message()
            );
        }
    }

    #[test]
    fn html_prefix_is_case_sensitive_and_only_at_the_start() {
        assert_eq!(
            decode_html_content("URL_ENCODED:%41").unwrap(),
            "URL_ENCODED:%41"
        );
        assert_eq!(
            decode_html_content(" url_encoded:%41").unwrap(),
            " url_encoded:%41"
        );
        assert_eq!(decode_html_content("url_encoded:").unwrap(), "");
        assert!(matches!(
            decode_html_content("<b>").unwrap(),
            Cow::Borrowed(_)
        ));
    }
}
