//! Python binding of intake's fast path (`briefpack.reference.intake.intake_fast`).
//!
//! It reads and builds Python objects throughout, so it runs with the GIL held (there is no
//! pure-Rust loop to detach). A str is checked by reading it as UTF-8, which
//! fails on a lone surrogate, and otherwise leaves the UTF-8 cached in the str object for the
//! kernels that read the same texts next (free for an ASCII str). Anything unusual (a
//! subclass, another mapping type, a key that is not a field, a missing `__dict__` entry) is a
//! miss: the full check in Python decides it, so the fast path only ever has to be right about
//! what it takes.

use std::collections::HashSet;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

use super::{automatic_id, CHUNK_FIELDS, PLAIN_KEYS};

const ID: usize = 1;
const STR_FIELDS: [usize; 3] = [6, 7, 8]; // title, url, updated: "" when a dict omits them

/// What the kernel needs from Python, looked up once: the interned field names, `object`'s
/// `tp_new` (what `object.__new__` calls), an empty tuple to call it with, and
/// `collections.abc.Mapping`.
struct Shared {
    names: Vec<Py<PyString>>,
    object_new: ffi::newfunc,
    no_args: Py<PyTuple>,
    mapping: Py<PyAny>,
    dict: Py<PyString>,
    empty: Py<PyString>,
    /// Every field with a dict's default, in order: copied, then given the dict's values
    /// (a copy keeps the key order, and replacing a value keeps its place).
    template: Py<PyDict>,
}

fn shared(py: Python<'_>) -> PyResult<&'static Shared> {
    static SHARED: PyOnceLock<Shared> = PyOnceLock::new();
    SHARED.get_or_try_init(py, || {
        // SAFETY: `PyBaseObject_Type` is `object`, a static type that lives as long as the
        // interpreter; `PyType_GetSlot` reads its `tp_new` slot (legal on static types since
        // Python 3.10, this module's minimum), which is null or an `ffi::newfunc`.
        let object_new = unsafe {
            let slot = ffi::PyType_GetSlot(
                std::ptr::addr_of_mut!(ffi::PyBaseObject_Type),
                ffi::Py_tp_new,
            );
            std::mem::transmute::<*mut std::ffi::c_void, Option<ffi::newfunc>>(slot)
        };
        let Some(object_new) = object_new else {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "object has no tp_new",
            ));
        };
        let empty = PyString::new(py, "");
        let template = PyDict::new(py);
        for (j, f) in CHUNK_FIELDS.iter().enumerate() {
            let default = if STR_FIELDS.contains(&j) {
                empty.clone().into_any()
            } else {
                py.None().into_bound(py)
            };
            template.set_item(PyString::intern(py, f), default)?;
        }
        Ok(Shared {
            template: template.unbind(),
            names: CHUNK_FIELDS
                .iter()
                .map(|f| PyString::intern(py, f).unbind())
                .collect(),
            object_new,
            no_args: PyTuple::empty(py).unbind(),
            mapping: py.import("collections.abc")?.getattr("Mapping")?.unbind(),
            dict: PyString::intern(py, "__dict__").unbind(),
            empty: empty.unbind(),
        })
    })
}

/// A str of valid Unicode (no lone surrogates); see the module doc for the UTF-8 it leaves.
fn valid(s: &Bound<'_, PyString>) -> bool {
    s.to_str().is_ok()
}

/// An exact str of valid Unicode.
fn str_ok(v: &Bound<'_, PyAny>) -> bool {
    v.is_exact_instance_of::<PyString>() && v.cast::<PyString>().is_ok_and(valid)
}

/// None, or an exact str of valid Unicode (an id, a doc, a parent).
fn name_ok(v: &Bound<'_, PyAny>) -> bool {
    v.is_none() || str_ok(v)
}

/// None, or an exact float that is finite.
fn score_ok(v: &Bound<'_, PyAny>) -> bool {
    v.is_none()
        || (v.is_exact_instance_of::<PyFloat>()
            && v.cast::<PyFloat>().is_ok_and(|f| f.value().is_finite()))
}

/// None, or an exact int (not a bool) in `[0, i64::MAX]` (beyond: the full check refuses it).
fn count_ok(v: &Bound<'_, PyAny>) -> bool {
    v.is_none() || (v.is_exact_instance_of::<PyInt>() && v.extract::<i64>().is_ok_and(|x| x >= 0))
}

