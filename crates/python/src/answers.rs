//! A Kalah, Oware or Bao position shown after moves, and a Kalah or Oware position answered:
//! its value and every move's from the tables or a search over them, else the engine's
//! estimate ([`query`]); the moves to play ([`choose`]); a position from counts; a table
//! directory opened. Each answer is the library's, as Python objects ([`crate::to_python`]).

use granary::{GameName, Tablebase};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::options::{MAX_TIME, Options, budget, limit};
use crate::{TableError, input, raise, to_python};

/// Where a Kalah, Oware or Bao game stands after `moves` from `position` (or the start): the
/// library's `Shown` / `BaoShown`.
#[pyfunction]
#[pyo3(signature = (options, position, moves))]
pub fn show<'py>(
    py: Python<'py>,
    options: Options,
    position: Option<&str>,
    moves: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    if options.name()? == GameName::Bao {
        let (rules, pos) = options.setup().bao(position).map_err(input)?;
        return to_python(py, &granary::bao::show(&rules, pos, &moves).map_err(input)?);
    }
    let pits = granary::game::parse_pits(&moves).map_err(input)?;
    let start = options
        .setup()
        .mancala(options.name()?, position)
        .map_err(input)?;
    to_python(py, &granary::show::show(&start, &pits).map_err(input)?)
}

/// What the tables in `directory` say of a position, or (Kalah) an exact search over them
/// where the library's rule allows it within `search_seconds`: the library's `Query`.
/// Beyond that rule, the engine's estimate within `time` seconds or `nodes` nodes, with why
/// there is no exact answer (the library's `Estimated`: `estimate` and `beyond`, no `value`);
/// with neither (or `time` 0), the library's error, which says why and what answers it.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes))]
#[allow(clippy::too_many_arguments)]
pub fn query<'py>(
    py: Python<'py>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = options.mancala(position, &moves)?;
    let limit = limit(search_seconds)?;
    let budget = budget(time, nodes)?;
    let tablebase = Tablebase::new(directory);
    let answer = py
        .detach(|| tablebase.query_or_estimate(&game, limit, budget))
        .map_err(raise)?;
    to_python(py, &answer)
}

/// The moves to play (perfect where the library's rule answers within `search_seconds`, else
/// the engine's move within `time` seconds, or `nodes` nodes where given): the
/// library's `Choice`.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes))]
#[allow(clippy::too_many_arguments)]
pub fn choose<'py>(
    py: Python<'py>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    search_seconds: Option<f64>,
    time: f64,
    nodes: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = options.mancala(position, &moves)?;
    let limit = limit(search_seconds)?;
    let budget = budget(Some(time), nodes)?.ok_or_else(|| {
        PyValueError::new_err(format!(
            "time: {time} is not a time a move: give seconds, more than 0 and at most {MAX_TIME}"
        ))
    })?;
    let tablebase = Tablebase::new(directory);
    let choice = py
        .detach(|| tablebase.choose(&game, limit, budget))
        .map_err(raise)?;
    to_python(py, &choice)
}

/// A Kalah/Oware position from counts, checked by the library (`Counts`): its notation.
#[pyfunction]
#[pyo3(signature = (options, south, north, stores, to_move))]
pub fn position_of_counts(
    options: Options,
    south: Vec<u64>,
    north: Vec<u64>,
    stores: (u64, u64),
    to_move: u64,
) -> PyResult<String> {
    let counts = granary::game::Counts {
        south: &south,
        north: &north,
        stores: [stores.0, stores.1],
        to_move,
    };
    let game = options
        .setup()
        .mancala_at(options.name()?, &counts)
        .map_err(input)?;
    Ok(granary::format_position(&game.position, game.variant.pits))
}

/// Checks that `directory` is a table directory (made first, empty, if `create`); raises
/// `TableError` naming it otherwise.
#[pyfunction]
#[pyo3(signature = (directory, create))]
pub fn open_tablebase(directory: &str, create: bool) -> PyResult<()> {
    if create {
        std::fs::create_dir_all(directory)
            .map_err(|e| TableError::new_err(format!("{directory}: {e}")))?;
    }
    Tablebase::existing(directory)
        .map(drop)
        .map_err(|e| raise(e.into()))
}
