//! Token counting: `o200k_base` and `cl100k_base` exactly as tiktoken's
//! `len(enc.encode_ordinary(text))`, and `approx` (`max(1, chars // 4)`).
//!
//! # Algorithm
//!
//! 1. Pretokenize with tiktoken's pattern for the encoding, hand-written in [`pretok`]: one
//!    pass over the bytes, a class byte per character (a 128-entry table for ASCII, a
//!    two-level table above, both built from `regex-syntax`'s Unicode tables), each piece the
//!    match tiktoken's backtracking regex finds; a space-then-ASCII-letters piece takes a
//!    two-loop fast path.
//! 2. Count each piece as tiktoken does: a piece that is a token is one token; otherwise
//!    tiktoken's `_byte_pair_merge` (lowest-rank adjacent pair first, leftmost on ties): a
//!    linked list of parts on the stack with packed `rank << 8 | start` keys for pieces up to
//!    128 bytes, the same merges through a heap above. Ranks come from a [`ranks::RankTable`]
//!    (byte pairs from a direct array; other strings from open addressing with the first 8
//!    bytes inline as a `u64` key). See [`bpe`].
//! 3. `approx`: `max(1, n // 4)` with `n` the number of code points (Python's `len`).
//!
//! The vocabularies are compiled into the extension (`src/tokens/data/*.bpe`, 2.3 MB, written
//! by `scripts/gen_vocab.py` from tiktoken's files): no network and no files at run time. Each
//! encoding is built once, on first use, thread-safely (`LazyLock`): 21 ms and +13 MB of RSS
//! for `o200k_base`, 10 ms and +7 MB for `cl100k_base` (first call in a fresh process).
//!
//! Complexity: linear in the text for the splitter; per piece of `p` bytes, one look-up if it
//! is a token, else O(p) look-ups plus O(p) per merge to find the lowest key (an 8-lane vector
//! minimum) for `p <= 128`, and O(p log p) above (tiktoken itself stays quadratic there).
//!
//! Invariants: `count(enc, t)` equals tiktoken 0.14's count for every valid Unicode string we
//! could find (zero mismatches on the 21,517-passage corpus; on every code point in 17
//! contexts; on all 3.26 million strings of 1 to 6 characters over a 12-character alphabet that
//! spans the pretokenizer's classes; on 100,000-character runs; under hypothesis). The
//! hand-written pretokenizer gives the same pieces as the `regex-automata` one it replaced
//! (kept as the oracle in `pretok`'s tests) on every code point in five contexts, on all 5.4
//! million strings of 1 to 5 characters over a 22-character alphabet, under proptest and on
//! the corpus. The character classes come from `regex-syntax`'s Unicode tables, pinned by
//! `Cargo.lock`: `tests/test_tokens.py::test_code_points_match_tiktoken` (all code points
//! under the `slow` profile) is the check to rerun when `regex-syntax` or tiktoken moves to a
//! new Unicode version. `count_limited(enc, t, limit)` equals `count(enc, t)` whenever that is
//! `<= limit`, and is in `limit + 1 ..= count` otherwise. Results never depend on the cache,
//! on threads or on the CPU's vector extensions.
//!
//! # Performance notes
//!
//! Issue 4 (at least quicktok's speed). Side by side in one process, 10,000 passages, cache
//! off, one thread, medians of 9 alternating rounds (ours, then a loop of quicktok 0.4.0's
//! `count`), process CPU time (wall time agreed within 1%), on the shared 2-core machine;
//! `first` is the corpus's first 10,000 passages (mostly English prose and code),
//! `workload` is `benches/workload.texts(10_000)` (all seven languages, 5% non-ASCII bytes).
//! Two runs of the final build (ratio = quicktok's time / ours):
//!
//! | 10k passages, CPU seconds | cl100k ours / quicktok | speed ratio | o200k ours / quicktok | speed ratio |
//! |---------------------------|-----------------------:|------------:|----------------------:|------------:|
//! | before, first (issue)     |          0.389 / 0.197 |       0.51x |         0.394 / 0.289 |       0.73x |
//! | now, first, run 1         |          0.195 / 0.224 |       1.15x |         0.207 / 0.286 |       1.38x |
//! | now, first, run 2         |          0.185 / 0.243 |       1.31x |         0.242 / 0.337 |       1.39x |
//! | now, workload, run 1      |          0.342 / 0.370 |       1.08x |         0.314 / 0.368 |       1.17x |
//! | now, workload, run 2      |          0.344 / 0.420 |       1.22x |         0.399 / 0.466 |       1.17x |
//!
//! Instruction counts (callgrind, the Rust probe `tokens::tests::bench_corpus` on 2,000
//! passages, both encodings, including ~40 M to build the tables): the corpus's first
//! passages 938 M (regex-automata, 63% of it the DFA) -> 537 M (hand-written pretokenizer)
//! -> 394 M (ASCII fast path for letters, rank table) -> 339 M (linked-list merge with the
//! vector minimum) -> 320 M (ASCII fast path for numbers, punctuation and whitespace); on the
//! workload, cl100k alone, 228 M -> 192 M for the merge change, both encodings 382 M -> 369 M
//! for the last fast path. The extension shrank from 5.17 MB to 3.84 MB (`regex-automata` is
//! now a dev-dependency; `regex-syntax` keeps only its category and Perl-class tables).
//!
//! - Pretokenizer: the lazy DFA path cost ~130 instructions per byte of text (about 600 M of
//!   the 938 M); the hand-written matcher ~30 (131 M). Forcing the per-character step
//!   (`Text::at`) inline removed 69 M of 537 M.
//! - Rank table: `FxHashMap<&[u8], u32>` hashed the slice, then compared through a fat
//!   pointer and `memcmp`; slots with the first 8 bytes as a `u64` key compare two integers
//!   (458 M -> 389 M). Load factor 0.76 instead of 0.38 (half the memory) was worse: 449 M ->
//!   521 M instructions and 2.6 M -> 3.9 M L1 data misses (probe runs).
//! - Merge: the quadratic scan is what costs on scripts that cl100k covers poorly (long
//!   pieces, many rounds). Tried: branch-free fold plus `position` over the shifting array
//!   (231 M -> 225 M, kept until replaced); an 8-lane fold in portable code (241 M: the
//!   baseline x86-64 target has no unsigned 32-bit vector minimum, so it stayed scalar and
//!   added a tail loop); the heap merge from 24 bytes up (451 M -> 449 M, allocations: not
//!   kept). Kept: packed keys over a linked list, one fixed-length pass, `vpminud` when AVX2
//!   is present (119 M -> 83 M for cl100k's merges on the workload).
//! - Memo of merged pieces (per thread, 8,192 entries, pieces up to 64 bytes): instructions
//!   -8% (cl100k workload, 228 M -> 211 M; half the merges hit) but CPU time went the wrong
//!   way in side-by-side runs (allocation and cache traffic), so it was dropped.
//! - Python boundary: the same 10k passages with `approx` (extraction, one call, code-point
//!   count) take 28 ms, 5-9% of a count: `PyBackedStr` copies under abi3-py39 (no
//!   `PyUnicode_AsUTF8AndSize` before 3.10); left as is.
//! - Not profiled: quicktok itself (its extension leaves callgrind with an empty profile), so
//!   the comparison with it is by time only.
//!
//! Earlier notes (before issue 4; the pretokenizer was then `regex-automata`): throughput on a
//! quarter of the corpus (5,380 passages, 1.41 M `o200k_base` / 1.48 M `cl100k_base` tokens),
//! one thread, release build, process CPU time, best of 7 rounds interleaved; two runs, so
//! each cell is a range:
//!
//! | counter                                         | o200k Mtok/s | cl100k Mtok/s | exact  |
//! |-------------------------------------------------|-------------:|--------------:|--------|
//! | tiktoken 0.14, loop of `encode_ordinary`        |    1.77-1.87 |     1.35-2.32 | oracle |
//! | tiktoken 0.14, `encode_ordinary_batch`, 1 thread|    1.05-1.13 |     0.85-1.27 | oracle |
//! | `tiktoken-rs` 0.12 `encode_ordinary`            |    2.23-2.30 |     1.70-2.60 | yes    |
//! | `bpe-openai` 0.3.2 `Tokenizer::count`           |    2.98-3.18 |     3.74-5.26 | yes    |
//! | this module then (including the Python call)    |    4.40-4.81 |     5.42-6.99 | yes    |
//!
//! - Crate choice. Both `tiktoken-rs` and `bpe-openai` were exact on every check above.
//!   `tiktoken-rs` splits with `fancy-regex`, a backtracking VM: 1.6-2.3 s for the corpus split
//!   alone, against 0.45 s for `regex-automata`'s DFA with the look-ahead rewrite. `bpe-openai`
//!   was the first choice (fast splitter, vocabularies embedded), but it embeds them as
//!   serialized Aho-Corasick automata: a 49.7 MB extension, 0.15 s and +72 MB of RAM to load
//!   `o200k_base` (+32 MB `cl100k_base`). Its `count` runs the backtracking encoder on every
//!   piece, allocating a token vector and a bitfield each time, although about 1.15 tokens per
//!   piece on real text means most pieces are a single token. So this module stores the
//!   vocabularies as plain rank-ordered bytes and counts with tiktoken's own merge.
//! - `bpe`'s `count_till_limit` adds a heuristic 10-token buffer ("TODO: determine exactly how
//!   large this buffer must be") and may answer `None` for a text within the limit;
//!   [`count_limited`] stops between pieces instead, which is exact (10k passages with limit
//!   100: 26 µs each against 64 µs for the full count, then).
//! - rayon across texts: for 10k passages, 1 thread median 1.05 s vs 2 threads 1.21 s (24 runs
//!   each, same machine): no measurable win with the other tenants on the two cores, so calls
//!   stay single-threaded; callers parallelise across requests (the GIL is released; 8 Python
//!   threads are tested).
//! - Cache: a hit costs 2.6 µs per 1.1 kB passage end to end (1.0 µs of it is the Python call
//!   and UTF-8 extraction, as for `approx`; the rest BLAKE3 plus a shard lock), against 64 µs
//!   to count the passage then: 25x. BLAKE3 rather than xxh3 so nobody can craft a text whose
//!   key collides with another's count.
//! - Segments (`segments.rs`): both pretokenizers must cut after a newline and before a
//!   character that is neither whitespace nor `/`, so counts add up there. With `segments`,
//!   a text whose whole key misses is counted group by group, long groups through the cache.
//!   The pipeline counts each source block while packing (widest label), then the blocks again
//!   under their final labels, the sources block and the user message: with segments those
//!   recounts cost hashing. `assemble`, 200 corpus candidates, cold cache, process CPU time,
//!   median of 9 on the loaded 2-core machine: 18.1 ms before, 8.0 ms after. Plain counting
//!   skips the groups: with segments on every text, a cold 10k-passage batch cost ~10% more
//!   (group look-ups and inserts), for nothing when texts share no lines.
//! - Whole key first (issue 17). The text's key was once derived from its groups' keys, so a
//!   hit hashed every ~256-byte group separately (one BLAKE3 chunk each, one SIMD lane, a
//!   finalisation per group): a warm count of a 50 kB user message took ~98 µs. Keyed whole,
//!   BLAKE3 hashes 16 of its 1 KiB chunks at a time (AVX-512; the crate's default run-time
//!   dispatch picks AVX2 or SSE4.1 elsewhere): 18 µs including the call, against 120 µs for a
//!   miss whose groups are all known (the whole hash, then the groups'). BLAKE3's `rayon`
//!   feature (`update_rayon`) is left off: a 50 kB hash takes a few µs, less than waking a
//!   pool, and callers already run requests on their own threads.

