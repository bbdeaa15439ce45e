//! Data model paths: RFC 6901 JSON Pointers, and the relative paths of A2UI payloads.
//!
//! A payload path is absolute when it starts with `/`; `""` and `"."` name the data context
//! itself; anything else is relative to the data context (`name` in `/employees/0` is
//! `/employees/0/name`). `"/"` names the root (the whole model), not the key `""`.

use crate::error::{Error, ErrorCode};
use std::fmt;

/// Tokens a payload may not write (and reads as `null`): JavaScript renderers cannot use them,
/// and a payload must mean the same in every renderer.
pub(crate) const FORBIDDEN_TOKENS: [&str; 3] = ["__proto__", "constructor", "prototype"];

/// An absolute JSON Pointer (RFC 6901), stored as its unescaped tokens.
///
/// ```
/// use a2ui_catalog_mcp::JsonPointer;
/// let p = JsonPointer::parse("/a~1b/m~0n/0").unwrap();
/// assert_eq!(p.tokens(), ["a/b", "m~n", "0"]);
/// assert_eq!(p.to_string(), "/a~1b/m~0n/0");
/// assert!(JsonPointer::parse("/bad~2").is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsonPointer {
    tokens: Vec<String>,
}

impl JsonPointer {
    /// The root pointer (`""`): the whole document.
    pub fn root() -> JsonPointer {
        JsonPointer { tokens: Vec::new() }
    }

    /// Parses an RFC 6901 pointer: `""` or `/`-separated tokens with `~0`/`~1` escapes.
    ///
    /// Unlike RFC 6901, `"/"` is the root here (the whole model, not the member named `""`),
    /// as A2UI renderers read it.
    pub fn parse(text: &str) -> Result<JsonPointer, Error> {
        if text.is_empty() || text == "/" {
            return Ok(JsonPointer::root());
        }
        let Some(rest) = text.strip_prefix('/') else {
            return Err(path_error(
                text,
                "a JSON Pointer must be empty or start with '/'",
            ));
        };
        let mut p = JsonPointer::root();
        p.push_escaped(rest, text)?;
        Ok(p)
    }

    /// Parses an RFC 6901 pointer as [`parse`](JsonPointer::parse) does, refusing one of more
    /// than `max_tokens` tokens (`LIMIT_EXCEEDED`) before splitting it: what the engine does
    /// with every path that comes from a payload, a tool call or an agent's message, with
    /// [`Limits::max_depth`](crate::Limits::max_depth) as the limit.
    ///
    /// A path with more tokens than the depth limit could only lead somewhere deeper than any
    /// write may nest, and each token costs memory: it is refused whole.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{ErrorCode, JsonPointer};
    /// assert_eq!(JsonPointer::parse_limited("/a/b", 2).unwrap().tokens(), ["a", "b"]);
    /// let err = JsonPointer::parse_limited("/a/b/c", 2).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::LimitExceeded);
    /// assert_eq!(err.message(), "path '/a/b/c' has 3 tokens, more than the limit of 2");
    /// ```
    pub fn parse_limited(text: &str, max_tokens: usize) -> Result<JsonPointer, Error> {
        check_token_count(text, token_count(text), max_tokens)?;
        JsonPointer::parse(text)
    }

    /// Builds a pointer from unescaped tokens.
    ///
    /// ```
    /// use a2ui_catalog_mcp::JsonPointer;
    /// assert_eq!(JsonPointer::from_tokens(["a/b", "0"]).to_string(), "/a~1b/0");
    /// ```
    pub fn from_tokens<I, S>(tokens: I) -> JsonPointer
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        JsonPointer {
            tokens: tokens.into_iter().map(Into::into).collect(),
        }
    }

    /// The unescaped tokens.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Appends one unescaped token.
    pub fn push(&mut self, token: impl Into<String>) {
        self.tokens.push(token.into());
    }

    /// Whether any token is one of [`FORBIDDEN_TOKENS`].
    pub(crate) fn has_forbidden_token(&self) -> bool {
        self.tokens
            .iter()
            .any(|t| FORBIDDEN_TOKENS.contains(&t.as_str()))
    }

    /// Appends the `/`-separated escaped tokens of `rest` (`original` is for messages).
    fn push_escaped(&mut self, rest: &str, original: &str) -> Result<(), Error> {
        for raw in rest.split('/') {
            self.tokens.push(unescape_token(raw).ok_or_else(|| {
                path_error(
                    original,
                    "'~' must be followed by '0' or '1' in a JSON Pointer",
                )
            })?);
        }
        Ok(())
    }
}

impl fmt::Display for JsonPointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tokens.is_empty() {
            return f.write_str("/");
        }
        for t in &self.tokens {
            f.write_str("/")?;
            f.write_str(&escape_token(t))?;
        }
        Ok(())
    }
}

