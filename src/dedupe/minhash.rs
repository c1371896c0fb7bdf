//! `MinHash` + LSH near duplicates, bit-identical to `reference.dedupe.dedupe_minhash`.
//!
//! Algorithm:
//! * A word hashes to FNV-1a 64 of its (lowercased) UTF-8 bytes; a shingle of `k` consecutive
//!   word hashes `w1..wk` hashes to `h = 0; h = splitmix64(h ^ w)` for each `w`. A text with
//!   fewer words than `shingle` (but at least one) is one shingle of all its words; a text with
//!   no words has no shingles: never a duplicate, never the item one duplicates.
//! * Permutation `i` maps `x` to `(a_i * x + b_i) mod (2^61 - 1)`, with `(a_i, b_i)` drawn from
//!   a `SplitMix64` stream seeded by `seed`; the signature is the per-permutation minimum.
//! * Bands `b` and rows `r` with `b * r = num_perm` minimise `|(1/b)^(1/r) - threshold|`
//!   (ties: more bands). Items are walked in rank order; the candidates of an item are the kept
//!   items that share at least one whole band with it, checked in rank order; the first whose
//!   estimate (equal minimums / `num_perm`) is `>= threshold` is the one it duplicates.
//!
//! Invariants: first copy wins; a band match found through a hash of the band is confirmed by
//! comparing the band's rows, so a hash collision never makes a candidate.
//!
//! Complexity: O(words * shingle) to hash, O(distinct shingles * `num_perm`) per signature,
//! O(bands) look-ups plus O(`num_perm`) per candidate.
//!
//! # Performance notes
//!
//! * `(a * x + b) mod (2^61 - 1)` reduces `x` mod p once per shingle, multiplies in one
//!   64x64->128 multiply and folds twice (`2^61 = 1 mod p`) instead of a u128 division
//!   (a library call, several times slower).
//! * Shingle hashes are sorted and deduplicated before the permutation loop, which is the hot
//!   loop (`num_perm` multiply-folds per distinct shingle: >90% of the instructions).
//! * LLVM vectorises that loop for SSE2 (baseline x86-64) around the scalar multiplies; SSE2
//!   has no 64-bit compare, so the final conditional subtraction and the running minimum are
//!   written compare-free: 1.45 G -> 1.08 G instructions for 2,000 corpus passages.
//! * Now: 10k corpus passages in ~0.7 s, the whole corpus (21.5k) in ~1.4 s (one core).
//!   Not tried: AVX2 behind runtime detection (a 4-lane 61x61-bit multiply from 32-bit
//!   limbs), which needs `unsafe` dispatch.

use std::collections::HashMap;

use super::Dedupe;
use crate::text::{fnv1a64, for_each_word, mix64, splitmix64, GOLDEN_GAMMA};

/// The Mersenne prime 2^61 - 1 of the permutations.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// `x mod (2^61 - 1)` for any u64.
#[inline]
fn reduce64(x: u64) -> u64 {
    let r = (x & MERSENNE_61) + (x >> 61);
    if r >= MERSENNE_61 {
        r - MERSENNE_61
    } else {
        r
    }
}

/// `(a * x + b) mod (2^61 - 1)` for `a, b, x < 2^61 - 1` (`x` already reduced).
#[inline]
fn permute(mul: u64, add: u64, x: u64) -> u64 {
    let wide = u128::from(mul) * u128::from(x) + u128::from(add); // < 2^122 + 2^61
    let r = (wide as u64 & MERSENNE_61) + (wide >> 61) as u64; // < 2^62 + 1
    let r = (r & MERSENNE_61) + (r >> 61); // <= p + 2
                                           // r - p when r >= p, else r, without a compare: with t = r + 1 <= 2^61 + 2, t >> 61 is
                                           // 1 exactly when r >= p, and then t & p = r - p + 1.
    let t = r + 1;
    (t & MERSENNE_61) + (t >> 61) - 1
}

/// The signature of a set of shingle hashes: per permutation, the minimum image.
///
/// Written without compares (the min by the sign of a difference: all values are below
/// 2^62): LLVM vectorises the loop for SSE2 around the scalar 64x64->128 multiplies, and
/// SSE2 has no 64-bit compare, which it would emulate at ~10 instructions each.
fn signature(hashes: &[u64], pa: &[u64], pb: &[u64], sig: &mut [u64]) {
    sig.fill(u64::MAX >> 2);
    for &x in hashes {
        let x = reduce64(x);
        for ((s, &a), &b) in sig.iter_mut().zip(pa).zip(pb) {
            let v = permute(a, b, x);
            let keep = (s.wrapping_sub(v).cast_signed() >> 63).cast_unsigned(); // ones iff *s < v
            *s = (v & !keep) | (*s & keep);
        }
    }
}

