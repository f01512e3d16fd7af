//! `granary._granary`: the native half of the Python package `granary` (pyo3, abi3), a thin
//! layer over the `granary` library. Every function takes a game as its name and options (as the
//! command line has them), an optional position in the project's notation and the moves played
//! from it, and returns the library's answer as Python objects (dicts, lists, numbers, strings:
//! what the library's JSON holds, built directly, [`to_python`]), which the pure-Python half
//! (`python/granary/`) turns into typed objects. Rules, tables and searches are the library's:
//! no second implementation.
//!
//! - [`options`]: a game's options, moves, search limits and the engine's budget from Python;
//! - [`answers`]: positions shown and answered, the moves to play;
//! - [`review`]: games reviewed ply by ply, game records read and written;
//! - [`work`]: tables built and positions solved, with progress events;
//! - [`labels`]: many positions labelled at once, answered as bytes numpy reads;
//! - [`bao`]: Bao's searches and engine.
//!
//! Errors: bad input raises `ValueError`; missing or damaged tables, a failed build or search
//! raise `granary.TableError`; both with the library's message. The GIL is released during
//! builds, queries, reviews, labelling, solves and Bao's searches; a review takes it back
//! between plies to hand each to its callback and to run pending signals (Ctrl-C), whose
//! exception stops it and is raised as it is.

mod answers;
mod bao;
mod labels;
mod options;
mod review;
mod work;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

create_exception!(
    _granary,
    TableError,
    PyException,
    "Tables missing or damaged, or a build or search that failed."
);

/// A library error as the Python exception of its kind.
fn raise(err: granary::Error) -> PyErr {
    if err.is_input() {
        PyValueError::new_err(err.to_string())
    } else {
        TableError::new_err(err.to_string())
    }
}

fn input(err: granary::InputError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// A library answer as Python objects, as its JSON has them: objects as dicts, arrays (tuples
/// among them) as lists, numbers as ints or floats, `null` as `None`; built directly
/// (`pythonize`), no JSON text written and parsed in between.
fn to_python<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    // Through `serde_json::Value`, whose arrays are sequences: serde's tuples (`[T; 2]`) would be
    // Python tuples, unlike the JSON the command line and the server write.
    let value = serde_json::to_value(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(pythonize::pythonize(py, &value)?)
}

/// The native module.
#[pymodule]
fn _granary(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TableError", m.py().get_type::<TableError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "DEFAULT_SEARCH_SECONDS",
        granary::plan::DEFAULT_SEARCH_SECONDS,
    )?;
    m.add(
        "DEFAULT_TIME",
        granary::estimate::DEFAULT_TIME.as_secs_f64(),
    )?;
    m.add("REVIEW_TIME", granary::review::ESTIMATE_TIME.as_secs_f64())?;
    m.add_function(wrap_pyfunction!(answers::show, m)?)?;
    m.add_function(wrap_pyfunction!(answers::query, m)?)?;
    m.add_function(wrap_pyfunction!(answers::choose, m)?)?;
    m.add_function(wrap_pyfunction!(answers::position_of_counts, m)?)?;
    m.add_function(wrap_pyfunction!(answers::open_tablebase, m)?)?;
    m.add_function(wrap_pyfunction!(review::review, m)?)?;
    m.add_function(wrap_pyfunction!(review::review_record, m)?)?;
    m.add_function(wrap_pyfunction!(review::record_read, m)?)?;
    m.add_function(wrap_pyfunction!(review::record_new, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label_pits, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label_text, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_prove, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_prove_pns, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_choose, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_hint, m)?)?;
    m.add_function(wrap_pyfunction!(work::solve, m)?)?;
    m.add_function(wrap_pyfunction!(work::build, m)?)?;
    m.add_function(wrap_pyfunction!(work::catalogue, m)?)?;
    Ok(())
}
