//! Dot products: an exact-ish f64 one (the arbiter of every decision) and a fast f32 one over
//! four rows at once (the pruning filter, used only with a safety margin).
//!
//! Each kernel has a portable version (chunked loops with independent accumulators) and, on
//! x86-64, an AVX2+FMA version chosen at run time. Results depend only on the data, never on
//! where a row starts in memory (no alignment-dependent prologue), so identical rows give
//! bit-identical results; the two versions may differ in the last bits from each other.

/// An element type a vector matrix may hold: `f32` or `f64`.
pub trait Element: Copy + Send + Sync + 'static {
    /// The value as f64 (exact for both types).
    fn to_f64(self) -> f64;
    /// `sum(a[i] * b[i])` accumulated in f64 (products of f32 values are exact in f64).
    fn dot(a: &[Self], b: &[Self]) -> f64;
}

impl Element for f32 {
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }

    #[inline]
    fn dot(a: &[f32], b: &[f32]) -> f64 {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2_fma() {
                // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                return unsafe { x86::dot_f32_f64acc(a, b) };
            }
        }
        portable::dot_f32_f64acc(a, b)
    }
}

impl Element for f64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }

    #[inline]
    fn dot(a: &[f64], b: &[f64]) -> f64 {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2_fma() {
                // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                return unsafe { x86::dot_f64(a, b) };
            }
        }
        portable::dot_f64(a, b)
    }
}

/// Dot products of `q` with four rows of the same length laid out one after another in `rows`
/// (`rows.len() == 4 * q.len()`), accumulated in f32. Fast and approximate: the caller bounds
/// the error (see `cosine::FILTER_MARGIN`).
#[inline]
pub fn dot4_f32(q: &[f32], rows: &[f32]) -> [f32; 4] {
    debug_assert_eq!(rows.len(), 4 * q.len());
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { x86::dot4_f32(q, rows) };
        }
    }
    portable::dot4_f32(q, rows)
}

/// Dot products of two queries `q0`, `q1` with four consecutive rows (as [`dot4_f32`]):
/// `[q0·r0, q0·r1, q0·r2, q0·r3, q1·r0, q1·r1, q1·r2, q1·r3]`. Each row chunk is loaded once
/// for both queries, which halves the memory traffic of the filter.
#[inline]
pub fn dot2x4_f32(q0: &[f32], q1: &[f32], rows: &[f32]) -> [f32; 8] {
    debug_assert_eq!(q0.len(), q1.len());
    debug_assert_eq!(rows.len(), 4 * q0.len());
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { x86::dot2x4_f32(q0, q1, rows) };
        }
    }
    let (a, b) = (portable::dot4_f32(q0, rows), portable::dot4_f32(q1, rows));
    [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]]
}

/// Dot products of four queries with two consecutive rows (`rows.len() == 2 * q[0].len()`):
/// `[q0·r0, q0·r1, q1·r0, q1·r1, q2·r0, q2·r1, q3·r0, q3·r1]`. Each row chunk is loaded once
/// for the four queries (which stay in L1), so the kept rows' traffic is a quarter of
/// [`dot4_f32`]'s per pair.
#[inline]
pub fn dot4x2_f32(q: [&[f32]; 4], rows: &[f32]) -> [f32; 8] {
    debug_assert!(q.iter().all(|x| x.len() == q[0].len()));
    debug_assert_eq!(rows.len(), 2 * q[0].len());
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { x86::dot4x2_f32(q, rows) };
        }
    }
    let s = q[0].len();
    let mut out = [0.0f32; 8];
    for (j, qj) in q.iter().enumerate() {
        out[2 * j] = portable::dot1_f32(qj, &rows[..s]);
        out[2 * j + 1] = portable::dot1_f32(qj, &rows[s..2 * s]);
    }
    out
}

