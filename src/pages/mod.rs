//! Page signatures (a perceptual hash plus a detail grid), and greedy page dedupe with a second
//! look, in integer arithmetic only, so that `briefpack.reference.pages` computes the same bytes
//! and the same decisions from the same pixels (`docs/pages.md` has the measurements):
//!
//! 1. **Gray.** A pixel with one channel is its own gray value; an RGB pixel is
//!    `(19595 R + 38470 G + 7471 B + 32768) >> 16`, ITU-R 601 luma in 16-bit fixed point.
//! 2. **Content box.** A pixel is ink when its gray is below [`INK_BELOW`]; a row (a column) is
//!    content when it holds at least [`MIN_INK`] ink pixels. The box runs from the first to the
//!    last content row and column (the whole page when none is content). Margins, borders and
//!    crops that only cut margins change nothing after this.
//! 3. **Detail grid.** The box is box-averaged to [`DETAIL`] x [`DETAIL`] cells: cell `(i, j)`
//!    covers rows `y0 = top + i*h/D` up to `top + max(i*h/D + 1, (i+1)*h/D)` (and columns alike,
//!    `/` rounding down, half-open), its value the floor of the mean gray.
//! 4. **Hash.** The detail grid is averaged 4x4 into 32x32 (floor of the mean); a 2-D DCT-II of
//!    it in integers ([`COS`]: `round(4096 cos((2x+1) u pi / 64))`, row pass then column pass,
//!    exact `i64` sums, no rounding in between) keeps the 16x16 lowest frequencies; with `m` the
//!    median of the 255 non-DC coefficients (the 128th smallest), bit `16 v + u` is set when
//!    coefficient `(v, u)` is greater than `m`. 256 bits, most significant bit first.
//! 5. **Signature** = the 32 hash bytes followed by the `DETAIL * DETAIL` grid bytes.
//!
//! Dedupe walks the pages in rank order and compares each with the pages already kept. A pair
//! whose hashes differ in at most `max_distance` bits gets a **second look** ([`second_look`]):
//! the detail grids are compared block by block, each block of one grid matched against the
//! other at the best of the shifts within [`SHIFT`] cells (both ways); the pair is different when
//! the worst block stands out from the page's typical block (more than `factor` times the 90th
//! percentile block plus `margin` per cell): a copy differs a little everywhere (noise,
//! re-rendering, rotation), an edit a lot in one place; or when the 90th-percentile block itself
//! differs by more than `level` per cell (two pages of one layout differ a lot everywhere). A page duplicates the earliest kept page
//! that passes both; the first copy wins. A near pair the second look finds alike, whose pages
//! both come with a preview, gets a **fine look** ([`scale::scale_look`]): every block of the
//! `FINE` x `FINE` area-weighted grids of the previews' content boxes ([`fine_grid`], made only
//! for pages in such a pair) aligned on its own, on a box that follows the other page's scale,
//! and one block that stands out from the pair's own noise keeps the pair apart.
//!
//! Cost: one pass over the pixels for the box and one over the box for the grid (O(W H) time,
//! O(W) memory); the DCT is 32x32x16 x 2 multiplies; a second look is
//! `2 * (2 SHIFT + 1)^2 * DETAIL^2` byte differences (0.8 M), only for pairs within
//! `max_distance`.

#[cfg(feature = "python")]
pub mod py;
pub mod scale;

use crate::dedupe::guard::NEGATIONS;
use crate::dedupe::Dedupe;
use crate::text::for_each_word;

/// A pixel is ink when its gray value is below this.
pub const INK_BELOW: u8 = 160;
/// A row or column is content when it holds at least this many ink pixels.
pub const MIN_INK: usize = 2;
/// Cells per side of the detail grid.
pub const DETAIL: usize = 128;
/// Cells per side of the grid the DCT runs on.
pub const HASH_GRID: usize = 32;
/// Frequencies kept per axis.
pub const LOW: usize = 16;
/// Bits in a page hash.
pub const HASH_BITS: usize = LOW * LOW;
/// Bytes in a page hash.
pub const HASH_BYTES: usize = HASH_BITS / 8;
/// Bytes in a page signature: the hash, then the detail grid.
pub const SIGNATURE_BYTES: usize = HASH_BYTES + DETAIL * DETAIL;
/// Cells per side of a second-look block.
pub const BLOCK: usize = 4;
/// The largest shift (in cells, each axis) a second look tries per block.
pub const SHIFT: usize = 2;

/// Cells per side of the fine grid (a page in a near pair, from its preview).
pub const FINE: usize = 512;
/// Fine cells per side of the window whose differences make a block's residual.
pub const PEAK: usize = 4;
/// Fine grids kept per call (`FINE * FINE` bytes each: 64 MiB in all); past that a kept page's
/// grid is made again for each pair that needs it (the decisions do not depend on it). A
/// dropped page's grid is freed at once.
pub const FINE_CACHE: usize = 256;
/// The default fine-look `fine_ratio`, in hundredths: the worst block against the reference
/// (the scale look's [`scale::SCALE_RATIO`]; see `docs/pages.md` for how it was chosen).
pub const DEFAULT_FINE_RATIO: u64 = scale::SCALE_RATIO;

/// The default `max_distance` of [`dedupe`], in bits (see `docs/pages.md` for how it was chosen).
pub const DEFAULT_MAX_DISTANCE: u64 = 66;
/// The default second-look `factor`: the worst block against the 90th-percentile block.
pub const DEFAULT_FACTOR: u64 = 4;
/// The default second-look `margin`, in gray levels per cell.
pub const DEFAULT_MARGIN: u64 = 4;
/// The default second-look `level`: a pair whose 90th-percentile block differs by more than
/// this many gray levels per cell is different everywhere (two pages of one layout).
pub const DEFAULT_LEVEL: u64 = 22;

/// A page signature: `SIGNATURE_BYTES` bytes.
pub type Signature = Vec<u8>;

