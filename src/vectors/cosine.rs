//! Greedy cosine dedupe in rank order with an exact pruning filter.
//!
//! For `dim >= 16`, the filter picks the `s = dim / 8` dimensions (a multiple of 8, from 8 to
//! 256) that hold the most energy over all unit rows, most energy first; each row keeps `p`, its
//! components in those dimensions divided by its norm (as f32), and the norms of its other
//! components divided by its norm. By Cauchy–Schwarz on the other components,
//! `cos(x, y) <= p_x · p_y + r_x r_y`, for any set of dimensions. The filter applies it in two
//! stages: first on the top `s / 2` dimensions (four queries per pass over two kept rows, see
//! `dot::bounds4x2_f32`), then, for the rare pairs that pass, on all `s`. A pair whose f32 bound
//! is below `threshold - 1e-5` is provably not a duplicate (the margin is three times the
//! bound's worst rounding error). The few pairs left are summed exactly in f64 segment by
//! segment (ends at `s, 2s, 4s, ...`), with the same bound on the remaining segments checked
//! after each one. Decisions are those of the brute-force greedy.
//!
//! Items are processed in blocks of 256: the block's items are checked against the items kept
//! before the block in parallel (rayon, for inputs of at least 2^18 values; groups of 32 items
//! walk the kept items in L2-sized chunks), then, in order, against the items kept inside the
//! block. Semantics and invariants: the module doc of [`crate::vectors`].

use rayon::prelude::*;

use super::dot::{bounds4x2_f32, dot1_f32, dot4_f32, Element};
use super::matrix::Matrix;
use crate::dedupe::guard::{Accept, NoGuard};
use crate::dedupe::{Dedupe, Guard, Saved};

/// The filter keeps a pair unless its f32 upper bound is below `threshold - FILTER_MARGIN`.
///
/// The bound's own rounding error is below 3e-6, relative to `|p_x| |p_y| <= 1`: filter rows
/// rounded to f32, 1.2e-7; f32 accumulation of at most `MAX_FILTER_DIMS / 8` terms per lane and a
/// 3-level horizontal sum, < 35 * 2^-24 = 2.1e-6; the rest product, the sum and `t` rounded to
/// f32, < 2e-7. So a pruned pair's true cosine is below `threshold - 7e-6`.
const FILTER_MARGIN: f32 = 1e-5;

/// The exact stage stops a pair early when its f64 bound is below `threshold - EXACT_MARGIN`
/// (the f64 partial sums are accurate to about `dim * 2^-53`).
const EXACT_MARGIN: f64 = 1e-9;

/// How far below the threshold a cosine can lie and still be reported as meeting it: half a step
/// of [`report`]'s grid (5e-7), plus the formula's own rounding (below 1e-15), with room to
/// spare. The filter and the exact stage's early exit prune against `threshold - REPORT_SLACK`.
const REPORT_SLACK: f64 = 6e-7;

/// The similarity reported for a cosine `c`, and the value compared with the threshold:
/// `c` clamped to [-1, 1], then rounded half up to 6 decimals as
/// `floor(c * 1e6 + 0.5) / 1e6`, in IEEE-754 double precision.
///
/// The reference computes the same three correctly rounded operations in the same order
/// (`math.floor(c * 1e6 + 0.5) / 1e6`; Rust does not contract them into a fused multiply-add),
/// so the same `c` gives the same bits in both backends. The backends' cosines themselves
/// differ by about `dim * 2^-53` (1e-13 at dim 1024); the rounding is a step function, so the
/// reported values can differ only when a cosine lies that close to a step
/// (`(m + 0.5) * 1e-6`), and then by one step, 1e-6: the contract's tolerance. Away from the
/// steps they are identical, which is what makes the two backends' records equal.
#[must_use]
#[inline]
pub fn report(c: f64) -> f64 {
    (c.clamp(-1.0, 1.0) * 1e6 + 0.5).floor() / 1e6
}

/// Below this dimension the exact dot product is as cheap as the filter: no filter.
const MIN_FILTER_DIM: usize = 16;

/// The filter uses `dim / 8` dimensions (see [`filter_len`]), at most this many.
const MAX_FILTER_DIMS: usize = 256;