/// The `(a_i, b_i)` of `num_perm` permutations from the `SplitMix64` stream seeded by `seed`:
/// `a_i = 1 + draw % (2^61 - 2)`, then `b_i = draw % (2^61 - 1)`.
#[must_use]
pub fn permutations(num_perm: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut state = seed;
    let mut a = Vec::with_capacity(num_perm);
    let mut b = Vec::with_capacity(num_perm);
    for _ in 0..num_perm {
        state = state.wrapping_add(GOLDEN_GAMMA);
        a.push(1 + mix64(state) % (MERSENNE_61 - 1));
        state = state.wrapping_add(GOLDEN_GAMMA);
        b.push(mix64(state) % MERSENNE_61);
    }
    (a, b)
}

/// Bands `b` and rows `r` with `b * r = num_perm` minimising `|(1/b)^(1/r) - threshold|`;
/// ties go to more bands. `num_perm` must be at least 1.
#[must_use]
pub fn lsh_bands(num_perm: usize, threshold: f64) -> (usize, usize) {
    let mut best: Option<(f64, usize, usize)> = None;
    for b in (1..=num_perm).rev() {
        if !num_perm.is_multiple_of(b) {
            continue;
        }
        let r = num_perm / b;
        let err = ((1.0 / b as f64).powf(1.0 / r as f64) - threshold).abs();
        if best.is_none_or(|(e, _, _)| err < e) {
            best = Some((err, b, r));
        }
    }
    best.map_or((1, num_perm), |(_, b, r)| (b, r))
}

/// The shingle hashes of `text` into `out` (cleared), sorted and unique.
pub(crate) fn shingle_hashes(text: &str, shingle: usize, words: &mut Vec<u64>, out: &mut Vec<u64>) {
    words.clear();
    out.clear();
    for_each_word(text, |w| words.push(fnv1a64(w.as_bytes())));
    if words.is_empty() {
        return;
    }
    let k = shingle.clamp(1, words.len());
    for window in words.windows(k) {
        out.push(window.iter().fold(0, |h, &w| splitmix64(h ^ w)));
    }
    out.sort_unstable();
    out.dedup();
}

/// Hash of one band's rows, a key into that band's bucket map (equality is confirmed apart).
#[inline]
fn band_key(rows: &[u64]) -> u64 {
    rows.iter()
        .fold(0x243F_6A88_85A3_08D3, |h, &v| splitmix64(h ^ v))
}

