//! The scale-following fine look (issue 23), in integer arithmetic only, so that
//! `briefpack.reference.pages.scale_look` computes the same boxes, residuals and decision.
//!
//! Input: two gray previews, `A` (the kept page) and `B` (the page being deduped), their
//! content boxes `box_a`, `box_b` (`(top, bottom, left, right)`, half-open, the signature's
//! rule) and their fine grids `fa`, `fb` ([`super::fine_grid`]: 512 x 512 cells, area-weighted).
//! A **block** is one of the 32 x 32 blocks of 16 x 16 fine cells, numbered row-major; every
//! grid below is white (255) past its edges.
//!
//! 1. **Search** (`search`): given grids `x`, `y` of side `G`, a block size `s`, a context
//!    `c`, a centre per block and a radius `r`: for block `(bi, bj)` the support is `x`'s cells
//!    `(s bi - c + u, s bj - c + v)`, `0 <= u, v < s + 2c`; for each shift `(dy, dx)` within `r`
//!    of the centre (each coordinate), its SAD against `y`'s cells displaced by `(dy, dx)`; the
//!    least wins, strictly, in the order: the centre first, then the others row-major (so two
//!    identical grids align every block at its centre).
//! 2. **Coarse to fine** (`pyramid`, one way, `x` into `y`): `q` = search on the grids
//!    averaged 4 x 4 (floor of the mean), `s = 4, c = 4`, centre 0, `r = 3`; `h` = search on
//!    the grids averaged 2 x 2, `s = 8, c = 4`, centre `2 q`, `r = 1`; `f` = search on the fine
//!    grids, `s = 16, c = 0`, centre `2 h`, `r = 1` (so a block moves at most 15 fine cells).
//! 3. **Blocks for the fit**: those with a cell below [`INK_CELL`] in `fa` and in `fb` and an
//!    edge energy in `fa` (the sum of the absolute differences of horizontally and vertically
//!    adjacent cells inside the block) of at least [`MIN_ENERGY`].
//! 4. **Fit** (per axis; rows: target `dy`, own coordinate the block row; columns: `dx`, the
//!    block column): with `u = 32 k - 497` twice a block's centre less 256 (`k` the block's row
//!    or column) for its own axis and `v` the same for the other, the least-squares line
//!    `dy = e0 + e1 u + e2 v` through the selected blocks, solved exactly: the normal equations
//!    in `i128` by Cramer's rule, `e_j = N_j / D` (`D` the Gram determinant, `>= 0`). A block is
//!    **on the line** when `|dy D - (N0 + N1 u + N2 v)| <= REJECT D`. Three fits: on the
//!    selected blocks, then twice on the selected blocks on the previous line. When fewer than
//!    [`MIN_FIT`] blocks are to be fitted, or `D = 0`, the axis's line is 0 and the blocks
//!    stay as they were (no further fit). `fitted` counts the selected blocks on both final
//!    lines.
//! 5. **Fitted box** (of `B`, when `fitted >= MIN_FIT`; `box_b` otherwise): per axis, with
//!    `lo`, `hi` `box_b`'s edges and `L = hi - lo`, `lo' = lo + round((N0 - 512 N1) L, 512 D)`
//!    and `hi' = lo + L + round((N0 + 512 N1) L, 512 D)` (from `L' = L (1 + 2 e1)` and
//!    `lo' = lo + (e0 - 512 e1) L / 512`), `hi' = max(hi', lo' + 1)`, where
//!    `round(p, q) = floor((2p + q) / 2q)` (half up). A guard the prototype lacks: when a side
//!    `L'` is under `L / 2` or over `2 L`, or an edge more than one image side past the image,
//!    the box is `box_b`.
//! 6. **Profile refinement** (per axis, each on its own; the other axis's range is the fitted
//!    box's): `A`'s ink profile over `box_a` (per row, the sum of `255 - p` over `box_a`'s
//!    columns) binned area-weighted to 512 bins (`P_a[k] = sum_p overlap(k, p) ink[p]`, the
//!    fine grid's overlaps), over `L_a W_a`; `B`'s the same over rows `lo' + d0 .. hi' + d1`
//!    (`|d0|, |d1| <= REACH`, `hi' + d1 - lo' - d0 >= 2`; rows and columns past the image hold
//!    no ink; the sum over the fitted range's full width `W_b`). The cost `sum_k |P_b[k] / (L
//!    W_b) - P_a[k] / (L_a W_a)|` is compared exactly as `S / L` with `S = sum_k |P_b[k] L_a
//!    W_a - P_a[k] L W_b|`; the least wins, in the order `d0` then `d1` from `-REACH`, and on
//!    an equal cost `(0, 0)` wins.
//! 7. **Common boxes** (per axis): with `S_a`, `S_n` the sides of `box_a` and of the refined
//!    box `n`, and `o` `box_b`: `lo = min(lo_a, lo_a + round((lo_o - lo_n) S_a, S_n))`, `hi =
//!    max(hi_a, lo_a + round((hi_o - lo_n) S_a, S_n))` (A's box grown to hold B's own box
//!    carried back), and for `B` each of those carried over: `lo_n + round((x - lo_a) S_n,
//!    S_a)`.
//! 8. **Grids on the boxes**: `A`'s fine grid on its common box (`fa` when it is `box_a`),
//!    `B`'s on its own (`fb` when it is `box_b`), each as [`super::fine_grid`] but on a box
//!    that may reach past the image, white (255) there. A fine row (column) whose span
//!    `[lo 512 + k L, lo 512 + (k + 1) L)` reaches past either image is made white in both.
//! 9. **Residuals**: each way, the coarse-to-fine shift of every block of one grid into the
//!    other (step 2), and at that shift the largest sum of a 4 x 4 window of the absolute
//!    differences of the block's cells; a block's residual is the larger of the two ways'. A
//!    block has ink when a cell of it is below [`INK_CELL`] in either grid.
//! 10. **Rule**: `worst` the largest residual, `reference` the `75 n / 100`-th smallest residual
//!     of the `n` blocks with ink (0 when none has); the pair is different when `100 worst >
//!     SCALE_RATIO (reference + SCALE_BIAS)` (`SCALE_RATIO` is the dedupe's `fine_ratio`).
//!
//! Bounds: previews of fewer than 2^31 pixels keep every product inside `i128`; a larger one
//! is not looked at (alike). Memory per look: a few grids of 512 x 512 bytes, profiles of at
//! most two box sides.

