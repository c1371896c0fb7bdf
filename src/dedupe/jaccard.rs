//! Jaccard near duplicates over word sets, exact and fast.
//!
//! Algorithm: every distinct word is interned to a `u32`; each text becomes the sorted set of
//! its word ids. Items are walked in rank order; an item with a non-empty set is a duplicate of
//! the earliest-ranked kept item `k` with `inter / union >= threshold` (one f64 division of two
//! exact integers, as in the reference, so similarities are bit-identical). An empty set is
//! never a duplicate and never the item one duplicates.
//!
//! Invariants: first copy wins; `duplicate_of[i] < i` and is kept; decisions equal the
//! reference's O(n * kept) loop exactly.
//!
//! Complexity: O(total words) to build the sets, then O(n * kept * set size) comparisons.

use std::collections::HashMap;

use super::{Dedupe, TooLarge};
use crate::text::for_each_word;

/// Word sets of a batch as CSR: set `i` is `ids[offsets[i]..offsets[i + 1]]`, sorted, unique.
pub(crate) struct WordSets {
    pub(crate) offsets: Vec<usize>,
    pub(crate) ids: Vec<u32>,
}

impl WordSets {
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &[u32] {
        &self.ids[self.offsets[i]..self.offsets[i + 1]]
    }

    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// Intern every word of `texts` (ids in order of first appearance) and build the sorted sets.
pub(crate) fn word_sets<S: AsRef<str>>(texts: &[S]) -> Result<WordSets, TooLarge> {
    let mut vocab: HashMap<Box<str>, u32, foldhash::fast::RandomState> =
        HashMap::with_hasher(foldhash::fast::RandomState::default());
    let mut offsets = Vec::with_capacity(texts.len() + 1);
    let mut ids: Vec<u32> = Vec::new();
    offsets.push(0);
    let mut overflow = false;
    for text in texts {
        let start = ids.len();
        for_each_word(text.as_ref(), |w| {
            let id = if let Some(&id) = vocab.get(w) {
                id
            } else {
                let Ok(id) = u32::try_from(vocab.len()) else {
                    overflow = true;
                    return;
                };
                vocab.insert(w.into(), id);
                id
            };
            ids.push(id);
        });
        if overflow {
            return Err(TooLarge);
        }
        let set = &mut ids[start..];
        set.sort_unstable();
        let mut len = 0;
        for j in 0..set.len() {
            if j == 0 || set[j] != set[len - 1] {
                set[len] = set[j];
                len += 1;
            }
        }
        ids.truncate(start + len);
        offsets.push(ids.len());
    }
    Ok(WordSets { offsets, ids })
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
/// `TooLarge` when the batch has more than `u32::MAX - 1` distinct words.
pub fn jaccard<S: AsRef<str>>(texts: &[S], threshold: f64) -> Result<Dedupe, TooLarge> {
    let sets = word_sets(texts)?;
    Ok(naive(&sets, threshold))
}

/// The reference's loop over interned sets: O(n * kept).
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
}
