//! Python binding: `_core.pack`, with the reference's argument checks and messages.

use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use super::Overflow;
use crate::checks::Arg;
use crate::errors::InputError;
use crate::vectors::args::{check_count, is_not_sequence, repr, type_name};

/// Register this module's functions on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pack, m)?)
}

impl<'a, 'py> FromPyObject<'a, 'py> for Overflow {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.cast::<PyString>() {
            if let Ok(s) = s.to_cow() {
                if let Some(&(_, value)) =
                    Overflow::ALL.iter().find(|(name, _)| *name == s.as_ref())
                {
                    return Ok(value);
                }
            }
        }
        let legal: Vec<String> = Overflow::ALL
            .iter()
            .map(|(name, _)| format!("'{name}'"))
            .collect();
        Err(InputError::new_err(format!(
            "overflow must be one of {}, got {}",
            legal.join(", "),
            repr(&obj.to_owned())?
        )))
    }
}

/// Place items greedily in rank order while their costs fit in `budget`.
#[pyfunction]
#[pyo3(signature = (costs, budget, overflow = Arg::Omitted), text_signature = "(costs, budget, overflow='stop')")]
fn pack<'py>(
    py: Python<'py>,
    costs: &Bound<'py, PyAny>,
    budget: &Bound<'py, PyAny>,
    overflow: Arg<'py>,
) -> PyResult<(Vec<usize>, Bound<'py, PyAny>)> {
    let limit = check_count("budget", budget, 0)?;
    let overflow = match overflow {
        Arg::Omitted => Overflow::Stop,
        Arg::Given(o) => o.extract::<Overflow>()?,
    };
    if is_not_sequence(costs)? {
        return Err(InputError::new_err(format!(
            "costs must be a list of int, got {}",
            type_name(costs)?
        )));
    }
    let mut values = Vec::new();
    let mut objects = Vec::new();
    for (i, cost) in costs.try_iter()?.enumerate() {
        let cost = cost?;
        values.push(check_count(&format!("costs[{i}]"), &cost, 0)?);
        objects.push(cost);
    }
    if limit < u128::MAX {
        let (kept, used) = py.detach(|| super::pack(&values, limit, overflow));
        return Ok((kept, used.into_pyobject(py)?.into_any()));
    }
    // A budget of 2^128 - 1 or more: exact arithmetic on the Python ints (rare; never a
    // token budget, but the reference accepts it).
    let mut kept = Vec::new();
    let mut used = 0u8.into_pyobject(py)?.cast_into::<PyInt>()?.into_any();
    for (i, cost) in objects.iter().enumerate() {
        let total = used.add(cost)?;
        if total.le(budget)? {
            kept.push(i);
            used = total;
        } else if overflow == Overflow::Stop {
            break;
        }
    }
    Ok((kept, used))
}
