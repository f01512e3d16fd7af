//! The engine: the best move of a deep, depth-limited search over the tables present, for
//! positions beyond what the tables and an exact solve answer (Kalah(6,6), Oware(6,4)). It
//! plays as the Computer Olympiad awari programs did with endgame tables under a search: a
//! position the tables hold counts its exact value, a finished game its terminal value, and a
//! position where the search stops an estimate ([`Evaluate`]).
//!
//! Values are the solver's (`docs/table-format.md`): the net score of the seeds on the board
//! for the player to move, in `-n..=n` for `n` seeds; a move is worth what it gains plus the
//! value of the position it leads to, negated when the other player moves next
//! ([`granary_rules::exit_value`]).
//!
//! # The search contract
//! A node's search at depth `d` with the window `alpha < beta` is a negamax fail-soft
//! alpha-beta over the tree `d` plies deep (a move is a ply, an extra move included), whose
//! leaves are valued as follows:
//! - a position the tables hold (layers `0..=K` present): its exact table value;
//! - a finished game: its terminal value ([`granary_tables::probe::terminal_value`]);
//! - a position that stood earlier on the current line, with the same player to move: 0,
//!   endless play, as the tables score it (the remaining seeds split evenly). The tournament
//!   rule that each player takes the seeds on their side depends on where a cycle is cut, so no
//!   table stores it; the engine scores cycles the tables' way so that its values and its exact
//!   leaves agree. Only Oware repeats: Kalah's seeds only move towards the stores. The game's
//!   history before the root is not looked at;
//! - depth 0 (the horizon): the quiescence search: the evaluation as a standing value ("stand
//!   pat"), raised by the moves that capture ([`Quiescence`]), each searched the same way.
//!   Every capture takes seeds off the board, so a line of captures ends, and it is cut at
//!   `QUIESCENCE_PLIES` plies as well.
//!
//! For that tree's value `v` the result `u` satisfies `v <= u <= alpha` when `v <= alpha`,
//! `beta <= u <= v` when `v >= beta`, and `u == v` otherwise, up to the hash table: an entry
//! of a search at least as deep answers for this one (as in every game program with a hash
//! table, a result may so come from a deeper tree, or from another line's repetitions).
//!
//! # Exact results
//! A node whose subtree met only exact leaves stores its bounds as *proved*: they hold for the
//! game's value, at any depth, on any line. One whose subtree met exact leaves and repetitions
//! stores them as *cyclic*: the game's bounds on that line, at any depth, but another line's
//! repetitions may differ (the graph-history interaction). A cutoff on an entry not proved is
//! *borrowed*. A depth is [`Analysis::exact`] when it met no estimate and borrowed nothing; a
//! depth that met no estimate but borrowed is searched again with proved entries alone, and is
//! exact if that search meets no estimate. Its value is then the game's under the tables'
//! scoring: no cycle captures, so a cycle is worth nothing; each player has an optimal
//! positional strategy, and a line that repeats under one can be repeated for ever, worth what
//! the first repetition scores. An exact depth ends the deepening.
//!
//! Sound pruning: the value lies in `-n..=n` (futility), and a move is worth at most its gain
//! plus the seeds left; children within the tables are read, never searched, and cut before any
//! other child is searched. The move order: the hash move, then the solver's order (moves that
//! move again, then by gain, then the lane nearest the store); at the root, the previous
//! depth's order, best first. After the first move, moves are searched with a null window and
//! searched again if they beat it (principal variation search).
//!
//! # Deepening and budgets
//! Iterative deepening from depth 1 until [`Limits`] ends it: a node budget (deterministic: the
//! same position, budget and hash table state give the same result), a time budget, the
//! engine's [`Cancel`], or its depth limit, whichever comes first, or until a depth is exact.
//! A depth cut short is thrown away: the result is that of the last completed depth. Depth 1
//! is completed whatever the budget, so a position with a legal move always gets one.
//!
//! # Threads
//! With [`Settings::threads`] above 1, a search without a node budget is a "lazy SMP" search,
//! as in chess programs: the calling thread deepens as above and decides the result alone;
//! helper threads deepen the same position at the same time (every other helper a depth
//! ahead, each with the root moves in its own rotation), reading and filling the one lockless
//! hash table, so that the calling thread finds more of its subtrees searched. The helpers
//! change no rule of the contract: an entry they store holds what their search proved, and a
//! cutoff on it counts as the calling thread's own (proved, cyclic or borrowed alike); their
//! results are not read but through the table, and they stop when the calling thread ends its
//! deepening. The nodes reported are every thread's. Which entries the helpers leave is a
//! matter of timing, so such a search is not repeatable node for node; with a node budget the
//! search runs on one thread and is.
//!
//! # Files
//! One concept a file: this one holds the [`Engine`], its settings, limits and result;
//! `evaluate.rs` the evaluation; `learned.rs` an evaluation learned from the tables and its fit,
//! `weights.rs` the fitted weights; `search.rs` the node search (alpha-beta, quiescence,
//! repetition, budgets); `root.rs` iterative deepening, the root moves and the principal line;
//! `table.rs` the hash table's entries (depth, bounds, best move).

mod evaluate;
pub mod learned;
mod root;
mod search;
mod table;
mod weights;

use std::time::Duration;

use granary_rules::Rules;
use granary_tables::TableSet;

use crate::cancel::Cancel;
use crate::solver::{RootMove, Solver, SolverError};

pub use evaluate::{Evaluate, SeedDifference};
pub use learned::{Evaluation, Learned};
use table::HashTable;

