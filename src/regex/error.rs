//! Why a pattern is not in the A2UI regex dialect.

use std::fmt;

/// The class of a [`RegexError`]. Each kind below names a pattern that is rejected with it.
///
/// ```
/// use a2ui_catalog_mcp::regex::{Pattern, RegexErrorKind};
///
/// let kind = |p: &str| Pattern::new(p).unwrap_err().kind();
/// assert_eq!(kind("a{2"), RegexErrorKind::Syntax);
/// assert_eq!(kind("foo(?=bar)"), RegexErrorKind::Lookaround);
/// assert_eq!(kind(r"(a)\1"), RegexErrorKind::Backreference);
/// assert_eq!(kind("(a+)+b"), RegexErrorKind::Unsafe);
/// assert_eq!(kind(r"\p{Extended_Pictographic}"), RegexErrorKind::UnsupportedProperty);
/// assert_eq!(kind(r"\uD800"), RegexErrorKind::LoneSurrogate);
/// assert_eq!(kind("(a*)?"), RegexErrorKind::EmptyIteration);
/// assert_eq!(kind("(?:ab){100001}"), RegexErrorKind::TooBig);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RegexErrorKind {
    /// Not valid ECMAScript pattern syntax in Unicode mode: `a{2`, `\a`, `[z-a]`, `(?i:a)`.
    Syntax,
    /// Lookahead or lookbehind, valid JavaScript but not in the dialect: `foo(?=bar)`,
    /// `a(?!b)`, `(?<=\$)\d+`, `(?<!x)y`.
    Lookaround,
    /// A backreference, valid JavaScript but not in the dialect: `(a)\1`, `(?<q>a)\k<q>`.
    Backreference,
    /// The basic catalog's safety check calls the pattern vulnerable to catastrophic
    /// backtracking (`(a+)+b`, `(d[\d]+)*`, `a{1001}`), or it is longer than 256 UTF-16 code
    /// units.
    Unsafe,
    /// A `\p{…}` / `\P{…}` property that the two engines do not share with the same meaning:
    /// `\p{Extended_Pictographic}`, `\p{lu}`, `\p{Foo}`.
    UnsupportedProperty,
    /// A lone surrogate (`\uD800`, `[\uDC00-\uDFFF]`): it can never match text, which is always
    /// well-formed here.
    LoneSurrogate,
    /// An optional repetition (`?`, `{n,m}`) of something that can match both the empty string
    /// and non-empty text (`(a*)?`, `(\p{L}?){2,3}`): JavaScript skips empty optional iterations, the
    /// `regex` crate takes them, so the two could capture different text.
    EmptyIteration,
    /// The compiled program would exceed the size limit: a counted repetition above 100 000
    /// (`(?:ab){100001}`), or a compiled pattern (its program and a first search's cache,
    /// [`Pattern::memory_usage`]) above [`Pattern::with_size_limit`]'s bound (`\p{L}{1000}`,
    /// `[^a]{900}` at the default 1 MiB).
    ///
    /// [`Pattern::memory_usage`]: super::Pattern::memory_usage
    ///
    /// [`Pattern::with_size_limit`]: super::Pattern::with_size_limit
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
    use crate::regex::Pattern;

    /// One rejected pattern per kind. The match has no wildcard arm, so a new kind does not
    /// compile until it has an example here.
    fn example(kind: RegexErrorKind) -> &'static str {
        match kind {
            RegexErrorKind::Syntax => "[z-a]",
            RegexErrorKind::Lookaround => "(?<!x)y",
            RegexErrorKind::Backreference => "(?<q>a)\\k<q>",
            RegexErrorKind::Unsafe => "(d[\\d]+)*",
            RegexErrorKind::UnsupportedProperty => "\\p{lu}",
            RegexErrorKind::LoneSurrogate => "[\\uDC00-\\uDFFF]",
            RegexErrorKind::EmptyIteration => "(\\p{L}?){2,3}",
            RegexErrorKind::TooBig => "\\p{L}{1000}",
        }
    }

    #[test]
    fn every_kind_has_a_pattern_that_triggers_it() {
        for kind in [
            RegexErrorKind::Syntax,
            RegexErrorKind::Lookaround,
            RegexErrorKind::Backreference,
            RegexErrorKind::Unsafe,
            RegexErrorKind::UnsupportedProperty,
            RegexErrorKind::LoneSurrogate,
            RegexErrorKind::EmptyIteration,
            RegexErrorKind::TooBig,
        ] {
            let pattern = example(kind);
            let err = Pattern::new(pattern).unwrap_err();
            assert_eq!(err.kind(), kind, "{pattern}: {err}");
            assert!(err.message().ends_with(pattern), "{err}");
        }
    }

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
