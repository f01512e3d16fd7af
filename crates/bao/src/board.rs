//! Pits, rows and sowing on one player's half of the Bao board.
//!
//! Each player owns two rows of eight pits: the front (inner) row next to the opponent and the
//! back (outer) row. Seeds never leave their owner's half by sowing: the 16 pits form a ring.
//! Names follow de Voogt and Donkers: South's front row is `A1..A8` and back row `B1..B8`,
//! numbered from the owner's left; North's are `a1..a8` and `b1..b8`, also from *North's* left.
//! Seen from South's seat:
//!
//! ```text
//!   b8 b7 b6 b5 b4 b3 b2 b1     North's back row
//!   a8 a7 a6 a5 a4 a3 a2 a1     North's front row      nyumba a5, kichwa a1 and a8
//!   ---------------------------
//!   A1 A2 A3 A4 A5 A6 A7 A8     South's front row      nyumba A5, kichwa A1 and A8
//!   B1 B2 B3 B4 B5 B6 B7 B8     South's back row
//! ```
//!
//! Inside the engine a pit is its **ring index** `0..16` on its owner's half, the same for both
//! players:
//!
//! ```text
//!   ring  0  1  2  3  4  5  6  7 | 8  9 10 11 12 13 14 15
//!   pit  A1 A2 A3 A4 A5 A6 A7 A8 |B8 B7 B6 B5 B4 B3 B2 B1
//! ```
//!
//! so that ring `r + 1` is the next pit **clockwise** (along the front row to the owner's right,
//! along the back row to the left) and `r - 1` anticlockwise. The front pit `r` (`0..8`) faces the
//! opponent's front pit `7 - r`: A1 faces a8, A5 faces a4.

/// Pits on one player's half.
pub const RING: usize = 16;
/// Pits in a row.
pub const ROW: usize = 8;
/// Ring index of the nyumba (A5 / a5), the fifth front pit from the owner's left.
pub const NYUMBA: u8 = 4;
/// Ring index of the left kichwa (A1); sowing from it goes clockwise.
pub const LEFT_KICHWA: u8 = 0;
/// Ring index of the right kichwa (A8); sowing from it goes anticlockwise.
pub const RIGHT_KICHWA: u8 = 7;

/// A sowing direction on the owner's ring.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// Ring index up: along the front row to the owner's right.
    Clockwise,
    /// Ring index down: along the front row to the owner's left.
    Anticlockwise,
}

impl Dir {
    /// Both directions.
    pub const BOTH: [Dir; 2] = [Dir::Clockwise, Dir::Anticlockwise];

    /// The pit after `pit` in this direction.
    #[must_use]
    pub const fn step(self, pit: u8) -> u8 {
        match self {
            Dir::Clockwise => (pit + 1) % RING as u8,
            Dir::Anticlockwise => (pit + RING as u8 - 1) % RING as u8,
        }
    }

    /// The pit `n` steps after `pit`.
    #[must_use]
    pub const fn advance(self, pit: u8, n: usize) -> u8 {
        let n = (n % RING) as u8;
        match self {
            Dir::Clockwise => (pit + n) % RING as u8,
            Dir::Anticlockwise => (pit + RING as u8 - n) % RING as u8,
        }
    }
}

/// True for the front (inner) row.
#[must_use]
pub const fn is_front(pit: u8) -> bool {
    pit < ROW as u8
}

/// The opponent's front pit facing front pit `pit`.
#[must_use]
pub const fn opposite(pit: u8) -> u8 {
    ROW as u8 - 1 - pit
}

/// True for a kimbi: a kichwa or the pit next to it (A1, A2, A7, A8).
#[must_use]
pub const fn is_kimbi(pit: u8) -> bool {
    matches!(pit, 0 | 1 | 6 | 7)
}

/// Sows `seeds` seeds one a pit, the first into `first`, onward in `dir` (the origin is not
/// skipped on later laps). Returns the pit of the last seed; `seeds` must be at least 1.
pub fn sow(ring: &mut [u8; RING], first: u8, dir: Dir, seeds: u8) -> u8 {
    debug_assert!(seeds > 0);
    let mut pit = first;
    ring[usize::from(pit)] += 1;
    for _ in 1..seeds {
        pit = dir.step(pit);
        ring[usize::from(pit)] += 1;
    }
    pit
}

/// A player's half packed into one `u128`, ring pit `r` in byte `r` (little end first): a relay
/// step is a subtraction and one table add, and a state compares as one integer. Long takasa
/// relays (millions of sowings before they end or repeat, in Bao la kujifunza) need this.
pub type Packed = u128;

/// Packs a half.
#[must_use]
pub fn pack(ring: &[u8; RING]) -> Packed {
    u128::from_le_bytes(*ring)
}

/// Unpacks a half.
#[must_use]
pub fn unpack(packed: Packed) -> [u8; RING] {
    packed.to_le_bytes()
}

/// The seeds in ring pit `pit`.
#[must_use]
pub const fn seeds_at(packed: Packed, pit: u8) -> u8 {
    (packed >> (8 * pit)) as u8
}

/// `SOWN[dir][first][n]`: one seed into each of `n < 16` pits from `first` on in `dir`.
static SOWN: [[[Packed; RING]; RING]; 2] = sown_table();

