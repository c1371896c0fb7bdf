//! Argument checks with the reference's exact messages, shared by the vector, pack and pages
//! bindings for the arguments `crate::checks` does not yet hand to `briefpack._checks`.
//!
//! Arguments are taken as raw Python objects (`crate::checks::Arg`) and checked in the body, in
//! the same order as the reference, so that with two bad arguments both backends name the same
//! one.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString, PyType};

use crate::errors::InputError;

/// `repr(obj)`, as the reference's `{value!r}`.
///
/// An int too long for Python to print (past 4,300 digits) is described by its size, as the
/// reference's `shown` does: `an int of about N digits`.
pub fn repr(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    match obj.repr() {
        Ok(text) => Ok(text.to_cow()?.into_owned()),
        Err(_) if obj.is_instance_of::<PyInt>() => {
            let bits: u64 = obj.call_method0("bit_length")?.extract()?;
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )]
            let digits = (bits as f64 * std::f64::consts::LOG10_2).floor() as u64 + 1;
            Ok(format!("an int of about {digits} digits"))
        }
        Err(err) => Err(err),
    }
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