// Coordinates are signed (boxes reach past the image) and bounded by the preview's sides, which
// are under 2^31 (checked in `scale_look`); the single letters are the module doc's names.
#![allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::many_single_char_names
)]

use super::{content_box, fine_grid, Preview, FINE, PEAK};

/// Fine cells a block side.
pub const SIZE: usize = 16;
/// Blocks a grid side.
const NB: usize = FINE / SIZE;
/// A block has ink when a cell of it is below this.
pub const INK_CELL: u8 = 200;
/// The least edge energy of a block the fit uses.
pub const MIN_ENERGY: u64 = 2000;
/// A block is on the line when its shift is at most this many fine cells off it.
pub const REJECT: i128 = 2;
/// The least number of blocks a fit needs.
pub const MIN_FIT: usize = 8;
/// The profile refinement moves each edge at most this many pixels.
pub const REACH: i64 = 2;
/// The rule: different when `100 worst > SCALE_RATIO (reference + SCALE_BIAS)`.
pub const SCALE_RATIO: u64 = 650;
/// See [`SCALE_RATIO`].
pub const SCALE_BIAS: u64 = 16;
/// The reference is this percentile of the ink blocks' residuals.
pub const SCALE_PERCENTILE: usize = 75;
/// White cells around every padded grid: more than any shift plus context reaches (15).
const PAD: usize = 16;
/// Previews with this many pixels or more are not looked at.
const MAX_PIXELS: usize = 1 << 31;

/// A box `(top, bottom, left, right)`, half-open, in pixels (may reach past the image).
pub type Box4 = [i64; 4];

