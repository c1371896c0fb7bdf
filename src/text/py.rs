//! Python bindings of the normalisation kernels.

use pyo3::prelude::*;

use crate::checks;

/// Each text's lowercased words, in order, repeats kept (`reference.text.words` per text).
#[pyfunction]
#[pyo3(signature = (texts))]
fn words(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<String>>> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| texts.iter().map(|t| super::words(t)).collect()))
}

/// Each text's number of words (`len(reference.text.words(t))` per text), without building
/// them: the word splitting of the dedupe kernels alone.
#[pyfunction]
#[pyo3(signature = (texts))]
fn word_counts(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| {
        texts
            .iter()
            .map(|t| {
                let mut n = 0;
                super::for_each_word(t, |_| n += 1);
                n
            })
            .collect()
    }))
}

/// Each text's exact key: whitespace runs collapsed to one space, both ends stripped.
#[pyfunction]
#[pyo3(signature = (texts))]
fn exact_keys(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| {
        texts
            .iter()
            .map(|t| super::exact_key(t).into_owned())
            .collect()
    }))
}

/// Each text in Normalisation Form C by the table (`reference.text.nfc` per text).
#[pyfunction]
#[pyo3(signature = (texts))]
fn nfc(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| texts.iter().map(|t| super::nfc(t).into_owned()).collect()))
}

/// Each text in Normalisation Form KC by the table (`reference.text.nfkc` per text).
#[pyfunction]
#[pyo3(signature = (texts))]
fn nfkc(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| texts.iter().map(|t| super::nfkc(t).into_owned()).collect()))
}

/// Add this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(words, m)?)?;
    m.add_function(wrap_pyfunction!(word_counts, m)?)?;
    m.add_function(wrap_pyfunction!(exact_keys, m)?)?;
    m.add_function(wrap_pyfunction!(nfc, m)?)?;
    m.add_function(wrap_pyfunction!(nfkc, m)?)?;
    Ok(())
}
