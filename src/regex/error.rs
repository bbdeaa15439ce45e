//! Why a pattern is not in the A2UI regex dialect.

use std::fmt;

/// The class of a [`RegexError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RegexErrorKind {
    /// Not valid ECMAScript pattern syntax in Unicode mode (`a{2`, `\a`, `[z-a]`, `(?i:a)`).
    Syntax,
    /// Lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`): valid JavaScript, not in the dialect.
    Lookaround,
    /// A backreference (`\1`, `\k<name>`): valid JavaScript, not in the dialect.
    Backreference,
    /// The basic catalog's safety check calls the pattern vulnerable to catastrophic
    /// backtracking, or it is longer than 256 UTF-16 code units.
    Unsafe,
    /// A `\p{…}` / `\P{…}` property that the two engines do not share with the same meaning.
    UnsupportedProperty,
    /// A lone surrogate (`\uD800`): it can never match text, which is always well-formed here.
    LoneSurrogate,
    /// A capture group inside a repetition where JavaScript and this engine could disagree.
    /// (Captures in repetitions are emulated, so the dialect currently never reports this.)
    CaptureInRepetition,
    /// An optional repetition (`?`, `{n,m}`) of something that can match both the empty string
    /// and non-empty text (`(a*)?`, `(\p{L}?){2,3}`): JavaScript skips empty optional iterations, the
    /// `regex` crate takes them, so the two could capture different text.
    EmptyIteration,
    /// The compiled program would exceed the size limit (`(?:abc){100000}`).
    TooBig,
}

/// A pattern that is rejected, with the reason and where in the pattern.
///
/// [`message`](RegexError::message) is what the user sees; it names the pattern. For
/// [`RegexErrorKind::Unsafe`] it is exactly
/// `Unsafe regex pattern (catastrophic backtracking risk): <pattern>`, the basic catalog's text.
///
/// ```
/// use a2ui_catalog_mcp::regex::{Pattern, RegexErrorKind};
///
/// let err = Pattern::new("foo(?=bar)").unwrap_err();
/// assert_eq!(err.kind(), RegexErrorKind::Lookaround);
/// assert_eq!(err.offset(), Some(3));
///
/// let err = Pattern::new("(a+)+b").unwrap_err();
/// assert_eq!(err.message(), "Unsafe regex pattern (catastrophic backtracking risk): (a+)+b");
/// assert_eq!(err.offset(), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    kind: RegexErrorKind,
    message: String,
    offset: Option<usize>,
}

impl RegexError {
    /// An error at a byte offset of `pattern`; the message becomes
    /// `Invalid regex pattern: <detail> at offset <n>: <pattern>` (the headline depends on `kind`).
    pub(crate) fn at(kind: RegexErrorKind, offset: usize, detail: &str, pattern: &str) -> Self {
        let headline = match kind {
            RegexErrorKind::Syntax => "Invalid regex pattern",
            _ => "Regex pattern not supported",
        };
        RegexError {
            kind,
            message: format!("{headline}: {detail} at offset {offset}: {pattern}"),
            offset: Some(offset),
        }
    }

    /// The safety check's verdict, in the basic catalog's words.
    pub(crate) fn unsafe_pattern(pattern: &str) -> Self {
        RegexError {
            kind: RegexErrorKind::Unsafe,
            message: format!("Unsafe regex pattern (catastrophic backtracking risk): {pattern}"),
            offset: None,
        }
    }

    /// The compiled program is too large.
    pub(crate) fn too_big(pattern: &str, limit: usize) -> Self {
        RegexError {
            kind: RegexErrorKind::TooBig,
            message: format!(
                "Regex pattern not supported: the compiled pattern exceeds the size limit of {limit} bytes (reduce counted repetitions such as {{1000}}): {pattern}"
            ),
            offset: None,
        }
    }

    /// What kind of rejection this is.
    pub fn kind(&self) -> RegexErrorKind {
        self.kind
    }

    /// The message for the user; it names the pattern and, where there is one, the offset.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Byte offset (UTF-8) in the pattern where the problem starts, when there is one place.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RegexError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_pattern_and_offset() {
        let e = RegexError::at(RegexErrorKind::Syntax, 2, "unterminated group", "a(b");
        assert_eq!(
            e.message(),
            "Invalid regex pattern: unterminated group at offset 2: a(b"
        );
        assert_eq!(e.to_string(), e.message());
        let e = RegexError::at(RegexErrorKind::Lookaround, 0, "lookahead", "(?=a)");
        assert!(
            e.message()
                .starts_with("Regex pattern not supported: lookahead")
        );
        assert_eq!(e.offset(), Some(0));
    }
}