/// Escapes one token for a JSON Pointer: `~` → `~0`, `/` → `~1`.
pub fn escape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains(['~', '/']) {
        std::borrow::Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

fn unescape_token(raw: &str) -> Option<String> {
    if !raw.contains('~') {
        return Some(raw.to_owned());
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Whether `token` is a canonical array index: `0`, or digits without a leading zero.
pub fn array_index(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    if bytes.is_empty()
        || !bytes.iter().all(u8::is_ascii_digit)
        || (bytes[0] == b'0' && bytes.len() > 1)
    {
        return None;
    }
    // Digits beyond usize are still canonical: saturate so that limits reject them.
    Some(token.parse().unwrap_or(usize::MAX))
}

/// How many tokens the payload path `text` has (absolute or relative), counted without
/// splitting it.
fn token_count(text: &str) -> usize {
    if text.is_empty() || text == "/" || text == "." {
        return 0;
    }
    let slashes = text.bytes().filter(|&b| b == b'/').count();
    if text.starts_with('/') {
        slashes
    } else {
        slashes + 1
    }
}

/// The longest part of a path an error message quotes: a refused path may be megabytes long.
const QUOTED_PATH: usize = 64;

/// `path`, cut to [`QUOTED_PATH`] bytes (at a character boundary) for a message.
pub(crate) fn quoted(path: &str) -> std::borrow::Cow<'_, str> {
    if path.len() <= QUOTED_PATH {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut end = QUOTED_PATH;
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    std::borrow::Cow::Owned(format!("{}…", &path[..end]))
}

/// Refuses (`LIMIT_EXCEEDED`) a payload path of more than `max_tokens` tokens, without
/// parsing it: a literal write target is checked at compile time, its syntax when it runs.
pub(crate) fn check_tokens(text: &str, max_tokens: usize) -> Result<(), Error> {
    check_token_count(text, token_count(text), max_tokens)
}

fn check_token_count(text: &str, count: usize, max_tokens: usize) -> Result<(), Error> {
    if count > max_tokens {
        return Err(too_many_tokens(text, count, max_tokens));
    }
    Ok(())
}

/// The `LIMIT_EXCEEDED` error of a path with `count` tokens, more than `max_tokens`.
pub(crate) fn too_many_tokens(path: &str, count: usize, max_tokens: usize) -> Error {
    Error::new(
        ErrorCode::LimitExceeded,
        format!(
            "path '{}' has {count} tokens, more than the limit of {max_tokens}",
            quoted(path)
        ),
    )
}

/// Refuses a pointer of more than `max_tokens` tokens (`LIMIT_EXCEEDED`): for pointers the
/// host built, checked where the engine takes them (a data context, a host's write).
pub(crate) fn check_pointer(pointer: &JsonPointer, max_tokens: usize) -> Result<(), Error> {
    let count = pointer.tokens.len();
    if count > max_tokens {
        // Printing a pointer of a million tokens only to cut it would cost as much again.
        let head = JsonPointer::from_tokens(pointer.tokens.iter().take(QUOTED_PATH).cloned());
        return Err(too_many_tokens(&head.to_string(), count, max_tokens));
    }
    Ok(())
}

fn path_error(path: &str, why: &str) -> Error {
    Error::new(
        ErrorCode::DataError,
        format!("invalid path '{path}': {why}"),
    )
}

/// A path as a payload writes it: absolute, relative to the data context, or the context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataPath {
    /// Starts with `/`: the context does not matter.
    Absolute(JsonPointer),
    /// Joined to the context.
    Relative(Vec<String>),
}

impl DataPath {
    /// Parses a payload path, refusing one of more than `max_tokens` tokens
    /// (`LIMIT_EXCEEDED`) before splitting it.
    pub fn parse_limited(text: &str, max_tokens: usize) -> Result<DataPath, Error> {
        check_token_count(text, token_count(text), max_tokens)?;
        DataPath::parse(text)
    }

    /// Parses a payload path.
    pub fn parse(text: &str) -> Result<DataPath, Error> {
        if text.starts_with('/') {
            return JsonPointer::parse(text).map(DataPath::Absolute);
        }
        if text.is_empty() || text == "." {
            return Ok(DataPath::Relative(Vec::new()));
        }
        let mut p = JsonPointer::root();
        p.push_escaped(text, text)?;
        Ok(DataPath::Relative(p.tokens))
    }

    /// The absolute pointer this path names in `context`.
    pub fn resolve(&self, context: &JsonPointer) -> JsonPointer {
        match self {
            DataPath::Absolute(p) => p.clone(),
            DataPath::Relative(tokens) => {
                let mut p = context.clone();
                p.tokens.extend(tokens.iter().cloned());
                p
            }
        }
    }

    /// The absolute pointer without allocating when the context is not needed.
    pub fn resolve_cow<'a>(
        &'a self,
        context: &'a JsonPointer,
    ) -> std::borrow::Cow<'a, JsonPointer> {
        match self {
            DataPath::Absolute(p) => std::borrow::Cow::Borrowed(p),
            DataPath::Relative(tokens) if tokens.is_empty() => std::borrow::Cow::Borrowed(context),
            DataPath::Relative(_) => std::borrow::Cow::Owned(self.resolve(context)),
        }
    }
}

