//! A bounded cache of expressions compiled from dynamic strings.

use super::Expression;
use super::error::JmespathError;
use super::limits::Limits;
use crate::cache::LruCache;

/// How many compiled expressions an [`ExpressionCache`] keeps by default.
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// Expressions compiled from dynamic strings (JMESPath read from the data model), kept by text
/// and limits; the least recently used is evicted. Shared through `&self` by several threads.
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{ExpressionCache, Limits};
/// let cache = ExpressionCache::new(2);
/// let expr = cache.get_or_compile("a.b", &Limits::default()).unwrap();
/// assert_eq!(expr.as_str(), "a.b");
/// assert_eq!(cache.len(), 1);
/// ```
pub struct ExpressionCache {
    entries: LruCache<(Box<str>, Limits), Expression>,
}

impl std::fmt::Debug for ExpressionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpressionCache")
            .field("capacity", &self.entries.capacity())
            .field("len", &self.len())
            .finish()
    }
}

impl ExpressionCache {
    /// A cache of at most `capacity` expressions (at least 1).
    pub fn new(capacity: usize) -> Self {
        ExpressionCache {
            entries: LruCache::new(capacity.max(1)),
        }
    }

    /// The compiled expression for `text` under `limits`, compiled on first use. Compile errors
    /// are not kept.
    pub fn get_or_compile(&self, text: &str, limits: &Limits) -> Result<Expression, JmespathError> {
        let key = (Box::<str>::from(text), *limits);
        if let Some(expr) = self.entries.get(&key) {
            return Ok(expr);
        }
        // Compiled outside the cache's lock so other threads are not held up.
        let expr = Expression::compile_with(text, limits)?;
        self.entries.insert(key, expr.clone());
        Ok(expr)
    }

    /// How many expressions it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for ExpressionCache {
    fn default() -> Self {
        ExpressionCache::new(DEFAULT_CACHE_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_least_recently_used() {
        let cache = ExpressionCache::new(2);
        let limits = Limits::default();
        cache.get_or_compile("a", &limits).unwrap();
        cache.get_or_compile("b", &limits).unwrap();
        cache.get_or_compile("a", &limits).unwrap();
        cache.get_or_compile("c", &limits).unwrap();
        assert_eq!(cache.len(), 2);
        let held = |text: &str| cache.entries.contains(&(Box::<str>::from(text), limits));
        assert!(held("a") && held("c") && !held("b"));
    }

    #[test]
    fn shared_between_threads() {
        let cache = std::sync::Arc::new(ExpressionCache::default());
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let cache = cache.clone();
                std::thread::spawn(move || {
                    let expr = cache
                        .get_or_compile(&format!("a[{}]", i % 2), &Limits::default())
                        .unwrap();
                    expr.search(&serde_json::json!({"a": [1, 2]})).unwrap()
                })
            })
            .collect();
        for handle in handles {
            assert!(handle.join().unwrap().is_number());
        }
        assert_eq!(cache.len(), 2);
    }
}
