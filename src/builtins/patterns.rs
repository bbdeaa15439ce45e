//! The compiled regex patterns of a function (`regexCapture`, the basic catalog's `regex`), by
//! text, bounded by entries ([`Limits::cache_capacity`]) and by the bytes the compiled programs
//! hold ([`Limits::pattern_cache_bytes`]).
//!
//! A pattern is compiled at most once per evaluation that needs it: a literal pattern when
//! the payload is compiled (so that one outside the dialect is found then), any other when a
//! call first uses it. The payload keeps only the text of its literal patterns, never their
//! programs: what all the patterns of a host's payloads and data hold is the cache's bound, not
//! the number of patterns written. A pattern compiled during an evaluation is charged to the
//! evaluation's budget: the bytes it holds ([`Limits::max_eval_bytes`]) and one step per
//! [`BYTES_PER_STEP`] of them for the time ([`Limits::max_eval_steps`]); many distinct patterns
//! from the data, or more than the cache keeps, cost a bounded amount each and in total.

use crate::cache::LruCache;
use crate::error::{Error, ErrorCode};
use crate::limits::{EvalBudget, Limits};
use crate::regex::{DEFAULT_SIZE_LIMIT, Pattern, RegexError, RegexErrorKind};
use std::sync::Arc;

/// Bytes of a compiled program charged as one evaluation step: building a program takes time
/// in proportion to what it holds.
pub(crate) const BYTES_PER_STEP: usize = 64;

/// What a rejected pattern weighs in the cache besides its text: its error.
const VERDICT_BYTES: usize = 128;

/// Least room a budget must have left for a compilation to start: about what the smallest
/// programs hold. Below it the call is refused without building anything, so that each
/// further pattern of a spent evaluation costs no more than reading its text.
const MIN_COMPILE_BYTES: usize = 4 << 10;

/// A pattern's verdict: compiled, or why not.
type Verdict = Result<Pattern, RegexError>;

/// Compiled patterns by text, with their verdicts (a rejected pattern is not checked again).
#[derive(Default)]
pub(crate) struct PatternCache {
    entries: LruCache<Arc<str>, Verdict>,
}

impl PatternCache {
    /// The verdict on a literal pattern, compiled now (when a payload is compiled, outside any
    /// evaluation) and kept within the cache's bounds for the calls that run it.
    pub(crate) fn prepare(&self, pattern: &str, limits: &Limits) -> Verdict {
        if let Some(verdict) = self.entries.get(pattern) {
            return verdict;
        }
        let verdict = Pattern::new(pattern);
        self.keep(pattern, &verdict, limits);
        verdict
    }

    /// The compiled `pattern` for a call: from the cache, or compiled now and charged to the
    /// evaluation's `budget`. `Err` is a budget the compilation would exceed
    /// (`LIMIT_EXCEEDED`, nothing kept); `Ok(Err(..))` a pattern outside the dialect.
    pub(crate) fn get(
        &self,
        pattern: &str,
        limits: &Limits,
        budget: Option<&EvalBudget>,
    ) -> Result<Verdict, Error> {
        if let Some(verdict) = self.entries.get(pattern) {
            return Ok(verdict);
        }
        let Some(budget) = budget else {
            return Ok(self.prepare(pattern, limits));
        };
        // Charged before the program is built: what it may hold is bounded by what the budget
        // has left, so a compilation the budget cannot pay for stops at that size.
        let left = usize::try_from(budget.bytes()).unwrap_or(usize::MAX);
        let steps_left = usize::try_from(budget.steps()).unwrap_or(usize::MAX);
        let room = left.min(steps_left.saturating_mul(BYTES_PER_STEP));
        if room < MIN_COMPILE_BYTES {
            return Err(exceeded(pattern, room));
        }
        let verdict = Pattern::with_size_limit(pattern, DEFAULT_SIZE_LIMIT.min(room));
        let cost = match &verdict {
            Ok(p) => p.memory_usage(),
            // Over the budget's room but within the pattern's own bound: the budget's refusal,
            // which spends what the build took (the room), so that the next pattern of a
            // spent evaluation is refused before it is built.
            Err(e) if e.kind() == RegexErrorKind::TooBig && room < DEFAULT_SIZE_LIMIT => {
                budget.used((room / BYTES_PER_STEP) as u64, 0);
                budget.spend_bytes(room as u64, "")?;
                return Err(exceeded(pattern, room));
            }
            // The program was built up to the bound before it was refused.
            Err(e) if e.kind() == RegexErrorKind::TooBig => DEFAULT_SIZE_LIMIT,
            // Refused from the text: work in proportion to it.
            Err(_) => pattern.len(),
        };
        let what = format!("compiling the regex pattern {}", shown(pattern));
        budget.spend_steps((cost / BYTES_PER_STEP) as u64 + 1, &what)?;
        budget.spend_bytes(cost as u64, &what)?;
        self.keep(pattern, &verdict, limits);
        Ok(verdict)
    }