/// `round(4096 cos((2x + 1) u pi / 64))` for `u` in 0..16, `x` in 0..32 (a fixed table, so no
/// floating point is involved).
pub const COS: [[i64; HASH_GRID]; LOW] = [
    [
        4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
        4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
        4096, 4096,
    ],
    [
        4091, 4052, 3973, 3857, 3703, 3513, 3290, 3035, 2751, 2440, 2106, 1751, 1380, 995, 601,
        201, -201, -601, -995, -1380, -1751, -2106, -2440, -2751, -3035, -3290, -3513, -3703,
        -3857, -3973, -4052, -4091,
    ],
    [
        4076, 3920, 3612, 3166, 2598, 1931, 1189, 401, -401, -1189, -1931, -2598, -3166, -3612,
        -3920, -4076, -4076, -3920, -3612, -3166, -2598, -1931, -1189, -401, 401, 1189, 1931, 2598,
        3166, 3612, 3920, 4076,
    ],
    [
        4052, 3703, 3035, 2106, 995, -201, -1380, -2440, -3290, -3857, -4091, -3973, -3513, -2751,
        -1751, -601, 601, 1751, 2751, 3513, 3973, 4091, 3857, 3290, 2440, 1380, 201, -995, -2106,
        -3035, -3703, -4052,
    ],
    [
        4017, 3406, 2276, 799, -799, -2276, -3406, -4017, -4017, -3406, -2276, -799, 799, 2276,
        3406, 4017, 4017, 3406, 2276, 799, -799, -2276, -3406, -4017, -4017, -3406, -2276, -799,
        799, 2276, 3406, 4017,
    ],
    [
        3973, 3035, 1380, -601, -2440, -3703, -4091, -3513, -2106, -201, 1751, 3290, 4052, 3857,
        2751, 995, -995, -2751, -3857, -4052, -3290, -1751, 201, 2106, 3513, 4091, 3703, 2440, 601,
        -1380, -3035, -3973,
    ],
    [
        3920, 2598, 401, -1931, -3612, -4076, -3166, -1189, 1189, 3166, 4076, 3612, 1931, -401,
        -2598, -3920, -3920, -2598, -401, 1931, 3612, 4076, 3166, 1189, -1189, -3166, -4076, -3612,
        -1931, 401, 2598, 3920,
    ],
    [
        3857, 2106, -601, -3035, -4091, -3290, -995, 1751, 3703, 3973, 2440, -201, -2751, -4052,
        -3513, -1380, 1380, 3513, 4052, 2751, 201, -2440, -3973, -3703, -1751, 995, 3290, 4091,
        3035, 601, -2106, -3857,
    ],
    [
        3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784, 3784, 1567, -1567, -3784, -3784, -1567,
        1567, 3784, 3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784, 3784, 1567, -1567, -3784,
        -3784, -1567, 1567, 3784,
    ],
    [
        3703, 995, -2440, -4091, -2751, 601, 3513, 3857, 1380, -2106, -4052, -3035, 201, 3290,
        3973, 1751, -1751, -3973, -3290, -201, 3035, 4052, 2106, -1380, -3857, -3513, -601, 2751,
        4091, 2440, -995, -3703,
    ],
    [
        3612, 401, -3166, -3920, -1189, 2598, 4076, 1931, -1931, -4076, -2598, 1189, 3920, 3166,
        -401, -3612, -3612, -401, 3166, 3920, 1189, -2598, -4076, -1931, 1931, 4076, 2598, -1189,
        -3920, -3166, 401, 3612,
    ],
    [
        3513, -201, -3703, -3290, 601, 3857, 3035, -995, -3973, -2751, 1380, 4052, 2440, -1751,
        -4091, -2106, 2106, 4091, 1751, -2440, -4052, -1380, 2751, 3973, 995, -3035, -3857, -601,
        3290, 3703, 201, -3513,
    ],
    [
        3406, -799, -4017, -2276, 2276, 4017, 799, -3406, -3406, 799, 4017, 2276, -2276, -4017,
        -799, 3406, 3406, -799, -4017, -2276, 2276, 4017, 799, -3406, -3406, 799, 4017, 2276,
        -2276, -4017, -799, 3406,
    ],
    [
        3290, -1380, -4091, -995, 3513, 3035, -1751, -4052, -601, 3703, 2751, -2106, -3973, -201,
        3857, 2440, -2440, -3857, 201, 3973, 2106, -2751, -3703, 601, 4052, 1751, -3035, -3513,
        995, 4091, 1380, -3290,
    ],
    [
        3166, -1931, -3920, 401, 4076, 1189, -3612, -2598, 2598, 3612, -1189, -4076, -401, 3920,
        1931, -3166, -3166, 1931, 3920, -401, -4076, -1189, 3612, 2598, -2598, -3612, 1189, 4076,
        401, -3920, -1931, 3166,
    ],
    [
        3035, -2440, -3513, 1751, 3857, -995, -4052, 201, 4091, 601, -3973, -1380, 3703, 2106,
        -3290, -2751, 2751, 3290, -2106, -3703, 1380, 3973, -601, -4091, -201, 4052, 995, -3857,
        -1751, 3513, 2440, -3035,
    ],
];

/// ITU-R 601 luma of an RGB pixel in 16-bit fixed point, rounded to nearest.
#[must_use]
#[inline]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((19595 * u32::from(r) + 38470 * u32::from(g) + 7471 * u32::from(b) + 32768) >> 16) as u8
}

/// The half-open range `lo..hi` (relative) that cell `k` of `cells` covers on a side of length
/// `len` (at least one index, even when `len < cells`).
#[inline]
fn span(k: usize, cells: usize, len: usize) -> (usize, usize) {
    let lo = k * len / cells;
    let hi = ((k + 1) * len / cells).max(lo + 1);
    (lo, hi)
}

/// One page's gray rows, converted on the fly from RGB.
struct Gray<'a> {
    pixels: &'a [u8],
    width: usize,
    channels: usize,
    buf: Vec<u8>,
}

impl<'a> Gray<'a> {
    fn new(pixels: &'a [u8], width: usize, channels: usize) -> Self {
        let buf = vec![0u8; if channels == 1 { 0 } else { width }];
        Self {
            pixels,
            width,
            channels,
            buf,
        }
    }

    fn row(&mut self, y: usize) -> &[u8] {
        let stride = self.width * self.channels;
        let row = &self.pixels[y * stride..(y + 1) * stride];
        if self.channels == 1 {
            return row;
        }
        for (g, px) in self.buf.iter_mut().zip(row.chunks_exact(3)) {
            *g = luma(px[0], px[1], px[2]);
        }
        &self.buf
    }
}

/// The content box `(top, bottom, left, right)`, half-open (see the module doc).
#[must_use]
pub fn content_box(pixels: &[u8], width: usize, height: usize, channels: usize) -> [usize; 4] {
    let mut gray = Gray::new(pixels, width, channels);
    let mut cols = vec![0usize; width];
    let (mut top, mut bottom) = (usize::MAX, 0);
    for y in 0..height {
        let mut n = 0;
        for (c, &p) in cols.iter_mut().zip(gray.row(y)) {
            let ink = usize::from(p < INK_BELOW);
            *c += ink;
            n += ink;
        }
        if n >= MIN_INK {
            top = top.min(y);
            bottom = y + 1;
        }
    }
    let left = cols.iter().position(|&c| c >= MIN_INK);
    let right = cols.iter().rposition(|&c| c >= MIN_INK);
    match (left, right) {
        (Some(l), Some(r)) if top < bottom => [top, bottom, l, r + 1],
        _ => [0, height, 0, width],
    }
}

/// The `cells` x `cells` box-averaged gray grid of a page's content box, row-major (cell
/// `(i, j)` covers `span(i, cells, h)` rows and `span(j, cells, w)` columns of the box).
fn box_grid(pixels: &[u8], width: usize, height: usize, channels: usize, cells: usize) -> Vec<u8> {
    let [top, bottom, left, right] = content_box(pixels, width, height, channels);
    let (h, w) = (bottom - top, right - left);
    let mut gray = Gray::new(pixels, width, channels);
    let mut out = Vec::with_capacity(cells * cells);
    let mut colsum = vec![0u64; w];
    for i in 0..cells {
        let (y0, y1) = span(i, cells, h);
        colsum.fill(0);
        for y in y0..y1 {
            let row = &gray.row(top + y)[left..right];
            for (c, &p) in colsum.iter_mut().zip(row) {
                *c += u64::from(p);
            }
        }
        let rows = (y1 - y0) as u64;
        for j in 0..cells {
            let (x0, x1) = span(j, cells, w);
            let sum: u64 = colsum[x0..x1].iter().sum();
            // A mean of bytes is at most 255.
            out.push((sum / (rows * (x1 - x0) as u64)) as u8);
        }
    }
    out
}