pub mod bpe;
pub mod cache;
pub mod file;
pub mod pretok;
#[cfg(feature = "python")]
pub mod py;
pub mod ranks;
pub mod segments;

use std::sync::LazyLock;

use cache::TokenCache;

/// The encodings the core counts itself (callables are the Python layer's business).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    O200kBase,
    Cl100kBase,
    Approx,
}

impl Encoding {
    /// The encoding called `name`, if it is one of `o200k_base`, `cl100k_base`, `approx`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "o200k_base" => Some(Self::O200kBase),
            "cl100k_base" => Some(Self::Cl100kBase),
            "approx" => Some(Self::Approx),
            _ => None,
        }
    }

    fn bpe(self) -> Option<&'static bpe::Bpe> {
        match self {
            Self::O200kBase => Some(bpe::o200k_base()),
            Self::Cl100kBase => Some(bpe::cl100k_base()),
            Self::Approx => None,
        }
    }

    /// The byte that separates this encoding's cache keys from the others'.
    fn tag(self) -> u8 {
        match self {
            Self::O200kBase => 1,
            Self::Cl100kBase => 2,
            Self::Approx => 3,
        }
    }
}

/// `max(1, n // 4)` where `n` is the number of code points of `text`.
pub fn approx(text: &str) -> usize {
    (text.chars().count() / 4).max(1)
}