/// What [`scale_look`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScaleLook {
    /// `100 worst > SCALE_RATIO (reference + SCALE_BIAS)`.
    pub different: bool,
    /// The largest block residual.
    pub worst: u64,
    /// The 75th percentile of the ink blocks' residuals.
    pub reference: u64,
    /// Blocks on both fitted lines.
    pub fitted: usize,
    /// `B`'s fitted and refined box.
    pub refined: Box4,
    /// The box `A`'s grid was made on.
    pub box_a: Box4,
    /// The box `B`'s grid was made on.
    pub box_b: Box4,
    /// Per block, its residual (both ways, the larger).
    pub residuals: Vec<u64>,
    /// Per block, whether it has ink in either grid.
    pub ink: Vec<bool>,
}

/// A square grid with `PAD` white cells around it.
struct Padded {
    side: usize,
    data: Vec<u8>,
}

impl Padded {
    fn new(grid: &[u8], side: usize) -> Self {
        let full = side + 2 * PAD;
        let mut data = vec![255u8; full * full];
        for (r, row) in grid.chunks_exact(side).enumerate() {
            let at = (r + PAD) * full + PAD;
            data[at..at + side].copy_from_slice(row);
        }
        Self { side, data }
    }

    /// The `len` cells of row `y` from column `x` (grid coordinates, may be negative).
    #[inline]
    fn row(&self, y: i64, x: i64, len: usize) -> &[u8] {
        let full = self.side + 2 * PAD;
        // Callers keep y and x within PAD of the grid.
        let at = (y + PAD as i64) as usize * full + (x + PAD as i64) as usize;
        &self.data[at..at + len]
    }
}

/// The fine grid averaged `k` x `k` (floor of the mean).
fn reduce(f: &[u8], k: usize) -> Vec<u8> {
    let n = FINE / k;
    let mut out = vec![0u8; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0u32;
            for y in 0..k {
                let row = &f[(i * k + y) * FINE + j * k..(i * k + y) * FINE + j * k + k];
                s += row.iter().map(|&p| u32::from(p)).sum::<u32>();
            }
            out[i * n + j] = (s / (k * k) as u32) as u8;
        }
    }
    out
}

fn sad(x: &Padded, y: &Padded, (ay, ax): (i64, i64), (by, bx): (i64, i64), sup: usize) -> u64 {
    let mut total = 0u64;
    for r in 0..sup as i64 {
        let ra = x.row(ay + r, ax, sup);
        let rb = y.row(by + r, bx, sup);
        total += ra
            .iter()
            .zip(rb)
            .map(|(&p, &q)| u64::from(p.abs_diff(q)))
            .sum::<u64>();
    }
    total
}

/// Step 1: each block's best shift (see the module doc).
fn search(
    x: &Padded,
    y: &Padded,
    size: usize,
    ctx: usize,
    centres: &[(i64, i64)],
    radius: i64,
) -> Vec<(i64, i64)> {
    let n = x.side / size;
    let sup = size + 2 * ctx;
    let mut offsets = vec![(0i64, 0i64)];
    for dy in -radius..=radius {
        for dx in -radius..=radius {
            if (dy, dx) != (0, 0) {
                offsets.push((dy, dx));
            }
        }
    }
    let mut out = Vec::with_capacity(n * n);
    for bi in 0..n {
        for bj in 0..n {
            let (cy, cx) = centres[bi * n + bj];
            let oy = (bi * size) as i64 - ctx as i64;
            let ox = (bj * size) as i64 - ctx as i64;
            let mut best = (u64::MAX, (cy, cx));
            for &(dy, dx) in &offsets {
                let s = sad(x, y, (oy, ox), (oy + cy + dy, ox + cx + dx), sup);
                if s < best.0 {
                    best = (s, (cy + dy, cx + dx));
                }
            }
            out.push(best.1);
        }
    }
    out
}

/// Step 2: every block of `x`'s shift into `y`, coarse to fine.
fn pyramid(x: &[u8], y: &[u8]) -> Vec<(i64, i64)> {
    let nb = NB * NB;
    let (x4, y4) = (
        Padded::new(&reduce(x, 4), FINE / 4),
        Padded::new(&reduce(y, 4), FINE / 4),
    );
    let q = search(&x4, &y4, 4, 4, &vec![(0, 0); nb], 3);
    let (x2, y2) = (
        Padded::new(&reduce(x, 2), FINE / 2),
        Padded::new(&reduce(y, 2), FINE / 2),
    );
    let c: Vec<(i64, i64)> = q.iter().map(|&(a, b)| (2 * a, 2 * b)).collect();
    let h = search(&x2, &y2, 8, 4, &c, 1);
    let (xf, yf) = (Padded::new(x, FINE), Padded::new(y, FINE));
    let c: Vec<(i64, i64)> = h.iter().map(|&(a, b)| (2 * a, 2 * b)).collect();
    search(&xf, &yf, SIZE, 0, &c, 1)
}