/// One f32 dot product accumulated in f32 (the filter's single-row tail).
#[inline]
pub fn dot1_f32(q: &[f32], row: &[f32]) -> f32 {
    portable::dot1_f32(q, row)
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2_fma() -> bool {
    // std caches the CPUID answer, so this is a load and a test after the first call.
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Plain Rust versions, written as fixed-width chunks so LLVM vectorises them for the
/// baseline target (SSE2); also the reference the SIMD versions are tested against.
pub mod portable {
    const W: usize = 8;

    pub fn dot_f32_f64acc(a: &[f32], b: &[f32]) -> f64 {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let mut acc = [0.0f64; W];
        let mut ca = a.chunks_exact(W);
        let mut cb = b.chunks_exact(W);
        for (x, y) in (&mut ca).zip(&mut cb) {
            for l in 0..W {
                acc[l] += f64::from(x[l]) * f64::from(y[l]);
            }
        }
        let mut tail = 0.0f64;
        for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
            tail += f64::from(*x) * f64::from(*y);
        }
        sum8(acc) + tail
    }

    pub fn dot_f64(a: &[f64], b: &[f64]) -> f64 {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let mut acc = [0.0f64; W];
        let mut ca = a.chunks_exact(W);
        let mut cb = b.chunks_exact(W);
        for (x, y) in (&mut ca).zip(&mut cb) {
            for l in 0..W {
                acc[l] += x[l] * y[l];
            }
        }
        let mut tail = 0.0f64;
        for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
            tail += x * y;
        }
        sum8(acc) + tail
    }

    pub fn dot1_f32(a: &[f32], b: &[f32]) -> f32 {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let mut acc = [0.0f32; W];
        let mut ca = a.chunks_exact(W);
        let mut cb = b.chunks_exact(W);
        for (x, y) in (&mut ca).zip(&mut cb) {
            for l in 0..W {
                acc[l] += x[l] * y[l];
            }
        }
        let mut tail = 0.0f32;
        for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
            tail += x * y;
        }
        acc.iter().sum::<f32>() + tail
    }

    pub fn dot4_f32(q: &[f32], rows: &[f32]) -> [f32; 4] {
        let s = q.len();
        let mut out = [0.0f32; 4];
        for (r, o) in out.iter_mut().enumerate() {
            *o = dot1_f32(q, &rows[r * s..(r + 1) * s]);
        }
        out
    }

    fn sum8(acc: [f64; 8]) -> f64 {
        ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
    }
}

