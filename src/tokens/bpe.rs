//! One byte-pair encoding: tiktoken's pretokenizer and merge, with the vocabulary compiled in.
//!
//! - Vocabulary: `data/NAME.bpe`, written by `scripts/gen_vocab.py` from tiktoken's own files
//!   (`b"BPV1"`, a little-endian `u32` count `n`, `n` token lengths as bytes, then the tokens'
//!   bytes in rank order). At first use it becomes a hash map from token bytes to rank.
//! - Pretokenizer: tiktoken's regex, run by `regex-automata` (a lazy DFA, leftmost-first,
//!   anchored at each piece start). tiktoken's `\s+(?!\S)` needs a look-ahead, which a DFA has
//!   not: as in `bpe-openai` (MIT, github/rust-gems), it becomes a separate pattern `\s+\s`
//!   whose last character is given back, tried after the main alternatives, and `\s+$` is
//!   added to the main pattern so a run of whitespace at the very end is kept whole.
//! - Each piece is counted as tiktoken's `CoreBPE::encode_ordinary` encodes it: a piece that is
//!   a token is one token; otherwise `_byte_pair_merge` (repeatedly merge the adjacent pair
//!   whose bytes have the lowest rank, the leftmost on ties). Pieces up to [`MERGE_MAX`] bytes
//!   run tiktoken's O(p²) loop on a stack buffer; longer ones the same merges in the same order
//!   with a heap and a linked list, O(p log p) (tiktoken itself is quadratic there).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::LazyLock;

use super::pretok::{Pattern, Pieces};
use super::ranks::{RankTable, NO_RANK};

/// Longest piece (in bytes) counted with tiktoken's quadratic merge on a stack buffer.
pub const MERGE_MAX: usize = 128;

static O200K_DATA: &[u8] = include_bytes!("data/o200k_base.bpe");
static CL100K_DATA: &[u8] = include_bytes!("data/cl100k_base.bpe");

