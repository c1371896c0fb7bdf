//! Maximal marginal relevance (the reference's `mmr`).
//!
//! Greedy: each step picks the remaining item with the largest `λ·rel − (1−λ)·max_sim`, where
//! `max_sim` is the largest cosine to the items already picked (0 before the first pick); ties
//! go to the earlier (better-ranked) item. Every cosine is clamped and rounded to 6 decimals
//! as cosine dedupe reports it (`cosine::report`), so both backends score from the same
//! numbers with the same double operations, and an exact tie is a tie in both. After a pick every remaining item's `max_sim` is
//! updated with its cosine to the pick. O(k · n · dim) time, O(n) extra space; the update loop
//! runs on rayon's pool for large inputs (each item's value is computed alone, so the result
//! does not depend on the thread count).

use rayon::prelude::*;

use super::cosine::report;
use super::dot::Element;
use super::matrix::Matrix;

/// Work (`n * dim`) below which a step's update stays on the calling thread.
const PARALLEL_MIN_WORK: usize = 1 << 20;

/// Cosine of each row to the single row of `query`, clamped and rounded (`cosine::report`).
pub fn relevance<T: Element>(m: &Matrix<'_, T>, query: &Matrix<'_, f64>) -> Vec<f64> {
    let q = query.row(0);
    let inv_q = query.inv_norm(0);
    (0..m.len())
        .map(|i| report(mixed_dot(q, m.row(i)) * inv_q * m.inv_norm(i)))
        .collect()
}

/// `sum(q[i] * x[i])` in f64 with eight independent accumulators.
fn mixed_dot<T: Element>(q: &[f64], x: &[T]) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut cq = q.chunks_exact(8);
    let mut cx = x.chunks_exact(8);
    for (a, b) in (&mut cq).zip(&mut cx) {
        for l in 0..8 {
            acc[l] += a[l] * b[l].to_f64();
        }
    }
    let tail: f64 = cq
        .remainder()
        .iter()
        .zip(cx.remainder())
        .map(|(a, b)| a * b.to_f64())
        .sum();
    acc.iter().sum::<f64>() + tail
}

/// The indices of up to `k` picks, in pick order. `rel` has one finite entry per row and
/// `lambda` lies in [0, 1].
pub fn mmr<T: Element>(m: &Matrix<'_, T>, rel: &[f64], k: usize, lambda: f64) -> Vec<usize> {
    let n = m.len().min(rel.len());
    let want = k.min(n);
    let parallel =
        n.saturating_mul(m.dim()) >= PARALLEL_MIN_WORK && rayon::current_num_threads() > 1;
    let mut picked = Vec::with_capacity(want);
    let mut taken = vec![false; n];
    // Largest cosine to the picked items; read only after the first pick.
    let mut max_sim = vec![f64::NEG_INFINITY; n];
    while picked.len() < want {
        let first = picked.is_empty();
        let mut best: Option<usize> = None;
        let mut best_score = f64::NEG_INFINITY;
        for i in 0..n {
            if taken[i] {
                continue;
            }
            let sim = if first { 0.0 } else { max_sim[i] };
            let score = lambda * rel[i] - (1.0 - lambda) * sim;
            if score > best_score {
                best = Some(i);
                best_score = score;
            }
        }
        // Finite inputs always give a pick; stop rather than loop if they did not.
        let Some(pick) = best else { break };
        picked.push(pick);
        taken[pick] = true;
        let update = |(i, s): (usize, &mut f64)| {
            if !taken[i] {
                let cos = report(m.cosine(i, pick));
                if cos > *s {
                    *s = cos;
                }
            }
        };
        if parallel {
            max_sim.par_iter_mut().enumerate().for_each(update);
        } else {
            max_sim.iter_mut().enumerate().for_each(update);
        }
    }
    picked
}

#[cfg(test)]
// Tests may panic on bad fixtures, and their generators cast freely.
#[allow(clippy::unwrap_used, clippy::cast_sign_loss)]
mod tests {
    use super::*;

    #[test]
    fn reference_doctest() {
        let data = [1.0f64, 0.0, 0.99, 0.1, 0.6, 0.8];
        let m = Matrix::new(&data, 3, 2).unwrap();
        let q = [1.0f64, 0.0];
        let q = Matrix::new(&q, 1, 2).unwrap();
        let rel = relevance(&m, &q);
        assert_eq!(mmr(&m, &rel, 2, 0.3), vec![0, 2]);
        assert_eq!(mmr(&m, &rel, 10, 1.0), vec![0, 1, 2]);
        assert!(mmr(&m, &rel, 0, 0.5).is_empty());
    }

    #[test]
    fn ties_go_to_the_earlier_item() {
        let data = [1.0f32, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0];
        let m = Matrix::new(&data, 4, 2).unwrap();
        assert_eq!(mmr(&m, &[0.5, 0.5, 0.5, 0.5], 4, 0.5), vec![0, 2, 1, 3]);
        assert_eq!(mmr(&m, &[0.5, 0.5, 0.5, 0.5], 4, 1.0), vec![0, 1, 2, 3]);
    }

    #[test]
    fn large_input_is_the_same_on_one_thread_and_many() {
        let (n, dim) = (300, 4096);
        let mut seed = 5u64;
        let data: Vec<f32> = (0..n * dim)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
            })
            .collect();
        let m = Matrix::new(&data, n, dim).unwrap();
        let rel: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let one = pool.install(|| mmr(&m, &rel, 50, 0.7));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        assert_eq!(pool.install(|| mmr(&m, &rel, 50, 0.7)), one);
    }
}
