//! The engine's estimate of a Kalah or Oware position beyond what is answered exactly
//! ([`Tablebase::estimate`]): the best move of a deep search over the tables present
//! ([`granary_search::Engine`]), exact at the leaves the tables hold, an evaluation where it
//! stops. What is exact stays the one rule's ([`crate::plan::reach`]); an estimate is never a
//! value: it has its own type, its own fields (`estimate`, never `value`) and its own words.

use std::fmt;
use std::time::Duration;

use granary_rules::Rules;
use granary_rules::notation::format_position;
use serde::Serialize;

use crate::error::Error;
use crate::game::Mancala;
use crate::tablebase::Tablebase;

/// The engine's hash table, MiB: ample for a search of seconds (millions of nodes a second,
/// most of them quiescence and table reads that store nothing).
const HASH_MIB: usize = 64;

/// The time a move by default, in the doors that take one.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// An estimate of a position: the engine's best move and its estimated value, with what the
/// search behind it was.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Estimate {
    /// The tables' kind, e.g. `oware-6-awari`.
    pub tables: String,
    pub position: String,
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::side"))]
    pub to_move: &'static str,
    pub seeds_on_board: u32,
    /// The engine's estimate of the net score of the seeds on the board for the player to
    /// move, with its depth and time: not a proved value.
    pub estimate: EstimatedValue,
    /// The pit of the engine's best move (none when the game is over).
    pub best: Option<usize>,
    /// The engine's line: its best moves (pits) as far as its search and the tables know them.
    pub pv: Vec<usize>,
    /// Every legal move with the engine's estimate of it: the best's, or a bound.
    pub moves: Vec<EstimatedMove>,
}

/// An estimated value and the search it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstimatedValue {
    /// The estimate, in net seeds for the player to move.
    pub value: i32,
    /// The deepest depth the search completed, in plies (past it, captures are searched on).
    pub depth: u32,
    /// Seconds the search took.
    pub seconds: f64,
    /// Nodes it searched.
    pub nodes: u64,
    /// Whether every leaf of the last depth was a table value or a finished game (endless
    /// play scored as the tables score it): the search's own proof, not the one rule of what
    /// is exact, so still an estimate.
    pub every_leaf_exact: bool,
}

/// A legal move and the engine's estimate of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstimatedMove {
    #[serde(rename = "move")]
    pub pit: usize,
    /// The estimate, or (`bound: at_most`) a bound the search proved it no better than.
    pub estimate: i32,
    pub bound: Bound,
}

/// How a move's estimate stands. In JSON `estimate` or `at_most`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// The search's estimate of the move.
    Estimate,
    /// The move is no better than this (the search cut it off below the best).
    AtMost,
}

impl fmt::Display for EstimatedValue {
    /// `estimate +3 (depth 18, 1.0 s; not proved)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "estimate {:+} (depth {}, {:.1} s; {})",
            self.value,
            self.depth,
            self.seconds,
            if self.every_leaf_exact {
                "every leaf exact"
            } else {
                "not proved"
            }
        )
    }
}

impl Tablebase {
    /// The engine's estimate of `game`'s position over the complete layers present, searched
    /// for `time` (at least depth 1), or until `cancel` (if given) is pulled: its best move,
    /// its estimated value and line. Any position: beyond the exact reach is what it is for,
    /// and a position within it is estimated all the same (the caller asks
    /// [`Tablebase::query`] for the exact answer there).
    ///
    /// # Errors
    /// Damaged tables, or no memory for the engine's hash table.
    pub fn estimate(
        &self,
        game: &Mancala,
        time: Duration,
        cancel: Option<&crate::Cancel>,
    ) -> Result<Estimate, Error> {
        let kind = game.kind();
        let present = self.complete_up_to(kind);
        let set = self.tables(kind);
        let rules = kind.engine();
        let mut engine =
            granary_search::Engine::new(rules.clone(), present.map(|p| (&*set, p)), HASH_MIB)
                .map_err(crate::SolveError::from)?;
        if let Some(cancel) = cancel {
            engine.set_cancel(cancel.clone());
        }
        let pos = &game.position;
        let a = engine.analyse(pos, granary_search::Limits::time(time));
        let moves = a
            .moves
            .iter()
            .map(|m| match m.worth {
                granary_search::solver::Worth::Exact(v) => EstimatedMove {
                    pit: m.lane + 1,
                    estimate: v,
                    bound: Bound::Estimate,
                },
                granary_search::solver::Worth::AtMost(v) => EstimatedMove {
                    pit: m.lane + 1,
                    estimate: v,
                    bound: Bound::AtMost,
                },
            })
            .collect();
        Ok(Estimate {
            tables: kind.name(),
            position: format_position(pos, kind.pits),
            to_move: pos.to_move.name(),
            seeds_on_board: pos.board.seeds(rules.pits()),
            estimate: EstimatedValue {
                value: a.value,
                depth: a.depth,
                seconds: a.seconds,
                nodes: a.nodes,
                every_leaf_exact: a.exact,
            },
            best: a.best.map(|lane| lane + 1),
            pv: a.pv.iter().map(|lane| lane + 1).collect(),
            moves,
        })
    }
}
