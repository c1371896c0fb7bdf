//! Perceptual hashes of page images, and greedy dedupe of pages by Hamming distance.
//!
//! The hash is a difference hash (dHash) over a fixed box downscale, in integer arithmetic only,
//! so that `briefpack.reference.pages` computes the same bits from the same pixels:
//!
//! 1. **Gray.** A pixel with one channel is its own gray value; an RGB pixel is
//!    `(19595 R + 38470 G + 7471 B + 32768) >> 16`, ITU-R 601 luma in 16-bit fixed point (the
//!    weights sum to 65536, so white stays 255; it is also what Pillow's `convert("L")` computes).
//! 2. **Box downscale** to a grid of 33 columns x 32 rows: cell `(i, j)` covers the rows
//!    `y0 = i*H/32 .. max(y0+1, (i+1)*H/32)` and the columns `x0 = j*W/33 .. max(x0+1,
//!    (j+1)*W/33)` (`/` rounds down); its value is the floor of the mean gray over those pixels.
//!    The cells tile the page when it is at least 33x32; on a smaller page neighbouring cells
//!    share pixels.
//! 3. **Bits.** Bit `k = 32 i + j` (`i`, `j` in 0..32) is set when cell `(i, j)` is brighter
//!    than its right neighbour `(i, j+1)`; the 1024 bits are packed most significant bit first
//!    into 128 bytes.
//!
//! Two pages are duplicates when their hashes differ in at most `max_distance` bits; the
//! similarity reported is `1 - distance / bits`. Dedupe walks the pages in rank order and
//! compares each with the pages already kept: the first copy wins, so a duplicate never evicts
//! what outranked it.
//!
//! Why this hash: a DCT hash (pHash) needs floating point whose results must match bit for bit
//! in both backends; a difference hash over an integer box average needs none. A 64-bit dHash
//! (9x8) cannot tell two text pages of one layout apart from a re-encoded copy: at that scale a
//! cell averages several lines of text, and re-encoding, 1-3 px shifts or rescaling flip as many
//! bits as different words do. On generated text pages the 33x32 grid kept the worst near-copy
//! well below the closest different page (`docs/pages.md` has the tuning and the held-out
//! numbers). A scale change of the whole page is absorbed by the downscale to a fixed grid.
//!
//! Cost: one pass over the pixels (each row is added into per-column sums of its grid row, then
//! each cell sums its columns), O(W H) time and O(W) memory; dedupe is O(n * kept) XOR-popcounts
//! of 128 bytes.

#[cfg(feature = "python")]
pub mod py;

use crate::dedupe::Dedupe;

/// Grid columns of the downscale (one more than the bits per row: each bit compares two cells).
pub const GRID_COLS: usize = 33;
/// Grid rows of the downscale.
pub const GRID_ROWS: usize = 32;
/// Bits in a page hash.
pub const HASH_BITS: usize = GRID_ROWS * (GRID_COLS - 1);
/// Bytes in a page hash.
pub const HASH_BYTES: usize = HASH_BITS / 8;

/// The default `max_distance` of [`dedupe`], in bits (see `docs/pages.md` for how it was chosen).
pub const DEFAULT_MAX_DISTANCE: u64 = 81;

/// A page hash: 1024 bits, most significant bit first.
pub type PageHash = [u8; HASH_BYTES];

/// ITU-R 601 luma of an RGB pixel in 16-bit fixed point, rounded to nearest.
#[must_use]
#[inline]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((19595 * u32::from(r) + 38470 * u32::from(g) + 7471 * u32::from(b) + 32768) >> 16) as u8
}

/// The half-open range of source indices that grid cell `k` of `cells` covers on a side of
/// length `len` (at least one index, even when `len < cells`).
#[inline]
fn span(k: usize, cells: usize, len: usize) -> (usize, usize) {
    let lo = k * len / cells;
    let hi = ((k + 1) * len / cells).max(lo + 1);
    (lo, hi)
}

/// The box-downscaled gray grid of one page, row-major (`GRID_ROWS` x `GRID_COLS`).
///
/// `pixels` holds `width * height * channels` bytes, row-major, channels interleaved;
/// `channels` is 1 (gray) or 3 (RGB). The caller guarantees the sizes ([`check`] does).
#[must_use]
pub fn grid(pixels: &[u8], width: usize, height: usize, channels: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(GRID_ROWS * GRID_COLS);
    let mut colsum = vec![0u64; width];
    let mut gray = vec![0u8; if channels == 1 { 0 } else { width }];
    let stride = width * channels;
    for i in 0..GRID_ROWS {
        let (y0, y1) = span(i, GRID_ROWS, height);
        colsum.fill(0);
        for y in y0..y1 {
            let row = &pixels[y * stride..(y + 1) * stride];
            let row: &[u8] = if channels == 1 {
                row
            } else {
                for (g, px) in gray.iter_mut().zip(row.chunks_exact(3)) {
                    *g = luma(px[0], px[1], px[2]);
                }
                &gray
            };
            for (c, &p) in colsum.iter_mut().zip(row) {
                *c += u64::from(p);
            }
        }
        let rows = (y1 - y0) as u64;
        for j in 0..GRID_COLS {
            let (x0, x1) = span(j, GRID_COLS, width);
            let sum: u64 = colsum[x0..x1].iter().sum();
            // A mean of bytes is at most 255.
            out.push((sum / (rows * (x1 - x0) as u64)) as u8);
        }
    }
    out
}