/// The number of tokens of `text` in `encoding` (no cache).
pub fn count(encoding: Encoding, text: &str) -> usize {
    match encoding.bpe() {
        Some(bpe) => bpe.count(text),
        None => approx(text),
    }
}

/// The exact count of `text` if it is `<= limit`, else some number `> limit` (no cache).
pub fn count_limited(encoding: Encoding, text: &str, limit: usize) -> usize {
    match encoding.bpe() {
        Some(bpe) => bpe.count_limited(text, limit),
        None => approx(text),
    }
}

/// The process-wide cache of counts used by the batch functions.
pub static CACHE: LazyLock<TokenCache> = LazyLock::new(|| TokenCache::new(cache::DEFAULT_CAPACITY));

/// [`count`] through `cache` (`approx` bypasses it: counting code points is as cheap as
/// hashing them).
///
/// A text's key is always [`cache::key`] of the whole text, so a hit costs one hashing pass
/// whether or not `segments` is set. With `segments`, a text not cached whole is counted
/// [`segments::groups`] at a time, each long group through the cache too, so a text that
/// contains known groups (a source block rendered again with another label, the whole prompt
/// after its blocks) costs hashing for them, not tokenisation. Without it, a miss counts the
/// text at once (cheaper when nothing is shared: no group look-ups and inserts).
pub fn count_cached(encoding: Encoding, text: &str, cache: &TokenCache, segments: bool) -> usize {
    if encoding == Encoding::Approx || !cache.enabled() {
        return count(encoding, text);
    }
    let whole = cache::key(encoding.tag(), text);
    if let Some(n) = cache.get(whole) {
        return n as usize;
    }
    let n = count_missed(encoding, text, usize::MAX, cache, segments);
    cache.insert(whole, n);
    n
}

