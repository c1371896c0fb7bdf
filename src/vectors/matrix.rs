//! A validated row-major matrix of vectors with the inverse of each row's norm.
//!
//! The rows are borrowed (a `NumPy` buffer read in place) unless a float64 row is so large or so
//! small that its squares would overflow or underflow: then the matrix owns a copy in which
//! each such row is scaled by a power of two (exact, so its direction is unchanged).

use std::borrow::Cow;
use std::fmt;

use super::dot::Element;

/// What is wrong with a row; the binding names the row (`vectors[3]`, `query_vector`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorError {
    /// The vector has no components.
    Empty(usize),
    /// A component is NaN or infinite.
    NonFinite(usize),
    /// Every component is zero.
    ZeroNorm(usize),
}

impl VectorError {
    /// The row the error is about.
    pub fn row(self) -> usize {
        match self {
            Self::Empty(i) | Self::NonFinite(i) | Self::ZeroNorm(i) => i,
        }
    }

    /// The reference's message for this error, with `what` naming the vector.
    pub fn message(self, what: &str) -> String {
        match self {
            Self::Empty(_) => format!("{what} is empty; vectors need at least one dimension"),
            Self::NonFinite(_) => format!("{what} holds NaN or infinity; vectors must be finite"),
            Self::ZeroNorm(_) => {
                format!("{what} has zero norm; cosine is undefined for a zero vector")
            }
        }
    }
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&format!("vectors[{}]", self.row())))
    }
}

impl std::error::Error for VectorError {}

/// The reference's value checks on one vector, in its order: empty, not finite, zero norm.
pub fn row_error(values: &[f64], row: usize) -> Option<VectorError> {
    if values.is_empty() {
        return Some(VectorError::Empty(row));
    }
    if !values.iter().all(|x| x.is_finite()) {
        return Some(VectorError::NonFinite(row));
    }
    if values.iter().all(|&x| x == 0.0) {
        return Some(VectorError::ZeroNorm(row));
    }
    None
}

/// What is wrong with the first bad row of a batch (`first_fault`).
#[derive(Debug, PartialEq, Eq)]
pub enum RowFault {
    Value(VectorError),
    /// `(row, its dimension, the first row's)`.
    Ragged(usize, usize, usize),
}

/// The first row (of `lens.len()` rows laid end to end in `data`) that fails the value checks
/// or whose dimension differs from the first row's; the row's own checks come first.
pub fn first_fault(data: &[f64], lens: &[usize]) -> Option<RowFault> {
    let dim = *lens.first()?;
    let mut start = 0;
    for (i, &len) in lens.iter().enumerate() {
        if let Some(e) = row_error(&data[start..start + len], i) {
            return Some(RowFault::Value(e));
        }
        if len != dim {
            return Some(RowFault::Ragged(i, len, dim));
        }
        start += len;
    }
    None
}

/// Rows whose largest magnitude lies outside `[2^-MAX_EXP, 2^MAX_EXP]` are rescaled: inside it,
/// products of two components and sums of `dim` of them stay far from f64 overflow, and the
/// products that underflow are negligible next to the product of the two norms.
const MAX_EXP: i32 = 400;

/// `n` vectors of dimension `dim`, row-major, each with a finite non-zero norm.
#[derive(Debug, Clone)]
pub struct Matrix<'a, T: Element> {
    data: Cow<'a, [T]>,
    n: usize,
    dim: usize,
    inv_norm: Vec<f64>,
}

impl<'a, T: Element + Scale> Matrix<'a, T> {
    /// Validate `data` (`n * dim` values, row-major) row by row, in the reference's order:
    /// for each row, empty, then non-finite, then zero norm.
    ///
    /// # Errors
    /// The first bad row's [`VectorError`].
    pub fn new(data: &'a [T], n: usize, dim: usize) -> Result<Self, VectorError> {
        assert_eq!(
            data.len(),
            n.saturating_mul(dim),
            "data must hold n * dim values"
        );
        if n > 0 && dim == 0 {
            return Err(VectorError::Empty(0));
        }
        let mut inv_norm = Vec::with_capacity(n);
        let mut rescale: Vec<(usize, i32)> = Vec::new();
        for (i, row) in data.chunks_exact(dim.max(1)).take(n).enumerate() {
            // Branch-free so that it vectorises; NaN fails `is_finite` and never raises the max.
            let mut max_abs = 0.0f64;
            let mut finite = true;
            for &x in row {
                let a = x.to_f64().abs();
                finite &= a.is_finite();
                max_abs = if a > max_abs { a } else { max_abs };
            }
            if !finite {
                return Err(VectorError::NonFinite(i));
            }
            if max_abs == 0.0 {
                return Err(VectorError::ZeroNorm(i));
            }
            let e = exponent(max_abs);
            if T::MAY_OVERFLOW && !(-MAX_EXP..=MAX_EXP).contains(&e) {
                rescale.push((i, e));
                inv_norm.push(0.0); // filled in below, from the scaled row
            } else {
                inv_norm.push(1.0 / T::dot(row, row).sqrt());
            }
        }
        let data = if rescale.is_empty() {
            Cow::Borrowed(data)
        } else {
            let mut owned = data.to_vec();
            for &(i, e) in &rescale {
                let row = &mut owned[i * dim..(i + 1) * dim];
                for x in row.iter_mut() {
                    *x = x.scale_pow2(-e);
                }
                inv_norm[i] = 1.0 / T::dot(row, row).sqrt();
            }
            Cow::Owned(owned)
        };
        Ok(Self {
            data,
            n,
            dim,
            inv_norm,
        })
    }
}

