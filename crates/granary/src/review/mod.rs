//! A game reviewed move by move against perfect play ([`Tablebase::review`]).
//!
//! For every ply: who moved, the move, the position before it, its value, the value of the move
//! played, the best moves, the loss in seeds (best minus played) and whether the move changed
//! the result; for each side a summary ([`SideSummary`]). Values come from the tables, or an
//! exact search over them, by the one rule of what is answered ([`crate::plan::reach`]). A ply
//! whose position is beyond that rule says why, and carries the engine's estimates within a
//! budget a ply ([`Verdict::Estimated`]: the position's estimate and best moves, the played
//! move's estimate and the estimated loss, in fields of their own, never marked), or with no
//! budget no number at all ([`Verdict::Beyond`]).
//!
//! Each position is answered once: the value a move gets in the answer for the position before
//! it is the value of the position after it (for its mover), which is checked, not solved
//! again ([`ReviewError::Inconsistent`] where the two disagree).
//!
//! A Bao game reviews too ([`Tablebase::review_game`]): Bao has no tables, so every ply is
//! [`Verdict::Beyond`] and says so (the Bao engine's evaluations are not in net seeds, so they
//! give no estimated loss).
//!
//! A review is long work where its positions are searched (a Kalah game above its tables): a
//! [`Watch`] hears each ply as it is answered, may cancel the review (its searches stop), and
//! may hand it answers kept from earlier work.
//!
//! - `report`: what a review says ([`Review`], [`Ply`], [`Verdict`], [`Exact`],
//!   [`PlyEstimate`], [`SideSummary`]);
//! - `engine`: the engine's estimates of the plies beyond the exact reach;
//! - `watch`: what a review is given and tells as it goes ([`Watch`]);
//! - `error`: why a game cannot be reviewed ([`ReviewError`]).

mod engine;
mod error;
mod report;
mod watch;

use std::time::Duration;

use granary_rules::notation::format_position;
use granary_rules::{Position, Record, Side, exit_value};

pub use error::ReviewError;
pub use report::{Exact, Ply, PlyEstimate, Review, SideSummary, Verdict};
pub use watch::Watch;

use crate::Cancel;
use crate::estimate::Budget;
use crate::game::{AnyGame, BaoPosition, GameMove, Mancala};
use crate::outcome::{GameResult, final_stores};
use crate::plan::Reach;
use crate::query::Query;
use crate::tablebase::Tablebase;