#[cfg(target_arch = "x86_64")]
// Short names (a, b, n, i, s) read like the arithmetic they implement in these SIMD loops.
#[allow(clippy::many_single_char_names)]
mod x86 {
    use std::arch::x86_64::{
        __m128, __m256, __m256d, _mm256_add_pd, _mm256_add_ps, _mm256_castpd256_pd128,
        _mm256_castps256_ps128, _mm256_cvtps_pd, _mm256_extractf128_pd, _mm256_extractf128_ps,
        _mm256_fmadd_pd, _mm256_fmadd_ps, _mm256_hadd_ps, _mm256_loadu_pd, _mm256_loadu_ps,
        _mm256_setzero_pd, _mm256_setzero_ps, _mm_add_pd, _mm_add_ps, _mm_add_sd, _mm_add_ss,
        _mm_cvtsd_f64, _mm_cvtss_f32, _mm_loadu_ps, _mm_movehl_ps, _mm_shuffle_ps, _mm_storeu_ps,
        _mm_unpackhi_pd,
    };

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn hsum_pd(v: __m256d) -> f64 {
        let lo = _mm256_castpd256_pd128(v);
        let hi = _mm256_extractf128_pd::<1>(v);
        let s = _mm_add_pd(lo, hi);
        _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)))
    }

    /// The horizontal sums of four vectors, as one 128-bit vector `[sum(a), .., sum(d)]`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn hsum4_ps(a: __m256, b: __m256, c: __m256, d: __m256) -> __m128 {
        let ab = _mm256_hadd_ps(a, b);
        let cd = _mm256_hadd_ps(c, d);
        let abcd = _mm256_hadd_ps(ab, cd);
        _mm_add_ps(
            _mm256_castps256_ps128(abcd),
            _mm256_extractf128_ps::<1>(abcd),
        )
    }

    /// Two queries against four rows: eight accumulators (one per pair) hide the FMA latency;
    /// each 8-float chunk costs 2 + 4 loads for 8 FMAs.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot2x4_f32(q0: &[f32], q1: &[f32], rows: &[f32]) -> [f32; 8] {
        let s = q0.len();
        assert!(q1.len() >= s && rows.len() >= 4 * s);
        let (p0, p1, pr) = (q0.as_ptr(), q1.as_ptr(), rows.as_ptr());
        let mut a = [_mm256_setzero_ps(); 8];
        let mut i = 0;
        // SAFETY (all loads): i + 8 <= s, so every offset r * s + i + 7 < 4 * s.
        unsafe {
            while i + 8 <= s {
                let x0 = _mm256_loadu_ps(p0.add(i));
                let x1 = _mm256_loadu_ps(p1.add(i));
                for r in 0..4 {
                    let y = _mm256_loadu_ps(pr.add(r * s + i));
                    a[r] = _mm256_fmadd_ps(x0, y, a[r]);
                    a[4 + r] = _mm256_fmadd_ps(x1, y, a[4 + r]);
                }
                i += 8;
            }
        }
        let mut out = [0.0f32; 8];
        // SAFETY: `out` holds 8 f32, written as two unaligned 128-bit stores.
        unsafe {
            _mm_storeu_ps(out.as_mut_ptr(), hsum4_ps(a[0], a[1], a[2], a[3]));
            _mm_storeu_ps(out.as_mut_ptr().add(4), hsum4_ps(a[4], a[5], a[6], a[7]));
        }
        for j in i..s {
            for r in 0..4 {
                out[r] += q0[j] * rows[r * s + j];
                out[4 + r] += q1[j] * rows[r * s + j];
            }
        }
        out
    }

    /// Four queries against two rows: eight accumulators (one per pair); each 8-float chunk
    /// costs 4 query loads (from L1) and 2 row loads for 8 FMAs.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot4x2_f32(q: [&[f32]; 4], rows: &[f32]) -> [f32; 8] {
        let s = q[0].len();
        assert!(q.iter().all(|x| x.len() >= s) && rows.len() >= 2 * s);
        let p = [q[0].as_ptr(), q[1].as_ptr(), q[2].as_ptr(), q[3].as_ptr()];
        let pr = rows.as_ptr();
        let mut a = [_mm256_setzero_ps(); 8];
        let mut i = 0;
        // SAFETY (all loads): i + 8 <= s, every query holds s values and rows 2 * s.
        unsafe {
            while i + 8 <= s {
                let y0 = _mm256_loadu_ps(pr.add(i));
                let y1 = _mm256_loadu_ps(pr.add(s + i));
                for j in 0..4 {
                    let x = _mm256_loadu_ps(p[j].add(i));
                    a[2 * j] = _mm256_fmadd_ps(x, y0, a[2 * j]);
                    a[2 * j + 1] = _mm256_fmadd_ps(x, y1, a[2 * j + 1]);
                }
                i += 8;
            }
        }
        let mut out = [0.0f32; 8];
        // SAFETY: `out` holds 8 f32, written as two unaligned 128-bit stores.
        unsafe {
            _mm_storeu_ps(out.as_mut_ptr(), hsum4_ps(a[0], a[1], a[2], a[3]));
            _mm_storeu_ps(out.as_mut_ptr().add(4), hsum4_ps(a[4], a[5], a[6], a[7]));
        }
        for t in i..s {
            for j in 0..4 {
                out[2 * j] += q[j][t] * rows[t];
                out[2 * j + 1] += q[j][t] * rows[s + t];
            }
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn hsum_ps(v: __m256) -> f32 {
        let lo = _mm256_castps256_ps128(v);
        let hi = _mm256_extractf128_ps::<1>(v);
        let s = _mm_add_ps(lo, hi);
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps::<0b01>(s, s)))
    }

    /// f32 inputs, f64 accumulation: 8 f32 per step, widened to two f64 vectors; four
    /// accumulators hide the FMA latency.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot_f32_f64acc(a: &[f32], b: &[f32]) -> f64 {
        let n = a.len().min(b.len());
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let mut acc = [_mm256_setzero_pd(); 4];
        let mut i = 0;
        // SAFETY (all loads): every offset read is < n, the length of both slices.
        unsafe {
            while i + 16 <= n {
                let x0 = _mm_loadu_ps(pa.add(i));
                let y0 = _mm_loadu_ps(pb.add(i));
                let x1 = _mm_loadu_ps(pa.add(i + 4));
                let y1 = _mm_loadu_ps(pb.add(i + 4));
                let x2 = _mm_loadu_ps(pa.add(i + 8));
                let y2 = _mm_loadu_ps(pb.add(i + 8));
                let x3 = _mm_loadu_ps(pa.add(i + 12));
                let y3 = _mm_loadu_ps(pb.add(i + 12));
                acc[0] = _mm256_fmadd_pd(_mm256_cvtps_pd(x0), _mm256_cvtps_pd(y0), acc[0]);
                acc[1] = _mm256_fmadd_pd(_mm256_cvtps_pd(x1), _mm256_cvtps_pd(y1), acc[1]);
                acc[2] = _mm256_fmadd_pd(_mm256_cvtps_pd(x2), _mm256_cvtps_pd(y2), acc[2]);
                acc[3] = _mm256_fmadd_pd(_mm256_cvtps_pd(x3), _mm256_cvtps_pd(y3), acc[3]);
                i += 16;
            }
            while i + 4 <= n {
                let x = _mm_loadu_ps(pa.add(i));
                let y = _mm_loadu_ps(pb.add(i));
                acc[0] = _mm256_fmadd_pd(_mm256_cvtps_pd(x), _mm256_cvtps_pd(y), acc[0]);
                i += 4;
            }
        }
        let v = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
        let mut s = hsum_pd(v);
        while i < n {
            s += f64::from(a[i]) * f64::from(b[i]);
            i += 1;
        }
        s
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot_f64(a: &[f64], b: &[f64]) -> f64 {
        let n = a.len().min(b.len());
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let mut acc = [_mm256_setzero_pd(); 4];
        let mut i = 0;
        // SAFETY (all loads): every offset read is < n, the length of both slices.
        unsafe {
            while i + 16 <= n {
                for (k, a_k) in acc.iter_mut().enumerate() {
                    let x = _mm256_loadu_pd(pa.add(i + 4 * k));
                    let y = _mm256_loadu_pd(pb.add(i + 4 * k));
                    *a_k = _mm256_fmadd_pd(x, y, *a_k);
                }
                i += 16;
            }
            while i + 4 <= n {
                let x = _mm256_loadu_pd(pa.add(i));
                let y = _mm256_loadu_pd(pb.add(i));
                acc[0] = _mm256_fmadd_pd(x, y, acc[0]);
                i += 4;
            }
        }
        let v = _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3]));
        let mut s = hsum_pd(v);
        while i < n {
            s += a[i] * b[i];
            i += 1;
        }
        s
    }

    /// `q` against four consecutive rows: 8 accumulators (two per row) hide the FMA latency and
    /// each chunk of `q` is loaded once for the four rows.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot4_f32(q: &[f32], rows: &[f32]) -> [f32; 4] {
        let s = q.len();
        assert!(rows.len() >= 4 * s);
        let pq = q.as_ptr();
        let pr = rows.as_ptr();
        let mut a = [_mm256_setzero_ps(); 8];
        let mut i = 0;
        // SAFETY (all loads): i + 16 <= s, so every row offset r * s + i + 15 < 4 * s.
        unsafe {
            while i + 16 <= s {
                let q0 = _mm256_loadu_ps(pq.add(i));
                let q1 = _mm256_loadu_ps(pq.add(i + 8));
                for r in 0..4 {
                    let base = pr.add(r * s + i);
                    a[2 * r] = _mm256_fmadd_ps(q0, _mm256_loadu_ps(base), a[2 * r]);
                    a[2 * r + 1] = _mm256_fmadd_ps(q1, _mm256_loadu_ps(base.add(8)), a[2 * r + 1]);
                }
                i += 16;
            }
            while i + 8 <= s {
                let q0 = _mm256_loadu_ps(pq.add(i));
                for r in 0..4 {
                    a[2 * r] = _mm256_fmadd_ps(q0, _mm256_loadu_ps(pr.add(r * s + i)), a[2 * r]);
                }
                i += 8;
            }
        }
        let mut out = [0.0f32; 4];
        for (r, o) in out.iter_mut().enumerate() {
            let mut t = hsum_ps(_mm256_add_ps(a[2 * r], a[2 * r + 1]));
            for j in i..s {
                t += q[j] * rows[r * s + j];
            }
            *o = t;
        }
        out
    }
}