impl<T: Element> Matrix<'_, T> {
    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no vectors.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Dimension of every vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Row `i` (possibly scaled by a power of two).
    #[inline]
    pub fn row(&self, i: usize) -> &[T] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// `1 / ||row(i)||`.
    #[inline]
    pub fn inv_norm(&self, i: usize) -> f64 {
        self.inv_norm[i]
    }

    /// Cosine similarity of rows `i` and `j`, clamped to [-1, 1].
    #[inline]
    pub fn cosine(&self, i: usize, j: usize) -> f64 {
        (T::dot(self.row(i), self.row(j)) * self.inv_norm[i] * self.inv_norm[j]).clamp(-1.0, 1.0)
    }

    /// True when the rows are read in place (no copy was needed).
    #[cfg(test)]
    pub fn is_borrowed(&self) -> bool {
        matches!(self.data, Cow::Borrowed(_))
    }
}

/// The binary exponent `e` with `2^(e-1) <= x < 2^e` (for finite `x > 0`).
fn exponent(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // Subnormal: the leading one is in the mantissa.
        let mant = bits & ((1u64 << 52) - 1);
        -1010 - i32::try_from(mant.leading_zeros()).unwrap_or(0)
    } else {
        biased - 1022
    }
}

/// Exact scaling by powers of two, for the float64 rows that need it.
pub trait Scale: Sized {
    /// Whether squares of this type's finite values can overflow or underflow in f64.
    const MAY_OVERFLOW: bool;
    /// `self * 2^e`.
    #[must_use]
    fn scale_pow2(self, e: i32) -> Self;
}

impl Scale for f32 {
    const MAY_OVERFLOW: bool = false;
    fn scale_pow2(self, _e: i32) -> Self {
        self
    }
}

impl Scale for f64 {
    const MAY_OVERFLOW: bool = true;
    fn scale_pow2(self, e: i32) -> Self {
        // Two steps so that neither factor over- or underflows for |e| <= 2100.
        let half = e / 2;
        self * pow2(half) * pow2(e - half)
    }
}

fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(u64::from((e + 1023).unsigned_abs()) << 52)
}

#[cfg(test)]
// Tests may panic on bad fixtures, and their generators cast freely.
#[allow(clippy::unwrap_used, clippy::cast_sign_loss)]
mod tests {
    use super::*;

    #[test]
    fn errors_come_in_the_reference_order() {
        assert_eq!(
            Matrix::<f32>::new(&[], 3, 0).unwrap_err(),
            VectorError::Empty(0)
        );
        let d = [1.0f32, 0.0, 0.0, 0.0, f32::NAN, 0.0];
        assert_eq!(Matrix::new(&d, 3, 2).unwrap_err(), VectorError::ZeroNorm(1));
        let d = [1.0f64, 0.0, f64::INFINITY, 0.0, 0.0, 0.0];
        assert_eq!(
            Matrix::new(&d, 3, 2).unwrap_err(),
            VectorError::NonFinite(1)
        );
        assert_eq!(
            VectorError::ZeroNorm(3).to_string(),
            "vectors[3] has zero norm; cosine is undefined for a zero vector"
        );
        assert!(Matrix::<f32>::new(&[], 0, 5).unwrap().is_empty());
    }

    #[test]
    fn extreme_float64_rows_are_rescaled_exactly() {
        let d = [3e-320f64, 4e-320, 3e300, 4e300, 3.0, 4.0];
        let m = Matrix::new(&d, 3, 2).unwrap();
        assert!(!m.is_borrowed());
        for i in 0..3 {
            assert!((m.cosine(i, 2) - 1.0).abs() < 1e-12, "row {i}");
        }
        let tiny = [1e-200f64, 0.0, 0.0, 1e-200];
        let m = Matrix::new(&tiny, 2, 2).unwrap();
        assert!(m.cosine(0, 1).abs() < 1e-15);
        assert!((m.cosine(0, 0) - 1.0).abs() < 1e-15);
        let fine = [1.0f64, 2.0];
        assert!(Matrix::new(&fine, 1, 2).unwrap().is_borrowed());
    }

    #[test]
    fn exponent_brackets_the_value() {
        // 2^k exactly, subnormals included (powi may underflow on the way there).
        let exact = |k: i32| {
            if k >= -1022 {
                pow2(k.min(1023)) * if k > 1023 { 2.0 } else { 1.0 }
            } else {
                f64::from_bits(1u64 << (k + 1074))
            }
        };
        for &x in &[
            1.0,
            0.75,
            1.5,
            1e300,
            1e-300,
            5e-324,
            1e-310,
            2.2e-308,
            f64::MAX,
        ] {
            let e = exponent(x);
            assert!(exact(e - 1) <= x && x < exact(e), "x={x} e={e}");
        }
    }

    #[test]
    fn the_first_bad_row_is_named_and_its_own_checks_come_first() {
        assert_eq!(first_fault(&[1.0, 2.0, 3.0, 4.0], &[2, 2]), None);
        assert_eq!(first_fault(&[], &[]), None);
        // row 1 is both ragged and zero: its value check wins
        assert_eq!(
            first_fault(&[1.0, 2.0, 0.0], &[2, 1]),
            Some(RowFault::Value(VectorError::ZeroNorm(1)))
        );
        assert_eq!(
            first_fault(&[1.0, 2.0, 5.0, 1.0, f64::NAN], &[2, 1, 2]),
            Some(RowFault::Ragged(1, 1, 2))
        );
        assert_eq!(
            first_fault(&[1.0, f64::INFINITY], &[1, 1]),
            Some(RowFault::Value(VectorError::NonFinite(1)))
        );
        assert_eq!(
            first_fault(&[1.0], &[0, 1]),
            Some(RowFault::Value(VectorError::Empty(0)))
        );
    }
}
