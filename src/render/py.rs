//! Python binding: `_core.price_pack`. The sources are read lazily, in batches that double in
//! size (16, 32, ...), each walked detached; a walk that stops never reads the rest.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PySequence, PyString};

use super::{needs_caller, Field, Packer, Role, Settings, Source, Style};
use crate::checks;
use crate::errors::InputError;
use crate::pack::Overflow;
use crate::tokens::Encoding;
use crate::vectors::args::type_name;

/// Register this module's functions on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(price_pack, m)?)
}

/// A value as Python holds it (borrowed UTF-8), or as the caller escaped it.
enum Text {
    Borrowed(PyBackedStr),
    Owned(String),
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        match self {
            Self::Borrowed(s) => s,
            Self::Owned(s) => s,
        }
    }
}

/// `briefpack.core_callbacks.escape_as(role, s)`: how a value holding an opening bracket is
/// escaped.
fn escape_as(py: Python<'_>, role: &str, s: &str) -> PyResult<String> {
    static CALLBACKS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = CALLBACKS.get_or_try_init(py, || {
        py.import("briefpack.core_callbacks").map(Bound::unbind)
    })?;
    module
        .bind(py)
        .getattr(intern!(py, "escape_as"))?
        .call1((role, s))?
        .extract()
}

fn utf8(value: &Bound<'_, PyAny>, i: usize, name: &str) -> PyResult<PyBackedStr> {
    let s = value.cast::<PyString>().map_err(|_| {
        InputError::new_err(format!(
            "chunks[{i}].{name} must be a str, got {}",
            type_name(value).unwrap_or_default()
        ))
    })?;
    PyBackedStr::try_from(s.clone()).map_err(|_| {
        InputError::new_err(format!(
            "chunks[{i}].{name} is not valid Unicode (a lone surrogate); pass text that encodes as UTF-8"
        ))
    })
}

/// One field: borrowed when this module escapes it, else escaped by `prompt` as `role` (`None`:
/// the style does not show it, so it is left as is).
fn field(py: Python<'_>, s: PyBackedStr, role: Option<&str>, page: bool) -> PyResult<Field<Text>> {
    match role {
        Some(role)
            if needs_caller(
                &s,
                match role {
                    "text" => Role::Text,
                    "title" => Role::Head,
                    _ => Role::Value,
                },
            ) =>
        {
            let shown = if page {
                format!("page {}", &*s)
            } else {
                s.to_string()
            };
            Ok(Field {
                value: Text::Owned(escape_as(py, role, &shown)?),
                escaped: true,
            })
        }
        _ => Ok(Field {
            value: Text::Borrowed(s),
            escaped: false,
        }),
    }
}

/// Read `chunks[i]` (a `Chunk` without page images).
fn fetch(
    py: Python<'_>,
    chunks: &Bound<'_, PySequence>,
    i: usize,
    style: Style,
) -> PyResult<Source<Text>> {
    let chunk = chunks.get_item(i)?;
    if !chunk.getattr(intern!(py, "image"))?.is_none() {
        return Err(InputError::new_err(format!(
            "chunks[{i}] has a page image; price_pack renders sources without page images \
             (the pipeline prices pages itself)"
        )));
    }
    let get = |name: &Bound<'_, PyString>| -> PyResult<PyBackedStr> {
        utf8(&chunk.getattr(name)?, i, &name.to_cow()?)
    };
    let page = chunk.getattr(intern!(py, "page"))?;
    let page = if page.is_none() {
        PyBackedStr::try_from(PyString::new(py, ""))?
    } else if page.is_instance_of::<PyString>() {
        utf8(&page, i, "page")?
    } else {
        utf8(page.str()?.as_any(), i, "page")?
    };
    let tokens = chunk.getattr(intern!(py, "tokens"))?;
    let tokens = if tokens.is_none() {
        None
    } else {
        let n = tokens.cast::<PyInt>().map_err(|_| {
            InputError::new_err(format!(
                "chunks[{i}].tokens must be an int >= 0 or None, got {}",
                type_name(&tokens).unwrap_or_default()
            ))
        })?;
        if n.lt(0)? {
            return Err(InputError::new_err(format!(
                "chunks[{i}].tokens must be an int >= 0 or None, got {n}"
            )));
        }
        Some(n.extract::<u128>().unwrap_or(u128::MAX))
    };
    let is_page = !page.is_empty();
    let (title, page_role, updated, url) = match style {
        Style::Xml => (Some("value"), Some("value"), Some("value"), Some("url")),
        Style::Brackets if is_page => (Some("title"), Some("title"), Some("title"), Some("title")),
        Style::Brackets => (Some("title"), None, None, None),
    };
    Ok(Source {
        text: field(py, get(intern!(py, "text"))?, Some("text"), false)?,
        title: field(py, get(intern!(py, "title"))?, title, false)?,
        url: field(py, get(intern!(py, "url"))?, url, false)?,
        updated: field(py, get(intern!(py, "updated"))?, updated, false)?,
        page: field(py, page, page_role, style == Style::Brackets)?,
        tokens,
    })
}

