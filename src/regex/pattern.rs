//! A validated, compiled dialect pattern, and the checks that come before the build.

use super::error::{RegexError, RegexErrorKind};
#[cfg(feature = "internals")]
use super::properties;
use super::translate::GroupPlan;
use super::{ast, lines, parser, safety, translate};
use regex_automata::meta::{Cache, Regex};
use regex_automata::util::captures::Captures;
use regex_automata::util::pool::Pool;
use regex_automata::{Input, MatchKind};
use std::ops::Range;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::Arc;

/// Default bound on a compiled pattern's size, in bytes: what [`Pattern::memory_usage`] counts
/// (the compiled program and a first search's cache). It also bounds each automaton while it is
/// built, and how far the lazy DFA's cache of each search grows.
pub const DEFAULT_SIZE_LIMIT: usize = 1 << 20;

/// Longest pattern, in UTF-16 code units, the dialect accepts (longer is unsafe).
pub const MAX_PATTERN_LEN: usize = safety::MAX_LEN;

/// How many patterns this process has compiled (with the `internals` feature only): the
/// input-safety tests bound the work of an attack by it, not by a clock.
///
/// ```
/// use a2ui_catalog_mcp::regex::{Pattern, compilations};
///
/// let before = compilations();
/// Pattern::new("^a$").unwrap();
/// // Refused before anything is built: not a compilation.
/// Pattern::new("(a+)+").unwrap_err();
/// assert_eq!(compilations() - before, 1);
/// ```
#[cfg(feature = "internals")]
pub fn compilations() -> u64 {
    COMPILATIONS.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(feature = "internals")]
static COMPILATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A validated, compiled dialect pattern. Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct Pattern {
    // The line plan's tests (a sibling module) compare it with the engine.
    pub(super) inner: Arc<Inner>,
}

/// Makes a search cache: the first one is the cache measured when the pattern was compiled.
type MakeCache = Box<dyn Fn() -> Cache + Send + Sync + UnwindSafe + RefUnwindSafe>;

pub(super) struct Inner {
    source: String,
    regex: Regex,
    /// The searches' caches, one per thread searching at once (as `regex::Regex` keeps them).
    caches: Pool<Cache, MakeCache>,
    /// See [`Pattern::memory_usage`].
    memory: usize,
    groups: Vec<GroupPlan>,
    /// Whether any group needs the iteration check (otherwise groups are read directly).
    guarded: bool,
    /// See `Translation::matches_mid_pair`.
    matches_mid_pair: bool,
    /// A plan that answers without the engine, for patterns of its shape (see [`lines`]).
    pub(super) lines: Option<lines::LinePlan>,
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pattern").field(&self.inner.source).finish()
    }
}

/// The code points `\p{name}` matches in the dialect, as inclusive ranges; `name` is what goes
/// between the braces (`Lu`, `Script=Greek`). `None` when the dialect does not accept the name.
/// With the `internals` feature only: the test suite checks every accepted name against V8 with it.
///
/// ```
/// use a2ui_catalog_mcp::regex::property_code_points;
///
/// assert_eq!(property_code_points("ASCII"), Some(vec![(0, 0x7F)]));
/// assert_eq!(property_code_points("Foo"), None);
/// ```
#[cfg(feature = "internals")]
pub fn property_code_points(name: &str) -> Option<Vec<(u32, u32)>> {
    let class = properties::class(properties::resolve(name)?)?;
    Some(
        class
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
    )
}

/// Checks `pattern` without compiling it: syntax, lookaround, backreferences, properties, lone
/// surrogates, the safety check, and the repetitions the dialect refuses. Only the compiled size
/// ([`RegexErrorKind::TooBig`] from [`Pattern::with_size_limit`]) is left to compilation.
///
/// ```
/// use a2ui_catalog_mcp::regex::{validate, RegexErrorKind};
///
/// assert!(validate(r"^\d{4}-\d{2}-\d{2}$").is_ok());
/// assert_eq!(validate("(a)\\1").unwrap_err().kind(), RegexErrorKind::Backreference);
/// assert_eq!(validate("a{2").unwrap_err().kind(), RegexErrorKind::Syntax);
/// assert_eq!(validate("(a*)?").unwrap_err().kind(), RegexErrorKind::EmptyIteration);
/// ```
pub fn validate(pattern: &str) -> Result<(), RegexError> {
    checked(pattern).map(|_| ())
}

fn checked(pattern: &str) -> Result<(ast::Ast, translate::Translation), RegexError> {
    let tree = parser::parse(pattern)?;
    if !safety::is_safe(pattern) {
        return Err(RegexError::unsafe_pattern(pattern));
    }
    let translation = translate::translate(&tree, pattern)?;
    Ok((tree, translation))
}