/// The `DETAIL` x `DETAIL` box-averaged gray grid of a page's content box, row-major.
#[must_use]
pub fn detail(pixels: &[u8], width: usize, height: usize, channels: usize) -> Vec<u8> {
    box_grid(pixels, width, height, channels, DETAIL)
}

/// The `FINE` x `FINE` grid of a page's content box, area-weighted: with `h`, `w` the box's
/// size, cell `(i, j)` covers `[i h, (i + 1) h) x [j w, (j + 1) w)` in units of `1 / FINE`
/// pixel, each pixel weighs its overlap with the cell (an integer), and the cell's value is the
/// floor of the weighted sum over `h w`. What the fine look compares (made only for pages in a
/// near pair, from the preview).
#[must_use]
pub fn fine_grid(pixels: &[u8], width: usize, height: usize, channels: usize) -> Vec<u8> {
    let [top, bottom, left, right] = content_box(pixels, width, height, channels);
    let (h, w) = (bottom - top, right - left);
    let mut gray = Gray::new(pixels, width, channels);
    // Per cell column: the pixel columns it overlaps and their weights.
    let cols: Vec<Vec<(usize, u64)>> = (0..FINE).map(|j| overlaps(j, w)).collect();
    let mut out = Vec::with_capacity(FINE * FINE);
    let mut colsum = vec![0u64; w];
    let area = (h as u64) * (w as u64);
    for i in 0..FINE {
        colsum.fill(0);
        for (y, wy) in overlaps(i, h) {
            let row = &gray.row(top + y)[left..right];
            for (c, &p) in colsum.iter_mut().zip(row) {
                *c += wy * u64::from(p);
            }
        }
        for col in &cols {
            let sum: u64 = col.iter().map(|&(x, wx)| wx * colsum[x]).sum();
            // A weighted mean of bytes is at most 255.
            out.push((sum / area) as u8);
        }
    }
    out
}

/// The pixels (of a side of `len`) that fine cell `k` overlaps, with the overlap in units of
/// `1 / FINE` pixel: the cell is `[k len, (k + 1) len)`, pixel `p` is `[p FINE, (p + 1) FINE)`.
fn overlaps(k: usize, len: usize) -> Vec<(usize, u64)> {
    let (lo, hi) = (k * len, (k + 1) * len);
    (lo / FINE..hi.div_ceil(FINE))
        .map(|p| {
            let a = lo.max(p * FINE);
            let b = hi.min((p + 1) * FINE);
            (p, (b - a) as u64)
        })
        .collect()
}

/// The 256-bit DCT hash of a detail grid (see the module doc).
#[must_use]
pub fn dct_hash(grid: &[u8]) -> [u8; HASH_BYTES] {
    const F: usize = DETAIL / HASH_GRID;
    #[allow(clippy::cast_possible_wrap)] // 16
    const CELLS: i64 = (F * F) as i64;
    let mut small = [[0i64; HASH_GRID]; HASH_GRID];
    for (i, row) in small.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let mut sum = 0i64;
            for y in i * F..(i + 1) * F {
                for x in j * F..(j + 1) * F {
                    sum += i64::from(grid[y * DETAIL + x]);
                }
            }
            *cell = sum / CELLS;
        }
    }
    // Row pass: r[y][u] = sum_x COS[u][x] * small[y][x].
    let mut r = [[0i64; LOW]; HASH_GRID];
    for (y, out) in r.iter_mut().enumerate() {
        for (u, o) in out.iter_mut().enumerate() {
            *o = (0..HASH_GRID).map(|x| COS[u][x] * small[y][x]).sum();
        }
    }
    // Column pass: c[v][u] = sum_y COS[v][y] * r[y][u].
    let mut coef = [0i64; HASH_BITS];
    for v in 0..LOW {
        for u in 0..LOW {
            coef[v * LOW + u] = (0..HASH_GRID).map(|y| COS[v][y] * r[y][u]).sum();
        }
    }
    let mut ac: Vec<i64> = coef[1..].to_vec();
    ac.sort_unstable();
    let median = ac[(HASH_BITS - 1) / 2];
    let mut out = [0u8; HASH_BYTES];
    for (k, &c) in coef.iter().enumerate() {
        if c > median {
            out[k / 8] |= 0x80 >> (k % 8);
        }
    }
    out
}

/// The signature of one page: its hash, then its detail grid (see the module doc).
#[must_use]
pub fn signature(pixels: &[u8], width: usize, height: usize, channels: usize) -> Signature {
    let grid = detail(pixels, width, height, channels);
    let mut out = dct_hash(&grid).to_vec();
    out.extend_from_slice(&grid);
    out
}

/// For each `BLOCK` x `BLOCK` block of `a`, the least sum of absolute differences against `b`
/// at the shifts within `SHIFT` cells that keep the shifted block inside the grid.
fn block_scores(a: &[u8], b: &[u8]) -> Vec<u64> {
    let blocks = DETAIL / BLOCK;
    let mut out = Vec::with_capacity(blocks * blocks);
    for bi in 0..blocks {
        for bj in 0..blocks {
            let (y0, x0) = (bi * BLOCK, bj * BLOCK);
            let mut best = u64::MAX;
            for sy in y0.saturating_sub(SHIFT)..=(y0 + SHIFT).min(DETAIL - BLOCK) {
                for sx in x0.saturating_sub(SHIFT)..=(x0 + SHIFT).min(DETAIL - BLOCK) {
                    let mut sad = 0u64;
                    for y in 0..BLOCK {
                        let ra = &a[(y0 + y) * DETAIL + x0..(y0 + y) * DETAIL + x0 + BLOCK];
                        let rb = &b[(sy + y) * DETAIL + sx..(sy + y) * DETAIL + sx + BLOCK];
                        for (&p, &q) in ra.iter().zip(rb) {
                            sad += u64::from(p.abs_diff(q));
                        }
                    }
                    best = best.min(sad);
                }
            }
            out.push(best);
        }
    }
    out
}

/// The second look at two detail grids: `(different, worst, typical)` where `worst` is the
/// largest block score (both ways) and `typical` the 90th-percentile one; the pair is different
/// when `worst > look.factor * typical + look.margin * BLOCK * BLOCK` (one block stands out) or
/// `typical > look.level * BLOCK * BLOCK` (they differ everywhere).
#[must_use]
#[cfg_attr(not(test), allow(dead_code))] // the dedupe runs its two halves
pub fn second_look(a: &[u8], b: &[u8], look: Look) -> (bool, u64, u64) {
    let scores = look_scores(a, b);
    let (different, worst, typical) = judge(&scores, look);
    (different, worst, typical)
}

/// Each block's second-look score: the larger of its two ways' least SADs.
fn look_scores(a: &[u8], b: &[u8]) -> Vec<u64> {
    block_scores(a, b)
        .into_iter()
        .zip(block_scores(b, a))
        .map(|(x, y)| x.max(y))
        .collect()
}

/// The second look's rule on the block scores: `(different, worst, typical)`.
fn judge(scores: &[u64], look: Look) -> (bool, u64, u64) {
    let mut sorted = scores.to_vec();
    sorted.sort_unstable();
    let worst = sorted[sorted.len() - 1];
    let typical = sorted[sorted.len() * 9 / 10];
    let cells = (BLOCK * BLOCK) as u64;
    let limit = look
        .factor
        .saturating_mul(typical)
        .saturating_add(look.margin.saturating_mul(cells));
    let different = worst > limit || typical > look.level.saturating_mul(cells);
    (different, worst, typical)
}

