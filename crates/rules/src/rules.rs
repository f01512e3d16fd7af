//! What every game's rules provide to search, tables, perft and the command line.

use crate::board::Board;
use crate::position::Position;
use crate::sowing::SowTable;

/// A set of moves, bit `i` for the mover's lane `i` (pit `i + 1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct MoveSet(pub u8);

impl MoveSet {
    pub const EMPTY: MoveSet = MoveSet(0);

    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    #[must_use]
    pub const fn contains(self, lane: usize) -> bool {
        lane < 8 && self.0 & (1 << lane) != 0
    }

    /// The lanes, lowest first.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let lane = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(lane)
        })
    }

    /// Keeps the moves for which `keep` holds.
    #[must_use]
    pub fn filter(self, mut keep: impl FnMut(usize) -> bool) -> MoveSet {
        MoveSet(
            self.iter()
                .filter(|&l| keep(l))
                .fold(0, |acc, l| acc | (1 << l)),
        )
    }
}

/// Why a game is over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// No legal move, or (Kalah) a side without seeds: the remaining seeds are swept to stores.
    Finished,
    /// (Oware in play) a player holds more than half of all seeds; the board stays as it is.
    Majority,
}

/// The end of a game: the reason and the final stores, `[mover, opponent]` of the final position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub end: End,
    pub stores: [u32; 2],
}

/// The rules of a two-row mancala on the packed [`Position`].
pub trait Rules: Sync {
    /// Pits a side.
    fn pits(&self) -> usize;

    /// The legal moves; empty exactly when the game is over.
    fn legal_moves(&self, pos: &Position) -> MoveSet;

    /// Whether sowing lane `lane` is legal; the same as `legal_moves(pos).contains(lane)`, often
    /// cheaper.
    fn is_legal(&self, pos: &Position, lane: usize) -> bool {
        self.legal_moves(pos).contains(lane)
    }

    /// The position after the mover sows lane `lane`, which must be a legal move.
    fn play(&self, pos: &Position, lane: usize) -> Position;

    /// The position after sowing lane `lane` if that is a legal move: `is_legal` then `play`,
    /// sharing their work where the rules allow (undoing moves asks this of every candidate).
    fn play_if_legal(&self, pos: &Position, lane: usize) -> Option<Position> {
        self.is_legal(pos, lane).then(|| self.play(pos, lane))
    }

    /// For undoing moves: whether sowing lane `lane` of `pos` is a legal move that captures
    /// nothing, for a caller that knows the sowing alone (origin emptied, the sowing table's seeds
    /// added) leaves the board `sown` with its last seed in lane `last`. The position after such a
    /// move is `sown` with the turn passed. `None` when the rules cannot tell without playing it
    /// (the default).
    fn quiet_sowing(&self, pos: &Position, lane: usize, sown: Board, last: usize) -> Option<bool> {
        let _ = (pos, lane, sown, last);
        None
    }

    /// `Some` when the game is over, with the final stores.
    fn outcome(&self, pos: &Position) -> Option<Outcome>;

    /// The game's sowing table, for code that undoes moves (table building).
    fn sow_table(&self) -> &SowTable;
}
