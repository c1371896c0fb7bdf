//! Greedy duplicate detection in rank order: `exact`, `jaccard` and `minhash`.
//!
//! Every method walks the items in input (rank) order and compares each only with the items
//! already kept; the earliest-ranked kept item that meets the threshold is the one it
//! duplicates. So the first copy wins and a duplicate never evicts what outranked it.
//!
//! Each kernel returns identical results to its twin in `briefpack.reference.dedupe` (same kept
//! indices, same `duplicate_of`, bit-identical similarities): the arithmetic that decides is
//! integer (hashes, counts) or one f64 division of two exact integers, done the same way in both.
//! See each submodule for its algorithm, complexity and performance notes.

mod exact;
pub mod guard;
mod intern;
mod jaccard;
mod minhash;
#[cfg(feature = "python")]
pub mod py;

pub use exact::exact;
pub use guard::{Guard, Saved};
pub use jaccard::{jaccard, jaccard_guarded};
pub use minhash::{minhash, minhash_guarded};

/// What a dedupe kernel decided, as columns over the input (rank) order.
#[derive(Debug, Clone, PartialEq)]
pub struct Dedupe {
    /// Per input: the earliest-ranked kept item it duplicates, or `None` when kept.
    pub duplicate_of: Vec<Option<usize>>,
    /// Per input: the similarity to `duplicate_of`, or `None` when kept.
    pub similarity: Vec<Option<f64>>,
}

impl Dedupe {
    pub(crate) fn new(n: usize) -> Self {
        Self {
            duplicate_of: vec![None; n],
            similarity: vec![None; n],
        }
    }

    /// Indices of the kept items, in rank order.
    #[must_use]
    pub fn kept(&self) -> Vec<usize> {
        (0..self.duplicate_of.len())
            .filter(|&i| self.duplicate_of[i].is_none())
            .collect()
    }
}

/// A batch too large for the kernel's 32-bit indices (more than 4,294,967,294 items or
/// distinct words): far beyond what fits in memory as Python strings on common machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("texts hold more than 4294967294 items or distinct words; split the batch")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The DESIGN example rows.
    pub(crate) const DESIGN_ROWS: [&str; 4] = [
        "The relocation cap for Berlin is 4000 EUR.",
        "Relocation cap for Berlin is 4000 EUR. Apply within 90 days of arrival.",
        "The relocation cap for Berlin is 4000 EUR.",
        "Parental leave is 14 weeks in Germany.",
    ];

    #[test]
    fn design_example_jaccard() {
        let d = jaccard(&DESIGN_ROWS, 0.7).expect("small batch");
        assert_eq!(d.kept(), [0, 1, 3]);
        assert_eq!(d.duplicate_of, [None, None, Some(0), None]);
        assert_eq!(d.similarity, [None, None, Some(1.0), None]);
    }

    #[test]
    fn design_example_exact_and_minhash() {
        let d = exact(&DESIGN_ROWS);
        assert_eq!(d.kept(), [0, 1, 3]);
        assert_eq!(d.duplicate_of[2], Some(0));
        let d = minhash(&DESIGN_ROWS, 0.8, 128, 3, 0);
        assert_eq!(d.kept(), [0, 1, 3]);
        assert_eq!(d.duplicate_of[2], Some(0));
        assert_eq!(d.similarity[2], Some(1.0));
    }

    /// Manual timing on a file of NUL-separated texts (no assertion on time): the best of 5.
    /// `BRIEFPACK_TEXTS=/path cargo test --release timing -- --ignored --nocapture`
    /// (`BRIEFPACK_ONLY=exact|0.5|0.7|minhash|words` runs one of them).
    #[test]
    #[ignore = "manual timing: needs BRIEFPACK_TEXTS"]
    fn timing() {
        fn best<T>(name: &str, mut f: impl FnMut() -> T) {
            let only = std::env::var("BRIEFPACK_ONLY").unwrap_or_default();
            if !(only.is_empty() || only == name) {
                return;
            }
            let reps = std::env::var("BRIEFPACK_REPS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(5);
            let mut times = Vec::new();
            for _ in 0..reps {
                let start = std::time::Instant::now();
                std::hint::black_box(f());
                times.push(start.elapsed());
            }
            eprintln!(
                "{name}: best {:?}",
                times.iter().min().copied().unwrap_or_default()
            );
        }
        let Ok(path) = std::env::var("BRIEFPACK_TEXTS") else {
            return;
        };
        let data = std::fs::read_to_string(path).expect("readable texts file");
        let texts: Vec<&str> = data.split('\0').collect();
        best("words", || {
            let mut n = 0;
            for t in &texts {
                crate::text::for_each_word(t, |_| n += 1);
            }
            n
        });
        best("sets", || jaccard::word_sets(&texts).map(|s| s.ids.len()));
        best("exact", || exact(&texts));
        for t in ["0.3", "0.5", "0.7", "0.9"] {
            best(t, || jaccard(&texts, t.parse().unwrap_or(0.5)));
            let only = std::env::var("BRIEFPACK_ONLY").unwrap_or_default();
            if only.is_empty() || only == t {
                let (_, stats) = jaccard::jaccard_stats(&texts, t.parse().unwrap_or(0.5));
                eprintln!("{t}: {stats:?}");
            }
        }
        best("minhash", || minhash(&texts, 0.8, 128, 3, 0));
    }
}
