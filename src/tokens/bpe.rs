//! One byte-pair encoding: `bpe-openai`'s pretokenizer and vocabulary, counted piece by piece.
//!
//! Each piece (a pretokenizer match) is counted as tiktoken's `CoreBPE::encode_ordinary` does:
//! a piece that is itself a token is one token; otherwise tiktoken's `_byte_pair_merge` runs on
//! it (repeatedly merge the adjacent pair whose bytes have the lowest rank, leftmost on ties).
//! Pieces longer than [`MERGE_MAX`] bytes go to `bpe`'s linear-time backtracking counter
//! instead, which gives the same count (checked against tiktoken) without the quadratic merge.

use std::sync::LazyLock;

use bpe_openai::Tokenizer;
use rustc_hash::FxHashMap;

/// Longest piece (in bytes) counted with the tiktoken merge on a stack buffer; longer pieces use
/// `bpe`'s backtracking encoder, which is linear in the piece length.
pub const MERGE_MAX: usize = 128;

/// Rank meaning "this pair is not a token".
const NO_RANK: u32 = u32::MAX;

/// A tokenizer: the pretokenizer and vocabulary of `bpe-openai` plus a rank table for the merge.
pub struct Bpe {
    tokenizer: &'static Tokenizer,
    /// Token bytes -> rank (the token id; ranks are the merge priorities, lowest first).
    ranks: FxHashMap<&'static [u8], u32>,
}

impl Bpe {
    fn new(tokenizer: &'static Tokenizer) -> Self {
        let n = tokenizer.bpe.num_tokens();
        let mut ranks = FxHashMap::with_capacity_and_hasher(n, rustc_hash::FxBuildHasher);
        for id in 0..n {
            // Token ids fit in u32: the vocabularies have about 10^5 tokens.
            let id = id as u32;
            ranks.insert(tokenizer.bpe.token_bytes(id), id);
        }
        Self { tokenizer, ranks }
    }

    /// The number of tokens of `text`: `len(enc.encode_ordinary(text))`.
    pub fn count(&self, text: &str) -> usize {
        self.tokenizer
            .split(text)
            .map(|piece| self.count_piece(piece.as_bytes()))
            .sum()
    }

    /// The number of tokens of `text` if it is `<= limit`, else some number `> limit`.
    ///
    /// Stops after the first piece that takes the running total past `limit`, so the cost is
    /// bounded by the pieces needed to exceed the limit (plus that one piece).
    pub fn count_limited(&self, text: &str, limit: usize) -> usize {
        let mut total = 0usize;
        for piece in self.tokenizer.split(text) {
            total += self.count_piece(piece.as_bytes());
            if total > limit {
                break;
            }
        }
        total
    }

    /// Pretokenizer pieces of `text` (for tests).
    #[cfg(test)]
    pub fn split<'a>(&'a self, text: &'a str) -> impl Iterator<Item = &'a str> {
        self.tokenizer.split(text)
    }

    #[inline]
    fn rank(&self, bytes: &[u8]) -> u32 {
        self.ranks.get(bytes).copied().unwrap_or(NO_RANK)
    }

    #[inline]
    fn count_piece(&self, piece: &[u8]) -> usize {
        // Every single byte is a token in both vocabularies.
        if piece.len() <= 1 {
            return piece.len();
        }
        if self.ranks.contains_key(piece) {
            return 1;
        }
        if piece.len() > MERGE_MAX {
            return self.tokenizer.bpe.count(piece);
        }
        self.merge_count(piece)
    }