/// The engine's time a ply beyond the exact reach, by default, in the doors that review: a
/// 40-ply game beyond the tables is estimated in about 12 s.
pub const ESTIMATE_TIME: Duration = Duration::from_millis(300);

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
    /// is searched exactly; Oware above its tables is never answered exactly). A position
    /// beyond that is searched by the engine within `estimate` ([`Verdict::Estimated`]; the
    /// plies share one engine and its hash table), or (`None`) carries no number
    /// ([`Verdict::Beyond`]). The moves are checked by the rules of play (Oware's majority and
    /// repetition end a game) before any position is answered. `watch` hears each ply once it
    /// is answered, in order, and may cancel the review (its searches, the engine's included,
    /// stop) or give answers it keeps ([`Watch`]; `&()` for none).
    ///
    /// # Errors
    /// The first move that cannot be played ([`ReviewError::Illegal`]); a position that cannot
    /// be answered (tables missing or damaged, a saved cost model that cannot be read, a failed
    /// search, no memory for the engine); tables that contradict themselves; the watch's
    /// cancel ([`ReviewError::Cancelled`]).
    pub fn review(
        &self,
        game: &Mancala,
        moves: &[usize],
        limit: f64,
        estimate: Option<Budget>,
        watch: &dyn Watch,
    ) -> Result<Review, ReviewError> {
        let kind = game.kind();
        let positions = replay(game, moves)?;
        let here = |position: Position| Mancala {
            variant: game.variant,
            position,
        };
        let cancel = watch.cancel();
        let cancelled = |ply: usize| {
            cancel
                .is_some_and(Cancel::is_cancelled)
                .then_some(ReviewError::Cancelled {
                    ply,
                    done: ply - 1,
                    total: moves.len(),
                })
        };
        let failed = |ply: usize, source: crate::Error| {
            cancelled(ply).unwrap_or_else(|| ReviewError::Answer {
                ply,
                pit: moves[ply - 1],
                source: Box::new(source),
            })
        };
        // Answers kept from earlier work: exact, whatever tables or search gave them.
        let known: Vec<Option<Query>> = positions[..moves.len()]
            .iter()
            .map(|&p| watch.known(&here(p)))
            .collect();
        // Read once for every ply (the cost model, the tables present); a fault is the first
        // ply's.
        let reaches = if moves.is_empty() {
            Vec::new()
        } else {
            self.reaches(game.variant, &positions[..moves.len()], limit)
                .map_err(|e| failed(1, e.into()))?
        };
        // The plies to search share one search, and so its transposition table: the search of
        // a ply has found every move of the one before it exact, the move played among them.
        let searches = reaches.iter().enumerate().filter_map(|(i, r)| match r {
            Reach::Search { horizon, seconds } if known[i].is_none() => {
                Some((i, *horizon, *seconds))
            }
            _ => None,
        });
        let (mut first, mut horizon, mut seconds) = (None, None, 0.0_f64);
        for (i, h, s) in searches {
            first.get_or_insert(i);
            horizon = h;
            seconds = seconds.max(s);
        }
        let prepared = first
            .map(|i| {
                let seeds = positions[i].board.seeds(kind.pits);
                let hash = crate::plan::default_hash_mib(Some(seconds));
                self.prepare_search(game.variant, seeds, horizon, hash, None, true)
                    .map_err(|e| failed(i + 1, e))
            })
            .transpose()?;
        let searcher = match (&prepared, first) {
            (Some(p), Some(i)) => {
                let mut oracle =
                    crate::solve::Oracle::new(p).map_err(|e| failed(i + 1, e.into()))?;
                if let Some(cancel) = cancel {
                    oracle.set_cancel(cancel.clone());
                }
                Some(oracle)
            }
            _ => None,
        };
        // The engine, made at the first ply it estimates, over the layers complete then.
        let set = self.tables(kind);
        let mut estimator: Option<engine::Estimator<'_>> = None;
        let mut plies = Vec::with_capacity(moves.len());
        let mut sides = [SideSummary::default(), SideSummary::default()];
        let mut previous: Option<Played> = None;
        let plies_known = moves.iter().zip(&positions).zip(reaches).zip(known);
        for (i, (((&pit, &before), reach), known)) in plies_known.enumerate() {
            let ply = i + 1;
            if let Some(stop) = cancelled(ply) {
                return Err(stop);
            }
            let verdict = if let (Reach::Beyond(why), None) = (&reach, &known) {
                previous = None;
                let reason = why.to_string();
                match estimate {
                    Some(budget) => {
                        let engine = match estimator {
                            Some(ref engine) => engine,
                            None => estimator.insert(
                                engine::Estimator::new(
                                    kind,
                                    &set,
                                    self.complete_up_to(kind),
                                    budget,
                                    cancel,
                                )
                                .map_err(|e| failed(ply, e))?,
                            ),
                        };
                        let estimated = engine.estimate(&before, pit, reason);
                        if let Some(err) = engine.tables_failed() {
                            return Err(failed(ply, err));
                        }
                        // A search cut short by the cancel is no estimate to report.
                        if let Some(stop) = cancelled(ply) {
                            return Err(stop);
                        }
                        Verdict::Estimated(estimated.ok_or(ReviewError::Unvalued { ply, pit })?)
                    }
                    None => Verdict::Beyond { reason },
                }
            } else {
                let answer = match known {
                    Some(answer) => answer,
                    None => {
                        let answer = self
                            .query_searching(&here(before), reach, searcher.as_ref())
                            .map_err(|e| failed(ply, e))?;
                        if answer.source == crate::query::Source::Search {
                            watch.searched(&here(before), &answer);
                        }
                        answer
                    }
                };
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
                side: before.to_move,
                mv: GameMove::Pit(pit),
                position: format_position(&before, kind.pits),
                verdict,
            };
            sides[usize::from(before.to_move == Side::North)].add(&entry);
            watch.ply(&entry, moves.len());
            plies.push(entry);
        }
        Ok(Review {
            tables: Some(kind.name()),
            plies,
            sides,
        })
    }

    /// Reviews `moves` played from `game`'s position, a game of any kind: Kalah and Oware as
    /// [`Tablebase::review`] does (beyond the exact reach estimated within `estimate`); Bao
    /// move by move, every ply beyond (Bao has no tables), each told to `watch`.
    ///
    /// # Errors
    /// As [`Tablebase::review`]; a move of the wrong kind for the game (a pit in Bao, Bao's
    /// move text in Kalah or Oware) cannot be played.
    pub fn review_game(
        &self,
        game: &AnyGame,
        moves: &[GameMove],
        limit: f64,
        estimate: Option<Budget>,
        watch: &dyn Watch,
    ) -> Result<Review, ReviewError> {
        match game {
            AnyGame::Mancala(mancala) => {
                let pits = moves
                    .iter()
                    .enumerate()
                    .map(|(i, mv)| {
                        mv.pit().ok_or_else(|| ReviewError::MoveOfAnotherGame {
                            ply: i + 1,
                            mv: mv.clone(),
                            game: game.name(),
                        })
                    })
                    .collect::<Result<Vec<usize>, ReviewError>>()?;
                self.review(mancala, &pits, limit, estimate, watch)
            }
            AnyGame::Bao(rules, start) => {
                let review = bao(rules, *start, moves)?;
                for ply in &review.plies {
                    watch.ply(ply, review.plies.len());
                }
                Ok(review)
            }
        }
    }
}

/// Why a Bao ply has no value.
const BAO_BEYOND: &str = "bao has no endgame tables, so no exact value";

/// A Bao game reviewed: each move checked by the rules, each ply beyond.
fn bao(
    rules: &granary_bao::BaoRules,
    mut pos: BaoPosition,
    moves: &[GameMove],
) -> Result<Review, ReviewError> {
    let mut plies = Vec::with_capacity(moves.len());
    let mut sides = [SideSummary::default(), SideSummary::default()];
    for (i, mv) in moves.iter().enumerate() {
        let GameMove::Bao(text) = mv else {
            return Err(ReviewError::MoveOfAnotherGame {
                ply: i + 1,
                mv: mv.clone(),
                game: crate::GameName::Bao,
            });
        };
        let (played, child) =
            crate::bao::find_move(rules, &pos, text).map_err(|source| ReviewError::IllegalBao {
                ply: i + 1,
                mv: text.clone(),
                source,
            })?;
        let entry = Ply {
            ply: i + 1,
            side: pos.to_move,
            mv: GameMove::Bao(played.text(pos.to_move == Side::North)),
            position: crate::bao::format_position(&pos),
            verdict: Verdict::Beyond {
                reason: BAO_BEYOND.into(),
            },
        };
        sides[usize::from(pos.to_move == Side::North)].add(&entry);
        plies.push(entry);
        pos = child;
    }
    Ok(Review {
        tables: None,
        plies,
        sides,
    })
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
    let result = GameResult::of(pos, final_stores(pos, pits, answer.value));
    let result_after = GameResult::of(pos, final_stores(pos, pits, played));
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