/// Queries per block: the queries of a block are checked against the items kept before it in
/// parallel, then against the items kept inside it, in order.
const BLOCK: usize = 256;

/// Queries per group: a group streams through the kept items' filter rows once, chunk by chunk.
const GROUP: usize = 32;

/// Kept items per chunk: the first stage reads 16 KiB of them at `s = 128`, so a chunk stays
/// in L1 while the queries of a group are checked against it (256 measured the same here).
const CHUNK: usize = 64;

/// Work (`n * dim`) below which the kernel stays on the calling thread.
const PARALLEL_MIN_WORK: usize = 1 << 18;

/// A confirmed match: the kept item's index and the cosine.
type Hit = Option<(usize, f64)>;

/// Drop each item whose cosine to an earlier kept item, as [`report`]ed, is `>= threshold`;
/// the earliest such kept item is the one it duplicates. Large inputs use the current rayon pool (inside a
/// one-thread pool everything runs on the calling thread); the result never depends on it.
pub fn dedupe_cosine<T: Element>(m: &Matrix<'_, T>, threshold: f64) -> Dedupe {
    dedupe_cosine_with(m, threshold, &mut NoGuard)
}

/// [`dedupe_cosine`] with the difference guard on `texts` (one per row): a pair over the
/// threshold that the guard keeps is no duplicate, and the item goes on to the next kept item
/// that meets the threshold (searched from the one after it).
pub fn dedupe_cosine_guarded<T: Element, S: AsRef<str>>(
    m: &Matrix<'_, T>,
    threshold: f64,
    texts: &[S],
) -> (Dedupe, Saved) {
    let mut guard = Guard::new(texts);
    let d = dedupe_cosine_with(m, threshold, &mut guard);
    (d, guard.saved_columns(texts.len()))
}

fn dedupe_cosine_with<T: Element, A: Accept>(
    m: &Matrix<'_, T>,
    threshold: f64,
    acc: &mut A,
) -> Dedupe {
    let n = m.len();
    let parallel =
        n.saturating_mul(m.dim()) >= PARALLEL_MIN_WORK && rayon::current_num_threads() > 1;
    let index = Index::new(m, threshold, parallel);
    let mut kept = Kept::new(index.s0);
    let mut duplicate_of = vec![None; n];
    let mut similarity = vec![None; n];
    let mut hits: Vec<Hit> = Vec::with_capacity(BLOCK);
    let mut items: Vec<usize> = Vec::with_capacity(BLOCK);
    for start in (0..n).step_by(BLOCK) {
        let end = (start + BLOCK).min(n);
        let frozen = kept.len();
        items.clear();
        items.extend(start..end);
        hits.clear();
        hits.resize(end - start, None);
        if frozen > 0 {
            let groups = items.chunks(GROUP).zip(hits.chunks_mut(GROUP));
            let scan = |(group, out): (&[usize], &mut [Hit])| {
                index.first_matches(group, &kept, frozen, out);
            };
            if parallel {
                items
                    .par_chunks(GROUP)
                    .zip(hits.par_chunks_mut(GROUP))
                    .for_each(scan);
            } else {
                groups.for_each(scan);
            }
        }
        for (i, hit) in (start..end).zip(hits.iter().copied()) {
            // An item kept earlier in this block ranks below every item kept before the block,
            // so it only matters when the frozen part had no match.
            let mut hit = hit.or_else(|| index.first_match(i, &kept, frozen, kept.len()));
            while let Some((j, c)) = hit {
                if acc.accept(i, j, c) {
                    break;
                }
                // Kept in rank order: the next candidates are the kept items after `j`.
                let from = kept.idx.partition_point(|&x| x <= j);
                hit = index.first_match(i, &kept, from, kept.len());
            }
            match hit {
                Some((j, c)) => {
                    duplicate_of[i] = Some(j);
                    similarity[i] = Some(c);
                }
                None => kept.push(&index, i),
            }
        }
    }
    Dedupe {
        duplicate_of,
        similarity,
    }
}

