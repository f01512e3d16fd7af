//! Move-path counts: the number of legal move sequences of a given length.
//!
//! A finished game (no legal move) has no continuation, so it counts only at depth 0.

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BaoRules;

/// The number of move sequences of exactly `depth` moves from `pos`.
#[must_use]
pub fn perft(rules: &BaoRules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(rules, pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|(_, child)| perft(rules, child, depth - 1))
        .sum()
}

/// [`perft`] split by first move.
#[must_use]
pub fn divide(rules: &BaoRules, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(rules, pos)
        .into_iter()
        .map(|(mv, child)| (mv, perft(rules, &child, depth.saturating_sub(1))))
        .collect()
}
