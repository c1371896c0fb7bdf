//! How a binding takes its arguments: fast typed extraction, and `briefpack.core_callbacks` for
//! every message.
//!
//! The argument rules and their messages live once, in Python (`briefpack/_checks.py`, the
//! functions the reference kernels call, which `briefpack.core_callbacks` names for the core). A binding extracts what it needs the fast way
//! (borrowed strs, floats, ints) and trusts it; when that extraction refuses an argument, it
//! re-runs the Python check on the object the caller passed, which raises the canonical
//! message. So both backends reject bad input with the same class, the same text and, with two
//! bad arguments, the same one named first (bindings extract in the reference's order). If the
//! check accepts what the fast path refused, the check's normalised result is used instead.

use pyo3::call::PyCallArgs;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt, PySequence, PyString};

use crate::errors::InputError;

/// An argument as the raw object the caller passed, or `Omitted`; unlike `Option`, this tells
/// an explicit `None` (which the checks reject like any other non-number) from a missing one.
pub enum Arg<'py> {
    /// The caller did not pass the argument: use the default.
    Omitted,
    /// The object the caller passed, not yet checked.
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Self::Given(obj.to_owned()))
    }
}

/// `briefpack.core_callbacks.<name>(*args, **kwargs)`: the check's (normalised) result, or its
/// error.
pub fn check<'py, A: PyCallArgs<'py>>(
    py: Python<'py>,
    name: &str,
    args: A,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    static CHECKS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = CHECKS.get_or_try_init(py, || {
        py.import("briefpack.core_callbacks").map(Bound::unbind)
    })?;
    module.bind(py).getattr(name)?.call(args, kwargs)
}

/// The error `briefpack.core_callbacks.<name>(*args)` raises for arguments the binding refused by the
/// same rule (if the check accepts them after all, a plain `InputError` naming the check).
pub fn rejected<'py, A: PyCallArgs<'py>>(py: Python<'py>, name: &str, args: A) -> PyErr {
    match check(py, name, args, None) {
        Err(err) => err,
        Ok(_) => InputError::new_err(format!("{name}: invalid argument")),
    }
}

impl<'py> Arg<'py> {
    /// `check_unit_interval(name, value)` as a float, or `default` when omitted.
    pub fn unit_interval(self, py: Python<'py>, name: &str, default: f64) -> PyResult<f64> {
        match self {
            Self::Omitted => Ok(default),
            Self::Given(v) => check(py, "check_unit_interval", (name, v), None)?.extract(),
        }
    }

    /// `check_count(name, value, minimum=minimum)`, saturated at `u64::MAX`, or `default`.
    pub fn count(self, py: Python<'py>, name: &str, minimum: u64, default: u64) -> PyResult<u64> {
        match self {
            Self::Omitted => Ok(default),
            Self::Given(v) => count(py, name, &v, minimum),
        }
    }
}

/// `check_count(name, value, minimum=minimum)` (an int, not a bool, `>= minimum`), saturated
/// at `u64::MAX` for larger ints.
pub fn count(py: Python<'_>, name: &str, value: &Bound<'_, PyAny>, minimum: u64) -> PyResult<u64> {
    if let Ok(n) = value.cast_exact::<PyInt>() {
        if let Ok(n) = n.extract::<u64>() {
            if n >= minimum {
                return Ok(n);
            }
        }
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("minimum", minimum)?;
    let n = check(py, "check_count", (name, value), Some(&kwargs))?;
    Ok(n.extract::<u64>().unwrap_or(u64::MAX))
}

/// `value` as `usize`, saturated (a count of items or bits beyond memory means "all").
pub fn saturate(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// A sequence (not a str or bytes) of str, each valid UTF-8, borrowed without copying; `None`
/// when any part is not.
fn texts_fast(texts: &Bound<'_, PyAny>) -> PyResult<Option<Vec<PyBackedStr>>> {
    if texts.is_instance_of::<PyString>()
        || texts.is_instance_of::<PyBytes>()
        || !texts.is_instance_of::<PySequence>()
    {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(texts.len().unwrap_or(0));
    for item in texts.try_iter()? {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Ok(None);
        };
        let Ok(backed) = PyBackedStr::try_from(s.clone()) else {
            return Ok(None);
        };
        out.push(backed);
    }
    Ok(Some(out))
}

/// `check_texts(texts, name)`: the texts borrowed as UTF-8 (no copy), or the check's error.
pub fn texts(texts: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<PyBackedStr>> {
    if let Some(out) = texts_fast(texts)? {
        return Ok(out);
    }
    let checked = check(texts.py(), "check_texts", (texts, name), None)?;
    texts_fast(&checked)?
        .ok_or_else(|| InputError::new_err(format!("{name} must be a list of str")))
}

/// `check_text(name, text)`: one str borrowed as UTF-8, or the check's error.
pub fn text(text: &Bound<'_, PyAny>, name: &str) -> PyResult<PyBackedStr> {
    if let Ok(s) = text.cast::<PyString>() {
        if let Ok(backed) = PyBackedStr::try_from(s.clone()) {
            return Ok(backed);
        }
    }
    check(text.py(), "check_text", (name, text), None)?;
    Err(InputError::new_err(format!("{name}: text must be a str")))
}
