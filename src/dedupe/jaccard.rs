//! Jaccard near duplicates over word sets, exact and fast.
//!
//! Semantics (the reference's): items are walked in rank order; an item with a non-empty word
//! set is a duplicate of the earliest-ranked kept item `k` with `inter / union >= threshold`
//! (one f64 division of two exact integers, as in the reference, so similarities are
//! bit-identical). An empty set is never a duplicate and never the item one duplicates.
//!
//! Algorithm: each distinct text is tokenized once (a copy of an earlier text gets that
//! text's answer); every distinct word is interned to a `u32` (`intern`); words are renumbered
//! rarest first (document frequency over the distinct texts) and every set sorted in that
//! order. Then `prefix_filtered` answers an item whose word set equals an earlier one's
//! directly, and otherwise (`AllPairs`/`PPJoin`-style prefix, length and positional filters
//! over an inverted index of the kept items' prefixes) finds its candidates and verifies them
//! in rank order, so the first that meets the threshold is the earliest kept one. Threshold 0
//! (every non-empty pair qualifies) is a linear special case.
//!
//! Invariants: first copy wins; `duplicate_of[i] < i` and is kept; decisions and similarities
//! equal the reference's O(n * kept) loop exactly (`naive` below is that loop; a proptest
//! checks the two agree, the Python parity tests check against the reference itself). Every
//! bound used to skip a pair is a safe (never too strong) bound on the exact f64 test, and a
//! pair is only accepted by the exact division.
//!
//! Complexity: O(total words) to build and sort the sets; probing is output-sensitive, about
//! the sum over items of the kept postings of their prefix words (quadratic in the worst case,
//! e.g. thousands of texts that share their rarest words but are not similar).
//!
//! Measurements and the history of these choices: `docs/performance.md`, "Jaccard".

use super::guard::{Accept, Guard, NoGuard, Saved, WordSeqs};
use super::intern::Interner;
use super::{Dedupe, TooLarge};
use crate::text::{for_each_word, mix64};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::hash::BuildHasher;

/// Word sets of a batch as CSR: set `i` is `ids[offsets[r]..offsets[r + 1]]` with
/// `r = first[i]`, sorted, unique. A text identical to an earlier one is not tokenized again:
/// `first[i]` is the first item with that text (`i` itself for a first occurrence), and the
/// copy's own range is empty.
pub(crate) struct WordSets {
    pub(crate) offsets: Vec<usize>,
    pub(crate) ids: Vec<u32>,
    pub(crate) first: Vec<u32>,
    /// Per set: an order-free hash of its words (equal sets, equal hashes), however the ids
    /// are later renumbered.
    pub(crate) hashes: Vec<u64>,
    /// The number of distinct words: ids are below it.
    pub(crate) vocab: usize,
}

