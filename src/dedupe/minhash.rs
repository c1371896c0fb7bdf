//! `MinHash` + LSH near duplicates, bit-identical to `reference.dedupe.dedupe_minhash`.
//!
//! Algorithm:
//! * A word hashes to FNV-1a 64 of its (lowercased) UTF-8 bytes; a shingle of `k` consecutive
//!   word hashes `w1..wk` hashes to `h = 0; h = splitmix64(h ^ w)` for each `w`. A text with
//!   fewer words than `shingle` (but at least one) is one shingle of all its words; a text with
//!   no words has no shingles: never a duplicate, never the item one duplicates.
//! * Permutation `i` maps `x` to `(a_i * x + b_i) mod (2^61 - 1)`, with `(a_i, b_i)` drawn from
//!   a `SplitMix64` stream seeded by `seed`; the signature is the per-permutation minimum.
//! * Bands `b` and rows `r` with `b * r = num_perm` minimise `|(1/b)^(1/r) - threshold|`
//!   (ties: more bands). Items are walked in rank order; the candidates of an item are the kept
//!   items that share at least one whole band with it, checked in rank order; the first whose
//!   estimate (equal minimums / `num_perm`) is `>= threshold` is the one it duplicates.
//!
//! * An item whose shingle set equals an earlier item's takes that item's decision without a
//!   signature: the same signature meets the same band matches and estimates against every
//!   slot that existed when the earlier item was decided, so it duplicates what that item
//!   duplicated (same estimate), or that item itself (estimate 1) when it was kept. The set
//!   is found by an order-free key and confirmed by comparing the sets.
//!
//! Invariants: first copy wins; a band match found through a hash of the band is confirmed by
//! comparing the band's rows, so a hash collision never makes a candidate; the fast paths
//! (AVX2 kernel, filter, reuse of repeated sets) change no decision (proptests against the
//! portable loop, the `check_file` corpus check, and the Python parity suites).
//!
//! Complexity: O(words * shingle) to hash, O(distinct shingles * `num_perm`) per signature,
//! O(bands) look-ups plus O(`num_perm`) per candidate.
//!
//! Measurements and the history of these choices: `docs/performance.md`, the `MinHash` section.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::guard::{Accept, Guard, NoGuard, Saved};
use super::Dedupe;
use crate::text::{fnv1a64, for_each_word, mix64, splitmix64, GOLDEN_GAMMA};

/// The Mersenne prime 2^61 - 1 of the permutations.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// `x mod (2^61 - 1)` for any u64.
#[inline]
fn reduce64(x: u64) -> u64 {
    let r = (x & MERSENNE_61) + (x >> 61);
    if r >= MERSENNE_61 {
        r - MERSENNE_61
    } else {
        r
    }
}

/// `(a * x + b) mod (2^61 - 1)` for `a, b, x < 2^61 - 1` (`x` already reduced).
#[inline]
fn permute(mul: u64, add: u64, x: u64) -> u64 {
    let wide = u128::from(mul) * u128::from(x) + u128::from(add); // < 2^122 + 2^61
    let r = (wide as u64 & MERSENNE_61) + (wide >> 61) as u64; // < 2^62 + 1
    let r = (r & MERSENNE_61) + (r >> 61); // <= p + 2
                                           // r - p when r >= p, else r, without a compare: with t = r + 1 <= 2^61 + 2, t >> 61 is
                                           // 1 exactly when r >= p, and then t & p = r - p + 1.
    let t = r + 1;
    (t & MERSENNE_61) + (t >> 61) - 1
}

/// The signature of a set of shingle hashes: per permutation, the minimum image.
///
/// Written without compares (the min by the sign of a difference: all values are below
/// 2^62): LLVM vectorises the loop for SSE2 around the scalar 64x64->128 multiplies, and
/// SSE2 has no 64-bit compare, which it would emulate at ~10 instructions each. The portable
/// path, and the one the AVX2 path is tested against.
fn signature_portable(hashes: &[u64], pa: &[u64], pb: &[u64], sig: &mut [u64]) {
    sig.fill(u64::MAX >> 2);
    for &x in hashes {
        let x = reduce64(x);
        for ((s, &a), &b) in sig.iter_mut().zip(pa).zip(pb) {
            let v = permute(a, b, x);
            let keep = (s.wrapping_sub(v).cast_signed() >> 63).cast_unsigned(); // ones iff *s < v
            *s = (v & !keep) | (*s & keep);
        }
    }
}

/// Reusable buffers of the AVX2 kernel's filter: per permutation the 32-bit bound a new
/// minimum's key stays under, and per shingle and group of 8 permutations a candidate mask.
#[derive(Default)]
struct Scratch {
    #[cfg(target_arch = "x86_64")]
    bound: Vec<u32>,
    #[cfg(target_arch = "x86_64")]
    hits: Vec<u8>,
}

/// The permutations of one call, with the AVX2 kernel's split constants when the CPU has it.
struct Perms {
    a: Vec<u64>,
    b: Vec<u64>,
    #[cfg(target_arch = "x86_64")]
    avx2: Option<x86::Lanes>,
}

impl Perms {
    /// The permutations of `seed`; `simd` allows the AVX2 kernel where the CPU has it.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn new(num_perm: usize, seed: u64, simd: bool) -> Self {
        let (a, b) = permutations(num_perm, seed);
        #[cfg(target_arch = "x86_64")]
        let avx2 =
            (simd && std::arch::is_x86_feature_detected!("avx2")).then(|| x86::Lanes::new(&a, &b));
        Self {
            a,
            b,
            #[cfg(target_arch = "x86_64")]
            avx2,
        }
    }

    /// Length of the signature buffer `signature` needs: `num_perm` rounded up to 8 lanes.
    fn padded_len(&self) -> usize {
        self.a.len().next_multiple_of(8)
    }

    /// The signature of `hashes` (non-empty) into `sig[..num_perm]`; `sig` holds
    /// `padded_len()` values, the ones past `num_perm` are scratch, and so is `scratch`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn signature(&self, hashes: &[u64], sig: &mut [u64], scratch: &mut Scratch) {
        #[cfg(target_arch = "x86_64")]
        if let Some(lanes) = &self.avx2 {
            // SAFETY: `lanes` exists only when the CPU supports AVX2 (checked in `new`).
            unsafe { x86::signature(hashes, lanes, sig, scratch) };
            return;
        }
        let n = self.a.len();
        signature_portable(hashes, &self.a, &self.b, &mut sig[..n]);
    }
}

