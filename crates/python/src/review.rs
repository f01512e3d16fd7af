//! Games reviewed against perfect play from Python: moves from a start, or a game record, each
//! ply handed to a Python callable as it is answered ([`PlyWatch`]), pending signals (Ctrl-C)
//! run between plies; and game records read and written.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

use granary::estimate::Budget;
use granary::{GameRecord, Tablebase};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::options::{MoveArg, Options, budget, limit};
use crate::{TableError, to_python};

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

/// A record's fault as a `ValueError` (its line and column in the message).
fn record_error(err: granary::RecordError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// `moves` (pits, or Bao's moves) played from `position` (or the start) reviewed against
/// perfect play, each position answered as [`query`] answers it within `search_seconds`, a
/// position beyond that estimated by the engine within `time` seconds or `nodes` nodes a ply
/// (neither, or `time` 0: no estimate), each ply handed to `progress` as it is answered
/// ([`reviewed`]): the library's `RecordReview` (the review, the game in full, the
/// record written back).
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, search_seconds, time, nodes, progress))]
#[allow(clippy::too_many_arguments)]
pub fn review<'py>(
    py: Python<'py>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<MoveArg>,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = options.record(position, moves, Vec::new(), Vec::new())?;
    let estimate = budget(time, nodes)?;
    reviewed(py, directory, &record, search_seconds, estimate, progress)
}

/// A review's watch over Python: each ply, as it is answered, handed to a Python callable as
/// `(done, total, ply)` (the ply as a dict, as the review's `plies` hold it); after each
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
                Some(callback) => to_python(py, ply)
                    .and_then(|ply| callback.call1(py, (done, total, ply)).map(drop)),
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
/// the library's `RecordReview`. An exception the callable raises, or a pending signal's
/// (`KeyboardInterrupt`), stops the review (the engine's search too) and is raised as it is.
fn reviewed<'py>(
    py: Python<'py>,
    directory: &str,
    record: &GameRecord,
    search_seconds: Option<f64>,
    estimate: Option<Budget>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
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
    to_python(py, &answer.map_err(review_error)?)
}

/// The game record `text` reviewed as [`review`] reviews moves.
#[pyfunction]
#[pyo3(signature = (directory, text, search_seconds, time, nodes, progress))]
pub fn review_record<'py>(
    py: Python<'py>,
    directory: &str,
    text: &str,
    search_seconds: Option<f64>,
    time: Option<f64>,
    nodes: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = GameRecord::read(text).map_err(record_error)?;
    let estimate = budget(time, nodes)?;
    reviewed(py, directory, &record, search_seconds, estimate, progress)
}

/// The game record `text`, read and checked: the library's `GameRecord`.
#[pyfunction]
pub fn record_read<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &GameRecord::read(text).map_err(record_error)?)
}

/// The record of `moves` from `position` in the game `options` name, with `tags` and the
/// game's `comments`: the library's `GameRecord`.
#[pyfunction]
#[pyo3(signature = (options, position, moves, tags, comments))]
pub fn record_new<'py>(
    py: Python<'py>,
    options: Options,
    position: Option<&str>,
    moves: Vec<MoveArg>,
    tags: Vec<(String, String)>,
    comments: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &options.record(position, moves, tags, comments)?)
}