/// Per block: the smallest cell.
fn block_min(g: &[u8]) -> Vec<u8> {
    let mut out = vec![255u8; NB * NB];
    for (r, row) in g.chunks_exact(FINE).enumerate() {
        for (bj, cells) in row.chunks_exact(SIZE).enumerate() {
            let m = cells.iter().copied().min().unwrap_or(255);
            let o = &mut out[(r / SIZE) * NB + bj];
            *o = (*o).min(m);
        }
    }
    out
}

/// Per block: the sum of the absolute differences of adjacent cells inside it.
fn energy(g: &[u8]) -> Vec<u64> {
    let mut out = vec![0u64; NB * NB];
    for r in 0..FINE {
        for c in 0..FINE {
            let p = g[r * FINE + c];
            let b = &mut out[(r / SIZE) * NB + c / SIZE];
            if c % SIZE != SIZE - 1 {
                *b += u64::from(p.abs_diff(g[r * FINE + c + 1]));
            }
            if r % SIZE != SIZE - 1 {
                *b += u64::from(p.abs_diff(g[(r + 1) * FINE + c]));
            }
        }
    }
    out
}

fn det3(m: [[i128; 3]; 3]) -> i128 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// Twice a block's centre less 256, for block row or column `k`.
#[inline]
fn coord(k: usize) -> i128 {
    32 * k as i128 - 497
}

/// Step 4 for one axis: `(N0, N1, D)` of the last fit (`(0, 0, 1)` for the zero line) and the
/// blocks on it.
fn fit_axis(
    target: &[i64],
    own: &[i128],
    other: &[i128],
    selected: &[bool],
) -> ((i128, i128, i128), Vec<bool>) {
    let mut m = selected.to_vec();
    let mut line = (0i128, 0i128, 1i128);
    for _ in 0..3 {
        if m.iter().filter(|&&b| b).count() < MIN_FIT {
            line = (0, 0, 1);
            break;
        }
        let mut g = [[0i128; 3]; 3];
        let mut rhs = [0i128; 3];
        for k in (0..m.len()).filter(|&k| m[k]) {
            let row = [1, own[k], other[k]];
            for a in 0..3 {
                for b in 0..3 {
                    g[a][b] += row[a] * row[b];
                }
                rhs[a] += row[a] * i128::from(target[k]);
            }
        }
        let d = det3(g);
        if d == 0 {
            line = (0, 0, 1);
            break;
        }
        let mut n = [0i128; 3];
        for (j, nj) in n.iter_mut().enumerate() {
            let mut gj = g;
            for a in 0..3 {
                gj[a][j] = rhs[a];
            }
            *nj = det3(gj);
        }
        let (d, n) = if d < 0 { (-d, n.map(|v| -v)) } else { (d, n) };
        line = (n[0], n[1], d);
        for k in 0..m.len() {
            let pred = n[0] + n[1] * own[k] + n[2] * other[k];
            m[k] = selected[k] && (i128::from(target[k]) * d - pred).abs() <= REJECT * d;
        }
    }
    (line, m)
}

/// `floor((2p + q) / 2q)` for `q > 0`: `p / q` rounded half up.
#[inline]
fn round_div(p: i128, q: i128) -> i64 {
    (2 * p + q).div_euclid(2 * q) as i64
}

/// The content box as a [`Box4`].
fn box_of(p: Preview<'_>) -> Box4 {
    content_box(p.pixels, p.width, p.height, 1).map(|v| v as i64)
}