impl Pattern {
    /// Validates and compiles `pattern` with [`DEFAULT_SIZE_LIMIT`].
    ///
    /// ```
    /// use a2ui_catalog_mcp::regex::{Pattern, RegexErrorKind};
    ///
    /// let p = Pattern::new(r"(\w)=(\d)").unwrap();
    /// assert_eq!(p.captures("x=1 y=2"), Some(vec!["x", "1"]));
    /// assert_eq!(Pattern::new("(a+)+b").unwrap_err().kind(), RegexErrorKind::Unsafe);
    /// ```
    pub fn new(pattern: &str) -> Result<Pattern, RegexError> {
        Pattern::with_size_limit(pattern, DEFAULT_SIZE_LIMIT)
    }

    /// Validates and compiles `pattern`; a compiled pattern above `size_limit` bytes (its
    /// [`memory_usage`](Pattern::memory_usage)) is [`RegexErrorKind::TooBig`].
    ///
    /// ```
    /// use a2ui_catalog_mcp::regex::{Pattern, RegexErrorKind};
    ///
    /// let err = Pattern::with_size_limit("(?:abc){1000}", 1000).unwrap_err();
    /// assert_eq!(err.kind(), RegexErrorKind::TooBig);
    /// // The bound is on the whole of what the pattern holds, not on each automaton.
    /// let p = Pattern::new("[^a]{400}").unwrap();
    /// let err = Pattern::with_size_limit("[^a]{400}", p.memory_usage() - 1).unwrap_err();
    /// assert_eq!(err.kind(), RegexErrorKind::TooBig);
    /// ```
    pub fn with_size_limit(pattern: &str, size_limit: usize) -> Result<Pattern, RegexError> {
        let (tree, translation) = checked(pattern)?;
        #[cfg(feature = "internals")]
        COMPILATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // The `regex` crate's `Regex` is this engine configured as below; it is used directly
        // because only it tells what a compiled program holds (`memory_usage`).
        let config = Regex::config()
            .match_kind(MatchKind::LeftmostFirst)
            .utf8_empty(true)
            .nfa_size_limit(Some(size_limit))
            .hybrid_cache_capacity(size_limit);
        let syntax = regex_automata::util::syntax::Config::new()
            .utf8(true)
            // Our tree nests at most 128 groups; the generated form adds a few levels per group.
            .nest_limit(1024);
        let regex = Regex::builder()
            .configure(config)
            .syntax(syntax)
            .build(&translation.pattern)
            .map_err(|e| match e.size_limit() {
                Some(_) => RegexError::too_big(pattern, size_limit),
                None => RegexError::at(
                    RegexErrorKind::TooBig,
                    0,
                    &format!("the pattern could not be compiled ({e})"),
                    pattern,
                ),
            })?;
        // Each automaton was bounded while it was built; the program holds several (forward,
        // reverse, one-pass), and each search takes a cache sized by them: bounded together.
        let first = regex.create_cache();
        let memory = regex.memory_usage().saturating_add(first.memory_usage());
        if memory > size_limit {
            return Err(RegexError::too_big(pattern, size_limit));
        }
        // The cache just measured serves the first search: measuring costs no extra cache.
        let spare = std::sync::Mutex::new(Some(first));
        let maker = regex.clone();
        let make: MakeCache = Box::new(move || {
            let first = spare
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            first.unwrap_or_else(|| maker.create_cache())
        });
        let guarded = translation.groups.iter().any(|g| !g.guards.is_empty());
        Ok(Pattern {
            inner: Arc::new(Inner {
                source: pattern.to_owned(),
                regex,
                caches: Pool::new(make),
                memory,
                groups: translation.groups,
                guarded,
                matches_mid_pair: translation.matches_mid_pair,
                lines: lines::LinePlan::new(&tree).filter(|_| !translation.matches_mid_pair),
            }),
        })
    }

    /// The bytes the compiled pattern holds: its program and the cache a first search takes
    /// (a search's lazy DFA cache may grow from there, to at most the size limit). What the
    /// pattern caches and the evaluation budget count for it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::regex::{Pattern, DEFAULT_SIZE_LIMIT};
    ///
    /// let small = Pattern::new(r"^\d{4}$").unwrap().memory_usage();
    /// let large = Pattern::new("[^a]{400}").unwrap().memory_usage();
    /// assert!(small < 16 << 10 && large > 100 * small && large <= DEFAULT_SIZE_LIMIT);
    /// ```
    pub fn memory_usage(&self) -> usize {
        self.inner.memory
    }

    /// The pattern text as given.
    pub fn as_str(&self) -> &str {
        &self.inner.source
    }

