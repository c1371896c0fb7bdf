//! Python binding `_core.vector_matrix`: embeddings as frameworks deliver them (a list of lists
//! of floats) checked and converted to one float64 matrix in one call.
//!
//! The checks and messages are the reference's `check_vector` on every row plus one dimension
//! for all, in its order (row by row: the row's own checks, then its dimension against the
//! first row's), so the first bad row is the one named, as the Python loop names it. The
//! interpreter is needed only to read the Python numbers; the value checks (finite, non-empty,
//! non-zero) and the dimension check run without it. O(n · dim) time, one O(n · dim) buffer,
//! handed to `NumPy` without a copy.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::matrix::{first_fault, RowFault};
use super::py::gather_into;
use crate::errors::InputError;

/// Register this module's function on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(vector_matrix, m)?)?;
    Ok(())
}

/// Check `vectors` (a sequence of vectors) and return them as one C-contiguous float64 array
/// of shape `(n, dim)`; `name_of(i)` names row `i` in an error (called only then).
#[pyfunction]
#[pyo3(signature = (vectors, name_of))]
fn vector_matrix<'py>(
    py: Python<'py>,
    vectors: &Bound<'py, PyAny>,
    name_of: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut data: Vec<f64> = Vec::new();
    let mut lens: Vec<usize> = Vec::new();
    // The interpreter's part: read every row until one is not a vector of numbers.
    let mut type_error: Option<PyErr> = None;
    let mut read = |i: usize, row: &Bound<'py, PyAny>, data: &mut Vec<f64>| -> bool {
        let before = data.len();
        let what = || -> PyResult<String> { name_of.call1((i,))?.extract() };
        match gather_into(&what, row, data) {
            Ok(()) => {
                lens.push(data.len() - before);
                true
            }
            Err(e) => {
                type_error = Some(e);
                false
            }
        }
    };
    if let Ok(list) = vectors.cast_exact::<PyList>() {
        for (i, row) in list.iter().enumerate() {
            if !read(i, &row, &mut data) {
                break;
            }
        }
    } else {
        for (i, row) in vectors.try_iter()?.enumerate() {
            if !read(i, &row?, &mut data) {
                break;
            }
        }
    }
    // Without it: the values and dimensions of the rows read (an earlier bad row wins).
    let fault = py.detach(|| first_fault(&data, &lens));
    match fault {
        Some(RowFault::Value(e)) => {
            let what: String = name_of.call1((e.row(),))?.extract()?;
            return Err(InputError::new_err(e.message(&what)));
        }
        Some(RowFault::Ragged(i, len, dim)) => {
            let what: String = name_of.call1((i,))?.extract()?;
            let kwargs = PyDict::new(py);
            kwargs.set_item("field", "vector")?;
            let err = py.get_type::<InputError>().call(
                (format!(
                    "{what} has dimension {len} but the first vector has {dim}; every vector \
                     must have the same dimension"
                ),),
                Some(&kwargs),
            )?;
            return Err(PyErr::from_value(err));
        }
        None => {}
    }
    if let Some(e) = type_error {
        return Err(e);
    }
    let n = lens.len();
    let dim = lens.first().copied().unwrap_or(0);
    let flat = PyArray1::from_vec(py, data);
    Ok(flat.reshape([n, dim])?.into_any())
}