/// Per-item data for the filter and the exact stage.
struct Index<'m, 'a, T: Element> {
    m: &'m Matrix<'a, T>,
    /// The threshold, compared with the reported similarity.
    t: f64,
    /// `t - REPORT_SLACK`: no cosine below it can be reported as meeting `t` (prune below it).
    lo: f64,
    /// Number of filter dimensions (0: no filter).
    s0: usize,
    /// Number of them in the first stage (`s0 / 2` from `s0 = 32`, else `s0`).
    sa: usize,
    /// `n * s0`: each row's components in the filter dimensions (most energy first), divided
    /// by its norm, as f32.
    coords: Vec<f32>,
    /// Norm of each row's components outside the first `sa` filter dimensions, over its norm.
    rest_a: Vec<f32>,
    /// Norm of each row's components outside all `s0` filter dimensions, over its norm.
    rest: Vec<f32>,
    /// Exact-stage checkpoints: `s0` and its doublings below `dim` (none without a filter).
    ckpts: Vec<usize>,
    /// `n * ckpts.len()`: norm of each row's components after each checkpoint, over its norm.
    tails: Vec<f64>,
}

/// The kept items in rank order, with copies of their filter data side by side so the filter
/// streams through memory.
struct Kept {
    s0: usize,
    idx: Vec<usize>,
    coords: Vec<f32>,
    rest_a: Vec<f32>,
    rest: Vec<f32>,
}