/// The tokens of a `.bpe` blob, in rank order. The blobs are compiled in and checked by the
/// unit tests, so a malformed one is a build defect: it panics on first use.
fn read_vocab(data: &'static [u8]) -> Vec<&'static [u8]> {
    assert!(
        data.len() >= 8 && &data[..4] == b"BPV1",
        "bad vocabulary header"
    );
    let n = u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize;
    let (lengths, mut rest) = data[8..].split_at(n);
    let mut tokens = Vec::with_capacity(n);
    for &len in lengths {
        let (token, tail) = rest.split_at(usize::from(len));
        tokens.push(token);
        rest = tail;
    }
    assert!(rest.is_empty(), "bad vocabulary length");
    tokens
}

/// A tokenizer: pretokenizer plus rank table.
pub struct Bpe {
    pattern: Pattern,
    /// Token bytes -> rank (the token id; lower ranks merge first).
    ranks: RankTable,
}

impl Bpe {
    fn new(data: &'static [u8], pattern: Pattern) -> Self {
        Self {
            pattern,
            ranks: RankTable::new(read_vocab(data)),
        }
    }

    /// The pretokenizer's pieces of `text`.
    pub fn split<'a>(&self, text: &'a str) -> Pieces<'a> {
        Pieces::new(self.pattern, text)
    }

    /// The number of tokens of `text`: `len(enc.encode_ordinary(text))`.
    pub fn count(&self, text: &str) -> usize {
        self.split(text).map(|piece| self.count_piece(piece)).sum()
    }

    /// The number of tokens of `text` if it is `<= limit`, else some number `> limit` (and
    /// `<=` the count).
    ///
    /// Stops after the first piece that takes the running total past `limit`, so the cost is
    /// bounded by the pieces needed to exceed the limit (plus that one piece).
    pub fn count_limited(&self, text: &str, limit: usize) -> usize {
        let mut total = 0usize;
        for piece in self.split(text) {
            total += self.count_piece(piece);
            if total > limit {
                break;
            }
        }
        total
    }

    /// The number of tokens in the vocabulary.
    #[cfg(test)]
    pub fn vocab_size(&self) -> usize {
        self.ranks.len()
    }

    #[inline]
    fn rank(&self, bytes: &[u8]) -> u32 {
        self.ranks.get(bytes)
    }

    #[inline]
    fn count_piece(&self, piece: &[u8]) -> usize {
        // Every single byte is a token in both vocabularies.
        if piece.len() <= 1 {
            return piece.len();
        }
        if self.ranks.get(piece) != NO_RANK {
            return 1;
        }
        if piece.len() > MERGE_MAX {
            return self.heap_merge_count(piece);
        }
        self.merge_count(piece)
    }

    /// tiktoken's `_byte_pair_merge` on stack buffers; returns the number of parts left.
    ///
    /// Part `k` starts at byte `start[k]`; `rank[k]` is the rank of the bytes from there to
    /// the start two parts on (what merging parts `k` and `k + 1` would make), with a sentinel
    /// part at the end. Each round merges the lowest-ranked pair (the leftmost on ties),
    /// re-ranks the pairs on either side, and removes the absorbed part.
    /// `2 <= piece.len() <= MERGE_MAX`.
    fn merge_count(&self, piece: &[u8]) -> usize {
        debug_assert!((2..=MERGE_MAX).contains(&piece.len()));
        let n = piece.len();
        // Starts fit in a byte: MERGE_MAX < 256.
        let mut start = [0u8; MERGE_MAX + 1];
        let mut rank = [NO_RANK; MERGE_MAX + 1];
        for i in 0..n - 1 {
            start[i] = i as u8;
            rank[i] = self.ranks.pair(piece[i], piece[i + 1]);
        }
        start[n - 1] = (n - 1) as u8;
        start[n] = n as u8;
        let mut len = n + 1;
        loop {
            // The minimum first (a branch-free pass), then its first position: fewer
            // instructions than one pass with a branch per pair.
            let pairs = &rank[..len - 1];
            let best = pairs.iter().fold(NO_RANK, |m, &r| m.min(r));
            if best == NO_RANK {
                return len - 1;
            }
            let at = pairs.iter().position(|&r| r == best).unwrap_or(0);
            // Parts `at` and `at + 1` merge: re-rank the pair before (now ending where part
            // `at + 2` starts) and the merged part with its successor (ending at `at + 3`).
            if at > 0 {
                rank[at - 1] = if at + 2 < len {
                    self.ranks
                        .get(&piece[usize::from(start[at - 1])..usize::from(start[at + 2])])
                } else {
                    NO_RANK
                };
            }
            rank[at] = if at + 3 < len {
                self.ranks
                    .get(&piece[usize::from(start[at])..usize::from(start[at + 3])])
            } else {
                NO_RANK
            };
            for j in at + 1..len - 1 {
                start[j] = start[j + 1];
                rank[j] = rank[j + 1];
            }
            len -= 1;
        }
    }

    /// The same merges as [`Self::merge_count`], in the same order, in O(p log p).
    ///
    /// Parts are a linked list over their start bytes; a min-heap holds candidate merges
    /// `(rank, start, end)` of two adjacent parts spanning `start..end`. The smallest
    /// `(rank, start)` is tiktoken's choice (lowest rank, leftmost). A candidate is stale, and
    /// skipped, once either part has merged with something else: then the part at `start` is
    /// gone or the two parts no longer end at `end` (parts only grow).
    fn heap_merge_count(&self, piece: &[u8]) -> usize {
        let n = piece.len();
        // next[i]: start of the part after the part starting at i (n at the end);
        // prev[i]: start of the part before it (usize::MAX for the first).
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut heap = BinaryHeap::with_capacity(n);
        for i in 0..n.saturating_sub(1) {
            let rank = self.rank(&piece[i..i + 2]);
            if rank != NO_RANK {
                heap.push(Reverse((rank, i, i + 2)));
            }
        }
        let mut parts = n;
        while let Some(Reverse((_, start, end))) = heap.pop() {
            let mid = next[start];
            if !alive[start] || mid >= n || next[mid] != end {
                continue;
            }
            alive[mid] = false;
            next[start] = end;
            if end < n {
                prev[end] = start;
            }
            parts -= 1;
            let before = prev[start];
            if before != usize::MAX {
                let rank = self.rank(&piece[before..end]);
                if rank != NO_RANK {
                    heap.push(Reverse((rank, before, end)));
                }
            }
            if end < n {
                let after = next[end];
                let rank = self.rank(&piece[start..after]);
                if rank != NO_RANK {
                    heap.push(Reverse((rank, start, after)));
                }
            }
        }
        parts
    }
}

