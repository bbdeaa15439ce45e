//! A small bounded cache with least-recently-used eviction, shared through `&self`.
//!
//! The caches it serves hold at most a few hundred entries (compiled expressions and patterns,
//! resources read by URI), so eviction scans for the oldest entry instead of keeping a list.
//! Entries may also have a weight (the bytes a compiled pattern holds), and the cache a bound
//! on their total: one heavy entry then displaces several light ones.

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
    /// Each value with when it was last used and its weight.
    entries: HashMap<K, (V, u64, usize)>,
    /// The weights of the entries together.
    weight: usize,
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
                weight: 0,
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
        inner.entries.get_mut(key).map(|(value, used, _)| {
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
        self.insert_weighed(key, value, 0, capacity, usize::MAX);
    }

    /// Stores `value` of `weight`, evicting the least recently used entries so that at most
    /// `capacity` remain and their weights together stay within `max_weight`. A value heavier
    /// than `max_weight` alone is not kept (nothing is evicted for it).
    pub(crate) fn insert_weighed(
        &self,
        key: K,
        value: V,
        weight: usize,
        capacity: usize,
        max_weight: usize,
    ) {
        if capacity == 0 || weight > max_weight {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.clock += 1;
        let now = inner.clock;
        if let Some((_, _, old)) = inner.entries.remove(&key) {
            inner.weight -= old;
        }
        while inner.entries.len() >= capacity || inner.weight + weight > max_weight {
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, (_, used, _))| *used)
                .map(|(k, _)| k as *const K);
            let Some(oldest) = oldest else { break };
            let mut freed = 0;
            inner.entries.retain(|k, (_, _, w)| {
                let keep = !std::ptr::eq(k, oldest);
                if !keep {
                    freed = *w;
                }
                keep
            });
            inner.weight -= freed;
        }
        inner.weight += weight;
        inner.entries.insert(key, (value, now, weight));
    }

    /// The weights of the entries together.
    #[cfg(test)]
    pub(crate) fn weight(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .weight
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

    #[test]
    fn weights_are_bounded_together() {
        let cache = LruCache::default();
        cache.insert_weighed("a", 1, 40, 10, 100);
        cache.insert_weighed("b", 2, 40, 10, 100);
        assert_eq!(cache.get("a"), Some(1));
        // 120 > 100: "b", the least recently used, goes.
        cache.insert_weighed("c", 3, 40, 10, 100);
        assert_eq!((cache.get("b"), cache.len(), cache.weight()), (None, 2, 80));
        // One entry heavier than the whole bound is not kept, and evicts nothing.
        cache.insert_weighed("d", 4, 101, 10, 100);
        assert_eq!((cache.get("d"), cache.len(), cache.weight()), (None, 2, 80));
        // Replacing an entry replaces its weight.
        cache.insert_weighed("a", 5, 10, 10, 100);
        assert_eq!(
            (cache.get("a"), cache.len(), cache.weight()),
            (Some(5), 2, 50)
        );
        // The heaviest that fits takes the place of all the others.
        cache.insert_weighed("e", 6, 100, 10, 100);
        assert_eq!(
            (cache.get("e"), cache.len(), cache.weight()),
            (Some(6), 1, 100)
        );
        // The entry count still bounds light entries.
        cache.insert_weighed("f", 7, 0, 1, 100);
        assert_eq!(
            (cache.get("f"), cache.len(), cache.weight()),
            (Some(7), 1, 0)
        );
    }
}
