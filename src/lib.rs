//! briefpack's Rust core: the hot paths of context assembly behind one `PyO3` module.
//!
//! This file holds only the `#[pymodule]`; each kernel lives in its own module as plain Rust
//! (testable with `cargo test`, no Python needed) with its binding in a `py` submodule. The
//! bindings, the argument checks and the exception classes are behind the `python` feature
//! (maturin turns it on), so `cargo test` builds and links no Python at all.

// Without the bindings the kernels (and the modules' re-exports for them) are reached only from
// their tests; the `python` build (`cargo clippy --features python`) is the one that finds
// kernels and imports nothing uses.
#![cfg_attr(not(feature = "python"), allow(dead_code, unused_imports))]

#[cfg(feature = "python")]
use pyo3::prelude::*;

#[cfg(feature = "python")]
mod checks;
mod dedupe;
#[cfg(feature = "python")]
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
#[cfg(feature = "python")]
#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    text::py::register(m)?;
    intake::py::register(m)?;
    dedupe::py::register(m)?;
    vectors::py::register(m)?;
    vectors::rows::register(m)?;
    pack::py::register(m)?;
    pages::py::register(m)?;
    render::py::register(m)?;
    tokens::py::register(m)?;
    sentences::py::register(m)?;
    Ok(())
}
