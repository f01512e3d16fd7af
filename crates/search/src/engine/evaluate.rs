//! The evaluation at the horizon: an estimate of a position's value where the search stops, in
//! the solver's units, so that a learned evaluation can take the heuristic's place.

use granary_rules::Position;

/// An estimate of a position's value.
///
/// The engine asks it only of positions beyond the tables whose game is not over, and holds
/// its answer to `-n..=n` for the `n` seeds on the board (the range of every value).
pub trait Evaluate: Sync {
    /// The estimated value of `pos` for the player to move: the net score of the seeds on the
    /// board, in `-n..=n` for its `n` seeds, on a board of `pits` pits a side.
    fn evaluate(&self, pos: &Position, pits: usize) -> i32;
}

/// Half the difference between the seeds on the mover's side and the opponent's, rounded up:
/// the seeds on the mover's side less half the board's. The estimate of the solver's first
/// guess ([`crate::Solver::estimate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeedDifference;

impl Evaluate for SeedDifference {
    #[inline]
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        pos.board.mover_seeds(pits) as i32 - pos.board.seeds(pits) as i32 / 2
    }
}

impl<E: Evaluate + ?Sized> Evaluate for &E {
    #[inline]
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        (**self).evaluate(pos, pits)
    }
}

impl<E: Evaluate + ?Sized> Evaluate for Box<E> {
    #[inline]
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        (**self).evaluate(pos, pits)
    }
}

#[cfg(test)]
mod tests {
    use granary_rules::{Position, Side};

    use super::{Evaluate, SeedDifference};

    #[test]
    fn the_seed_difference_is_the_movers_seeds_less_half_the_board() {
        // South to move: 7 seeds against 2.
        let pos = Position::from_sides(&[3, 0, 4], &[1, 1, 0], [5, 5], Side::South);
        assert_eq!(SeedDifference.evaluate(&pos, 3), 7 - 9 / 2);
        // The same board with North to move: the other side's view.
        let pos = Position::from_sides(&[3, 0, 4], &[1, 1, 0], [5, 5], Side::North);
        assert_eq!(SeedDifference.evaluate(&pos, 3), 2 - 9 / 2);
        let boxed: Box<dyn Evaluate> = Box::new(SeedDifference);
        assert_eq!(boxed.evaluate(&pos, 3), -2);
    }
}
