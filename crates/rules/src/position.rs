//! A packed position: the board seen from the player to move, the two stores, and who moves.

use crate::board::Board;
use crate::side::Side;

/// A position. `board` and `stores` are from the point of view of `to_move`: lane 0 is the mover's
/// first pit and `stores[0]` the mover's store (see [`crate::board`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    /// Seeds in the mover's store, then in the opponent's.
    pub stores: [u8; 2],
    pub to_move: Side,
}

impl Position {
    /// Builds a position from South's and North's pits (each from its first pit), the stores
    /// `[south, north]`, and the side to move.
    ///
    /// # Panics
    /// If the sides differ in length or are longer than [`crate::board::MAX_PITS`].
    #[must_use]
    pub fn from_sides(south: &[u8], north: &[u8], stores: [u8; 2], to_move: Side) -> Position {
        match to_move {
            Side::South => Position {
                board: Board::from_sides(south, north),
                stores,
                to_move,
            },
            Side::North => Position {
                board: Board::from_sides(north, south),
                stores: [stores[1], stores[0]],
                to_move,
            },
        }
    }

    /// The start position: `seeds` in each of the `2 * pits` pits, empty stores, South to move.
    #[must_use]
    pub fn start(pits: usize, seeds: u8) -> Position {
        let side = vec![seeds; pits];
        Position::from_sides(&side, &side, [0, 0], Side::South)
    }

    /// The pits of `side`, from its first pit.
    #[must_use]
    pub fn pits_of(&self, side: Side, m: usize) -> Vec<u8> {
        let lanes = self.board.to_vec(m);
        if side == self.to_move {
            lanes[..m].to_vec()
        } else {
            lanes[m..].to_vec()
        }
    }

    /// The pits of South then North, each from its first pit.
    #[must_use]
    pub fn absolute_pits(&self, m: usize) -> Vec<u8> {
        let mut pits = self.pits_of(Side::South, m);
        pits.extend(self.pits_of(Side::North, m));
        pits
    }

    /// `[south, north]` from a pair ordered `[mover, opponent]`.
    #[must_use]
    pub fn absolute<T: Copy>(&self, relative: [T; 2]) -> [T; 2] {
        match self.to_move {
            Side::South => relative,
            Side::North => [relative[1], relative[0]],
        }
    }

    /// The stores as `[south, north]`.
    #[must_use]
    pub fn absolute_stores(&self) -> [u8; 2] {
        self.absolute(self.stores)
    }

    /// Seeds on the board and in the stores.
    #[must_use]
    pub fn total_seeds(&self, m: usize) -> u32 {
        self.board.seeds(m) + u32::from(self.stores[0]) + u32::from(self.stores[1])
    }

    /// The same position with the other player to move and the board turned round. Used where the
    /// mover changes (a move that does not earn another).
    #[inline]
    #[must_use]
    pub fn passed(self, m: usize) -> Position {
        Position {
            board: self.board.flipped(m),
            stores: [self.stores[1], self.stores[0]],
            to_move: self.to_move.other(),
        }
    }

    /// What the mover of `self` gained by the move that led to `child`, and whether they move
    /// again. A move's value is `gain + value(child)` when they do, `gain - value(child)` when
    /// the other player moves next (the value convention of tables and search).
    #[inline]
    #[must_use]
    pub fn move_gain(&self, child: &Position) -> (i32, bool) {
        let again = child.to_move == self.to_move;
        let store = if again {
            child.stores[0]
        } else {
            child.stores[1]
        };
        (i32::from(store) - i32::from(self.stores[0]), again)
    }

    /// The position a table entry stands for: `board` with empty stores, South to move.
    #[inline]
    #[must_use]
    pub fn of_board(board: Board) -> Position {
        Position {
            board,
            stores: [0, 0],
            to_move: Side::South,
        }
    }

    /// Final stores `[mover, opponent]` when each player takes the seeds on their own side.
    #[must_use]
    pub fn swept_to_owners(&self, m: usize) -> [u32; 2] {
        [
            u32::from(self.stores[0]) + self.board.mover_seeds(m),
            u32::from(self.stores[1]) + self.board.opponent_seeds(m),
        ]
    }
}

/// The value of a move for its mover: what it `gain`ed, plus the value of the position it led
/// to (`child`, for the player to move there), negated when the other player moves next
/// (`again` false). The one statement of the value convention of tables and search
/// ([`Position::move_gain`] gives `gain` and `again`; [`undo_exit`] is its inverse).
#[inline]
#[must_use]
pub fn exit_value(gain: i32, again: bool, child: i32) -> i32 {
    if again { gain + child } else { gain - child }
}

/// The inverse of [`exit_value`]: the value of the position a move led to (for the player to
/// move there) at which the move is worth `value` to its mover, having `gain`ed and moving
/// `again` or not: `exit_value(gain, again, undo_exit(gain, again, value)) == value`. A search
/// turns a parent's value or window into its child's with it.
#[inline]
#[must_use]
pub fn undo_exit(gain: i32, again: bool, value: i32) -> i32 {
    if again { value - gain } else { gain - value }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{exit_value, undo_exit};

    proptest! {
        /// Values and gains of a board of at most 255 seeds, with room to spare.
        #[test]
        fn undo_exit_inverts_exit_value(
            gain in -1000i32..=1000,
            again: bool,
            value in -1000i32..=1000,
        ) {
            prop_assert_eq!(exit_value(gain, again, undo_exit(gain, again, value)), value);
            prop_assert_eq!(undo_exit(gain, again, exit_value(gain, again, value)), value);
        }

        /// A move worth more to its mover is a child worth more to the player to move there
        /// when the mover moves again, and less when the other player moves next.
        #[test]
        fn undo_exit_orders_as_exit_value(
            gain in -1000i32..=1000,
            again: bool,
            a in -1000i32..=1000,
            b in -1000i32..=1000,
        ) {
            let (ca, cb) = (undo_exit(gain, again, a), undo_exit(gain, again, b));
            prop_assert_eq!(ca.cmp(&cb), if again { a.cmp(&b) } else { b.cmp(&a) });
        }
    }
}