    /// tiktoken's `_byte_pair_merge` on a stack buffer; returns the number of parts left.
    ///
    /// `parts[k] = (start, rank of the bytes from start to the start two parts on)`, with a
    /// sentinel part at the end. `2 <= piece.len() <= MERGE_MAX`.
    fn merge_count(&self, piece: &[u8]) -> usize {
        debug_assert!((2..=MERGE_MAX).contains(&piece.len()));
        let mut parts = [(0u32, NO_RANK); MERGE_MAX + 1];
        let mut len = piece.len() + 1;
        let mut min = (NO_RANK, 0usize);
        for i in 0..piece.len() - 1 {
            let rank = self.rank(&piece[i..i + 2]);
            if rank < min.0 {
                min = (rank, i);
            }
            parts[i] = (i as u32, rank);
        }
        parts[piece.len() - 1] = ((piece.len() - 1) as u32, NO_RANK);
        parts[piece.len()] = (piece.len() as u32, NO_RANK);

        // Rank of parts[i] merged with parts[i + 1] and parts[i + 2], before parts[i + 1] is
        // removed (hence i + 3).
        let rank_after = |parts: &[(u32, u32)], len: usize, i: usize| -> u32 {
            if i + 3 < len {
                self.rank(&piece[parts[i].0 as usize..parts[i + 3].0 as usize])
            } else {
                NO_RANK
            }
        };
        while min.0 != NO_RANK {
            let i = min.1;
            if i > 0 {
                parts[i - 1].1 = rank_after(&parts, len, i - 1);
            }
            parts[i].1 = rank_after(&parts, len, i);
            parts.copy_within(i + 2..len, i + 1);
            len -= 1;
            min = (NO_RANK, 0);
            for (j, &(_, rank)) in parts[..len - 1].iter().enumerate() {
                if rank < min.0 {
                    min = (rank, j);
                }
            }
        }
        len - 1
    }
}

static O200K_BASE: LazyLock<Bpe> = LazyLock::new(|| Bpe::new(bpe_openai::o200k_base()));
static CL100K_BASE: LazyLock<Bpe> = LazyLock::new(|| Bpe::new(bpe_openai::cl100k_base()));

/// `o200k_base`, built on first use (thread-safe, once per process).
pub fn o200k_base() -> &'static Bpe {
    &O200K_BASE
}

/// `cl100k_base`, built on first use (thread-safe, once per process).
pub fn cl100k_base() -> &'static Bpe {
    &CL100K_BASE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator (no `rand` dependency).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) as usize) % n
        }
    }

    /// The stack merge and `bpe`'s backtracking encoder agree on pieces of every length the
    /// merge handles (random concatenations of tokens, so merges really happen).
    #[test]
    fn merge_agrees_with_backtracking() {
        for bpe in [o200k_base(), cl100k_base()] {
            let mut rng = Lcg(7);
            let n = bpe.tokenizer.bpe.num_tokens();
            for _ in 0..20_000 {
                let len = 2 + rng.next(MERGE_MAX - 1);
                let mut piece = Vec::with_capacity(len + 64);
                while piece.len() < len {
                    let id = rng.next(n) as u32;
                    let bytes = bpe.tokenizer.bpe.token_bytes(id);
                    // Short tokens make pieces with many merges.
                    let take = bytes.len().min(1 + rng.next(4));
                    piece.extend_from_slice(&bytes[..take]);
                }
                piece.truncate(len);
                if bpe.ranks.contains_key(piece.as_slice()) {
                    continue;
                }
                assert_eq!(
                    bpe.merge_count(&piece),
                    bpe.tokenizer.bpe.count(&piece),
                    "{piece:?}"
                );
            }
        }
    }

    #[test]
    fn pieces_cover_the_text() {
        let text = "Hello  world\r\n\n  \u{a0}x 123456 it's ТЕСТ 日本語 👍🏽  ";
        for bpe in [o200k_base(), cl100k_base()] {
            assert_eq!(bpe.split(text).collect::<String>(), text);
        }
    }

    #[test]
    fn limited_stops_early() {
        let text = "word ".repeat(10_000);
        let bpe = o200k_base();
        assert_eq!(bpe.count(&text), 10_001); // tiktoken 0.14
        let got = bpe.count_limited(&text, 10);
        assert!(got > 10 && got <= 12, "{got}");
    }
}
