//! A bounded, thread-safe cache of compiled patterns, for patterns that come from data.

use super::{Pattern, RegexError};
use crate::cache::LruCache;
use std::sync::Arc;

/// How many patterns a [`PatternCache`] keeps by default.
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// Patterns compiled from dynamic strings, kept by text with their verdict (a rejected pattern
/// is not checked again); the least recently used is evicted. Shared through `&self`.
///
/// ```
/// use a2ui_catalog_mcp::regex::PatternCache;
/// let cache = PatternCache::new(8);
/// assert!(cache.get_or_compile("^(\\d+)$").is_ok());
/// assert!(cache.get_or_compile("(a+)+b").is_err());
/// assert_eq!(cache.len(), 2);
/// ```
pub struct PatternCache {
    entries: LruCache<Arc<str>, Result<Pattern, RegexError>>,
}

impl Default for PatternCache {
    fn default() -> Self {
        PatternCache::new(DEFAULT_CACHE_CAPACITY)
    }
}

impl std::fmt::Debug for PatternCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternCache")
            .field("capacity", &self.capacity())
            .field("len", &self.len())
            .finish()
    }
}

impl PatternCache {
    /// A cache of at most `capacity` patterns (at least 1).
    pub fn new(capacity: usize) -> Self {
        PatternCache {
            entries: LruCache::new(capacity.max(1)),
        }
    }

    /// The compiled pattern (or its rejection) for `pattern`, compiled on first use, outside the
    /// cache's lock.
    pub fn get_or_compile(&self, pattern: &str) -> Result<Pattern, RegexError> {
        if let Some(result) = self.entries.get(pattern) {
            return result;
        }
        let result = Pattern::new(pattern);
        self.entries.insert(Arc::from(pattern), result.clone());
        result
    }

    /// How many patterns it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most patterns it keeps.
    pub fn capacity(&self) -> usize {
        self.entries.capacity()
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
        assert_eq!(cache.len(), 2);
        assert!(
            cache.entries.contains("a")
                && cache.entries.contains("c")
                && !cache.entries.contains("b")
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
