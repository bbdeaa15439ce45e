//! A bounded, thread-safe cache of compiled patterns, for patterns that come from data.

use super::{Pattern, RegexError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// Default number of patterns a [`PatternCache`] keeps.
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// Compiled patterns by their text, least recently used evicted first.
///
/// Rejections are cached too, so a bad pattern read from the data model is not re-parsed on
/// every evaluation. The lock is not held while compiling.
///
/// ```
/// use a2ui_catalog_mcp::regex::PatternCache;
///
/// let cache = PatternCache::new(2);
/// let p = cache.get_or_compile(r"(\d+)").unwrap();
/// assert_eq!(p.captures("a42"), Some(vec!["42"]));
/// assert!(cache.get_or_compile("(a+)+").is_err());
/// assert_eq!(cache.len(), 2);
/// ```
pub struct PatternCache {
    capacity: usize,
    state: Mutex<State>,
}

struct State {
    entries: HashMap<Arc<str>, Entry>,
    clock: u64,
}

struct Entry {
    result: Result<Pattern, RegexError>,
    last_used: u64,
}

impl Default for PatternCache {
    fn default() -> Self {
        PatternCache::new(DEFAULT_CACHE_CAPACITY)
    }
}

impl std::fmt::Debug for PatternCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternCache")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish()
    }
}

impl PatternCache {
    /// A cache that keeps at most `capacity` patterns (at least one).
    pub fn new(capacity: usize) -> Self {
        PatternCache {
            capacity: capacity.max(1),
            state: Mutex::new(State {
                entries: HashMap::new(),
                clock: 0,
            }),
        }
    }

    /// The compiled pattern for `pattern`, compiling it on first use (see [`Pattern::new`]).
    pub fn get_or_compile(&self, pattern: &str) -> Result<Pattern, RegexError> {
        {
            let mut state = self.lock();
            state.clock += 1;
            let now = state.clock;
            if let Some(entry) = state.entries.get_mut(pattern) {
                entry.last_used = now;
                return entry.result.clone();
            }
        }
        let result = Pattern::new(pattern);
        let mut state = self.lock();
        state.clock += 1;
        let now = state.clock;
        if !state.entries.contains_key(pattern) && state.entries.len() >= self.capacity {
            let oldest = state
                .entries
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| Arc::clone(k));
            if let Some(key) = oldest {
                state.entries.remove(&key);
            }
        }
        state.entries.insert(
            Arc::from(pattern),
            Entry {
                result: result.clone(),
                last_used: now,
            },
        );
        result
    }

    /// Number of patterns held.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the cache holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most patterns the cache keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // The state stays consistent even if a holder panicked: every update is one insert/remove.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used() {
        let cache = PatternCache::new(2);
        cache.get_or_compile("a").unwrap();
        cache.get_or_compile("b").unwrap();
        cache.get_or_compile("a").unwrap();
        cache.get_or_compile("c").unwrap();
        let keys: Vec<String> = cache.lock().entries.keys().map(|k| k.to_string()).collect();
        assert_eq!(cache.len(), 2);
        assert!(
            keys.contains(&"a".to_string()) && keys.contains(&"c".to_string()),
            "{keys:?}"
        );
    }

    #[test]
    fn caches_rejections_and_shares_patterns_across_threads() {
        let cache = Arc::new(PatternCache::default());
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let cache = Arc::clone(&cache);
                std::thread::spawn(move || {
                    for j in 0..50 {
                        let p = cache
                            .get_or_compile(&format!("^(x{})$", (i + j) % 10))
                            .unwrap();
                        assert_eq!(p.group_count(), 1);
                        assert!(cache.get_or_compile("[").is_err());
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(cache.len(), 11);
        assert_eq!(cache.capacity(), 256);
    }
}
