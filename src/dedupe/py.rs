//! Python bindings of the dedupe kernels: extract -> `py.detach(kernel)` -> columns.
//!
//! Arguments are extracted in the reference's order through `crate::checks`, so a bad one gets
//! the reference's message, written once in `briefpack._checks`.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use super::{Dedupe, Saved, TooLarge};
use crate::checks::{self, saturate, Arg};
use crate::errors::InputError;

/// `(kept, duplicate_of, similarity)`, the columns `DedupeResult` wraps: what every dedupe
/// binding returns (texts, vectors and pages alike).
pub(crate) type DedupeOut = (Vec<usize>, Vec<Option<usize>>, Vec<Option<f64>>);

impl From<Dedupe> for DedupeOut {
    fn from(d: Dedupe) -> Self {
        (d.kept(), d.duplicate_of, d.similarity)
    }
}

/// The columns a guarded kernel returns: `DedupeOut` and, when the guard saved some item,
/// `near_of`, `near_similarity` and `kept_because` (`GuardedResult`'s six arguments).
pub(crate) fn columns(
    py: Python<'_>,
    d: Dedupe,
    saved: Option<Saved>,
) -> PyResult<Bound<'_, PyAny>> {
    let out: DedupeOut = d.into();
    let saved = saved.filter(|s| s.kept_because.iter().any(Option::is_some));
    Ok(match saved {
        None => out.into_pyobject(py)?.into_any(),
        Some(s) => (out.0, out.1, out.2, s.near_of, s.similarity, s.kept_because)
            .into_pyobject(py)?
            .into_any(),
    })
}

/// Drop items whose whitespace-normalised text equals an earlier one's.
#[pyfunction]
#[pyo3(signature = (texts))]
fn dedupe_exact(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<DedupeOut> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| super::exact(&texts)).into())
}

/// Drop items whose word-set Jaccard similarity to a kept item is `>= threshold`.
#[pyfunction]
#[pyo3(
    signature = (texts, threshold = Arg::Omitted, *, guard = false),
    text_signature = "(texts, threshold=0.7, *, guard=False)"
)]
fn dedupe_jaccard<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    threshold: Arg<'py>,
    guard: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let texts = checks::texts(texts, "texts")?;
    let t = threshold.unit_interval(py, "threshold", 0.7)?;
    if guard {
        let (d, saved) = py.detach(|| super::jaccard_guarded(&texts, t))?;
        return columns(py, d, Some(saved));
    }
    columns(py, py.detach(|| super::jaccard(&texts, t))?, None)
}

/// Drop items whose `MinHash` estimate to a kept item sharing an LSH band is `>= threshold`.
#[pyfunction]
#[pyo3(
    signature = (
        texts,
        threshold = Arg::Omitted,
        num_perm = Arg::Omitted,
        shingle = Arg::Omitted,
        seed = Arg::Omitted,
        *,
        guard = false,
    ),
    text_signature = "(texts, threshold=0.8, num_perm=128, shingle=3, seed=0, *, guard=False)"
)]
fn dedupe_minhash<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    threshold: Arg<'py>,
    num_perm: Arg<'py>,
    shingle: Arg<'py>,
    seed: Arg<'py>,
    guard: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let texts = checks::texts(texts, "texts")?;
    let t = threshold.unit_interval(py, "threshold", 0.8)?;
    let num_perm = saturate(num_perm.count(py, "num_perm", 1, 128)?);
    let shingle = saturate(shingle.count(py, "shingle", 1, 3)?);
    let seed = match seed {
        Arg::Omitted => 0,
        Arg::Given(v) => checks::check(py, "check_seed", (v,), None)?.extract()?,
    };
    if texts.len() >= u32::MAX as usize {
        return Err(TooLarge.into());
    }
    // The reference has no upper bound on num_perm (it runs out of memory); fail the same way
    // instead of aborting the process when the permutation tables cannot be allocated.
    let mut probe: Vec<u64> = Vec::new();
    if probe.try_reserve_exact(num_perm.saturating_mul(3)).is_err() {
        return Err(PyMemoryError::new_err(format!(
            "num_perm={num_perm} needs more memory than is available"
        )));
    }
    drop(probe);
    if guard {
        let (d, saved) = py.detach(|| super::minhash_guarded(&texts, t, num_perm, shingle, seed));
        return columns(py, d, Some(saved));
    }
    let d = py.detach(|| super::minhash(&texts, t, num_perm, shingle, seed));
    columns(py, d, None)
}

/// A kernel error raised from Rust: the batch is beyond the kernels' 32-bit indices.
impl From<TooLarge> for PyErr {
    fn from(e: TooLarge) -> Self {
        InputError::new_err(e.to_string())
    }
}

/// Add this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dedupe_exact, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_jaccard, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_minhash, m)?)?;
    Ok(())
}
