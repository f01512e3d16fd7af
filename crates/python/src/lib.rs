//! `granary._granary`: the native half of the Python package `granary` (pyo3, abi3), a thin
//! layer over the `granary` library. Every function takes a game as its name and options (as the
//! command line has them), an optional position in the project's notation and the moves played
//! from it, and returns the library's answer as JSON text, which the pure-Python half
//! (`python/granary/__init__.py`) turns into typed objects. Rules, tables and searches are the
//! library's: no second implementation.
//!
//! Many positions at once (`label_pits`, `label_text`: [`labels`]) are labelled in parallel and
//! answered as bytes numpy reads; Bao's searches and engine are in [`bao`].
//!
//! Errors: bad input raises `ValueError`; missing or damaged tables, a failed build or search
//! raise `granary.TableError`; both with the library's message. The GIL is released during
//! builds, queries, reviews, labelling, solves and Bao's searches; a review takes it back
//! between plies to hand each to its callback and to run pending signals (Ctrl-C), whose
//! exception stops it and is raised as it is.

mod bao;
mod labels;

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

use granary::estimate::Budget;
use granary::game::GameMove;
use granary::record::Tag;
use granary::{Event, GameName, GameRecord, Mancala, Settings, Setup, TableChoice, Tablebase};

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

fn json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A game's name and options, as given from Python (a dict with every key).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Options {
    game: String,
    pits: Option<usize>,
    seeds: Option<u32>,
    rules: Option<String>,
    sweep: Option<String>,
    nyumba: Option<String>,
    takasia: Option<String>,
    tax: Option<String>,
}

impl Options {
    fn name(&self) -> PyResult<GameName> {
        self.game.parse().map_err(|e: granary::InputError| input(e))
    }

    fn setup(&self) -> Setup {
        Setup {
            pits: self.pits,
            seeds: self.seeds,
            rules: self.rules.clone(),
            sweep: self.sweep.clone(),
            nyumba: self.nyumba.clone(),
            takasia: self.takasia.clone(),
            tax: self.tax.clone(),
        }
    }

    /// The kind of tables of the Kalah/Oware game with these options, checked as every front
    /// end's is ([`Setup::table_kind`]).
    fn table_kind(&self) -> Result<granary::TableKind, granary::InputError> {
        self.setup().table_kind(self.game.parse()?)
    }

    /// The Kalah/Oware game at `position` after `moves`.
    fn mancala(&self, position: Option<&str>, moves: &[usize]) -> PyResult<Mancala> {
        let start = self
            .setup()
            .mancala(self.name()?, position)
            .map_err(input)?;
        let shown = granary::show::show(&start, moves).map_err(input)?;
        Ok(Mancala {
            variant: start.variant,
            position: shown.pos,
        })
    }
}

/// Where a Kalah, Oware or Bao game stands after `moves` from `position` (or the start): JSON of
/// the library's `Shown` / `BaoShown`.
#[pyfunction]
#[pyo3(signature = (options, position, moves))]
fn show(options: Options, position: Option<&str>, moves: Vec<String>) -> PyResult<String> {
    if options.name()? == GameName::Bao {
        let (rules, pos) = options.setup().bao(position).map_err(input)?;
        return json(&granary::bao::show(&rules, pos, &moves).map_err(input)?);
    }
    let pits = granary::game::parse_pits(&moves).map_err(input)?;
    let start = options
        .setup()
        .mancala(options.name()?, position)
        .map_err(input)?;
    json(&granary::show::show(&start, &pits).map_err(input)?)
}

/// A search limit from Python: seconds, 0 or more (`None`: no limit).
fn limit(search_seconds: Option<f64>) -> PyResult<f64> {
    match search_seconds {
        None => Ok(f64::INFINITY),
        Some(s) if s >= 0.0 && !s.is_nan() => Ok(s),
        Some(s) => Err(PyValueError::new_err(format!(
            "search_seconds: {s} is not a number of seconds, 0 or more (None: no limit)"
        ))),
    }
}

/// The longest time a move the engine is given, seconds.
const MAX_TIME: f64 = 3600.0;

/// The engine's budget from Python: `nodes` (at least 1) where given, else `time` seconds
/// (more than 0 and at most [`MAX_TIME`]); `None` when neither is given or `time` is 0.
fn budget(time: Option<f64>, nodes: Option<u64>) -> PyResult<Option<Budget>> {
    match (nodes, time) {
        (Some(0), _) => Err(PyValueError::new_err(
            "nodes: the engine needs a budget of at least 1 node",
        )),
        (Some(n), _) => Ok(Some(Budget::Nodes(n))),
        (None, None) => Ok(None),
        (None, Some(0.0)) => Ok(None),
        (None, Some(t)) if t > 0.0 && t <= MAX_TIME => {
            Ok(Some(Budget::Time(std::time::Duration::from_secs_f64(t))))
        }
        (None, Some(t)) => Err(PyValueError::new_err(format!(
            "time: {t} is not a time a move: give seconds, more than 0 and at most {MAX_TIME}"
        ))),
    }
}

