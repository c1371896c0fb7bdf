//! A compact string interner: distinct words to dense `u32` ids (first appearance order).
//!
//! Words of 1..=8 bytes (nine in ten on the corpus) live in one open-addressing table keyed by
//! a `u64` that, with the length, determines their bytes (`short_key`), so a lookup is a
//! multiply, one 16-byte slot and two compares; words of 9..=16 bytes likewise by their
//! first and last eight bytes (`medium_key`, one 24-byte slot). Longer words (and the empty
//! word) use a further table of one `u64` per slot (upper 32 bits: hash tag, lower 32:
//! id + 1; 0 is empty), confirmed by comparing the bytes. All share one id counter, and
//! every word's bytes are kept back to back in one arena. Two different words never share
//! an id. Every table stays at most half full; the caller's size estimate decides whether they
//! fit in the cache (`jaccard::distinct_words`).
//!
//! Measurements and the history of these choices: `docs/performance.md`, "The word interner".

use std::hash::BuildHasher;

const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// A slot of the short-word table: the word's key (`short_key`), its id + 1 (0: empty) and
/// its length in bytes.
#[derive(Clone, Copy)]
struct Short {
    key: u64,
    id1: u32,
    len: u32,
}

const EMPTY: Short = Short {
    key: 0,
    id1: 0,
    len: 0,
};

/// A slot of the medium-word table (9..=16 bytes): the first and the last eight bytes
/// (overlapping), which with the length determine the word, its id + 1 (0: empty) and its
/// length.
#[derive(Clone, Copy)]
struct Medium {
    head: u64,
    tail: u64,
    id1: u32,
    len: u32,
}

const EMPTY_MEDIUM: Medium = Medium {
    head: 0,
    tail: 0,
    id1: 0,
    len: 0,
};

/// The first and last eight bytes of a 9..=16-byte word (they overlap below 16 bytes).
#[inline]
fn medium_key(w: &[u8]) -> (u64, u64) {
    let n = w.len();
    let mut head = [0u8; 8];
    let mut tail = [0u8; 8];
    head.copy_from_slice(&w[..8]);
    tail.copy_from_slice(&w[n - 8..]);
    (u64::from_le_bytes(head), u64::from_le_bytes(tail))
}

/// The bytes of a 1..=8-byte word packed in a `u64` that, with the length, determines them
/// all: the first and last four bytes (overlapping) from 4 bytes on, else the first, middle
/// and last byte.
#[inline]
fn short_key(w: &[u8]) -> u64 {
    let n = w.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let hi = u32::from_le_bytes([w[n - 4], w[n - 3], w[n - 2], w[n - 1]]);
        u64::from(lo) | (u64::from(hi) << 32)
    } else {
        u64::from(w[0]) | (u64::from(w[n / 2]) << 8) | (u64::from(w[n - 1]) << 16)
    }
}

/// The high and low halves of the 128-bit product, folded (foldhash's mixer).
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// Dense ids for distinct strings.
pub(crate) struct Interner {
    /// Words of 1..=8 bytes (nine in ten on the corpus), compared by key and length.
    short: Vec<Short>,
    short_mask: usize,
    short_count: usize,
    /// Words of 9..=16 bytes, compared by their first and last eight bytes and length.
    medium: Vec<Medium>,
    medium_mask: usize,
    medium_count: usize,
    /// Other words: hash tag (upper 32 bits) | id + 1, compared by their bytes.
    slots: Vec<u64>,
    mask: usize,
    long_count: usize,
    bytes: Vec<u8>,
    /// Word `id` is `bytes[starts[id]..starts[id + 1]]` (`starts[0] = 0`).
    starts: Vec<usize>,
    hasher: foldhash::fast::RandomState,
    /// Random per interner, so no fixed set of words collides in the short table.
    seed: [u64; 2],
}

