//! Python bindings: `_core.dedupe_cosine` and `_core.mmr`.
//!
//! Vectors arrive as a 2-D `NumPy` array (float32 and float64 read in place when C-contiguous and
//! aligned, copied otherwise; integer and float16 arrays converted to float64) or as a
//! sequence of sequences of numbers (converted, with the reference's per-element checks). Every
//! bad input raises `briefpack.errors.InputError` with the reference's message, in the
//! reference's order: vectors first, then the other arguments.

use numpy::prelude::*;
use numpy::{PyArray2, PyReadonlyArray2, PyUntypedArray};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyFloat, PyList, PyType};
use pyo3::PyTypeInfo;

use super::args::{check_count, is_not_number, is_not_sequence, repr, to_str, type_name};
use super::cosine;
use super::matrix::{row_error, Matrix, VectorError};
use super::mmr as kernel_mmr;
use crate::checks;
use crate::checks::Arg;
use crate::dedupe::py::columns;
use crate::errors::InputError;

/// Register this module's functions on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dedupe_cosine, m)?)?;
    m.add_function(wrap_pyfunction!(mmr, m)?)?;
    Ok(())
}

/// Drop each vector whose cosine to an earlier kept vector is `>= threshold`.
#[pyfunction]
#[pyo3(
    signature = (vectors, threshold = Arg::Omitted, *, texts = None, guard = false),
    text_signature = "(vectors, threshold=0.97, *, texts=None, guard=False)"
)]
fn dedupe_cosine<'py>(
    py: Python<'py>,
    vectors: &Bound<'py, PyAny>,
    threshold: Arg<'py>,
    texts: Option<&Bound<'py, PyAny>>,
    guard: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let source = Source::extract(vectors, "vectors")?;
    let m = source.matrix(py, "vectors")?;
    let t = threshold.unit_interval(py, "threshold", 0.97)?;
    let texts = match texts {
        Some(x) if !x.is_none() => Some(checks::texts(x, "texts")?),
        _ => None,
    };
    if let Some(texts) = texts {
        if texts.len() != m.len() {
            return Err(InputError::new_err(format!(
                "texts has {} items but vectors has {}; pass one text per vector (or texts=None)",
                texts.len(),
                m.len()
            )));
        }
        if guard {
            let (d, saved) = match &m {
                AnyMatrix::F32(m) => py.detach(|| cosine::dedupe_cosine_guarded(m, t, &texts)),
                AnyMatrix::F64(m) => py.detach(|| cosine::dedupe_cosine_guarded(m, t, &texts)),
            };
            return columns(py, d, Some(saved));
        }
    }
    let d = match &m {
        AnyMatrix::F32(m) => py.detach(|| cosine::dedupe_cosine(m, t)),
        AnyMatrix::F64(m) => py.detach(|| cosine::dedupe_cosine(m, t)),
    };
    columns(py, d, None)
}

/// Maximal marginal relevance: pick `k` items greedily by `λ·rel − (1−λ)·max sim`.
#[pyfunction]
#[pyo3(
    signature = (query_vector, vectors, k = Arg::Omitted, lambda_ = Arg::Omitted, *, relevance = Arg::Omitted),
    text_signature = "(query_vector, vectors, k=None, lambda_=0.5, *, relevance=None)"
)]
fn mmr<'py>(
    py: Python<'py>,
    query_vector: &Bound<'py, PyAny>,
    vectors: &Bound<'py, PyAny>,
    k: Arg<'py>,
    lambda_: Arg<'py>,
    relevance: Arg<'py>,
) -> PyResult<Vec<usize>> {
    let source = Source::extract(vectors, "vectors")?;
    let m = source.matrix(py, "vectors")?;
    let lam = lambda_.unit_interval(py, "lambda_", 0.5)?;
    let n = m.len();
    let k = match k {
        Arg::Given(v) if !v.is_none() => {
            usize::try_from(check_count("k", &v, 0)?).unwrap_or(usize::MAX)
        }
        _ => n,
    };
    let rel = if query_vector.is_none() {
        match relevance {
            Arg::Given(r) if !r.is_none() => scores(&r, n)?,
            _ => return Err(InputError::new_err("mmr needs query_vector or relevance")),
        }
    } else {
        let q = check_vector("query_vector", query_vector)?;
        if n > 0 && q.len() != m.dim() {
            return Err(InputError::new_err(format!(
                "query_vector has dimension {} but vectors have {}",
                q.len(),
                m.dim()
            )));
        }
        let q = Matrix::new(&q, 1, q.len()).map_err(|e| vector_error(e, "query_vector"))?;
        match &m {
            AnyMatrix::F32(m) => py.detach(|| kernel_mmr::relevance(m, &q)),
            AnyMatrix::F64(m) => py.detach(|| kernel_mmr::relevance(m, &q)),
        }
    };
    Ok(match &m {
        AnyMatrix::F32(m) => py.detach(|| kernel_mmr::mmr(m, &rel, k, lam)),
        AnyMatrix::F64(m) => py.detach(|| kernel_mmr::mmr(m, &rel, k, lam)),
    })
}

