//! Oware(m,n): sowing that skips the origin, captures of 2s and 3s going back on the opponent's
//! side, and the two rule sets for a move that would leave the opponent without seeds.
//!
//! Rules: Japanese Wikipedia ("Mancala", section Oware), a Japanese blog post of worked examples,
//! Romein & Bal (2002); `docs/rules/oware.md`, `docs/references.md`.

use crate::board::{Board, lanes_mask, nonzero_bytes};
use crate::pits::{AnyPits, ConstPits, PitCount};
use crate::position::Position;
use crate::rules::{End, MoveSet, Outcome, Rules};
use crate::sowing::{Ring, SowTable};

/// The rule set for starving the opponent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum OwareRules {
    /// Japanese Wikipedia and the blog post: a grand slam captures nothing; you must feed an
    /// opponent without seeds if you can, and if you cannot the game ends and you take the seeds
    /// on your side.
    Abapa,
    /// Romein & Bal: a move that leaves the opponent without seeds is legal only if every move
    /// does; it is then played in full. A player to move without seeds loses the rest.
    Awari,
}

/// The rules of Oware with `m` pits a side: `P` says how `m` is known, at run time (the
/// default, [`AnyPits`]) or as a constant ([`Oware::with_const_pits`]; see [`crate::pits`]).
#[derive(Clone, Debug)]
pub struct Oware<P: PitCount = AnyPits> {
    pits: P,
    rules: OwareRules,
    majority_ends: bool,
    sowing: SowTable,
}

impl Oware {
    /// Rules for play: the game also ends when a player holds more than half of all seeds.
    ///
    /// # Panics
    /// If `pits` is not in `1..=8`.
    #[must_use]
    pub fn new(pits: usize, rules: OwareRules) -> Oware {
        let ring = Ring {
            pits,
            through_store: false,
            skip_origin: true,
        };
        Oware {
            pits: AnyPits(pits),
            rules,
            majority_ends: true,
            sowing: SowTable::new(ring),
        }
    }

    /// The same rules played to the last seed, as tables and the solver see them: holding a
    /// majority does not end the game, so values are the full net score.
    #[must_use]
    pub fn played_out(mut self) -> Oware {
        self.majority_ends = false;
        self
    }

    /// The same rules with `M` pits a side a constant, if the board has `M` pits: a builder
    /// over them is compiled for that board alone (faster; see [`crate::pits`]).
    #[must_use]
    pub fn with_const_pits<const M: usize>(&self) -> Option<Oware<ConstPits<M>>> {
        (self.pits.get() == M).then(|| Oware {
            pits: ConstPits,
            rules: self.rules,
            majority_ends: self.majority_ends,
            sowing: self.sowing.clone(),
        })
    }
}

impl<P: PitCount> Oware<P> {
    fn has_majority(&self, pos: &Position) -> bool {
        let total = pos.total_seeds(self.pits.get());
        2 * u32::from(pos.stores[0].max(pos.stores[1])) > total
    }
}

impl<P: PitCount> Rules for Oware<P> {
    #[inline(always)]
    fn pits(&self) -> usize {
        self.pits.get()
    }

    #[inline]
    fn legal_moves(&self, pos: &Position) -> MoveSet {
        let m = self.pits();
        let own = pos.board.mover_lanes(m);
        if own == 0 || (self.majority_ends && self.has_majority(pos)) {
            return MoveSet::EMPTY;
        }
        let candidates = MoveSet(nonzero_bytes(own));
        match self.rules {
            OwareRules::Abapa if pos.board.opponent_lanes(m) == 0 => {
                candidates.filter(|lane| lane + usize::from(pos.board.pit(lane)) >= m)
            }
            OwareRules::Abapa => candidates,
            // Sowing only adds to the opponent's row, and a capture takes pits of 2 or 3: an
            // opponent holding more than 3m seeds cannot be left without any.
            OwareRules::Awari if pos.board.opponent_seeds(m) > 3 * m as u32 => candidates,
            OwareRules::Awari => {
                // After the move the opponent is the mover of the new position.
                let feeding =
                    candidates.filter(|lane| self.play(pos, lane).board.mover_lanes(m) != 0);
                if feeding.is_empty() {
                    candidates
                } else {
                    feeding
                }
            }
        }
    }

