//! A bounded, thread-safe cache of token counts keyed by a 128-bit BLAKE3 hash.
//!
//! The key is BLAKE3 of (one byte naming the encoding, the text's UTF-8 bytes), truncated to
//! 128 bits: a cryptographic hash, so nobody can craft two texts that share a key (a collision
//! would return a wrong count), and 2^-64 odds of an accidental collision even after 2^32
//! distinct texts.
//!
//! Eviction is CLOCK (second chance) in 16 shards, each a `Mutex` over a hash map from key to
//! slot and a ring of slots with a "referenced" bit. A hit sets the bit; an insert into a full
//! shard advances the hand, clearing bits, until it finds a slot whose bit is clear, and
//! replaces it. Capacity `n` is split over the shards (`n / 16`, the first `n % 16` shards one
//! more), so the cache never holds more than `n` entries. Capacity 0 disables the cache: no
//! look-ups, no inserts, and neither hits nor misses are counted.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;

/// Default number of cached counts (about 3 MB).
pub const DEFAULT_CAPACITY: usize = 65_536;
const SHARDS: usize = 16;

/// A cache key: 128 bits of BLAKE3 over (encoding tag, text).
pub type Key = u128;

/// The key of `text` counted with the encoding tagged `tag`.
pub fn key(tag: u8, text: &str) -> Key {
    let mut hasher = blake3::Hasher::new();
    hasher.update(&[tag]);
    hasher.update(text.as_bytes());
    let hash = hasher.finalize();
    let mut first = [0u8; 16];
    first.copy_from_slice(&hash.as_bytes()[..16]);
    u128::from_le_bytes(first)
}

struct Slot {
    key: Key,
    count: u32,
    referenced: bool,
}

struct Shard {
    index: FxHashMap<Key, u32>,
    slots: Vec<Slot>,
    hand: usize,
    capacity: usize,
}

impl Shard {
    fn new(capacity: usize) -> Self {
        Self {
            index: FxHashMap::default(),
            slots: Vec::new(),
            hand: 0,
            capacity,
        }
    }

    fn get(&mut self, key: Key) -> Option<u32> {
        let slot = &mut self.slots[*self.index.get(&key)? as usize];
        slot.referenced = true;
        Some(slot.count)
    }

    fn insert(&mut self, key: Key, count: u32) {
        if self.capacity == 0 {
            return;
        }
        if let Some(&i) = self.index.get(&key) {
            self.slots[i as usize].count = count;
            return;
        }
        if self.slots.len() < self.capacity {
            self.index.insert(key, self.slots.len() as u32);
            self.slots.push(Slot {
                key,
                count,
                referenced: false,
            });
            return;
        }
        loop {
            let hand = self.hand;
            self.hand = (self.hand + 1) % self.slots.len();
            let slot = &mut self.slots[hand];
            if slot.referenced {
                slot.referenced = false;
                continue;
            }
            self.index.remove(&slot.key);
            *slot = Slot {
                key,
                count,
                referenced: false,
            };
            self.index.insert(key, hand as u32);
            return;
        }
    }
}

/// Hits, misses, entries held and capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheInfo {
    pub hits: u64,
    pub misses: u64,
    pub size: usize,
    pub capacity: usize,
}

/// The sharded CLOCK cache.
pub struct TokenCache {
    shards: [Mutex<Shard>; SHARDS],
    capacity: AtomicUsize,
    hits: AtomicU64,
    misses: AtomicU64,
}

fn shard_capacity(capacity: usize, shard: usize) -> usize {
    capacity / SHARDS + usize::from(shard < capacity % SHARDS)
}

