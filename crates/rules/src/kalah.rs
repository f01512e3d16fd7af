//! Kalah(m,n): sowing through the mover's own store, another move when the last seed lands there,
//! capture from an own empty pit, and the game's end when either side is empty.
//!
//! Rules: Irving, Donkers & Uiterwijk, *Solving Kalah* (2000); `docs/rules/kalah.md`.

use crate::board::nonzero_bytes;
use crate::pits::{AnyPits, ConstPits, PitCount};
use crate::position::Position;
use crate::rules::{End, MoveSet, Outcome, Rules};
use crate::sowing::{LAST_IN_STORE, Ring, SowTable};

/// When a last seed in an own empty pit captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Capture {
    /// Always: the last seed and the opposite pit's seeds, even none (Irving et al.).
    Empty,
    /// Only when the opposite pit holds seeds; otherwise nothing is captured.
    Standard,
}

/// Where the seeds left on the board go when a side becomes empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sweep {
    /// To the owner of the side they are on (Irving et al.).
    Owner,
    /// All to the player whose side became empty (Japanese Wikipedia, "Mancala").
    Emptied,
}

/// The rules of Kalah with `m` pits a side: `P` says how `m` is known, at run time (the
/// default, [`AnyPits`]) or as a constant ([`Kalah::with_const_pits`]; see [`crate::pits`]).
#[derive(Clone, Debug)]
pub struct Kalah<P: PitCount = AnyPits> {
    pits: P,
    capture: Capture,
    sweep: Sweep,
    sowing: SowTable,
}

impl Kalah {
    /// # Panics
    /// If `pits` is not in `1..=8`.
    #[must_use]
    pub fn new(pits: usize, capture: Capture, sweep: Sweep) -> Kalah {
        let ring = Ring {
            pits,
            through_store: true,
            skip_origin: false,
        };
        Kalah {
            pits: AnyPits(pits),
            capture,
            sweep,
            sowing: SowTable::new(ring),
        }
    }

    /// The same rules with `M` pits a side a constant, if the board has `M` pits: a search or
    /// builder over them is compiled for that board alone (faster; see [`crate::pits`]).
    #[must_use]
    pub fn with_const_pits<const M: usize>(&self) -> Option<Kalah<ConstPits<M>>> {
        (self.pits.get() == M).then(|| Kalah {
            pits: ConstPits,
            capture: self.capture,
            sweep: self.sweep,
            sowing: self.sowing.clone(),
        })
    }
}

impl<P: PitCount> Rules for Kalah<P> {
    #[inline(always)]
    fn pits(&self) -> usize {
        self.pits.get()
    }

    #[inline]
    fn legal_moves(&self, pos: &Position) -> MoveSet {
        let own = pos.board.mover_lanes(self.pits());
        if own == 0 || pos.board.opponent_lanes(self.pits()) == 0 {
            return MoveSet::EMPTY;
        }
        MoveSet(nonzero_bytes(own))
    }

    #[inline]
    fn is_legal(&self, pos: &Position, lane: usize) -> bool {
        lane < self.pits() && pos.board.pit(lane) != 0 && pos.board.opponent_lanes(self.pits()) != 0
    }

    #[inline]
    fn play(&self, pos: &Position, lane: usize) -> Position {
        let m = self.pits();
        let (mut board, sowing) = self.sowing.sow(pos.board, lane);
        let mut store = pos.stores[0] + sowing.store;
        if sowing.last == LAST_IN_STORE {
            return Position {
                board,
                stores: [store, pos.stores[1]],
                to_move: pos.to_move,
            };
        }
        let last = usize::from(sowing.last);
        if last < m && board.pit(last) == 1 {
            let opposite = 2 * m - 1 - last;
            let taken = board.pit(opposite);
            if taken > 0 || self.capture == Capture::Empty {
                store += 1 + taken;
                board = board.cleared(last).cleared(opposite);
            }
        }
        Position {
            board,
            stores: [store, pos.stores[1]],
            to_move: pos.to_move,
        }
        .passed(m)
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let m = self.pits();
        let (own, opp) = (pos.board.mover_seeds(m), pos.board.opponent_seeds(m));
        if own != 0 && opp != 0 {
            return None;
        }
        let stores = match self.sweep {
            Sweep::Owner => pos.swept_to_owners(m),
            Sweep::Emptied => {
                let (mover, opponent) = (u32::from(pos.stores[0]), u32::from(pos.stores[1]));
                if own == 0 {
                    [mover + opp, opponent]
                } else {
                    [mover, opponent + own]
                }
            }
        };
        Some(Outcome {
            end: End::Finished,
            stores,
        })
    }

    fn sow_table(&self) -> &SowTable {
        &self.sowing
    }
}
