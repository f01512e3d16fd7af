//! A game reviewed move by move against perfect play ([`Tablebase::review`]).
//!
//! For every ply: who moved, the move, the position before it, its value, the value of the move
//! played, the best moves, the loss in seeds (best minus played) and whether the move changed
//! the result; for each side a summary ([`SideSummary`]). Values come from the tables, or an
//! exact search over them, by the one rule of what is answered ([`crate::plan::reach`]); a ply
//! whose position is beyond that rule says why and carries no number ([`Verdict::Beyond`]).
//!
//! Each position is answered once: the value a move gets in the answer for the position before
//! it is the value of the position after it (for its mover), which is checked, not solved
//! again ([`ReviewError::Inconsistent`] where the two disagree).
//!
//! - `report`: what a review says ([`Review`], [`Ply`], [`Verdict`], [`Exact`],
//!   [`SideSummary`]);
//! - `error`: why a game cannot be reviewed ([`ReviewError`]).

mod error;
mod report;

use granary_rules::notation::format_position;
use granary_rules::{Position, Record, Side, exit_value};

pub use error::ReviewError;
pub use report::{Exact, Ply, Review, SideSummary, Verdict};

use crate::game::Mancala;
use crate::outcome::{final_stores, result_word};
use crate::plan::Reach;
use crate::query::Query;
use crate::tablebase::Tablebase;

/// The exact value a ply's answer gives the move played, with that ply and move: what the
/// answer for the next position must agree with.
struct Played {
    ply: usize,
    pit: usize,
    value: i32,
}

impl Tablebase {
    /// Reviews `moves` (pits, 1 to m from the mover's first) played from `game`'s position:
    /// each position before a move answered once, as [`Tablebase::query_within`] answers it
    /// with searches estimated at up to `limit` seconds (`f64::INFINITY`: every Kalah position
    /// is searched exactly; Oware above its tables is never answered). The moves are checked by
    /// the rules of play (Oware's majority and repetition end a game) before any position is
    /// answered.
    ///
    /// # Errors
    /// The first move that cannot be played ([`ReviewError::Illegal`]); a position that cannot
    /// be answered (tables missing or damaged, a saved cost model that cannot be read, a failed
    /// search); tables that contradict themselves.
    pub fn review(
        &self,
        game: &Mancala,
        moves: &[usize],
        limit: f64,
    ) -> Result<Review, ReviewError> {
        let kind = game.kind();
        let positions = replay(game, moves)?;
        let mut plies = Vec::with_capacity(moves.len());
        let mut sides = [SideSummary::default(), SideSummary::default()];
        let mut previous: Option<Played> = None;
        for (i, (&pit, &before)) in moves.iter().zip(&positions).enumerate() {
            let ply = i + 1;
            let here = Mancala {
                variant: game.variant,
                position: before,
            };
            let failed = |source: crate::Error| ReviewError::Answer {
                ply,
                pit,
                source: Box::new(source),
            };
            let reach = self.reach(&here, limit).map_err(|e| failed(e.into()))?;
            let verdict = if let Reach::Beyond(why) = reach {
                previous = None;
                Verdict::Beyond {
                    reason: why.to_string(),
                }
            } else {
                let answer = self.query_reached(&here, reach).map_err(failed)?;
                if let Some(played) = previous.take() {
                    // `before` is the position after the previous ply's move.
                    let (gain, again) = positions[i - 1].move_gain(&before);
                    let after = exit_value(gain, again, answer.value);
                    if after != played.value {
                        return Err(ReviewError::Inconsistent {
                            ply: played.ply,
                            pit: played.pit,
                            played: played.value,
                            after,
                        });
                    }
                }
                let exact = judge(&answer, &before, kind.pits, pit)
                    .ok_or(ReviewError::Unvalued { ply, pit })?;
                previous = Some(Played {
                    ply,
                    pit,
                    value: exact.played,
                });
                Verdict::Exact(exact)
            };
            let entry = Ply {
                ply,
                side: before.to_move.name(),
                pit,
                position: format_position(&before, kind.pits),
                verdict,
            };
            sides[usize::from(before.to_move == Side::North)].add(&entry);
            plies.push(entry);
        }
        Ok(Review {
            tables: kind.name(),
            plies,
            sides,
        })
    }
}

/// The positions of the game from its start, one more than `moves`, each move checked by the
/// rules of play.
fn replay(game: &Mancala, moves: &[usize]) -> Result<Vec<Position>, ReviewError> {
    let rules = game.variant.engine();
    let mut record = Record::new(&rules, game.position);
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(game.position);
    for (i, &pit) in moves.iter().enumerate() {
        record.play(pit).map_err(|source| ReviewError::Illegal {
            ply: i + 1,
            pit,
            source,
        })?;
        positions.push(*record.current());
    }
    Ok(positions)
}

/// The exact values of playing `pit` in `pos` (of `pits` pits a side), whose answer is
/// `answer`; `None` if the answer has no value for the move.
fn judge(answer: &Query, pos: &Position, pits: usize, pit: usize) -> Option<Exact> {
    let played = answer.moves.iter().find(|m| m.pit == pit)?.value;
    let result = result_word(pos, final_stores(pos, pits, answer.value));
    let result_after = result_word(pos, final_stores(pos, pits, played));
    Some(Exact {
        value: answer.value,
        played,
        best: answer.best.clone(),
        loss: answer.value - played,
        result,
        result_after,
        changed: result_after != result,
        source: answer.source,
    })
}
