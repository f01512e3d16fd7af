//! Values of positions and moves from the tables, with stores: what `query`, `verify` and the
//! solver read.
//!
//! The value of a move is what it gains now plus the value of the position it leads to, negated
//! when the other player moves next. A position whose layout the reduced index leaves out (an
//! opponent row without an empty pit: only a start position can have one) is valued through its
//! moves, whose results are always indexed.

use granary_rules::{Board, Position, Rules};

use crate::error::TableError;

/// A bound beyond every value and every move's gain: the window `(-UNBOUNDED, UNBOUNDED)` asks
/// [`Values::probe_within`] for the value itself.
pub const UNBOUNDED: i32 = 1 << 16;

/// Where the values of layouts are read: a kind's [`crate::TableSet`], or the layers below a
/// layer with filled don't-cares ([`crate::filled`]).
pub trait Values {
    /// The value of a layout (mover to move), or `None` if its layer's index leaves it out.
    ///
    /// # Errors
    /// If its layer is missing or unusable.
    fn probe(&self, board: Board) -> Result<Option<i8>, TableError>;

    /// The value of a layout, or a bound on it where it lies outside the window `(alpha,
    /// beta)`, as an alpha-beta search returns it (fail-soft): a result `r` with `alpha < r <
    /// beta` is the value, `r <= alpha` says the value is at most `r`, `r >= beta` that it is at
    /// least `r`. A layer with filled don't-cares answers from fewer reads below it when the
    /// window is narrow ([`crate::filled`]); every other layer gives the value, as
    /// [`Values::probe`] does.
    ///
    /// # Errors
    /// If its layer is missing or unusable.
    fn probe_within(&self, board: Board, alpha: i32, beta: i32) -> Result<Option<i8>, TableError> {
        let _ = (alpha, beta);
        self.probe(board)
    }
}

/// The net score the mover of `pos` still makes with perfect play (seeds on the board only).
///
/// # Errors
/// If a needed layer is missing or unusable.
pub fn position_value<V: Values + ?Sized, R: Rules>(
    set: &V,
    rules: &R,
    pos: &Position,
) -> Result<i32, TableError> {
    if let Some(value) = set.probe(pos.board)? {
        return Ok(i32::from(value));
    }
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return Ok(terminal_value(rules, pos));
    }
    let mut best = i32::MIN;
    for lane in moves.iter() {
        best = best.max(move_value(set, rules, pos, lane)?);
    }
    Ok(best)
}

/// [`position_value`], or a bound on it outside the window `(alpha, beta)`, as
/// [`Values::probe_within`] gives one.
///
/// # Errors
/// If a needed layer is missing or unusable.
pub fn position_value_within<V: Values + ?Sized, R: Rules>(
    set: &V,
    rules: &R,
    pos: &Position,
    alpha: i32,
    beta: i32,
) -> Result<i32, TableError> {
    match set.probe_within(pos.board, alpha, beta)? {
        Some(value) => Ok(i32::from(value)),
        // A layout the index leaves out (a start position): valued through its moves.
        None => position_value(set, rules, pos),
    }
}

/// The value of a finished position: what the sweep gives the mover minus the opponent.
///
/// # Panics
/// If the game is not over.
#[must_use]
pub fn terminal_value<R: Rules>(rules: &R, pos: &Position) -> i32 {
    let outcome = rules.outcome(pos).expect("the game is over");
    let [mover, opponent] = outcome.stores.map(|s| s as i32);
    (mover - i32::from(pos.stores[0])) - (opponent - i32::from(pos.stores[1]))
}

/// The value, for the mover of `pos`, of playing lane `lane` (a legal move).
///
/// # Errors
/// If a needed layer is missing or unusable.
pub fn move_value<V: Values + ?Sized, R: Rules>(
    set: &V,
    rules: &R,
    pos: &Position,
    lane: usize,
) -> Result<i32, TableError> {
    let child = rules.play(pos, lane);
    let child_value = position_value(set, rules, &child)?;
    let (gain, again) = pos.move_gain(&child);
    Ok(granary_rules::exit_value(gain, again, child_value))
}

/// Best moves from `pos` (the lowest pit among equals) until the game ends, a position repeats
/// (`true`: endless play) or `limit` moves are played.
///
/// # Errors
/// If a needed layer is missing or unusable.
pub fn principal_variation<V: Values + ?Sized, R: Rules>(
    set: &V,
    rules: &R,
    mut pos: Position,
    limit: usize,
) -> Result<(Vec<usize>, bool), TableError> {
    let mut pv = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while pv.len() < limit {
        if !seen.insert(pos) {
            return Ok((pv, true));
        }
        let value = position_value(set, rules, &pos)?;
        let mut chosen = None;
        for lane in rules.legal_moves(&pos).iter() {
            if move_value(set, rules, &pos, lane)? == value {
                chosen = Some(lane);
                break;
            }
        }
        let Some(lane) = chosen else {
            return Ok((pv, false));
        };
        pv.push(lane);
        pos = rules.play(&pos, lane);
    }
    Ok((pv, false))
}
