//! What a review says: a verdict on every ply, and a summary for each side. Serialized as the
//! server's JSON will serve it.

use granary_rules::Side;
use serde::{Serialize, Serializer};

use crate::game::GameMove;
use crate::outcome::GameResult;
use crate::query::Source;

/// A game reviewed: every ply in order, and each side's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Review {
    /// The tables' kind, e.g. `kalah-4-standard-owner`; none for Bao, which has no tables.
    pub tables: Option<String>,
    pub plies: Vec<Ply>,
    /// South's summary, then North's.
    pub sides: [SideSummary; 2],
}

/// One move of the game and what perfect play says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// What is known of a ply: exact values, or nothing (never a number) where no exact value is
/// within reach. In JSON an `answer` of `exact` with the values, or `beyond` with a `reason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "answer", rename_all = "lowercase")]
pub enum Verdict {
    Exact(Exact),
    /// The position before the move is beyond what is answered exactly.
    Beyond {
        /// Why, in a clause that names no file and no command.
        reason: String,
    },
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

/// One side's moves summed up; losses count exact plies only.
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
            Verdict::Beyond { .. } => None,
        }
    }
}

/// In words: `30 moves, 30 valued, 28 kept the value, 5 seeds lost; the result changed at
/// ply 17`.
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
    }
}
