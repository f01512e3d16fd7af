//! What can go wrong, one enum a concern; every message names what is wrong and what to do.
//!
//! - [`InputError`]: a game, option, position or move that the caller got wrong (among them
//!   [`CountsError`]: a position given as numbers that the packed board cannot hold;
//!   [`NotForGame`]: options the game does not have);
//! - [`DirectoryError`]: a table directory that is not there;
//! - [`TableError`] (from `granary-tables`): a table file that is missing, foreign or corrupt;
//! - [`BuildError`]: a build that cannot start or finish;
//! - [`SolveError`]: a solve or query that cannot be answered as asked;
//! - [`Error`]: any of them, for callers that only report.

use std::path::PathBuf;

pub use granary_tables::TableError;

/// Input the caller got wrong: a front end shows the message and asks again (exit 2, HTTP 400).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("unknown game '{0}': use kalah, oware or bao")]
    Game(String),
    /// A rule option (`rules`, `sweep`, `nyumba`, ...) whose value the game does not know.
    #[error("{option}: {source}")]
    Option {
        /// The option's name, as the API and Python name it (`rules`), without dashes.
        option: &'static str,
        #[source]
        source: granary_rules::OptionError,
    },
    /// Options the game does not have, or a thing it does not do.
    #[error(transparent)]
    NotForGame(#[from] NotForGame),
    /// Pits a side that no board has.
    #[error(transparent)]
    Pits(#[from] granary_rules::PitsError),
    /// Pits or seeds the packed encoding cannot play.
    #[error("{}", variant_message(.0))]
    Variant(#[from] granary_rules::VariantError),
    #[error("{}", position_message(.0))]
    Position(#[from] granary_rules::notation::NotationError),
    /// A position given as counts that the packed board cannot hold.
    #[error(transparent)]
    Counts(#[from] CountsError),
    #[error(transparent)]
    BaoPosition(#[from] granary_bao::notation::NotationError),
    #[error("moves: move {number}{}: {reason}", pit.map_or(String::new(), |p| format!(" (pit {p})")))]
    Move {
        /// 1 for the first move of the list.
        number: usize,
        pit: Option<usize>,
        reason: String,
    },
    #[error("{0}")]
    Value(String),
}

/// Options given that the game does not have, or a thing asked of a game that it does not do;
/// the message names the options ([`NotForGame::options`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotForGame {
    /// Bao's options given to Kalah or Oware.
    #[error("nyumba, takasia and tax are bao options")]
    BaoOptions,
    /// Kalah's sweep given to Oware.
    #[error("sweep is a kalah option; oware has none")]
    SweepInOware,
    /// A board's size or Kalah's sweep given to Bao.
    #[error("pits and sweep are kalah/oware options; bao has a 4x8 board")]
    BoardInBao,
    /// Seeds a pit given to Bao.
    #[error("seeds is a kalah/oware option; bao's start is set by its rules")]
    SeedsInBao,
    /// The nyumba's options given to Bao's rule set without one.
    #[error("nyumba and tax are options of bao kiswahili/malawi; bao kujifunza has no nyumba")]
    NyumbaInKujifunza,
    /// Tables (a query, a review's values, a build) asked of Bao.
    #[error(
        "bao has no endgame tables, so no exact values to query or review; its commands are show, perft, solve and play"
    )]
    BaoTables,
    /// A journal asked of an Oware solve.
    #[error("journal: oware is solved from its tables, with no search to keep a journal of")]
    OwareJournal,
}

impl NotForGame {
    /// The options at fault, as the API names them (`nyumba`): the ones the message names;
    /// none where the game itself is.
    #[must_use]
    pub const fn options(self) -> &'static [&'static str] {
        match self {
            NotForGame::BaoOptions => &["nyumba", "takasia", "tax"],
            NotForGame::SweepInOware => &["sweep"],
            NotForGame::BoardInBao => &["pits", "sweep"],
            NotForGame::SeedsInBao => &["seeds"],
            NotForGame::NyumbaInKujifunza => &["nyumba", "tax"],
            NotForGame::BaoTables | NotForGame::OwareJournal => &[],
        }
    }
}

/// A variant error in words that name the option (`pits`, `seeds`) rather than a flag.
fn variant_message(err: &granary_rules::VariantError) -> String {
    use granary_rules::VariantError;
    match *err {
        VariantError::Pits(pits) => pits.to_string(),
        VariantError::Seeds { pits, seeds, total } => format!(
            "seeds {seeds} with {pits} pits a side makes {total} seeds; the packed encoding holds at most {}",
            granary_rules::board::MAX_SEEDS
        ),
    }
}

/// A position error, with a wrong number of pits put in terms of the `pits` option.
fn position_message(err: &granary_rules::notation::NotationError) -> String {
    use granary_rules::notation::NotationError;
    match err {
        NotationError::WrongPits { found, expected } => {
            format!("position has {found} pits a side but pits is {expected}")
        }
        other => other.to_string(),
    }
}

/// What is wrong with a position given as counts ([`crate::game::Counts`]); the message names
/// the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountsError {
    #[error("position: South has {south} pits and North {north}; both sides need the same number")]
    Uneven { south: usize, north: usize },
    #[error("position has {0} pits a side; a side has 1 to {max} pits", max = granary_rules::board::MAX_PITS)]
    Pits(usize),
    #[error("position has {found} pits a side but pits is {expected}")]
    WrongPits { found: usize, expected: usize },
    #[error("position: side to move {0} must be 0 (South) or 1 (North)")]
    ToMove(u64),
    #[error(
        "position: {side}'s pit {pit} holds {seeds} seeds; the packed encoding holds at most {} in all",
        granary_rules::board::MAX_SEEDS
    )]
    Pit {
        side: granary_rules::Side,
        pit: usize,
        seeds: u64,
    },
    #[error(
        "position: {side}'s store holds {seeds} seeds; the packed encoding holds at most {} in all",
        granary_rules::board::MAX_SEEDS
    )]
    Store {
        side: granary_rules::Side,
        seeds: u64,
    },
    #[error(
        "position holds {0} seeds; the packed encoding holds at most {max}",
        max = granary_rules::board::MAX_SEEDS
    )]
    TooManySeeds(u64),
}

