//! The engine's estimate of a Kalah or Oware position beyond what is answered exactly
//! ([`Tablebase::estimate`]): the best move of a deep search over the tables present
//! ([`granary_search::Engine`]), exact at the leaves the tables hold, an evaluation where it
//! stops. What is exact stays the one rule's ([`crate::plan::reach`]); an estimate is never a
//! value: it has its own type, its own fields (`estimate`, never `value`) and its own words.
//!
//! [`Tablebase::query_or_estimate`] is the door a front end asks of any position: the exact
//! answer where the rule gives one, else the engine's estimate with the reason there is no
//! exact answer.

use std::fmt;
use std::time::Duration;

use granary_rules::Rules;
use granary_rules::notation::format_position;
use serde::{Serialize, Serializer};

use crate::error::{Error, SolveError};
use crate::game::Mancala;
use crate::plan::{Beyond, Reach};
use crate::query::Query;
use crate::tablebase::Tablebase;

/// The engine's hash table, MiB: ample for a search of seconds (millions of nodes a second,
/// most of them quiescence and table reads that store nothing).
const HASH_MIB: usize = 64;

/// The time a move by default, in the doors that take one.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// What the engine may spend on one estimate: wall-clock time, or a number of nodes (the same
/// position and budget give the same move and estimate on every run). Depth 1 is completed
/// whatever the budget, so a position with a legal move always gets one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time.
    Time(Duration),
    /// Nodes searched: deterministic.
    Nodes(u64),
}

impl Default for Budget {
    /// [`DEFAULT_TIME`].
    fn default() -> Self {
        Budget::Time(DEFAULT_TIME)
    }
}

impl Budget {
    /// The engine's limits for this budget.
    #[must_use]
    pub fn limits(self) -> granary_search::Limits {
        match self {
            Budget::Time(time) => granary_search::Limits::time(time),
            Budget::Nodes(nodes) => granary_search::Limits::nodes(nodes),
        }
    }
}

impl fmt::Display for Budget {
    /// `1.0 s`, `0.05 s`, `20000 nodes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(time) => {
                let seconds = time.as_secs_f64();
                if seconds.fract() == 0.0 {
                    write!(f, "{seconds:.1} s")
                } else {
                    write!(f, "{seconds} s")
                }
            }
            Budget::Nodes(nodes) => write!(f, "{nodes} nodes"),
        }
    }
}

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

impl fmt::Display for EstimatedMove {
    /// `3:~+2` for the move's estimate, `3:<=+1` for a bound.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = match self.bound {
            Bound::Estimate => "~",
            Bound::AtMost => "<=",
        };
        write!(f, "{}:{sign}{:+}", self.pit, self.estimate)
    }
}

/// What a position gets from [`Tablebase::query_or_estimate`]: the exact answer, or the
/// engine's estimate. In JSON the one object or the other: a [`Query`] (with `value`), or an
/// [`Estimated`] (with `estimate` and `beyond`, never `value`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// Exact: from the tables, or an exact search over them.
    Exact(Query),
    /// Beyond the exact reach: the engine's estimate.
    Estimated(Estimated),
}

/// The engine's estimate of a position beyond the exact reach, and why there is no exact
/// answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimated {
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Why the position has no exact answer here, in a plain clause.
    #[serde(serialize_with = "as_text")]
    pub beyond: Beyond,
}

/// A value as its text.
fn as_text<S: Serializer, T: fmt::Display>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// The engine of every door for `kind`'s positions over layers `0..=K` of `tables` (`present`:
/// `K`, none if no layer is complete), with `settings`, stopped by `cancel` (if given): a
/// [`HASH_MIB`] hash table and the evaluation learned from the tables where the project has
/// fitted one ([`granary_search::Evaluation::for_game`]).
///
/// # Errors
/// A missing or bad layer, or no memory for the engine's hash table.
pub(crate) fn engine<'t>(
    kind: granary_tables::TableKind,
    tables: &'t granary_tables::TableSet,
    present: Option<u32>,
    settings: granary_search::Settings,
    cancel: Option<&crate::Cancel>,
) -> Result<granary_search::Engine<'t, granary_rules::Engine, granary_search::Evaluation>, Error> {
    let mut engine =
        granary_search::Engine::new(kind.engine(), present.map(|k| (tables, k)), HASH_MIB)
            .map_err(crate::SolveError::from)?
            .with_evaluation(granary_search::Evaluation::for_game(kind.game, kind.pits))
            .with_settings(settings);
    if let Some(cancel) = cancel {
        engine.set_cancel(cancel.clone());
    }
    Ok(engine)
}

