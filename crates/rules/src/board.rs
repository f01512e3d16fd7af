//! The packed board: every pit a byte lane of one `u128`, seen from the player to move.
//!
//! ```text
//!  bits   0..8   8..16  ...  8(m-1)..8m | 8m..8m+8  ...  8(2m-1)..16m | 16m..128
//!  lane   0      1      ...  m-1        | m         ...  2m-1         | 2m..15
//!  pit    mover's pits 1..m             | opponent's pits 1..m        | always 0
//!         in sowing order               | in sowing order             |
//! ```
//!
//! Sowing runs from lane `i` to lane `i + 1` and from lane `2m - 1` back to lane 0: counter-clockwise
//! on the board (stores are not lanes; see [`crate::sowing`]). The pit opposite the mover's lane `j`
//! is lane `2m - 1 - j`: the mover's first pit faces the opponent's last.
//!
//! A lane never overflows because a position holds at most [`MAX_SEEDS`] seeds in all, so every
//! sum of lanes also fits in a byte. The encoding is stable: tables and tests rely on it.

/// The most seeds a position may hold (board and stores together): one byte holds any pit or store.
pub const MAX_SEEDS: u32 = 255;

/// The most pits a side may have: two sides of 8 byte lanes fill the `u128`.
pub const MAX_PITS: usize = 8;

/// The pits of both sides as byte lanes, mover first. See the module documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Board(pub u128);

/// A mask of the low `lanes` byte lanes.
#[must_use]
pub const fn lanes_mask(lanes: usize) -> u128 {
    if lanes >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * lanes)) - 1
    }
}

/// One seed in each of the low `lanes` byte lanes.
#[must_use]
pub const fn ones(lanes: usize) -> u128 {
    (u128::MAX / 0xff) & lanes_mask(lanes)
}

/// Sum of the bytes of `x`, valid while the sum fits in a byte (always, given [`MAX_SEEDS`]).
#[must_use]
pub const fn byte_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Bit `k` set for each non-zero byte `k` of `x`.
#[must_use]
pub const fn nonzero_bytes(x: u64) -> u8 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each byte is set iff the byte is non-zero.
    let high = (((x & LOW7) + LOW7) | x) & !LOW7;
    // Move the bit at 8k+7 to 56+k; no two products overlap, so no carries (see tests).
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// Builds a board from the mover's pits and the opponent's pits, each in sowing order.
    ///
    /// # Panics
    /// If a side has more than [`MAX_PITS`] pits or the sides differ in length.
    #[must_use]
    pub fn from_sides(mover: &[u8], opponent: &[u8]) -> Board {
        assert!(mover.len() == opponent.len() && mover.len() <= MAX_PITS);
        let m = mover.len();
        let mut x = 0u128;
        for (lane, &seeds) in mover.iter().chain(opponent).enumerate() {
            x |= u128::from(seeds) << (8 * lane);
        }
        debug_assert!(x & !lanes_mask(2 * m) == 0);
        Board(x)
    }

    /// Seeds in lane `lane`.
    #[inline]
    #[must_use]
    pub const fn pit(self, lane: usize) -> u8 {
        (self.0 >> (8 * lane)) as u8
    }

    /// The board with lane `lane` emptied.
    #[inline]
    #[must_use]
    pub const fn cleared(self, lane: usize) -> Board {
        Board(self.0 & !(0xffu128 << (8 * lane)))
    }

    /// The mover's lanes (the low `m`) as a `u64`.
    #[inline]
    #[must_use]
    pub const fn mover_lanes(self, m: usize) -> u64 {
        (self.0 & lanes_mask(m)) as u64
    }

    /// The opponent's lanes (`m..2m`) shifted down to the low `m` lanes.
    #[inline]
    #[must_use]
    pub const fn opponent_lanes(self, m: usize) -> u64 {
        (self.0 >> (8 * m)) as u64
    }

    /// Seeds on the mover's side.
    #[inline]
    #[must_use]
    pub const fn mover_seeds(self, m: usize) -> u32 {
        byte_sum(self.mover_lanes(m))
    }

    /// Seeds on the opponent's side.
    #[inline]
    #[must_use]
    pub const fn opponent_seeds(self, m: usize) -> u32 {
        byte_sum(self.opponent_lanes(m))
    }

    /// Seeds on the whole board.
    #[inline]
    #[must_use]
    pub const fn seeds(self, m: usize) -> u32 {
        // Summed by the two 64-bit halves of the board, not by sides: the opponent's lanes
        // straddle the halves (from byte `m`), and reading them from a board just returned
        // through memory (a played move's position) is a load the processor cannot forward from
        // the two stores that wrote it.
        let lanes = self.0 & lanes_mask(2 * m);
        byte_sum(lanes as u64) + byte_sum((lanes >> 64) as u64)
    }

    /// The same pits seen from the other player: the two halves swapped.
    #[inline]
    #[must_use]
    pub const fn flipped(self, m: usize) -> Board {
        let mover = self.0 & lanes_mask(m);
        Board((self.0 >> (8 * m)) | (mover << (8 * m)))
    }

    /// The pits of lanes `0..2m` as a vector, mover's first.
    #[must_use]
    pub fn to_vec(self, m: usize) -> Vec<u8> {
        (0..2 * m).map(|lane| self.pit(lane)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_bytes_matches_a_loop_on_all_zero_patterns() {
        for pattern in 0u32..256 {
            let mut x = 0u64;
            for k in 0..8 {
                if pattern & (1 << k) != 0 {
                    // Vary the byte value so that every bit position is exercised.
                    let v = ((pattern * 37 + k * 11) % 255 + 1) as u64;
                    x |= v << (8 * k);
                }
            }
            assert_eq!(u32::from(nonzero_bytes(x)), pattern, "x = {x:#x}");
        }
        assert_eq!(nonzero_bytes(u64::MAX), 0xff);
        assert_eq!(nonzero_bytes(0x8080_8080_8080_8080), 0xff);
    }

    #[test]
    fn byte_sum_and_flip() {
        let b = Board::from_sides(&[1, 2, 3, 0, 0, 9], &[4, 0, 0, 0, 0, 200]);
        assert_eq!(b.mover_seeds(6), 15);
        assert_eq!(b.opponent_seeds(6), 204);
        let f = b.flipped(6);
        assert_eq!(f.to_vec(6), vec![4, 0, 0, 0, 0, 200, 1, 2, 3, 0, 0, 9]);
        assert_eq!(f.flipped(6), b);
        let full = Board::from_sides(&[1; 8], &[2; 8]);
        assert_eq!(full.flipped(8).to_vec(8)[..2], [2, 2]);
        assert_eq!(full.seeds(8), 24);
    }

    #[test]
    fn seeds_by_halves_are_seeds_by_sides_for_every_width() {
        for m in 1..=MAX_PITS {
            let mover: Vec<u8> = (0..m).map(|j| (3 * j + 1) as u8).collect();
            let opponent: Vec<u8> = (0..m).map(|j| (5 * j + 2) as u8 % 7).collect();
            let b = Board::from_sides(&mover, &opponent);
            assert_eq!(b.seeds(m), b.mover_seeds(m) + b.opponent_seeds(m), "m {m}");
            assert_eq!(
                b.seeds(m),
                mover
                    .iter()
                    .chain(&opponent)
                    .map(|&v| u32::from(v))
                    .sum::<u32>()
            );
        }
    }
}