/// A table directory that is not there, where one must be.
#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    #[error(
        "{}: no such table directory: give the directory the tables are in (an empty one to build tables into)",
        .0.display()
    )]
    Missing(PathBuf),
    #[error("{}: not a directory: give the directory the tables are in", .0.display())]
    NotADirectory(PathBuf),
}

/// A build that cannot start or did not finish. Layers finished before the error are kept.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The builder stopped: a table file, threads, memory, a scratch file, the ranks of a
    /// distributed build ([`granary_retrograde::BuildError`]).
    #[error(transparent)]
    Builder(#[from] granary_retrograde::BuildError),
    #[error(
        "{}: tables up to {seeds} seeds need {} more on disk, {} is free: free space, or build fewer seeds or into another directory",
        dir.display(), crate::units::human_bytes(*needed), crate::units::human_bytes(*available)
    )]
    Disk {
        dir: PathBuf,
        seeds: u32,
        needed: u64,
        available: u64,
    },
    #[error("tables up to {0} seeds asked for: tables hold at most {max} seeds on the board", max = granary_index::MAX_LAYER_SEEDS)]
    TooManySeeds(u32),
}

impl From<TableError> for BuildError {
    fn from(err: TableError) -> Self {
        BuildError::Builder(err.into())
    }
}

/// Why no plan fits the request.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The missing layers need more disk than is free (less the disk margin).
    #[error("{tables} tables up to {seeds} seeds need {} more disk, {} is free (less a margin)", crate::units::human_bytes(*needed), crate::units::human_bytes(*free))]
    Disk {
        tables: String,
        seeds: u32,
        needed: u64,
        free: u64,
    },
    /// The layers do not fit the memory a search has for them (their probes are random).
    #[error("{tables} tables up to {seeds} seeds ({}) do not fit the memory available for them ({})", crate::units::human_bytes(*needed), crate::units::human_bytes(*available))]
    Memory {
        tables: String,
        seeds: u32,
        needed: u64,
        available: u64,
    },
    /// Building the largest Oware layer needs more memory than is available.
    #[error("building layer {seeds} of {tables} needs about {} of memory, {} is available", crate::units::human_bytes(*needed), crate::units::human_bytes(*available))]
    BuildMemory {
        tables: String,
        seeds: u32,
        needed: u64,
        available: u64,
    },
    /// An Oware build longer than a solve starts by itself (`AUTO_BUILD_SECONDS`).
    #[error("oware is solved from tables up to the {seeds} seeds on the board: {positions} positions to build, about {}; build them first with `{command}`", crate::units::human_seconds(*seconds))]
    LongBuild {
        seeds: u32,
        positions: u64,
        seconds: f64,
        command: String,
    },
    /// Oware cannot be searched without tables.
    #[error("oware is solved from its tables; it cannot search without them")]
    OwareWithoutTables,
    /// More seeds on the board than tables index.
    #[error("{seeds} seeds on the board: tables hold at most {limit}")]
    TooManySeeds { seeds: u32, limit: u32 },
}