const fn sown_table() -> [[[Packed; RING]; RING]; 2] {
    let mut table = [[[0; RING]; RING]; 2];
    let mut d = 0;
    while d < 2 {
        let dir = if d == 0 {
            Dir::Clockwise
        } else {
            Dir::Anticlockwise
        };
        let mut first = 0;
        while first < RING {
            let mut n = 1;
            while n < RING {
                let last = dir.advance(first as u8, n - 1);
                table[d][first][n] = table[d][first][n - 1] | 1 << (8 * last as u32);
                n += 1;
            }
            first += 1;
        }
        d += 1;
    }
    table
}

/// One in every pit.
const EVERY_PIT: Packed = u128::from_le_bytes([1; RING]);

/// [`sow`] on a packed half: returns the half and the pit of the last seed (`seeds >= 1`).
#[must_use]
pub fn sow_packed(packed: Packed, first: u8, dir: Dir, seeds: u8) -> (Packed, u8) {
    debug_assert!(seeds > 0);
    let laps = Packed::from(seeds / RING as u8);
    let rest = usize::from(seeds) % RING;
    let d = usize::from(dir == Dir::Anticlockwise);
    let sown = packed + laps * EVERY_PIT + SOWN[d][usize::from(first)][rest];
    (sown, dir.advance(first, usize::from(seeds) - 1))
}

/// A relay step on a packed half: lifts every seed of `pit` and sows them from the next pit.
#[must_use]
pub fn relay_packed(packed: Packed, pit: u8, dir: Dir) -> (Packed, u8) {
    let seeds = seeds_at(packed, pit);
    let lifted = packed & !(0xff << (8 * pit));
    sow_packed(lifted, dir.step(pit), dir, seeds)
}

/// The name of ring pit `pit` of South (`A1`..`B8`) or North (`a1`..`b8`).
#[must_use]
pub fn pit_name(pit: u8, north: bool) -> String {
    let (row, number) = if is_front(pit) {
        ('A', pit + 1)
    } else {
        ('B', RING as u8 - pit)
    };
    let row = if north { row.to_ascii_lowercase() } else { row };
    format!("{row}{number}")
}

/// The ring pit named `A1`..`B8` / `a1`..`b8`, and whether it is North's (lower case).
#[must_use]
pub fn parse_pit_name(name: &str) -> Option<(u8, bool)> {
    let mut chars = name.chars();
    let row = chars.next()?;
    let number: u8 = chars.as_str().parse().ok()?;
    if !(1..=ROW as u8).contains(&number) {
        return None;
    }
    let pit = match row.to_ascii_uppercase() {
        'A' => number - 1,
        'B' => RING as u8 - number,
        _ => return None,
    };
    Some((pit, row.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_the_drawing() {
        for pit in 0..RING as u8 {
            for north in [false, true] {
                assert_eq!(parse_pit_name(&pit_name(pit, north)), Some((pit, north)));
            }
        }
        assert_eq!(pit_name(0, false), "A1");
        assert_eq!(pit_name(7, false), "A8");
        assert_eq!(pit_name(8, false), "B8");
        assert_eq!(pit_name(15, true), "b1");
        assert_eq!(parse_pit_name("C1"), None);
        assert_eq!(parse_pit_name("A9"), None);
        assert_eq!(parse_pit_name("A0"), None);
    }

    #[test]
    fn clockwise_runs_along_the_front_row_to_the_right_then_back_along_the_back_row() {
        // A8 -> B8 (ring 7 -> 8) and B1 -> A1 (ring 15 -> 0).
        assert_eq!(Dir::Clockwise.step(7), 8);
        assert_eq!(Dir::Clockwise.step(15), 0);
        assert_eq!(Dir::Anticlockwise.step(0), 15);
        assert_eq!(Dir::Clockwise.advance(14, 9), 7);
        assert_eq!(Dir::Anticlockwise.advance(14, 9), 5);
        assert_eq!(opposite(0), 7);
        assert_eq!(opposite(NYUMBA), 3);
    }

    #[test]
    fn packed_sowing_is_sowing() {
        let mut ring = [3, 0, 1, 5, 0, 0, 2, 9, 0, 1, 0, 0, 4, 0, 0, 17];
        for (pit, dir) in [
            (15, Dir::Clockwise),
            (7, Dir::Anticlockwise),
            (3, Dir::Clockwise),
            (0, Dir::Anticlockwise),
        ] {
            let (packed, at) = relay_packed(pack(&ring), pit, dir);
            let seeds = std::mem::take(&mut ring[usize::from(pit)]);
            let last = sow(&mut ring, dir.step(pit), dir, seeds);
            assert_eq!((unpack(packed), at), (ring, last));
        }
    }

    #[test]
    fn sowing_laps_the_ring_without_skipping_the_origin() {
        let mut ring = [0; RING];
        assert_eq!(sow(&mut ring, 3, Dir::Anticlockwise, 18), 2);
        assert_eq!(ring.iter().map(|&s| u32::from(s)).sum::<u32>(), 18);
        assert_eq!((ring[3], ring[2], ring[1]), (2, 2, 1));
    }
}