impl WordSets {
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &[u32] {
        let r = self.first[i] as usize;
        &self.ids[self.offsets[r]..self.offsets[r + 1]]
    }

    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// About how many distinct words `bytes` of text hold: vocabularies grow sublinearly (Heaps'
/// law); on `benches/workload.py` batches, 5.1k distinct words in 217 KB (200 texts) and 13.4k
/// in 1.1 MB (1,000 texts), about `3.2 * bytes^0.6`. The interner and the per-word columns are
/// sized from it: an estimate too low costs a rehash, one too high a table that no longer
/// fits in the cache (sized at one word per 32 bytes, the 1,000-text table was 2 MB at 7% load
/// and a third of the kernel's time went to cache misses in it). Never changes a result.
#[allow(clippy::cast_sign_loss, reason = "a positive estimate")]
fn distinct_words(bytes: usize) -> usize {
    ((bytes as f64).powf(0.6) * 3.2) as usize
}

/// A hash of a text's length and its first, middle and last 32 bytes (all of it below 96
/// bytes). Identical texts get equal keys; a match is confirmed by comparing the texts, so
/// different texts with equal keys cost a comparison and are told apart by it. Hashing every
/// byte was ~4% of a 1,000-text call.
#[inline]
fn text_key(hasher: &foldhash::fast::RandomState, b: &[u8]) -> u64 {
    const W: usize = 32;
    let n = b.len();
    if n <= 3 * W {
        return hasher.hash_one(b);
    }
    let mid = n / 2 - W / 2;
    hasher.hash_one((n, &b[..W], &b[mid..mid + W], &b[n - W..]))
}

/// Intern every word of `texts` (ids in order of first appearance) and build the sets, each
/// unique but in no particular order (see `sort_sets`).
pub(crate) fn word_sets<S: AsRef<str>>(texts: &[S]) -> Result<WordSets, TooLarge> {
    word_sets_with::<S, false>(texts).map(|(sets, _)| sets)
}

/// `word_sets`, and with `SEQ` also every text's word ids in order, repeats kept (the
/// guard's step 0; `None` without `SEQ`, whose loop does no extra work).
pub(crate) fn word_sets_with<S: AsRef<str>, const SEQ: bool>(
    texts: &[S],
) -> Result<(WordSets, Option<WordSeqs>), TooLarge> {
    let bytes: usize = texts.iter().map(|t| t.as_ref().len()).sum();
    let words = distinct_words(bytes);
    let mut vocab = Interner::with_capacity(words);
    // Per word id: the last text that had it, to drop repeats without sorting.
    let mut last: Vec<u32> = Vec::with_capacity(words);
    let mut offsets = Vec::with_capacity(texts.len() + 1);
    let mut ids: Vec<u32> = Vec::with_capacity((bytes / 12).min(1 << 24));
    let mut hashes = Vec::with_capacity(texts.len());
    let mut first = Vec::with_capacity(texts.len());
    let mut seq = WordSeqs::default();
    if SEQ {
        seq.offsets.reserve(texts.len() + 1);
        seq.offsets.push(0);
        seq.ids.reserve((bytes / 6).min(1 << 24));
    }
    // Identical texts (by a hash of their bytes, confirmed by comparison): tokenized once.
    let text_hasher = foldhash::fast::RandomState::default();
    let mut first_text: FxHashMap<u64, u32> = FxHashMap::default();
    first_text.reserve(texts.len());
    offsets.push(0);
    let mut overflow = false;
    for (i, text) in texts.iter().enumerate() {
        let i = i as u32; // the caller checked that the batch fits in u32
        let text = text.as_ref();
        match first_text.entry(text_key(&text_hasher, text.as_bytes())) {
            Entry::Occupied(e) => {
                let f = *e.get();
                if texts[f as usize].as_ref() == text {
                    first.push(f);
                    offsets.push(ids.len());
                    hashes.push(hashes[f as usize]);
                    if SEQ {
                        seq.offsets.push(seq.ids.len());
                    }
                    continue;
                }
            }
            Entry::Vacant(e) => {
                e.insert(i);
            }
        }
        first.push(i);
        let start = ids.len();
        for_each_word(text, |w| {
            let Some(id) = vocab.intern(w) else {
                overflow = true;
                return;
            };
            if id as usize == last.len() {
                last.push(u32::MAX);
            }
            if SEQ {
                seq.ids.push(id);
            }
            // Whether the word is new to this set decides without a branch: about half the
            // words of a text repeat, so a branch here is mispredicted as often as not.
            let seen = &mut last[id as usize];
            let fresh = *seen != i;
            *seen = i;
            ids.push(id);
            ids.truncate(ids.len() - usize::from(!fresh));
        });
        if overflow {
            return Err(TooLarge);
        }
        // The order-free hash over the finished set: one mix per distinct word, in a loop
        // without dependencies between words (mixing each word as it came, repeats masked
        // out, was ~3% of a 1,000-text call).
        let hash = ids[start..]
            .iter()
            .fold(0u64, |h, &id| h.wrapping_add(mix64(u64::from(id))));
        offsets.push(ids.len());
        hashes.push(hash);
        if SEQ {
            seq.offsets.push(seq.ids.len());
        }
    }
    let seqs = SEQ.then(|| WordSeqs {
        first: first.clone(),
        ..seq
    });
    Ok((
        WordSets {
            offsets,
            ids,
            first,
            hashes,
            vocab: vocab.len(),
        },
        seqs,
    ))
}

/// Sort every set by id (merges and prefixes need sorted sets).
pub(crate) fn sort_sets(sets: &mut WordSets) {
    for i in 0..sets.len() {
        sets.ids[sets.offsets[i]..sets.offsets[i + 1]].sort_unstable();
    }
}

/// `|a ∩ b|` of two sorted, unique id slices.
#[inline]
pub(crate) fn intersection(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut inter) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                inter += 1;
                i += 1;
                j += 1;
            }
        }
    }
    inter
}

/// `|a ∩ b| / |a ∪ b|` as the reference computes it: one f64 division of exact integers.
#[inline]
pub(crate) fn similarity(inter: usize, la: usize, lb: usize) -> f64 {
    inter as f64 / (la + lb - inter) as f64
}

/// Mark every item whose word-set Jaccard similarity to a kept item is `>= threshold`.
///
/// # Errors
/// `TooLarge` when the batch has more than `u32::MAX - 1` items or distinct words.
pub fn jaccard<S: AsRef<str>>(texts: &[S], threshold: f64) -> Result<Dedupe, TooLarge> {
    jaccard_with(texts, threshold, &mut NoGuard)
}

/// [`jaccard`] with the difference guard (`guard.rs`): a pair over the threshold that the
/// guard keeps is no duplicate, and the walk goes on to the next kept item.
///
/// # Errors
/// `TooLarge` as for [`jaccard`].
pub fn jaccard_guarded<S: AsRef<str>>(
    texts: &[S],
    threshold: f64,
) -> Result<(Dedupe, Saved), TooLarge> {
    let mut guard = Guard::new(texts);
    let d = jaccard_with(texts, threshold, &mut guard)?;
    Ok((d, guard.saved_columns(texts.len())))
}

