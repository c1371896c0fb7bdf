//! Token counting: `o200k_base` and `cl100k_base` exactly as tiktoken's
//! `len(enc.encode_ordinary(text))`, and `approx` (`max(1, n // 4)` with `n` the number of code
//! points, Python's `len`).
//!
//! A text is pretokenized with tiktoken's pattern for the encoding, hand-written in [`pretok`]
//! (one pass over the bytes, a class byte per character); a piece that is a token counts one,
//! any other is merged as tiktoken's `_byte_pair_merge` does (lowest-rank adjacent pair first,
//! leftmost on ties) with ranks from a [`ranks::RankTable`]; see [`bpe`]. The vocabularies are
//! compiled in (`data/*.bpe`, written by `scripts/gen_vocab.py` from tiktoken's files; [`file`]
//! writes them back in tiktoken's format) and each is built once per process, on first use.
//! The batch functions count through the process-wide [`CACHE`] ([`cache`]); with `segments`, a
//! text whose whole key misses is counted by [`segments::groups`], long groups through the cache.
//!
//! Invariants: `count(enc, t)` equals tiktoken 0.14's count on every valid string tested (the
//! corpus, every code point in many contexts, every short string over an alphabet spanning the
//! pretokenizer's classes, long runs, hypothesis); when `regex-syntax` or tiktoken moves to a
//! new Unicode version, rerun `test_code_points_match_tiktoken` (`tests/test_tokens.py`) under
//! the `slow` profile. `count_limited(enc, t, limit)` equals `count(enc, t)` when that is
//! `<= limit`, else lies in `limit + 1 ..= count`. Results never depend on the cache, on
//! threads or on the CPU's vector extensions.
//!
//! Complexity: linear in the text for the splitter; per piece of `p` bytes, one look-up if it is
//! a token, else O(p) per merge for `p <= 128` (stack arrays, a vector minimum) and O(p log p)
//! above (a heap; tiktoken stays quadratic there). Measurements and the history of these
//! choices: `docs/performance.md`, "Token counting".

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
