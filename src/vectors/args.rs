//! Argument checks with the reference's exact messages (`python/briefpack/_checks.py`), shared
//! by the vector and pack bindings.
//!
//! Arguments are taken as raw Python objects ([`Arg`]) and checked in the body, in the same
//! order as the reference, so that with two bad arguments both backends name the same one.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString, PyType};

use crate::errors::InputError;

/// An argument as the raw object the caller passed, or `Omitted`; unlike `Option`, this tells
/// an explicit `None` (which the reference may reject) from a missing argument.
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

/// `repr(obj)`, as the reference's `{value!r}`.
pub fn repr(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(obj.repr()?.to_cow()?.into_owned())
}

/// `str(obj)`, as the reference's `{value}`.
pub fn to_str(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(obj.str()?.to_cow()?.into_owned())
}

/// `type(obj).__name__`, as the reference's `type_name`.
pub fn type_name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(obj.get_type().name()?.to_cow()?.into_owned())
}

/// `isinstance(obj, bool) or not isinstance(obj, (int, float))`.
pub fn is_not_number(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyBool>()
        || !(obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>())
}

/// `isinstance(obj, (str, bytes)) or not isinstance(obj, collections.abc.Sequence)`.
pub fn is_not_sequence(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    static SEQUENCE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Ok(true);
    }
    let seq = SEQUENCE.import(obj.py(), "collections.abc", "Sequence")?;
    Ok(!obj.is_instance(seq)?)
}

/// The reference's `check_unit_interval`: a number (not a bool) in [0, 1].
pub fn check_unit_interval(name: &str, value: &Bound<'_, PyAny>) -> PyResult<f64> {
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "{name} must be a number in [0, 1], got {}",
            repr(value)?
        )))
    };
    if is_not_number(value) {
        return Err(bad()?);
    }
    // `float(value)`: raises OverflowError for an int beyond float range, as the reference.
    let x: f64 = value.extract()?;
    if !(0.0..=1.0).contains(&x) {
        return Err(bad()?);
    }
    Ok(x)
}

impl Arg<'_> {
    /// [`check_unit_interval`] of the given value, or `default` when omitted.
    pub fn unit_interval(self, name: &str, default: f64) -> PyResult<f64> {
        match self {
            Self::Omitted => Ok(default),
            Self::Given(v) => check_unit_interval(name, &v),
        }
    }
}

/// The reference's `check_count`: an int (not a bool) `>= minimum`. Returns the value as u128,
/// saturated at `u128::MAX` for larger ints.
pub fn check_count(name: &str, value: &Bound<'_, PyAny>, minimum: i64) -> PyResult<u128> {
    let bad = || -> PyResult<PyErr> {
        Ok(InputError::new_err(format!(
            "{name} must be an int >= {minimum}, got {}",
            repr(value)?
        )))
    };
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(bad()?);
    }
    if let Ok(v) = value.extract::<i64>() {
        if v < minimum {
            return Err(bad()?);
        }
        return Ok(u128::try_from(v).unwrap_or(0));
    }
    // Beyond i64: negative means below any minimum; positive saturates.
    if value.lt(0)? {
        return Err(bad()?);
    }
    Ok(value.extract::<u128>().unwrap_or(u128::MAX))
}
