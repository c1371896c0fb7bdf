//! Python bindings of the normalisation kernels, and the shared `texts` argument check.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBytes, PySequence, PyString};

use crate::errors::InputError;

/// `type(value).__name__`, as the reference's messages name types.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string())
}

/// The reference's message for a str that holds a lone surrogate (offset in code points).
/// Runs only on the error path, so it may take the slow way through Python.
pub(crate) fn surrogate_error(at: &str, text: &Bound<'_, PyString>) -> PyErr {
    let py = text.py();
    let found = || -> PyResult<(usize, u32)> {
        let Err(err) = text.call_method1("encode", ("utf-8",)) else {
            return Err(InputError::new_err(format!(
                "{at}: text is not valid Unicode"
            )));
        };
        let start: usize = err.value(py).getattr("start")?.extract()?;
        let ch = text.as_any().get_item(start)?;
        let cp: u32 = py
            .import("builtins")?
            .getattr("ord")?
            .call1((ch,))?
            .extract()?;
        Ok((start, cp))
    };
    match found() {
        Ok((start, cp)) => InputError::new_err(format!(
            "{at}: text contains a lone surrogate U+{cp:04X} at offset {start}; \
             pass valid Unicode (decode with errors='replace')"
        )),
        Err(err) => err,
    }
}

/// `texts` as borrowed UTF-8 strings, checked like `briefpack._checks.check_texts`: a sequence
/// (not a str or bytes) of str without lone surrogates, else `InputError` with the same message.
pub(crate) fn extract_texts(texts: &Bound<'_, PyAny>) -> PyResult<Vec<PyBackedStr>> {
    extract_named(texts, "texts")
}

/// [`extract_texts`] for an argument called `name` (`check_texts(texts, name)`).
pub(crate) fn extract_named(texts: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<PyBackedStr>> {
    if texts.is_instance_of::<PyString>()
        || texts.is_instance_of::<PyBytes>()
        || !texts.is_instance_of::<PySequence>()
    {
        return Err(InputError::new_err(format!(
            "{name} must be a list of str, got {}",
            type_name(texts)
        )));
    }
    let mut out = Vec::with_capacity(texts.len().unwrap_or(0));
    for (i, item) in texts.try_iter()?.enumerate() {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Err(InputError::new_err(format!(
                "{name}[{i}]: text must be a str, got {}",
                type_name(&item)
            )));
        };
        match PyBackedStr::try_from(s.clone()) {
            Ok(backed) => out.push(backed),
            Err(_) => return Err(surrogate_error(&format!("{name}[{i}]"), s)),
        }
    }
    Ok(out)
}

/// Each text's lowercased words, in order, repeats kept (`reference.text.words` per text).
#[pyfunction]
#[pyo3(signature = (texts))]
fn words(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<String>>> {
    let texts = extract_texts(texts)?;
    Ok(py.detach(|| texts.iter().map(|t| super::words(t)).collect()))
}

/// Each text's exact key: whitespace runs collapsed to one space, both ends stripped.
#[pyfunction]
#[pyo3(signature = (texts))]
fn exact_keys(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let texts = extract_texts(texts)?;
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
    let texts = extract_texts(texts)?;
    Ok(py.detach(|| texts.iter().map(|t| super::nfc(t).into_owned()).collect()))
}

/// Each text in Normalisation Form KC by the table (`reference.text.nfkc` per text).
#[pyfunction]
#[pyo3(signature = (texts))]
fn nfkc(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let texts = extract_texts(texts)?;
    Ok(py.detach(|| texts.iter().map(|t| super::nfkc(t).into_owned()).collect()))
}

/// Whether every item is a str of valid Unicode (no lone surrogates).
///
/// Reading a str as UTF-8 this way keeps the UTF-8 inside the str object (`CPython` caches it),
/// so the kernels that read the same strs later borrow it instead of encoding again. Anything
/// that is not a str, or not a sequence, answers `False` (the caller then checks one by one).
#[pyfunction]
#[pyo3(signature = (texts))]
fn valid_texts(texts: &Bound<'_, PyAny>) -> PyResult<bool> {
    if texts.is_instance_of::<PyString>() || !texts.is_instance_of::<PySequence>() {
        return Ok(false);
    }
    for item in texts.try_iter()? {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Ok(false);
        };
        if s.to_str().is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Add this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(valid_texts, m)?)?;
    m.add_function(wrap_pyfunction!(words, m)?)?;
    m.add_function(wrap_pyfunction!(exact_keys, m)?)?;
    m.add_function(wrap_pyfunction!(nfc, m)?)?;
    m.add_function(wrap_pyfunction!(nfkc, m)?)?;
    Ok(())
}