/// Step 5.
fn fitted_box(own: Box4, lines: [(i128, i128, i128); 2], sides: [i64; 2]) -> Box4 {
    let mut out = own;
    for axis in 0..2 {
        let (lo, hi) = (own[2 * axis], own[2 * axis + 1]);
        let l = i128::from(hi - lo);
        let (n0, n1, d) = lines[axis];
        let nlo = lo + round_div((n0 - 512 * n1) * l, 512 * d);
        let nhi = (lo + (hi - lo) + round_div((n0 + 512 * n1) * l, 512 * d)).max(nlo + 1);
        let side = nhi - nlo;
        let img = sides[axis];
        if 2 * side < hi - lo || side > 2 * (hi - lo) || nlo < -img || nhi > 2 * img {
            return own;
        }
        out[2 * axis] = nlo;
        out[2 * axis + 1] = nhi;
    }
    out
}

/// Per row `lo..hi` of `p` (per column when `axis` is 1): the ink `255 - v` summed over the
/// columns `across` (rows and columns past the image hold none).
fn ink_profile(p: Preview<'_>, axis: usize, lo: i64, hi: i64, across: (i64, i64)) -> Vec<i128> {
    let (len, n_across) = if axis == 0 {
        (p.height as i64, p.width as i64)
    } else {
        (p.width as i64, p.height as i64)
    };
    let (c0, c1) = (across.0.max(0), across.1.min(n_across));
    let mut out = vec![0i128; (hi - lo) as usize];
    if c1 <= c0 {
        return out;
    }
    for (o, v) in out.iter_mut().zip(lo..hi) {
        if v < 0 || v >= len {
            continue;
        }
        let mut s = 0u64;
        if axis == 0 {
            let row = &p.pixels[v as usize * p.width..(v as usize + 1) * p.width];
            for &q in &row[c0 as usize..c1 as usize] {
                s += u64::from(255 - q);
            }
        } else {
            for y in c0..c1 {
                s += u64::from(255 - p.pixels[y as usize * p.width + v as usize]);
            }
        }
        *o = i128::from(s);
    }
    out
}

/// A profile binned area-weighted to `FINE` bins (not divided).
fn bins(ink: &[i128]) -> Vec<i128> {
    let len = ink.len();
    (0..FINE)
        .map(|k| {
            let (lo, hi) = (k * len, (k + 1) * len);
            (lo / FINE..hi.div_ceil(FINE))
                .map(|p| {
                    let w = hi.min((p + 1) * FINE) - lo.max(p * FINE);
                    w as i128 * ink[p]
                })
                .sum()
        })
        .collect()
}

/// Step 6.
fn refine(a: Preview<'_>, box_a: Box4, b: Preview<'_>, bx: Box4) -> Box4 {
    let mut out = bx;
    for axis in 0..2 {
        let o = 1 - axis;
        let (la, wa) = (
            i128::from(box_a[2 * axis + 1] - box_a[2 * axis]),
            i128::from(box_a[2 * o + 1] - box_a[2 * o]),
        );
        let pa = bins(&ink_profile(
            a,
            axis,
            box_a[2 * axis],
            box_a[2 * axis + 1],
            (box_a[2 * o], box_a[2 * o + 1]),
        ));
        let (lo, hi) = (bx[2 * axis], bx[2 * axis + 1]);
        let across = (bx[2 * o], bx[2 * o + 1]);
        let wb = i128::from(across.1 - across.0);
        let inkb = ink_profile(b, axis, lo - REACH, hi + REACH, across);
        // (S, L, lo, hi) of the best so far.
        let mut best: Option<(i128, i128, i64, i64)> = None;
        for d0 in -REACH..=REACH {
            for d1 in -REACH..=REACH {
                let l = hi + d1 - lo - d0;
                if l < 2 {
                    continue;
                }
                let start = (REACH + d0) as usize;
                let pb = bins(&inkb[start..start + l as usize]);
                let l = i128::from(l);
                let s: i128 = pb
                    .iter()
                    .zip(&pa)
                    .map(|(&x, &y)| (x * la * wa - y * l * wb).abs())
                    .sum();
                let better = match best {
                    None => true,
                    Some((bs, bl, _, _)) => {
                        let (lhs, rhs) = (s * bl, bs * l);
                        lhs < rhs || (lhs == rhs && d0 == 0 && d1 == 0)
                    }
                };
                if better {
                    best = Some((s, l, lo + d0, hi + d1));
                }
            }
        }
        if let Some((_, _, nlo, nhi)) = best {
            out[2 * axis] = nlo;
            out[2 * axis + 1] = nhi;
        }
    }
    out
}