/// Whether every str in `meta` (keys and values, through dicts, lists and tuples, each
/// container once) is valid Unicode; `false` also for what only the full check may decide
/// (a subclass of str, dict, list or tuple, or another mapping type).
fn meta_ok(meta: &Bound<'_, PyAny>, mapping: &Bound<'_, PyAny>) -> PyResult<bool> {
    let mut stack = vec![meta.clone()];
    let mut seen: HashSet<usize> = HashSet::new();
    while let Some(node) = stack.pop() {
        if node.is_exact_instance_of::<PyString>() {
            if !node.cast::<PyString>().is_ok_and(valid) {
                return Ok(false);
            }
        } else if node.is_none()
            || node.is_exact_instance_of::<PyInt>()
            || node.is_exact_instance_of::<PyFloat>()
            || node.is_exact_instance_of::<PyBool>()
        {
        } else if let Ok(d) = node.cast_exact::<PyDict>() {
            if seen.insert(node.as_ptr() as usize) {
                for (k, v) in d.iter() {
                    if k.is_exact_instance_of::<PyString>() {
                        if !k.cast::<PyString>().is_ok_and(valid) {
                            return Ok(false);
                        }
                    } else if k.is_instance_of::<PyString>() {
                        return Ok(false);
                    }
                    stack.push(v);
                }
            }
        } else if let Ok(l) = node.cast_exact::<PyList>() {
            if seen.insert(node.as_ptr() as usize) {
                stack.extend(l.iter());
            }
        } else if let Ok(t) = node.cast_exact::<PyTuple>() {
            if seen.insert(node.as_ptr() as usize) {
                stack.extend(t.iter());
            }
        } else if node.is_instance_of::<PyString>()
            || node.is_instance_of::<PyDict>()
            || node.is_instance_of::<PyList>()
            || node.is_instance_of::<PyTuple>()
            || node.is_instance(mapping)?
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a `Chunk`'s field values (in `CHUNK_FIELDS` order) are already what the full check
/// returns, with every str valid.
fn fields_ok(v: &[Bound<'_, PyAny>], mapping: &Bound<'_, PyAny>) -> PyResult<bool> {
    let [text, id, score, doc, position, parent, title, url, updated, tokens, _vector, meta, image, page] =
        v
    else {
        return Ok(false);
    };
    let meta_fine = if meta.is_none() {
        true
    } else if let Ok(d) = meta.cast_exact::<PyDict>() {
        d.is_empty() || meta_ok(meta, mapping)?
    } else {
        false
    };
    Ok(str_ok(text)
        && name_ok(id)
        && name_ok(doc)
        && name_ok(parent)
        && score_ok(score)
        && count_ok(position)
        && count_ok(tokens)
        && meta_fine
        && str_ok(title)
        && str_ok(url)
        && str_ok(updated)
        && image.is_none()
        && page.is_none())
}

/// A `Chunk`'s field values from its `__dict__`, or None when one is missing (other keys are
/// not fields and are left alone, as attribute access leaves them).
fn chunk_values<'py>(
    chunk: &Bound<'py, PyAny>,
    s: &Shared,
) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    let py = chunk.py();
    let Ok(d) = chunk.getattr(s.dict.bind(py))?.cast_into::<PyDict>() else {
        return Ok(None);
    };
    let mut values = Vec::with_capacity(CHUNK_FIELDS.len());
    for name in &s.names {
        match d.get_item(name.bind(py))? {
            Some(v) => values.push(v),
            None => return Ok(None),
        }
    }
    Ok(Some(values))
}

/// A plain dict's field values, with a dict's defaults (`""` for title, url and updated,
/// `None` elsewhere), or None when a key is not one of `PLAIN_KEYS` (as an exact str).
fn dict_values<'py>(d: &Bound<'py, PyDict>, s: &Shared) -> Option<Vec<Bound<'py, PyAny>>> {
    let py = d.py();
    let mut given: [Option<Bound<'py, PyAny>>; 14] = Default::default();
    if d.len() > PLAIN_KEYS.len() {
        return None;
    }
    for (k, v) in d.iter() {
        if !k.is_exact_instance_of::<PyString>() {
            return None;
        }
        let key = k.cast::<PyString>().ok()?;
        let key = key.to_str().ok()?;
        let j = PLAIN_KEYS.iter().position(|f| *f == key)?;
        given[j] = Some(v);
    }
    Some(
        given
            .into_iter()
            .enumerate()
            .map(|(j, v)| match v {
                Some(v) => v,
                None if STR_FIELDS.contains(&j) => s.empty.bind(py).clone().into_any(),
                None => py.None().into_bound(py),
            })
            .collect(),
    )
}

