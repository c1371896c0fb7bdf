//! briefpack's Rust core: the hot paths of context assembly behind one PyO3 module.
//!
//! This file holds only the `#[pymodule]`; each kernel lives in its own module as plain Rust
//! (testable with `cargo test`, no Python needed) with its binding in a `py` submodule.

use pyo3::prelude::*;

mod errors;
mod tokens;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    tokens::py::register(m)?;
    Ok(())
}