/// Where a payload may write: `path` (absolute, or relative to `context`) resolved, unless it
/// is malformed or goes through one of the [`FORBIDDEN_TOKENS`] (`DATA_ERROR`), or has, once
/// resolved, more than `max_tokens` tokens (`LIMIT_EXCEEDED`, checked before it is split).
pub(crate) fn write_target(
    path: &str,
    context: &JsonPointer,
    max_tokens: usize,
) -> Result<JsonPointer, Error> {
    let data_path = DataPath::parse_limited(path, max_tokens)?;
    if let DataPath::Relative(tokens) = &data_path {
        let count = context.tokens.len().saturating_add(tokens.len());
        if count > max_tokens {
            let resolved = data_path.resolve(context);
            return Err(too_many_tokens(&resolved.to_string(), count, max_tokens));
        }
    }
    let pointer = data_path.resolve(context);
    if pointer.has_forbidden_token() {
        return Err(Error::new(
            ErrorCode::DataError,
            format!(
                "cannot write '{path}': the tokens __proto__, constructor and prototype are reserved"
            ),
        ));
    }
    Ok(pointer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        for text in ["/a", "/a/b/0", "/a~1b", "/m~0n", "/~01", "/a/", "//"] {
            assert_eq!(JsonPointer::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(JsonPointer::parse("/~01").unwrap().tokens(), ["~1"]);
        assert!(JsonPointer::parse("").unwrap().is_root());
        assert!(JsonPointer::parse("/").unwrap().is_root());
    }

    #[test]
    fn bad_pointers_are_data_errors() {
        for text in ["/a~", "/a~2", "a/b"] {
            let err = JsonPointer::parse(text).unwrap_err();
            assert_eq!(err.code(), ErrorCode::DataError, "{text}");
            assert!(err.message().contains(text), "{}", err.message());
        }
        assert!(DataPath::parse("x~9").is_err());
    }

    #[test]
    fn relative_paths_join_the_context() {
        let ctx = JsonPointer::parse("/rows/0").unwrap();
        assert_eq!(
            DataPath::parse("meta/seen")
                .unwrap()
                .resolve(&ctx)
                .to_string(),
            "/rows/0/meta/seen"
        );
        assert_eq!(DataPath::parse("").unwrap().resolve(&ctx), ctx);
        assert_eq!(DataPath::parse(".").unwrap().resolve(&ctx), ctx);
        assert_eq!(
            DataPath::parse("/x").unwrap().resolve(&ctx).to_string(),
            "/x"
        );
        assert!(DataPath::parse("/").unwrap().resolve(&ctx).is_root());
        assert_eq!(
            DataPath::parse("a~1b")
                .unwrap()
                .resolve(&JsonPointer::root())
                .tokens(),
            ["a/b"]
        );
    }

    #[test]
    fn canonical_indexes() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("10000"), Some(10000));
        for t in ["", "01", "-1", "-", "1a", " 1", "+1"] {
            assert_eq!(array_index(t), None, "{t}");
        }
        assert_eq!(array_index("99999999999999999999999"), Some(usize::MAX));
    }

    #[test]
    fn escapes() {
        assert_eq!(escape_token("a/b~c"), "a~1b~0c");
        assert_eq!(array_index("12"), Some(12));
    }

    #[test]
    fn forbidden_tokens_are_found() {
        assert!(
            JsonPointer::parse("/a/__proto__/b")
                .unwrap()
                .has_forbidden_token()
        );
        assert!(
            !JsonPointer::parse("/a/proto")
                .unwrap()
                .has_forbidden_token()
        );
        let root = JsonPointer::root();
        assert!(write_target("/a/prototype", &root, 128).is_err());
        assert_eq!(write_target("a", &root, 128).unwrap().tokens(), ["a"]);
    }

    #[test]
    fn token_limits_are_checked_before_splitting() {
        assert_eq!(token_count(""), 0);
        assert_eq!(token_count("/"), 0);
        assert_eq!(token_count("."), 0);
        assert_eq!(token_count("//"), 2);
        assert_eq!(token_count("a/b"), 2);
        assert_eq!(token_count("/a/b"), 2);
        for (text, max) in [("/a/b", 2), ("a/b", 2), ("/", 0), ("", 0), (".", 0)] {
            assert!(DataPath::parse_limited(text, max).is_ok(), "{text}");
        }
        let long = "/a".repeat(1_000_000);
        let err = JsonPointer::parse_limited(&long, 128).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        assert!(err.message().len() < 200, "{}", err.message());
        assert!(
            err.message().contains("1000000 tokens"),
            "{}",
            err.message()
        );
        let err = DataPath::parse_limited(&long[1..], 128).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        // A relative path within the limit that the context takes past it.
        let ctx = JsonPointer::from_tokens(["r"; 100]);
        let err = write_target(&"/x".repeat(30)[1..], &ctx, 128).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        assert!(err.message().contains("130 tokens"), "{}", err.message());
        assert!(write_target(&"/x".repeat(28)[1..], &ctx, 128).is_ok());
        assert!(check_pointer(&ctx, 99).is_err());
        assert!(check_pointer(&ctx, 100).is_ok());
        assert_eq!(quoted("ééé"), "ééé");
        assert!(quoted(&"é".repeat(100)).ends_with('…'));
    }
}
