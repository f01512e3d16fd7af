//! The search.
//!
//! # Contract of [`Solver::alphabeta`] (fail-soft)
//! For a position of true value `v` and a window `alpha < beta`, the returned `u` satisfies
//! - `v <= u <= alpha` when `v <= alpha` (an upper bound, "fail low"),
//! - `beta <= u <= v` when `v >= beta` (a lower bound, "fail high"),
//! - `u == v` otherwise.
//!
//! MTD(f) ([`Solver::mtdf`]) calls it with null windows `(beta - 1, beta)` and closes the interval
//! `[lower, upper]` around `v` until it is a single value. Every result is stored in the
//! transposition table as the bounds the contract gives.
//!
//! The first guess ([`Solver::first_guess`]) comes from a depth-limited search that scores
//! the positions where it stops by the seeds on each side: MTD(f)'s null windows far from the
//! value cost far more than near it (Kalah(6,5) standard over 28-seed tables: 1.02e9 nodes from
//! a guess of 0, 4.7e8 from the value; docs/search.md). The guess only moves the windows;
//! every value is still proved.
//!
//! Sound pruning used: the value lies in `-n..=n` for `n` seeds on the board (futility); stored
//! bounds cut before any move is searched; children's table values, and more than
//! `ETC_MARGIN` (10) seeds above the tables their stored bounds, cut before any child is searched
//! (enhanced transposition cutoff); children within the tables are exact values, never searched.
//!
//! # Threads
//! Young Brothers Wait (`Solver::split`): a node more than `SPLIT_MARGIN` (4) seeds above the
//! tables searches its first child alone; if that does not cut, its other children are shared
//! out among the threads of rayon's pool, in order, and the first of them to fail high stops its
//! brothers (a chain of `Stop` flags). Every search shares the transposition table. The values
//! found are the same at any thread count (each is proved); node counts and the stored best
//! moves among equals may differ.
//!
//! # Files
//! One concept a file: this one holds the [`Solver`], its settings and what a solve returns;
//! `node.rs` a node's children and their order; `alphabeta.rs` the search of the contract;
//! `split.rs` the thread split; `remote.rs` jobs searched by other processes; `guess.rs` the first guess; `root.rs` the root driver (MTD(f),
//! solves, principal variations, journal answers).

mod alphabeta;
mod guess;
mod node;
mod remote;
mod root;
mod split;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use granary_rules::Rules;
use granary_tables::{Layer, TableError, TableSet};

use crate::cancel::Cancel;
use crate::journal::{Contents, Journal, JournalError};
use crate::tt::{Entry, PINNED, TranspositionTable, hash};

use alphabeta::ETC_MARGIN;
use guess::GUESS_MARGIN;
use split::SPLIT_MARGIN;

pub(crate) use node::{Child, Key, NO_MOVE};
pub use remote::{JOB_DEPTH, Remote, Remoted, job_margin};

/// Why a solve cannot run or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error(transparent)]
    Table(#[from] TableError),
    /// The journal could not be written: the solve stopped, and what the journal holds is
    /// intact.
    #[error("{0}; the solve stopped, and the journal keeps what it proved")]
    Journal(#[from] JournalError),
    /// The caller cancelled the solve ([`Solver::set_cancel`]): nothing half-searched was
    /// stored.
    #[error("the search was cancelled")]
    Cancelled,
    /// The transposition table's memory could not be had.
    #[error("no memory for a {mib} MiB hash table: {source}; give a smaller hash table")]
    Memory {
        mib: usize,
        #[source]
        source: std::io::Error,
    },
    /// A table read in place failed during an earlier search of this solver (the first
    /// search returned the error itself): its hash table may hold values built on the failed
    /// read, so it answers nothing more.
    #[error("{0}")]
    Damaged(String),
}

/// The result of solving a position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value for the player to move (net score of the seeds on the board).
    pub value: i32,
    /// Root moves (lanes) with what each is worth: exact for all with `all_moves`, otherwise
    /// exact for the best and [`Worth::AtMost`] a bound for the others.
    pub moves: Vec<RootMove>,
    /// A principal variation, lanes, to the end of the game.
    pub pv: Vec<usize>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A root move and what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub lane: usize,
    pub worth: Worth,
}