/// Step 7: the boxes `A`'s and `B`'s grids are made on.
fn common(box_a: Box4, own: Box4, new: Box4) -> (Box4, Box4) {
    let (mut ua, mut ub) = (box_a, box_a);
    for axis in 0..2 {
        let (lo_a, hi_a) = (box_a[2 * axis], box_a[2 * axis + 1]);
        let (lo_n, hi_n) = (new[2 * axis], new[2 * axis + 1]);
        let (lo_o, hi_o) = (own[2 * axis], own[2 * axis + 1]);
        let (sa, sn) = (i128::from(hi_a - lo_a), i128::from(hi_n - lo_n));
        let lo = lo_a.min(lo_a + round_div(i128::from(lo_o - lo_n) * sa, sn));
        let hi = hi_a.max(lo_a + round_div(i128::from(hi_o - lo_n) * sa, sn));
        ua[2 * axis] = lo;
        ua[2 * axis + 1] = hi;
        ub[2 * axis] = lo_n + round_div(i128::from(lo - lo_a) * sn, sa);
        ub[2 * axis + 1] = lo_n + round_div(i128::from(hi - lo_a) * sn, sa);
    }
    (ua, ub)
}

/// The cells of a side `len` box cell `k` overlaps, as in `super::overlaps` (box-relative).
fn overlaps(k: usize, len: usize) -> impl Iterator<Item = (usize, u64)> {
    let (lo, hi) = (k * len, (k + 1) * len);
    (lo / FINE..hi.div_ceil(FINE))
        .map(move |p| (p, (hi.min((p + 1) * FINE) - lo.max(p * FINE)) as u64))
}

/// Step 8: the fine grid of `p` on `bx` (white past the image).
fn grid_on(p: Preview<'_>, bx: Box4) -> Vec<u8> {
    let [top, bottom, left, right] = bx;
    let (h, w) = ((bottom - top) as usize, (right - left) as usize);
    let cols: Vec<Vec<(usize, u64)>> = (0..FINE).map(|j| overlaps(j, w).collect()).collect();
    let area = (h as u64) * (w as u64);
    let mut out = Vec::with_capacity(FINE * FINE);
    let mut colsum = vec![0u64; w];
    let mut row = vec![255u8; w];
    for i in 0..FINE {
        colsum.fill(0);
        for (y, wy) in overlaps(i, h) {
            let yy = top + y as i64;
            row.fill(255);
            if yy >= 0 && (yy as usize) < p.height {
                let src = &p.pixels[yy as usize * p.width..(yy as usize + 1) * p.width];
                let x0 = (-left).max(0) as usize; // first box column inside the image
                let x1 = ((p.width as i64 - left).min(w as i64)).max(x0 as i64) as usize;
                if x1 > x0 {
                    let s0 = (left + x0 as i64) as usize;
                    row[x0..x1].copy_from_slice(&src[s0..s0 + (x1 - x0)]);
                }
            }
            for (c, &v) in colsum.iter_mut().zip(&row) {
                *c += wy * u64::from(v);
            }
        }
        for col in &cols {
            let sum: u64 = col.iter().map(|&(x, wx)| wx * colsum[x]).sum();
            out.push((sum / area) as u8);
        }
    }
    out
}

/// Per axis, the fine rows (columns) of a grid on `bx` whose span reaches past the image.
fn outside(bx: Box4, sides: [i64; 2]) -> [Vec<bool>; 2] {
    [0, 1].map(|axis| {
        let (lo, hi) = (i128::from(bx[2 * axis]), i128::from(bx[2 * axis + 1]));
        let n = i128::from(sides[axis]);
        let f = FINE as i128;
        (0..FINE as i128)
            .map(|k| {
                let start = lo * f + k * (hi - lo);
                start < 0 || start + (hi - lo) > n * f
            })
            .collect()
    })
}