static O200K_BASE: LazyLock<Bpe> = LazyLock::new(|| Bpe::new(O200K_DATA, Pattern::O200k));
static CL100K_BASE: LazyLock<Bpe> = LazyLock::new(|| Bpe::new(CL100K_DATA, Pattern::Cl100k));

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

    /// tiktoken's `_byte_pair_merge`, ported line by line with a `Vec` (any length).
    fn tiktoken_merge(bpe: &Bpe, piece: &[u8]) -> usize {
        let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
        let mut min_rank = (NO_RANK, usize::MAX);
        for i in 0..piece.len() - 1 {
            let rank = bpe.rank(&piece[i..i + 2]);
            if rank < min_rank.0 {
                min_rank = (rank, i);
            }
            parts.push((i, rank));
        }
        parts.push((piece.len() - 1, NO_RANK));
        parts.push((piece.len(), NO_RANK));
        let get_rank = |parts: &Vec<(usize, u32)>, i: usize| {
            if (i + 3) < parts.len() {
                bpe.rank(&piece[parts[i].0..parts[i + 3].0])
            } else {
                NO_RANK
            }
        };
        while min_rank.0 != NO_RANK {
            let i = min_rank.1;
            if i > 0 {
                parts[i - 1].1 = get_rank(&parts, i - 1);
            }
            parts[i].1 = get_rank(&parts, i);
            parts.remove(i + 1);
            min_rank = (NO_RANK, usize::MAX);
            for (i, &(_, rank)) in parts[..parts.len() - 1].iter().enumerate() {
                if rank < min_rank.0 {
                    min_rank = (rank, i);
                }
            }
        }
        parts.len() - 1
    }

    /// Random concatenations of token prefixes: pieces on which many merges happen.
    fn random_piece(tokens: &[&[u8]], rng: &mut Lcg, len: usize) -> Vec<u8> {
        let mut piece = Vec::with_capacity(len + 8);
        while piece.len() < len {
            let token = tokens[rng.next(tokens.len())];
            let take = token.len().min(1 + rng.next(4));
            piece.extend_from_slice(&token[..take]);
        }
        piece.truncate(len);
        piece
    }

    #[test]
    fn vocabularies_load() {
        assert_eq!(o200k_base().vocab_size(), 199_998);
        assert_eq!(cl100k_base().vocab_size(), 100_256);
        for bpe in [o200k_base(), cl100k_base()] {
            for b in 0..=255u8 {
                assert_ne!(bpe.rank(&[b]), NO_RANK, "byte {b} is a token");
            }
        }
        // Spot checks against tiktoken 0.14's ranks.
        assert_eq!(cl100k_base().rank(b"hello"), 15_339);
        assert_eq!(o200k_base().rank(b"hello"), 24_912);
    }

    /// The stack merge, the heap merge and tiktoken's own loop agree.
    #[test]
    fn merges_agree_with_tiktoken_loop() {
        for (data, bpe) in [(O200K_DATA, o200k_base()), (CL100K_DATA, cl100k_base())] {
            let tokens = read_vocab(data);
            let mut rng = Lcg(7);
            for round in 0..6_000 {
                let len = if round % 10 == 0 {
                    MERGE_MAX + 1 + rng.next(900)
                } else {
                    2 + rng.next(MERGE_MAX - 1)
                };
                let piece = random_piece(&tokens, &mut rng, len);
                let expected = tiktoken_merge(bpe, &piece);
                assert_eq!(bpe.heap_merge_count(&piece), expected, "heap {piece:?}");
                if len <= MERGE_MAX {
                    assert_eq!(bpe.merge_count(&piece), expected, "stack {piece:?}");
                }
            }
            // Long runs of one byte: many equal ranks, leftmost must win.
            for len in [129, 130, 131, 257, 1000] {
                for b in [b'a', b' ', b'0', b'!'] {
                    let piece = vec![b; len];
                    assert_eq!(bpe.heap_merge_count(&piece), tiktoken_merge(bpe, &piece));
                }
            }
        }
    }

    #[test]
    fn pieces_cover_the_text() {
        let texts = [
            "Hello  world\r\n\n  \u{a0}x 123456 it's ТЕСТ 日本語 👍🏽  ",
            "   ",
            "a",
            "\n",
            " \u{301}x",
            "x  \n  ",
        ];
        for bpe in [o200k_base(), cl100k_base()] {
            for text in texts {
                let pieces: Vec<&[u8]> = bpe.split(text).collect();
                assert!(pieces.iter().all(|p| !p.is_empty()));
                assert_eq!(pieces.concat(), text.as_bytes());
            }
        }
        // The emulated look-ahead: a run of spaces before a word leaves one space for it.
        let pieces: Vec<&[u8]> = cl100k_base().split("a   b").collect();
        assert_eq!(pieces, [&b"a"[..], b"  ", b" b"]);
        let pieces: Vec<&[u8]> = o200k_base().split("x  ").collect();
        assert_eq!(pieces, [&b"x"[..], b"  "]);
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
