//! Sowing, shared by every two-row mancala: a table-driven SWAR add, no loop per seed.
//!
//! A game's sowing path is a [`Ring`]: the mover's lanes `0..m`, optionally the mover's store, then
//! the opponent's lanes `m..2m`, and round again. Sowing `k` seeds from lane `i` empties lane `i` and
//! drops one seed in each of the next `k` places of the ring, skipping the origin if the game says
//! so (Oware). Because the result depends only on `(i, k)`, [`SowTable`] precomputes, for every origin
//! and every count up to [`MAX_SEEDS`], the `u128` of lane increments, the seeds added to the store and
//! the place of the last seed. Sowing is then `board.cleared(i) + add`, whatever the number of laps:
//! one addition of `delta`, which is `add` less the `k` seeds of lane `i` (the lane holds exactly
//! them, so the subtraction borrows from no other lane). Un-sowing is the subtraction of `delta`.
//! Both formulas live in [`Sowing::apply`] and [`Sowing::undo`]; `add` and `delta` are private.
//!
//! The table is built by dropping seeds one at a time, the obviously-correct way.

use crate::board::{Board, MAX_PITS, MAX_SEEDS};

/// Where a seed can land on the mover's sowing path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// A board lane (see [`crate::board`]).
    Lane(usize),
    /// The mover's store.
    Store,
}

/// The sowing path of a game with `m` pits a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ring {
    /// Pits a side.
    pub pits: usize,
    /// Whether the mover's store lies between the mover's last pit and the opponent's first.
    pub through_store: bool,
    /// Whether the origin pit is skipped when the sowing comes round to it.
    pub skip_origin: bool,
}

impl Ring {
    /// The place after `place` on the path, ignoring the origin rule.
    fn next(self, place: Place) -> Place {
        let m = self.pits;
        match place {
            Place::Store => Place::Lane(m),
            Place::Lane(lane) if lane + 1 == m && self.through_store => Place::Store,
            Place::Lane(lane) => Place::Lane((lane + 1) % (2 * m)),
        }
    }
}

/// What sowing `k` seeds from one lane does, precomputed: [`Sowing::apply`] sows, [`Sowing::undo`]
/// takes a sowing back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(16))]
pub struct Sowing {
    /// Added to the board after the origin lane is emptied.
    add: u128,
    /// `add` less the origin's seeds at the origin's lane (wrapping, as one integer): a board
    /// holding exactly those seeds there plus `delta` is the board after the sowing, and the
    /// board after it less `delta` the board before (the module documentation).
    delta: u128,
    /// Seeds added to the mover's store.
    pub store: u8,
    /// The place of the last seed; [`LAST_IN_STORE`] for the store. Meaningless for `k = 0`.
    pub last: u8,
    /// The origin lane and the seeds it holds before the sowing (checked under debug
    /// assertions).
    origin: u8,
    count: u8,
}

impl Sowing {
    /// The board after this sowing from `before`, whose origin lane holds the seeds sown: the
    /// origin emptied and a seed dropped in each place sown, in one addition.
    #[inline]
    #[must_use]
    pub fn apply(&self, before: Board) -> Board {
        debug_assert_eq!(
            before.pit(usize::from(self.origin)),
            self.count,
            "the origin holds the seeds sown"
        );
        Board(before.0.wrapping_add(self.delta))
    }

    /// The board before this sowing, if it left `after`: `None` unless every lane of `after`
    /// holds at least the seeds this sowing dropped there (a lane of fewer than 128 seeds
    /// each), else the seeds dropped taken back and the origin's put back, in one subtraction.
    /// The origin lane of `after` must be empty for the board to be one the sowing leaves.
    #[inline]
    #[must_use]
    pub fn undo(&self, after: Board) -> Option<Board> {
        /// The high bit of every lane: no borrow crosses a lane of fewer than 128 seeds.
        const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
        let covers = (after.0 | HIGH).wrapping_sub(self.add) & HIGH == HIGH;
        covers.then(|| Board(after.0.wrapping_sub(self.delta)))
    }
}

/// [`Sowing::last`] when the last seed lands in the store.
pub const LAST_IN_STORE: u8 = 0xff;

/// Every sowing of a ring, indexed by origin lane and seed count.
#[derive(Clone, Debug)]
pub struct SowTable {
    entries: Vec<Sowing>,
}

const COUNTS: usize = MAX_SEEDS as usize + 1;

impl SowTable {
    /// Builds the table of a ring by sowing one seed at a time.
    ///
    /// # Panics
    /// If the ring has no pits or more than [`MAX_PITS`].
    #[must_use]
    pub fn new(ring: Ring) -> SowTable {
        assert!((1..=MAX_PITS).contains(&ring.pits));
        // Built once a ring per process (about 0.2 ms), then copied (96 KiB at most): rules are
        // made for every request of a server and every call of `show`.
        static BUILT: [std::sync::OnceLock<Vec<Sowing>>; 4 * MAX_PITS] =
            [const { std::sync::OnceLock::new() }; 4 * MAX_PITS];
        let slot = 4 * (ring.pits - 1)
            + 2 * usize::from(ring.through_store)
            + usize::from(ring.skip_origin);
        let entries = BUILT[slot].get_or_init(|| {
            let mut entries = Vec::with_capacity(ring.pits * COUNTS);
            for origin in 0..ring.pits {
                for count in 0..COUNTS {
                    entries.push(Self::sow_slowly(ring, origin, count));
                }
            }
            entries
        });
        SowTable {
            entries: entries.clone(),
        }
    }

