//! briefpack's Rust core: the hot paths of context assembly behind one `PyO3` module.
//!
//! This file holds only the `#[pymodule]`; each kernel lives in its own module as plain Rust
//! (testable with `cargo test`, no Python needed) with its binding in a `py` submodule.

use pyo3::prelude::*;

mod checks;
mod dedupe;
mod errors;
mod intake;
mod pack;
mod pages;
mod render;
mod sentences;
mod text;
mod tokens;
mod vectors;

// Every kernel is safe without the GIL (8-thread tests in tests/test_threads.py and the parity
// suites hold), so free-threaded Python may run them in parallel.
#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    text::py::register(m)?;
    intake::py::register(m)?;
    dedupe::py::register(m)?;
    vectors::py::register(m)?;
    pack::py::register(m)?;
    pages::py::register(m)?;
    render::py::register(m)?;
    tokens::py::register(m)?;
    sentences::py::register(m)?;
    Ok(())
}
