//! Python binding of the token counters: extract and validate while attached, count detached.

use pyo3::exceptions::PyUnicodeEncodeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PySequence, PyString};

use super::{count_batch, count_limited_batch, Encoding, CACHE};
use crate::errors::InputError;

/// `type(value).__name__`, as the reference's `type_name`.
fn type_name(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.get_type().name()?.to_string())
}

/// The `encoding` argument: a known name, or whatever else was passed (its `repr`), rejected
/// after the texts are checked, in the reference's order.
pub enum EncodingArg {
    Known(Encoding),
    Unknown(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for EncodingArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.cast::<PyString>() {
            if let Some(enc) = s.to_cow().ok().and_then(|name| Encoding::from_name(&name)) {
                return Ok(Self::Known(enc));
            }
        }
        Ok(Self::Unknown(obj.repr()?.to_string()))
    }
}

impl EncodingArg {
    fn check(self) -> PyResult<Encoding> {
        match self {
            Self::Known(enc) => Ok(enc),
            Self::Unknown(repr) => Err(InputError::new_err(format!(
                "encoding must be one of 'o200k_base', 'cl100k_base', 'approx' or a callable \
                 str -> int, got {repr}"
            ))),
        }
    }
}

/// The reference's lone-surrogate message for `text`, which failed UTF-8 extraction.
fn surrogate_error(py: Python<'_>, where_: &str, text: &Bound<'_, PyAny>, err: PyErr) -> PyErr {
    let Err(exc) = text.call_method1("encode", ("utf-8",)) else {
        return err;
    };
    if !exc.is_instance_of::<PyUnicodeEncodeError>(py) {
        return exc;
    }
    let found = (|| -> PyResult<(usize, u32)> {
        let start: usize = exc.value(py).getattr("start")?.extract()?;
        let ch = text.get_item(start)?;
        let ord: u32 = py
            .import("builtins")?
            .getattr("ord")?
            .call1((ch,))?
            .extract()?;
        Ok((start, ord))
    })();
    match found {
        Ok((start, ord)) => InputError::new_err(format!(
            "{where_}: text contains a lone surrogate U+{ord:04X} at offset {start}; pass valid \
             Unicode (decode with errors='replace')"
        )),
        Err(e) => e,
    }
}

/// `check_texts`: a sequence (not str or bytes) of valid str, borrowed as UTF-8.
fn extract_texts(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<PyBackedStr>> {
    if texts.is_instance_of::<PyString>()
        || texts.is_instance_of::<PyBytes>()
        || !texts.is_instance_of::<PySequence>()
    {
        return Err(InputError::new_err(format!(
            "texts must be a list of str, got {}",
            type_name(texts)?
        )));
    }
    let mut out = Vec::with_capacity(texts.len().unwrap_or(0));
    for (i, item) in texts.try_iter()?.enumerate() {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Err(InputError::new_err(format!(
                "texts[{i}]: text must be a str, got {}",
                type_name(&item)?
            )));
        };
        match PyBackedStr::try_from(s.clone()) {
            Ok(b) => out.push(b),
            Err(e) => return Err(surrogate_error(py, &format!("texts[{i}]"), &item, e)),
        }
    }
    Ok(out)
}

/// One limit: an int (not a bool) >= 0; ints past `usize::MAX` mean "no limit".
fn extract_limit(i: usize, item: &Bound<'_, PyAny>) -> PyResult<usize> {
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "limits[{i}] must be an int >= 0, got {}",
            item.repr()?
        )))
    };
    if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
        return Err(bad()?);
    }
    if let Ok(n) = item.extract::<u64>() {
        return Ok(usize::try_from(n).unwrap_or(usize::MAX));
    }
    if item.lt(0)? {
        return Err(bad()?);
    }
    Ok(usize::MAX)
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
        out.push(extract_limit(i, &item?)?);
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
fn count_tokens(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    encoding: EncodingArg,
    segments: bool,
) -> PyResult<Vec<usize>> {
    let texts = extract_texts(py, texts)?;
    let encoding = encoding.check()?;
    Ok(py.detach(|| count_batch(encoding, &texts, Some(&CACHE), segments)))
}

/// For each text, its exact count if that is `<= limits[i]`, else some count `> limits[i]`.
#[pyfunction]
#[pyo3(
    signature = (texts, limits, encoding = EncodingArg::Known(Encoding::O200kBase), *, segments = false),
    text_signature = "(texts, limits, encoding='o200k_base', *, segments=False)"
)]
fn count_tokens_limited(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
    limits: &Bound<'_, PyAny>,
    encoding: EncodingArg,
    segments: bool,
) -> PyResult<Vec<usize>> {
    let texts = extract_texts(py, texts)?;
    let limits = extract_limits(limits, texts.len())?;
    let encoding = encoding.check()?;
    Ok(py.detach(|| count_limited_batch(encoding, &texts, &limits, Some(&CACHE), segments)))
}

/// Empty the token-count cache and let it hold at most `capacity` counts (0 disables it).
#[pyfunction]
fn set_token_cache_capacity(capacity: &Bound<'_, PyAny>) -> PyResult<()> {
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "capacity must be an int >= 0, got {}",
            capacity.repr()?
        )))
    };
    if capacity.is_instance_of::<PyBool>() || !capacity.is_instance_of::<PyInt>() {
        return Err(bad()?);
    }
    let n = match capacity.extract::<u64>() {
        Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
        Err(_) if capacity.lt(0)? => return Err(bad()?),
        Err(_) => usize::MAX,
    };
    CACHE.reset(n);
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

/// Add the token functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(count_tokens_limited, m)?)?;
    m.add_function(wrap_pyfunction!(set_token_cache_capacity, m)?)?;
    m.add_function(wrap_pyfunction!(token_cache_info, m)?)?;
    Ok(())
}