#[cfg(test)]
// Tests may panic on bad fixtures, and their generators cast freely.
#[allow(clippy::unwrap_used, clippy::cast_sign_loss)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f32 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((*seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5
    }

    #[test]
    fn simd_matches_portable_for_every_length() {
        let mut seed = 7;
        for n in 0..70 {
            let a: Vec<f32> = (0..n).map(|_| lcg(&mut seed)).collect();
            let b: Vec<f32> = (0..n).map(|_| lcg(&mut seed)).collect();
            let exact: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| f64::from(*x) * f64::from(*y))
                .sum();
            assert!((f32::dot(&a, &b) - exact).abs() < 1e-12, "n={n}");
            assert!((portable::dot_f32_f64acc(&a, &b) - exact).abs() < 1e-12);
            let a64: Vec<f64> = a.iter().map(|x| f64::from(*x)).collect();
            let b64: Vec<f64> = b.iter().map(|x| f64::from(*x)).collect();
            assert!((f64::dot(&a64, &b64) - exact).abs() < 1e-12);
            assert!((portable::dot_f64(&a64, &b64) - exact).abs() < 1e-12);
            let rows: Vec<f32> = (0..4 * n).map(|_| lcg(&mut seed)).collect();
            let got = dot4_f32(&a, &rows);
            for r in 0..4 {
                let want: f64 = a
                    .iter()
                    .zip(&rows[r * n..(r + 1) * n])
                    .map(|(x, y)| f64::from(*x) * f64::from(*y))
                    .sum();
                assert!((f64::from(got[r]) - want).abs() < 1e-5, "n={n} r={r}");
                assert!((f64::from(dot1_f32(&a, &rows[r * n..(r + 1) * n])) - want).abs() < 1e-5);
                let pair = dot2x4_f32(&a, &b, &rows);
                let want_b: f64 = b
                    .iter()
                    .zip(&rows[r * n..(r + 1) * n])
                    .map(|(x, y)| f64::from(*x) * f64::from(*y))
                    .sum();
                assert!((f64::from(pair[r]) - want).abs() < 1e-5, "n={n} r={r}");
                assert!(
                    (f64::from(pair[4 + r]) - want_b).abs() < 1e-5,
                    "n={n} r={r}"
                );
                let quad = dot4x2_f32(
                    [&a, &b, &b, &a],
                    &rows[(r / 2) * 2 * n..(r / 2 + 1) * 2 * n],
                );
                let slot = r % 2;
                assert!((f64::from(quad[slot]) - want).abs() < 1e-5, "n={n} r={r}");
                assert!(
                    (f64::from(quad[2 + slot]) - want_b).abs() < 1e-5,
                    "n={n} r={r}"
                );
                assert!(
                    (f64::from(quad[4 + slot]) - want_b).abs() < 1e-5,
                    "n={n} r={r}"
                );
                assert!(
                    (f64::from(quad[6 + slot]) - want).abs() < 1e-5,
                    "n={n} r={r}"
                );
            }
        }
    }

    #[test]
    fn result_does_not_depend_on_alignment() {
        let mut seed = 3;
        let buf: Vec<f32> = (0..200).map(|_| lcg(&mut seed)).collect();
        let a: Vec<f32> = buf[..100].to_vec();
        let first = f32::dot(&buf[..100], &buf[100..200]);
        let mut shifted = vec![0.0f32; 1];
        shifted.extend_from_slice(&a);
        assert_eq!(
            f32::dot(&shifted[1..], &buf[100..200]).to_bits(),
            first.to_bits()
        );
    }
}
