//! Solving positions exactly: MTD(f) over fail-soft alpha-beta, with a transposition table and
//! exact endgame-table probes.
//!
//! Values follow the tables' convention (`docs/table-format.md`): the net score of the seeds still
//! on the board for the player to move. A move's value is what it gains now plus the value of the
//! position it leads to, negated when the other player moves next.
//!
//! - [`tt`]: a lockless transposition table keyed by the whole packed board (no false hits);
//! - [`solver`]: the search and its contract, one concept a file: the [`Solver`] and its settings,
//!   a node's children and their order, the fail-soft alpha-beta, the split over threads
//!   (Young Brothers Wait), jobs for other processes, the first guess, and the root driver
//!   (MTD(f), solves);
//! - [`engine`]: the engine for positions beyond an exact solve: iterative deepening of a
//!   depth-limited alpha-beta over the tables, exact at table leaves, an estimate elsewhere;
//! - [`kalah`]: the solver a front end holds, compiled for a 6-pit board where it has one;
//! - [`cancel`]: a request to stop a search, from another thread;
//! - [`journal`]: the solve journal, the proven bounds of a long solve kept on disk so that a
//!   solve resumes after its process ends.
//!
//! The solver is for games without repetition (Kalah): a transposition table is exact there.
//! Oware positions can repeat; its values come from retrograde tables, which are exact on
//! cycles. The engine plays both: it scores a repetition on its line as endless play, and keeps
//! the entries that rest on one apart ([`engine`]).

pub mod cancel;
pub mod engine;
pub mod journal;
pub mod kalah;
pub mod solver;
pub mod tt;

pub use cancel::Cancel;
pub use engine::{
    Analysis, Engine, Evaluate, Evaluation, Learned, Limits, Quiescence, SeedDifference, Settings,
};
pub use journal::{Contents, Journal, JournalError};
pub use kalah::{Solve, kalah_solver};
pub use solver::{JOB_DEPTH, Progress, Remote, Remoted, Solution, Solver, SolverError, job_margin};
pub use tt::TranspositionTable;