fn jaccard_with<S: AsRef<str>, A: Accept>(
    texts: &[S],
    threshold: f64,
    acc: &mut A,
) -> Result<Dedupe, TooLarge> {
    if texts.len() >= u32::MAX as usize {
        return Err(TooLarge);
    }
    let mut sets = if A::ACTIVE {
        // The guard's step 0 compares these sequences instead of splitting texts again.
        let (built, seqs) = word_sets_with::<S, true>(texts)?;
        if let Some(seqs) = seqs {
            acc.set_words(seqs);
        }
        built
    } else {
        word_sets(texts)?
    };
    if threshold <= 0.0 {
        sort_sets(&mut sets);
        if A::ACTIVE {
            return Ok(walk_all(&sets, threshold, acc));
        }
        return Ok(threshold_zero(&sets));
    }
    let unique = rank_rare_first(&mut sets);
    Ok(prefix_filtered::<false, A>(
        &sets,
        threshold,
        unique,
        &mut Stats::default(),
        acc,
    ))
}

/// `jaccard` with the counters of the probing work (for the timing test and unit tests).
#[cfg(test)]
pub(crate) fn jaccard_stats<S: AsRef<str>>(texts: &[S], threshold: f64) -> (Dedupe, Stats) {
    let mut sets = word_sets(texts).expect("a test batch fits");
    let mut stats = Stats::default();
    if threshold <= 0.0 {
        sort_sets(&mut sets);
        return (threshold_zero(&sets), stats);
    }
    let unique = rank_rare_first(&mut sets);
    let d = prefix_filtered::<true, NoGuard>(&sets, threshold, unique, &mut stats, &mut NoGuard);
    (d, stats)
}

/// Threshold 0: every pair of non-empty sets qualifies, so every non-empty item after the
/// first non-empty one duplicates that first one. O(total words).
fn threshold_zero(sets: &WordSets) -> Dedupe {
    let mut out = Dedupe::new(sets.len());
    let mut first: Option<usize> = None;
    for i in 0..sets.len() {
        let a = sets.get(i);
        if a.is_empty() {
            continue;
        }
        match first {
            None => first = Some(i),
            Some(k) => {
                let b = sets.get(k);
                out.duplicate_of[i] = Some(k);
                out.similarity[i] = Some(similarity(intersection(a, b), a.len(), b.len()));
            }
        }
    }
    out
}

/// The reference's loop with a guard: each non-empty item against every kept one in rank
/// order, the first that meets the threshold and that the guard lets go is the one it
/// duplicates. O(n * kept) similarity tests: for threshold 0 with the guard on.
fn walk_all<A: Accept>(sets: &WordSets, threshold: f64, acc: &mut A) -> Dedupe {
    let n = sets.len();
    let mut out = Dedupe::new(n);
    let mut kept: Vec<usize> = Vec::new();
    for i in 0..n {
        let a = sets.get(i);
        if !a.is_empty() {
            for &k in &kept {
                let b = sets.get(k);
                if b.is_empty() {
                    continue;
                }
                let j = similarity(intersection(a, b), a.len(), b.len());
                if j >= threshold && acc.accept(i, k, j) {
                    out.duplicate_of[i] = Some(k);
                    out.similarity[i] = Some(j);
                    break;
                }
            }
        }
        if out.duplicate_of[i].is_none() {
            kept.push(i);
        }
    }
    out
}

/// Renumber word ids by document frequency, rarest first (ties: first appearance), and sort
/// every set in that order, so a set's prefix holds its rarest words.
///
/// The ranks are a counting sort by document frequency (which is at most the batch size),
/// ids ascending within one frequency. Sorting the sets is a transpose and back (counting
/// sort): list the items of each word in rank order, then walk the words in rank order
/// appending each to its items' sets, which come out sorted. O(total words + vocabulary +
/// items).
///
/// Returns how many words occur in one set only: they take the ranks `0..unique`.
fn rank_rare_first(sets: &mut WordSets) -> u32 {
    let vocab = sets.vocab;
    let mut df = vec![0u32; vocab];
    for &id in &sets.ids {
        df[id as usize] += 1;
    }
    // first_rank[d]: the first rank of the words with document frequency d.
    let mut first_rank = vec![0u32; sets.len() + 2];
    for &d in &df {
        first_rank[d as usize + 1] += 1;
    }
    for d in 1..first_rank.len() {
        first_rank[d] += first_rank[d - 1];
    }
    let mut rank = vec![0u32; vocab];
    let mut order = vec![0u32; vocab];
    for (id, &d) in df.iter().enumerate() {
        let r = &mut first_rank[d as usize];
        rank[id] = *r;
        order[*r as usize] = id as u32;
        *r += 1;
    }
    // start[r]: where the items of the word of rank r begin in `items`.
    let mut start = vec![0usize; vocab + 1];
    for (r, &id) in order.iter().enumerate() {
        start[r + 1] = start[r] + df[id as usize] as usize;
    }
    let mut cursor = start.clone();
    let mut items = vec![0u32; sets.ids.len()];
    for i in 0..sets.len() {
        for &id in &sets.ids[sets.offsets[i]..sets.offsets[i + 1]] {
            let r = rank[id as usize] as usize;
            items[cursor[r]] = i as u32;
            cursor[r] += 1;
        }
    }
    let mut fill = sets.offsets.clone();
    for r in 0..vocab {
        for &i in &items[start[r]..start[r + 1]] {
            sets.ids[fill[i as usize]] = r as u32;
            fill[i as usize] += 1;
        }
    }
    df.iter().filter(|&&d| d == 1).count() as u32
}

