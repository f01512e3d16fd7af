//! `granary`: perfect play for mancala games, the one door to the engine.
//!
//! Every front end (the `granary` command, a server, bindings) goes through this crate; it plans,
//! finds, builds, queries and solves, prints nothing and never exits the process. Long work
//! reports [`Event`]s to an [`Observer`]; errors are typed ([`error`]) with messages that name
//! what is wrong and what to do.
//!
//! - [`game`]: the catalogue of games and options; what a user wrote ([`Setup`]) resolved to a
//!   Kalah/Oware variant and position ([`Mancala`]) or Bao rules and a position;
//! - [`tablebase`]: a table directory ([`Tablebase`]): what is present, tables opened lazily and
//!   shared, the command that builds a kind's layers;
//! - [`machine`] and [`mod@plan`]: what the machine holds, and which tables a task should use
//!   (the policy is in [`mod@plan`]'s documentation);
//! - [`mod@build`]: building missing layers (checked against the free disk first);
//! - [`mod@compress`]: a kind's finished layers compressed in place (table format version 2);
//! - [`calibrate`]: measuring the machine for the planner's cost model;
//! - [`query`]: a position's value, every move's, a principal variation, from tables (or a
//!   search over them, by the one rule of what is answered beyond them: [`plan::reach`]);
//! - [`mod@choose`]: a move to play anywhere, perfect where that rule answers, else the
//!   engine's move within a budget, labelled as an estimate;
//! - [`outcome`]: how a value reads (final stores, win, draw or loss); [`mod@worth`]: what a
//!   move is worth, exactly or at most a bound, never one written as the other; [`units`]:
//!   sizes and durations in messages;
//! - [`journal`]: long solves that survive their process (a solve journal), progress once a
//!   minute; [`mod@recheck`]: a journal's records proved again from scratch;
//! - [`record`]: a game as text a person writes and a program keeps ([`GameRecord`]): tags,
//!   moves, comments, a review written back;
//! - [`mark`]: a move's mark (`?`, `??`, ...), the record's and the review's;
//! - [`review`]: a game reviewed move by move against perfect play: each move's value, the
//!   best moves, the seeds lost and where the result changed;
//! - [`mod@solve`]: exact solving with tables planned and built on the fly ([`solve()`]), and an
//!   [`Oracle`] for repeated questions (a game in play);
//! - [`show`]: Kalah/Oware positions after moves, perft;
//! - [`bao`]: Bao's positions, perft, proof searches and engine (Bao has no tables).
//!
//! Below it: `granary-rules` (packed rules), `granary-index` (rank/unrank), `granary-tables`
//! (files), `granary-retrograde` (the builder), `granary-search` (MTD(f)), `granary-bao`.
//!
//! # Examples
//!
//! Open a directory and see what is there (nothing is read but directory entries and headers):
//!
//! ```
//! let dir = tempfile::tempdir()?;
//! let tablebase = granary::Tablebase::new(dir.path());
//! assert!(tablebase.present()?.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Build Oware(4) awari tables up to 8 seeds and query a position:
//!
//! ```
//! use granary::{GameName, Setup, Tablebase};
//!
//! let dir = tempfile::tempdir()?;
//! let tablebase = Tablebase::new(dir.path());
//! let setup = Setup { rules: Some("awari".into()), ..Setup::default() };
//! let game = setup.mancala(GameName::Oware, Some("2,0,1,1/0,2,1,1 0-0 S"))?;
//! granary::build(&tablebase, game.kind(), 8, None, None, &())?;
//! let answer = tablebase.query(&game)?;
//! assert_eq!(answer.seeds_on_board, 8);
//! assert_eq!(answer.moves.iter().map(|m| m.value).max(), Some(answer.value));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Solve Kalah(4,3) from its start, the tables planned and built on the fly, with progress
//! events collected by a closure:
//!
//! ```
//! use std::sync::Mutex;
//! use granary::{Event, GameName, Settings, Setup, Tablebase};
//!
//! let dir = tempfile::tempdir()?;
//! let tablebase = Tablebase::new(dir.path());
//! let setup = Setup { pits: Some(4), seeds: Some(3), ..Setup::default() };
//! let game = setup.mancala(GameName::Kalah, None)?;
//! let plans = Mutex::new(Vec::new());
//! let observer = |event: Event<'_>| {
//!     if let Event::Planned(plan) = event {
//!         plans.lock().unwrap().push(plan.describe());
//!     }
//! };
//! let report = granary::solve(&tablebase, &game, &Settings::default(), &observer)?;
//! assert_eq!(report.value, 8); // South wins Kalah(4,3) by 8 (docs/results.md)
//! assert_eq!(plans.lock().unwrap().len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bao;
pub mod build;
pub mod calibrate;
pub mod choose;
pub mod cluster;
pub mod compress;
pub mod error;
pub mod estimate;
pub mod game;
pub mod journal;
pub mod machine;
pub mod mark;
pub mod observer;
pub mod outcome;
pub mod plan;
pub mod query;
pub mod recheck;
pub mod record;
pub mod review;
#[cfg(feature = "schema")]
pub mod schema;
pub mod show;
pub mod solve;
pub mod tablebase;
pub mod units;
pub mod worth;

pub use build::{BuildReport, BuildSettings, build, build_on};
pub use choose::{Choice, ChoiceSource};
pub use compress::{LayerCompressed, compress};
pub use error::{
    BuildError, DirectoryError, Error, InputError, NotForGame, SolveError, TableError,
};
pub use estimate::{Estimate, EstimatedMove, EstimatedValue};
pub use game::{AnyGame, BaoPosition, GameMove, GameName, Mancala, Setup};
/// The most seeds on the board a table layer holds.
pub use granary_index::MAX_LAYER_SEEDS;
/// The builder's own errors, within [`BuildError::Builder`].
pub use granary_retrograde::BuildError as BuilderError;
pub use granary_retrograde::{
    DiskTraffic, LayerLine, LayerReport, Peers, PhaseCounts, ProcessCost, Solo, SweepReport,
    Traffic,
};
pub use granary_search::Cancel;
pub use journal::{JournalSettings, JournalSummary};
pub use machine::Machine;
pub use observer::{Event, Observer};
pub use outcome::Seeds;
pub use plan::{TableChoice, TablePlan};
pub use query::{MoveValue, PvEnd, Query, Source};
pub use recheck::{Recheck, Rechecked, recheck};
pub use record::{GameRecord, RecordError};
pub use review::{Review, ReviewError, Watch};
pub use solve::{ExactMove, Oracle, RootValue, Settings, SolveReport, plan, prepare, solve};
pub use tablebase::{Tablebase, build_command};
pub use worth::Worth;

/// Bao's rules.
pub use granary_bao::BaoRules;
/// The two-row rules and positions the library's types are made of.
pub use granary_rules::notation::format_position;
pub use granary_rules::{MoveError, Position, Record, Side, Status, Variant};
/// Table kinds, for building and listing.
pub use granary_tables::TableKind;

impl Mancala {
    /// The kind of tables this game uses.
    #[must_use]
    pub fn kind(&self) -> TableKind {
        table_kind(self.variant)
    }
}

/// The kind of tables a variant uses (seeds a pit at the start do not matter to tables).
#[must_use]
pub fn table_kind(variant: Variant) -> TableKind {
    TableKind {
        game: variant.game,
        pits: variant.pits,
    }
}
