//! What a review says: a verdict on every ply, and a summary for each side. Serialized as the
//! server's JSON will serve it.

use granary_rules::Side;
use serde::{Serialize, Serializer};

use crate::estimate::EstimatedValue;
use crate::game::GameMove;
use crate::mark::Mark;
use crate::outcome::GameResult;
use crate::query::Source;

/// A game reviewed: every ply in order, and each side's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Review {
    /// The tables' kind, e.g. `kalah-4-standard-owner`; none for Bao, which has no tables.
    pub tables: Option<String>,
    pub plies: Vec<Ply>,
    /// South's summary, then North's.
    pub sides: [SideSummary; 2],
}

/// One move of the game and what perfect play says of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ply {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// Who moved (Kalah's extra turn: the same side twice running); `south` or `north` in JSON.
    #[serde(serialize_with = "side_name")]
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::side"))]
    pub side: Side,
    /// The move played: Kalah and Oware the pit, 1 to m from the mover's first pit; Bao the
    /// move as written.
    #[serde(rename = "move")]
    pub mv: GameMove,
    /// The position before the move.
    pub position: String,
    /// Its value, or why there is none.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// What is known of a ply: exact values; or, where no exact value is within reach, the
/// engine's estimates in fields of their own (never `value`, `played` or `loss`), or nothing.
/// In JSON an `answer` of `exact` with the values and the move's `mark` ([`Exact::mark`]),
/// `estimated` with the estimates and a `reason`, or `beyond` with a `reason`.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Exact(Exact),
    /// The position before the move is beyond what is answered exactly: the engine's
    /// estimates of it and of the move played, not proved.
    Estimated(PlyEstimate),
    /// The position before the move is beyond what is answered exactly, and not estimated.
    Beyond {
        /// Why, in a clause that names no file and no command.
        reason: String,
    },
}

/// What is known of a ply, as JSON writes it (its doc comments are the API's descriptions, so
/// they name no Rust item): an `answer` of `exact` with the values and the move's `mark`,
/// `estimated` with the engine's estimates and a `reason`, or `beyond` with a `reason`.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Verdict"))]
#[serde(tag = "answer", rename_all = "lowercase")]
enum VerdictJson<'a> {
    /// The position's exact values and the move's.
    Exact {
        #[serde(flatten)]
        exact: &'a Exact,
        /// `??` where the move changed the result, `?` where it gave seeds away, else null:
        /// the mark a review writes beside the move.
        #[cfg_attr(
            feature = "schema",
            schemars(schema_with = "crate::schema::review_mark")
        )]
        mark: Option<Mark>,
    },
    /// The position before the move is beyond what is answered exactly: the engine's
    /// estimates of it and of the move played, not proved.
    Estimated(&'a PlyEstimate),
    /// The position before the move is beyond what is answered exactly, and not estimated.
    Beyond {
        /// Why, in a clause that names no file and no command.
        reason: &'a str,
    },
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Verdict::Exact(exact) => VerdictJson::Exact {
                exact,
                mark: exact.mark(),
            },
            Verdict::Estimated(estimate) => VerdictJson::Estimated(estimate),
            Verdict::Beyond { reason } => VerdictJson::Beyond { reason },
        }
        .serialize(s)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Verdict {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Verdict".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        VerdictJson::json_schema(generator)
    }
}

/// Exact values of a ply, every one from the mover's side, in net seeds of those on the board
/// (as a query's `value`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Exact {
    /// The position's value under perfect play: the value of its best moves.
    pub value: i32,
    /// The value of the move played, perfect play after it.
    pub played: i32,
    /// The pits of the best moves.
    pub best: Vec<usize>,
    /// `value - played`: never negative, 0 when the move played keeps the value.
    pub loss: i32,
    /// The mover's result under perfect play before the move (`win`, `draw` or `loss`).
    pub result: GameResult,
    /// The same after the move played.
    pub result_after: GameResult,
    /// Whether the move changed the result: a win to a draw or a loss, a draw to a loss.
    pub changed: bool,
    /// Where the values come from: the tables, or an exact search over them.
    pub source: Source,
}

/// The engine's estimates of a ply whose position is beyond what is answered exactly, every
/// one from the mover's side in net seeds of those on the board: one search of the position
/// before the move, every move scored in it, so that the best estimate and the played move's
/// come from the same tree. Estimates, not values: a move is never marked by them.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlyEstimate {
    /// The engine's estimate of the position (its best moves'), with the search's depth, time
    /// and nodes.
    pub estimate: EstimatedValue,
    /// The pits of the moves the engine estimates best.
    pub estimated_best: Vec<usize>,
    /// The engine's estimate of the move played, from the same search.
    pub estimate_played: i32,
    /// `estimate.value - estimate_played`: never negative, 0 when the move played is among
    /// the engine's best.
    pub estimated_loss: i32,
    /// Why the position has no exact value, in a clause that names no file and no command.
    pub reason: String,
}

/// One side's moves summed up; losses count exact plies only, the engine's estimated losses
/// are summed apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SideSummary {
    /// Moves the side played.
    pub played: usize,
    /// Of those, moves with exact values.
    pub exact: usize,
    /// Of those, moves that kept the value (loss 0).
    pub kept: usize,
    /// Seeds lost in all, over the exact moves.
    pub lost: i64,
    /// The ply of the side's first move that changed the result, if any.
    pub first_change: Option<usize>,
    /// Moves with the engine's estimates instead of exact values.
    pub estimated: usize,
    /// The engine's estimated losses summed over those moves: an estimate, not proved.
    pub estimated_lost: i64,
}