/// `x.ceil()` as usize for `x >= 0` (a start guess only: callers correct it with exact checks),
/// without a call to libm's `ceil` (x86-64 before SSE4.1 has no rounding instruction).
#[inline]
#[allow(clippy::cast_sign_loss, reason = "callers pass x >= 0")]
fn ceil_usize(x: f64) -> usize {
    let c = x as usize;
    if (c as f64) < x {
        c + 1
    } else {
        c
    }
}

/// For each set size `n` (index), the least overlap a qualifying pair can have with a set of
/// that size: the smallest `o >= 1` with `fl(o / n) >= t`. Since the union is at least `n` and
/// rounding is monotone, `fl(inter / union) >= t` implies `fl(inter / n) >= t`, so
/// `inter >= min_overlap[n]` for both sets of any qualifying pair. `0 < t <= 1`.
fn min_overlaps(max_len: usize, t: f64) -> Vec<usize> {
    let mut out = vec![0; max_len + 1];
    for (n, slot) in out.iter_mut().enumerate().skip(1) {
        let ratio = |o: usize| o as f64 / n as f64;
        let mut o = ceil_usize(t * n as f64).clamp(1, n);
        while o > 1 && ratio(o - 1) >= t {
            o -= 1;
        }
        while o < n && ratio(o) < t {
            o += 1;
        }
        *slot = o;
    }
    out
}

/// For each set size `n` (index), the largest partner size `m` (at most `max_len`) that can
/// still qualify: the largest `m >= n` with `fl(n / m) >= t`, i.e. with `min_overlap[m] <= n`
/// (the ratio is monotone in both sizes). With `min_overlap[n]`, the smallest partner size,
/// this is the length filter's range. `min_overlap` is non-decreasing, so one sweep.
fn max_partners(min_overlap: &[usize]) -> Vec<u32> {
    let max_len = min_overlap.len() - 1;
    let mut out = vec![0u32; max_len + 1];
    let mut m = 0;
    for (n, slot) in out.iter_mut().enumerate().skip(1) {
        while m < max_len && min_overlap[m + 1] <= n {
            m += 1;
        }
        *slot = m as u32;
    }
    out
}

/// The least overlap `o` at which the reference's similarity `fl(o / (la + lb - o))` meets
/// `t`, or `u32::MAX` when no `o <= min(la, lb)` does. Exact: a float estimate
/// (`t / (1 + t) * (la + lb)`) corrected by the reference's own division, which is monotone
/// in `o`. `0 < t <= 1`, `la, lb >= 1`.
fn exact_need(la: usize, lb: usize, t: f64, ratio: f64) -> u32 {
    let m = la.min(lb);
    let mut o = ceil_usize(ratio * (la + lb) as f64).clamp(1, m);
    while o > 1 && similarity(o - 1, la, lb) >= t {
        o -= 1;
    }
    while o <= m && similarity(o, la, lb) < t {
        o += 1;
    }
    if o > m {
        u32::MAX
    } else {
        o as u32
    }
}

/// `exact_need` by the sum of the two sizes (index `s`, up to `2 * max_len`): the reference's
/// similarity `o / (la + lb - o)` depends on the sizes only through `la + lb`, and it is
/// monotone in `o`, so the least qualifying overlap for the sum, searched up to `s / 2` (the
/// largest the smaller size can be), answers every pair with that sum whose smaller size
/// reaches it (`need_of`). Replaced two divisions per (probe, partner size), ~6% of a
/// 1,000-text call.
fn needs_by_sum(max_len: usize, t: f64) -> Vec<u32> {
    let ratio = t / (1.0 + t);
    (0..=2 * max_len)
        .map(|s| {
            if s < 2 {
                u32::MAX
            } else {
                exact_need(s - s / 2, s / 2, t, ratio)
            }
        })
        .collect()
}

/// `exact_need(la, lb)` from `needs_by_sum`.
#[inline]
fn need_of(needs: &[u32], la: u32, lb: u32) -> u32 {
    let o = needs[(la + lb) as usize];
    if o <= la.min(lb) {
        o
    } else {
        u32::MAX
    }
}

/// Per-probe state of one kept item: the probe that last touched it, the overlap counted in
/// the two prefixes so far, the position in it of the last common word found, and the
/// overlap the pair needs (`u32::MAX`: pruned).
#[derive(Clone, Copy)]
struct Touch {
    probe: u32,
    count: u32,
    last: u32,
    need: u32,
}

/// One entry of the prefix index: a kept item, the word's position in its set, and the set's
/// size (here so the length and positional filters can reject an entry without loading the
/// item's `Touch`, a cache miss on large batches).
#[derive(Clone, Copy)]
struct Posting {
    item: u32,
    pos: u32,
    len: u32,
}

/// Counters of the probing work, filled only by `prefix_filtered::<true>` (the timing test
/// and the unit tests read them; the production instance compiles them out).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Items answered by an identical earlier text, without tokenizing or probing.
    pub(crate) same_text: u64,
    /// Items answered by an identical earlier set, without probing.
    pub(crate) same_set: u64,
    /// Items that probed the index.
    pub(crate) probes: u64,
    /// Index entries scanned.
    pub(crate) postings: u64,
    /// Entries rejected by the length filter.
    pub(crate) length_pruned: u64,
    /// Entries rejected by the positional filter before touching the item.
    pub(crate) position_pruned: u64,
    /// Distinct kept items touched.
    pub(crate) touched: u64,
    /// Candidates verified (positional filter passed, in rank order until the first match).
    pub(crate) verified: u64,
    /// Verifications that matched (each ends a probe).
    pub(crate) accepted: u64,
}