    fn keep(&self, pattern: &str, verdict: &Verdict, limits: &Limits) {
        let weight = match verdict {
            Ok(p) => p.memory_usage() + pattern.len(),
            Err(_) => VERDICT_BYTES + 2 * pattern.len(),
        };
        self.entries.insert_weighed(
            Arc::from(pattern),
            verdict.clone(),
            weight,
            limits.cache_capacity,
            limits.pattern_cache_bytes,
        );
    }
}

/// The error of a compilation the evaluation's budget has no room for.
fn exceeded(pattern: &str, room: usize) -> Error {
    Error::new(
        ErrorCode::LimitExceeded,
        format!(
            "compiling the regex pattern {} would take the evaluation past its budget: \
             {room} bytes are left (Limits::max_eval_bytes, Limits::max_eval_steps)",
            shown(pattern)
        ),
    )
}

/// The start of a pattern, for a message.
fn shown(pattern: &str) -> String {
    let head: String = pattern.chars().take(40).collect();
    if head.len() < pattern.len() {
        format!("{head:?}…")
    } else {
        format!("{head:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(cache_bytes: usize, eval_bytes: u64) -> Limits {
        Limits {
            pattern_cache_bytes: cache_bytes,
            max_eval_bytes: eval_bytes,
            ..Limits::default()
        }
    }

    #[test]
    fn a_compilation_is_charged_once_and_kept_within_the_bytes() {
        let cache = PatternCache::default();
        let limits = limits(1 << 20, 16 << 20);
        let budget = EvalBudget::new(&limits);
        let p = cache
            .get("^(\\d+)$", &limits, Some(&budget))
            .unwrap()
            .unwrap();
        let charged = (16 << 20) - budget.bytes();
        assert_eq!(charged, p.memory_usage() as u64);
        // Kept: the second use costs nothing.
        cache
            .get("^(\\d+)$", &limits, Some(&budget))
            .unwrap()
            .unwrap();
        assert_eq!((16 << 20) - budget.bytes(), charged);
        // A rejected pattern is kept with its verdict, and charged for its text.
        let e = cache
            .get("(a+)+", &limits, Some(&budget))
            .unwrap()
            .unwrap_err();
        assert_eq!(e.kind(), RegexErrorKind::Unsafe);
        assert_eq!((16 << 20) - budget.bytes(), charged + 5);
    }

    #[test]
    fn heavy_patterns_displace_each_other_and_the_budget_stops_them() {
        let heavy = |i: usize| format!("[^{}]{{400}}", char::from(b'a' + i as u8));
        let limits = limits(1 << 20, 4 << 20);
        let cache = PatternCache::default();
        let size = Pattern::new(&heavy(0)).unwrap().memory_usage();
        assert!(size > 256 << 10, "{size}");
        let budget = EvalBudget::new(&limits);
        let mut compiled = 0;
        let err = loop {
            match cache.get(&heavy(compiled), &limits, Some(&budget)) {
                Ok(verdict) => {
                    verdict.unwrap();
                    compiled += 1;
                }
                Err(e) => break e,
            }
        };
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        assert!(err.message().contains("Limits::max_eval_bytes"), "{err}");
        // 4 MiB of budget pays for about 4 MiB of programs.
        assert!((3..=(4 << 20) / size).contains(&compiled), "{compiled}");
        // The cache holds what fits its bytes, whatever was compiled.
        assert!(cache.entries.weight() <= 1 << 20);
        assert!(cache.entries.len() <= (1 << 20) / size);
    }

    #[test]
    fn a_literal_pattern_is_compiled_outside_any_budget() {
        let cache = PatternCache::default();
        let limits = Limits::default();
        assert!(cache.prepare("^a$", &limits).is_ok());
        let budget = EvalBudget::new(&limits);
        cache.get("^a$", &limits, Some(&budget)).unwrap().unwrap();
        assert_eq!(budget.bytes(), limits.max_eval_bytes);
        assert_eq!(
            cache.prepare("a{2", &limits).unwrap_err().kind(),
            RegexErrorKind::Syntax
        );
    }
}
