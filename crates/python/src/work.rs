//! Long work from Python: a game's tables built, a position solved (tables planned and built as
//! needed), each with its progress events handed to a Python callable ([`Progress`]); and the
//! catalogue of games.

use granary::{Event, Settings, TableChoice, Tablebase};
use pyo3::prelude::*;

use crate::options::Options;
use crate::{raise, to_python};

/// Events of long work, handed to a Python callable as `(kind, dict)`.
pub(crate) struct Progress {
    callback: Option<Py<PyAny>>,
    /// Whether a Bao proof's finished depths are reported.
    depths: bool,
}

impl Progress {
    pub(crate) fn new(callback: Option<Py<PyAny>>) -> Progress {
        Progress {
            callback,
            depths: false,
        }
    }

    pub(crate) fn with_depths(callback: Option<Py<PyAny>>) -> Progress {
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
            let called = to_python(py, &data).and_then(|data| callback.call1(py, (kind, data)));
            if let Err(err) = called {
                err.print(py);
            }
        });
    }
}

/// Solves a Kalah or Oware position exactly, tables in `directory` planned and built as needed:
/// the library's `SolveReport`.
#[pyfunction]
#[pyo3(signature = (directory, options, position, moves, threads, table_seeds, progress, journal))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    directory: &str,
    options: Options,
    position: Option<&str>,
    moves: Vec<usize>,
    threads: Option<usize>,
    table_seeds: Option<u32>,
    progress: Option<Py<PyAny>>,
    journal: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
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
    to_python(py, &report)
}

/// Builds the missing table layers `0..=max_seeds` of a game's tables in `directory`: the
/// library's `BuildReport`.
#[pyfunction]
#[pyo3(signature = (directory, options, max_seeds, threads, memory, progress))]
pub fn build<'py>(
    py: Python<'py>,
    directory: &str,
    options: Options,
    max_seeds: u32,
    threads: Option<usize>,
    memory: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
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
    to_python(py, &report)
}

/// The games, their options and defaults: the library's catalogue.
#[pyfunction]
pub fn catalogue<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &granary::game::catalogue())
}