/// Exact greedy dedupe with prefix filtering (`AllPairs` / `PPJoin`) over kept items, for
/// `0 < t <= 1`. Words of rank `< unique` occur in one set only and never match.
///
/// * **Same set.** An item whose set equals an earlier item's (first: an identical text,
///   found while building the sets, then an identical set) gets that item's answer: if
///   the earlier one was kept, it is the duplicate of it (similarity exactly 1.0, and no kept
///   item before it met the threshold with that set, else it would not have been kept); if it
///   was a duplicate of `k`, so is this one, with the same similarity (the kept items after
///   `k` rank below `k`). Sets are matched by an order-free hash, confirmed by comparison.
/// * **Prefix filter.** Sets are sorted rarest word first. If `J(A, B) >= t` then
///   `|A ∩ B| >= max(min_overlap[|A|], min_overlap[|B|])`, so the rarest common word lies
///   within the first `|A| - min_overlap[|A|] + 1` words of `A` and the first
///   `|B| - min_overlap[|B|] + 1` words of `B`. Kept items are indexed by the words of their
///   prefix (with positions and set size); an item probes the index with its own prefix.
///   Words found in one set only are neither indexed nor probed.
/// * **Length filter.** `fl(min / max) >= t` is necessary, since `inter <= min` and
///   `union >= max`: `|B|` must lie in `[min_overlap[|A|], max_partner[|A|]]`, checked on the
///   index entry itself.
/// * **Pair prefixes.** The pair needs `need = need(|A|, |B|)` common words (exact,
///   memoised per size), so its rarest common word sits at a position `i <= |A| - need` of
///   `A` and `j <= |B| - need` of `B`. An index entry outside that region, i.e. with
///   `1 + min(|A| - i - 1, |B| - j - 1) < need`, is skipped without touching the item. That
///   loses nothing: every common word before the last one counted lies inside the region
///   too (both sets share one order), so the count is exact up to that word, and
///   verification counts every common word after it.
/// * **Positional filter.** When the word at position `i` of `A` meets the word at position
///   `j` of `B`, the overlap is at most `seen + 1 + min(|A| - i - 1, |B| - j - 1)`, where
///   `seen` is the number of common words met before (exactly `|A[..i] ∩ B[..j]|`, as
///   above). A pair whose bound falls below `need` is pruned.
/// * **Verification** of the survivors in rank order: every common word after the last one
///   found lies after it in both sets, so the overlap is the count so far plus the words of
///   `B` after that position that are in `A` (marked in a bitset), counted until the required
///   overlap is reached or out of reach. The first (earliest kept) that reaches it is the one
///   `A` duplicates.
///
/// The index is one flat array sized up front (each word's slots: the number of prefixes that
/// hold it), so building it allocates nothing per word.
impl Dedupe {
    /// Item `i` has the same non-empty word set (of `len` words) as the earlier item `f`: its
    /// answer is `f`'s (see `prefix_filtered`).
    fn copy_answer(&mut self, f: usize, i: usize, len: usize) {
        if let Some(k) = self.duplicate_of[f] {
            self.duplicate_of[i] = Some(k);
            self.similarity[i] = self.similarity[f];
        } else {
            self.duplicate_of[i] = Some(f);
            self.similarity[i] = Some(similarity(len, len, len));
        }
    }
}

fn prefix_filtered<const STATS: bool, A: Accept>(
    sets: &WordSets,
    threshold: f64,
    unique: u32,
    stats: &mut Stats,
    acc: &mut A,
) -> Dedupe {
    let n = sets.len();
    let mut out = Dedupe::new(n);
    let max_len = (0..n).map(|k| sets.get(k).len()).max().unwrap_or(0);
    let vocab = sets.vocab;
    let min_overlap = min_overlaps(max_len, threshold);
    let prefix_len = |len: usize| match len {
        0 => 0,
        len => len - min_overlap[len] + 1,
    };
    let mut index = PrefixIndex::new(sets, prefix_len, vocab, unique);
    let mut probe = Probe {
        touch: vec![
            Touch {
                probe: u32::MAX,
                count: 0,
                last: 0,
                need: 0,
            };
            n
        ],
        marks: vec![0u64; vocab.div_ceil(64)],
        cands: Vec::new(),
        needs: needs_by_sum(max_len, threshold),
        max_partner: max_partners(&min_overlap),
        min_overlap: min_overlap.clone(),
        threshold,
    };
    let mut first_of: FxHashMap<u64, u32> = FxHashMap::default();
    first_of.reserve(n);
    for i in 0..n {
        let set = sets.get(i);
        if set.is_empty() {
            continue; // kept, never indexed: never the item one duplicates
        }
        let f = sets.first[i] as usize;
        if f != i {
            if STATS {
                stats.same_text += 1;
            }
            out.copy_answer(f, i, set.len());
            continue;
        }
        match first_of.entry(sets.hashes[i]) {
            Entry::Occupied(e) => {
                let f = *e.get() as usize;
                if sets.get(f) == set {
                    if STATS {
                        stats.same_set += 1;
                    }
                    if !A::ACTIVE {
                        out.copy_answer(f, i, set.len());
                        continue;
                    }
                    // With the guard, `f`'s answer is `i`'s only when no pair of `f` was
                    // kept by the guard (so nothing before `f`'s answer met the threshold)
                    // and the guard lets `i` go to that answer too; else `i` probes.
                    if !acc.saved(f) {
                        let (answer, sim) = match out.duplicate_of[f] {
                            Some(kept) => (kept, out.similarity[f]),
                            None => (f, Some(similarity(set.len(), set.len(), set.len()))),
                        };
                        if acc.accept(i, answer, sim.unwrap_or(1.0)) {
                            out.duplicate_of[i] = Some(answer);
                            out.similarity[i] = sim;
                            continue;
                        }
                    }
                }
            }
            Entry::Vacant(e) => {
                e.insert(i as u32);
            }
        }
        let prefix = &set[..prefix_len(set.len())];
        match probe.run::<STATS, A>(i as u32, set, prefix, &index, sets, stats, acc) {
            Some((k, j)) => {
                out.duplicate_of[i] = Some(k);
                out.similarity[i] = Some(j);
            }
            None => index.insert(i as u32, prefix, set.len() as u32),
        }
    }
    out
}

