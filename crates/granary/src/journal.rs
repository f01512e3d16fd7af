//! Long solves that survive their process: a solve journal ([`granary_search::journal`]) opened
//! for a Kalah solve, its bounds loaded back on a restart, a finished journal's answer given
//! without tables, and progress reported once a minute. Re-checking a journal's records:
//! [`mod@crate::recheck`].

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use granary_rules::notation::format_position;
use granary_rules::{Game, Kalah};
use granary_search::{Contents, Journal, Solve};
use serde::Serialize;

use crate::error::{Error, InputError, SolveError};
use crate::game::Mancala;
use crate::observer::{Event, Observer};

/// The least work, in nodes, of a search the journal records by default. The records number
/// about twice the solve's nodes over this threshold, 32 bytes each; a kill loses about the
/// threshold's work for each open node of the search's path (figures: docs/benchmarks.md).
pub const DEFAULT_MIN_NODES: u64 = 1 << 23;

/// Seconds between progress reports ([`Event::Tick`]) and journal flushes of a long solve.
pub const TICK_SECONDS: f64 = 60.0;

/// A solve journal, as a solve is asked to keep one.
#[derive(Clone, Debug)]
pub struct JournalSettings {
    pub path: PathBuf,
    /// Record every search of at least this many nodes ([`DEFAULT_MIN_NODES`]).
    pub min_nodes: u64,
}

impl JournalSettings {
    /// A journal at `path` with the default threshold.
    #[must_use]
    pub fn new(path: impl Into<PathBuf>) -> JournalSettings {
        JournalSettings {
            path: path.into(),
            min_nodes: DEFAULT_MIN_NODES,
        }
    }
}

/// What a solve's journal held and holds, for its report.
#[derive(Clone, Debug, Serialize)]
pub struct JournalSummary {
    pub path: PathBuf,
    /// Records in the file when the solve ended.
    pub records: u64,
    pub bytes: u64,
    /// Solves run on the journal, this one included.
    pub runs: u32,
    /// Positions whose bounds were loaded back when the solve started.
    pub loaded: usize,
    /// Nodes and seconds of every run before this one.
    pub earlier_nodes: u64,
    pub earlier_seconds: f64,
    /// The answer came from the journal alone, with no table and no search.
    pub answered: bool,
}

/// What binds a journal to one solve: the variant (game, pits, rules, sweep) and the position.
#[must_use]
pub fn binding(game: &Mancala) -> String {
    format!(
        "{}; {}",
        game.variant,
        format_position(&game.position, game.variant.pits)
    )
}

/// The rules of a Kalah game; a journal is for searches, and only Kalah is searched.
pub(crate) fn kalah_rules(game: &Mancala) -> Result<Kalah, InputError> {
    match game.variant.game {
        Game::Kalah { capture, sweep } => Ok(Kalah::new(game.variant.pits, capture, sweep)),
        Game::Oware { .. } => Err(InputError::NotForGame(
            "journal: oware is solved from its tables, with no search to keep a journal of".into(),
        )),
    }
}

/// An open journal for a solve of `game`, and what it holds.
pub(crate) struct Opened {
    pub journal: Arc<Journal>,
    pub contents: Contents,
    pub min_nodes: u64,
}

/// Opens (or creates) the journal `settings` names for a solve of `game`.
pub(crate) fn open(game: &Mancala, settings: &JournalSettings) -> Result<Opened, Error> {
    kalah_rules(game)?;
    let (journal, contents) =
        Journal::open(&settings.path, &binding(game)).map_err(SolveError::from)?;
    Ok(Opened {
        journal: Arc::new(journal),
        contents,
        min_nodes: settings.min_nodes,
    })
}

/// A finished journal's answer for `game`, checked against its bounds of the root's children
/// ([`granary_search::Solver::answer_from_journal`]); `None` if a search is still needed.
pub(crate) fn answer(
    game: &Mancala,
    contents: &Contents,
    all_moves: bool,
) -> Result<Option<granary_search::Solution>, Error> {
    let rules = kalah_rules(game)?;
    let solver = granary_search::kalah_solver(&rules, None, 0, false).map_err(SolveError::from)?;
    Ok(solver.answer_from_journal(&game.position, contents, all_moves))
}

impl Opened {
    pub(crate) fn summary(&self, loaded: usize, answered: bool) -> JournalSummary {
        JournalSummary {
            path: self.journal.path().to_path_buf(),
            records: self.journal.records(),
            bytes: self.journal.bytes(),
            runs: self.contents.runs + u32::from(!answered),
            loaded,
            earlier_nodes: self.contents.nodes,
            earlier_seconds: self.contents.seconds,
            answered,
        }
    }
}

/// Runs `work` while a thread reports progress every `tick` seconds to `observer`
/// ([`Event::Tick`], with the nodes `solver` has published) and, with a journal, records the
/// run's nodes and flushes the file.
pub(crate) fn with_ticks<T>(
    solver: &dyn Solve,
    tick: f64,
    journal: Option<&Journal>,
    observer: &dyn Observer,
    work: impl FnOnce() -> T,
) -> T {
    let done = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut next = tick;
            let nap = Duration::from_secs_f64(tick.min(0.2));
            while !done.load(Relaxed) {
                std::thread::sleep(nap);
                let seconds = started.elapsed().as_secs_f64();
                if seconds < next {
                    continue;
                }
                next += tick;
                let nodes = solver.live_nodes();
                // A failed flush shows again, and stops the solve, at the next record written.
                let _ = journal.map(|j| j.progress(nodes, seconds));
                observer.event(Event::Tick {
                    seconds,
                    nodes,
                    journal: journal.map(|j| (j.bytes(), j.records())),
                });
            }
        });
        let out = work();
        done.store(true, Relaxed);
        out
    })
}
