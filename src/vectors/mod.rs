//! Vector kernels: greedy cosine dedupe and MMR, identical in their decisions to
//! `briefpack.reference.dedupe_cosine` and `briefpack.reference.mmr`.
//!
//! Cosine dedupe walks the items in rank order and compares each only with the items already
//! kept; it is a duplicate of the earliest kept item whose similarity is `>= threshold`, else it
//! is kept. So the first copy wins and a duplicate never evicts what outranked it.
//!
//! Cosines are `dot(x, y) / (|x| |y|)` on the rows as given (float32 rows are widened, so the
//! products are exact), summed in f64; norms are computed in f64 once per row. The values
//! differ from the reference's (which normalises and uses `math.fsum`) by about `dim * 2^-53`.
//! The similarity is the cosine clamped to [-1, 1] and rounded half up to 6 decimals
//! ([`cosine::report`]); it is both what is compared with the threshold (the rounding is the
//! comparison's one tolerance: identical vectors are duplicates at `threshold = 1.0`) and what
//! is reported, so the backends report the same bits except where a cosine lies within ~1e-13
//! of a rounding step, and decide alike except where it lies within 1e-6 of the threshold.
//! MMR clamps its cosines to [-1, 1] too.
//!
//! Most pairs are decided by an exact upper bound on a few high-energy dimensions ([`cosine`]
//! describes the filter); pruning never changes a decision (no ANN), and results do not depend
//! on the thread count. Complexity: O(n · dim) to validate and index; the greedy pass is
//! O(n · kept · s) for the filter (`s = dim / 8`) plus O(dim) per pair it keeps, worst case
//! O(n · kept · dim). Extra memory: O(n · s) floats; the input is not copied. Measurements and
//! the history of these choices: `docs/performance.md`, "Cosine dedupe and MMR".
//!
//! `rows` (`_core.vector_matrix`) checks embeddings given as Python lists and stacks them as
//! one float64 matrix for the Python layer, with the reference's errors.

#[cfg(feature = "python")]
pub mod args;
pub mod cosine;
pub mod dot;
pub mod matrix;
pub mod mmr;
#[cfg(feature = "python")]
pub mod py;
#[cfg(feature = "python")]
pub mod rows;
