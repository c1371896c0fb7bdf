//! Vector kernels: greedy cosine dedupe and MMR, identical in their decisions to
//! `briefpack.reference.dedupe_cosine` and `briefpack.reference.mmr`.
//!
//! # Cosine dedupe: algorithm
//!
//! Walk the items in rank order; compare each only with the items already kept; it is a
//! duplicate of the earliest kept item whose similarity is `>= threshold`, else it is kept. So
//! the first copy wins and a duplicate never evicts what outranked it.
//!
//! Cosines are `dot(x, y) / (|x| |y|)` on the rows as given (float32 rows are widened, so the
//! products are exact), summed in f64; norms are computed in f64 once per row. The values
//! differ from the reference's (which normalises and uses `math.fsum`) by about `dim * 2^-53`.
//! The similarity is the cosine clamped to [-1, 1] and rounded half up to 6 decimals
//! ([`cosine::report`]); it is both what is compared with the threshold (the rounding is the
//! comparison's one tolerance: identical vectors, whose cosines come out a few ulps from 1,
//! are duplicates at `threshold = 1.0`) and what is reported, so the backends report the
//! same bits except where a cosine lies within ~1e-13 of a rounding step, and decide alike
//! except where it lies within 1e-6 of the threshold. MMR clamps its cosines to [-1, 1] too.
//!
//! Most pairs never get that full f64 dot product. For `dim >= 16`, the filter picks the
//! `s = dim / 8` dimensions (a multiple of 8, from 8 to 256) that hold the most energy over all
//! unit rows, most energy first; each row keeps `p`, its components in those dimensions
//! divided by its norm (as f32), and the norms of its other components divided by its norm.
//! By Cauchy–Schwarz on the other components, `cos(x, y) <= p_x · p_y + r_x r_y`, for any set
//! of dimensions. The filter applies it in two stages: first on the top `s / 2` dimensions
//! (four queries per pass over two kept rows, see `dot::bounds4x2_f32`), then, for the rare
//! pairs that pass, on all `s`. A pair whose f32 bound is below `threshold - 1e-5` is provably
//! not a duplicate (the margin is three times the bound's worst rounding error). The few pairs
//! left are summed exactly in f64 segment by segment (ends at `s, 2s, 4s, ...`), with the same
//! bound on the remaining segments checked after each one. Pruning is exact: decisions are
//! those of the brute-force greedy, never an approximation (no ANN).
//!
//! Items are processed in blocks of 256: the block's items are checked against the items kept
//! before the block in parallel (rayon, for inputs of at least 2^18 values; groups of 32 items
//! walk the kept items in L2-sized chunks), then, in order, against the items kept inside the
//! block. Results do not depend on the thread count.
//!
//! Complexity: O(n · dim) to validate and index; the greedy pass is O(n · kept · s) for the
//! filter plus O(dim) per pair the filter keeps, worst case O(n · kept · dim) when every pair
//! is near the threshold. Extra memory: O(n · s) floats (the filter rows, once for all items
//! and once in kept order so the filter streams through memory); the input is not copied.
//!
//! # Performance notes
//!
//! `benches/test_bench_vectors.py --benchmark-enable`, 2-core AMD EPYC (Zen 3) VM shared with
//! other jobs (load average 3-5, so wall times swing; ratios from 3x to 7x were seen for the
//! same code), float32, dim 1024, 10% perturbed copies, threshold 0.97, medians:
//! 10k rows: Rust 0.79 s, numpy `G = X @ X.T` + greedy 3.9 s (4.9x); 1k rows: 5.0 ms vs
//! 124 ms; 300 rows: 4.3 ms vs 78 ms, reference 9.0 s. Hashed bag-of-words vectors of 5000
//! corpus passages (t = 0.9): 0.23 s vs 1.18 s. On one core (CPU seconds, 10k rows, min of 5):
//! Rust 0.35 s, numpy 2.0 s.
//! What was tried, in order (CPU seconds for 10k rows on one thread, from `perf`):
//! - numpy's Gram matrix is 2e11 flops of sgemm for all n^2 cosines although the greedy needs
//!   only ~n·kept/2 of them, plus a 400 MB matrix.
//! - 1-D projection windows (sort kept items by projection on a pivot or the first principal
//!   direction, check only a window): rejected without building. Projections of unit vectors
//!   in 1024-D on one direction spread by ~1/sqrt(dim) ≈ 0.03, while the window for t = 0.97
//!   is ±sqrt(2 - 2t) ≈ ±0.245: the window holds nearly every item.
//! - Bound on the first `dim / 8` components, one query at a time against all kept rows (4
//!   kept rows per pass): ~2.1 s wall, bound by streaming the kept filter rows (4.6 MB) from
//!   L3 for every query.
//! - Queries in groups of 32 walking the kept items in chunks of 256 (128 KiB, in L2), two
//!   queries per pass over four rows: ~0.55 s CPU.
//! - Four queries (in L1) per pass over two rows, so each kept row is loaded once per four
//!   queries: ~0.34 s CPU, of which the filter kernel is ~75%; it runs at ~14 cycles per pair
//!   for 128 dims, against the FMA bound of 8.
//! - Which dimensions: a fixed prefix fails on data whose energy sits in a few dimensions.
//!   Hashed bag-of-words vectors of the shared corpus (21.5k passages, dim 1024, most energy
//!   in the buckets of common words): 80% of pairs survived a 128-prefix at t = 0.9 and the
//!   run took 50 s; the 128 dimensions with the most energy leave 0.01% and 3.2 s. On
//!   isotropic data the two are the same.
//! - How many: on the bench data 0.42% of pairs survive at s = dim/16 and 0.009% at dim/8.
//!   RAG candidates retrieved for one query are similar to each other (cosines 0.5-0.85): for
//!   evenly spread energy the bound at s = dim/k prunes pairs below `1 - k(1 - t)` (0.76 at
//!   k = 8, only 0.52 at k = 16, t = 0.97). So two stages: dim/16 for every pair, dim/8 for
//!   the survivors of the first. Together with reading the rests' norms off the filter
//!   coordinates and a branch-free validation pass: ~0.34 s -> ~0.21 s CPU (minimum of 12).
//!   Small dimensions use at least 16 (10k x 64: 1.9 s with no filter, 0.43 s with 16; numpy
//!   peer 1.6 s).
//! - The filter accumulates in f32 (two to four times the f64 throughput); the margin covers
//!   its error. The exact stage widens to f64, where float32 products are exact.

#[cfg(feature = "python")]
pub mod args;
pub mod cosine;
pub mod dot;
pub mod matrix;
pub mod mmr;
#[cfg(feature = "python")]
pub mod py;