    fn sow_slowly(ring: Ring, origin: usize, count: usize) -> Sowing {
        let mut lanes = [0u32; 2 * MAX_PITS];
        let mut store = 0u32;
        let mut place = Place::Lane(origin);
        for _ in 0..count {
            place = ring.next(place);
            if ring.skip_origin && place == Place::Lane(origin) {
                place = ring.next(place);
            }
            match place {
                Place::Lane(lane) => lanes[lane] += 1,
                Place::Store => store += 1,
            }
        }
        let add = lanes
            .iter()
            .enumerate()
            .map(|(lane, &n)| u128::from(n) << (8 * lane))
            .sum();
        let origin_seeds =
            u128::from(u8::try_from(count).expect("at most MAX_SEEDS seeds")) << (8 * origin);
        Sowing {
            add,
            delta: add.wrapping_sub(origin_seeds),
            store: u8::try_from(store).expect("at most MAX_SEEDS seeds"),
            last: match place {
                Place::Lane(lane) => lane as u8,
                Place::Store => LAST_IN_STORE,
            },
            origin: origin as u8,
            count: count as u8,
        }
    }

    /// What sowing lane `origin` does when it holds `count` seeds.
    #[inline]
    #[must_use]
    pub fn get(&self, origin: usize, count: u8) -> &Sowing {
        &self.entries[origin * COUNTS + usize::from(count)]
    }

    /// Sows lane `origin` of `board`: the new board and the entry (store seeds, last place).
    #[inline]
    #[must_use]
    pub fn sow(&self, board: Board, origin: usize) -> (Board, &Sowing) {
        let sowing = self.get(origin, board.pit(origin));
        (sowing.apply(board), sowing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWARE: Ring = Ring {
        pits: 6,
        through_store: false,
        skip_origin: true,
    };
    const KALAH: Ring = Ring {
        pits: 6,
        through_store: true,
        skip_origin: false,
    };

    #[test]
    fn oware_sowing_311112_gives_022212() {
        // The Japanese Oware blog post: own pits "311112", sowing the 3 gives "022212".
        let table = SowTable::new(OWARE);
        let board = Board::from_sides(&[3, 1, 1, 1, 1, 2], &[0; 6]);
        let (after, sowing) = table.sow(board, 0);
        assert_eq!(after.to_vec(6)[..6], [0, 2, 2, 2, 1, 2]);
        assert_eq!(sowing.last, 3);
    }

    #[test]
    fn oware_skips_the_origin_on_a_full_lap() {
        let table = SowTable::new(OWARE);
        let board = Board::from_sides(&[0, 12, 0, 0, 0, 0], &[0; 6]);
        let (after, sowing) = table.sow(board, 1);
        // 11 seeds go once round the other pits, the 12th to lane 2.
        assert_eq!(after.to_vec(6), [1, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(sowing.last, 2);
    }

    #[test]
    fn a_sowing_is_the_origin_cleared_plus_add_and_delta_undoes_it() {
        // Every origin and count of both rings, over a board whose other lanes hold 0 to 11.
        for ring in [OWARE, KALAH] {
            let table = SowTable::new(ring);
            for origin in 0..ring.pits {
                for count in 0..=MAX_SEEDS as u8 - 66 {
                    let mut lanes: Vec<u8> = (0..12).map(|lane| (lane * 7 % 12) as u8).collect();
                    lanes[origin] = count;
                    let board = Board::from_sides(&lanes[..6], &lanes[6..]);
                    let (after, sowing) = table.sow(board, origin);
                    assert_eq!(after.0, board.cleared(origin).0 + sowing.add);
                    assert_eq!(sowing.undo(after), Some(board));
                    // A lane holding one seed fewer than were sown into it: no board before.
                    for lane in 0..12 {
                        let sown = (sowing.add >> (8 * lane)) as u8;
                        if sown > 0 {
                            let short = u128::from(after.pit(lane) - sown + 1) << (8 * lane);
                            assert_eq!(sowing.undo(Board(after.0 - short)), None);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn kalah_sows_into_own_store_and_refills_origin() {
        let table = SowTable::new(KALAH);
        let board = Board::from_sides(&[0, 0, 13, 0, 0, 0], &[0; 6]);
        let (after, sowing) = table.sow(board, 2);
        // 13 seeds: one in every pit and the store, the last back in the origin.
        assert_eq!(after.to_vec(6), [1; 12]);
        assert_eq!((sowing.store, sowing.last), (1, 2));
        let board = Board::from_sides(&[4, 4, 4, 4, 4, 4], &[4; 6]);
        let (_, sowing) = table.sow(board, 2);
        assert_eq!((sowing.store, sowing.last), (1, LAST_IN_STORE));
    }
}
