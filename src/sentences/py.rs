//! Python bindings of the sentence kernels: extract -> check -> `py.detach(kernel)` -> columns.
//!
//! Arguments are extracted in the reference's order through `crate::checks`; for scores,
//! threshold and offsets the binding only decides *whether* an argument is bad, and then lets
//! `briefpack._checks` write the message, so every message lives in one place.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

use crate::checks::{self, Arg};
use crate::vectors::args::{is_not_number, is_not_sequence};

/// Register this module's functions on `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(split_sentences, m)?)?;
    m.add_function(wrap_pyfunction!(sentence_aliases, m)?)?;
    m.add_function(wrap_pyfunction!(score_sentences, m)?)?;
    m.add_function(wrap_pyfunction!(select_sentences, m)?)?;
    Ok(())
}

/// `scores` as finite floats, one per sentence, or `None` when the reference rejects them.
fn extract_scores(scores: &Bound<'_, PyAny>, n: usize) -> PyResult<Option<Vec<f64>>> {
    if is_not_sequence(scores)? {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(n);
    for item in scores.try_iter()? {
        let item = item?;
        if is_not_number(&item) {
            return Ok(None);
        }
        let Ok(x) = item.extract::<f64>() else {
            return Ok(None); // an int too large for a float: the reference says so
        };
        if !x.is_finite() {
            return Ok(None);
        }
        out.push(x);
    }
    Ok((out.len() == n).then_some(out))
}

fn extract_threshold(threshold: &Bound<'_, PyAny>) -> Option<f64> {
    if threshold.is_instance_of::<PyBool>()
        || !(threshold.is_instance_of::<PyInt>() || threshold.is_instance_of::<PyFloat>())
    {
        return None;
    }
    threshold.extract::<f64>().ok().filter(|x| !x.is_nan())
}

/// Group offsets from 0 to `n`, never decreasing (`None`: one group), or `None` when bad.
fn extract_offsets(offsets: &Bound<'_, PyAny>, n: usize) -> PyResult<Option<Vec<usize>>> {
    if offsets.is_none() {
        return Ok(Some(vec![0, n]));
    }
    if is_not_sequence(offsets)? {
        return Ok(None);
    }
    let mut out: Vec<usize> = Vec::new();
    for item in offsets.try_iter()? {
        let item = item?;
        if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
            return Ok(None);
        }
        let previous = out.last().copied().unwrap_or(0);
        match item.extract::<usize>() {
            Ok(x) if previous <= x && x <= n => out.push(x),
            _ => return Ok(None),
        }
    }
    Ok((out.first() == Some(&0) && out.last() == Some(&n)).then_some(out))
}

/// Every text's sentence spans, flat: `(starts, ends, offsets)` in characters.
#[pyfunction]
#[pyo3(signature = (texts))]
fn split_sentences(
    py: Python<'_>,
    texts: &Bound<'_, PyAny>,
) -> PyResult<(Vec<usize>, Vec<usize>, Vec<usize>)> {
    let texts = checks::texts(texts, "texts")?;
    Ok(py.detach(|| super::split(&texts)))
}

/// The abbreviations the texts define, as `(short, long)` with the long form's words joined
/// by one space.
#[pyfunction]
#[pyo3(signature = (texts))]
fn sentence_aliases(py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let texts = checks::texts(texts, "alias_texts")?;
    Ok(py.detach(|| {
        super::aliases(&texts)
            .into_iter()
            .map(|(short, long)| (short, long.join(" ")))
            .collect()
    }))
}

/// BM25 relevance of each sentence to the question, with aliases learned from `alias_texts`.
#[pyfunction]
#[pyo3(signature = (question, sentences, alias_texts = Arg::Omitted), text_signature = "(question, sentences, alias_texts=())")]
fn score_sentences<'py>(
    py: Python<'py>,
    question: &Bound<'py, PyAny>,
    sentences: &Bound<'py, PyAny>,
    alias_texts: Arg<'py>,
) -> PyResult<Vec<f64>> {
    let question = checks::text(question, "question")?;
    let sentences = checks::texts(sentences, "sentences")?;
    let alias_texts = match alias_texts {
        Arg::Given(a) => checks::texts(&a, "alias_texts")?,
        Arg::Omitted => Vec::new(),
    };
    Ok(py.detach(|| super::score(&question, &sentences, &alias_texts)))
}

/// The sentences to keep: scoring `>= threshold`, plus the neighbours that continue them.
#[pyfunction]
#[pyo3(signature = (sentences, scores, threshold, offsets = None))]
fn select_sentences<'py>(
    py: Python<'py>,
    sentences: &Bound<'py, PyAny>,
    scores: &Bound<'py, PyAny>,
    threshold: &Bound<'py, PyAny>,
    offsets: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<usize>> {
    let sentences = checks::texts(sentences, "sentences")?;
    let n = sentences.len();
    let Some(scores) = extract_scores(scores, n)? else {
        return Err(checks::rejected(py, "check_scores", (scores, n)));
    };
    let Some(limit) = extract_threshold(threshold) else {
        return Err(checks::rejected(py, "check_threshold", (threshold,)));
    };
    let none = py.None().into_bound(py);
    let offsets = offsets.unwrap_or(&none);
    let Some(bounds) = extract_offsets(offsets, n)? else {
        return Err(checks::rejected(py, "check_offsets", (offsets, n)));
    };
    Ok(py.detach(|| super::select(&sentences, &scores, limit, &bounds)))
}
