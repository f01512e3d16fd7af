//! A Bao position: both halves of the board, the seeds in hand, nyumba ownership, takasia.

use granary_rules::Side;

use crate::board::{NYUMBA, RING, ROW};
use crate::rules::BaoRules;

/// Seeds in a game of Bao.
pub const TOTAL_SEEDS: u32 = 64;

/// Everything the rules look at.
///
/// `pits[s]` is player `s`'s half by ring index ([`crate::board`]); `s` is 0 for South, 1 for
/// North ([`side_index`]). `nyumba[s]` is whether `s` still owns their nyumba (always false in
/// Bao la kujifunza). `takasia` is the ring pit of the player to move that takasia forbids them to
/// lift this turn, if any.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub pits: [[u8; RING]; 2],
    pub hands: [u8; 2],
    pub nyumba: [bool; 2],
    pub takasia: Option<u8>,
    pub to_move: Side,
}

/// 0 for South, 1 for North.
#[must_use]
pub const fn side_index(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

/// The side of index 0 (South) or 1 (North).
#[must_use]
pub const fn side_of(index: usize) -> Side {
    if index == 0 { Side::South } else { Side::North }
}

impl Position {
    /// The start of the rule set: Bao la kiswahili nyumba 6 and 2, 2 to its right with 22 in hand;
    /// Malawi nyumba 8 with 20 in hand; Bao la kujifunza 2 in every pit. South moves first.
    #[must_use]
    pub fn start(rules: &BaoRules) -> Position {
        let half = if rules.has_nyumba() {
            let mut half = [0; RING];
            half[usize::from(NYUMBA)] = 32 - 4 - rules.start_hand();
            half[usize::from(NYUMBA) + 1] = 2;
            half[usize::from(NYUMBA) + 2] = 2;
            half
        } else {
            [2; RING]
        };
        Position {
            pits: [half; 2],
            hands: [rules.start_hand(); 2],
            nyumba: [rules.has_nyumba(); 2],
            takasia: None,
            to_move: Side::South,
        }
    }

    /// The half of `side`.
    #[must_use]
    pub fn half(&self, side: Side) -> &[u8; RING] {
        &self.pits[side_index(side)]
    }

    /// Seeds in `side`'s front row.
    #[must_use]
    pub fn front_seeds(&self, side: Side) -> u32 {
        self.half(side)[..ROW].iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds on `side`'s half of the board (not in hand).
    #[must_use]
    pub fn board_seeds(&self, side: Side) -> u32 {
        self.half(side).iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds on the board and in both hands.
    #[must_use]
    pub fn total_seeds(&self) -> u32 {
        self.board_seeds(Side::South)
            + self.board_seeds(Side::North)
            + u32::from(self.hands[0])
            + u32::from(self.hands[1])
    }

    /// Whether `side` still has seeds in hand: their turns are namua turns.
    #[must_use]
    pub fn in_namua(&self, side: Side) -> bool {
        self.hands[side_index(side)] > 0
    }

    /// Whether `side`'s nyumba acts as a nyumba now: owned and holding 6 seeds or more.
    #[must_use]
    pub fn functional_nyumba(&self, rules: &BaoRules, side: Side) -> bool {
        let s = side_index(side);
        rules.has_nyumba() && self.nyumba[s] && self.pits[s][usize::from(NYUMBA)] >= 6
    }
}