fn style_of(labels: &Bound<'_, PyAny>) -> PyResult<Style> {
    if let Ok(s) = labels.cast::<PyString>() {
        if let Ok(s) = s.to_cow() {
            if let Some(&(_, st)) = Style::ALL.iter().find(|(name, _)| *name == s.as_ref()) {
                return Ok(st);
            }
        }
    }
    let legal: Vec<&str> = Style::ALL.iter().map(|(name, _)| *name).collect();
    Err(checks::rejected(
        labels.py(),
        "choice",
        ("labels", labels, legal),
    ))
}

fn encoding_of(obj: &Bound<'_, PyAny>) -> PyResult<Encoding> {
    if let Ok(s) = obj.cast::<PyString>() {
        if let Some(enc) = s.to_cow().ok().and_then(|name| Encoding::from_name(&name)) {
            return Ok(enc);
        }
    }
    Err(checks::rejected(obj.py(), "check_encoding_name", (obj,)))
}

/// What `price_pack` returns: kept, their costs and blocks, misfits and what was left at each.
type Priced = (Vec<usize>, Vec<u128>, Vec<String>, Vec<usize>, Vec<u128>);

/// Render, count and pack source blocks in rank order, in one pass (see `briefpack.reference.price_pack`).
#[pyfunction]
#[pyo3(signature = (chunks, labels, widest, budget, separator_tokens, overflow, encoding))]
#[allow(clippy::too_many_arguments)]
fn price_pack<'py>(
    py: Python<'py>,
    chunks: &Bound<'py, PyAny>,
    labels: &Bound<'py, PyAny>,
    widest: &Bound<'py, PyAny>,
    budget: &Bound<'py, PyAny>,
    separator_tokens: &Bound<'py, PyAny>,
    overflow: Overflow,
    encoding: &Bound<'py, PyAny>,
) -> PyResult<Priced> {
    if chunks.is_instance_of::<PyString>() || !chunks.is_instance_of::<PySequence>() {
        return Err(InputError::new_err(format!(
            "chunks must be a list of Chunk, got {}",
            type_name(chunks)?
        )));
    }
    let chunks = chunks.cast::<PySequence>()?;
    let style = style_of(labels)?;
    let widest = checks::text(widest, "widest")?;
    if widest.is_empty() || !widest.bytes().all(|b| b.is_ascii_digit()) {
        return Err(InputError::new_err(format!(
            "widest must be a label's decimal digits, got {:?}",
            &*widest
        )));
    }
    let budget = checks::count(py, "budget", budget, 0)?;
    let separator = checks::count(py, "separator_tokens", separator_tokens, 0)?;
    let encoding = encoding_of(encoding)?;
    let n = chunks.len()?;
    let mut packer = Packer::new(Settings {
        style,
        widest: widest.to_string(),
        budget: u128::from(budget),
        separator: u128::from(separator),
        overflow,
        encoding,
    });
    let (mut start, mut size) = (0usize, 16usize);
    while start < n && !packer.stopped() {
        let end = n.min(start.saturating_add(size));
        let batch = (start..end)
            .map(|i| fetch(py, chunks, i, style))
            .collect::<PyResult<Vec<_>>>()?;
        py.detach(|| {
            for source in &batch {
                if !packer.push(source) {
                    break;
                }
            }
        });
        start = end;
        size = size.saturating_mul(2);
    }
    let p = packer.priced;
    Ok((p.kept, p.costs, p.blocks, p.misfits, p.remaining))
}
