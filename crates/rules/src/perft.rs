//! Perft: the number of move sequences of exactly `depth` moves (a move is one sowing; a move that
//! earns another is followed by the same player's next move as a separate ply). Games that end
//! earlier contribute nothing.

use crate::position::Position;
use crate::rules::Rules;

/// Counts the move sequences of exactly `depth` moves from `pos`.
pub fn perft<R: Rules + ?Sized>(rules: &R, pos: &Position, depth: u32) -> u64 {
    let moves = rules.legal_moves(pos);
    match depth {
        0 => 1,
        // Bulk counting: the leaves need not be played.
        1 => u64::from(moves.len()),
        _ => moves
            .iter()
            .map(|lane| perft(rules, &rules.play(pos, lane), depth - 1))
            .sum(),
    }
}

/// Perft split by first move: `(lane, count)` for each legal move.
pub fn divide<R: Rules + ?Sized>(rules: &R, pos: &Position, depth: u32) -> Vec<(usize, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    rules
        .legal_moves(pos)
        .iter()
        .map(|lane| (lane, perft(rules, &rules.play(pos, lane), depth - 1)))
        .collect()
}

/// Perft that plays every move, leaves included: the count of `play` calls is the count of moves
/// made. Used by the benchmark to report moves made per second beside bulk-counted nodes.
pub fn perft_played<R: Rules + ?Sized>(rules: &R, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    rules
        .legal_moves(pos)
        .iter()
        .map(|lane| perft_played(rules, &rules.play(pos, lane), depth - 1))
        .sum()
}