impl Kept {
    fn new(s0: usize) -> Self {
        Self {
            s0,
            idx: Vec::new(),
            coords: Vec::new(),
            rest_a: Vec::new(),
            rest: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.idx.len()
    }

    fn coords(&self, pos: usize) -> &[f32] {
        &self.coords[pos * self.s0..(pos + 1) * self.s0]
    }

    fn push<T: Element>(&mut self, index: &Index<'_, '_, T>, i: usize) {
        self.idx.push(i);
        if self.s0 > 0 {
            self.coords.extend_from_slice(index.coords(i));
            self.rest_a.push(index.rest_a[i]);
            self.rest.push(index.rest[i]);
        }
    }
}

/// The `s` dimensions holding the most energy over all unit rows, most energy first.
///
/// Any subset of dimensions gives a valid bound; the one that leaves the least energy in the
/// rest gives the tightest. Embeddings often concentrate energy in a few dimensions (hashed
/// bag-of-words vectors in the common words' buckets, transformer embeddings in their "rogue"
/// dimensions); a fixed prefix would leave those in the rest and prune almost nothing.
fn top_energy_dims<T: Element>(m: &Matrix<'_, T>, s: usize) -> Vec<usize> {
    let dim = m.dim();
    let mut energy = vec![0.0f64; dim];
    for i in 0..m.len() {
        let inv2 = m.inv_norm(i) * m.inv_norm(i);
        for (e, &x) in energy.iter_mut().zip(m.row(i)) {
            let x = x.to_f64();
            *e += x * x * inv2;
        }
    }
    let mut order: Vec<usize> = (0..dim).collect();
    // Most energy first; ties by index, so the choice is deterministic.
    order.sort_by(|&a, &b| energy[b].total_cmp(&energy[a]).then(a.cmp(&b)));
    order.truncate(s);
    order
}

/// The number of filter dimensions for a dimension.
fn filter_len(dim: usize) -> usize {
    if dim < MIN_FILTER_DIM {
        0
    } else {
        // dim / 8 rounded up to a multiple of 8; at least 16 (8 leave too much out), at most
        // half the dimensions (rounded down to a multiple of 8, so at least 8).
        (dim.div_ceil(8).div_ceil(8) * 8)
            .clamp(16, MAX_FILTER_DIMS)
            .min(dim / 16 * 8)
    }
}

impl<'m, 'a, T: Element> Index<'m, 'a, T> {
    fn new(m: &'m Matrix<'a, T>, t: f64, parallel: bool) -> Self {
        let (n, dim) = (m.len(), m.dim());
        let s0 = filter_len(dim);
        let sa = if s0 >= 32 { s0 / 16 * 8 } else { s0 };
        // Exact-stage checkpoints: s0, then doubling, while below `dim`.
        let mut ckpts = Vec::new();
        if s0 > 0 {
            let mut c = s0;
            while c < dim {
                ckpts.push(c);
                c *= 2;
            }
        }
        let nc = ckpts.len();
        let selected = if s0 > 0 {
            top_energy_dims(m, s0)
        } else {
            Vec::new()
        };
        // The rest norms are computed as sqrt(1 - |p|^2). A row's squared norm and `|p|^2`
        // are sums of at most `dim` terms, each off by at most `dim * 2^-53` (relative, any
        // summation order), so `1 - |p|^2` is off by less than `(dim + s0) * 2^-52` and its
        // square root by less than the square root of that. Adding twice that square root
        // (~1e-6 at dim 1024) means a rest norm never understates; overstating only weakens
        // the bound a little.
        let slack = (((dim + s0 + 16) as f64) * 2f64.powi(-50)).sqrt() as f32;
        let rows_with_filter = if s0 > 0 { n } else { 0 };
        let mut coords = vec![0.0f32; n * s0];
        let mut rest_a = vec![0.0f32; rows_with_filter];
        let mut rest = vec![0.0f32; rows_with_filter];
        let mut tails = vec![0.0f64; n * nc];
        if nc > 0 {
            let fill = |i: usize, p: &mut [f32], ra: &mut f32, r: &mut f32, tl: &mut [f64]| {
                let row = m.row(i);
                let inv = m.inv_norm(i);
                let mut energy = [0.0f64; 2];
                for (k, (dst, &d)) in p.iter_mut().zip(&selected).enumerate() {
                    let x = row[d].to_f64() * inv;
                    energy[usize::from(k >= sa)] += x * x;
                    *dst = x as f32;
                }
                *ra = (1.0 - energy[0]).max(0.0).sqrt() as f32 + slack;
                *r = (1.0 - energy[0] - energy[1]).max(0.0).sqrt() as f32 + slack;
                // Sums of squares of the segments after each checkpoint, from the end.
                let mut acc = 0.0f64;
                let mut end = dim;
                for c in (0..nc).rev() {
                    let seg = &row[ckpts[c]..end];
                    acc += T::dot(seg, seg);
                    tl[c] = acc.sqrt() * inv;
                    end = ckpts[c];
                }
            };
            if parallel {
                let rows = coords.par_chunks_mut(s0).zip(rest_a.par_iter_mut());
                let rows = rows.zip(rest.par_iter_mut()).zip(tails.par_chunks_mut(nc));
                rows.enumerate()
                    .for_each(|(i, (((p, ra), r), tl))| fill(i, p, ra, r, tl));
            } else {
                let rows = coords.chunks_mut(s0).zip(rest_a.iter_mut());
                let rows = rows.zip(rest.iter_mut()).zip(tails.chunks_mut(nc));
                rows.enumerate()
                    .for_each(|(i, (((p, ra), r), tl))| fill(i, p, ra, r, tl));
            }
        }
        Self {
            m,
            t,
            lo: t - REPORT_SLACK,
            s0,
            sa,
            coords,
            rest_a,
            rest,
            ckpts,
            tails,
        }
    }

    fn coords(&self, i: usize) -> &[f32] {
        &self.coords[i * self.s0..(i + 1) * self.s0]
    }

