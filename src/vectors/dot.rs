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

/// Dot products of `q` with four rows, accumulated in f32; only the first `q.len()` values
/// of each row are read. Fast and approximate: the caller bounds the error (see
/// `cosine::FILTER_MARGIN`).
#[inline]
pub fn dot4_f32(q: &[f32], rows: [&[f32]; 4]) -> [f32; 4] {
    let s = q.len();
    let rows = rows.map(|r| &r[..s]);
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { x86::dot4_f32(q, rows) };
        }
    }
    rows.map(|r| portable::dot1_f32(q, r))
}

/// The filter's inner step: dot products of four queries of length `s` with two rows (of
/// length `s`), `[q0·r0, q0·r1, q1·r0, q1·r1, q2·r0, q2·r1, q3·r0, q3·r1]`, and the mask of
/// the pairs whose bound `dot + q_rest[j] * row_rest[r]` is `>= cut` (bit `2j + r`). Each row
/// chunk is loaded once for the four queries (which stay in L1), so the kept rows' traffic per
/// pair is a quarter of [`dot4_f32`]'s.
#[inline]
pub fn bounds4x2_f32(
    q: [&[f32]; 4],
    rows: [&[f32]; 2],
    q_rest: [f32; 4],
    row_rest: [f32; 2],
    cut: f32,
) -> ([f32; 8], u32) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { x86::bounds4x2_f32(q, rows, q_rest, row_rest, cut) };
        }
    }
    let mut dots = [0.0f32; 8];
    let mut mask = 0u32;
    for (j, qj) in q.iter().enumerate() {
        for (r, row) in rows.iter().enumerate() {
            let dot = portable::dot1_f32(qj, row);
            dots[2 * j + r] = dot;
            mask |= u32::from(dot + q_rest[j] * row_rest[r] >= cut) << (2 * j + r);
        }
    }
    (dots, mask)
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
        _mm_cmpge_ps, _mm_cvtsd_f64, _mm_cvtss_f32, _mm_loadu_ps, _mm_movehl_ps, _mm_movemask_ps,
        _mm_mul_ps, _mm_set1_ps, _mm_setr_ps, _mm_shuffle_ps, _mm_storeu_ps, _mm_unpackhi_pd,
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

    /// Four queries against two rows: eight accumulators (one per pair); each 8-float chunk
    /// costs 4 query loads (from L1) and 2 row loads for 8 FMAs. The bounds are tested with
    /// two 4-wide compares.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn bounds4x2_f32(
        q: [&[f32]; 4],
        rows: [&[f32]; 2],
        q_rest: [f32; 4],
        row_rest: [f32; 2],
        cut: f32,
    ) -> ([f32; 8], u32) {
        let s = q[0].len();
        assert!(q.iter().all(|x| x.len() == s) && rows.iter().all(|r| r.len() == s));
        let p = q.map(<[f32]>::as_ptr);
        let (r0, r1) = (rows[0].as_ptr(), rows[1].as_ptr());
        let mut a = [_mm256_setzero_ps(); 8];
        let mut i = 0;
        // SAFETY (all loads): i + 8 <= s and every slice holds s values.
        unsafe {
            while i + 8 <= s {
                let y0 = _mm256_loadu_ps(r0.add(i));
                let y1 = _mm256_loadu_ps(r1.add(i));
                for j in 0..4 {
                    let x = _mm256_loadu_ps(p[j].add(i));
                    a[2 * j] = _mm256_fmadd_ps(x, y0, a[2 * j]);
                    a[2 * j + 1] = _mm256_fmadd_ps(x, y1, a[2 * j + 1]);
                }
                i += 8;
            }
        }
        let mut lo = hsum4_ps(a[0], a[1], a[2], a[3]);
        let mut hi = hsum4_ps(a[4], a[5], a[6], a[7]);
        if i < s {
            let mut tail = [0.0f32; 8];
            for t in i..s {
                for j in 0..4 {
                    tail[2 * j] += q[j][t] * rows[0][t];
                    tail[2 * j + 1] += q[j][t] * rows[1][t];
                }
            }
            // SAFETY: `tail` holds 8 f32, read as two unaligned 128-bit loads.
            unsafe {
                lo = _mm_add_ps(lo, _mm_loadu_ps(tail.as_ptr()));
                hi = _mm_add_ps(hi, _mm_loadu_ps(tail.as_ptr().add(4)));
            }
        }
        let rr = _mm_setr_ps(row_rest[0], row_rest[1], row_rest[0], row_rest[1]);
        let qlo = _mm_setr_ps(q_rest[0], q_rest[0], q_rest[1], q_rest[1]);
        let qhi = _mm_setr_ps(q_rest[2], q_rest[2], q_rest[3], q_rest[3]);
        let cutv = _mm_set1_ps(cut);
        let pass_lo = _mm_cmpge_ps(_mm_add_ps(lo, _mm_mul_ps(qlo, rr)), cutv);
        let pass_hi = _mm_cmpge_ps(_mm_add_ps(hi, _mm_mul_ps(qhi, rr)), cutv);
        let mask = _mm_movemask_ps(pass_lo).cast_unsigned()
            | (_mm_movemask_ps(pass_hi).cast_unsigned() << 4);
        let mut dots = [0.0f32; 8];
        // SAFETY: `dots` holds 8 f32, written as two unaligned 128-bit stores.
        unsafe {
            _mm_storeu_ps(dots.as_mut_ptr(), lo);
            _mm_storeu_ps(dots.as_mut_ptr().add(4), hi);
        }
        (dots, mask)
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

    /// `q` against four rows of the same length: 8 accumulators (two per row) hide the FMA
    /// latency and each chunk of `q` is loaded once for the four rows.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot4_f32(q: &[f32], rows: [&[f32]; 4]) -> [f32; 4] {
        let s = q.len();
        assert!(rows.iter().all(|r| r.len() == s));
        let pq = q.as_ptr();
        let pr = rows.map(<[f32]>::as_ptr);
        let mut a = [_mm256_setzero_ps(); 8];
        let mut i = 0;
        // SAFETY (all loads): i + 16 <= s (or i + 8 <= s) and every slice holds s values.
        unsafe {
            while i + 16 <= s {
                let q0 = _mm256_loadu_ps(pq.add(i));
                let q1 = _mm256_loadu_ps(pq.add(i + 8));
                for r in 0..4 {
                    a[2 * r] = _mm256_fmadd_ps(q0, _mm256_loadu_ps(pr[r].add(i)), a[2 * r]);
                    a[2 * r + 1] =
                        _mm256_fmadd_ps(q1, _mm256_loadu_ps(pr[r].add(i + 8)), a[2 * r + 1]);
                }
                i += 16;
            }
            while i + 8 <= s {
                let q0 = _mm256_loadu_ps(pq.add(i));
                for r in 0..4 {
                    a[2 * r] = _mm256_fmadd_ps(q0, _mm256_loadu_ps(pr[r].add(i)), a[2 * r]);
                }
                i += 8;
            }
        }
        let mut out = [0.0f32; 4];
        for (r, o) in out.iter_mut().enumerate() {
            let mut t = hsum_ps(_mm256_add_ps(a[2 * r], a[2 * r + 1]));
            for j in i..s {
                t += q[j] * rows[r][j];
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
            // Rows one longer than the queries: only the first n values may be read.
            let rows: Vec<Vec<f32>> = (0..4)
                .map(|_| (0..=n).map(|_| lcg(&mut seed)).collect())
                .collect();
            let want = |q: &[f32], r: usize| -> f64 {
                q.iter()
                    .zip(&rows[r])
                    .map(|(x, y)| f64::from(*x) * f64::from(*y))
                    .sum()
            };
            let close = |got: f32, want: f64| (f64::from(got) - want).abs() < 1e-5;
            let four = dot4_f32(&a, [&rows[0], &rows[1], &rows[2], &rows[3]]);
            let (quad, mask) = bounds4x2_f32(
                [&a, &b, &b, &a],
                [&rows[1][..n], &rows[3][..n]],
                [0.5, 0.25, 0.0, 1.0],
                [0.5, 1.0],
                0.1,
            );
            for r in 0..4 {
                assert!(close(four[r], want(&a, r)), "n={n} r={r}");
                assert!(
                    close(dot1_f32(&a, &rows[r][..n]), want(&a, r)),
                    "n={n} r={r}"
                );
            }
            let q_rest = [0.5f32, 0.25, 0.0, 1.0];
            for (j, q) in [&a, &b, &b, &a].iter().enumerate() {
                assert!(close(quad[2 * j], want(q, 1)), "n={n} j={j}");
                assert!(close(quad[2 * j + 1], want(q, 3)), "n={n} j={j}");
                for (r, rr) in [0.5f32, 1.0].iter().enumerate() {
                    let bound = quad[2 * j + r] + q_rest[j] * rr;
                    let bit = (mask >> (2 * j + r)) & 1 == 1;
                    assert_eq!(bit, bound >= 0.1, "n={n} j={j} r={r}");
                }
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
