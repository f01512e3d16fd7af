//! Un-moves: the positions of a layer from which one move, staying in the layer, leads to a given
//! position.
//!
//! Seen from the player who moved (`x` = the child turned round), a move that stays in the layer
//! sowed `k` seeds from an origin lane `i`, which is now empty, and added the sowing table's
//! `add(i, k)` to the board. So every parent is `x - add(i, k) + k at lane i` (one subtraction:
//! [`Sowing::undo`](granary_rules::sowing::Sowing::undo)) for an empty lane `i` and a `k` whose
//! increments `x` can pay for, with no seed sown into a store. `add(i, k)` grows lane by lane with
//! `k`, so `k` stops at the first count `x` cannot pay. Each candidate is then confirmed by playing the move
//! forward (legality, no capture, same child), so the rules live in one place: the forward move
//! generator; where the rules can tell from the last seed that a sowing captures nothing and is
//! legal ([`Rules::quiet_sowing`]), the move is not played (builds with debug assertions play it
//! anyway and compare).

use granary_index::LayerIndex;
use granary_rules::{Board, Position, Rules, Side};

/// Whether the opponent's row (lanes `m..2m`) has an empty pit.
#[inline]
fn has_empty_opponent_pit(board: Board, m: usize) -> bool {
    granary_rules::board::nonzero_bytes(board.opponent_lanes(m)).count_ones() < m as u32
}

/// Calls `parent(board, origin lane)` for every position of `index`'s layer with a legal move
/// that stays in the layer and leads to `child` (the board seen from the player to move next).
pub fn for_each_parent<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    child: Board,
    mut parent: impl FnMut(Board, usize),
) {
    let m = rules.pits();
    let table = rules.sow_table();
    let x = child.flipped(m);
    let seeds = index.seeds();
    for origin in 0..m {
        if x.pit(origin) != 0 {
            continue;
        }
        for k in 1..=seeds.min(255) as u8 {
            let sowing = table.get(origin, k);
            if sowing.store != 0 {
                break;
            }
            let Some(board) = sowing.undo(x) else {
                break;
            };
            if index.reduced() && !has_empty_opponent_pit(board, m) {
                continue;
            }
            let pos = Position::of_board(board);
            let played = || {
                rules
                    .play_if_legal(&pos, origin)
                    .is_some_and(|after| after.to_move != Side::South && after.board == child)
            };
            // The sowing leaves `x` by construction: where the rules can tell that it captures
            // nothing and is legal, the move need not be played (checked under debug assertions).
            let is_parent = match rules.quiet_sowing(&pos, origin, x, usize::from(sowing.last)) {
                Some(quiet) => {
                    debug_assert_eq!(quiet, played(), "{board:?} lane {origin}");
                    quiet
                }
                None => played(),
            };
            if is_parent {
                parent(board, origin);
            }
        }
    }
}
