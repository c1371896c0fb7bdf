//! Python binding of the token counters: extract and validate while attached, count detached.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PySequence, PyString};

use super::{count_batch, count_limited_batch, file, Encoding, CACHE};
use crate::checks;
use crate::errors::InputError;
use crate::vectors::args::type_name;

/// The `encoding` argument: a known name, or whatever else was passed, rejected after the
/// texts are checked, in the reference's order.
pub enum EncodingArg<'py> {
    Known(Encoding),
    Unknown(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for EncodingArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.cast::<PyString>() {
            if let Some(enc) = s.to_cow().ok().and_then(|name| Encoding::from_name(&name)) {
                return Ok(Self::Known(enc));
            }
        }
        Ok(Self::Unknown(obj.to_owned()))
    }
}

impl EncodingArg<'_> {
    /// The encoding, or `choice`'s "must be one of" message (the core counts no callables).
    fn check(self) -> PyResult<Encoding> {
        match self {
            Self::Known(enc) => Ok(enc),
            Self::Unknown(obj) => Err(checks::rejected(obj.py(), "check_encoding_name", (obj,))),
        }
    }
}

fn extract_limits(limits: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
    if limits.is_instance_of::<PyString>()
        || limits.is_instance_of::<PyBytes>()
        || !limits.is_instance_of::<PySequence>()
    {
        return Err(InputError::new_err(format!(
            "limits must be a list of int, got {}",
            type_name(limits)?
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (i, item) in limits.try_iter()?.enumerate() {
        out.push(checks::saturate(checks::count(
            limits.py(),
            &format!("limits[{i}]"),
            &item?,
            0,
        )?));
    }
    if out.len() != n {
        return Err(InputError::new_err(format!(
            "limits has {} items but texts has {n}; pass one limit per text",
            out.len()
        )));
    }
    Ok(out)
}

/// Count the tokens of each text, exactly as tiktoken's `len(enc.encode_ordinary(text))`.
/// `segments=True` also caches the counts of the texts' segments (see `count_cached`).
#[pyfunction]
#[pyo3(
    signature = (texts, encoding = EncodingArg::Known(Encoding::O200kBase), *, segments = false),
    text_signature = "(texts, encoding='o200k_base', *, segments=False)"
)]
fn count_tokens<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    encoding: EncodingArg<'py>,
    segments: bool,
) -> PyResult<Vec<usize>> {
    let texts = checks::texts(texts, "texts")?;
    let encoding = encoding.check()?;
    Ok(py.detach(|| count_batch(encoding, &texts, Some(&CACHE), segments)))
}

/// For each text, its exact count if that is `<= limits[i]`, else some count `> limits[i]`.
#[pyfunction]
#[pyo3(
    signature = (texts, limits, encoding = EncodingArg::Known(Encoding::O200kBase), *, segments = false),
    text_signature = "(texts, limits, encoding='o200k_base', *, segments=False)"
)]
fn count_tokens_limited<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    limits: &Bound<'py, PyAny>,
    encoding: EncodingArg<'py>,
    segments: bool,
) -> PyResult<Vec<usize>> {
    let texts = checks::texts(texts, "texts")?;
    let limits = extract_limits(limits, texts.len())?;
    let encoding = encoding.check()?;
    Ok(py.detach(|| count_limited_batch(encoding, &texts, &limits, Some(&CACHE), segments)))
}

/// Empty the token-count cache and let it hold at most `capacity` counts (0 disables it).
#[pyfunction]
fn set_token_cache_capacity(capacity: &Bound<'_, PyAny>) -> PyResult<()> {
    CACHE.reset(checks::saturate(checks::count(
        capacity.py(),
        "capacity",
        capacity,
        0,
    )?));
    Ok(())
}

/// The token-count cache's counters: hits, misses, size, capacity.
#[pyfunction]
fn token_cache_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let info = CACHE.info();
    let d = PyDict::new(py);
    d.set_item("hits", info.hits)?;
    d.set_item("misses", info.misses)?;
    d.set_item("size", info.size)?;
    d.set_item("capacity", info.capacity)?;
    Ok(d)
}

/// The built-in vocabulary `name` (`o200k_base` or `cl100k_base`) in tiktoken's file format.
#[pyfunction]
fn vocabulary<'py>(py: Python<'py>, name: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let known = name
        .cast::<PyString>()
        .ok()
        .and_then(|s| s.to_cow().ok().and_then(|n| Encoding::from_name(&n)));
    let file = known.and_then(|enc| py.detach(|| file::tiktoken_file(enc)));
    match file {
        Some(bytes) => Ok(PyBytes::new(py, &bytes)),
        None => Err(InputError::new_err(format!(
            "name must be 'o200k_base' or 'cl100k_base' (the vocabularies built in), got {}",
            name.repr()?
        ))),
    }
}

/// Add the token functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokens_limited, m)?)?;
    m.add_function(wrap_pyfunction!(set_token_cache_capacity, m)?)?;
    m.add_function(wrap_pyfunction!(token_cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(vocabulary, m)?)?;
    Ok(())
}