impl EstimatedValue {
    /// The estimate of an engine's analysis: its value, depth, time and nodes.
    #[must_use]
    pub fn of(a: &granary_search::Analysis) -> EstimatedValue {
        EstimatedValue {
            value: a.value,
            depth: a.depth,
            seconds: a.seconds,
            nodes: a.nodes,
            every_leaf_exact: a.exact,
        }
    }
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
        self.estimate_with(game, Budget::Time(time), cancel)
    }

    /// [`Tablebase::estimate`] within `budget`: time, or nodes for the same answer on every
    /// run.
    ///
    /// # Errors
    /// As [`Tablebase::estimate`].
    pub fn estimate_with(
        &self,
        game: &Mancala,
        budget: Budget,
        cancel: Option<&crate::Cancel>,
    ) -> Result<Estimate, Error> {
        let kind = game.kind();
        let present = self.complete_up_to(kind);
        let set = self.tables(kind);
        let rules = kind.engine();
        let engine = engine(
            kind,
            &set,
            present,
            granary_search::Settings::default(),
            cancel,
        )?;
        let pos = &game.position;
        let a = engine.analyse(pos, budget.limits());
        if let Some(err) = engine.tables_failed() {
            return Err(SolveError::from(err).into());
        }
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
            estimate: EstimatedValue::of(&a),
            best: a.best.map(|lane| lane + 1),
            pv: a.pv.iter().map(|lane| lane + 1).collect(),
            moves,
        })
    }

    /// `game`'s position answered as far as the one rule allows ([`crate::plan::reach`], with
    /// searches estimated at up to `limit` seconds): exactly where it answers
    /// ([`Tablebase::query_reached`]); beyond it, the engine's estimate within `budget`, or
    /// (no budget) the query's error, which says why and what answers the position on this
    /// machine.
    ///
    /// # Errors
    /// As [`Tablebase::query_within`] (beyond the rule only without a budget) and
    /// [`Tablebase::estimate`].
    pub fn query_or_estimate(
        &self,
        game: &Mancala,
        limit: f64,
        budget: Option<Budget>,
    ) -> Result<Answer, Error> {
        match (self.reach(game, limit)?, budget) {
            (Reach::Beyond(why), Some(budget)) => Ok(Answer::Estimated(Estimated {
                estimate: self.estimate_with(game, budget, None)?,
                beyond: why,
            })),
            (reach, _) => Ok(Answer::Exact(self.query_reached(game, reach)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameName, Setup};

    #[test]
    fn budgets_and_moves_read_as_labelled() {
        assert_eq!(Budget::default(), Budget::Time(DEFAULT_TIME));
        assert_eq!(Budget::Time(Duration::from_secs(1)).to_string(), "1.0 s");
        assert_eq!(
            Budget::Time(Duration::from_millis(50)).to_string(),
            "0.05 s"
        );
        assert_eq!(Budget::Nodes(20_000).to_string(), "20000 nodes");
        let mv = |estimate, bound| EstimatedMove {
            pit: 3,
            estimate,
            bound,
        };
        assert_eq!(mv(2, Bound::Estimate).to_string(), "3:~+2");
        assert_eq!(mv(-1, Bound::AtMost).to_string(), "3:<=-1");
    }

    #[test]
    fn exact_within_the_reach_and_an_estimate_beyond_it() {
        let dir = tempfile::tempdir().unwrap();
        let tb = Tablebase::new(dir.path());
        let setup = Setup {
            pits: Some(4),
            seeds: Some(2),
            rules: Some("awari".into()),
            ..Setup::default()
        };
        let start = setup.mancala(GameName::Oware, None).unwrap();
        crate::build::build(&tb, start.kind(), 6, Some(2), None, &()).unwrap();
        let inside = setup
            .mancala(GameName::Oware, Some("2,0,1,1/0,1,0,1 5-5 S"))
            .unwrap();
        let nodes = Some(Budget::Nodes(5_000));
        let Answer::Exact(q) = tb.query_or_estimate(&inside, 0.0, nodes).unwrap() else {
            panic!("within the tables");
        };
        assert_eq!(q, tb.query(&inside).unwrap());
        // 16 seeds over tables to 6: the engine's estimate, and why there is no value.
        let Answer::Estimated(e) = tb.query_or_estimate(&start, 0.0, nodes).unwrap() else {
            panic!("above the tables");
        };
        assert!(matches!(e.beyond, Beyond::Oware { seeds: 16, .. }));
        assert!(e.estimate.best.is_some() && e.estimate.estimate.depth >= 1);
        let json = serde_json::to_value(Answer::Estimated(e.clone())).unwrap();
        assert!(json.get("value").is_none(), "{json}");
        assert_eq!(json["beyond"], e.beyond.to_string());
        assert_eq!(json["estimate"]["nodes"], e.estimate.estimate.nodes);
        // No budget: the query's error, which says why.
        let err = tb.query_or_estimate(&start, 0.0, None).unwrap_err();
        assert!(
            err.to_string()
                .contains("oware is answered from tables alone"),
            "{err}"
        );
    }
}