/// A batch whose columns do not describe its pixel buffer; `row` is the page at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// `offsets` must have one entry more than there are pages.
    Columns { pages: usize, offsets: usize },
    /// A page with a zero width or height.
    Empty { row: usize },
    /// Channels other than 1 (gray) or 3 (RGB).
    Channels { row: usize, channels: usize },
    /// `offsets[row] .. offsets[row + 1]` is not a range inside the buffer.
    Range { row: usize },
    /// The page's bytes are not `width * height * channels`.
    Size {
        row: usize,
        expected: Option<usize>,
        got: usize,
    },
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Columns { pages, offsets } => write!(
                f,
                "offsets must have one entry more than widths, heights and channels \
                 ({pages} pages), got {offsets}"
            ),
            Self::Empty { row } => write!(f, "page {row}: width and height must be >= 1"),
            Self::Channels { row, channels } => write!(
                f,
                "page {row}: channels must be 1 (gray) or 3 (RGB), got {channels}"
            ),
            Self::Range { row } => write!(
                f,
                "page {row}: offsets[{row}]..offsets[{}] is not a range inside pixels",
                row + 1
            ),
            Self::Size { row, expected, got } => {
                let expected = expected.map_or_else(|| "too many".to_owned(), |e| e.to_string());
                write!(
                    f,
                    "page {row}: width * height * channels is {expected} bytes, but its range \
                     of pixels holds {got}"
                )
            }
        }
    }
}

/// Check that the columns describe `len` bytes of pixels, page by page.
///
/// # Errors
/// The first inconsistency, in the order the reference checks them.
pub fn check(
    len: usize,
    offsets: &[usize],
    widths: &[usize],
    heights: &[usize],
    channels: &[usize],
) -> Result<(), BatchError> {
    let n = widths.len();
    if heights.len() != n || channels.len() != n || offsets.len() != n + 1 {
        return Err(BatchError::Columns {
            pages: n,
            offsets: offsets.len(),
        });
    }
    for row in 0..n {
        if widths[row] == 0 || heights[row] == 0 {
            return Err(BatchError::Empty { row });
        }
        if !matches!(channels[row], 1 | 3) {
            return Err(BatchError::Channels {
                row,
                channels: channels[row],
            });
        }
        let (lo, hi) = (offsets[row], offsets[row + 1]);
        if lo > hi || hi > len {
            return Err(BatchError::Range { row });
        }
        let expected = widths[row]
            .checked_mul(heights[row])
            .and_then(|a| a.checked_mul(channels[row]));
        if expected != Some(hi - lo) {
            return Err(BatchError::Size {
                row,
                expected,
                got: hi - lo,
            });
        }
    }
    Ok(())
}

/// The signatures of a batch of pages laid end to end in `pixels` (page `i` is
/// `pixels[offsets[i]..offsets[i + 1]]`).
///
/// # Errors
/// A [`BatchError`] when the columns do not describe the buffer (nothing is hashed then).
pub fn hashes(
    pixels: &[u8],
    offsets: &[usize],
    widths: &[usize],
    heights: &[usize],
    channels: &[usize],
) -> Result<Vec<Signature>, BatchError> {
    check(pixels.len(), offsets, widths, heights, channels)?;
    Ok((0..widths.len())
        .map(|i| {
            let page = &pixels[offsets[i]..offsets[i + 1]];
            signature(page, widths[i], heights[i], channels[i])
        })
        .collect())
}

/// Bits in which two equally long hashes differ.
#[must_use]
pub fn distance(left: &[u8], right: &[u8]) -> u64 {
    left.iter()
        .zip(right)
        .map(|(l, r)| u64::from((l ^ r).count_ones()))
        .sum()
}

/// The second-look thresholds of [`dedupe`].
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// The worst block must exceed `factor` times the 90th-percentile block ...
    pub factor: u64,
    /// ... plus `margin` gray levels per cell, for a pair to be different; ...
    pub margin: u64,
    /// ... or the 90th-percentile block more than `level` gray levels per cell.
    pub level: u64,
    /// The fine look: the worst block more than `fine_ratio / 100` times the reference (plus
    /// [`scale::SCALE_BIAS`]) for a pair to be different.
    pub fine_ratio: u64,
}

/// A page's preview (8-bit gray, row-major), from which the fine grid is made when the page is
/// in a near pair.
#[derive(Debug, Clone, Copy)]
pub struct Preview<'a> {
    /// `width * height` gray bytes.
    pub pixels: &'a [u8],
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// The check that kept a near pair apart (the hash was within `max_distance`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The two pages' texts share under half their words, or differ in a number changed digit
    /// for digit, a negation or the order of the same words ([`text_differs`]).
    Text,
    /// The second look at the detail grids.
    Grid,
    /// The fine look at the regions where the detail grids differ most.
    Fine,
}

impl Check {
    /// The name the record shows.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Grid => "grid",
            Self::Fine => "fine",
        }
    }
}

/// What [`dedupe`] decided, with the pairs the second look or the text check kept apart.
#[derive(Debug, Clone, PartialEq)]
pub struct PageDedupe {
    /// Duplicates and their similarity (`1 - distance / HASH_BITS`).
    pub dedupe: Dedupe,
    /// Per input: the earliest kept page whose hash was within `max_distance` but which the
    /// text check or the second look found different (`None` when there was none).
    pub near_of: Vec<Option<usize>>,
    /// Per input: `(distance, worst, typical)` of that pair (`worst` and `typical` are 0 when
    /// the text check decided: the second look did not run).
    pub near_look: Vec<Option<(u64, u64, u64)>>,
    /// Per input: which check kept that pair apart.
    pub near_check: Vec<Option<Check>>,
    /// Per input: the text check's reason (`"differs in '49' / '59'"`) when it decided.
    pub kept_because: Vec<Option<String>>,
}

/// The order check: two texts with the same words are different when more than this many of
/// their adjacent word pairs are not in the other text (moving one block of words elsewhere, a
/// caption read at another place, changes at most 3).
pub const ORDER_TOLERANCE: usize = 3;
/// Texts of more words than this are left to the pixels by the order check.
pub const ORDER_MAX_WORDS: usize = 100_000;

/// The words, sorted.
fn sorted_words(w: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = w.iter().map(String::as_str).collect();
    v.sort_unstable();
    v
}
/// The adjacent word pairs, sorted.
fn sorted_pairs(w: &[String]) -> Vec<(&str, &str)> {
    let mut v: Vec<(&str, &str)> = w
        .windows(2)
        .map(|p| (p[0].as_str(), p[1].as_str()))
        .collect();
    v.sort_unstable();
    v
}

/// The words of `t` (`crate::text::for_each_word`), or `None` when it has more than
/// [`ORDER_MAX_WORDS`] (the split stops there: a longer text is left to the pixels).
fn capped_words(t: &str) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for_each_word(t, |w| {
        if out.len() <= ORDER_MAX_WORDS {
            out.push(w.to_owned());
        }
    });
    (out.len() <= ORDER_MAX_WORDS).then_some(out)
}