/// [`count_limited`] through `cache`: a cached exact count answers; a computed count is cached
/// only when it is exact (`<= limit`). Hits and misses are not counted here.
pub fn count_limited_cached(
    encoding: Encoding,
    text: &str,
    limit: usize,
    cache: &TokenCache,
    segments: bool,
) -> usize {
    if encoding == Encoding::Approx || !cache.enabled() {
        return count_limited(encoding, text, limit);
    }
    let whole = cache::key(encoding.tag(), text);
    if let Some(n) = cache.peek(whole) {
        return n as usize;
    }
    let n = count_missed(encoding, text, limit, cache, segments);
    if n <= limit {
        cache.insert(whole, n);
    }
    n
}

/// The count of a text whose whole key missed: with `segments`, the sum over its groups (long
/// ones through `cache`), else the text at once. Stops once the sum passes `limit` (then it is
/// `> limit`, and at most the count). A text of one group is counted directly: its group's key
/// is the whole text's, which just missed.
fn count_missed(
    encoding: Encoding,
    text: &str,
    limit: usize,
    cache: &TokenCache,
    segments: bool,
) -> usize {
    if !segments {
        return count_limited(encoding, text, limit);
    }
    let mut groups = segments::groups(text).peekable();
    if groups.peek().is_none_or(|g| g.len() == text.len()) {
        return count_limited(encoding, text, limit);
    }
    let tag = encoding.tag();
    let mut total = 0usize;
    for group in groups {
        let left = limit.saturating_sub(total);
        if group.len() < segments::MIN_CACHED {
            total += count_limited(encoding, group, left);
        } else {
            let key = cache::key(tag, group);
            if let Some(n) = cache.peek(key) {
                total += n as usize;
            } else {
                let n = count_limited(encoding, group, left);
                if n <= left {
                    cache.insert(key, n);
                }
                total += n;
            }
        }
        if total > limit {
            break;
        }
    }
    total
}

/// Count every text (through `cache` when given), in input order, on the calling thread.
pub fn count_batch<S: AsRef<str>>(
    encoding: Encoding,
    texts: &[S],
    cache: Option<&TokenCache>,
    segments: bool,
) -> Vec<usize> {
    texts
        .iter()
        .map(|t| match cache {
            Some(c) => count_cached(encoding, t.as_ref(), c, segments),
            None => count(encoding, t.as_ref()),
        })
        .collect()
}