    /// Number of capture groups (they are numbered 1..=n).
    pub fn group_count(&self) -> usize {
        self.inner.groups.len()
    }

    /// The first match anywhere in `haystack` (not anchored): `None` when there is none, else
    /// groups 1..n, `""` for a group that did not take part (JavaScript's `undefined`).
    ///
    /// ```
    /// use a2ui_catalog_mcp::regex::Pattern;
    ///
    /// let p = Pattern::new("(a)(b)?").unwrap();
    /// assert_eq!(p.captures("xa"), Some(vec!["a", ""]));
    /// assert_eq!(p.captures("x"), None);
    /// assert_eq!(Pattern::new("b").unwrap().captures("abc"), Some(vec![]));
    /// ```
    pub fn captures<'h>(&self, haystack: &'h str) -> Option<Vec<&'h str>> {
        match &self.inner.lines {
            Some(plan) => plan.captures(haystack),
            None => self.captures_with_engine(haystack),
        }
    }

    /// Like [`captures`](Pattern::captures), but appends where the groups are to `out`
    /// (an empty range for a group that did not take part); `false`, with `out` as it was,
    /// when nothing matches. Reusing `out` saves an allocation per haystack.
    pub(crate) fn capture_ranges(&self, haystack: &str, out: &mut Vec<Range<usize>>) -> bool {
        match &self.inner.lines {
            Some(plan) => plan.capture_ranges(haystack, out),
            None => self.capture_ranges_with_engine(haystack, out),
        }
    }

    /// [`captures`](Pattern::captures) by the regex engine, whatever the pattern's shape.
    pub(super) fn captures_with_engine<'h>(&self, haystack: &'h str) -> Option<Vec<&'h str>> {
        let mut ranges = Vec::new();
        self.capture_ranges_with_engine(haystack, &mut ranges)
            .then(|| ranges.into_iter().map(|r| &haystack[r]).collect())
    }

    fn capture_ranges_with_engine(&self, haystack: &str, out: &mut Vec<Range<usize>>) -> bool {
        let inner = &*self.inner;
        if inner.groups.is_empty() {
            // A search, not the engine's `is_match`: regex 1.13 answers `false` for
            // `1ж|(?-u:\B)` on "1ж" where a search finds the match, JavaScript's answer.
            return self.is_match(haystack);
        }
        let mut locs = inner.regex.create_captures();
        let mut cache = inner.caches.get();
        inner
            .regex
            .search_captures_with(&mut cache, &Input::new(haystack), &mut locs);
        let found = locs.get_match().map(|m| m.start());
        match self.first_match(haystack, found) {
            None => false,
            Some(Found::MidPair) => {
                out.extend((0..inner.groups.len()).map(|_| 0..0));
                true
            }
            Some(Found::Here) => {
                self.read_groups(&locs, out);
                true
            }
        }
    }

    /// Where JavaScript's first match is, given where ours starts: there, or earlier, between
    /// the halves of an astral character (see `Translation::matches_mid_pair`).
    fn first_match(&self, haystack: &str, found: Option<usize>) -> Option<Found> {
        if self.inner.matches_mid_pair {
            let end = found.unwrap_or(haystack.len());
            // A 4-byte UTF-8 sequence (lead byte 0xF0 and up) is an astral character.
            if haystack.as_bytes()[..end].iter().any(|&b| b >= 0xF0) {
                return Some(Found::MidPair);
            }
        }
        found.map(|_| Found::Here)
    }

    fn read_groups(&self, locs: &Captures, out: &mut Vec<Range<usize>>) {
        let inner = &*self.inner;
        let read = |g: &GroupPlan| {
            let Some(span) = g.slot.and_then(|slot| locs.get_group(slot as usize)) else {
                return 0..0;
            };
            let (start, end) = (span.start, span.end);
            let current = !inner.guarded
                || g.guards.iter().all(|&guard| {
                    locs.get_group(guard as usize)
                        .is_some_and(|iteration| start >= iteration.start)
                });
            if current { start..end } else { 0..0 }
        };
        out.extend(inner.groups.iter().map(read));
    }

    /// Whether the pattern matches anywhere in `haystack` (by a search: see above).
    pub fn is_match(&self, haystack: &str) -> bool {
        let inner = &*self.inner;
        let mut cache = inner.caches.get();
        let found = inner
            .regex
            .search_with(&mut cache, &Input::new(haystack))
            .map(|m| m.start());
        self.first_match(haystack, found).is_some()
    }
}

/// Where the first JavaScript match is.
enum Found {
    /// Where the `regex` crate found it.
    Here,
    /// Earlier, between the halves of an astral character, and empty.
    MidPair,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(p: &str, h: &str) -> Option<Vec<String>> {
        Pattern::new(p)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .captures(h)
            .map(|v| v.into_iter().map(str::to_owned).collect())
    }