/// The perceptual hash of one page (see the module doc).
#[must_use]
pub fn hash(pixels: &[u8], width: usize, height: usize, channels: usize) -> PageHash {
    let g = grid(pixels, width, height, channels);
    let mut out = [0u8; HASH_BYTES];
    for i in 0..GRID_ROWS {
        for j in 0..GRID_COLS - 1 {
            if g[i * GRID_COLS + j] > g[i * GRID_COLS + j + 1] {
                let k = i * (GRID_COLS - 1) + j;
                out[k / 8] |= 0x80 >> (k % 8);
            }
        }
    }
    out
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

/// The hashes of a batch of pages laid end to end in `pixels` (page `i` is
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
) -> Result<Vec<PageHash>, BatchError> {
    check(pixels.len(), offsets, widths, heights, channels)?;
    Ok((0..widths.len())
        .map(|i| {
            let page = &pixels[offsets[i]..offsets[i + 1]];
            hash(page, widths[i], heights[i], channels[i])
        })
        .collect())
}

/// Bits in which two equally long hashes differ.
#[must_use]
pub fn distance(left: &[u8], right: &[u8]) -> u64 {
    let mut bits = 0u64;
    let mut words_l = left.chunks_exact(8);
    let mut words_r = right.chunks_exact(8);
    for (l, r) in words_l.by_ref().zip(words_r.by_ref()) {
        let l = u64::from_ne_bytes(l.try_into().unwrap_or([0; 8]));
        let r = u64::from_ne_bytes(r.try_into().unwrap_or([0; 8]));
        bits += u64::from((l ^ r).count_ones());
    }
    for (l, r) in words_l.remainder().iter().zip(words_r.remainder()) {
        bits += u64::from((l ^ r).count_ones());
    }
    bits
}

/// Greedy first-copy-wins dedupe: a page whose hash is within `max_distance` bits of a kept
/// page's duplicates the earliest such page. All hashes have the same non-zero length (the
/// binding checks it).
#[must_use]
pub fn dedupe<H: AsRef<[u8]>>(hashes: &[H], max_distance: u64) -> Dedupe {
    let mut out = Dedupe::new(hashes.len());
    let mut kept: Vec<usize> = Vec::new();
    for (i, h) in hashes.iter().enumerate() {
        let h = h.as_ref();
        let bits = (h.len() * 8) as f64;
        for &k in &kept {
            let d = distance(h, hashes[k].as_ref());
            if d <= max_distance {
                out.duplicate_of[i] = Some(k);
                out.similarity[i] = Some(1.0 - d as f64 / bits);
                break;
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

    /// A `w` x `h` gray page: white with a dark band over the left `dark` columns.
    fn page(w: usize, h: usize, dark: usize) -> Vec<u8> {
        (0..h)
            .flat_map(|_| (0..w).map(move |x| if x < dark { 0 } else { 255 }))
            .collect()
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
        for k in 0..GRID_COLS {
            let (lo, hi) = span(k, GRID_COLS, 100);
            assert_eq!(lo, next);
            next = hi;
        }
        assert_eq!(next, 100);
        for k in 0..GRID_COLS {
            let (lo, hi) = span(k, GRID_COLS, 5);
            assert!(lo < hi && hi <= 5);
        }
    }

    #[test]
    fn a_flat_page_hashes_to_zero_and_an_edge_sets_one_bit_per_row() {
        assert_eq!(hash(&page(66, 64, 0), 66, 64, 1), [0; HASH_BYTES]);
        // Dark on the left (x < 33): cells go dark, half (cell 16), bright: never brighter
        // than their right neighbour, so no bit.
        assert_eq!(hash(&page(66, 64, 33), 66, 64, 1), [0; HASH_BYTES]);
        // Bright left of dark: an inverted page sets bit 15 of every row (cell 15 > cell 16).
        let inv: Vec<u8> = page(66, 64, 32).iter().map(|p| 255 - p).collect();
        let h = hash(&inv, 66, 64, 1);
        for i in 0..GRID_ROWS {
            let k = i * 32 + 15;
            assert_eq!(h[k / 8], 0x80 >> (k % 8), "row {i}");
        }
    }

    #[test]
    fn rgb_hashes_like_its_gray() {
        let rgb: Vec<u8> = (0..40 * 37 * 3u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect();
        let gray: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| luma(p[0], p[1], p[2]))
            .collect();
        assert_eq!(hash(&rgb, 40, 37, 3), hash(&gray, 40, 37, 1));
    }

    #[test]
    fn a_one_pixel_page_hashes() {
        assert_eq!(hash(&[7], 1, 1, 1), [0; HASH_BYTES]);
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

    #[test]
    fn dedupe_is_greedy_first_copy_wins() {
        let a = [0u8; 4];
        let b = [0b1000_0000u8, 0, 0, 0]; // 1 bit from a
        let c = [0xffu8, 0, 0, 0]; // 8 bits from a, 7 from b
        let d = dedupe(&[a, b, c], 1);
        assert_eq!(d.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.similarity, [None, Some(1.0 - 1.0 / 32.0), None]);
        let d = dedupe(&[a, c, b], 7);
        // b is within 1 of a and 7 of c: the earlier kept item (a) wins.
        assert_eq!(d.duplicate_of, [None, None, Some(0)]);
        assert_eq!(distance(&[0xff; 9], &[0; 9]), 72);
    }
}