/// The inverted index of kept prefixes: per word, the kept items whose prefix holds it, with
/// the word's position in them and their size. One flat array; each word's slots are
/// reserved up front (the number of prefixes, kept or not, that hold it), so inserting never
/// allocates.
struct PrefixIndex {
    /// Word `w`'s slots are `slot_start[w]..slot_start[w + 1]`, filled up to `slot_end[w]`.
    slot_start: Vec<u32>,
    slot_end: Vec<u32>,
    entries: Vec<Posting>,
    /// Words of rank below this occur in one set only: never indexed.
    unique: u32,
}

impl PrefixIndex {
    fn new(
        sets: &WordSets,
        prefix_len: impl Fn(usize) -> usize,
        vocab: usize,
        unique: u32,
    ) -> Self {
        let mut slot_start = vec![0u32; vocab + 1];
        for i in 0..sets.len() {
            if sets.first[i] as usize != i {
                continue; // a copy of an earlier text: never probes, never indexed
            }
            let set = sets.get(i);
            for &tok in &set[..prefix_len(set.len())] {
                if tok >= unique {
                    slot_start[tok as usize + 1] += 1;
                }
            }
        }
        for w in 0..vocab {
            slot_start[w + 1] += slot_start[w];
        }
        let total = slot_start[vocab] as usize;
        Self {
            slot_end: slot_start[..vocab].to_vec(),
            entries: vec![
                Posting {
                    item: 0,
                    pos: 0,
                    len: 0
                };
                total
            ],
            slot_start,
            unique,
        }
    }

    #[inline]
    fn postings(&self, tok: u32) -> &[Posting] {
        let w = tok as usize;
        &self.entries[self.slot_start[w] as usize..self.slot_end[w] as usize]
    }

    fn insert(&mut self, item: u32, prefix: &[u32], len: u32) {
        for (pos, &tok) in prefix.iter().enumerate() {
            if tok >= self.unique {
                let w = tok as usize;
                self.entries[self.slot_end[w] as usize] = Posting {
                    item,
                    pos: pos as u32,
                    len,
                };
                self.slot_end[w] += 1;
            }
        }
    }
}

/// Scratch state reused by every probe.
struct Probe {
    touch: Vec<Touch>,
    marks: Vec<u64>,
    cands: Vec<u32>,
    /// `exact_need` by the sum of the sizes (`needs_by_sum`).
    needs: Vec<u32>,
    min_overlap: Vec<usize>,
    max_partner: Vec<u32>,
    threshold: f64,
}

impl Probe {
    /// `exact_need(la, lb)` (`la, lb >= 1`, at most the batch's largest set).
    #[inline]
    fn need(&self, la: u32, lb: u32) -> u32 {
        need_of(&self.needs, la, lb)
    }