    fn v(items: &[&str]) -> Option<Vec<String>> {
        Some(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn javascript_meaning() {
        assert_eq!(caps("^(.)$", "\u{2028}"), None);
        assert_eq!(caps("^(.)$", "😀"), v(&["😀"]));
        assert_eq!(caps("^(\\d+)$", "٢٠٢٤"), None);
        assert_eq!(caps("^a\\sb$", "a\u{FEFF}b"), v(&[]));
        assert_eq!(caps("^a\\sb$", "a\u{85}b"), None);
        assert_eq!(caps("\\b(caf)\\b", "café"), v(&["caf"]));
        assert_eq!(caps("caf\\B", "café"), None);
        assert_eq!(caps("^([^]+)$", "a\nb"), v(&["a\nb"]));
        assert_eq!(caps("x[]", "x[]"), None);
        assert_eq!(caps("(a)$", "a\n"), None);
        assert_eq!(caps("^([a&&b]+)$", "&&"), v(&["&&"]));
        assert_eq!(caps("^([[]+)$", "[["), v(&["[["]));
        assert_eq!(caps("^(\\uD83D\\uDE00+)$", "😀😀"), v(&["😀😀"]));
        assert_eq!(caps("^\\cJ\\x41\\u{1F600}$", "\nA😀"), v(&[]));
    }

    #[test]
    fn captures_in_repetitions_follow_javascript() {
        assert_eq!(caps("(?:(a)|b)+", "ab"), v(&[""]));
        assert_eq!(caps("(?:(a)|b)+", "ba"), v(&["a"]));
        assert_eq!(caps("(x|(y))+", "yx"), v(&["x", ""]));
        assert_eq!(caps("^(?:(a)|(b))+$", "ab"), v(&["", "b"]));
        assert_eq!(caps("([a-z]+-)*[a-z]+", "foo-bar-baz"), v(&["bar-"]));
    }

    #[test]
    fn pattern_is_cheap_to_share() {
        fn assert_send_sync<T: Send + Sync + Clone>() {}
        assert_send_sync::<Pattern>();
        let p = Pattern::new("(a)").unwrap();
        assert_eq!(p.as_str(), "(a)");
        assert_eq!(p.group_count(), 1);
        assert!(p.is_match("a"));
        let boundary = Pattern::new("1ж|\\B").unwrap();
        assert!(boundary.is_match("1ж"));
        assert_eq!(boundary.captures("1ж"), Some(vec![]));
        // V8 tries `\B` between the halves of 😀.
        let mid = Pattern::new("\\B|(b)").unwrap();
        assert_eq!(mid.captures("x😀b"), Some(vec![""]));
        assert_eq!(mid.captures("b😀"), Some(vec!["b"]));
        assert_eq!(Pattern::new("\\B").unwrap().captures("a😀_"), Some(vec![]));
        assert_eq!(format!("{p:?}"), "Pattern(\"(a)\")");
    }

    #[test]
    fn rejections_named_in_the_guide() {
        let kind = |p: &str| Pattern::new(p).err().map(|e| e.kind());
        assert_eq!(kind("\\p{L}{1000}"), Some(RegexErrorKind::TooBig));
        assert_eq!(kind("(?:ab){100001}"), Some(RegexErrorKind::TooBig));
        assert_eq!(kind("(a*)?"), Some(RegexErrorKind::EmptyIteration));
        assert_eq!(kind("(\\p{L}?){2,3}"), Some(RegexErrorKind::EmptyIteration));
        assert_eq!(kind("(a?){2,3}"), Some(RegexErrorKind::Unsafe));
        assert_eq!(kind("(?:x{0}|y)+"), Some(RegexErrorKind::EmptyIteration));
        assert_eq!(
            kind("(\\b)?a"),
            None,
            "a body that only matches empty is fine"
        );
        assert_eq!(
            kind("\\p{Extended_Pictographic}"),
            Some(RegexErrorKind::UnsupportedProperty)
        );
        let e = Pattern::new("(a)(?=b)").unwrap_err();
        assert_eq!(
            e.message(),
            "Regex pattern not supported: lookahead '(?=' is not part of the A2UI regex dialect at offset 3: (a)(?=b)"
        );
    }

    #[test]
    fn deepest_patterns_compile() {
        let deep = "(".repeat(128) + &")".repeat(128);
        assert_eq!(Pattern::new(&deep).unwrap().group_count(), 128);
        let alts = "(a|".repeat(63) + &")".repeat(63);
        assert!(Pattern::new(&alts).is_ok());
    }
}