/// What a move is known to be worth to the player making it: its value, or a bound on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worth {
    /// Exactly this value.
    Exact(i32),
    /// At most this: the move is proved no better than the best move, and its exact value is
    /// not sought (a solve without `all_moves`).
    AtMost(i32),
}

impl Worth {
    /// The value, if exact.
    #[must_use]
    pub fn exact(self) -> Option<i32> {
        match self {
            Worth::Exact(v) => Some(v),
            Worth::AtMost(_) => None,
        }
    }

    /// The most the move can be worth: its value if exact, else the bound.
    #[must_use]
    pub fn upper(self) -> i32 {
        match self {
            Worth::Exact(v) | Worth::AtMost(v) => v,
        }
    }

    /// Whether a move of true value `value` is worth what this says (equal, or within the
    /// bound).
    #[must_use]
    pub fn admits(self, value: i32) -> bool {
        match self {
            Worth::Exact(v) => value == v,
            Worth::AtMost(u) => value <= u,
        }
    }
}

/// A step of a solve, as [`Solver::solve_reporting`] reports it; `nodes` and `seconds` are
/// counted from the start of the solve.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A pass of MTD(f) on a root move: its value, for the player at the root, is within
    /// `lower..=upper`.
    Bounds {
        lane: usize,
        lower: i32,
        upper: i32,
        nodes: u64,
        seconds: f64,
    },
    /// A root move is settled (exactly, or as no better than the best so far).
    Settled {
        root_move: &'a RootMove,
        nodes: u64,
        seconds: f64,
    },
}

/// A solver for one game, with tables for positions of at most `table_seeds` seeds.
#[derive(Debug)]
pub struct Solver<'t, R> {
    rules: R,
    layers: Vec<Tables<'t>>,
    tt: TranspositionTable,
    nodes: AtomicU64,
    /// Threads of rayon's pool when the solver was made: more than one, and nodes split
    /// ([`Solver::split`]).
    threads: usize,
    /// Nodes with more seeds than this share their younger children out among the threads
    /// ([`Solver::split`]) and look at their stop flags.
    split_above: u32,
    /// Nodes with more seeds than this probe their children's transposition-table entries
    /// before searching any (enhanced transposition cutoff).
    etc_above: u32,
    /// Positions with more seeds than this start MTD(f) from an estimate
    /// ([`Solver::first_guess`]).
    guess_above: u32,
    /// The journal proven bounds are recorded in ([`Solver::set_journal`]), and the least
    /// work, in nodes, of a search that is recorded.
    journal: Option<(Arc<Journal>, u64)>,
    /// Set when the search must give up (a journal write or a table read failed): every search
    /// returns, and the solve returns the error kept in `failure`.
    abort: AtomicBool,
    failure: Mutex<Option<SolverError>>,
    /// Set, for good, when a table read in place fails ([`Solver::entry`]): what it said.
    damaged: std::sync::OnceLock<String>,
    /// The caller's request to stop ([`Solver::set_cancel`]): every search returns, and the
    /// solve ends with [`SolverError::Cancelled`]. Unlike `abort`, a solve never clears it.
    cancel: Cancel,
    /// Nodes searched since the solve started, published by nodes far from the tables, for
    /// progress reports ([`Solver::live_nodes`]).
    live: AtomicU64,
    /// Workers that search jobs for this solver ([`Solver::set_remote`]), and the most seeds a
    /// job has.
    remote: Option<Arc<dyn Remote>>,
    jobs_below: u32,
}

/// A table layer as the solver reads it: the caller's mapping, or the solver's own copy in
/// memory ([`Solver::resident`]).
#[derive(Debug)]
enum Tables<'t> {
    Mapped(&'t Layer),
    Resident(Layer),
}

impl std::ops::Deref for Tables<'_> {
    type Target = Layer;
    fn deref(&self) -> &Layer {
        match self {
            Tables::Mapped(layer) => layer,
            Tables::Resident(layer) => layer,
        }
    }
}