    /// The earliest kept item that `set` (item `item`) duplicates, with the similarity.
    #[allow(
        clippy::too_many_arguments,
        reason = "the probe's inputs, all borrowed"
    )]
    fn run<const STATS: bool, A: Accept>(
        &mut self,
        item: u32,
        set: &[u32],
        prefix: &[u32],
        index: &PrefixIndex,
        sets: &WordSets,
        stats: &mut Stats,
        acc: &mut A,
    ) -> Option<(usize, f64)> {
        let la = set.len();
        let (lo, hi) = (self.min_overlap[la] as u32, self.max_partner[la]);
        if STATS {
            stats.probes += 1;
        }
        self.cands.clear();
        for (pos_a, &tok) in prefix.iter().enumerate() {
            if tok < index.unique {
                continue;
            }
            let pos_a = pos_a as u32;
            let rest_a = la as u32 - pos_a - 1;
            let postings = index.postings(tok);
            if STATS {
                stats.postings += postings.len() as u64;
            }
            for p in postings {
                if p.len < lo || p.len > hi {
                    if STATS {
                        stats.length_pruned += 1;
                    }
                    continue;
                }
                let need = self.need(la as u32, p.len);
                let rest = rest_a.min(p.len - p.pos - 1);
                if rest + 1 < need {
                    if STATS {
                        stats.position_pruned += 1;
                    }
                    continue;
                }
                let st = &mut self.touch[p.item as usize];
                if st.probe != item {
                    st.probe = item;
                    st.count = 0;
                    st.need = need;
                    self.cands.push(p.item);
                } else if st.need == u32::MAX {
                    continue;
                }
                if st.count + 1 + rest < st.need {
                    st.need = u32::MAX;
                } else {
                    st.count += 1;
                    st.last = p.pos;
                }
            }
        }
        if STATS {
            stats.touched += self.cands.len() as u64;
        }
        // Only the candidates the positional filter kept, in rank order.
        let touch = &self.touch;
        self.cands.retain(|&k| touch[k as usize].need != u32::MAX);
        if self.cands.is_empty() {
            return None;
        }
        self.cands.sort_unstable();
        for &tok in set {
            self.marks[tok as usize >> 6] |= 1 << (tok & 63);
        }
        let mut found = None;
        for &k in &self.cands {
            let st = self.touch[k as usize];
            let other = sets.get(k as usize);
            let tail = &other[st.last as usize + 1..];
            let need = st.need.saturating_sub(st.count) as usize;
            if STATS {
                stats.verified += 1;
            }
            if let Some(more) = count_marked(&self.marks, tail, need) {
                // The count is exact and `need` too, but decide by the reference's division.
                let j = similarity(st.count as usize + more, la, other.len());
                if j >= self.threshold && acc.accept(item as usize, k as usize, j) {
                    if STATS {
                        stats.accepted += 1;
                    }
                    found = Some((k as usize, j));
                    break;
                }
            }
        }
        for &tok in set {
            self.marks[tok as usize >> 6] = 0;
        }
        found
    }
}