/// Mark every item whose `MinHash` estimate to a kept item sharing an LSH band is `>= threshold`.
///
/// `num_perm` and `shingle` must be at least 1 and the batch below `u32::MAX` items (the
/// binding checks them).
#[must_use]
pub fn minhash<S: AsRef<str>>(
    texts: &[S],
    threshold: f64,
    num_perm: usize,
    shingle: usize,
    seed: u64,
) -> Dedupe {
    let n = texts.len();
    let mut out = Dedupe::new(n);
    if num_perm == 0 {
        return out;
    }
    let (pa, pb) = permutations(num_perm, seed);
    let (bands, rows) = lsh_bands(num_perm, threshold);
    // Kept items with shingles: their signatures, back to back, in the order they were kept.
    let mut sigs: Vec<u64> = Vec::new();
    let mut slot_item: Vec<usize> = Vec::new();
    let mut index: Vec<HashMap<u64, Vec<u32>, foldhash::fast::RandomState>> = (0..bands)
        .map(|_| HashMap::with_hasher(foldhash::fast::RandomState::default()))
        .collect();
    let mut listed_by: Vec<usize> = Vec::new(); // per slot: last item that listed it
    let mut cands: Vec<u32> = Vec::new();
    let mut words = Vec::new();
    let mut hashes = Vec::new();
    let mut sig = vec![0u64; num_perm];
    let mut keys = vec![0u64; bands];
    for (i, text) in texts.iter().enumerate() {
        shingle_hashes(text.as_ref(), shingle, &mut words, &mut hashes);
        if hashes.is_empty() {
            continue;
        }
        signature(&hashes, &pa, &pb, &mut sig);
        cands.clear();
        for (band, key) in keys.iter_mut().enumerate() {
            let rows_i = &sig[band * rows..(band + 1) * rows];
            *key = band_key(rows_i);
            if let Some(list) = index[band].get(key) {
                for &slot in list {
                    let s = slot as usize;
                    if listed_by[s] == i {
                        continue;
                    }
                    let start = s * num_perm + band * rows;
                    if sigs[start..start + rows] == *rows_i {
                        listed_by[s] = i;
                        cands.push(slot);
                    }
                }
            }
        }
        // Slots are numbered in the order items were kept, which is rank order.
        cands.sort_unstable();
        for &slot in &cands {
            let s = slot as usize;
            let other = &sigs[s * num_perm..(s + 1) * num_perm];
            let equal = sig.iter().zip(other).filter(|(x, y)| x == y).count();
            let est = equal as f64 / num_perm as f64;
            if est >= threshold {
                out.duplicate_of[i] = Some(slot_item[s]);
                out.similarity[i] = Some(est);
                break;
            }
        }
        if out.duplicate_of[i].is_none() {
            let slot = slot_item.len() as u32;
            slot_item.push(i);
            listed_by.push(usize::MAX);
            sigs.extend_from_slice(&sig);
            for (band, &key) in keys.iter().enumerate() {
                index[band].entry(key).or_default().push(slot);
            }
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
        let d = minhash(
            &[
                "one two three four five",
                "one two three four five!",
                "x y z",
            ],
            0.8,
            128,
            3,
            0,
        );
        assert_eq!(d.kept(), [0, 2]);
        assert_eq!(d.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.similarity, [None, Some(1.0), None]);
    }

    #[test]
    fn bands() {
        assert_eq!(lsh_bands(128, 0.8), (8, 16));
        assert_eq!(lsh_bands(1, 0.5), (1, 1));
        assert_eq!(lsh_bands(7, 0.0), (7, 1));
    }

    #[test]
    fn shingles() {
        let (mut w, mut h) = (Vec::new(), Vec::new());
        shingle_hashes("one two three four", 3, &mut w, &mut h);
        assert_eq!(h.len(), 2);
        shingle_hashes("one", 3, &mut w, &mut h);
        assert_eq!(h, [splitmix64(fnv1a64(b"one"))]);
        shingle_hashes("", 3, &mut w, &mut h);
        assert!(h.is_empty());
        shingle_hashes("a a a a a", 2, &mut w, &mut h);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn permute_matches_u128_modulo() {
        let (pa, pb) = permutations(64, 12345);
        for &x in &[
            0u64,
            1,
            MERSENNE_61 - 1,
            MERSENNE_61,
            MERSENNE_61 + 1,
            u64::MAX,
            1 << 63,
        ] {
            for (&a, &b) in pa.iter().zip(&pb) {
                let want = ((u128::from(a) * u128::from(x) + u128::from(b))
                    % u128::from(MERSENNE_61)) as u64;
                assert_eq!(permute(a, b, reduce64(x)), want);
            }
        }
        // Extremes of a and b.
        let (a, b) = (MERSENNE_61 - 1, MERSENNE_61 - 1);
        for x in [MERSENNE_61 - 1, u64::MAX] {
            let want =
                ((u128::from(a) * u128::from(x) + u128::from(b)) % u128::from(MERSENNE_61)) as u64;
            assert_eq!(permute(a, b, reduce64(x)), want);
        }
    }

    #[test]
    fn empty_texts_are_skipped() {
        let d = minhash(&["", "...", "a", "", "a"], 0.5, 16, 3, 1);
        assert_eq!(d.duplicate_of, [None, None, None, None, Some(2)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn never_panics_on_arbitrary_strings(
            texts in prop::collection::vec(".*", 0..8),
            threshold in 0.0f64..=1.0,
            num_perm in 1usize..40,
            shingle in prop_oneof![1usize..6, Just(usize::MAX)],
            seed in any::<u64>(),
        ) {
            let d = minhash(&texts, threshold, num_perm, shingle, seed);
            prop_assert_eq!(d.duplicate_of.len(), texts.len());
            for (i, dup) in d.duplicate_of.iter().enumerate() {
                if let Some(k) = *dup {
                    prop_assert!(k < i && d.duplicate_of[k].is_none());
                }
            }
        }

        #[test]
        fn lsh_bands_divide_num_perm(num_perm in 1usize..600, threshold in 0.0f64..=1.0) {
            let (b, r) = lsh_bands(num_perm, threshold);
            prop_assert_eq!(b * r, num_perm);
        }
    }
}