/// The AVX2 kernel, exact arithmetic: four permutations a vector.
///
/// With `a = a1 * 2^31 + a0` and `x = x1 * 2^31 + x0` (`a0, x0 < 2^31`, `a1, x1 < 2^30`, as
/// `a, x < 2^61`), `a * x = a1 x1 2^62 + m 2^31 + a0 x0` with `m = a1 x0 + a0 x1 < 2^62`.
/// Mod `p = 2^61 - 1`, `2^62 = 2` and `m 2^31 = (m >> 30) + (m mod 2^30) 2^31`, so
/// `s = a0 x0 + (2 a1) x1 + (m mod 2^30) 2^31 + (m >> 30) + b` (four `_mm256_mul_epu32`
/// products, `s < 2^62 + 3 * 2^61 + 2^32 < 2^64`) is `a * x + b` mod p; one fold
/// `(s & p) + (s >> 61) <= p + 4` and one conditional subtraction give the exact residue.
/// All residues are below 2^62, so the signed `_mm256_cmpgt_epi64` orders them.
///
/// The filter: after the first [`x86::EXACT_FIRST`] shingles most images are far above the
/// running minimum, so the rest are first screened eight permutations a vector by a 32-bit
/// key that is cheap to compute and never misses a new minimum (see [`filter_key`]); only
/// the flagged (shingle, permutation) pairs are computed exactly, in scalar code.
#[cfg(target_arch = "x86_64")]
// Short names read like the arithmetic above; `loadu`/`storeu` accept unaligned addresses.
#[allow(clippy::many_single_char_names, clippy::cast_ptr_alignment)]
mod x86 {
    use super::{filter_bound, filter_consts, permute, reduce64, Scratch, KEY_OFFSET, MERSENNE_61};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256, _mm256_blendv_epi8,
        _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_cmpgt_epi64, _mm256_loadu_si256,
        _mm256_movemask_ps, _mm256_mul_epu32, _mm256_mullo_epi32, _mm256_set1_epi32,
        _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
        _mm256_sub_epi64,
    };

    const LOW31: u64 = (1 << 31) - 1;
    const LOW30: u64 = (1 << 30) - 1;
    /// Shingles computed exactly before the filter starts (a multiple of `BLOCK`): the
    /// running minimums must be low for the filter to pass few pairs.
    pub const EXACT_FIRST: usize = 16;
    /// Shingles screened per pass of the filter; the bounds are tightened between passes.
    const CHUNK: usize = 32;
    /// Shingles per pass over the permutations in the exact kernel: each group's constants
    /// and running minimum are loaded once for `BLOCK` shingles (1, 2, 4, 8 measured: 8 runs
    /// the fewest instructions).
    const BLOCK: usize = 8;
    /// The sign bit of a 32-bit lane: biasing both sides by it turns the unsigned compare of
    /// key and bound into AVX2's signed one.
    const BIAS: u32 = 1 << 31;

    /// The per-permutation constants, padded with `a = b = 0` to a multiple of 8 (padded
    /// lanes are never flagged by the filter: their bound is 0 and their key 2).
    pub struct Lanes {
        /// Exact kernel, per group of 4: `a0` x4, `a1` x4, `2 a1` x4, `b` x4.
        exact: Vec<[u64; 16]>,
        /// Filter, per group of 8, as 32-bit lanes: see `filter_group`.
        filter: Vec<[[u32; 8]; 5]>,
        a: Vec<u64>,
        b: Vec<u64>,
        num_perm: usize,
    }

    impl Lanes {
        pub fn new(a: &[u64], b: &[u64]) -> Self {
            let num_perm = a.len();
            let padded = num_perm.next_multiple_of(8);
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.resize(padded, 0);
            b.resize(padded, 0);
            let exact = a
                .chunks(4)
                .zip(b.chunks(4))
                .map(|(ca, cb)| {
                    let mut g = [0u64; 16];
                    for (l, (&a, &b)) in ca.iter().zip(cb).enumerate() {
                        g[l] = a & LOW31;
                        g[4 + l] = a >> 31;
                        g[8 + l] = 2 * (a >> 31);
                        g[12 + l] = b;
                    }
                    g
                })
                .collect();
            let filter = a.chunks(8).zip(b.chunks(8)).map(filter_group).collect();
            Self {
                exact,
                filter,
                a,
                b,
                num_perm,
            }
        }
    }

    /// The filter constants of 8 permutations (see [`filter_consts`]) as the vectors the
    /// kernel loads: `C_0` .. `C_3`, then `G + 2^18 + 2^31` (the key's offset and the
    /// compare's bias).
    fn filter_group((a, b): (&[u64], &[u64])) -> [[u32; 8]; 5] {
        let mut v = [[0u32; 8]; 5];
        for l in 0..8 {
            let (c, g) = filter_consts(a[l], b[l]);
            for (i, &ci) in c.iter().enumerate() {
                v[i][l] = ci;
            }
            v[4][l] = g.wrapping_add(KEY_OFFSET).wrapping_add(BIAS);
        }
        v
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn splat(v: u64) -> __m256i {
        _mm256_set1_epi64x(v.cast_signed())
    }

    /// Signature of `hashes` into `sig` (`sig.len() >= 8 * lanes.filter.len()`).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn signature(hashes: &[u64], lanes: &Lanes, sig: &mut [u64], scratch: &mut Scratch) {
        let groups = &lanes.exact;
        assert!(sig.len() >= 4 * groups.len() && groups.len() == 2 * lanes.filter.len());
        let out = sig.as_mut_ptr().cast::<__m256i>();
        let init = splat(u64::MAX >> 2);
        for g in 0..groups.len() {
            // SAFETY: 4 * g + 4 <= sig.len() (asserted above); unaligned store.
            unsafe { _mm256_storeu_si256(out.add(g), init) };
        }
        let (first, rest) = hashes.split_at(hashes.len().min(EXACT_FIRST));
        let mut blocks = first.chunks_exact(BLOCK);
        for block in &mut blocks {
            // SAFETY: AVX2 (the caller's promise) and the length asserted above.
            unsafe { min_images::<BLOCK>(block, groups, out) };
        }
        for x in blocks.remainder() {
            // SAFETY: as above.
            unsafe { min_images::<1>(std::slice::from_ref(x), groups, out) };
        }
        if !rest.is_empty() {
            filtered(rest, lanes, sig, scratch);
        }
    }

    /// Fold the images of `S` shingles into the running minimums at `out`.
    ///
    /// # Safety
    /// The CPU must support AVX2; `out` points at `groups.len()` writable vectors.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn min_images<const S: usize>(xs: &[u64], groups: &[[u64; 16]], out: *mut __m256i) {
        let p = splat(MERSENNE_61);
        let p_minus_1 = splat(MERSENNE_61 - 1);
        let low30 = splat(LOW30);
        let mut x0 = [p; S];
        let mut x1 = [p; S];
        for (j, &x) in xs[..S].iter().enumerate() {
            let x = reduce64(x);
            x0[j] = splat(x & LOW31);
            x1[j] = splat(x >> 31);
        }
        for (g, k) in groups.iter().enumerate() {
            let k = k.as_ptr().cast::<__m256i>();
            // SAFETY: `k` points at 16 u64 (4 vectors); `out` has `groups.len()` vectors.
            let (a0, a1, a1x2, b, mut cur) = unsafe {
                (
                    _mm256_loadu_si256(k),
                    _mm256_loadu_si256(k.add(1)),
                    _mm256_loadu_si256(k.add(2)),
                    _mm256_loadu_si256(k.add(3)),
                    _mm256_loadu_si256(out.add(g)),
                )
            };
            for j in 0..S {
                let (x0, x1) = (x0[j], x1[j]);
                let m = _mm256_add_epi64(_mm256_mul_epu32(a1, x0), _mm256_mul_epu32(a0, x1));
                let m_lo = _mm256_slli_epi64::<31>(_mm256_and_si256(m, low30));
                let m_hi = _mm256_srli_epi64::<30>(m);
                let s = _mm256_add_epi64(
                    _mm256_add_epi64(_mm256_mul_epu32(a0, x0), _mm256_mul_epu32(a1x2, x1)),
                    _mm256_add_epi64(_mm256_add_epi64(m_lo, m_hi), b),
                );
                let r = _mm256_add_epi64(_mm256_and_si256(s, p), _mm256_srli_epi64::<61>(s));
                let r = _mm256_sub_epi64(r, _mm256_and_si256(_mm256_cmpgt_epi64(r, p_minus_1), p));
                cur = _mm256_blendv_epi8(cur, r, _mm256_cmpgt_epi64(cur, r));
            }
            // SAFETY: as for the load of `cur`.
            unsafe { _mm256_storeu_si256(out.add(g), cur) };
        }
    }

    /// Fold the images of `xs` into `sig` through the filter: per chunk of shingles, flag the
    /// pairs whose key is within the bound of the current minimum, then compute exactly the
    /// flagged ones and tighten their bounds.
    #[target_feature(enable = "avx2")]
    fn filtered(xs: &[u64], lanes: &Lanes, sig: &mut [u64], scratch: &mut Scratch) {
        let ng = lanes.filter.len();
        let (a, b) = (&lanes.a[..8 * ng], &lanes.b[..8 * ng]);
        let sig = &mut sig[..8 * ng];
        let bound = &mut scratch.bound;
        bound.clear();
        bound.extend(
            sig[..lanes.num_perm]
                .iter()
                .map(|&v| filter_bound(v) ^ BIAS),
        );
        bound.resize(8 * ng, BIAS); // padded lanes: bound 0, never flagged
                                    // Per group, CHUNK bytes: bit `l` of byte `j` flags shingle `j`, permutation `8 g + l`.
        let hits = &mut scratch.hits;
        hits.resize(ng * CHUNK, 0);
        let mut xr = [0u64; CHUNK];
        let mut limbs = [[_mm256_set1_epi32(0); 4]; CHUNK];
        for chunk in xs.chunks(CHUNK) {
            let c = chunk.len();
            for (j, &x) in chunk.iter().enumerate() {
                let x = reduce64(x);
                xr[j] = x;
                for (i, limb) in limbs[j].iter_mut().enumerate() {
                    *limb = _mm256_set1_epi32(((x >> (16 * i)) & 0xFFFF) as i32);
                }
            }
            if c < CHUNK {
                hits.fill(0); // the rows' tails must not flag stale pairs
            }
            for ((k, row), lim) in lanes
                .filter
                .iter()
                .zip(hits.chunks_exact_mut(CHUNK))
                .zip(bound.chunks_exact(8))
            {
                let k = k.as_ptr().cast::<__m256i>();
                // SAFETY: `k` points at 5 vectors of 8 u32, `lim` at 8 u32.
                let (c0, c1, c2, c3, g, lim) = unsafe {
                    (
                        _mm256_loadu_si256(k),
                        _mm256_loadu_si256(k.add(1)),
                        _mm256_loadu_si256(k.add(2)),
                        _mm256_loadu_si256(k.add(3)),
                        _mm256_loadu_si256(k.add(4)),
                        _mm256_loadu_si256(lim.as_ptr().cast::<__m256i>()),
                    )
                };
                for (h, x) in row.iter_mut().zip(&limbs[..c]) {
                    let key = _mm256_add_epi32(
                        _mm256_add_epi32(
                            _mm256_mullo_epi32(c0, x[0]),
                            _mm256_mullo_epi32(c1, x[1]),
                        ),
                        _mm256_add_epi32(
                            _mm256_add_epi32(
                                _mm256_mullo_epi32(c2, x[2]),
                                _mm256_mullo_epi32(c3, x[3]),
                            ),
                            g,
                        ),
                    );
                    let above =
                        _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(key, lim)));
                    *h = !(above.cast_unsigned() as u8);
                }
            }
            for (g, row) in hits.chunks_exact(CHUNK).enumerate() {
                let lanes = 8 * g..8 * g + 8;
                let (a, b) = (&a[lanes.clone()], &b[lanes.clone()]);
                let (sig, bound) = (&mut sig[lanes.clone()], &mut bound[lanes]);
                for (w, word) in row.chunks_exact(8).enumerate() {
                    let mut m = u64::from_le_bytes(word.try_into().unwrap_or_default());
                    while m != 0 {
                        let bit = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let (x, l) = (xr[(8 * w + bit / 8) % CHUNK], bit % 8);
                        let v = permute(a[l], b[l], x);
                        if v < sig[l] {
                            sig[l] = v;
                            bound[l] = filter_bound(v) ^ BIAS;
                        }
                    }
                }
            }
        }
    }
}