/// What the tables in `directory` say of a position, or (Kalah) an exact search over them
/// where the library's rule allows it within `search_seconds`: JSON of the library's `Query`.
/// Beyond that rule, the engine's estimate within `time` seconds or `nodes` nodes, with why
/// there is no exact answer (the library's `Estimated`: `estimate` and `beyond`, no `value`);
/// with neither (or `time` 0), the library's error, which says why and what answers it.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes))]
#[allow(clippy::too_many_arguments)]
fn query(
    py: Python<'_>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
) -> PyResult<String> {
    let game = options.mancala(position, &moves)?;
    let limit = limit(search_seconds)?;
    let budget = budget(time, nodes)?;
    let tablebase = Tablebase::new(directory);
    let answer = py
        .detach(|| tablebase.query_or_estimate(&game, limit, budget))
        .map_err(raise)?;
    json(&answer)
}

/// A review error as the Python exception of its kind: a move that cannot be played, or an
/// answer that failed on bad input, is a `ValueError`; anything else a `TableError`; both with
/// the review's message (which names the ply and the move). A review is cancelled only for an
/// exception its watch keeps, which [`reviewed`] raises instead of this.
fn review_error(err: granary::ReviewError) -> PyErr {
    let bad_input = match &err {
        granary::ReviewError::Illegal { .. } | granary::ReviewError::IllegalBao { .. } => true,
        granary::ReviewError::Answer { source, .. } => source.is_input(),
        _ => false,
    };
    if bad_input {
        PyValueError::new_err(err.to_string())
    } else {
        TableError::new_err(err.to_string())
    }
}

/// A move from Python: a pit number (Kalah, Oware) or Bao's move text.
#[derive(FromPyObject)]
enum MoveArg {
    Pit(usize),
    Text(String),
}

impl Options {
    /// The record of `moves` played from `position` (or the start) in the game these options
    /// name, with `tags` (those that name no rule) and `comments` of the game.
    fn record(
        &self,
        position: Option<&str>,
        moves: Vec<MoveArg>,
        tags: Vec<(String, String)>,
        comments: Vec<String>,
    ) -> PyResult<GameRecord> {
        let game = self.name()?;
        let moves: Vec<GameMove> = moves
            .into_iter()
            .map(|m| match m {
                MoveArg::Pit(pit) if game != GameName::Bao => GameMove::Pit(pit),
                MoveArg::Pit(pit) => GameMove::Bao(pit.to_string()),
                MoveArg::Text(text) => GameMove::Bao(text),
            })
            .collect();
        let pits = moves
            .iter()
            .map(GameMove::pit)
            .collect::<Option<Vec<usize>>>();
        if game != GameName::Bao && pits.is_none() {
            return Err(PyValueError::new_err(
                "moves of kalah and oware are pit numbers",
            ));
        }
        let mut record = GameRecord::new(game, &self.setup(), position, &moves).map_err(input)?;
        for (name, value) in tags {
            let tag = Tag::named(&name)
                .ok_or_else(|| PyValueError::new_err(format!("unknown tag '{name}'")))?;
            record.set_tag(tag, &value).map_err(input)?;
        }
        record.comments = comments;
        Ok(record)
    }
}

/// A record's fault as a `ValueError` (its line and column in the message).
fn record_error(err: granary::RecordError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// `moves` (pits, or Bao's moves) played from `position` (or the start) reviewed against
/// perfect play, each position answered as [`query`] answers it within `search_seconds`, a
/// position beyond that estimated by the engine within `time` seconds or `nodes` nodes a ply
/// (neither, or `time` 0: no estimate), each ply handed to `progress` as it is answered
/// ([`reviewed`]): JSON of the library's `RecordReview` (the review, the game in full, the
/// record written back).
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes, progress))]
#[allow(clippy::too_many_arguments)]
fn review(
    py: Python<'_>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<MoveArg>,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let record = options.record(position, moves, Vec::new(), Vec::new())?;
    let estimate = budget(time, nodes)?;
    reviewed(py, directory, &record, search_seconds, estimate, progress)
}

