//! What a review says: a verdict on every ply, and a summary for each side. Serialized as the
//! server's JSON will serve it.

use serde::Serialize;

use crate::query::Source;

/// A game reviewed: every ply in order, and each side's summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Review {
    /// The tables' kind, e.g. `kalah-4-standard-owner`.
    pub tables: String,
    pub plies: Vec<Ply>,
    /// South's summary, then North's.
    pub sides: [SideSummary; 2],
}

/// One move of the game and what perfect play says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ply {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// Who moved: `south` or `north` (Kalah's extra turn: the same side twice running).
    pub side: &'static str,
    /// The pit played, 1 to m from the mover's first pit.
    #[serde(rename = "move")]
    pub pit: usize,
    /// The position before the move.
    pub position: String,
    /// Its value, or why there is none.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// What is known of a ply: exact values, or nothing (never a number) where no exact value is
/// within reach. In JSON an `answer` of `exact` with the values, or `beyond` with a `reason`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "answer", rename_all = "lowercase")]
pub enum Verdict {
    Exact(Exact),
    /// The position before the move is beyond what is answered ([`crate::plan::reach`]).
    Beyond {
        /// Why, in a clause that names no file and no command.
        reason: String,
    },
}

/// Exact values of a ply, every one from the mover's side, in net seeds of those on the board
/// (as [`crate::Query::value`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exact {
    /// The position's value under perfect play: the value of its best moves.
    pub value: i32,
    /// The value of the move played, perfect play after it.
    pub played: i32,
    /// The pits of the best moves.
    pub best: Vec<usize>,
    /// `value - played`: never negative, 0 when the move played keeps the value.
    pub loss: i32,
    /// `win`, `draw` or `loss` for the mover under perfect play before the move.
    pub result: &'static str,
    /// The same after the move played.
    pub result_after: &'static str,
    /// Whether the move changed the result: a win to a draw or a loss, a draw to a loss.
    pub changed: bool,
    /// Where the values come from: the tables, or an exact search over them.
    pub source: Source,
}

/// One side's moves summed up; losses count exact plies only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
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