/// The filter's 32-bit fixed-point constants of permutation `(a, b)`:
/// `C_i = floor(2^32 c_i / p)` with `c_i = 2^(16 i) a mod p` (`i` = 0..3), and
/// `G = floor(2^32 b / p)`.
///
/// For `x < p` in 16-bit limbs `x = sum x_i 2^(16 i)`, the image `v = (a x + b) mod p`
/// satisfies `v / p = frac(sum x_i c_i / p + b / p)` (the integer parts of `x_i 2^(16 i) a / p`
/// drop out), and `2^32` times that sum is `W + e` with `W = sum x_i C_i + G` and
/// `0 <= e < sum x_i + 1 < 2^18` (`x_3 < 2^13`). So `K = W mod 2^32` (four 32-bit low
/// multiplies) is `t - e` mod 2^32 for `t = 2^32 v / p`, and the key `K + 2^18` lies in
/// `(t, t + 2^18]`, wrapping (to a small number: a false flag, never a miss) only when
/// `t > 2^32 - 2^18`.
#[cfg(any(target_arch = "x86_64", test))]
fn filter_consts(a: u64, b: u64) -> ([u32; 4], u32) {
    let p = u128::from(MERSENNE_61);
    let fixed = |n: u128| ((n << 32) / p) as u32;
    let c = std::array::from_fn(|i| fixed((u128::from(a) << (16 * i)) % p));
    (c, fixed(u128::from(b)))
}

