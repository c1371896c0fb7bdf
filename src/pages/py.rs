//! Python bindings: `_core.page_hashes` and `_core.dedupe_pages`.
//!
//! Arguments are checked like `briefpack.reference.pages` (same order, same `InputError`
//! messages); the hashing and the comparisons run without the GIL.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyList, PySequence, PyString, PyTuple};

use crate::checks::{self, Arg};
use crate::dedupe::py::DedupeOut;
use crate::errors::InputError;
use crate::vectors::args::{check_count, type_name};

/// Register this module's functions on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(page_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_pages, m)?)?;
    m.add_function(wrap_pyfunction!(page_scale_look, m)?)?;
    Ok(())
}

fn is_list_like(obj: &Bound<'_, PyAny>) -> bool {
    !(obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>())
        && obj.is_instance_of::<PySequence>()
}

/// A column of ints >= 0, as the reference's `_ints` checks it.
fn ints(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    if !is_list_like(value) {
        return Err(InputError::new_err(format!(
            "{name} must be a list of ints >= 0, got {}",
            type_name(value)?
        )));
    }
    let mut out = Vec::with_capacity(value.len().unwrap_or(0));
    for (i, item) in value.try_iter()?.enumerate() {
        let item = item?;
        let n = check_count(&format!("{name}[{i}]"), &item, 0)?;
        out.push(usize::try_from(n).unwrap_or(usize::MAX));
    }
    Ok(out)
}

/// Page signatures (a 256-bit DCT hash and a 128x128 detail grid) of pages laid end to end.
#[pyfunction]
#[pyo3(signature = (pixels, offsets, widths, heights, channels))]
fn page_hashes(
    py: Python<'_>,
    pixels: &Bound<'_, PyAny>,
    offsets: &Bound<'_, PyAny>,
    widths: &Bound<'_, PyAny>,
    heights: &Bound<'_, PyAny>,
    channels: &Bound<'_, PyAny>,
) -> PyResult<Py<PyList>> {
    let Ok(bytes) = pixels.cast::<PyBytes>() else {
        return Err(InputError::new_err(format!(
            "pixels must be bytes, got {}",
            type_name(pixels)?
        )));
    };
    let pixels = PyBackedBytes::from(bytes.clone());
    let offsets = ints("offsets", offsets)?;
    let widths = ints("widths", widths)?;
    let heights = ints("heights", heights)?;
    let channels = ints("channels", channels)?;
    let out = py
        .detach(|| super::hashes(&pixels, &offsets, &widths, &heights, &channels))
        .map_err(|e| InputError::new_err(e.to_string()))?;
    let items = out.iter().map(|h| PyBytes::new(py, h));
    Ok(PyList::new(py, items)?.unbind())
}

/// A checked preview: `(width, height, pixels)`.
type PreviewArg = Option<(usize, usize, PyBackedBytes)>;

/// `previews`, as the reference's `_previews` checks it: one `(width, height, pixels)` (gray,
/// `width * height` bytes) or `None` per page.
fn previews(value: &Bound<'_, PyAny>, pages: usize) -> PyResult<Vec<PreviewArg>> {
    if !is_list_like(value) {
        return Err(InputError::new_err(format!(
            "previews must be a list of (width, height, pixels) or None, got {}",
            type_name(value)?
        )));
    }
    let mut out: Vec<PreviewArg> = Vec::with_capacity(pages);
    for (i, item) in value.try_iter()?.enumerate() {
        let item = item?;
        if item.is_none() {
            out.push(None);
            continue;
        }
        let bad = || -> PyResult<PyErr> {
            Ok(InputError::new_err(format!(
                "previews[{i}] must be (width, height, pixels) or None, got {}",
                type_name(&item)?
            )))
        };
        let Ok(t) = item.cast::<PyTuple>() else {
            return Err(bad()?);
        };
        if t.len() != 3 {
            return Err(bad()?);
        }
        let w = check_count(&format!("previews[{i}] width"), &t.get_item(0)?, 1)?;
        let h = check_count(&format!("previews[{i}] height"), &t.get_item(1)?, 1)?;
        let px = t.get_item(2)?;
        let Ok(bytes) = px.cast::<PyBytes>() else {
            return Err(bad()?);
        };
        let b = PyBackedBytes::from(bytes.clone());
        let (w, h) = (
            usize::try_from(w).unwrap_or(usize::MAX),
            usize::try_from(h).unwrap_or(usize::MAX),
        );
        if w.checked_mul(h) != Some(b.len()) {
            return Err(InputError::new_err(format!(
                "previews[{i}]: width * height is not the {} bytes of its pixels",
                b.len()
            )));
        }
        out.push(Some((w, h, b)));
    }
    if out.len() != pages {
        return Err(InputError::new_err(format!(
            "previews has {} entries but hashes has {pages}; pass one preview per page (None \
             for a page without)",
            out.len()
        )));
    }
    Ok(out)
}