impl Interner {
    /// An interner sized for about `words` distinct strings (it grows past that).
    pub(crate) fn with_capacity(words: usize) -> Self {
        let words = words.clamp(256, 1 << 20);
        // Of the distinct words of 1,000 workload texts, 55% are short (1..=8 bytes), 34%
        // medium (9..=16) and 11% long; each table stays at most half full (it grows past
        // that).
        let size = (words * 3 / 2).next_power_of_two();
        let medium = (words * 3 / 4).next_power_of_two();
        let long = (words / 4).next_power_of_two();
        let mut starts = Vec::with_capacity(words + 1);
        starts.push(0);
        let hasher = foldhash::fast::RandomState::default();
        let seed = [hasher.hash_one(1u64), hasher.hash_one(2u64) | 1];
        Self {
            short: vec![EMPTY; size],
            short_mask: size - 1,
            short_count: 0,
            medium: vec![EMPTY_MEDIUM; medium],
            medium_mask: medium - 1,
            medium_count: 0,
            slots: vec![0; long],
            mask: long - 1,
            long_count: 0,
            bytes: Vec::with_capacity(words * 8),
            starts,
            hasher,
            seed,
        }
    }

    /// Number of distinct strings seen.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    #[inline]
    fn word(&self, id: usize) -> &[u8] {
        &self.bytes[self.starts[id]..self.starts[id + 1]]
    }

    /// The id of `word`, adding it if new; `None` once `u32::MAX - 1` ids are taken.
    #[inline]
    pub(crate) fn intern(&mut self, word: &str) -> Option<u32> {
        let w = word.as_bytes();
        if (1..=8).contains(&w.len()) {
            self.intern_short(w)
        } else if (9..=16).contains(&w.len()) {
            self.intern_medium(w)
        } else {
            self.intern_long(w)
        }
    }

    #[inline]
    fn short_slot(&self, key: u64, len: u32) -> usize {
        fold(key ^ self.seed[0], u64::from(len) ^ self.seed[1]) as usize & self.short_mask
    }

    #[inline]
    fn intern_short(&mut self, w: &[u8]) -> Option<u32> {
        let len = w.len() as u32;
        let key = short_key(w);
        let mut i = self.short_slot(key, len);
        loop {
            let slot = self.short[i];
            if slot.id1 == 0 {
                let id = self.new_id(w)?;
                self.short[i] = Short {
                    key,
                    id1: id + 1,
                    len,
                };
                self.short_count += 1;
                if self.short_count * 2 > self.short.len() {
                    self.grow_short();
                }
                return Some(id);
            }
            if slot.key == key && slot.len == len {
                return Some(slot.id1 - 1);
            }
            i = (i + 1) & self.short_mask;
        }
    }

    #[inline]
    fn medium_slot(&self, head: u64, tail: u64, len: u32) -> usize {
        fold(head ^ self.seed[0], tail ^ self.seed[1] ^ u64::from(len)) as usize & self.medium_mask
    }

    #[inline]
    fn intern_medium(&mut self, w: &[u8]) -> Option<u32> {
        let len = w.len() as u32;
        let (head, tail) = medium_key(w);
        let mut i = self.medium_slot(head, tail, len);
        loop {
            let slot = self.medium[i];
            if slot.id1 == 0 {
                let id = self.new_id(w)?;
                self.medium[i] = Medium {
                    head,
                    tail,
                    id1: id + 1,
                    len,
                };
                self.medium_count += 1;
                if self.medium_count * 2 > self.medium.len() {
                    self.grow_medium();
                }
                return Some(id);
            }
            if slot.head == head && slot.tail == tail && slot.len == len {
                return Some(slot.id1 - 1);
            }
            i = (i + 1) & self.medium_mask;
        }
    }