/// What the filter adds to `W`: the largest possible `e`, so that the key is above `t`.
#[cfg(any(target_arch = "x86_64", test))]
const KEY_OFFSET: u32 = 1 << 18;

/// The 32-bit key of `x` (already reduced) under `(a, b)` (see [`filter_consts`]). The AVX2
/// filter computes exactly this, eight permutations at once; the tests use this scalar twin.
#[cfg(test)]
fn filter_key(a: u64, b: u64, x: u64) -> u32 {
    let (consts, offset) = filter_consts(a, b);
    let sum = (0..4).fold(offset, |sum, i| {
        sum.wrapping_add(consts[i].wrapping_mul(((x >> (16 * i)) & 0xFFFF) as u32))
    });
    sum.wrapping_add(KEY_OFFSET)
}

/// The bound on the key of any image below `vmin`: an image `v < vmin` has
/// `t < 2^32 vmin / p < (vmin >> 29) + 1 + 2^-29`, so its key is at most
/// `(vmin >> 29) + 2^18 + 1`; one more for margin, saturating.
#[cfg(any(target_arch = "x86_64", test))]
#[inline]
fn filter_bound(vmin: u64) -> u32 {
    u32::try_from((vmin >> 29) + u64::from(KEY_OFFSET) + 2).unwrap_or(u32::MAX)
}

/// The `(a_i, b_i)` of `num_perm` permutations from the `SplitMix64` stream seeded by `seed`:
/// `a_i = 1 + draw % (2^61 - 2)`, then `b_i = draw % (2^61 - 1)`.
#[must_use]
pub fn permutations(num_perm: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut state = seed;
    let mut a = Vec::with_capacity(num_perm);
    let mut b = Vec::with_capacity(num_perm);
    for _ in 0..num_perm {
        state = state.wrapping_add(GOLDEN_GAMMA);
        a.push(1 + mix64(state) % (MERSENNE_61 - 1));
        state = state.wrapping_add(GOLDEN_GAMMA);
        b.push(mix64(state) % MERSENNE_61);
    }
    (a, b)
}

/// Bands `b` and rows `r` with `b * r = num_perm` minimising `|(1/b)^(1/r) - threshold|`;
/// ties go to more bands. `num_perm` must be at least 1.
#[must_use]
pub fn lsh_bands(num_perm: usize, threshold: f64) -> (usize, usize) {
    let mut best: Option<(f64, usize, usize)> = None;
    for b in (1..=num_perm).rev() {
        if !num_perm.is_multiple_of(b) {
            continue;
        }
        let r = num_perm / b;
        let err = ((1.0 / b as f64).powf(1.0 / r as f64) - threshold).abs();
        if best.is_none_or(|(e, _, _)| err < e) {
            best = Some((err, b, r));
        }
    }
    best.map_or((1, num_perm), |(_, b, r)| (b, r))
}