/// Step 9, one way: per block of `x`, the largest 4 x 4 window sum of its differences at its
/// shift into `y`.
fn one_way(x: &[u8], y: &[u8]) -> Vec<u64> {
    let shifts = pyramid(x, y);
    let (xp, yp) = (Padded::new(x, FINE), Padded::new(y, FINE));
    let mut out = Vec::with_capacity(NB * NB);
    for (b, &(dy, dx)) in shifts.iter().enumerate() {
        let (oy, ox) = (((b / NB) * SIZE) as i64, ((b % NB) * SIZE) as i64);
        let mut d = [[0u64; SIZE]; SIZE];
        for (r, drow) in d.iter_mut().enumerate() {
            let ra = xp.row(oy + r as i64, ox, SIZE);
            let rb = yp.row(oy + dy + r as i64, ox + dx, SIZE);
            for ((o, &p), &q) in drow.iter_mut().zip(ra).zip(rb) {
                *o = u64::from(p.abs_diff(q));
            }
        }
        let mut peak = 0u64;
        for r in 0..=SIZE - PEAK {
            for c in 0..=SIZE - PEAK {
                let w: u64 = d[r..r + PEAK]
                    .iter()
                    .map(|row| row[c..c + PEAK].iter().sum::<u64>())
                    .sum();
                peak = peak.max(w);
            }
        }
        out.push(peak);
    }
    out
}

/// The scale-following fine look at a near pair (see the module doc): `fa`, `fb` are the two
/// previews' fine grids ([`fine_grid`]); `ratio` is the rule's [`SCALE_RATIO`] (the dedupe's
/// `fine_ratio`).
#[must_use]
pub fn scale_look(a: Preview<'_>, fa: &[u8], b: Preview<'_>, fb: &[u8], ratio: u64) -> ScaleLook {
    let nb = NB * NB;
    if a.width * a.height >= MAX_PIXELS || b.width * b.height >= MAX_PIXELS {
        return ScaleLook {
            different: false,
            worst: 0,
            reference: 0,
            fitted: 0,
            refined: [0; 4],
            box_a: [0; 4],
            box_b: [0; 4],
            residuals: vec![0; nb],
            ink: vec![false; nb],
        };
    }
    let (box_a, own) = (box_of(a), box_of(b));
    let (min_a, min_b, en) = (block_min(fa), block_min(fb), energy(fa));
    let selected: Vec<bool> = (0..nb)
        .map(|k| min_a[k] < INK_CELL && min_b[k] < INK_CELL && en[k] >= MIN_ENERGY)
        .collect();
    let f = pyramid(fa, fb);
    let rows: Vec<i128> = (0..nb).map(|k| coord(k / NB)).collect();
    let cols: Vec<i128> = (0..nb).map(|k| coord(k % NB)).collect();
    let dy: Vec<i64> = f.iter().map(|s| s.0).collect();
    let dx: Vec<i64> = f.iter().map(|s| s.1).collect();
    let (ly, my) = fit_axis(&dy, &rows, &cols, &selected);
    let (lx, mx) = fit_axis(&dx, &cols, &rows, &selected);
    let fitted = (0..nb).filter(|&k| selected[k] && my[k] && mx[k]).count();
    let sides_a = [a.height as i64, a.width as i64];
    let sides_b = [b.height as i64, b.width as i64];
    let new = if fitted >= MIN_FIT {
        fitted_box(own, [ly, lx], sides_b)
    } else {
        own
    };
    let refined = refine(a, box_a, b, new);
    let (ua, ub) = common(box_a, own, refined);
    let mut ga = if ua == box_a {
        fa.to_vec()
    } else {
        grid_on(a, ua)
    };
    let mut gb = if ub == own {
        fb.to_vec()
    } else {
        grid_on(b, ub)
    };
    let [ra, ca] = outside(ua, sides_a);
    let [rb, cb] = outside(ub, sides_b);
    for g in [&mut ga, &mut gb] {
        for r in 0..FINE {
            if ra[r] || rb[r] {
                g[r * FINE..(r + 1) * FINE].fill(255);
            }
        }
        for c in (0..FINE).filter(|&c| ca[c] || cb[c]) {
            for r in 0..FINE {
                g[r * FINE + c] = 255;
            }
        }
    }
    let residuals: Vec<u64> = one_way(&ga, &gb)
        .into_iter()
        .zip(one_way(&gb, &ga))
        .map(|(x, y)| x.max(y))
        .collect();
    let (ma, mb) = (block_min(&ga), block_min(&gb));
    let ink: Vec<bool> = (0..nb)
        .map(|k| ma[k] < INK_CELL || mb[k] < INK_CELL)
        .collect();
    let worst = residuals.iter().copied().max().unwrap_or(0);
    let mut inked: Vec<u64> = (0..nb).filter(|&k| ink[k]).map(|k| residuals[k]).collect();
    inked.sort_unstable();
    let reference = if inked.is_empty() {
        0
    } else {
        inked[SCALE_PERCENTILE * inked.len() / 100]
    };
    let different =
        worst.saturating_mul(100) > ratio.saturating_mul(reference.saturating_add(SCALE_BIAS));
    ScaleLook {
        different,
        worst,
        reference,
        fitted,
        refined,
        box_a: ua,
        box_b: ub,
        residuals,
        ink,
    }
}