/// Drop each page whose hash is within `max_distance` bits of an earlier kept page's, unless
/// the text check (`texts`) or the second look finds the two different.
#[pyfunction]
#[pyo3(
    signature = (hashes, max_distance = Arg::Omitted, *, factor = Arg::Omitted, margin = Arg::Omitted, level = Arg::Omitted, details = false, texts = None, previews = None, fine_ratio = Arg::Omitted),
    text_signature = "(hashes, max_distance=66, *, factor=4, margin=4, level=22, details=False, texts=None, previews=None, fine_ratio=650)"
)]
#[allow(clippy::too_many_arguments)] // the Python signature's keywords
fn dedupe_pages(
    py: Python<'_>,
    hashes: &Bound<'_, PyAny>,
    max_distance: Arg<'_>,
    factor: Arg<'_>,
    margin: Arg<'_>,
    level: Arg<'_>,
    details: bool,
    texts: Option<&Bound<'_, PyAny>>,
    previews: Option<&Bound<'_, PyAny>>,
    fine_ratio: Arg<'_>,
) -> PyResult<Py<PyAny>> {
    if !is_list_like(hashes) {
        return Err(InputError::new_err(format!(
            "hashes must be a list of bytes, got {}",
            type_name(hashes)?
        )));
    }
    let mut items: Vec<PyBackedBytes> = Vec::with_capacity(hashes.len().unwrap_or(0));
    for (i, item) in hashes.try_iter()?.enumerate() {
        let item = item?;
        let Ok(bytes) = item.cast::<PyBytes>() else {
            return Err(InputError::new_err(format!(
                "hashes[{i}] must be bytes, got {}",
                type_name(&item)?
            )));
        };
        let b = PyBackedBytes::from(bytes.clone());
        if b.len() != super::SIGNATURE_BYTES {
            return Err(InputError::new_err(format!(
                "hashes[{i}] has {} bytes, a page signature has {}; pass the hashes \
                 page_hashes returned",
                b.len(),
                super::SIGNATURE_BYTES
            )));
        }
        items.push(b);
    }
    let max = max_distance.count(py, "max_distance", 0, super::DEFAULT_MAX_DISTANCE)?;
    let look = super::Look {
        factor: factor.count(py, "factor", 0, super::DEFAULT_FACTOR)?,
        margin: margin.count(py, "margin", 0, super::DEFAULT_MARGIN)?,
        level: level.count(py, "level", 0, super::DEFAULT_LEVEL)?,
        fine_ratio: fine_ratio.count(py, "fine_ratio", 0, super::DEFAULT_FINE_RATIO)?,
    };
    let texts = match texts {
        Some(t) if !t.is_none() => {
            let t = checks::texts(t, "texts")?;
            if t.len() != items.len() {
                return Err(InputError::new_err(format!(
                    "texts has {} entries but hashes has {}; pass one text per page ('' for a \
                     page without text)",
                    t.len(),
                    items.len()
                )));
            }
            Some(t)
        }
        _ => None,
    };
    let previews = match previews {
        Some(p) if !p.is_none() => Some(self::previews(p, items.len())?),
        _ => None,
    };
    let out = py.detach(|| {
        let views: Option<Vec<Option<super::Preview<'_>>>> = previews.as_ref().map(|p| {
            p.iter()
                .map(|e| {
                    e.as_ref().map(|(width, height, px)| super::Preview {
                        pixels: px,
                        width: *width,
                        height: *height,
                    })
                })
                .collect()
        });
        super::dedupe(&items, max, look, texts.as_deref(), views.as_deref())
    });
    let (kept, dup, sim): DedupeOut = out.dedupe.into();
    if details {
        let check: Vec<Option<&str>> = out
            .near_check
            .iter()
            .map(|c| c.map(super::Check::name))
            .collect();
        let columns = (
            kept,
            dup,
            sim,
            out.near_of,
            out.near_look,
            check,
            out.kept_because,
        );
        return Ok(columns.into_pyobject(py)?.into_any().unbind());
    }
    Ok((kept, dup, sim).into_pyobject(py)?.into_any().unbind())
}

/// A checked preview as the kernels read it.
fn view((width, height, px): &(usize, usize, PyBackedBytes)) -> super::Preview<'_> {
    super::Preview {
        pixels: px,
        width: *width,
        height: *height,
    }
}

/// A box as the reference gives it: `(top, bottom, left, right)`.
type Box4 = (i64, i64, i64, i64);

/// A box as a tuple.
fn tuple4(b: [i64; 4]) -> Box4 {
    (b[0], b[1], b[2], b[3])
}

/// The scale look's columns: `(different, worst, reference, fitted, refined, box_a, box_b,
/// residuals, ink)`.
type ScaleOut = (bool, u64, u64, usize, Box4, Box4, Box4, Vec<u64>, Vec<bool>);

/// The scale-following fine look at two previews (`[(width, height, pixels), (width, height,
/// pixels)]`, gray), the kept page first: what `dedupe_pages` decides a near pair by.
#[pyfunction]
#[pyo3(signature = (previews))]
fn page_scale_look(py: Python<'_>, previews: &Bound<'_, PyAny>) -> PyResult<ScaleOut> {
    let p = self::previews(previews, 2)?;
    let (Some(a), Some(b)) = (&p[0], &p[1]) else {
        return Err(InputError::new_err(
            "page_scale_look needs two previews, got None".to_owned(),
        ));
    };
    let out = py.detach(|| super::scale::scale_look_previews(view(a), view(b)));
    Ok((
        out.different,
        out.worst,
        out.reference,
        out.fitted,
        tuple4(out.refined),
        tuple4(out.box_a),
        tuple4(out.box_b),
        out.residuals,
        out.ink,
    ))
}
