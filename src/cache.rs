//! A small bounded cache with least-recently-used eviction, shared through `&self`.
//!
//! The caches it serves hold at most a few hundred entries (compiled expressions and patterns,
//! resources read by URI), so eviction scans for the oldest entry instead of keeping a list.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// A bounded map from keys to cheaply cloned values (`Arc`s, compiled handles).
pub(crate) struct LruCache<K, V> {
    capacity: usize,
    inner: Mutex<Inner<K, V>>,
}

struct Inner<K, V> {
    clock: u64,
    entries: HashMap<K, (V, u64)>,
}

impl<K: Eq + Hash, V: Clone> LruCache<K, V> {
    /// A cache of at most `capacity` entries (0 keeps nothing).
    pub(crate) fn new(capacity: usize) -> LruCache<K, V> {
        LruCache {
            capacity,
            inner: Mutex::new(Inner {
                clock: 0,
                entries: HashMap::new(),
            }),
        }
    }

    /// The value for `key`, marked as just used.
    pub(crate) fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        // A panic elsewhere cannot leave the map half-updated, so a poisoned lock is still usable.
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        inner.entries.get_mut(key).map(|(value, used)| {
            *used = now;
            value.clone()
        })
    }

    /// Stores `value`, evicting the least recently used entry when full.
    pub(crate) fn insert(&self, key: K, value: V) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        if inner.entries.len() >= self.capacity && !inner.entries.contains_key(&key) {
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k as *const K);
            if let Some(oldest) = oldest {
                inner.entries.retain(|k, _| !std::ptr::eq(k, oldest));
            }
        }
        inner.entries.insert(key, (value, now));
    }

    /// The most entries it keeps.
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether `key` is held (without marking it used).
    #[cfg(test)]
    pub(crate) fn contains<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .contains_key(key)
    }

    /// How many entries it holds.
    pub(crate) fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used() {
        let cache = LruCache::new(2);
        cache.insert("a", 1);
        cache.insert("b", 2);
        assert_eq!(cache.get("a"), Some(1));
        cache.insert("c", 3);
        assert_eq!(
            (cache.get("a"), cache.get("b"), cache.get("c")),
            (Some(1), None, Some(3))
        );
        assert_eq!(cache.len(), 2);
        cache.insert("c", 4);
        assert_eq!(cache.len(), 2);
        let none = LruCache::new(0);
        none.insert(1, 1);
        assert_eq!(none.get(&1), None);
    }
}