/// [`count_limited`] for every `(text, limit)` pair (through `cache` when given).
pub fn count_limited_batch<S: AsRef<str>>(
    encoding: Encoding,
    texts: &[S],
    limits: &[usize],
    cache: Option<&TokenCache>,
    segments: bool,
) -> Vec<usize> {
    texts
        .iter()
        .zip(limits)
        .map(|(t, &limit)| match cache {
            Some(c) => count_limited_cached(encoding, t.as_ref(), limit, c, segments),
            None => count_limited(encoding, t.as_ref(), limit),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, `o200k_base`, `cl100k_base`), counted once with tiktoken 0.14 `encode_ordinary`.
    const KNOWN: &[(&str, usize, usize)] = &[
        ("", 0, 0),
        ("hello world", 2, 2),
        ("Hello, World!", 4, 4),
        ("  leading and trailing  ", 5, 5),
        ("line one\r\nline two\n\n\nthree", 7, 7),
        ("1234567890", 4, 4),
        ("I'll've it's THEY'RE", 6, 7),
        ("naïve café résumé", 5, 7),
        ("日本語のテキストです。", 8, 10),
        ("Привет, мир!", 5, 7),
        ("مرحبا بالعالم", 4, 10),
        ("👨\u{200d}👩\u{200d}👧 family 🇫🇷", 13, 20),
        ("def f(x):\n    return x ** 2  # square\n", 14, 14),
        ("a\u{0}b", 3, 3),
        ("\t\t\tx", 2, 2),
        ("supercalifragilisticexpialidocious", 10, 11),
        ("https://example.com/path?q=1&r=2", 11, 11),
    ];

    #[test]
    fn known_counts() {
        for &(text, o200k, cl100k) in KNOWN {
            assert_eq!(count(Encoding::O200kBase, text), o200k, "o200k {text:?}");
            assert_eq!(count(Encoding::Cl100kBase, text), cl100k, "cl100k {text:?}");
        }
        // A 300-byte piece takes the backtracking path, 1000 spaces one whitespace piece.
        let xs = "x".repeat(300);
        let spaces = " ".repeat(1000);
        assert_eq!(count(Encoding::O200kBase, &xs), 38);
        assert_eq!(count(Encoding::Cl100kBase, &xs), 38);
        assert_eq!(count(Encoding::O200kBase, &spaces), 9);
        assert_eq!(count(Encoding::Cl100kBase, &spaces), 9);
    }

    #[test]
    fn approx_counts_code_points() {
        assert_eq!(approx(""), 1);
        assert_eq!(approx("abc"), 1);
        assert_eq!(approx("abcdefgh"), 2);
        assert_eq!(approx("日本語のテキストです"), 2); // 10 code points, 30 bytes
        assert_eq!(count(Encoding::Approx, "👍👍👍👍"), 1);
    }

    #[test]
    fn limited_is_exact_up_to_the_limit() {
        let text = "The quick brown fox jumps over the lazy dog. ".repeat(20);
        for enc in [Encoding::O200kBase, Encoding::Cl100kBase, Encoding::Approx] {
            let full = count(enc, &text);
            for limit in [0, 1, 5, full - 1, full, full + 1, usize::MAX] {
                let got = count_limited(enc, &text, limit);
                if full <= limit {
                    assert_eq!(got, full);
                } else {
                    assert!(got > limit, "{enc:?} limit {limit}: {got}");
                }
            }
        }
        assert_eq!(count_limited(Encoding::O200kBase, "", 0), 0);
    }

    #[test]
    fn cache_gives_the_same_counts() {
        let cache = TokenCache::new(8);
        let texts: Vec<String> = (0..50).map(|i| format!("text number {i} ")).collect();
        for enc in [Encoding::O200kBase, Encoding::Cl100kBase, Encoding::Approx] {
            for segments in [false, true] {
                let plain = count_batch(enc, &texts, None, segments);
                assert_eq!(count_batch(enc, &texts, Some(&cache), segments), plain);
                assert_eq!(count_batch(enc, &texts, Some(&cache), segments), plain);
                let limits = vec![3; texts.len()];
                let limited = count_limited_batch(enc, &texts, &limits, Some(&cache), segments);
                for (l, p) in limited.iter().zip(&plain) {
                    assert!(if *p <= 3 { l == p } else { *l > 3 });
                }
            }
        }
        assert!(cache.info().size <= 8);
    }

    #[test]
    fn a_text_is_keyed_whole_and_its_long_groups_too() {
        let body = "A line of documentation text that goes on for a while.\n".repeat(12);
        let text = format!("<source id=\"1\">\n{body}</source>");
        let groups: Vec<&str> = segments::groups(&text).collect();
        assert!(groups.len() > 2);
        let tag = Encoding::O200kBase.tag();
        for segments in [false, true] {
            let cache = TokenCache::new(64);
            let n = count_cached(Encoding::O200kBase, &text, &cache, segments);
            assert_eq!(n, count(Encoding::O200kBase, &text));
            // One key per text, with or without segments: a hit is one hash of the text.
            assert_eq!(cache.peek(cache::key(tag, &text)), Some(n as u32));
            for g in &groups {
                let cached = cache.peek(cache::key(tag, g));
                if segments && g.len() >= segments::MIN_CACHED {
                    assert_eq!(cached, Some(count(Encoding::O200kBase, g) as u32), "{g:?}");
                } else {
                    assert_eq!(cached, None, "{g:?}");
                }
            }
            assert_eq!(
                count_cached(Encoding::O200kBase, &text, &cache, !segments),
                n
            );
            assert_eq!((cache.info().hits, cache.info().misses), (1, 1));
        }
        // Under another label the known groups are looked up, not counted, with the same sum.
        let cache = TokenCache::new(64);
        count_cached(Encoding::O200kBase, &text, &cache, true);
        let relabelled = text.replacen("id=\"1\"", "id=\"22\"", 1);
        let limit = count(Encoding::O200kBase, &relabelled);
        for l in [0, 5, limit - 1, limit, usize::MAX] {
            let got = count_limited_cached(Encoding::O200kBase, &relabelled, l, &cache, true);
            assert!(
                if limit <= l { got == limit } else { got > l },
                "{l}: {got}"
            );
        }
    }

    /// Throughput probe, not a check: `BRIEFPACK_BENCH_TEXTS=FILE cargo test --release --lib
    /// tokens::tests::bench_corpus -- --ignored --nocapture`, where FILE holds texts as a
    /// little-endian `u32` byte length followed by the UTF-8 bytes. `BRIEFPACK_BENCH_N` (10,000)
    /// texts, `BRIEFPACK_BENCH_REPEAT` (5) rounds, both encodings (or `BRIEFPACK_BENCH_ENCODING`);
    /// prints the median round.
    #[test]
    #[ignore = "a benchmark: needs BRIEFPACK_BENCH_TEXTS"]
    fn bench_corpus() {
        let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<usize>().ok());
        let Ok(path) = std::env::var("BRIEFPACK_BENCH_TEXTS") else {
            return;
        };
        let n = env("BRIEFPACK_BENCH_N").unwrap_or(10_000);
        let repeat = env("BRIEFPACK_BENCH_REPEAT").unwrap_or(5);
        let data = std::fs::read(path).expect("readable texts file");
        let mut texts = Vec::new();
        let mut rest = &data[..];
        while rest.len() >= 4 && texts.len() < n {
            let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
            texts.push(std::str::from_utf8(&rest[4..4 + len]).expect("UTF-8"));
            rest = &rest[4 + len..];
        }
        let only = std::env::var("BRIEFPACK_BENCH_ENCODING").ok();
        for enc in [Encoding::Cl100kBase, Encoding::O200kBase] {
            if only
                .as_deref()
                .is_some_and(|name| Encoding::from_name(name) != Some(enc))
            {
                continue;
            }
            count(enc, "warm up");
            let mut times = Vec::new();
            let mut total = 0;
            for _ in 0..repeat {
                let start = std::time::Instant::now();
                total = texts.iter().map(|t| count(enc, t)).sum::<usize>();
                times.push(start.elapsed().as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            eprintln!(
                "{enc:?}: {} texts, {total} tokens, median {:.4} s",
                texts.len(),
                times[times.len() / 2]
            );
        }
    }

    #[test]
    fn names() {
        assert_eq!(Encoding::from_name("o200k_base"), Some(Encoding::O200kBase));
        assert_eq!(
            Encoding::from_name("cl100k_base"),
            Some(Encoding::Cl100kBase)
        );
        assert_eq!(Encoding::from_name("approx"), Some(Encoding::Approx));
        assert_eq!(Encoding::from_name("gpt2"), None);
    }
}