/// The deepest search the engine runs, in plies (the hash table keeps depths below its mark of
/// a proved entry).
pub const MAX_DEPTH: u32 = table::MAX_DEPTH;

/// Which moves the quiescence search plays past the horizon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quiescence {
    /// None: a position at the horizon counts its evaluation.
    Off,
    /// Moves that capture (their gain includes seeds taken from the opponent's side; seeds sown
    /// into the mover's own store are not a capture). Moves to positions the tables hold are
    /// always counted too: they are read, not searched.
    Captures,
    /// Captures, and (Kalah) moves that earn another move by ending in the store.
    CapturesAndExtraMoves,
}

/// Settings of an engine, fixed between searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The moves searched past the horizon; [`Quiescence::Captures`] by default.
    pub quiescence: Quiescence,
    /// Every root move searched with a full window, so that each gets its score at every
    /// depth; otherwise moves after the best are bounds ([`crate::solver::Worth::AtMost`]).
    pub all_moves: bool,
    /// Threads a search runs on (at least 1; 1 by default). With more, a search under a time
    /// budget or the cancel alone (no node budget) has helper threads that deepen the same
    /// position over the shared hash table (see "Threads" in the module documentation); a
    /// search with a node budget runs on one thread whatever this says, so that it stays
    /// deterministic.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            quiescence: Quiescence::Captures,
            all_moves: false,
            threads: 1,
        }
    }
}

/// What ends a search (with the engine's [`Cancel`]), whichever comes first; depth 1 is
/// completed whatever they say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest depth searched, in plies (at most [`MAX_DEPTH`]).
    pub depth: u32,
    /// Nodes: the search stops at this many (deterministic).
    pub nodes: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
}

impl Default for Limits {
    /// No budget but [`MAX_DEPTH`] (and the cancel).
    fn default() -> Self {
        Limits {
            depth: MAX_DEPTH,
            nodes: None,
            time: None,
        }
    }
}

impl Limits {
    /// A budget of `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A budget of wall-clock time.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Depths up to `depth` plies, no other budget.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            ..Limits::default()
        }
    }
}

/// What a search found, at its last completed depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The best move (a lane), `None` when the game is over.
    pub best: Option<usize>,
    /// The value for the player to move: exact when `exact`, else the search's estimate.
    pub value: i32,
    /// Whether every leaf of the last completed depth was a table value or a finished game:
    /// the value is then proved (under the tables' scoring of endless play).
    pub exact: bool,
    /// The last completed depth (0 for a finished game).
    pub depth: u32,
    /// The principal line, lanes from the position: the best move, then the hash table's best
    /// moves while it knows them and they are legal (at most `depth` plies in all), then within
    /// the tables the tables' best moves to the end of the game or a repetition.
    pub pv: Vec<usize>,
    /// Every root move, in lane order, with its score at the last completed depth: exact for
    /// the best (and for all with [`Settings::all_moves`]), else the bound the search proved.
    pub moves: Vec<RootMove>,
    /// Nodes searched, every depth's (the last, cut-short depth's included).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// An engine for one game, over table layers `0..=K`, with its hash table and evaluation.
#[derive(Debug)]
pub struct Engine<'t, R, E = SeedDifference> {
    /// The solver's pieces: rules, table layers, children and their order (its own hash table
    /// is not used: it has one bucket).
    solver: Solver<'t, R>,
    table: HashTable,
    evaluate: E,
    settings: Settings,
    cancel: Cancel,
}

impl<'t, R: Rules> Engine<'t, R> {
    /// An engine for `rules` (for Oware, the tables' rules: played to the last seed,
    /// [`granary_tables::TableKind::engine`]) over layers `0..=K` of `tables` (opened and
    /// checked now), with a hash table of `hash_mb` MiB and the [`SeedDifference`] evaluation.
    ///
    /// # Errors
    /// A missing or bad layer, or no memory for the hash table.
    pub fn new(
        rules: R,
        tables: Option<(&'t TableSet, u32)>,
        hash_mb: usize,
    ) -> Result<Self, SolverError> {
        let lanes = 2 * rules.pits();
        let solver = Solver::new(rules, tables, 0)?;
        let table = HashTable::new(hash_mb, lanes).map_err(|source| SolverError::Memory {
            mib: hash_mb,
            source,
        })?;
        Ok(Engine {
            solver,
            table,
            evaluate: SeedDifference,
            settings: Settings::default(),
            cancel: Cancel::new(),
        })
    }
}

impl<'t, R: Rules, E: Evaluate> Engine<'t, R, E> {
    /// The same engine with another evaluation.
    #[must_use]
    pub fn with_evaluation<F: Evaluate>(self, evaluate: F) -> Engine<'t, R, F> {
        Engine {
            solver: self.solver,
            table: self.table,
            evaluate,
            settings: self.settings,
            cancel: self.cancel,
        }
    }

    /// The same engine with `settings`.
    #[must_use]
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The engine's settings.
    #[must_use]
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Makes `cancel` the engine's request to stop: once set, a search ends with its last
    /// completed depth (depth 1 at least), and later searches complete depth 1 only.
    pub fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// Empties the hash table: the next search starts as a new engine's would.
    pub fn clear(&self) {
        self.table.clear();
    }

    /// The rules the engine plays by.
    pub fn rules(&self) -> &R {
        self.solver.rules()
    }

    /// The error of a table read that failed in a search of this engine, if one did (a layer
    /// with filled don't-cares read in place over a damaged block): every analysis since is
    /// unreliable, and its caller reports the error instead.
    #[must_use]
    pub fn tables_failed(&self) -> Option<SolverError> {
        self.solver.tables_failed()
    }
}
