//! A Kalah/Oware position from numbers a caller gives ([`Counts`]: the seeds of each pit, the
//! stores, the side to move), checked once against what the packed board holds.
//!
//! Every front end that takes a position as numbers (Python's lists and numpy rows, the
//! OpenSpiel bridge) builds it with [`Counts::position`]: 1 to 8 pits a side, both sides alike,
//! the pits a side the caller expects, a side to move that is one, and at most 255 seeds in all,
//! pits and stores together (so a pit or a store never holds more). Written positions take the
//! same limits from the notation's parser (`granary_rules::notation`); a test holds the two to
//! the same verdicts.

use granary_rules::board::{MAX_PITS, MAX_SEEDS};
use granary_rules::{Position, Side};

pub use crate::error::CountsError;

/// A position as counts: South's pits and North's (each from its owner's first pit), the stores
/// and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts<'a> {
    pub south: &'a [u64],
    pub north: &'a [u64],
    /// South's store, then North's.
    pub stores: [u64; 2],
    /// 0 for South, 1 for North (as numpy rows and OpenSpiel's players number them).
    pub to_move: u64,
}

impl Counts<'_> {
    /// The packed position and its pits a side; with `pits`, the position must have that many.
    ///
    /// # Errors
    /// A [`CountsError`] naming the first thing wrong: uneven sides, a pit count outside 1 to 8
    /// or other than `pits`, a side to move other than 0 or 1, a pit or store beyond what the
    /// packed board holds, or more seeds in all.
    pub fn position(&self, pits: Option<usize>) -> Result<(Position, usize), CountsError> {
        let (south, north) = (self.south, self.north);
        if south.len() != north.len() {
            return Err(CountsError::Uneven {
                south: south.len(),
                north: north.len(),
            });
        }
        let m = south.len();
        if !(1..=MAX_PITS).contains(&m) {
            return Err(CountsError::Pits(m));
        }
        if let Some(expected) = pits.filter(|&p| p != m) {
            return Err(CountsError::WrongPits { found: m, expected });
        }
        let to_move = match self.to_move {
            0 => Side::South,
            1 => Side::North,
            other => return Err(CountsError::ToMove(other)),
        };
        let limit = u64::from(MAX_SEEDS);
        for (side, pits) in [(Side::South, south), (Side::North, north)] {
            if let Some((i, &seeds)) = pits.iter().enumerate().find(|&(_, &s)| s > limit) {
                return Err(CountsError::Pit {
                    side,
                    pit: i + 1,
                    seeds,
                });
            }
        }
        for (side, seeds) in [Side::South, Side::North].into_iter().zip(self.stores) {
            if seeds > limit {
                return Err(CountsError::Store { side, seeds });
            }
        }
        // Each count is at most 255 here, so the sum of at most 18 cannot overflow.
        let total: u64 = south.iter().chain(north).chain(&self.stores).sum();
        if total > limit {
            return Err(CountsError::TooManySeeds(total));
        }
        // Every count fits a byte (checked above).
        let bytes = |v: &[u64]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
        let stores = [self.stores[0] as u8, self.stores[1] as u8];
        Ok((
            Position::from_sides(&bytes(south), &bytes(north), stores, to_move),
            m,
        ))
    }
}

#[cfg(test)]
mod tests {
    use granary_rules::notation::{format_position, parse_position};

    use super::*;

    fn counts<'a>(
        south: &'a [u64],
        north: &'a [u64],
        stores: [u64; 2],
        to_move: u64,
    ) -> Counts<'a> {
        Counts {
            south,
            north,
            stores,
            to_move,
        }
    }

    #[test]
    fn a_position_within_the_limits_is_the_one_its_notation_writes() {
        let (pos, m) = counts(&[1, 0, 2, 0], &[0, 3, 0, 1], [5, 2], 1)
            .position(Some(4))
            .unwrap();
        assert_eq!(m, 4);
        assert_eq!(format_position(&pos, 4), "1,0,2,0/0,3,0,1 5-2 N");
        // 255 seeds in all, one pit holding all but one: the most the board holds.
        let (pos, _) = counts(&[254], &[0], [1, 0], 0).position(None).unwrap();
        assert_eq!(format_position(&pos, 1), "254/0 1-0 S");
    }

    #[test]
    fn each_limit_is_named_in_one_line() {
        let eight = [0u64; 8];
        let nine = [0u64; 9];
        let cases: [(Counts<'_>, Option<usize>, &str); 9] = [
            (
                counts(&[1, 2], &[3], [0, 0], 0),
                None,
                "position: South has 2 pits and North 1; both sides need the same number",
            ),
            (
                counts(&nine, &nine, [0, 0], 0),
                None,
                "position has 9 pits a side; a side has 1 to 8 pits",
            ),
            (
                counts(&[], &[], [0, 0], 0),
                None,
                "position has 0 pits a side; a side has 1 to 8 pits",
            ),
            (
                counts(&eight, &eight, [0, 0], 0),
                Some(6),
                "position has 8 pits a side but pits is 6",
            ),
            (
                counts(&[1], &[1], [0, 0], 2),
                None,
                "position: side to move 2 must be 0 (South) or 1 (North)",
            ),
            (
                counts(&[1, 1_000_000], &[0, 0], [0, 0], 0),
                None,
                "position: South's pit 2 holds 1000000 seeds; the packed encoding holds at most 255 in all",
            ),
            (
                counts(&[0], &[u64::MAX], [0, 0], 0),
                None,
                "position: North's pit 1 holds 18446744073709551615 seeds; the packed encoding holds at most 255 in all",
            ),
            (
                counts(&[0], &[0], [0, 256], 0),
                None,
                "position: North's store holds 256 seeds; the packed encoding holds at most 255 in all",
            ),
            (
                // Each pit fits a byte, the sum does not (a byte sum would wrap to 44).
                counts(&[100, 100, 100, 0, 0, 0], &[0; 6], [0, 0], 0),
                None,
                "position holds 300 seeds; the packed encoding holds at most 255",
            ),
        ];
        for (c, pits, message) in cases {
            assert_eq!(c.position(pits).unwrap_err().to_string(), message, "{c:?}");
        }
    }

    /// Counts and the notation's parser accept and refuse the same positions, and build the
    /// same position where they accept.
    #[test]
    fn counts_and_the_notation_agree() {
        let rows: [(&[u64], &[u64], [u64; 2]); 8] = [
            (&[4, 4, 4], &[4, 4, 4], [0, 0]),
            (&[255], &[0], [0, 0]),
            (&[200, 55], &[0, 0], [0, 0]),
            (&[200, 55], &[0, 1], [0, 0]),
            (&[200, 50], &[0, 0], [5, 1]),
            (&[100, 100, 100, 0], &[0, 0, 0, 0], [0, 0]),
            (&[256], &[0], [0, 0]),
            (&[0; 8], &[0; 8], [255, 0]),
        ];
        let join = |v: &[u64]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        for (south, north, stores) in rows {
            for to_move in [0, 1] {
                let text = format!(
                    "{}/{} {}-{} {}",
                    join(south),
                    join(north),
                    stores[0],
                    stores[1],
                    [Side::South, Side::North][to_move as usize].letter()
                );
                let written = parse_position(&text, None).ok();
                let given = counts(south, north, stores, to_move).position(None).ok();
                assert_eq!(given, written, "{text}");
            }
        }
    }
}