    /// For each item of `group`, the first of `kept[..to]` whose cosine to it is `>= t`.
    ///
    /// The group walks the kept items chunk by chunk, in rank order: the filter runs for every
    /// unresolved item of the group (four at a time, sharing the loads of the kept filter rows),
    /// then each item's survivors get the exact check in rank order; an item is resolved at its
    /// first confirmed match, so that match is the earliest kept item that meets the threshold.
    fn first_matches(&self, group: &[usize], kept: &Kept, to: usize, out: &mut [Hit]) {
        if self.s0 == 0 {
            for (slot, &item) in out.iter_mut().zip(group) {
                *slot = self.first_match(item, kept, 0, to);
            }
            return;
        }
        let mut active: Vec<usize> = (0..group.len()).collect();
        let mut survivors: Vec<Vec<usize>> = vec![Vec::new(); group.len()];
        for start in (0..to).step_by(CHUNK) {
            let end = (start + CHUNK).min(to);
            for quad in active.chunks(4) {
                if let [a, b, c, d] = *quad {
                    let mut outs = [a, b, c, d].map(|x| std::mem::take(&mut survivors[x]));
                    self.filter4([a, b, c, d].map(|x| group[x]), kept, start..end, &mut outs);
                    for (x, out) in [a, b, c, d].into_iter().zip(outs) {
                        survivors[x] = out;
                    }
                } else {
                    for &a in quad {
                        self.filter1(group[a], kept, start..end, &mut survivors[a]);
                    }
                }
            }
            active.retain(|&a| {
                let item = group[a];
                let hit = survivors[a].iter().find_map(|&pos| {
                    let other = kept.idx[pos];
                    self.exact(item, other).map(|cos| (other, cos))
                });
                survivors[a].clear();
                out[a] = hit;
                hit.is_none()
            });
            if active.is_empty() {
                break;
            }
        }
    }

    /// `lo - FILTER_MARGIN` in f32 (`lo as f32` may round up by 6e-8: the margin covers it).
    fn cut(&self) -> f32 {
        self.lo as f32 - FILTER_MARGIN
    }

    /// Whether the kept item at `pos` passes the second stage of the filter for `item`, given
    /// their f32 dot product over the first stage's dimensions.
    #[inline]
    fn second_stage(&self, item: usize, kept: &Kept, pos: usize, dot_a: f32) -> bool {
        if self.sa == self.s0 {
            return true;
        }
        let (q, k) = (&self.coords(item)[self.sa..], &kept.coords(pos)[self.sa..]);
        dot_a + dot1_f32(q, k) + self.rest[item] * kept.rest[pos] >= self.cut()
    }

    /// Push the positions in `range` of the kept items that pass the filter for `item`.
    fn filter1(
        &self,
        item: usize,
        kept: &Kept,
        range: std::ops::Range<usize>,
        out: &mut Vec<usize>,
    ) {
        let query = &self.coords(item)[..self.sa];
        let rest = self.rest_a[item];
        let cut = self.cut();
        let mut pos = range.start;
        while pos + 4 <= range.end {
            let rows = [0, 1, 2, 3].map(|r| kept.coords(pos + r));
            for (r, &dot) in dot4_f32(query, rows).iter().enumerate() {
                let k = pos + r;
                if dot + rest * kept.rest_a[k] >= cut && self.second_stage(item, kept, k, dot) {
                    out.push(k);
                }
            }
            pos += 4;
        }
        for k in pos..range.end {
            let dot = dot1_f32(query, &kept.coords(k)[..self.sa]);
            if dot + rest * kept.rest_a[k] >= cut && self.second_stage(item, kept, k, dot) {
                out.push(k);
            }
        }
    }

    /// [`Self::filter1`] for four items at once.
    fn filter4(
        &self,
        items: [usize; 4],
        kept: &Kept,
        range: std::ops::Range<usize>,
        outs: &mut [Vec<usize>; 4],
    ) {
        let sa = self.sa;
        let queries = items.map(|i| &self.coords(i)[..sa]);
        let rests = items.map(|i| self.rest_a[i]);
        let cut = self.cut();
        let mut pos = range.start;
        while pos + 2 <= range.end {
            let rows = [&kept.coords(pos)[..sa], &kept.coords(pos + 1)[..sa]];
            let row_rest = [kept.rest_a[pos], kept.rest_a[pos + 1]];
            let (dots, mask) = bounds4x2_f32(queries, rows, rests, row_rest, cut);
            if mask != 0 {
                for (j, out) in outs.iter_mut().enumerate() {
                    for r in 0..2 {
                        let bit = 2 * j + r;
                        if mask & (1 << bit) != 0
                            && self.second_stage(items[j], kept, pos + r, dots[bit])
                        {
                            out.push(pos + r);
                        }
                    }
                }
            }
            pos += 2;
        }
        if pos < range.end {
            for (j, out) in outs.iter_mut().enumerate() {
                self.filter1(items[j], kept, pos..range.end, out);
            }
        }
    }

