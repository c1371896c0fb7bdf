//! Exact duplicates: identical after whitespace normalisation (`text::exact_key`).
//!
//! One pass in rank order with a hash map from key to the first index that had it; a hash
//! match is confirmed by comparing the keys themselves (the map's `Eq`), so a hash collision can
//! never drop a non-duplicate. O(total text length). Keys borrow the input when the text is
//! already normalised (the common case), so the map holds no copies of them.
//!
//! # Performance notes
//!
//! `foldhash` (seeded per call, so an adversary cannot aim collisions at it) hashes keys; the
//! map is pre-sized to the batch. Results never depend on the seed: the map is never iterated.

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::Dedupe;
use crate::text::exact_key;

/// Mark every item whose exact key equals an earlier item's as its duplicate (similarity 1.0).
pub fn exact<S: AsRef<str>>(texts: &[S]) -> Dedupe {
    let mut out = Dedupe::new(texts.len());
    let mut first: HashMap<Cow<'_, str>, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(texts.len(), foldhash::fast::RandomState::default());
    for (i, text) in texts.iter().enumerate() {
        match first.entry(exact_key(text.as_ref())) {
            Entry::Occupied(e) => {
                out.duplicate_of[i] = Some(*e.get());
                out.similarity[i] = Some(1.0);
            }
            Entry::Vacant(e) => {
                e.insert(i);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden() {
        let d = exact(&["a  b", "c", " a b "]);
        assert_eq!(d.duplicate_of, [None, None, Some(0)]);
        assert_eq!(d.similarity, [None, None, Some(1.0)]);
        assert_eq!(d.kept(), [0, 1]);
    }

    #[test]
    fn empty_and_whitespace_only_are_exact_copies_of_each_other() {
        let d = exact(&["", " \t", "x", "\u{3000}"]);
        assert_eq!(d.duplicate_of, [None, Some(0), None, Some(0)]);
    }

    #[test]
    fn case_and_punctuation_matter() {
        let d = exact(&["Hello", "hello", "Hello!", "Hello"]);
        assert_eq!(d.duplicate_of, [None, None, None, Some(0)]);
        let none: [&str; 0] = [];
        assert_eq!(exact(&none).kept(), Vec::<usize>::new());
    }
}
