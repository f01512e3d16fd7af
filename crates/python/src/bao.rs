//! Bao from Python: the library's proof searches (full width to a depth, proof-number) and its
//! engine (a move within a time, every move's score). Each function takes the game's options,
//! its start (or a written position) and the moves played, and answers as the library does
//! (as Python objects, [`crate::to_python`]).

use std::time::Duration;

use granary::BaoPosition;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::input;
use crate::options::Options;
use crate::to_python;
use crate::work::Progress;

/// Bao's rules and the position after `moves` from `position` (or the start).
fn position(
    options: &Options,
    position: Option<&str>,
    moves: &[String],
) -> PyResult<(granary::BaoRules, BaoPosition)> {
    if options.name()? != granary::GameName::Bao {
        return Err(PyValueError::new_err(format!(
            "{} is not bao: proofs and the engine here are bao's (kalah and oware have solve)",
            options.game
        )));
    }
    let (rules, start) = options.setup().bao(position).map_err(input)?;
    let shown = granary::bao::show(&rules, start, moves).map_err(input)?;
    Ok((rules, shown.pos))
}

/// A full-width proof search for a forced win or loss within `depth` plies: the
/// library's `BaoSolution`. `progress` hears each finished depth.
#[pyfunction]
#[pyo3(signature = (options, start, moves, depth, progress))]
pub fn bao_prove<'py>(
    py: Python<'py>,
    options: Options,
    start: Option<&str>,
    moves: Vec<String>,
    depth: u32,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (rules, pos) = position(&options, start, &moves)?;
    let observer = Progress::with_depths(progress);
    let solution = py.detach(|| granary::bao::prove(&rules, &pos, depth, &observer));
    to_python(py, &solution)
}

/// A proof-number search of at most `nodes` tree nodes: the library's `BaoSolution`.
#[pyfunction]
#[pyo3(signature = (options, start, moves, nodes))]
pub fn bao_prove_pns<'py>(
    py: Python<'py>,
    options: Options,
    start: Option<&str>,
    moves: Vec<String>,
    nodes: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if nodes == 0 {
        return Err(PyValueError::new_err(
            "nodes: the proof-number search needs a budget of at least 1 tree node",
        ));
    }
    let (rules, pos) = position(&options, start, &moves)?;
    let solution = py.detach(|| granary::bao::prove_pns(&rules, &pos, nodes));
    to_python(py, &solution)
}

/// The engine's move within `seconds`: the library's `EngineMove`, or `None` when the
/// player to move has no legal move.
#[pyfunction]
#[pyo3(signature = (options, start, moves, seconds))]
pub fn bao_choose<'py>(
    py: Python<'py>,
    options: Options,
    start: Option<&str>,
    moves: Vec<String>,
    seconds: f64,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(PyValueError::new_err(format!(
            "seconds: {seconds} is not a time to think; give more than 0 and at most 3600"
        )));
    }
    let (rules, pos) = position(&options, start, &moves)?;
    let chosen = py.detach(|| {
        granary::bao::Player::new(&rules)
            .choose(&pos, Duration::from_secs_f64(seconds))
            .map(|(mv, _)| mv)
    });
    chosen.map(|mv| to_python(py, &mv)).transpose()
}

/// Every legal move with the engine's 3-ply score for the mover, in seeds: `[(move, score)]`.
#[pyfunction]
#[pyo3(signature = (options, start, moves))]
pub fn bao_hint(
    py: Python<'_>,
    options: Options,
    start: Option<&str>,
    moves: Vec<String>,
) -> PyResult<Vec<(String, f64)>> {
    let (rules, pos) = position(&options, start, &moves)?;
    Ok(py.detach(|| granary::bao::Player::new(&rules).hint(&pos)))
}