    /// The first kept item among `kept[from..to]` whose cosine to `item` is `>= t`.
    fn first_match(&self, item: usize, kept: &Kept, from: usize, to: usize) -> Hit {
        let confirm = |pos: &usize| {
            let other = kept.idx[*pos];
            self.exact(item, other).map(|cos| (other, cos))
        };
        if self.s0 == 0 {
            return (from..to).find_map(|pos| confirm(&pos));
        }
        let mut survivors = Vec::new();
        for start in (from..to).step_by(CHUNK) {
            survivors.clear();
            self.filter1(item, kept, start..(start + CHUNK).min(to), &mut survivors);
            if let Some(hit) = survivors.iter().find_map(confirm) {
                return Some(hit);
            }
        }
        None
    }

    /// The reported cosine of items `i` and `j` if it is `>= t`, summed in f64 segment by segment and
    /// abandoned as soon as the Cauchy–Schwarz bound on the remaining segments rules it out.
    fn exact(&self, i: usize, j: usize) -> Option<f64> {
        let (a, b) = (self.m.row(i), self.m.row(j));
        let scale = self.m.inv_norm(i) * self.m.inv_norm(j);
        let nc = self.ckpts.len();
        let mut acc = 0.0f64;
        let mut start = 0;
        for (c, &end) in self.ckpts.iter().enumerate() {
            acc += T::dot(&a[start..end], &b[start..end]);
            start = end;
            let bound = acc * scale + self.tails[i * nc + c] * self.tails[j * nc + c];
            if bound < self.lo - EXACT_MARGIN {
                return None;
            }
        }
        acc += T::dot(&a[start..], &b[start..]);
        let sim = report(acc * scale);
        (sim >= self.t).then_some(sim)
    }
}

#[cfg(test)]
// Tests may panic on bad fixtures, and their generators cast freely.
#[allow(clippy::unwrap_used, clippy::cast_sign_loss)]
mod tests {
    use super::*;

    /// Brute force in f64: the definition the kernel must match.
    fn brute(data: &[f64], n: usize, dim: usize, t: f64) -> Vec<Option<usize>> {
        let unit: Vec<Vec<f64>> = data
            .chunks_exact(dim)
            .map(|r| {
                let norm = r.iter().map(|x| x * x).sum::<f64>().sqrt();
                r.iter().map(|x| x / norm).collect()
            })
            .collect();
        let mut kept: Vec<usize> = Vec::new();
        let mut dup = vec![None; n];
        for i in 0..n {
            for &k in &kept {
                let c: f64 = unit[i].iter().zip(&unit[k]).map(|(x, y)| x * y).sum();
                if report(c) >= t {
                    dup[i] = Some(k);
                    break;
                }
            }
            if dup[i].is_none() {
                kept.push(i);
            }
        }
        dup
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn normal(&mut self) -> f64 {
            let (u, v) = (self.next().max(1e-300), self.next());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        }
    }

    /// Clustered data with near copies at controlled distances around `t`.
    fn clustered(n: usize, dim: usize, seed: u64) -> Vec<f64> {
        let mut rng = Rng(seed);
        let centres: Vec<Vec<f64>> = (0..5)
            .map(|_| (0..dim).map(|_| rng.normal()).collect())
            .collect();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        for i in 0..n {
            let row = if i > 0 && rng.next() < 0.3 {
                let src = (rng.next() * i as f64) as usize;
                let eps = 0.02 + 0.3 * rng.next();
                rows[src].iter().map(|x| x + eps * rng.normal()).collect()
            } else {
                let c = &centres[(rng.next() * 5.0) as usize];
                c.iter().map(|x| x + 0.8 * rng.normal()).collect()
            };
            rows.push(row);
        }
        rows.concat()
    }