/// The shingle hashes of `text` into `out` (cleared), sorted and unique: the plain
/// definition, which the tests hold [`Shingler::hashes`] to.
#[cfg(test)]
fn shingle_hashes(text: &str, shingle: usize, out: &mut Vec<u64>) {
    let mut words = Vec::new();
    out.clear();
    for_each_word(text, |w| words.push(fnv1a64(w.as_bytes())));
    if words.is_empty() {
        return;
    }
    let k = shingle.clamp(1, words.len());
    for window in words.windows(k) {
        out.push(window.iter().fold(0, |h, &w| splitmix64(h ^ w)));
    }
    out.sort_unstable();
    out.dedup();
}

/// Reusable buffers for the shingle hashes of one text at a time.
#[derive(Default)]
struct Shingler {
    words: Vec<u64>,
    /// Open-addressing set of the hashes seen in this text (0 marks a free slot).
    table: Vec<u64>,
}

impl Shingler {
    /// The distinct shingle hashes of `text` into `out` (cleared), in first-seen order.
    ///
    /// Duplicates are dropped through a hash set of 1.5 to 3 slots per shingle, which
    /// costs a fraction of sorting (the hashes are `SplitMix64` outputs, so their top bits
    /// index it well); the signature does not depend on the order.
    fn hashes(&mut self, text: &str, shingle: usize, out: &mut Vec<u64>) {
        let words = &mut self.words;
        words.clear();
        out.clear();
        for_each_word(text, |w| words.push(fnv1a64(w.as_bytes())));
        if words.is_empty() {
            return;
        }
        let k = shingle.clamp(1, words.len());
        // A load factor of at most 2/3: linear probing stays short.
        let n = words.len() - k + 1;
        let bits = (n + n / 2 + 1).next_power_of_two().trailing_zeros().max(4);
        let mask = (1usize << bits) - 1;
        let table = &mut self.table;
        table.clear();
        table.resize(mask + 1, 0);
        let mut has_zero = false;
        let mut add = |h: u64| {
            if h == 0 {
                if !has_zero {
                    has_zero = true;
                    out.push(0);
                }
                return;
            }
            let mut i = (h >> (64 - bits)) as usize;
            loop {
                let slot = &mut table[i];
                if *slot == h {
                    return;
                }
                if *slot == 0 {
                    *slot = h;
                    out.push(h);
                    return;
                }
                i = (i + 1) & mask;
            }
        };
        if k == 3 {
            for w in words.windows(3) {
                add(splitmix64(splitmix64(splitmix64(w[0]) ^ w[1]) ^ w[2]));
            }
        } else {
            for window in words.windows(k) {
                add(window.iter().fold(0, |h, &w| splitmix64(h ^ w)));
            }
        }
    }
}

/// Hash of one band's rows, a key into that band's bucket map (equality is confirmed apart).
#[inline]
fn band_key(rows: &[u64]) -> u64 {
    rows.iter()
        .fold(0x243F_6A88_85A3_08D3, |h, &v| splitmix64(h ^ v))
}

/// A key of a set of shingle hashes that does not depend on their order, into the map of
/// shingle sets already seen (equality is confirmed apart). The hashes are `SplitMix64`
/// outputs, so their sum is as good a key as a rehash.
#[inline]
fn set_key(hashes: &[u64]) -> u64 {
    hashes
        .iter()
        .fold(hashes.len() as u64, |h, &v| h.wrapping_add(v))
}

/// Whether two lists of distinct hashes hold the same set (sorts copies in `scratch`).
fn same_set(a: &[u64], b: &[u64], scratch: &mut (Vec<u64>, Vec<u64>)) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (x, y) = scratch;
    x.clear();
    x.extend_from_slice(a);
    x.sort_unstable();
    y.clear();
    y.extend_from_slice(b);
    y.sort_unstable();
    x == y
}

/// Mark every item whose `MinHash` estimate to a kept item sharing an LSH band is `>= threshold`.
///
/// `num_perm` and `shingle` must be at least 1 and the batch below `u32::MAX` items (the
/// binding checks them).
#[must_use]
pub fn minhash<S: AsRef<str>>(
    texts: &[S],
    threshold: f64,
    num_perm: usize,
    shingle: usize,
    seed: u64,
) -> Dedupe {
    minhash_with(
        texts,
        threshold,
        num_perm,
        shingle,
        seed,
        true,
        true,
        &mut NoGuard,
    )
}

/// [`minhash`] with the difference guard (`guard.rs`): a pair over the threshold that the
/// guard keeps is no duplicate, and the walk goes on to the next candidate.
#[must_use]
pub fn minhash_guarded<S: AsRef<str>>(
    texts: &[S],
    threshold: f64,
    num_perm: usize,
    shingle: usize,
    seed: u64,
) -> (Dedupe, Saved) {
    let mut guard = Guard::new(texts);
    let d = minhash_with(
        texts, threshold, num_perm, shingle, seed, true, true, &mut guard,
    );
    (d, guard.saved_columns(texts.len()))
}