    #[inline]
    fn is_legal(&self, pos: &Position, lane: usize) -> bool {
        let m = self.pits();
        let seeds = usize::from(pos.board.pit(lane));
        if lane >= m || seeds == 0 || (self.majority_ends && self.has_majority(pos)) {
            return false;
        }
        let opponent_seeds = pos.board.opponent_seeds(m);
        match self.rules {
            OwareRules::Abapa => opponent_seeds > 0 || lane + seeds >= m,
            OwareRules::Awari if opponent_seeds > 3 * m as u32 => true,
            // A move that leaves the opponent seeds is legal; one that starves them only if all do.
            OwareRules::Awari => {
                self.play(pos, lane).board.mover_lanes(m) != 0
                    || self.legal_moves(pos).contains(lane)
            }
        }
    }

    /// An awari move that leaves the opponent seeds is legal whatever the others do: the move
    /// is played once, and the others only when it starves the opponent.
    #[inline]
    fn play_if_legal(&self, pos: &Position, lane: usize) -> Option<Position> {
        let m = self.pits();
        if lane >= m || pos.board.pit(lane) == 0 {
            return None;
        }
        if self.rules == OwareRules::Awari && !(self.majority_ends && self.has_majority(pos)) {
            let after = self.play(pos, lane);
            return (after.board.mover_lanes(m) != 0 || self.legal_moves(pos).contains(lane))
                .then_some(after);
        }
        self.is_legal(pos, lane).then(|| self.play(pos, lane))
    }

    /// A last seed in the mover's row, or in an opponent's pit that does not end with 2 or 3,
    /// captures nothing; legality then needs no other move unless the sowing starves the
    /// opponent (awari).
    #[inline]
    fn quiet_sowing(&self, pos: &Position, lane: usize, sown: Board, last: usize) -> Option<bool> {
        let m = self.pits();
        if last >= m && matches!(sown.pit(last), 2 | 3) {
            return None; // a capture, or a grand slam: play it
        }
        match self.rules {
            OwareRules::Abapa => Some(self.is_legal(pos, lane)),
            OwareRules::Awari if self.majority_ends && self.has_majority(pos) => Some(false),
            OwareRules::Awari if lane >= m || pos.board.pit(lane) == 0 => Some(false),
            OwareRules::Awari if sown.opponent_lanes(m) != 0 => Some(true),
            OwareRules::Awari => None,
        }
    }

    #[inline]
    fn play(&self, pos: &Position, lane: usize) -> Position {
        let m = self.pits();
        let (mut board, sowing) = self.sowing.sow(pos.board, lane);
        let mut store = pos.stores[0];
        let mut taken_lanes = 0u128;
        let mut taken = 0u8;
        let mut j = usize::from(sowing.last);
        while j >= m && matches!(board.pit(j), 2 | 3) {
            taken_lanes |= 0xff << (8 * j);
            taken += board.pit(j);
            j -= 1;
        }
        let opponent_lanes = lanes_mask(2 * m) & !lanes_mask(m);
        let grand_slam = board.0 & opponent_lanes & !taken_lanes == 0;
        if taken > 0 && !(grand_slam && self.rules == OwareRules::Abapa) {
            board.0 &= !taken_lanes;
            store += taken;
        }
        Position {
            board,
            stores: [store, pos.stores[1]],
            to_move: pos.to_move,
        }
        .passed(m)
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        if self.majority_ends && self.has_majority(pos) {
            return Some(Outcome {
                end: End::Majority,
                stores: pos.stores.map(u32::from),
            });
        }
        if !self.legal_moves(pos).is_empty() {
            return None;
        }
        // One side is empty or cannot be fed: each player takes what is on their side.
        Some(Outcome {
            end: End::Finished,
            stores: pos.swept_to_owners(self.pits()),
        })
    }

    fn sow_table(&self) -> &SowTable {
        &self.sowing
    }
}