    fn check_against_brute(data: &[f64], n: usize, dim: usize, t: f64) {
        let want = brute(data, n, dim, t);
        let m = Matrix::new(data, n, dim).unwrap();
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got = pool.install(|| dedupe_cosine(&m, t));
            assert_eq!(got.duplicate_of, want, "f64 n={n} dim={dim} t={t}");
        }
        let data32: Vec<f32> = data.iter().map(|&x| x as f32).collect();
        let back: Vec<f64> = data32.iter().map(|&x| f64::from(x)).collect();
        let want32 = brute(&back, n, dim, t);
        let m32 = Matrix::new(&data32, n, dim).unwrap();
        assert_eq!(
            dedupe_cosine(&m32, t).duplicate_of,
            want32,
            "f32 n={n} dim={dim} t={t}"
        );
    }

    #[test]
    fn matches_brute_force_across_dimensions_and_thresholds() {
        for (dim, seed) in [
            (3, 1),
            (16, 7),
            (23, 8),
            (64, 2),
            (130, 3),
            (300, 4),
            (1024, 5),
            (777, 6),
        ] {
            let n = 120;
            let data = clustered(n, dim, seed);
            for t in [0.0, 0.3, 0.8, 0.9, 0.95, 0.97, 0.99, 1.0] {
                check_against_brute(&data, n, dim, t);
            }
        }
    }

    #[test]
    fn energy_in_the_tail_does_not_fool_the_filter() {
        // Rows whose leading components are (nearly) zero.
        let (n, dim) = (40, 512);
        let mut data = clustered(n, dim, 9);
        for (i, row) in data.chunks_exact_mut(dim).enumerate() {
            let cut = if i % 2 == 0 { 256 } else { 64 };
            for x in &mut row[..cut] {
                *x *= 1e-6;
            }
        }
        for t in [0.5, 0.9, 0.97] {
            check_against_brute(&data, n, dim, t);
        }
    }

    #[test]
    fn energy_in_a_few_dimensions_anywhere() {
        // Sparse non-negative rows with most energy in a few buckets far from the start (like
        // hashed bag-of-words vectors): the filter must pick those dimensions and stay exact.
        let (n, dim) = (150, 1024);
        let mut rng = Rng(21);
        let mut data = vec![0.0f64; n * dim];
        for i in 0..n {
            let row = &mut data[i * dim..(i + 1) * dim];
            if i > 0 && rng.next() < 0.3 {
                let src = (rng.next() * i as f64) as usize;
                let copy: Vec<f64> = data[src * dim..(src + 1) * dim].to_vec();
                let row = &mut data[i * dim..(i + 1) * dim];
                row.copy_from_slice(&copy);
                row[(rng.next() * dim as f64) as usize] += 1.0 + 3.0 * rng.next();
                continue;
            }
            for hot in [900, 901, 950, 1000] {
                row[hot] = 5.0 + 10.0 * rng.next();
            }
            for _ in 0..60 {
                row[(rng.next() * dim as f64) as usize] += 1.0;
            }
        }
        for t in [0.8, 0.9, 0.97, 0.99] {
            check_against_brute(&data, n, dim, t);
        }
        let m = Matrix::new(&data, n, dim).unwrap();
        let top = top_energy_dims(&m, filter_len(dim));
        assert!([900, 901, 950, 1000].iter().all(|d| top.contains(d)));
    }