/// Why texts whose words are `wa` and `wb`, with the same words (as a multiset, `crate::text::for_each_word`),
/// are different pages: more than [`ORDER_TOLERANCE`] of one text's adjacent word pairs are not
/// among the other's (counted with repeats). `None` when the words differ ([`text_differs`]
/// weighs those) or the order is the same or within the tolerance (texts of more than
/// [`ORDER_MAX_WORDS`] words never get here: [`capped_words`]). O(n log n) in the words.
fn order_differs(wa: &[String], wb: &[String]) -> Option<String> {
    if wa == wb {
        return None;
    }
    if sorted_words(wa) != sorted_words(wb) {
        return None;
    }
    let (pa, pb) = (sorted_pairs(wa), sorted_pairs(wb));
    let (mut moved, mut i, mut j) = (0usize, 0usize, 0usize);
    while i < pa.len() {
        if j == pb.len() || pa[i] < pb[j] {
            moved += 1;
            i += 1;
        } else if pa[i] == pb[j] {
            i += 1;
            j += 1;
        } else {
            j += 1;
        }
    }
    if moved <= ORDER_TOLERANCE {
        return None;
    }
    Some(format!(
        "the same words in another order ({moved} of {} word pairs differ)",
        pa.len()
    ))
}

/// A reading that differs from the other in more than this many words (counted with repeats,
/// both sides) is noisy: its numbers and negations are not evidence, the pixels decide.
pub const TEXT_NOISE: usize = 8;

/// The text check reads OCR text (two readings of copies of one page differ in a few
/// characters, and a figure reads as different garbage each time, so a word on one side only is
/// not evidence): texts that share fewer than [`TEXT_SHARE_NUM`] / [`TEXT_SHARE_DEN`] of the
/// distinct adjacent word pairs of the one with fewer, at least this many of them, are
/// different pages.
pub const TEXT_MIN_PAIRS: usize = 20;
/// See [`TEXT_MIN_PAIRS`].
pub const TEXT_SHARE_NUM: usize = 1;
/// See [`TEXT_MIN_PAIRS`].
pub const TEXT_SHARE_DEN: usize = 5;

/// A word holding an ASCII digit with its digits as `#` (`None` without a digit).
fn digit_shape(w: &str) -> Option<String> {
    w.bytes().any(|b| b.is_ascii_digit()).then(|| {
        w.chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect()
    })
}

/// The words of sorted `x` that it has more often than sorted `y`, sorted, once each, and by
/// how many occurrences in all.
fn excess<'w>(x: &[&'w str], y: &[&str]) -> (Vec<&'w str>, usize) {
    let mut out: Vec<&str> = Vec::new();
    let mut surplus = 0usize;
    let (mut i, mut j) = (0usize, 0usize);
    while i < x.len() {
        let word = x[i];
        let mut cx = 0usize;
        while i < x.len() && x[i] == word {
            cx += 1;
            i += 1;
        }
        while j < y.len() && y[j] < word {
            j += 1;
        }
        let mut cy = 0usize;
        while j < y.len() && y[j] == word {
            cy += 1;
            j += 1;
        }
        if cy < cx {
            out.push(word);
            surplus += cx - cy;
        }
    }
    (out, surplus)
}

/// Word `i` of `w` (`i` counted from 1, so 0 is before the first), `""` outside the text.
fn word_at(w: &[String], i: usize) -> &str {
    i.checked_sub(1)
        .and_then(|k| w.get(k))
        .map_or("", String::as_str)
}

/// Where word `i` of `w` (of digit shape `shape`) stands: `(shape, 0, the word before)` and
/// `(shape, 1, the word after)`, each only when that neighbour holds no digit (`""` at either
/// end counts: a table of numbers anchors nothing).
fn places<'w>(
    w: &'w [String],
    i: usize,
    shape: &'w str,
) -> impl Iterator<Item = (&'w str, u8, &'w str)> {
    [(0u8, word_at(w, i)), (1u8, word_at(w, i + 2))]
        .into_iter()
        .filter(|(_, n)| !n.bytes().any(|b| b.is_ascii_digit()))
        .map(move |(side, n)| (shape, side, n))
}

/// The smallest `(x, y)`: `x` a word of `xa` (`a`'s excess words) holding a digit, `y` one of
/// `xb` of the same digit shape, `x` at some place of `wa` and `y` at some place of `wb` after
/// the same word or before the same word (`""` at either end).
fn number_in_place<'w>(
    wa: &'w [String],
    wb: &'w [String],
    xa: &[&str],
    xb: &[&str],
) -> Option<(&'w str, &'w str)> {
    use std::collections::HashMap;
    let shaped = |x: &[&str]| -> HashMap<String, String> {
        x.iter()
            .filter_map(|w| digit_shape(w).map(|s| ((*w).to_owned(), s)))
            .collect()
    };
    let (da, db) = (shaped(xa), shaped(xb));
    if da.is_empty() || db.is_empty() {
        return None;
    }
    // (shape, side, neighbour) -> the smallest word of `b` there; side 0: the word before.
    let mut in_b: HashMap<(&str, u8, &str), &str> = HashMap::new();
    for (j, w) in wb.iter().enumerate() {
        if let Some(s) = db.get(w) {
            for key in places(wb, j, s) {
                let e = in_b.entry(key).or_insert(w.as_str());
                if w.as_str() < *e {
                    *e = w.as_str();
                }
            }
        }
    }
    let mut best: Option<(&str, &str)> = None;
    for (i, w) in wa.iter().enumerate() {
        if let Some(s) = da.get(w) {
            for key in places(wa, i, s) {
                if let Some(&y) = in_b.get(&key) {
                    let pair = (w.as_str(), y);
                    if best.is_none_or(|b| pair < b) {
                        best = Some(pair);
                    }
                }
            }
        }
    }
    best
}

/// The digit shapes of the occurrences sorted `x` has beyond sorted `y` (its excess words
/// `ex`), sorted; `None` when one of them holds no digit.
fn excess_shapes(x: &[&str], y: &[&str], ex: &[&str]) -> Option<Vec<String>> {
    let count = |v: &[&str], w: &str| {
        let lo = v.partition_point(|t| *t < w);
        v[lo..].iter().take_while(|t| **t == w).count()
    };
    let mut out = Vec::new();
    for w in ex {
        let shape = digit_shape(w)?;
        for _ in 0..count(x, w) - count(y, w) {
            out.push(shape.clone());
        }
    }
    out.sort_unstable();
    Some(out)
}

