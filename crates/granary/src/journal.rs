//! Long solves that survive their process: a solve journal ([`granary_search::journal`]) opened
//! for a Kalah solve, its bounds loaded back on a restart, a finished journal's answer given
//! without tables, and progress reported once a minute. Re-checking a journal's records:
//! [`mod@crate::recheck`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use granary_rules::notation::format_position;
use granary_rules::{Game, Kalah, Rules};
use granary_search::{Contents, Journal, JournalError, Solve};
use serde::Serialize;

use crate::error::{Error, InputError, SolveError};
use crate::game::Mancala;
use crate::observer::{Event, Observer};
use crate::units::human_seconds;

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
        Game::Oware { .. } => Err(crate::error::NotForGame::OwareJournal.into()),
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

/// Where the project keeps the journals of its long solves (`scripts/solve-kalah66.sh`),
/// relative to the working directory: one of the places [`find_journal_evidence`] looks.
pub const SOLVES_DIR: &str = "data/solves";

/// What a journal of one solve has searched so far ([`journal_evidence`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JournalEvidence {
    pub path: PathBuf,
    /// Runs of the solve on the journal.
    pub runs: u32,
    /// Nodes and seconds of every run.
    pub nodes: u64,
    pub seconds: f64,
    /// Proven bounds the journal holds.
    pub bounds: usize,
    /// The root moves (pits, from 1) whose value the journal bounds.
    pub bounded_moves: Vec<usize>,
    /// The journal holds a finished solve's result.
    pub finished: bool,
}

impl std::fmt::Display for JournalEvidence {
    /// `a journal of this solve, PATH: 4.37e10 nodes searched in 4 runs (7.8 h), 11013 bounds
    /// proven; no root move is bounded yet`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a journal of this solve, {}: {:.2e} nodes searched in {} runs ({}), {} bounds proven; ",
            self.path.display(),
            self.nodes as f64,
            self.runs,
            human_seconds(self.seconds),
            self.bounds
        )?;
        if self.finished {
            return f.write_str("it holds the solve's result");
        }
        match self.bounded_moves.as_slice() {
            [] => f.write_str("no root move is bounded yet"),
            moves => {
                let pits: Vec<String> = moves.iter().map(ToString::to_string).collect();
                write!(f, "root moves bounded: {}", pits.join(", "))
            }
        }
    }
}

/// What the journal at `path` has searched of `game`'s solve (Kalah), read with the journal's
/// own reader ([`granary_search::journal::read`]); `None` if there is no file there or the game
/// is not Kalah (only Kalah is searched).
///
/// # Errors
/// The file cannot be read, is not a journal, is another solve's, or is damaged.
pub fn journal_evidence(
    game: &Mancala,
    path: &Path,
) -> Result<Option<JournalEvidence>, JournalError> {
    if !path.is_file() {
        return Ok(None);
    }
    let Game::Kalah { capture, sweep } = game.variant.game else {
        return Ok(None);
    };
    let rules = Kalah::new(game.variant.pits, capture, sweep);
    let contents = granary_search::journal::read(path, &binding(game))?;
    let merged = contents.merged();
    let pits = game.variant.pits;
    let pos = &game.position;
    let bounded_moves = rules
        .legal_moves(pos)
        .iter()
        .filter(|&lane| {
            let child = rules.play(pos, lane).board;
            let n = i32::try_from(child.seeds(pits)).unwrap_or(i32::MAX);
            merged
                .get(&child)
                .is_some_and(|&(lo, hi, _)| i32::from(lo) > -n || i32::from(hi) < n)
        })
        .map(|lane| lane + 1)
        .collect();
    Ok(Some(JournalEvidence {
        path: path.to_path_buf(),
        runs: contents.runs,
        nodes: contents.nodes,
        seconds: contents.seconds,
        bounds: contents.bounds.len(),
        bounded_moves,
        finished: contents.result.is_some(),
    }))
}

/// The evidence of the first journal of `game`'s solve among the files named `*.journal` in
/// `dirs` (in order, each directory's files by name; a directory that does not exist holds
/// none): the table directory and [`SOLVES_DIR`], say. Journals of other solves, and files that
/// are not journals, are passed over.
///
/// # Errors
/// A directory that cannot be listed, or a journal of this solve that cannot be read or is
/// damaged.
pub fn find_journal_evidence(
    game: &Mancala,
    dirs: &[&Path],
) -> Result<Option<JournalEvidence>, JournalError> {
    for dir in dirs {
        let io = |source| JournalError::Io {
            path: dir.to_path_buf(),
            source,
        };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io(e)),
        };
        let mut paths = Vec::new();
        for entry in entries {
            let path = entry.map_err(io)?.path();
            if path.extension().is_some_and(|e| e == "journal") {
                paths.push(path);
            }
        }
        paths.sort();
        for path in paths {
            match journal_evidence(game, &path) {
                Ok(Some(evidence)) => return Ok(Some(evidence)),
                Ok(None)
                | Err(
                    JournalError::Other { .. }
                    | JournalError::Foreign { .. }
                    | JournalError::Version { .. },
                ) => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start of Kalah(6,`seeds`) under `capture`.
    fn start(capture: &str, seeds: u32) -> Mancala {
        crate::Setup {
            pits: Some(6),
            seeds: Some(seeds),
            rules: Some(capture.into()),
            ..crate::Setup::default()
        }
        .mancala(crate::GameName::Kalah, None)
        .unwrap()
    }

    /// The journal of the Kalah(6,6) empty-capture solve kept in the repository.
    fn kalah66_journal() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/solves/kalah-6-6-empty.journal")
    }

    #[test]
    fn a_journal_of_the_solve_is_its_evidence() {
        let game = start("empty", 6);
        let path = kalah66_journal();
        let evidence = journal_evidence(&game, &path).unwrap().unwrap();
        assert!(evidence.nodes > 30_000_000_000, "{evidence}");
        assert!(evidence.runs >= 4 && evidence.bounds > 10_000, "{evidence}");
        assert!(evidence.bounded_moves.is_empty() && !evidence.finished);
        assert!(
            evidence
                .to_string()
                .ends_with("; no root move is bounded yet"),
            "{evidence}"
        );
        // Found among other files of the directory; not another solve's.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.journal"), b"not a journal").unwrap();
        let solves = path.parent().unwrap();
        let found = find_journal_evidence(&game, &[dir.path(), &dir.path().join("none"), solves])
            .unwrap()
            .unwrap();
        assert_eq!(found, evidence);
        for other in [start("standard", 6), start("empty", 5)] {
            assert_eq!(find_journal_evidence(&other, &[solves]).unwrap(), None);
            assert!(matches!(
                journal_evidence(&other, &path),
                Err(JournalError::Other { .. })
            ));
        }
        assert_eq!(
            journal_evidence(&game, &dir.path().join("none")).unwrap(),
            None
        );
    }
}