    #[test]
    fn large_input_is_the_same_on_one_thread_and_many() {
        let (n, dim) = (700, 512);
        let data: Vec<f32> = clustered(n, dim, 11).iter().map(|&x| x as f32).collect();
        let m = Matrix::new(&data, n, dim).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let single = pool.install(|| dedupe_cosine(&m, 0.97));
        assert!(single.kept().len() < n);
        for threads in 2..=3 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got = pool.install(|| dedupe_cosine(&m, 0.97));
            assert_eq!(got, single, "threads={threads}");
        }
    }

    proptest::proptest! {
        /// Any data and any threshold: an error or a well-formed answer, never a panic.
        #[test]
        fn never_panics(
            n in 0usize..12,
            dim in proptest::sample::select(vec![1usize, 2, 7, 128, 136, 300]),
            seed in proptest::prelude::any::<u64>(),
            specials in proptest::collection::vec(
                proptest::sample::select(vec![0.0f32, -0.0, f32::NAN, f32::INFINITY,
                    f32::MIN_POSITIVE, 1e-45, f32::MAX, -f32::MAX, 1e30]), 0..6),
            threshold in proptest::prelude::any::<f64>(),
            unit in 0.0f64..=1.0,
        ) {
            let mut rng = Rng(seed);
            let mut data: Vec<f32> = (0..n * dim).map(|_| rng.normal() as f32).collect();
            for (k, v) in specials.iter().enumerate() {
                if !data.is_empty() {
                    let at = (seed as usize).wrapping_add(k * 7919) % data.len();
                    data[at] = *v;
                }
            }
            if let Ok(m) = Matrix::new(&data, n, dim) {
                for t in [threshold, unit] {
                    let out = dedupe_cosine(&m, t);
                    proptest::prop_assert_eq!(out.duplicate_of.len(), n);
                    for (i, d) in out.duplicate_of.iter().enumerate() {
                        if let Some(j) = d {
                            proptest::prop_assert!(*j < i && out.kept().contains(j));
                        }
                    }
                }
            }
            let wide: Vec<f64> = data.iter().map(|&x| f64::from(x) * 1e300).collect();
            if let Ok(m) = Matrix::new(&wide, n, dim) {
                let _ = dedupe_cosine(&m, unit);
            }
        }
    }

    #[test]
    fn filter_lengths() {
        let got: Vec<usize> = [15, 16, 31, 32, 64, 127, 384, 1024, 4096]
            .map(filter_len)
            .to_vec();
        assert_eq!(got, vec![0, 8, 8, 16, 16, 16, 48, 128, 256]);
        for dim in 16..600 {
            let s = filter_len(dim);
            assert!(s.is_multiple_of(8) && s >= 8 && 2 * s <= dim, "dim={dim}");
        }
    }

    #[test]
    fn report_clamps_and_rounds_half_up_to_six_decimals() {
        // Bit-for-bit: the reference must produce the very same floats.
        let cases = [
            (1.000_000_000_000_2, 1.0),
            (-1.5, -1.0),
            (0.999_999_7, 1.0),
            (0.999_999_4, 0.999_999),
            (0.970_000_5, 0.970_001),
            (0.969_999_6, 0.97),
            (0.0, 0.0),
            (-3e-7, 0.0),
            (-8e-7, -1e-6),
        ];
        for (c, want) in cases {
            assert_eq!(report(c).to_bits(), f64::to_bits(want), "report({c})");
        }
    }

    #[test]
    fn identical_and_scaled_vectors_are_duplicates_at_threshold_one() {
        let mut rng = Rng(11);
        for dim in [1, 3, 16, 100, 384, 1024, 3000] {
            for _ in 0..30 {
                let v: Vec<f64> = (0..dim).map(|_| rng.normal() * 10.0).collect();
                let scaled: Vec<f64> = v.iter().map(|x| x * 3.0).collect();
                let mut data = v.clone();
                data.extend(&v);
                data.extend(&scaled);
                let m = Matrix::new(&data, 3, dim).unwrap();
                let got = dedupe_cosine(&m, 1.0);
                assert_eq!(got.duplicate_of, vec![None, Some(0), Some(0)], "dim={dim}");
                assert_eq!(got.similarity, vec![None, Some(1.0), Some(1.0)]);
                let data32: Vec<f32> = data.iter().map(|&x| x as f32).collect();
                let m32 = Matrix::new(&data32, 3, dim).unwrap();
                assert_eq!(dedupe_cosine(&m32, 1.0).duplicate_of[1], Some(0));
            }
        }
    }

    #[test]
    fn first_copy_wins_and_similarity_is_reported() {
        let data = [1.0f64, 0.0, 0.99, 0.01, 0.0, 1.0, 2.0, 0.0];
        let m = Matrix::new(&data, 4, 2).unwrap();
        let got = dedupe_cosine(&m, 0.97);
        assert_eq!(got.kept(), vec![0, 2]);
        assert_eq!(got.duplicate_of, vec![None, Some(0), None, Some(0)]);
        assert_eq!(got.similarity[3], Some(1.0));
        assert!(dedupe_cosine(&Matrix::<f32>::new(&[], 0, 4).unwrap(), 0.5)
            .kept()
            .is_empty());
    }
}