    #[inline(never)]
    fn intern_long(&mut self, w: &[u8]) -> Option<u32> {
        let h = self.hasher.hash_one(w);
        let tag = h & TAG;
        let mut i = (h as usize) & self.mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                let id = self.new_id(w)?;
                self.slots[i] = tag | u64::from(id + 1);
                self.long_count += 1;
                if self.long_count * 2 > self.slots.len() {
                    self.grow_long();
                }
                return Some(id);
            }
            if slot & TAG == tag {
                let id = (slot as u32).wrapping_sub(1) as usize;
                if self.word(id) == w {
                    return Some(id as u32);
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The next id, its word's bytes stored; `None` once `u32::MAX - 1` ids are taken.
    #[inline]
    fn new_id(&mut self, w: &[u8]) -> Option<u32> {
        let id = u32::try_from(self.len())
            .ok()
            .filter(|&id| id < u32::MAX - 1)?;
        self.bytes.extend_from_slice(w);
        self.starts.push(self.bytes.len());
        Some(id)
    }

    fn grow_short(&mut self) {
        let size = self.short.len() * 2;
        let old = std::mem::replace(&mut self.short, vec![EMPTY; size]);
        self.short_mask = size - 1;
        for slot in old.into_iter().filter(|s| s.id1 != 0) {
            let mut i = self.short_slot(slot.key, slot.len);
            while self.short[i].id1 != 0 {
                i = (i + 1) & self.short_mask;
            }
            self.short[i] = slot;
        }
    }

    fn grow_medium(&mut self) {
        let size = self.medium.len() * 2;
        let old = std::mem::replace(&mut self.medium, vec![EMPTY_MEDIUM; size]);
        self.medium_mask = size - 1;
        for slot in old.into_iter().filter(|s| s.id1 != 0) {
            let mut i = self.medium_slot(slot.head, slot.tail, slot.len);
            while self.medium[i].id1 != 0 {
                i = (i + 1) & self.medium_mask;
            }
            self.medium[i] = slot;
        }
    }

    fn grow_long(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u64; size];
        let mask = size - 1;
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let id = (slot as u32).wrapping_sub(1) as usize;
            let h = self.hasher.hash_one(self.word(id));
            let mut i = (h as usize) & mask;
            while slots[i] != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = slot;
        }
        self.slots = slots;
        self.mask = mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_in_first_appearance_order() {
        let mut it = Interner::with_capacity(0);
        let words: Vec<String> = (0..5000).map(|i| format!("w{}", i % 1700)).collect();
        for (i, w) in words.iter().enumerate() {
            let id = it.intern(w).expect("room");
            assert_eq!(id as usize, i % 1700);
        }
        assert_eq!(it.len(), 1700);
        assert_eq!(it.intern(""), Some(1700));
        assert_eq!(it.intern(""), Some(1700));
        assert_eq!(it.intern("é"), Some(1701));
        assert_eq!(it.word(1701), "é".as_bytes());
    }

    #[test]
    fn medium_keys_tell_every_medium_word_apart() {
        // Every word of 8..=17 bytes over two letters (the medium table takes 9..=16, whose
        // first and last eight bytes overlap below 16), interned twice.
        let all: Vec<String> = (8..=17u32)
            .flat_map(|n| {
                (0..1u32 << n).map(move |bits| {
                    (0..n)
                        .map(|k| if bits >> k & 1 == 1 { 'b' } else { 'a' })
                        .collect()
                })
            })
            .collect();
        let mut it = Interner::with_capacity(0);
        for (i, w) in all.iter().enumerate() {
            assert_eq!(it.intern(w), Some(i as u32), "{w}");
        }
        for (i, w) in all.iter().enumerate() {
            assert_eq!(it.intern(w), Some(i as u32), "{w}");
            assert_eq!(it.word(i), w.as_bytes());
        }
    }

    #[test]
    fn short_keys_tell_every_short_word_apart() {
        // Every word of 1..=8 bytes over a small alphabet (with NUL and a UTF-8 lead byte),
        // interned twice: distinct words get distinct ids, repeats the same id.
        let alphabet = [b'a', b'b', 0, 0xC3];
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        let mut all = Vec::new();
        for _ in 0..8 {
            words = words
                .iter()
                .flat_map(|w| {
                    alphabet.iter().map(move |&c| {
                        let mut w = w.clone();
                        w.push(c);
                        w
                    })
                })
                .collect();
            all.extend(words.iter().cloned());
        }
        let mut it = Interner::with_capacity(0);
        // The interner takes &str; map bytes to a string of the same length and shape.
        let text = |w: &[u8]| -> String {
            w.iter()
                .map(|&b| match b {
                    0 => '\0',
                    0xC3 => 'c',
                    b => char::from(b),
                })
                .collect()
        };
        for (i, w) in all.iter().enumerate() {
            assert_eq!(it.intern(&text(w)), Some(i as u32));
        }
        for (i, w) in all.iter().enumerate() {
            assert_eq!(it.intern(&text(w)), Some(i as u32));
        }
        assert_eq!(it.len(), all.len());
        // Same keys, different lengths; long words; the empty word.
        for w in [
            "abcdabcd",
            "abcd",
            "abcdbcd",
            "abcdabcdx",
            "abcdabcdx",
            "",
            "ab",
            "aab",
        ] {
            let id = it.intern(w).expect("room");
            assert_eq!(it.word(id as usize), w.as_bytes());
        }
    }
}