/// When every word the two texts differ in holds a digit and both sides' differing words have
/// the same shapes: the first excess word of `a` and the first of `b` of its shape.
fn numbers_for_numbers<'w>(
    sa: &[&str],
    sb: &[&str],
    xa: &[&'w str],
    xb: &[&'w str],
) -> Option<(&'w str, &'w str)> {
    let (ka, kb) = (excess_shapes(sa, sb, xa)?, excess_shapes(sb, sa, xb)?);
    if ka != kb || xa.is_empty() {
        return None;
    }
    let x = xa[0];
    let shape = digit_shape(x);
    let y = xb.iter().find(|w| digit_shape(w) == shape)?;
    Some((x, y))
}

/// A word in a reason: `'w'`, or `"w"` when it holds a `'`.
fn quoted(w: &str) -> String {
    if w.contains('\'') {
        format!("\"{w}\"")
    } else {
        format!("'{w}'")
    }
}

/// Why pages whose texts (OCR or extracted) are `a` and `b` are different, or `None` (the
/// pixels decide). The words are `crate::text::for_each_word`'s; the checks, in order: the same
/// words in the same order (`None`); the text with fewer distinct adjacent word pairs having at
/// least [`TEXT_MIN_PAIRS`] and sharing fewer than a fifth of them with the other (`"the texts
/// share k of n word pairs"`); then, only when the two
/// differ in at most [`TEXT_NOISE`] words: a number changed digit
/// for digit (a word holding a digit that `a` has more often than `b`, and one `b` has more
/// often than `a`, of the same shape: digits at the same places, the other characters equal;
/// `"differs in 'x' / 'y'"`, in place: after the same word or before the same word, that word
/// holding no digit (the smallest such pair), or anywhere when every word the two differ in
/// holds a digit and both sides' differing words have the same shapes); a
/// negation word more often on one side (`"differs in 'not'"`, the first sorted); then
/// [`order_differs`]. Any other difference (a word on one side only, a number that gained or
/// lost a digit) is what OCR makes of copies, and is left to the pixels, as is a pair with a
/// text of more than [`ORDER_MAX_WORDS`] words. O(n log n) in the words.
#[must_use]
pub fn text_differs(a: &str, b: &str) -> Option<String> {
    if a == b {
        return None;
    }
    // Too long to weigh per pair: the pixels decide.
    let (wa, wb) = (capped_words(a)?, capped_words(b)?);
    if wa == wb {
        return None;
    }
    let (sa, sb) = (sorted_words(&wa), sorted_words(&wb));
    let (mut pa, mut pb) = (sorted_pairs(&wa), sorted_pairs(&wb));
    pa.dedup();
    pb.dedup();
    let fewer = pa.len().min(pb.len());
    if fewer >= TEXT_MIN_PAIRS {
        let (mut shared, mut i, mut j) = (0usize, 0usize, 0usize);
        while i < pa.len() && j < pb.len() {
            match pa[i].cmp(&pb[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    shared += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        if shared * TEXT_SHARE_DEN < fewer * TEXT_SHARE_NUM {
            return Some(format!("the texts share {shared} of {fewer} word pairs"));
        }
    }
    let ((xa, na), (xb, nb)) = (excess(&sa, &sb), excess(&sb, &sa));
    if na + nb > TEXT_NOISE {
        return None; // a noisy reading (so other words too): the pixels decide
    }
    if let Some((x, y)) = numbers_for_numbers(&sa, &sb, &xa, &xb) {
        return Some(format!("differs in {} / {}", quoted(x), quoted(y)));
    }
    if let Some((x, y)) = number_in_place(&wa, &wb, &xa, &xb) {
        return Some(format!("differs in {} / {}", quoted(x), quoted(y)));
    }
    let mut both: Vec<&str> = xa.iter().chain(xb.iter()).copied().collect();
    both.sort_unstable();
    if let Some(w) = both.iter().find(|w| NEGATIONS.contains(w)) {
        return Some(format!("differs in {}", quoted(w)));
    }
    order_differs(&wa, &wb)
}

/// Greedy first-copy-wins dedupe of page signatures (all `SIGNATURE_BYTES` long; the binding
/// checks it): a page duplicates the earliest kept page whose hash is within `max_distance` bits
/// and which neither the text check nor the second look finds different.
///
/// `texts` (one per page, `""` for a page without text): when both pages of a near pair have
/// text, the text check ([`text_differs`]) runs first; a pair it keeps is different whatever
/// the pixels say; any other pair goes on to the pixels.
///
/// `previews` (one per page, `None` for a page without): a near pair that the second look finds
/// alike gets the fine look ([`scale::scale_look`]) when both
/// have a preview; the fine grids are made when a page is first in such a pair, once per call
/// for at most [`FINE_CACHE`] pages at a time (a dropped page's is freed; past the cap a grid is
/// made again for each pair), so memory stays bounded whatever the number of pages.
#[must_use]
pub fn dedupe<H: AsRef<[u8]>, S: AsRef<str>>(
    signatures: &[H],
    max_distance: u64,
    look: Look,
    texts: Option<&[S]>,
    previews: Option<&[Option<Preview<'_>>]>,
) -> PageDedupe {
    dedupe_capped(signatures, max_distance, look, texts, previews, FINE_CACHE)
}

/// Makes page `j`'s fine grid if `fine` lacks it: kept in `fine` while fewer than `cap` are
/// (`cached` counts them), else returned for this pair alone.
fn fine_of(
    fine: &mut [Option<Vec<u8>>],
    cached: &mut usize,
    cap: usize,
    j: usize,
    p: Preview<'_>,
) -> Option<Vec<u8>> {
    if fine[j].is_some() {
        return None;
    }
    let grid = fine_grid(p.pixels, p.width, p.height, 1);
    if *cached < cap {
        fine[j] = Some(grid);
        *cached += 1;
        None
    } else {
        Some(grid)
    }
}

/// [`dedupe`] with at most `cap` fine grids kept at a time (the tests check that the cap
/// changes no decision).
fn dedupe_capped<H: AsRef<[u8]>, S: AsRef<str>>(
    signatures: &[H],
    max_distance: u64,
    look: Look,
    texts: Option<&[S]>,
    previews: Option<&[Option<Preview<'_>>]>,
    cap: usize,
) -> PageDedupe {
    let n = signatures.len();
    let mut out = PageDedupe {
        dedupe: Dedupe::new(n),
        near_of: vec![None; n],
        near_look: vec![None; n],
        near_check: vec![None; n],
        kept_because: vec![None; n],
    };
    let has_text = |i: usize| texts.is_some_and(|t| !t[i].as_ref().is_empty());
    let preview = |i: usize| previews.and_then(|p| p[i]);
    let mut fine: Vec<Option<Vec<u8>>> = vec![None; n];
    let mut cached = 0usize; // grids in `fine`, at most `cap`
    let mut kept: Vec<usize> = Vec::new();
    for (i, s) in signatures.iter().enumerate() {
        let s = s.as_ref();
        for &k in &kept {
            let t = signatures[k].as_ref();
            let d = distance(&s[..HASH_BYTES], &t[..HASH_BYTES]);
            if d > max_distance {
                continue;
            }
            let both_text = has_text(i) && has_text(k);
            if both_text {
                let why = texts.and_then(|t| text_differs(t[k].as_ref(), t[i].as_ref()));
                if let Some(why) = why {
                    if out.near_of[i].is_none() {
                        out.near_of[i] = Some(k);
                        out.near_look[i] = Some((d, 0, 0));
                        out.near_check[i] = Some(Check::Text);
                        out.kept_because[i] = Some(why);
                    }
                    continue;
                }
            }
            let scores = look_scores(&t[HASH_BYTES..], &s[HASH_BYTES..]);
            let (different, worst, typical) = judge(&scores, look);
            if different {
                if out.near_of[i].is_none() {
                    out.near_of[i] = Some(k);
                    out.near_look[i] = Some((d, worst, typical));
                    out.near_check[i] = Some(Check::Grid);
                }
                continue;
            }
            if let (Some(pk), Some(pi)) = (preview(k), preview(i)) {
                let spare_k = fine_of(&mut fine, &mut cached, cap, k, pk);
                let spare_i = fine_of(&mut fine, &mut cached, cap, i, pi);
                let fk = fine[k].as_deref().or(spare_k.as_deref());
                let fi = fine[i].as_deref().or(spare_i.as_deref());
                if let (Some(fk), Some(fi)) = (fk, fi) {
                    let got = scale::scale_look(pk, fk, pi, fi, look.fine_ratio);
                    if got.different {
                        if out.near_of[i].is_none() {
                            out.near_of[i] = Some(k);
                            out.near_look[i] = Some((d, got.worst, got.reference));
                            out.near_check[i] = Some(Check::Fine);
                        }
                        continue;
                    }
                }
            }
            out.dedupe.duplicate_of[i] = Some(k);
            out.dedupe.similarity[i] = Some(1.0 - d as f64 / HASH_BITS as f64);
            break;
        }
        if out.dedupe.duplicate_of[i].is_none() {
            kept.push(i);
        } else if fine[i].take().is_some() {
            cached -= 1; // a dropped page is never compared again
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` x `h` gray page: white, with black text-like dashes in the rectangle `(x0, y0)`
    /// to `(x1, y1)` on every third row and column pattern of `seed`.
    fn page(w: usize, h: usize, rect: [usize; 4], seed: usize) -> Vec<u8> {
        let [x0, y0, x1, y1] = rect;
        let mut px = vec![255u8; w * h];
        for y in y0..y1 {
            for x in x0..x1 {
                if (y / 3).is_multiple_of(2)
                    && !((x / 5) * 7 + (y / 6) * 3 + seed).is_multiple_of(4)
                {
                    px[y * w + x] = 0;
                }
            }
        }
        px
    }

    #[test]
    fn luma_keeps_white_and_black_and_weights_green_most() {
        assert_eq!(luma(255, 255, 255), 255);
        assert_eq!(luma(0, 0, 0), 0);
        assert_eq!(luma(255, 0, 0), 76);
        assert_eq!(luma(0, 255, 0), 150);
        assert_eq!(luma(0, 0, 255), 29);
    }

    #[test]
    fn spans_tile_a_large_side_and_never_empty_on_a_small_one() {
        let mut next = 0;
        for k in 0..DETAIL {
            let (lo, hi) = span(k, DETAIL, 1000);
            assert_eq!(lo, next);
            next = hi;
        }
        assert_eq!(next, 1000);
        for k in 0..DETAIL {
            let (lo, hi) = span(k, DETAIL, 5);
            assert!(lo < hi && hi <= 5);
        }
    }

    #[test]
    fn the_content_box_trims_margins_and_a_blank_page_is_whole() {
        let px = page(300, 400, [40, 50, 260, 350], 0);
        assert_eq!(content_box(&px, 300, 400, 1), [50, 350, 40, 260]);
        assert_eq!(content_box(&[255; 100], 10, 10, 1), [0, 10, 0, 10]);
        // One ink pixel is not content (MIN_INK is 2).
        let mut px = vec![255u8; 100];
        px[55] = 0;
        assert_eq!(content_box(&px, 10, 10, 1), [0, 10, 0, 10]);
    }

    #[test]
    fn a_wider_margin_gives_the_same_signature() {
        let a = page(300, 400, [40, 50, 260, 350], 1);
        // The same content 30 px further right and 20 px lower on a larger sheet.
        let mut b = vec![255u8; 340 * 440];
        for y in 0..400 {
            b[(y + 20) * 340 + 30..(y + 20) * 340 + 330]
                .copy_from_slice(&a[y * 300..(y + 1) * 300]);
        }
        assert_eq!(signature(&a, 300, 400, 1), signature(&b, 340, 440, 1));
    }

    #[test]
    fn rgb_hashes_like_its_gray() {
        let rgb: Vec<u8> = (0..140 * 137 * 3u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect();
        let gray: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| luma(p[0], p[1], p[2]))
            .collect();
        assert_eq!(signature(&rgb, 140, 137, 3), signature(&gray, 140, 137, 1));
    }

    #[test]
    fn a_one_pixel_page_has_a_signature() {
        let s = signature(&[7], 1, 1, 1);
        assert_eq!(s.len(), SIGNATURE_BYTES);
        assert!(s[HASH_BYTES..].iter().all(|&v| v == 7));
    }

    #[test]
    fn the_fine_grid_weighs_each_pixel_by_its_overlap() {
        // All ink, so the content box is the page; cell 170 of a row is 2/3 pixel 0, 1/3 pixel 1.
        let g = fine_grid(&[0, 90, 150, 30, 60, 120], 3, 2, 1);
        assert_eq!(g.len(), FINE * FINE);
        assert_eq!((g[0], g[169], g[170], g[171], g[511]), (0, 0, 30, 90, 150));
        assert_eq!((g[256 * FINE], g[FINE * FINE - 1]), (30, 120));
    }

    /// One preview per page, all `w` x `h` gray.
    fn previews_of<'a>(
        pages: impl Iterator<Item = &'a [u8]>,
        w: usize,
        h: usize,
    ) -> Vec<Option<Preview<'a>>> {
        pages
            .map(|pixels| {
                Some(Preview {
                    pixels,
                    width: w,
                    height: h,
                })
            })
            .collect()
    }

    #[test]
    fn the_fine_look_keeps_one_changed_glyph_apart_that_the_second_look_lets_pass() {
        let (w, h) = (1200, 1500);
        let a = page(w, h, [100, 120, 1100, 1380], 2);
        // Noise on the ink (a noise floor on the white would move the profiles' best box).
        let mut noisy = a.clone();
        for (i, p) in noisy.iter_mut().enumerate() {
            *p = p.saturating_add((i * 2_654_435_761 % 7) as u8);
        }
        let mut edit = noisy.clone();
        for y in 700..710 {
            for x in 500..508 {
                edit[y * w + x] = 255 - edit[y * w + x];
            }
        }
        let pages = [&a, &noisy, &edit];
        let sigs: Vec<Signature> = pages.iter().map(|p| signature(p, w, h, 1)).collect();
        let views = previews_of(pages.iter().map(|p| p.as_slice()), w, h);
        let without = dedupe(&sigs, HASH_BITS as u64, LOOK, None::<&[&str]>, None);
        assert_eq!(without.dedupe.duplicate_of, [None, Some(0), Some(0)]);
        let with = dedupe(&sigs, HASH_BITS as u64, LOOK, None::<&[&str]>, Some(&views));
        assert_eq!(with.dedupe.duplicate_of, [None, Some(0), None]);
        assert_eq!(with.near_check[2], Some(Check::Fine));
    }

    #[test]
    fn the_fine_grid_cap_changes_no_decision() {
        let (w, h) = (600, 750);
        let a = page(w, h, [50, 60, 550, 690], 2);
        let mut pages = vec![a.clone()];
        for e in 0..5usize {
            let mut edit = a.clone();
            for y in 300 + 40 * e..305 + 40 * e {
                for x in 250..254 {
                    edit[y * w + x] = 255 - edit[y * w + x];
                }
            }
            pages.push(edit);
            pages.push(a.clone());
        }
        let sigs: Vec<Signature> = pages.iter().map(|p| signature(p, w, h, 1)).collect();
        let views = previews_of(pages.iter().map(Vec::as_slice), w, h);
        let bits = HASH_BITS as u64;
        let full = dedupe(&sigs, bits, LOOK, None::<&[&str]>, Some(&views));
        assert!(full.near_check.contains(&Some(Check::Fine)));
        for cap in [0, 1, 2] {
            let got = dedupe_capped(&sigs, bits, LOOK, None::<&[&str]>, Some(&views), cap);
            assert_eq!(
                got.dedupe.duplicate_of, full.dedupe.duplicate_of,
                "cap {cap}"
            );
            assert_eq!(got.near_of, full.near_of, "cap {cap}");
            assert_eq!(got.near_look, full.near_look, "cap {cap}");
            assert_eq!(got.near_check, full.near_check, "cap {cap}");
        }
    }

    #[test]
    fn the_cosine_table_is_the_rounded_cosine() {
        for (u, row) in COS.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let f =
                    4096.0 * ((2 * x + 1) as f64 * u as f64 * std::f64::consts::PI / 64.0).cos();
                assert_eq!(c, f.round() as i64, "u={u} x={x}");
            }
        }
    }

    #[test]
    fn batch_checks_its_columns() {
        let px = vec![0u8; 12];
        assert!(hashes(&px, &[0, 4, 12], &[2, 2], &[2, 2], &[1, 1]).is_err());
        assert_eq!(
            hashes(&px, &[0, 4, 12], &[2, 2], &[2, 2], &[1, 2]),
            Err(BatchError::Channels {
                row: 1,
                channels: 2
            })
        );
        assert_eq!(
            hashes(&px, &[0, 4, 16], &[2, 2], &[2, 2], &[1, 3]),
            Err(BatchError::Range { row: 1 })
        );
        assert_eq!(
            hashes(&px, &[0, 4], &[2, 2], &[2, 2], &[1, 1]),
            Err(BatchError::Columns {
                pages: 2,
                offsets: 2
            })
        );
        let ok = hashes(&px, &[0, 4, 4, 12], &[2, 1, 2], &[2, 0, 4], &[1, 1, 1]);
        assert_eq!(ok, Err(BatchError::Empty { row: 1 }));
        assert_eq!(
            hashes(&px, &[0, 4, 12], &[2, 2], &[2, 4], &[1, 1]).map(|h| h.len()),
            Ok(2)
        );
    }

    const LOOK: Look = Look {
        factor: DEFAULT_FACTOR,
        margin: DEFAULT_MARGIN,
        level: DEFAULT_LEVEL,
        fine_ratio: DEFAULT_FINE_RATIO,
    };

    #[test]
    fn a_copy_is_dropped_and_one_changed_block_is_kept_by_the_second_look() {
        let a = page(400, 500, [40, 50, 360, 450], 2);
        // Noise on the ink (a noise floor on the white would move the profiles' best box).
        let mut noisy = a.clone();
        for (i, p) in noisy.iter_mut().enumerate() {
            *p = p.saturating_add((i * 2_654_435_761 % 7) as u8);
        }
        let mut edit = a.clone();
        for y in 200..212 {
            for x in 150..170 {
                edit[y * 400 + x] = if edit[y * 400 + x] == 0 { 255 } else { 0 };
            }
        }
        let sigs: Vec<Signature> = [&a, &noisy, &edit]
            .iter()
            .map(|p| signature(p, 400, 500, 1))
            .collect();
        // Every hash passes: the second look decides.
        let d = dedupe(&sigs, HASH_BITS as u64, LOOK, None::<&[&str]>, None);
        assert_eq!(d.dedupe.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.near_of, [None, None, Some(0)]);
        assert!(!second_look(&sigs[0][HASH_BYTES..], &sigs[1][HASH_BYTES..], LOOK).0);
        assert!(d.near_look[2].is_some_and(|(_, worst, typical)| worst > 4 * typical + 64));
    }

    #[test]
    fn the_text_check_reads_ocr_noise_as_noise_and_a_changed_number_as_a_difference() {
        assert_eq!(
            text_differs("Pro plan: $49 per month.", "Pro plan: $59 per month."),
            Some("differs in '49' / '59'".to_owned())
        );
        assert_eq!(
            text_differs("Encoding latin1, 4.58 s.", "Encoding latin1i, 4.5s s."),
            None
        );
        assert_eq!(
            text_differs("Table 11 of the report", "Table 1 of the report"),
            None
        );
        assert_eq!(text_differs("x 11 y and oi z", "x 1 y and 04 z"), None);
        assert_eq!(
            text_differs("2.5 3.5 4.5", "2.5 7.0 4.5"),
            Some("differs in '3' / '0'".to_owned())
        );
        assert_eq!(
            text_differs("The cache is shared.", "The cache is not shared."),
            Some("differs in 'not'".to_owned())
        );
        let a = (0..30).fold(String::new(), |t, k| {
            t + "alpha" + &k.to_string() + " beta "
        });
        let b = (0..30).fold(String::new(), |t, k| {
            t + "gamma" + &k.to_string() + " beta "
        });
        assert_eq!(
            text_differs(&a, &b),
            Some("the texts share 0 of 59 word pairs".to_owned())
        );
    }

    #[test]
    fn dedupe_is_greedy_first_copy_wins() {
        let blank = |v: u8| {
            let mut s = vec![0u8; SIGNATURE_BYTES];
            s[HASH_BYTES..].fill(v);
            s
        };
        let a = blank(200);
        let mut b = blank(200);
        b[0] = 0b1000_0000; // 1 bit from a
        let mut c = blank(200);
        c[0] = 0xff; // 8 bits from a, 7 from b
        let d = dedupe(&[&a, &b, &c], 1, LOOK, None::<&[&str]>, None);
        assert_eq!(d.dedupe.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.dedupe.similarity, [None, Some(1.0 - 1.0 / 256.0), None]);
        let d = dedupe(&[&a, &c, &b], 7, LOOK, None::<&[&str]>, None);
        // b is within 1 of a and 7 of c: the earlier kept item (a) wins.
        assert_eq!(d.dedupe.duplicate_of, [None, None, Some(0)]);
        assert_eq!(distance(&[0xff; 9], &[0; 9]), 72);
    }

    #[test]
    fn texts_that_differ_in_a_number_keep_a_pixel_copy_apart() {
        let a = page(400, 500, [40, 50, 360, 450], 3);
        let sig = signature(&a, 400, 500, 1);
        let sigs = [&sig, &sig, &sig, &sig];
        let texts = [
            "Total: 49 units.",
            "Total: 59 units.",
            "",
            "Total: 49 units.",
        ];
        let d = dedupe(&sigs, 66, LOOK, Some(&texts[..]), None);
        // Page 1's text differs in a number; page 2 has no text (the pixels decide); page 3's
        // text is page 0's.
        assert_eq!(d.dedupe.duplicate_of, [None, None, Some(0), Some(0)]);
        assert_eq!(d.near_of, [None, Some(0), None, None]);
        assert_eq!(d.near_check[1], Some(Check::Text));
        assert_eq!(d.near_look[1], Some((0, 0, 0)));
        assert_eq!(d.kept_because[1].as_deref(), Some("differs in '49' / '59'"));
    }

    #[test]
    fn the_same_words_in_another_order_keep_a_pixel_copy_apart() {
        let a = page(400, 500, [40, 50, 360, 450], 3);
        let sig = signature(&a, 400, 500, 1);
        let sigs = [&sig, &sig, &sig];
        let texts = [
            "Sales rose in May, then fell.",
            "Then sales fell in May, rose.",
            "then fell. Sales rose in May,",
        ];
        let d = dedupe(&sigs, 66, LOOK, Some(&texts[..]), None);
        // Page 1's words are page 0's in another order; page 2 moves one block of them (within
        // the tolerance: a copy).
        assert_eq!(d.dedupe.duplicate_of, [None, None, Some(0)]);
        assert_eq!(d.near_check[1], Some(Check::Text));
        assert_eq!(
            d.kept_because[1].as_deref(),
            Some("the same words in another order (4 of 5 word pairs differ)")
        );
        let order = |a: &str, b: &str| order_differs(&capped_words(a)?, &capped_words(b)?);
        assert_eq!(order("a b c", "a b c d e f"), None);
        assert_eq!(order("A b, c.", "a B c"), None);
    }
}