/// A side as JSON names it: `south` or `north`.
fn side_name<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(side.name())
}

impl Ply {
    /// The exact values, if any.
    #[must_use]
    pub fn exact(&self) -> Option<&Exact> {
        match &self.verdict {
            Verdict::Exact(exact) => Some(exact),
            Verdict::Estimated(_) | Verdict::Beyond { .. } => None,
        }
    }

    /// The engine's estimates, if the ply has them instead of exact values.
    #[must_use]
    pub fn estimated(&self) -> Option<&PlyEstimate> {
        match &self.verdict {
            Verdict::Estimated(estimate) => Some(estimate),
            Verdict::Exact(_) | Verdict::Beyond { .. } => None,
        }
    }
}

impl Exact {
    /// The mark a review gives the move: `??` ([`Mark::Blunder`]) where it changed the result,
    /// `?` ([`Mark::Mistake`]) where it gave seeds away and kept the result, none where it kept
    /// the value.
    #[must_use]
    pub fn mark(&self) -> Option<Mark> {
        if self.changed {
            Some(Mark::Blunder)
        } else if self.loss > 0 {
            Some(Mark::Mistake)
        } else {
            None
        }
    }
}

impl Verdict {
    /// Why the ply has no exact value, if it has none.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::Exact(_) => None,
            Verdict::Estimated(PlyEstimate { reason, .. }) | Verdict::Beyond { reason } => {
                Some(reason)
            }
        }
    }
}

/// In words: `estimate: best 4 ~+2, played 3 ~+0, loses about 2 (depth 12, 0.3 s; not
/// proved)`; `keeps the estimate` where the move played is among the engine's best.
impl std::fmt::Display for PlyEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let best: Vec<String> = self
            .estimated_best
            .iter()
            .map(ToString::to_string)
            .collect();
        let e = &self.estimate;
        write!(
            f,
            "estimate: best {} ~{:+}, played ~{:+}, ",
            best.join(","),
            e.value,
            self.estimate_played
        )?;
        if self.estimated_loss > 0 {
            write!(f, "loses about {}", self.estimated_loss)?;
        } else {
            write!(f, "keeps the estimate")?;
        }
        let proof = if e.every_leaf_exact {
            "every leaf exact"
        } else {
            "not proved"
        };
        write!(f, " (depth {}, {:.1} s; {proof})", e.depth, e.seconds)
    }
}

/// In words: `30 moves, 30 valued, 28 kept the value, 5 seeds lost; the result changed at
/// ply 17`, and where the engine estimated moves `; 4 estimated, about 3 seeds lost by the
/// estimates (not proved)`.
impl std::fmt::Display for SideSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |n: u64| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} move{}, {} valued, {} kept the value, {} seed{} lost",
            self.played,
            s(self.played as u64),
            self.exact,
            self.kept,
            self.lost,
            s(self.lost.unsigned_abs())
        )?;
        if let Some(ply) = self.first_change {
            write!(f, "; the result changed at ply {ply}")?;
        }
        if self.estimated > 0 {
            write!(
                f,
                "; {} estimated, about {} seed{} lost by the estimates (not proved)",
                self.estimated,
                self.estimated_lost,
                s(self.estimated_lost.unsigned_abs())
            )?;
        }
        Ok(())
    }
}

impl SideSummary {
    /// Counts `ply`, a move of this side.
    pub(super) fn add(&mut self, ply: &Ply) {
        self.played += 1;
        if let Some(exact) = ply.exact() {
            self.exact += 1;
            self.kept += usize::from(exact.loss == 0);
            self.lost += i64::from(exact.loss);
            if exact.changed && self.first_change.is_none() {
                self.first_change = Some(ply.ply);
            }
        }
        if let Some(estimate) = ply.estimated() {
            self.estimated += 1;
            self.estimated_lost += i64::from(estimate.estimated_loss);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exact ply of value 4 whose move is worth `played`, the result before and after.
    fn exact(played: i32, result_after: GameResult) -> Exact {
        Exact {
            value: 4,
            played,
            best: vec![2],
            loss: 4 - played,
            result: GameResult::Win,
            result_after,
            changed: result_after != GameResult::Win,
            source: Source::Tables,
        }
    }

    #[test]
    fn an_exact_ply_is_marked_by_what_it_changed_and_says_so_in_json() {
        let cases = [
            (exact(-2, GameResult::Loss), Some(Mark::Blunder), "??"),
            (exact(1, GameResult::Win), Some(Mark::Mistake), "?"),
            (exact(4, GameResult::Win), None, ""),
        ];
        for (e, mark, text) in cases {
            assert_eq!(e.mark(), mark, "{e:?}");
            let json = serde_json::to_value(Verdict::Exact(e.clone())).unwrap();
            let expected = if text.is_empty() {
                serde_json::Value::Null
            } else {
                text.into()
            };
            assert_eq!(json["mark"], expected, "{json}");
            assert_eq!(json["answer"], "exact", "{json}");
            assert_eq!(json["loss"], e.loss, "{json}");
            assert_eq!(json["result_after"], e.result_after.name(), "{json}");
        }
        let beyond = Verdict::Beyond {
            reason: "far".into(),
        };
        assert_eq!(
            serde_json::to_value(beyond).unwrap(),
            serde_json::json!({ "answer": "beyond", "reason": "far" })
        );
    }
}
