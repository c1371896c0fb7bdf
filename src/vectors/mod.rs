//! Vector kernels: greedy cosine dedupe and MMR, identical in their decisions to
//! `briefpack.reference.dedupe_cosine` and `briefpack.reference.mmr`.
//!
//! # Cosine dedupe: algorithm
//!
//! Walk the items in rank order; compare each only with the items already kept; it is a
//! duplicate of the earliest kept item whose cosine is `>= threshold`, else it is kept. So the
//! first copy wins and a duplicate never evicts what outranked it.
//!
//! Cosines are `dot(x, y) / (|x| |y|)` on the rows as given (float32 rows are widened, so the
//! products are exact), summed in f64; norms are computed in f64 once per row. The values
//! differ from the reference's (which normalises and uses `math.fsum`) by about `dim * 2^-53`,
//! far inside the contract (identical decisions unless a cosine is within 1e-6 of the
//! threshold; similarities within 1e-6).
//!
//! Most pairs never get that full f64 dot product. For `dim >= 128`, each row keeps a short
//! prefix `p` (its first `s = dim / 8` components, at most 256, divided by its norm, as f32)
//! and `r`, the norm of the rest divided by the norm. By Cauchy–Schwarz on the rest,
//! `cos(x, y) <= p_x · p_y + r_x r_y`, so a pair whose bound (computed in f32 with four kept
//! rows per pass, see `dot::dot4_f32`) is below `threshold - 1e-5` is provably not a
//! duplicate (the margin is three times the bound's worst rounding error). The few pairs left
//! are summed exactly in f64 segment by segment (ends at `s, 2s, 4s, ...`), with the same
//! bound on the remaining segments checked after each one. Pruning is exact: decisions are
//! those of the brute-force greedy, never an approximation (no ANN).
//!
//! Items are processed in blocks of 64: the block's items are checked against the items kept
//! before the block in parallel (rayon, for inputs of at least 2^18 values), then, in order,
//! against the items kept inside the block. Results do not depend on the thread count.
//!
//! Complexity: O(n · dim) to validate and index; the greedy pass is O(n · kept · s) for the
//! filter plus O(dim) per pair the filter keeps, worst case O(n · kept · dim) when every pair
//! is near the threshold. Extra memory: O(n · s) floats (the prefixes, once for all items and
//! once in kept order so the filter streams through memory).
//!
//! # Performance notes
//!
//! Measured with `benches/test_bench_vectors.py` (2-core AMD EPYC, shared with other jobs),
//! 10k x 1024 float32, ~10% near copies, threshold 0.97; see the report for the medians.
//! - numpy's `G = X @ X.T` (`OpenBLAS` sgemm) then a greedy pass: ~2.5-3.5 s here, dominated by
//!   the 2e11-flop product (it computes all n^2 cosines; the greedy needs only ~n·kept/2).
//! - Brute-force greedy with an f64 SIMD dot (no filter): ~4.6e7 pairs x 1024 dims, about
//!   as slow as the numpy peer; the bound is what wins.
//! - 1-D projection bounds (sort the kept items by their projection on a pivot or on the
//!   first principal direction, check only a window): rejected. With unit vectors in 1024-D
//!   the projections on any one direction spread by ~1/sqrt(dim) ≈ 0.03, while the window
//!   for threshold 0.97 is ±sqrt(2 - 2·0.97) ≈ ±0.245, so the window holds nearly every item.
//! - The prefix bound at `s = dim / 8` prunes pairs whose cosine is below about
//!   `1 - (1 - t) · dim / s` for evenly spread energy (0.76 at t = 0.97), i.e. all unrelated
//!   and most same-topic pairs, at 1/8 of the flops, in f32 SIMD from a compact,
//!   cache-resident copy.
//! - Accumulating the filter in f32 (8 lanes, two accumulators per row, four rows per pass)
//!   is ~2x faster than widening to f64; its error is bounded and covered by the margin.

pub mod args;
pub mod cosine;
pub mod dot;
pub mod matrix;
pub mod mmr;
pub mod py;