impl<'t, R: Rules> Solver<'t, R> {
    /// A solver using layers `0..=table_seeds` of `tables` (opened and checked now) and a
    /// transposition table of `hash_mb` MiB.
    ///
    /// # Errors
    /// If a layer is missing or bad, or the transposition table's memory cannot be had.
    pub fn new(
        rules: R,
        tables: Option<(&'t TableSet, u32)>,
        hash_mb: usize,
    ) -> Result<Self, SolverError> {
        let layers = match tables {
            Some((set, max)) => (0..=max)
                .map(|n| {
                    // A compressed layer decodes a block for a probe that misses its cache
                    // (about 0.1 ms); the search probes at random, so it holds such a layer
                    // decompressed in its own memory (docs/table-format.md: 60x faster). A
                    // layer with filled don't-cares is read where it is: a lookup takes about
                    // a microsecond, and a copy would rebuild every value (minutes).
                    let layer = set.layer(n)?;
                    if layer.rebuilds_values() {
                        return Ok(Tables::Mapped(layer));
                    }
                    Ok(match layer.random_reads_copy()? {
                        Some(copy) => Tables::Resident(copy),
                        None => Tables::Mapped(layer),
                    })
                })
                .collect::<Result<_, SolverError>>()?,
            None => Vec::new(),
        };
        Ok(Solver {
            layers,
            tt: TranspositionTable::new(hash_mb, 2 * rules.pits()).map_err(|source| {
                SolverError::Memory {
                    mib: hash_mb,
                    source,
                }
            })?,
            rules,
            nodes: AtomicU64::new(0),
            threads: rayon::current_num_threads().max(1),
            split_above: tables.map_or(0, |(_, max)| max) + SPLIT_MARGIN,
            etc_above: tables.map_or(0, |(_, max)| max) + ETC_MARGIN,
            guess_above: tables.map_or(0, |(_, max)| max) + GUESS_MARGIN,
            journal: None,
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            damaged: std::sync::OnceLock::new(),
            cancel: Cancel::new(),
            live: AtomicU64::new(0),
            remote: None,
            jobs_below: 0,
        })
    }

    /// Records in `journal` every position whose search took at least `min_nodes` nodes (and
    /// each solve's start and result). Load what the journal already holds with
    /// [`Solver::load_journal`].
    pub fn set_journal(&mut self, journal: Arc<Journal>, min_nodes: u64) {
        self.journal = Some((journal, min_nodes.max(1)));
    }

    /// Loads a journal's proven bounds into the transposition table, pinned: never evicted, and
    /// a search that reaches one of those positions starts from what the journal proved. The
    /// number of positions loaded (a bucket already full of pinned entries drops one; a table
    /// far smaller than the journal's positions drops many, which costs work, not values).
    ///
    /// # Errors
    /// A record no position of this game can have (a board with seeds beyond its pits, bounds
    /// outside the seeds on the board, or records of one board that contradict each other):
    /// nothing is loaded.
    pub fn load_journal(&self, contents: &Contents) -> Result<usize, JournalError> {
        let merged = contents.merged();
        let m = self.rules.pits();
        for (&board, &(lower, upper, best)) in &merged {
            let n = board.seeds(m) as i32;
            let (lo, hi) = (i32::from(lower), i32::from(upper));
            let beyond = m < 8 && board.0 >> (16 * m) != 0;
            if beyond
                || lo > hi
                || lo < -n
                || hi > n
                || best.is_some_and(|b| usize::from(b) >= 2 * m)
            {
                return Err(JournalError::Impossible(format!(
                    "board {:#x}: {lo:+}..{hi:+} with {n} seeds",
                    board.0
                )));
            }
        }
        Ok(merged
            .into_iter()
            .filter(|&(board, (lower, upper, best))| {
                self.tt.pin(
                    board,
                    hash(board),
                    Entry {
                        lower,
                        upper,
                        best,
                        work: PINNED,
                    },
                )
            })
            .count())
    }

    /// Nodes searched since the current solve started, as far as the searches have published
    /// them (nodes within a few seeds of the tables are counted when their subtree ends).
    #[must_use]
    pub fn live_nodes(&self) -> u64 {
        self.live.load(Relaxed)
    }

    /// Makes `cancel` this solver's request to stop: once it is set (from any thread), every
    /// search returns within a subtree near the tables, nothing half-searched is stored, and
    /// the solve ends with [`SolverError::Cancelled`]. Solves after that end the same way.
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// Whether a journal write or a table read failed or the caller cancelled, and the
    /// searches are giving up.
    fn aborted(&self) -> bool {
        self.abort.load(Relaxed) || self.cancel.is_cancelled() || self.damaged.get().is_some()
    }

    /// Keeps the first failure (a journal write's, a table read's) and stops every search.
    fn fail(&self, err: impl Into<SolverError>) {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        failure.get_or_insert(err.into());
        self.abort.store(true, Relaxed);
    }

    /// The error that stopped the searches: a journal write's or a table read's, else the
    /// caller's cancel.
    fn failure(&self) -> SolverError {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match (failure.take(), self.damaged.get()) {
            (Some(err), _) => err,
            (None, Some(what)) => SolverError::Damaged(what.clone()),
            (None, None) => SolverError::Cancelled,
        }
    }

    /// The entry of rank `rank` of layer `seeds`. A layer read in place with filled don't-cares
    /// can meet a damaged block (its own or a lower layer's): the searches then stop, the value
    /// read is 0, and the solve returns the error ([`SolverError::Damaged`] for every later
    /// one).
    #[inline]
    pub(crate) fn entry(&self, seeds: u32, rank: u64) -> i32 {
        match self.layers[seeds as usize].try_value(rank) {
            Ok(v) => i32::from(v),
            Err(err) => {
                let _ = self.damaged.set(err.to_string());
                self.fail(err);
                0
            }
        }
    }

    /// The error of a table read that failed in an earlier search, if one did: after it,
    /// every answer of this solver (and of an engine over it) is unreliable.
    #[must_use]
    pub fn tables_failed(&self) -> Option<SolverError> {
        self.damaged
            .get()
            .map(|what| SolverError::Damaged(what.clone()))
    }

    /// Starts MTD(f) from an estimate ([`Solver::first_guess`]) for positions more than
    /// `margin` seeds above the tables, instead of the default `GUESS_MARGIN` (24). Values do
    /// not depend on it; the work does.
    #[must_use]
    pub fn guess_margin(mut self, margin: u32) -> Self {
        self.guess_above = self.guess_above - GUESS_MARGIN + margin;
        self
    }

    /// Cuts on children's stored bounds (enhanced transposition cutoff) at nodes more than
    /// `margin` seeds above the tables, instead of the default `ETC_MARGIN` (10). Values do not
    /// depend on it.
    #[must_use]
    pub fn etc_margin(mut self, margin: u32) -> Self {
        self.etc_above = self.etc_above - ETC_MARGIN + margin;
        self
    }

    /// Copies the table layers into memory with huge pages ([`Layer::resident`]), for a long
    /// search: fewer TLB misses on its random probes. A layer that cannot be copied stays mapped
    /// (the copy only saves time). Costs the tables' size in memory and a read of every byte;
    /// layers are copied in parallel (rayon's pool).
    #[must_use]
    pub fn resident(mut self) -> Self {
        use rayon::prelude::*;
        self.layers.par_iter_mut().for_each(|layer| {
            if let Tables::Mapped(mapped) = layer
                && let Ok(copy) = mapped.resident()
            {
                *layer = Tables::Resident(copy);
            }
        });
        self
    }

    /// Bytes of table layers this solver holds in its own memory ([`Solver::resident`]).
    #[must_use]
    pub fn resident_bytes(&self) -> u64 {
        self.layers
            .iter()
            .filter(|layer| matches!(layer, Tables::Resident(_)))
            .map(|layer| layer.len())
            .sum()
    }
}