/// How many words of `b` are marked, or `None` as soon as the count cannot reach `need`.
#[inline]
fn count_marked(marks: &[u64], b: &[u32], need: usize) -> Option<usize> {
    let mut count = 0;
    for (j, &tok) in b.iter().enumerate() {
        if count + (b.len() - j) < need {
            return None;
        }
        count += ((marks[tok as usize >> 6] >> (tok & 63)) & 1) as usize;
    }
    (count >= need).then_some(count)
}
/// The reference's loop over interned sets: O(n * kept). The oracle of the unit tests.
#[cfg(test)]
pub(crate) fn naive(sets: &WordSets, threshold: f64) -> Dedupe {
    let n = sets.len();
    let mut out = Dedupe::new(n);
    let mut kept: Vec<usize> = Vec::new();
    for i in 0..n {
        let a = sets.get(i);
        if !a.is_empty() {
            for &k in &kept {
                let b = sets.get(k);
                if b.is_empty() {
                    continue;
                }
                let j = similarity(intersection(a, b), a.len(), b.len());
                if j >= threshold {
                    out.duplicate_of[i] = Some(k);
                    out.similarity[i] = Some(j);
                    break;
                }
            }
        }
        if out.duplicate_of[i].is_none() {
            kept.push(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn golden() {
        let d = jaccard(&["the cat sat", "The cat sat!", "a dog"], 0.7).expect("small batch");
        assert_eq!(d.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.similarity, [None, Some(1.0), None]);
    }

    #[test]
    fn empty_sets_never_match() {
        let d = jaccard(&["", "...", "a", "", "a"], 0.0).expect("small batch");
        assert_eq!(d.duplicate_of, [None, None, None, None, Some(2)]);
    }

    #[test]
    fn threshold_zero_takes_the_first_non_empty() {
        let d = jaccard(&["", "a b", "c d", "a c"], 0.0).expect("small batch");
        assert_eq!(d.duplicate_of, [None, None, Some(1), Some(1)]);
        assert_eq!(d.similarity, [None, None, Some(0.0), Some(1.0 / 3.0)]);
    }

    #[test]
    fn earliest_kept_wins() {
        // Item 2 is closer to 1 (8/9) but also meets the threshold with 0 (5/8): 0 wins.
        let d = jaccard(&["a b c d e", "a b c d e f g h x", "a b c d e f g h"], 0.6)
            .expect("small batch");
        assert_eq!(d.duplicate_of, [None, None, Some(0)]);
        assert_eq!(d.similarity[2], Some(5.0 / 8.0));
    }

    #[test]
    fn exact_need_is_the_least_qualifying_overlap() {
        for &t in &[1e-300, 0.1, 1.0 / 3.0, 0.5, 0.7, 0.8, 0.9, 0.999_999, 1.0] {
            let ratio = t / (1.0 + t);
            for la in 1..=120usize {
                for lb in 1..=120usize {
                    let exact = (1..=la.min(lb)).find(|&o| similarity(o, la, lb) >= t);
                    let got = exact_need(la, lb, t, ratio);
                    assert_eq!(got, exact.map_or(u32::MAX, |o| o as u32), "{t} {la} {lb}");
                }
            }
        }
    }

    #[test]
    fn needs_by_sum_equal_exact_need() {
        for &t in &[1e-300, 0.1, 1.0 / 3.0, 0.5, 0.7, 0.8, 0.9, 0.999_999, 1.0] {
            let ratio = t / (1.0 + t);
            let needs = needs_by_sum(150, t);
            for la in 1..=150u32 {
                for lb in 1..=150u32 {
                    let want = exact_need(la as usize, lb as usize, t, ratio);
                    assert_eq!(need_of(&needs, la, lb), want, "{t} {la} {lb}");
                }
            }
        }
    }

    #[test]
    fn length_range_is_exact() {
        for &t in &[1e-300, 0.1, 1.0 / 3.0, 0.5, 0.7, 0.8, 0.9, 0.999_999, 1.0] {
            let mo = min_overlaps(200, t);
            let mp = max_partners(&mo);
            for la in 1..=200usize {
                for lb in 1..=200usize {
                    let ok = (la.min(lb) as f64 / la.max(lb) as f64) >= t;
                    let inside = lb >= mo[la] && lb <= mp[la] as usize;
                    assert_eq!(ok, inside, "{t} {la} {lb}");
                }
            }
        }
    }

    #[test]
    fn identical_sets_skip_probing_and_copy_the_answer() {
        let texts = [
            "a b c d e f g h i j",
            "a b c d e f g h i x",
            "J I H G F E D C B A!",
            "a b c d e f g h i x",
            "q r s",
            "s r q",
        ];
        let (d, stats) = jaccard_stats(&texts, 0.8);
        let mut sets = word_sets(&texts).expect("small batch");
        sort_sets(&mut sets);
        assert_eq!(d, naive(&sets, 0.8));
        assert_eq!(
            d.duplicate_of,
            [None, Some(0), Some(0), Some(0), None, Some(4)]
        );
        assert_eq!(stats.same_text, 1);
        assert_eq!(stats.same_set, 2);
        assert_eq!(stats.probes, 3);
    }

    #[test]
    fn texts_alike_at_the_sampled_bytes_are_still_compared() {
        // Same length, same first, middle and last 32 bytes: only the full comparison tells
        // them apart.
        let fill = |w: &str| format!("{} {w} {}", "pad ".repeat(10), "more ".repeat(30));
        let texts = [fill("cat"), fill("dog"), fill("cat")];
        assert_eq!(texts[0].len(), texts[1].len());
        let (d, stats) = jaccard_stats(&texts, 1.0);
        assert_eq!(d.duplicate_of, [None, None, Some(0)]);
        assert_eq!(stats.same_text, 1);
    }

    #[test]
    fn min_overlap_is_tight() {
        for &t in &[1e-300, 0.1, 1.0 / 3.0, 0.5, 0.7, 0.8, 0.9, 0.999_999, 1.0] {
            let mo = min_overlaps(300, t);
            for (n, &o) in mo.iter().enumerate().skip(1) {
                assert!(o >= 1 && o <= n);
                assert!(o as f64 / n as f64 >= t, "t={t} n={n} o={o}");
                assert!(
                    o == 1 || ((o - 1) as f64 / n as f64) < t,
                    "t={t} n={n} o={o}"
                );
            }
        }
    }

    /// Sets over a small vocabulary with many repeats and near copies, as word texts.
    fn batches(vocab: u16) -> impl Strategy<Value = Vec<String>> {
        let text = prop::collection::vec(0..vocab, 0..12).prop_map(|ws| {
            ws.iter()
                .map(|w| format!("w{w}"))
                .collect::<Vec<_>>()
                .join(" ")
        });
        prop::collection::vec(text, 0..40).prop_flat_map(move |base| {
            let n = base.len();
            // Append copies of random earlier items: exact, reordered, or with one word added.
            let copies = prop::collection::vec((0..n.max(1), 0..vocab, 0..3u8), 0..20);
            (Just(base), copies).prop_map(|(mut base, copies)| {
                for (src, w, kind) in copies {
                    if let Some(t) = base.get(src).cloned() {
                        base.push(match kind {
                            0 => t,
                            1 => t.split(' ').rev().collect::<Vec<_>>().join("  "),
                            _ => format!("{t} w{w}"),
                        });
                    }
                }
                base
            })
        })
    }

    fn threshold() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            Just(0.5),
            (1u32..12, 1u32..12).prop_map(|(a, b)| f64::from(a.min(b)) / f64::from(a.max(b))),
            0.0f64..=1.0,
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        #[test]
        fn fast_equals_naive(
            texts in prop_oneof![batches(6), batches(14), batches(60)],
            t in threshold(),
        ) {
            let mut sets = word_sets(&texts).expect("small batch");
            sort_sets(&mut sets);
            let want = naive(&sets, t);
            let got = jaccard(&texts, t).expect("small batch");
            prop_assert_eq!(got, want);
        }

        #[test]
        fn never_panics_on_any_text(texts in prop::collection::vec(".*", 0..8), t in 0.0f64..=1.0) {
            let d = jaccard(&texts, t).expect("small batch");
            prop_assert_eq!(d.duplicate_of.len(), texts.len());
        }
    }
}
