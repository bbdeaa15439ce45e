//! A bounded cache of expressions compiled from dynamic strings.

use super::Expression;
use super::error::{JmespathError, Limits};
use std::collections::HashMap;
use std::sync::Mutex;

/// Capacity of [`ExpressionCache::default`].
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// Expressions compiled from strings that arrive at run time (a data-model value, a tool
/// result), kept so each distinct text is compiled once. Least recently used entries are
/// evicted beyond the capacity. Safe to share between threads through `&self`.
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{ExpressionCache, Limits};
/// let cache = ExpressionCache::new(2);
/// let limits = Limits::default();
/// let first = cache.get_or_compile("length(items)", &limits).unwrap();
/// let again = cache.get_or_compile("length(items)", &limits).unwrap();
/// assert_eq!(first.as_str(), again.as_str());
/// assert_eq!(cache.len(), 1);
/// assert!(cache.get_or_compile("items[", &limits).is_err());
/// ```
#[derive(Debug)]
pub struct ExpressionCache {
    capacity: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<(Box<str>, Limits), (Expression, u64)>,
    clock: u64,
}

impl ExpressionCache {
    /// A cache holding at most `capacity` expressions (at least one).
    pub fn new(capacity: usize) -> Self {
        ExpressionCache {
            capacity: capacity.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// The compiled expression for `text` under `limits`, compiled now if it is not cached.
    /// Errors are returned, not cached.
    pub fn get_or_compile(&self, text: &str, limits: &Limits) -> Result<Expression, JmespathError> {
        let key = (Box::<str>::from(text), *limits);
        {
            let mut state = self.lock();
            state.clock += 1;
            let now = state.clock;
            if let Some((expr, used)) = state.entries.get_mut(&key) {
                *used = now;
                return Ok(expr.clone());
            }
        }
        // Compiled outside the lock so other threads are not held up.
        let expr = Expression::compile_with(text, limits)?;
        let mut state = self.lock();
        if state.entries.len() >= self.capacity && !state.entries.contains_key(&key) {
            let oldest = state
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                state.entries.remove(&oldest);
            }
        }
        state.clock += 1;
        let now = state.clock;
        state.entries.insert(key, (expr.clone(), now));
        Ok(expr)
    }

    /// Number of cached expressions.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // The state is consistent between statements, so a panic elsewhere cannot corrupt it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
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
        let state = cache.lock();
        let keys: Vec<&str> = state.entries.keys().map(|(k, _)| &**k).collect();
        assert_eq!(state.entries.len(), 2);
        assert!(keys.contains(&"a") && keys.contains(&"c"), "{keys:?}");
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
