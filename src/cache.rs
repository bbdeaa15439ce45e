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

/// An empty cache for [`insert_within`](LruCache::insert_within), whose caller gives the bound.
impl<K: Eq + Hash, V: Clone> Default for LruCache<K, V> {
    fn default() -> LruCache<K, V> {
        LruCache::new(0)
    }
}

impl<K: Eq + Hash, V: Clone> LruCache<K, V> {
    /// A cache of at most `capacity` entries for [`insert`](LruCache::insert) (0 keeps
    /// nothing).
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

    /// Stores `value`, evicting the least recently used entries when full.
    pub(crate) fn insert(&self, key: K, value: V) {
        self.insert_within(key, value, self.capacity);
    }

    /// Stores `value`, evicting the least recently used entries so that at most `capacity`
    /// remain: for caches whose bound is the caller's limit, read at each call.
    pub(crate) fn insert_within(&self, key: K, value: V, capacity: usize) {
        if capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        if !inner.entries.contains_key(&key) {
            while inner.entries.len() >= capacity {
                let oldest = inner
                    .entries
                    .iter()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(k, _)| k as *const K);
                let Some(oldest) = oldest else { break };
                inner.entries.retain(|k, _| !std::ptr::eq(k, oldest));
            }
        }
        inner.entries.insert(key, (value, now));
    }

    /// How many entries it holds.
    #[cfg(test)]
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
        cache.insert_within("d", 5, 1);
        assert_eq!((cache.len(), cache.get("d")), (1, Some(5)));
        let none = LruCache::new(0);
        none.insert(1, 1);
        assert_eq!(none.get(&1), None);
    }
}