/// `relevance` checked as the reference does: one finite number (not a bool) per vector.
fn scores(relevance: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<f64>> {
    let len = relevance.len()?;
    if len != n {
        return Err(InputError::new_err(format!(
            "relevance has {len} entries for {n} vectors"
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (i, r) in relevance.try_iter()?.enumerate() {
        let r = r?;
        let bad = || -> PyResult<PyErr> {
            Ok(InputError::new_err(format!(
                "relevance[{i}] must be a finite number, got {}",
                repr(&r)?
            )))
        };
        if is_not_number(&r) {
            return Err(bad()?);
        }
        let x: f64 = r.extract()?; // OverflowError for a huge int, as math.isfinite raises
        if !x.is_finite() {
            return Err(bad()?);
        }
        out.push(x);
    }
    Ok(out)
}

fn vector_error(e: VectorError, name: &str) -> PyErr {
    let what = if name == "query_vector" {
        name.to_owned()
    } else {
        format!("{name}[{}]", e.row())
    };
    InputError::new_err(e.message(&what))
}

/// Where the vectors' numbers live: a `NumPy` buffer read in place, or values we converted.
enum Source<'py> {
    F32(PyReadonlyArray2<'py, f32>),
    F64(PyReadonlyArray2<'py, f64>),
    Owned {
        data: Vec<f64>,
        n: usize,
        dim: usize,
    },
}

/// A validated matrix over either element type.
enum AnyMatrix<'a> {
    F32(Matrix<'a, f32>),
    F64(Matrix<'a, f64>),
}

impl AnyMatrix<'_> {
    fn len(&self) -> usize {
        match self {
            Self::F32(m) => m.len(),
            Self::F64(m) => m.len(),
        }
    }

    fn dim(&self) -> usize {
        match self {
            Self::F32(m) => m.dim(),
            Self::F64(m) => m.dim(),
        }
    }
}

impl<'py> Source<'py> {
    /// The reference's `check_vectors`, up to (not including) the per-row value checks of a
    /// float array, which the kernel does in [`Matrix::new`] without the interpreter.
    fn extract(vectors: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if vectors.hasattr("tolist")? && vectors.hasattr("ndim")? {
            let ndim = vectors.getattr("ndim")?;
            if ndim.ne(2)? {
                return Err(InputError::new_err(format!(
                    "{name} must be 2-D (n, dim), got {}-D",
                    to_str(&ndim)?
                )));
            }
            if let Some(source) = Self::from_ndarray(vectors)? {
                return Ok(source);
            }
            return Self::from_rows(&vectors.call_method0("tolist")?, name, true);
        }
        if is_not_sequence(vectors)? {
            return Err(InputError::new_err(format!(
                "{name} must be a 2-D array or a list of vectors, got {}",
                type_name(vectors)?
            )));
        }
        Self::from_rows(vectors, name, false)
    }

    /// A plain `ndarray` of a real numeric dtype, read in place or converted; `None` for
    /// anything the reference would see differently through `tolist()` (subclasses such as
    /// masked arrays, bool, complex, object, string and date dtypes, long double).
    fn from_ndarray(vectors: &Bound<'py, PyAny>) -> PyResult<Option<Self>> {
        let py = vectors.py();
        if !vectors.get_type().is(PyUntypedArray::type_object(py)) {
            return Ok(None);
        }
        let arr = vectors.cast::<PyUntypedArray>()?;
        let dtype = arr.dtype();
        let native = |t: &Bound<'py, numpy::PyArrayDescr>| dtype.is_equiv_to(t);
        let aligned_c = arr.is_c_contiguous() && arr.is_aligned();
        if native(&numpy::dtype::<f32>(py)) {
            let arr = if aligned_c {
                vectors.clone()
            } else {
                vectors.call_method1("copy", ("C",))?
            };
            let arr = arr.cast_into::<PyArray2<f32>>()?;
            return Ok(Some(Self::F32(arr.try_readonly()?)));
        }
        let to_f64 = match dtype.kind() {
            b'i' | b'u' => true,
            b'f' => dtype.itemsize() <= 8, // float16, float32, float64 of either byte order
            _ => false,
        };
        if !to_f64 {
            return Ok(None);
        }
        let arr = if native(&numpy::dtype::<f64>(py)) && aligned_c {
            vectors.clone()
        } else {
            static FLOAT64: PyOnceLock<Py<PyType>> = PyOnceLock::new();
            let float64 = FLOAT64.import(py, "numpy", "float64")?;
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("order", "C")?;
            vectors.call_method("astype", (float64,), Some(&kwargs))?
        };
        let arr = arr.cast_into::<PyArray2<f64>>()?;
        Ok(Some(Self::F64(arr.try_readonly()?)))
    }

    /// Rows from a sequence of vectors (`from_tolist`: the rows of an array's `tolist()`).
    ///
    /// The reference checks every row of a sequence before comparing dimensions, but checks
    /// the rows of `tolist()` and their dimensions in one pass; both orders are kept.
    fn from_rows(rows: &Bound<'py, PyAny>, name: &str, from_tolist: bool) -> PyResult<Self> {
        let mut data = Vec::new();
        let mut lens = Vec::new();
        let mut dim = None;
        for (i, row) in rows.try_iter()?.enumerate() {
            let row = row?;
            let before = data.len();
            check_vector_into(&format!("{name}[{i}]"), &row, &mut data)?;
            let len = data.len() - before;
            lens.push(len);
            let d = *dim.get_or_insert(len);
            if from_tolist && len != d {
                return Err(ragged(name, i, len, d));
            }
        }
        let dim = dim.unwrap_or(0);
        if let Some((i, &len)) = lens.iter().enumerate().find(|(_, &len)| len != dim) {
            return Err(ragged(name, i, len, dim));
        }
        Ok(Self::Owned {
            data,
            n: lens.len(),
            dim,
        })
    }

    /// Validate the values and compute the norms (without the interpreter for big inputs).
    fn matrix(&self, py: Python<'_>, name: &str) -> PyResult<AnyMatrix<'_>> {
        let m = match self {
            Self::F32(a) => {
                let (n, dim) = (a.shape()[0], a.shape()[1]);
                let data = a
                    .as_slice()
                    .map_err(|e| InputError::new_err(e.to_string()))?;
                py.detach(|| Matrix::new(data, n, dim)).map(AnyMatrix::F32)
            }
            Self::F64(a) => {
                let (n, dim) = (a.shape()[0], a.shape()[1]);
                let data = a
                    .as_slice()
                    .map_err(|e| InputError::new_err(e.to_string()))?;
                py.detach(|| Matrix::new(data, n, dim)).map(AnyMatrix::F64)
            }
            Self::Owned { data, n, dim } => py
                .detach(|| Matrix::new(data.as_slice(), *n, *dim))
                .map(AnyMatrix::F64),
        };
        m.map_err(|e| vector_error(e, name))
    }
}

fn ragged(name: &str, i: usize, len: usize, dim: usize) -> PyErr {
    InputError::new_err(format!(
        "{name}[{i}] has dimension {len} but {name}[0] has {dim}; every vector must have the \
         same dimension"
    ))
}

/// The reference's `check_vector`: the vector as floats, non-empty, finite, non-zero.
fn check_vector(what: &str, vector: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let mut out = Vec::new();
    check_vector_into(what, vector, &mut out)?;
    Ok(out)
}

/// [`check_vector`] appending the values to `out`.
fn check_vector_into(what: &str, vector: &Bound<'_, PyAny>, out: &mut Vec<f64>) -> PyResult<()> {
    let start = out.len();
    gather_into(&|| Ok(what.to_owned()), vector, out)?;
    match row_error(&out[start..], 0) {
        Some(e) => Err(InputError::new_err(e.message(what))),
        None => Ok(()),
    }
}

/// The checks of [`check_vector`] that need the interpreter (a 1-D array or a sequence of
/// numbers, not a bool), appending the values as f64 to `out`. `what` names the vector; it is
/// called only on an error.
pub(super) fn gather_into(
    what: &dyn Fn() -> PyResult<String>,
    vector: &Bound<'_, PyAny>,
    out: &mut Vec<f64>,
) -> PyResult<()> {
    if let Ok(list) = vector.cast_exact::<PyList>() {
        // the common case (a framework's embedding): no ABC check, no iterator protocol
        for x in list.iter() {
            push_number(what, &x, out)?;
        }
        return Ok(());
    }
    let listed;
    let mut vector = vector;
    if vector.hasattr("tolist")? && vector.hasattr("ndim")? {
        let ndim = vector.getattr("ndim")?;
        if ndim.ne(1)? {
            return Err(InputError::new_err(format!(
                "{} must be 1-D, got {}-D",
                what()?,
                to_str(&ndim)?
            )));
        }
        listed = vector.call_method0("tolist")?;
        vector = &listed;
    }
    if is_not_sequence(vector)? {
        return Err(InputError::new_err(format!(
            "{} must be a sequence of numbers, got {}",
            what()?,
            type_name(vector)?
        )));
    }
    for x in vector.try_iter()? {
        push_number(what, &x?, out)?;
    }
    Ok(())
}

fn push_number(
    what: &dyn Fn() -> PyResult<String>,
    x: &Bound<'_, PyAny>,
    out: &mut Vec<f64>,
) -> PyResult<()> {
    if let Ok(f) = x.cast_exact::<PyFloat>() {
        out.push(f.value());
        return Ok(());
    }
    if is_not_number(x) {
        return Err(InputError::new_err(format!(
            "{} must hold numbers, got {}",
            what()?,
            type_name(x)?
        )));
    }
    // an int too large for a float is not finite (as the reference reads it)
    out.push(x.extract::<f64>().unwrap_or(f64::INFINITY));
    Ok(())
}