impl TokenCache {
    /// An empty cache holding at most `capacity` counts (0 disables it).
    pub fn new(capacity: usize) -> Self {
        Self {
            shards: std::array::from_fn(|s| Mutex::new(Shard::new(shard_capacity(capacity, s)))),
            capacity: AtomicUsize::new(capacity),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn shard(&self, key: Key) -> MutexGuard<'_, Shard> {
        // The top bits of the key pick the shard; the map hashes the whole key. A panic while
        // holding the lock cannot leave a shard inconsistent in a way that matters for counts
        // (each entry is written whole), so a poisoned lock is used as is.
        let s = (key >> 124) as usize % SHARDS;
        self.shards[s]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the cache is on (capacity > 0).
    pub fn enabled(&self) -> bool {
        self.capacity.load(Ordering::Relaxed) > 0
    }

    /// The cached count for `key`, counting a hit or a miss.
    pub fn get(&self, key: Key) -> Option<u32> {
        let found = self.shard(key).get(key);
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// The cached count for `key` without touching the hit and miss counters (used by the
    /// limited count, whose misses may not end in an exact count to insert).
    pub fn peek(&self, key: Key) -> Option<u32> {
        self.shard(key).get(key)
    }

    /// Remember `count` for `key` (counts above `u32::MAX` are not cached).
    pub fn insert(&self, key: Key, count: usize) {
        if let Ok(count) = u32::try_from(count) {
            self.shard(key).insert(key, count);
        }
    }

    /// Drop every entry and reset the counters; then hold at most `capacity` counts.
    pub fn reset(&self, capacity: usize) {
        for (s, shard) in self.shards.iter().enumerate() {
            *shard.lock().unwrap_or_else(PoisonError::into_inner) =
                Shard::new(shard_capacity(capacity, s));
        }
        self.capacity.store(capacity, Ordering::Relaxed);
        self.hits.store(0, Ordering::Relaxed);
        self.misses.store(0, Ordering::Relaxed);
    }

    /// Hits and misses since the last reset, entries held and capacity.
    pub fn info(&self) -> CacheInfo {
        let size = self
            .shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(PoisonError::into_inner).slots.len())
            .sum();
        CacheInfo {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            size,
            capacity: self.capacity.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_counts_hits() {
        let cache = TokenCache::new(40);
        for i in 0..1000u32 {
            let k = key(1, &i.to_string());
            assert_eq!(cache.get(k), None);
            cache.insert(k, i as usize);
            assert_eq!(cache.get(k), Some(i));
            assert!(cache.info().size <= 40);
        }
        let info = cache.info();
        assert_eq!((info.hits, info.misses, info.capacity), (1000, 1000, 40));
        assert_eq!(info.size, 40);
    }

    #[test]
    fn clock_keeps_referenced_entries() {
        // Capacity 32 gives each shard two slots; keys with the same top bits share a shard,
        // so the third insert must evict, and CLOCK spares the referenced entry.
        let cache = TokenCache::new(SHARDS * 2);
        let keys: Vec<Key> = (0..3u128).map(|i| i | (3u128 << 124)).collect();
        cache.insert(keys[0], 10);
        cache.insert(keys[1], 11);
        assert_eq!(cache.get(keys[0]), Some(10)); // referenced
        cache.insert(keys[2], 12); // evicts keys[1], the unreferenced one
        assert_eq!(cache.peek(keys[0]), Some(10));
        assert_eq!(cache.peek(keys[1]), None);
        assert_eq!(cache.peek(keys[2]), Some(12));
    }

    #[test]
    fn zero_capacity_holds_nothing() {
        let cache = TokenCache::new(0);
        assert!(!cache.enabled());
        cache.insert(key(1, "a"), 1);
        assert_eq!(cache.info().size, 0);
        cache.reset(5);
        assert!(cache.enabled());
        for i in 0..100u32 {
            cache.insert(key(2, &i.to_string()), 1);
        }
        assert!(cache.info().size <= 5);
    }

    #[test]
    fn keys_differ_by_encoding() {
        assert_ne!(key(1, "hello"), key(2, "hello"));
        assert_eq!(key(1, "hello"), key(1, "hello"));
    }
}