/// Why a saved cost model cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CostModelError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a cost model ({reason}): run `granary calibrate` again", path.display())]
    Bad { path: PathBuf, reason: String },
    #[error("no place for the cost model: set $GRANARY_COST_MODEL or $HOME")]
    NoPlace,
}

/// A solve or query that cannot be answered as asked.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Build(#[from] BuildError),
    /// More seeds than a search answers (`limit`: `crate::plan::SEARCH_MAX_SEEDS`).
    #[error("{seeds} seeds on the board: values must fit a signed byte (at most {limit})")]
    TooManySeeds { seeds: u32, limit: u32 },
    #[error("{0}")]
    NeedsTables(String),
    /// No tables fit the request on this machine.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A saved cost model that cannot be read.
    #[error(transparent)]
    CostModel(#[from] CostModelError),
    #[error(
        "tables are inconsistent: the position is worth {value} but its best move {best}; run `granary verify`"
    )]
    Inconsistent { value: i32, best: i32 },
    #[error(transparent)]
    Journal(#[from] granary_search::JournalError),
    /// No memory for the search's hash table (the message says how much it asked for).
    #[error("{0}")]
    Memory(String),
    /// The caller cancelled the search ([`granary_search::Cancel`]).
    #[error("the search was cancelled")]
    Cancelled,
    /// A table read failed in an earlier search of the same solver or engine (the message
    /// names the file).
    #[error("{0}")]
    Damaged(String),
}

impl From<granary_search::SolverError> for SolveError {
    fn from(err: granary_search::SolverError) -> Self {
        match err {
            granary_search::SolverError::Table(e) => SolveError::Table(e),
            granary_search::SolverError::Journal(e) => SolveError::Journal(e),
            e @ granary_search::SolverError::Memory { .. } => SolveError::Memory(e.to_string()),
            granary_search::SolverError::Cancelled => SolveError::Cancelled,
            granary_search::SolverError::Damaged(what) => SolveError::Damaged(what),
        }
    }
}

/// Any of the library's errors.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Directory(#[from] DirectoryError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Whether the caller's input is at fault (HTTP 400) rather than the tables or the machine.
    #[must_use]
    pub fn is_input(&self) -> bool {
        use granary_search::JournalError;
        match self {
            Error::Input(_) => true,
            // A journal file of another solve, or not a journal: the caller named the wrong file.
            Error::Solve(SolveError::Journal(e)) => !matches!(e, JournalError::Io { .. }),
            _ => false,
        }
    }
}
