//! The rank of a byte string in a vocabulary: an open-addressing table specialised for BPE.
//!
//! - Two-byte strings (every first merge) index a direct 65,536-entry array.
//! - Everything else probes one flat array of 16-byte slots (linear probing, load <= 0.5).
//!   A slot holds the string's first 8 bytes as a `u64` key, its length and its rank, so
//!   strings of up to 8 bytes (most tokens, most look-ups) compare as two integers, without
//!   touching the vocabulary's bytes or calling `memcmp`; a longer string is confirmed
//!   against the token's bytes. The hash mixes the key, the last 8 bytes and the length with
//!   a folded 128-bit multiply.
//!
//! A `FxHashMap<&[u8], u32>` did the same job before: hashing a slice, then a fat-pointer
//! compare through `memcmp` on every hit, about 2x the instructions per look-up.

/// Rank meaning "these bytes are not a token".
pub const NO_RANK: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    /// 0 marks an empty slot (no token is empty).
    len: u32,
    rank: u32,
}

const EMPTY: Slot = Slot {
    key: 0,
    len: 0,
    rank: NO_RANK,
};

/// Token bytes -> rank.
pub struct RankTable {
    pairs: Box<[u32]>,
    slots: Box<[Slot]>,
    mask: usize,
    tokens: Vec<&'static [u8]>,
}

/// The bytes of `s` (at most 8) as a little-endian `u64`, zero-padded.
#[inline]
fn load_short(s: &[u8]) -> u64 {
    let n = s.len();
    debug_assert!(n <= 8);
    if n >= 4 {
        // Two overlapping 4-byte loads; the shared bytes land on the same bits.
        let lo = u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
        let hi = u64::from(u32::from_le_bytes([s[n - 4], s[n - 3], s[n - 2], s[n - 1]]));
        lo | (hi << ((n - 4) * 8))
    } else if n > 0 {
        u64::from(s[0])
            | (u64::from(s[n / 2]) << (8 * (n / 2)))
            | (u64::from(s[n - 1]) << (8 * (n - 1)))
    } else {
        0
    }
}

/// `(key, tail)`: the first 8 bytes (zero-padded) and, for longer strings, the last 8.
#[inline]
fn key_of(s: &[u8]) -> (u64, u64) {
    let n = s.len();
    if n <= 8 {
        (load_short(s), 0)
    } else {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&s[at..at + 8]);
            u64::from_le_bytes(w)
        };
        (word(0), word(n - 8))
    }
}

#[inline]
fn hash(key: u64, tail: u64, len: usize) -> u64 {
    let x = key ^ tail.rotate_left(23) ^ (len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let p = u128::from(x ^ 0x2D35_8DCC_AA6C_78A5) * 0x8BB8_4B93_962E_ACC9_u128;
    (p as u64) ^ ((p >> 64) as u64)
}

impl RankTable {
    /// The table of `tokens`, where a token's rank is its index.
    pub fn new(tokens: Vec<&'static [u8]>) -> Self {
        let mut pairs = vec![NO_RANK; 1 << 16].into_boxed_slice();
        let capacity = (tokens.len() * 2).next_power_of_two();
        let mut slots = vec![EMPTY; capacity].into_boxed_slice();
        let mask = capacity - 1;
        for (rank, token) in tokens.iter().enumerate() {
            // Ranks fit in u32 (about 10^5 tokens) and lengths in u8 (the .bpe format).
            let rank = rank as u32;
            if let &[a, b] = *token {
                pairs[usize::from(a) | (usize::from(b) << 8)] = rank;
            }
            let (key, tail) = key_of(token);
            let mut i = hash(key, tail, token.len()) as usize & mask;
            while slots[i].len != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = Slot {
                key,
                len: token.len() as u32,
                rank,
            };
        }
        Self {
            pairs,
            slots,
            mask,
            tokens,
        }
    }

    /// The number of tokens.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The rank of the two bytes `a`, `b`.
    #[inline]
    pub fn pair(&self, a: u8, b: u8) -> u32 {
        self.pairs[usize::from(a) | (usize::from(b) << 8)]
    }

    /// The rank of `s`, or [`NO_RANK`].
    // Forced: as a call, saving and restoring registers cost a third of a look-up.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn get(&self, s: &[u8]) -> u32 {
        let (key, tail) = key_of(s);
        let len = s.len();
        let mut i = hash(key, tail, len) as usize & self.mask;
        loop {
            let slot = self.slots[i];
            if slot.len == 0 {
                return NO_RANK;
            }
            if slot.key == key
                && slot.len as usize == len
                && (len <= 8 || self.tokens[slot.rank as usize] == s)
            {
                return slot.rank;
            }
            i = (i + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_are_the_bytes() {
        for n in 0..=8 {
            let s: Vec<u8> = (1..=n as u8).collect();
            let mut w = [0u8; 8];
            w[..n].copy_from_slice(&s);
            assert_eq!(load_short(&s), u64::from_le_bytes(w), "{n}");
        }
    }

    #[test]
    fn finds_every_token_and_no_other_string() {
        let words: Vec<&'static [u8]> = vec![
            b"a",
            b"b",
            b"ab",
            b"\0",
            b"\0\0",
            b"a\0",
            b"abcdefgh",
            b"abcdefghi",
            b"abcdefghij",
            b"xbcdefghi",
            b"abcdefgxi",
            b"hello world, long token",
        ];
        let table = RankTable::new(words.clone());
        for (rank, w) in words.iter().enumerate() {
            assert_eq!(table.get(w), rank as u32);
        }
        assert_eq!(table.pair(b'a', b'b'), 2);
        assert_eq!(table.pair(0, 0), 4);
        assert_eq!(table.pair(b'b', b'a'), NO_RANK);
        for miss in [
            &b""[..],
            b"\0\0\0",
            b"ba",
            b"abcdefg",
            b"abcdefghk",
            b"bbcdefghij",
            b"hello",
        ] {
            assert_eq!(table.get(miss), NO_RANK, "{miss:?}");
        }
    }
}