/// A new `Chunk` of `chunk_type` whose `__dict__` holds `values` (every field, in order),
/// built as `object.__new__(chunk_type)` and `object.__setattr__(chunk, "__dict__", values)`
/// build it, through the same C functions without a Python call (a frozen dataclass has no
/// `__post_init__` to run; `tests/test_intake_dicts.py` holds that). Only the values that
/// differ from the template's defaults are set (by identity: the defaults are `None` and the
/// template's own `""`).
fn new_chunk<'py>(
    chunk_type: &Bound<'py, PyType>,
    values: &[Bound<'py, PyAny>],
    s: &Shared,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
    let py = chunk_type.py();
    let empty = s.empty.bind(py);
    let d = s.template.bind(py).copy()?;
    for (j, (name, v)) in s.names.iter().zip(values).enumerate() {
        let is_default = if STR_FIELDS.contains(&j) {
            v.is(empty)
        } else {
            v.is_none()
        };
        if !is_default {
            d.set_item(name.bind(py), v)?;
        }
    }
    // SAFETY: `object_new` is `object.tp_new`, called as `object.__new__(chunk_type)` calls it
    // (a live type, an empty args tuple, no keywords); it returns a new reference or null with
    // an exception set, which `from_owned_ptr_or_err` takes over.
    let chunk = unsafe {
        let obj = (s.object_new)(
            chunk_type.as_type_ptr(),
            s.no_args.as_ptr(),
            std::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, obj)?
    };
    // SAFETY: three live objects; `PyObject_GenericSetAttr` is what `object.__setattr__`
    // calls (bypassing the frozen dataclass's `__setattr__`), and returns -1 with an
    // exception set on failure. It takes its own references.
    let status =
        unsafe { ffi::PyObject_GenericSetAttr(chunk.as_ptr(), s.dict.as_ptr(), d.as_ptr()) };
    if status < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok((chunk, d))
}

/// A candidate taken without an id: its index, its field values, and the dict of the chunk
/// built for it (None: the candidate is that `Chunk` itself).
type Unnamed<'py> = (usize, Vec<Bound<'py, PyAny>>, Option<Bound<'py, PyDict>>);

/// Each candidate that needs no conversion as its checked `Chunk`, and the indices of the
/// others (ascending), which are `None` in the list; when there are none, candidates without
/// an id already carry their automatic id.
#[pyfunction]
#[pyo3(signature = (candidates, chunk_type))]
fn intake_fast<'py>(
    candidates: &Bound<'py, PyList>,
    chunk_type: &Bound<'py, PyType>,
) -> PyResult<(Bound<'py, PyList>, Vec<usize>)> {
    let py = candidates.py();
    let s = shared(py)?;
    let mapping = s.mapping.bind(py);
    let n = candidates.len();
    let mut out: Vec<Bound<'py, PyAny>> = Vec::with_capacity(n);
    let mut misses = Vec::new();
    let mut ids: Vec<Bound<'py, PyAny>> = Vec::with_capacity(n);
    // candidates without an id: index, and the values and dict of the chunk built for it
    let mut unnamed: Vec<Unnamed<'py>> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        let taken = if c.get_type().is(chunk_type) {
            match chunk_values(&c, s)? {
                Some(values) if fields_ok(&values, mapping)? => Some((c, values, None)),
                _ => None,
            }
        } else if let Ok(d) = c.cast_exact::<PyDict>() {
            match dict_values(d, s) {
                Some(values) if fields_ok(&values, mapping)? => {
                    let (chunk, dict) = new_chunk(chunk_type, &values, s)?;
                    Some((chunk, values, Some(dict)))
                }
                _ => None,
            }
        } else {
            None
        };
        if let Some((chunk, values, dict)) = taken {
            if values[ID].is_none() {
                unnamed.push((i, values, dict));
            } else {
                ids.push(values[ID].clone());
            }
            out.push(chunk);
        } else {
            misses.push(i);
            out.push(py.None().into_bound(py));
        }
    }
    if misses.is_empty() && !unnamed.is_empty() {
        let mut given: HashSet<String> = HashSet::new();
        for id in &ids {
            given.insert(id.cast::<PyString>()?.to_str()?.to_owned());
        }
        for (i, mut values, dict) in unnamed {
            let id = PyString::new(py, &automatic_id(i, |x| given.contains(x))).into_any();
            if let Some(dict) = dict {
                dict.set_item(s.names[ID].bind(py), id)?;
            } else {
                values[ID] = id;
                out[i] = new_chunk(chunk_type, &values, s)?.0;
            }
        }
    }
    Ok((PyList::new(py, out)?, misses))
}

/// Add this module's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(intake_fast, m)?)?;
    Ok(())
}
