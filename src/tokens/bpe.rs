//! One byte-pair encoding: tiktoken's pretokenizer and merge, with the vocabulary compiled in.
//!
//! - Vocabulary: `data/NAME.bpe`, written by `scripts/gen_vocab.py` from tiktoken's own files
//!   (`b"BPV1"`, a little-endian `u32` count `n`, `n` token lengths as bytes, then the tokens'
//!   bytes in rank order). At first use it becomes a [`RankTable`] (token bytes -> rank).
//! - Pretokenizer: tiktoken's pattern for the encoding, hand-written in [`super::pretok`] (its
//!   doc has the patterns and how each alternative is matched). The `regex-automata` version
//!   it replaced (tiktoken's regex with `\s+(?!\S)` rewritten as `\s+\s` giving back its last
//!   character, the rewrite of `bpe-openai`) is kept in the tests as the oracle.
//! - Each piece is counted as tiktoken's `CoreBPE::encode_ordinary` encodes it: a piece that is
//!   a token is one token; otherwise `_byte_pair_merge` (repeatedly merge the adjacent pair
//!   whose bytes have the lowest rank, the leftmost on ties). Pieces up to [`MERGE_MAX`] bytes
//!   run tiktoken's O(p²) loop on stack arrays; longer ones the same merges in the same order
//!   with a heap and a linked list, O(p log p) (tiktoken itself is quadratic there).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::LazyLock;

use super::pretok::{Pattern, Pieces};
use super::ranks::{RankTable, NO_RANK};

/// Longest piece (in bytes) counted with tiktoken's quadratic merge on a stack buffer.
pub const MERGE_MAX: usize = 128;

pub(super) static O200K_DATA: &[u8] = include_bytes!("data/o200k_base.bpe");
pub(super) static CL100K_DATA: &[u8] = include_bytes!("data/cl100k_base.bpe");

/// The tokens of a `.bpe` blob, in rank order. The blobs are compiled in and checked by the
/// unit tests, so a malformed one is a build defect: it panics on first use.
pub(super) fn read_vocab(data: &'static [u8]) -> Vec<&'static [u8]> {
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

    /// tiktoken's `_byte_pair_merge` on stack arrays; returns the number of parts left.
    ///
    /// Parts are a linked list over their start bytes (`next[p]`, `prev[p]`), so nothing
    /// moves when two merge. `key[p]`, for a part starting at `p`, packs the rank of the bytes
    /// from `p` to the end of the part after it (what merging the two would make) above `p`
    /// itself: `rank << 8 | p`. The smallest key is then tiktoken's choice, the lowest rank and
    /// on ties the leftmost pair, found by one branch-free pass over a fixed-length array.
    /// Absorbed parts and the last part hold `NO_KEY`-or-more (no merge). Each round re-keys
    /// the merged part and the part before it, as tiktoken re-ranks them.
    /// `2 <= piece.len() <= MERGE_MAX`.
    // p, q, r, o: consecutive parts, as in the doc above.
    #[allow(clippy::many_single_char_names)]
    fn merge_count(&self, piece: &[u8]) -> usize {
        // NO_RANK << 8 | p stays above every real key (ranks are below 2^24).
        const NO_KEY: u32 = NO_RANK << 8;
        debug_assert!((2..=MERGE_MAX).contains(&piece.len()));
        let pack = |rank: u32, p: usize| (rank << 8) | p as u32;
        let n = piece.len();
        let mut key = [u32::MAX; MERGE_MAX];
        // Positions fit in a byte: MERGE_MAX < 256; `n` marks the end.
        let mut next = [0u8; MERGE_MAX];
        let mut prev = [0u8; MERGE_MAX];
        for i in 0..n - 1 {
            key[i] = pack(self.ranks.pair(piece[i], piece[i + 1]), i);
            next[i] = (i + 1) as u8;
            prev[i + 1] = i as u8;
        }
        next[n - 1] = n as u8;
        let mut parts = n;
        loop {
            // Past `n` the keys stay u32::MAX, so whole groups of eight can be scanned.
            let best = min_key(&key[..n.next_multiple_of(8)]);
            if best >= NO_KEY {
                return parts;
            }
            // Part `p` absorbs the part `q` after it; the merged part ends at `r`.
            let p = (best & 0xFF) as usize;
            let q = usize::from(next[p]);
            let r = usize::from(next[q]);
            key[q] = u32::MAX;
            next[p] = r as u8;
            key[p] = if r < n {
                prev[r] = p as u8;
                pack(self.ranks.get(&piece[p..usize::from(next[r])]), p)
            } else {
                u32::MAX
            };
            if p > 0 {
                let o = usize::from(prev[p]);
                key[o] = pack(self.ranks.get(&piece[o..r]), o);
            }
            parts -= 1;
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

/// The smallest key of `keys` (a multiple of eight long), eight lanes at a time.
#[allow(clippy::inline_always)]
#[inline(always)]
fn min_key_lanes(keys: &[u32]) -> u32 {
    let mut lanes = [u32::MAX; 8];
    for chunk in keys.chunks_exact(8) {
        for (lane, &k) in lanes.iter_mut().zip(chunk) {
            *lane = (*lane).min(k);
        }
    }
    lanes.iter().fold(u32::MAX, |m, &k| m.min(k))
}

/// [`min_key_lanes`] with AVX2: eight unsigned minimums per instruction (the baseline x86-64
/// target has no unsigned 32-bit vector minimum).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn min_key_avx2(keys: &[u32]) -> u32 {
    use std::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_min_epu32, _mm256_set1_epi32, _mm256_storeu_si256,
    };
    let mut acc = _mm256_set1_epi32(-1);
    for chunk in keys.chunks_exact(8) {
        // SAFETY: `chunk` is 8 u32s, 32 readable bytes; `loadu` needs no alignment.
        #[allow(clippy::cast_ptr_alignment)]
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) };
        acc = _mm256_min_epu32(acc, v);
    }
    let mut lanes = [0u32; 8];
    // SAFETY: `lanes` is 32 writable bytes; `storeu` needs no alignment.
    #[allow(clippy::cast_ptr_alignment)]
    unsafe {
        _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), acc);
    };
    lanes.iter().fold(u32::MAX, |m, &k| m.min(k))
}

/// The smallest key of `keys` (a multiple of eight long): the AVX2 build of the same code when
/// the CPU has it, else the portable one (identical results: a minimum is exact).
#[inline]
fn min_key(keys: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `min_key_avx2` only requires AVX2, which the CPU was just found to have.
        return unsafe { min_key_avx2(keys) };
    }
    min_key_lanes(keys)
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

    proptest::proptest! {
        /// The AVX2 minimum, the portable one and the standard library's agree.
        #[test]
        fn min_key_paths_agree(
            keys in proptest::collection::vec(
                proptest::prop_oneof![proptest::num::u32::ANY, 0..300u32, (u32::MAX - 3)..=u32::MAX],
                0..=16,
            ),
            groups in 1usize..=16,
        ) {
            let mut padded: Vec<u32> = keys.iter().copied().cycle().take(groups * 8).collect();
            if keys.is_empty() {
                padded = vec![u32::MAX; groups * 8];
            }
            let expected = padded.iter().copied().min().unwrap_or(u32::MAX);
            proptest::prop_assert_eq!(min_key_lanes(&padded), expected);
            proptest::prop_assert_eq!(min_key(&padded), expected);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked on the line above).
                proptest::prop_assert_eq!(unsafe { min_key_avx2(&padded) }, expected);
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
