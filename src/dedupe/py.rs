//! Python bindings of the dedupe kernels: extract -> validate -> `py.detach(kernel)` -> columns.
//!
//! Arguments are checked exactly like `briefpack._checks` (same order, same `InputError`
//! messages, `{value!r}` rendered by Python's `repr`), so both backends reject bad input alike.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

use super::Dedupe;
use crate::errors::InputError;
use crate::text::py::extract_texts;

/// `(kept, duplicate_of, similarity)`, the columns `DedupeResult` wraps.
type DedupeOut = (Vec<usize>, Vec<Option<usize>>, Vec<Option<f64>>);

impl From<Dedupe> for DedupeOut {
    fn from(d: Dedupe) -> Self {
        (d.kept(), d.duplicate_of, d.similarity)
    }
}

/// A keyword argument as Python passed it, or `Default` when omitted. Checking the object
/// ourselves (rather than letting `PyO3` convert it) gives the reference's messages, and an
/// explicit `None` is rejected like any other non-number, as the reference does.
pub(crate) enum Param<'py> {
    Default,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Param<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Self::Given(obj.to_owned()))
    }
}

fn repr(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.repr()?.to_string())
}

fn is_int(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>()
}

/// `_checks.check_unit_interval`: an int or float (not a bool) in [0, 1] (NaN rejected).
pub(crate) fn check_unit_interval(name: &str, value: Param<'_>, default: f64) -> PyResult<f64> {
    let Param::Given(value) = value else {
        return Ok(default);
    };
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "{name} must be a number in [0, 1], got {}",
            repr(&value)?
        )))
    };
    if !(is_int(&value) || value.is_instance_of::<PyFloat>()) {
        return Err(bad()?);
    }
    // float(value): an int too large for a float raises OverflowError, as in the reference.
    let x: f64 = value.extract()?;
    if !(0.0..=1.0).contains(&x) {
        return Err(bad()?);
    }
    Ok(x)
}

/// `_checks.check_count`: an int (not a bool) `>= minimum`, saturated to `usize::MAX`.
fn check_count(name: &str, value: Param<'_>, minimum: usize, default: usize) -> PyResult<usize> {
    let Param::Given(value) = value else {
        return Ok(default);
    };
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "{name} must be an int >= {minimum}, got {}",
            repr(&value)?
        )))
    };
    if !is_int(&value) || value.lt(minimum)? {
        return Err(bad()?);
    }
    Ok(value.extract::<usize>().unwrap_or(usize::MAX))
}

/// `_checks.check_seed`: an int (not a bool) in [0, 2**64 - 1].
fn check_seed(value: Param<'_>) -> PyResult<u64> {
    let Param::Given(value) = value else {
        return Ok(0);
    };
    if is_int(&value) {
        if let Ok(seed) = value.extract::<u64>() {
            return Ok(seed);
        }
    }
    Err(InputError::new_err(format!(
        "seed must be an int in [0, 2**64 - 1], got {}",
        repr(&value)?
    )))
}

/// Drop items whose whitespace-normalised text equals an earlier one's.
#[pyfunction]
#[pyo3(signature = (texts))]
fn dedupe_exact(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<DedupeOut> {
    let texts = extract_texts(texts)?;
    Ok(py.detach(|| super::exact(&texts)).into())
}

/// Drop items whose word-set Jaccard similarity to a kept item is `>= threshold`.
#[pyfunction]
#[pyo3(signature = (texts, threshold = Param::Default), text_signature = "(texts, threshold=0.7)")]
fn dedupe_jaccard(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    threshold: Param<'_>,
) -> PyResult<DedupeOut> {
    let texts = extract_texts(texts)?;
    let t = check_unit_interval("threshold", threshold, 0.7)?;
    match py.detach(|| super::jaccard(&texts, t)) {
        Ok(d) => Ok(d.into()),
        Err(e) => Err(InputError::new_err(e.to_string())),
    }
}

/// Drop items whose `MinHash` estimate to a kept item sharing an LSH band is `>= threshold`.
#[pyfunction]
#[pyo3(
    signature = (
        texts,
        threshold = Param::Default,
        num_perm = Param::Default,
        shingle = Param::Default,
        seed = Param::Default,
    ),
    text_signature = "(texts, threshold=0.8, num_perm=128, shingle=3, seed=0)"
)]
fn dedupe_minhash(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    threshold: Param<'_>,
    num_perm: Param<'_>,
    shingle: Param<'_>,
    seed: Param<'_>,
) -> PyResult<DedupeOut> {
    let texts = extract_texts(texts)?;
    let t = check_unit_interval("threshold", threshold, 0.8)?;
    let num_perm = check_count("num_perm", num_perm, 1, 128)?;
    let shingle = check_count("shingle", shingle, 1, 3)?;
    let seed = check_seed(seed)?;
    if texts.len() >= u32::MAX as usize {
        return Err(InputError::new_err(super::TooLarge.to_string()));
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
    Ok(py
        .detach(|| super::minhash(&texts, t, num_perm, shingle, seed))
        .into())
}

/// Add this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dedupe_exact, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_jaccard, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_minhash, m)?)?;
    Ok(())
}