/// The scale look made from the two previews alone (their fine grids made here).
#[must_use]
pub fn scale_look_previews(a: Preview<'_>, b: Preview<'_>) -> ScaleLook {
    let fa = fine_grid(a.pixels, a.width, a.height, 1);
    let fb = fine_grid(b.pixels, b.width, b.height, 1);
    scale_look(a, &fa, b, &fb, SCALE_RATIO)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` x `h` page of dashes (text-like rows) inside `[40, w - 40) x [30, h - 30)`.
    fn page(w: usize, h: usize) -> Vec<u8> {
        let mut px = vec![255u8; w * h];
        for y in 30..h - 30 {
            for x in 40..w - 40 {
                if (y / 6) % 2 == 0 && (x * 7 + y * 3) % 11 < 6 {
                    px[y * w + x] = 0;
                }
            }
        }
        px
    }

    #[test]
    fn rounding_is_half_up() {
        assert_eq!(
            [
                round_div(5, 2),
                round_div(-5, 2),
                round_div(7, 3),
                round_div(-7, 3)
            ],
            [3, -2, 2, -2]
        );
    }

    #[test]
    fn an_identical_pair_aligns_every_block_at_its_centre() {
        let (w, h) = (300, 400);
        let px = page(w, h);
        let p = Preview {
            pixels: &px,
            width: w,
            height: h,
        };
        let got = scale_look_previews(p, p);
        assert!(!got.different);
        assert_eq!((got.worst, got.reference), (0, 0));
        assert!(got.residuals.iter().all(|&r| r == 0));
        let own = box_of(p);
        assert_eq!((got.refined, got.box_a, got.box_b), (own, own, own));
        assert!(got.fitted >= MIN_FIT);
    }

    #[test]
    fn tiny_odd_and_mismatched_previews_do_not_panic() {
        let sizes = [(1, 1), (1, 7), (7, 1), (3, 2), (40, 3), (5, 90), (64, 48)];
        let mut seed = 7u64;
        let mut pages = Vec::new();
        for &(w, h) in &sizes {
            for kind in 0..3u64 {
                let px: Vec<u8> = (0..w * h)
                    .map(|_| {
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        match kind {
                            0 => 0,
                            1 => (seed >> 56) as u8,
                            _ => {
                                if (seed >> 60) < 3 {
                                    0
                                } else {
                                    255
                                }
                            }
                        }
                    })
                    .collect();
                pages.push((w, h, px));
            }
        }
        for (wa, ha, a) in pages.iter().step_by(2) {
            for (wb, hb, b) in pages.iter().skip(1).step_by(7) {
                let pa = Preview {
                    pixels: a,
                    width: *wa,
                    height: *ha,
                };
                let pb = Preview {
                    pixels: b,
                    width: *wb,
                    height: *hb,
                };
                let got = scale_look_previews(pa, pb);
                assert_eq!(got.residuals.len(), NB * NB);
            }
        }
    }

    #[test]
    fn a_huge_preview_is_not_looked_at_and_a_blank_one_does_not_panic() {
        let white = vec![255u8; 50 * 40];
        let p = Preview {
            pixels: &white,
            width: 50,
            height: 40,
        };
        let got = scale_look_previews(p, p);
        assert!(!got.different);
        assert_eq!(got.fitted, 0);
    }
}
