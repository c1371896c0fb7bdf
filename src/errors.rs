//! briefpack's Python exception classes, imported from `briefpack.errors`.
pyo3::import_exception!(briefpack.errors, InputError);
pyo3::import_exception!(briefpack.errors, BudgetError);