/// A review's watch over Python: each ply, as it is answered, handed to a Python callable as
/// `(done, total, ply)` (the ply as JSON text, as the review's `plies` write it); after each
/// ply, signals Python has pending (Ctrl-C) are run. The first exception either raises stops
/// the review ([`granary::Cancel`]) and is kept, to be raised in place of the review's answer.
struct PlyWatch {
    /// The callable, if any.
    callback: Option<Py<PyAny>>,
    /// Set when an exception is kept: the review stops before its next ply.
    cancel: granary::Cancel,
    /// The plies handed on so far.
    done: AtomicUsize,
    /// The first exception raised.
    raised: Mutex<Option<PyErr>>,
}

impl PlyWatch {
    /// A watch handing the plies to `callback` (`None`: signals only).
    fn new(callback: Option<Py<PyAny>>) -> PlyWatch {
        PlyWatch {
            callback,
            cancel: granary::Cancel::new(),
            done: AtomicUsize::new(0),
            raised: Mutex::new(None),
        }
    }

    /// Keeps `err` (the first kept stays) and stops the review.
    fn stop(&self, err: PyErr) {
        self.raised
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(err);
        self.cancel.cancel();
    }

    /// The exception kept, if any: the review's own outcome does not count then (a review
    /// stopped by it ends cancelled, or ends anyway where it was at its last ply).
    fn raised(self) -> Option<PyErr> {
        self.raised
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl granary::Watch for PlyWatch {
    fn cancel(&self) -> Option<&granary::Cancel> {
        Some(&self.cancel)
    }

    fn ply(&self, ply: &granary::review::Ply, total: usize) {
        // A review stopped here may still tell its plies (Bao's, all told at its end).
        if self.cancel.is_cancelled() {
            return;
        }
        let done = self.done.fetch_add(1, Relaxed) + 1;
        Python::attach(|py| {
            let called = match &self.callback {
                Some(callback) => serde_json::to_string(ply)
                    .map_err(|e| PyValueError::new_err(e.to_string()))
                    .and_then(|text| callback.call1(py, (done, total, text)).map(drop)),
                None => Ok(()),
            };
            if let Err(err) = called.and_then(|()| py.check_signals()) {
                self.stop(err);
            }
        });
    }
}

/// `record` reviewed over the tables in `directory` within `search_seconds`, the engine's
/// estimates beyond within `estimate` a ply, each ply handed to `progress` ([`PlyWatch`]):
/// JSON of the library's `RecordReview`. An exception the callable raises, or a pending
/// signal's (`KeyboardInterrupt`), stops the review (the engine's search too) and is raised as
/// it is.
fn reviewed(
    py: Python<'_>,
    directory: &str,
    record: &GameRecord,
    search_seconds: Option<f64>,
    estimate: Option<Budget>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let limit = limit(search_seconds)?;
    let tablebase = Tablebase::new(directory);
    let watch = PlyWatch::new(progress);
    let answer = py.detach(|| tablebase.review_record(record, limit, estimate, &watch));
    if let Some(err) = watch.raised() {
        return Err(err);
    }
    // A signal that came while no ply was told (or where it could not be handled) is raised
    // now, in place of the answer.
    py.check_signals()?;
    json(&answer.map_err(review_error)?)
}

/// The game record `text` reviewed as [`review`] reviews moves.
#[pyfunction]
#[pyo3(signature = (directory, text, search_seconds, time, nodes, progress))]
fn review_record(
    py: Python<'_>,
    directory: &str,
    text: &str,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let record = GameRecord::read(text).map_err(record_error)?;
    let estimate = budget(time, nodes)?;
    reviewed(py, directory, &record, search_seconds, estimate, progress)
}

/// The game record `text`, read and checked: JSON of the library's `GameRecord`.
#[pyfunction]
fn record_read(text: &str) -> PyResult<String> {
    json(&GameRecord::read(text).map_err(record_error)?)
}

/// The record of `moves` from `position` in the game `options` name, with `tags` and the
/// game's `comments`: JSON of the library's `GameRecord`.
#[pyfunction]
#[pyo3(signature = (options, position, moves, tags, comments))]
fn record_new(
    options: Options,
    position: Option<&str>,
    moves: Vec<MoveArg>,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
) -> PyResult<String> {
    json(&options.record(position, moves, tags, comments)?)
}

/// The moves to play (perfect where the library's rule answers within `search_seconds`, else
/// the engine's move within `time` seconds, or `nodes` nodes where given): JSON of the
/// library's `Choice`.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes))]
#[allow(clippy::too_many_arguments)]
fn choose(
    py: Python<'_>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    search_seconds: Option<f64>,
    time: f64,
    nodes: Option<u64>,
) -> PyResult<String> {
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
    json(&choice)
}

/// A Kalah/Oware position from counts, checked by the library (`Counts`): its notation.
#[pyfunction]
#[pyo3(signature = (options, south, north, stores, to_move))]
fn position_of_counts(
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
fn open_tablebase(directory: &str, create: bool) -> PyResult<()> {
    if create {
        std::fs::create_dir_all(directory)
            .map_err(|e| TableError::new_err(format!("{directory}: {e}")))?;
    }
    Tablebase::existing(directory)
        .map(drop)
        .map_err(|e| raise(e.into()))
}

/// Events of long work, handed to a Python callable as `(kind, dict)`.
struct Progress {
    callback: Option<Py<PyAny>>,
    /// Whether a Bao proof's finished depths are reported.
    depths: bool,
}

impl Progress {
    fn new(callback: Option<Py<PyAny>>) -> Progress {
        Progress {
            callback,
            depths: false,
        }
    }

    fn with_depths(callback: Option<Py<PyAny>>) -> Progress {
        Progress {
            callback,
            depths: true,
        }
    }
}

impl granary::Observer for Progress {
    fn event(&self, event: Event<'_>) {
        let Some(callback) = &self.callback else {
            return;
        };
        let skipped = match event {
            Event::Advanced { .. } | Event::Phase { .. } => true,
            Event::Depth { .. } => !self.depths,
            _ => false,
        };
        if skipped {
            return;
        }
        // The library's own JSON of the event: its `event` field is the kind, the rest the data.
        let Ok(serde_json::Value::Object(mut data)) = serde_json::to_value(event) else {
            return;
        };
        let kind = match data.remove("event") {
            Some(serde_json::Value::String(kind)) => kind,
            _ => return,
        };
        let data = serde_json::Value::Object(data);
        Python::attach(|py| {
            // A callback that raises is reported by Python and otherwise ignored: the work
            // goes on.
            if let Err(err) = callback.call1(py, (kind, data.to_string())) {
                err.print(py);
            }
        });
    }
}

/// Solves a Kalah or Oware position exactly, tables in `directory` planned and built as needed:
/// JSON of the library's `SolveReport`.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, threads, table_seeds, progress, journal))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    threads: Option<usize>,
    table_seeds: Option<u32>,
    progress: Option<Py<PyAny>>,
    journal: Option<std::path::PathBuf>,
) -> PyResult<String> {
    let game = options.mancala(position, &moves)?;
    let tablebase = Tablebase::new(directory);
    let settings = Settings {
        threads,
        tables: table_seeds.map_or(TableChoice::Auto, TableChoice::Seeds),
        journal: journal.map(granary::JournalSettings::new),
        ..Settings::default()
    };
    let observer = Progress::new(progress);
    let report = py
        .detach(|| granary::solve(&tablebase, &game, &settings, &observer))
        .map_err(raise)?;
    json(&report)
}

/// Builds the missing table layers `0..=max_seeds` of a game's tables in `directory`: JSON of
/// the library's `BuildReport`.
#[pyfunction]
#[pyo3(signature = (directory, options, max_seeds, threads, memory, progress))]
fn build(
    py: Python<'_>,
    directory: &str,
    options: Options,
    max_seeds: u32,
    threads: Option<usize>,
    memory: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let game = options.mancala(None, &[])?;
    let tablebase = Tablebase::new(directory);
    let observer = Progress::new(progress);
    let report = py
        .detach(|| {
            granary::build(
                &tablebase,
                game.kind(),
                max_seeds,
                threads,
                memory,
                &observer,
            )
        })
        .map_err(|e| raise(e.into()))?;
    json(&report)
}

/// The games, their options and defaults: JSON of the library's catalogue.
#[pyfunction]
fn catalogue() -> PyResult<String> {
    json(&granary::game::catalogue())
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
    m.add_function(wrap_pyfunction!(show, m)?)?;
    m.add_function(wrap_pyfunction!(query, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(review_record, m)?)?;
    m.add_function(wrap_pyfunction!(record_read, m)?)?;
    m.add_function(wrap_pyfunction!(record_new, m)?)?;
    m.add_function(wrap_pyfunction!(choose, m)?)?;
    m.add_function(wrap_pyfunction!(position_of_counts, m)?)?;
    m.add_function(wrap_pyfunction!(open_tablebase, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label_pits, m)?)?;
    m.add_function(wrap_pyfunction!(labels::label_text, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_prove, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_prove_pns, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_choose, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_hint, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    Ok(())
}