/// [`minhash`] with the SIMD signature kernel and the reuse of repeated shingle sets each
/// allowed or not: the tests compare every combination.
#[allow(
    clippy::too_many_arguments,
    reason = "the kernel's options and two test switches"
)]
fn minhash_with<S: AsRef<str>, A: Accept>(
    texts: &[S],
    threshold: f64,
    num_perm: usize,
    shingle: usize,
    seed: u64,
    simd: bool,
    reuse: bool,
    acc: &mut A,
) -> Dedupe {
    let n = texts.len();
    let mut out = Dedupe::new(n);
    if num_perm == 0 {
        return out;
    }
    let perms = Perms::new(num_perm, seed, simd);
    let (bands, rows) = lsh_bands(num_perm, threshold);
    // Kept items with shingles: their signatures, back to back, in the order they were kept.
    let mut sigs: Vec<u64> = Vec::new();
    let mut slot_item: Vec<usize> = Vec::new();
    let mut index: Vec<HashMap<u64, Vec<u32>, foldhash::fast::RandomState>> = (0..bands)
        .map(|_| HashMap::with_hasher(foldhash::fast::RandomState::default()))
        .collect();
    // The first item of each distinct shingle set, by `set_key`.
    let mut first_of_set: HashMap<u64, usize, foldhash::fast::RandomState> =
        HashMap::with_hasher(foldhash::fast::RandomState::default());
    let mut listed_by: Vec<usize> = Vec::new(); // per slot: last item that listed it
    let mut cands: Vec<u32> = Vec::new();
    let mut shingler = Shingler::default();
    let mut hashes = Vec::new();
    let mut other_hashes = Vec::new();
    let mut sorted = (Vec::new(), Vec::new());
    let mut sig_buf = vec![0u64; perms.padded_len()];
    let mut scratch = Scratch::default();
    let mut keys = vec![0u64; bands];
    for (i, text) in texts.iter().enumerate() {
        shingler.hashes(text.as_ref(), shingle, &mut hashes);
        if hashes.is_empty() {
            continue;
        }
        // An item with the same shingle set as an earlier item `j` has `j`'s signature, so the
        // same band matches and estimates against every slot that existed when `j` was
        // decided (all slots below the one `j` took or matched): it duplicates the item `j`
        // duplicates, with the same estimate, or `j` itself (estimate 1) when `j` was kept.
        let key = if reuse { set_key(&hashes) } else { i as u64 };
        match first_of_set.entry(key) {
            Entry::Occupied(e) => {
                let j = *e.get();
                shingler.hashes(texts[j].as_ref(), shingle, &mut other_hashes);
                // With the guard: only when no pair of `j` was kept by it (nothing before
                // `j`'s answer met the threshold) and it lets `i` go to that answer too.
                if same_set(&hashes, &other_hashes, &mut sorted) && !acc.saved(j) {
                    let (k, est) = match out.duplicate_of[j] {
                        Some(k) => (k, out.similarity[j]),
                        None => (j, Some(1.0)),
                    };
                    if !A::ACTIVE || acc.accept(i, k, est.unwrap_or(1.0)) {
                        (out.duplicate_of[i], out.similarity[i]) = (Some(k), est);
                        continue;
                    }
                }
            }
            Entry::Vacant(e) => {
                e.insert(i);
            }
        }
        perms.signature(&hashes, &mut sig_buf, &mut scratch);
        let sig = &sig_buf[..num_perm];
        cands.clear();
        for (band, key) in keys.iter_mut().enumerate() {
            let rows_i = &sig[band * rows..(band + 1) * rows];
            *key = band_key(rows_i);
            if let Some(list) = index[band].get(key) {
                for &slot in list {
                    let s = slot as usize;
                    if listed_by[s] == i {
                        continue;
                    }
                    let start = s * num_perm + band * rows;
                    if sigs[start..start + rows] == *rows_i {
                        listed_by[s] = i;
                        cands.push(slot);
                    }
                }
            }
        }
        // Slots are numbered in the order items were kept, which is rank order.
        cands.sort_unstable();
        for &slot in &cands {
            let s = slot as usize;
            let other = &sigs[s * num_perm..(s + 1) * num_perm];
            let equal = sig.iter().zip(other).filter(|(x, y)| x == y).count();
            let est = equal as f64 / num_perm as f64;
            if est >= threshold && acc.accept(i, slot_item[s], est) {
                out.duplicate_of[i] = Some(slot_item[s]);
                out.similarity[i] = Some(est);
                break;
            }
        }
        if out.duplicate_of[i].is_none() {
            let slot = slot_item.len() as u32;
            slot_item.push(i);
            listed_by.push(usize::MAX);
            sigs.extend_from_slice(sig);
            for (band, &key) in keys.iter().enumerate() {
                index[band].entry(key).or_default().push(slot);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn golden() {
        let d = minhash(
            &[
                "one two three four five",
                "one two three four five!",
                "x y z",
            ],
            0.8,
            128,
            3,
            0,
        );
        assert_eq!(d.kept(), [0, 2]);
        assert_eq!(d.duplicate_of, [None, Some(0), None]);
        assert_eq!(d.similarity, [None, Some(1.0), None]);
    }

    #[test]
    fn bands() {
        assert_eq!(lsh_bands(128, 0.8), (8, 16));
        assert_eq!(lsh_bands(1, 0.5), (1, 1));
        assert_eq!(lsh_bands(7, 0.0), (7, 1));
    }

    #[test]
    fn shingles() {
        let (mut s, mut h) = (Shingler::default(), Vec::new());
        s.hashes("one two three four", 3, &mut h);
        assert_eq!(h.len(), 2);
        s.hashes("one", 3, &mut h);
        assert_eq!(h, [splitmix64(fnv1a64(b"one"))]);
        s.hashes("", 3, &mut h);
        assert!(h.is_empty());
        s.hashes("a a a a a", 2, &mut h);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn permute_matches_u128_modulo() {
        let (pa, pb) = permutations(64, 12345);
        for &x in &[
            0u64,
            1,
            MERSENNE_61 - 1,
            MERSENNE_61,
            MERSENNE_61 + 1,
            u64::MAX,
            1 << 63,
        ] {
            for (&a, &b) in pa.iter().zip(&pb) {
                let want = ((u128::from(a) * u128::from(x) + u128::from(b))
                    % u128::from(MERSENNE_61)) as u64;
                assert_eq!(permute(a, b, reduce64(x)), want);
            }
        }
        // Extremes of a and b.
        let (a, b) = (MERSENNE_61 - 1, MERSENNE_61 - 1);
        for x in [MERSENNE_61 - 1, u64::MAX] {
            let want =
                ((u128::from(a) * u128::from(x) + u128::from(b)) % u128::from(MERSENNE_61)) as u64;
            assert_eq!(permute(a, b, reduce64(x)), want);
        }
    }

    #[test]
    fn empty_texts_are_skipped() {
        let d = minhash(&["", "...", "a", "", "a"], 0.5, 16, 3, 1);
        assert_eq!(d.duplicate_of, [None, None, None, None, Some(2)]);
    }

    /// The file named by `MINHASH_BENCH_TEXTS` (texts separated by NUL bytes), if set.
    fn bench_texts() -> Option<String> {
        let path = std::env::var("MINHASH_BENCH_TEXTS").ok()?;
        Some(std::fs::read_to_string(path).expect("readable UTF-8 file"))
    }

    /// Timing aid, not a test: `MINHASH_BENCH_TEXTS=FILE` (texts separated by NUL bytes)
    /// `cargo test --release minhash::tests::bench_file -- --ignored --nocapture`; also the
    /// target of the callgrind instruction counts in the performance notes.
    #[test]
    #[ignore = "timing aid; needs MINHASH_BENCH_TEXTS"]
    fn bench_file() {
        let Some(data) = bench_texts() else {
            return;
        };
        let texts: Vec<&str> = data.split('\0').filter(|t| !t.is_empty()).collect();
        let reps: usize = std::env::var("MINHASH_BENCH_REPS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(1);
        let mut times = Vec::new();
        let mut kept = 0;
        for _ in 0..reps {
            let t0 = std::time::Instant::now();
            let d = minhash(&texts, 0.8, 128, 3, 0);
            times.push(t0.elapsed().as_secs_f64());
            kept = d.kept().len();
        }
        times.sort_by(f64::total_cmp);
        eprintln!(
            "{} texts: kept {kept}, median {:.1} ms",
            texts.len(),
            times[times.len() / 2] * 1e3
        );
    }

    /// Corpus-wide check, not run by default: `MINHASH_BENCH_TEXTS=FILE` (as for
    /// `bench_file`) `cargo test --release minhash::tests::check_file -- --ignored`: every
    /// text's AVX2 signature equals the portable one, and the fast path decides like the
    /// plain one (portable kernel, no reuse) at three thresholds.
    #[test]
    #[ignore = "corpus-wide check; needs MINHASH_BENCH_TEXTS"]
    fn check_file() {
        let Some(data) = bench_texts() else {
            return;
        };
        let texts: Vec<&str> = data.split('\0').filter(|t| !t.is_empty()).collect();
        let (fast, plain) = (Perms::new(128, 0, true), Perms::new(128, 0, false));
        let (mut shingler, mut hashes) = (Shingler::default(), Vec::new());
        let (mut a, mut b) = (vec![0; 128], vec![0; 128]);
        let mut scratch = Scratch::default();
        for t in &texts {
            shingler.hashes(t, 3, &mut hashes);
            if !hashes.is_empty() {
                fast.signature(&hashes, &mut a, &mut scratch);
                plain.signature(&hashes, &mut b, &mut scratch);
                assert_eq!(a, b);
            }
        }
        for threshold in [0.5, 0.8, 0.95] {
            let want = minhash_with(&texts, threshold, 128, 3, 0, false, false, &mut NoGuard);
            assert_eq!(minhash(&texts, threshold, 128, 3, 0), want);
            eprintln!(
                "{} texts, threshold {threshold}: kept {} (same as the plain path)",
                texts.len(),
                want.kept().len()
            );
        }
    }

    /// Hash values that reach the edges of the reduction: 0, p - 1, p, p + 1, 2^61, `u64::MAX`.
    fn edge_hashes() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            prop::sample::select(vec![
                0,
                1,
                MERSENNE_61 - 1,
                MERSENNE_61,
                MERSENNE_61 + 1,
                1 << 61,
                (1 << 62) - 1,
                u64::MAX - 1,
                u64::MAX,
            ]),
            (0u64..1 << 20),
            (0u64..1 << 20).prop_map(|d| MERSENNE_61 - 1 - d),
        ]
    }

    /// The AVX2 kernel against the portable one for `(a, b)` and hashes.
    #[cfg(target_arch = "x86_64")]
    fn check_avx2(a: &[u64], b: &[u64], hashes: &[u64]) -> Result<(), TestCaseError> {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return Ok(());
        }
        let n = a.len();
        let mut want = vec![0u64; n];
        signature_portable(hashes, a, b, &mut want);
        let mut got = vec![7u64; n.next_multiple_of(8)];
        let lanes = x86::Lanes::new(a, b);
        // SAFETY: AVX2 is supported (checked above).
        unsafe { x86::signature(hashes, &lanes, &mut got, &mut Scratch::default()) };
        prop_assert_eq!(&got[..n], &want[..]);
        Ok(())
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_reaches_the_conditional_subtraction() {
        // a * x + b = p exactly (residue 0 from a sum that folds to p), and the largest values.
        let p = MERSENNE_61;
        let a = [1, 1, p - 1, p - 1, 2, 1 << 60, 3];
        let b = [p - 1, 0, p - 1, 0, p - 3, p - 1, 5];
        for x in [1, p - 1, p, p + 1, 2, u64::MAX, 1 << 61, 0] {
            check_avx2(&a, &b, &[x]).expect("AVX2 equals portable");
        }
    }

    /// `a * b mod p`.
    fn mul_mod(a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) % u128::from(MERSENNE_61)) as u64
    }

    /// The `x < p` whose image under `(a, b)` is `v`: `(v - b) / a mod p`.
    fn preimage(a: u64, b: u64, v: u64) -> u64 {
        let (mut inv, mut base, mut e) = (1, a, MERSENNE_61 - 2);
        while e > 0 {
            if e & 1 == 1 {
                inv = mul_mod(inv, base);
            }
            base = mul_mod(base, base);
            e >>= 1;
        }
        mul_mod((v + MERSENNE_61 - b) % MERSENNE_61, inv)
    }

    /// Images the filter must not miss: 0, tiny, around multiples of 2^29, and near p.
    fn edge_images() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..64,
            (1u64..1 << 32).prop_map(|k| (k << 29) - 1),
            (1u64..1 << 32).prop_map(|k| k << 29),
            (0u64..1 << 40).prop_map(|d| MERSENNE_61 - 1 - d),
            0..MERSENNE_61,
        ]
    }

    /// Batches with exact copies, case and punctuation variants and near copies.
    fn batches() -> impl Strategy<Value = Vec<String>> {
        let word = prop::sample::select(vec!["a", "b", "c", "d", "e", "f", "g", "h"]);
        let text = prop::collection::vec(word, 0..14).prop_map(|w| w.join(" "));
        prop::collection::vec(text, 1..12).prop_flat_map(|base| {
            let n = base.len();
            let edits = prop::collection::vec((0..n, 0u8..4), 0..12);
            (Just(base), edits).prop_map(|(mut texts, edits)| {
                for (j, kind) in edits {
                    let t = texts[j].clone();
                    texts.push(match kind {
                        0 => t,
                        1 => t.to_uppercase(),
                        2 => format!("{t}!"),
                        _ => format!("{t} h"),
                    });
                }
                texts
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn never_panics_on_arbitrary_strings(
            texts in prop::collection::vec(".*", 0..8),
            threshold in 0.0f64..=1.0,
            num_perm in 1usize..40,
            shingle in prop_oneof![1usize..6, Just(usize::MAX)],
            seed in any::<u64>(),
        ) {
            let d = minhash(&texts, threshold, num_perm, shingle, seed);
            prop_assert_eq!(d.duplicate_of.len(), texts.len());
            for (i, dup) in d.duplicate_of.iter().enumerate() {
                if let Some(k) = *dup {
                    prop_assert!(k < i && d.duplicate_of[k].is_none());
                }
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[test]
        fn avx2_signature_matches_portable(
            hashes in prop::collection::vec(edge_hashes(), 1..120),
            num_perm in 1usize..140,
            seed in any::<u64>(),
            ab in prop::collection::vec((edge_hashes(), edge_hashes()), 0..8),
        ) {
            let (mut a, mut b) = permutations(num_perm, seed);
            // Overwrite some coefficients with extremes (a in [1, p - 1], b in [0, p - 1]).
            for (i, &(x, y)) in ab.iter().enumerate() {
                let j = (x as usize ^ i) % num_perm;
                a[j] = 1 + x % (MERSENNE_61 - 1);
                b[j] = y % MERSENNE_61;
            }
            check_avx2(&a, &b, &hashes)?;
        }

        #[test]
        fn simd_and_reuse_change_nothing(
            texts in batches(),
            threshold in 0.0f64..=1.0,
            num_perm in 1usize..40,
            shingle in 1usize..4,
            seed in any::<u64>(),
        ) {
            let want = minhash_with(&texts, threshold, num_perm, shingle, seed, false, false, &mut NoGuard);
            for (simd, reuse) in [(true, false), (false, true), (true, true)] {
                let got = minhash_with(&texts, threshold, num_perm, shingle, seed, simd, reuse, &mut NoGuard);
                prop_assert_eq!(&got, &want);
            }
        }

        #[test]
        fn filter_never_misses_a_new_minimum(
            a in prop_oneof![1..MERSENNE_61, Just(1), Just(MERSENNE_61 - 1)],
            b in prop_oneof![0..MERSENNE_61, Just(0), Just(MERSENNE_61 - 1)],
            v in edge_images(),
            x in edge_hashes(),
        ) {
            // The key of an image v is within the bound of every minimum above v.
            let x_v = preimage(a, b, v);
            prop_assert_eq!(permute(a, b, x_v), v);
            prop_assert!(filter_key(a, b, x_v) <= filter_bound(v + 1));
            let x = reduce64(x);
            let w = permute(a, b, x);
            prop_assert!(filter_key(a, b, x) <= filter_bound(w + 1));
        }

        #[cfg(target_arch = "x86_64")]
        #[test]
        fn avx2_filter_keeps_targeted_minimums(
            seed in any::<u64>(),
            targets in prop::collection::vec((0usize..128, edge_images()), 1..24),
            noise in prop::collection::vec(any::<u64>(), 16..80),
        ) {
            // Shingles placed after the exact warm-up whose images are chosen minimums.
            let (a, b) = permutations(128, seed);
            let mut hashes = noise;
            for (i, v) in targets {
                hashes.push(preimage(a[i], b[i], v));
            }
            check_avx2(&a, &b, &hashes)?;
        }

        #[test]
        fn shingler_matches_the_plain_definition(
            texts in batches(),
            shingle in 1usize..5,
            extra in ".*",
        ) {
            let mut s = Shingler::default();
            let (mut got, mut want) = (Vec::new(), Vec::new());
            for t in texts.iter().chain([&extra]) {
                s.hashes(t, shingle, &mut got);
                shingle_hashes(t, shingle, &mut want);
                let n = got.len();
                got.sort_unstable();
                got.dedup();
                prop_assert_eq!(got.len(), n); // no duplicates
                prop_assert_eq!(&got, &want);
            }
        }

        #[test]
        fn lsh_bands_divide_num_perm(num_perm in 1usize..600, threshold in 0.0f64..=1.0) {
            let (b, r) = lsh_bands(num_perm, threshold);
            prop_assert_eq!(b * r, num_perm);
        }
    }
}
