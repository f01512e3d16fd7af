//! The position notation `S1,...,Sm/N1,...,Nm [SS-NS] [S|N]` (see `docs/notation.md`).
//!
//! South's pits from its first pit, a slash, North's pits from its first pit; then optionally the
//! stores, South's then North's, joined by `-` (default `0-0`), and the side to move (default `S`).
//! Example: `4,4,4,4,4,4/4,4,4,4,4,4 0-0 S`.

use crate::board::{MAX_PITS, MAX_SEEDS};
use crate::position::Position;
use crate::side::Side;

/// What is wrong with a written position. Each message names the field at fault.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum NotationError {
    #[error("position is empty")]
    Empty,
    #[error("position '{0}': expected South's pits, '/', North's pits (e.g. 4,4,4/4,4,4)")]
    NoSlash(String),
    #[error("position: {side}'s pit {pit} is '{text}', not a whole number of seeds")]
    NotANumber {
        side: Side,
        pit: usize,
        text: String,
    },
    #[error("position: South has {south} pits and North {north}; both sides need the same number")]
    Uneven { south: usize, north: usize },
    #[error("position has {found} pits a side but the variant has {expected} (--pits)")]
    WrongPits { found: usize, expected: usize },
    #[error("position has {0} pits a side; a side has 1 to {MAX_PITS} pits")]
    PitsOutOfRange(usize),
    #[error("position: stores '{0}' must be two whole numbers as SOUTH-NORTH, e.g. 0-0")]
    Stores(String),
    #[error("position: side to move '{0}' must be S or N")]
    ToMove(String),
    #[error("position: unexpected '{0}' after the side to move")]
    Trailing(String),
    #[error("position holds {0} seeds; the packed encoding holds at most {MAX_SEEDS}")]
    TooManySeeds(u64),
}

fn parse_side(text: &str, side: Side) -> Result<Vec<u64>, NotationError> {
    text.split(',')
        .enumerate()
        .map(|(i, field)| {
            let field = field.trim();
            field.parse::<u64>().map_err(|_| NotationError::NotANumber {
                side,
                pit: i + 1,
                text: field.to_string(),
            })
        })
        .collect()
}

/// Parses a position; returns it with its pits a side. With `pits`, the position must have that
/// many pits a side.
///
/// # Errors
/// A [`NotationError`] naming the first thing wrong.
pub fn parse_position(text: &str, pits: Option<usize>) -> Result<(Position, usize), NotationError> {
    let mut words = text.split_whitespace();
    let board = words.next().ok_or(NotationError::Empty)?;
    let (south, north) = board
        .split_once('/')
        .ok_or_else(|| NotationError::NoSlash(board.to_string()))?;
    let south = parse_side(south, Side::South)?;
    let north = parse_side(north, Side::North)?;
    if south.len() != north.len() {
        return Err(NotationError::Uneven {
            south: south.len(),
            north: north.len(),
        });
    }
    let m = south.len();
    if let Some(expected) = pits.filter(|&p| p != m) {
        return Err(NotationError::WrongPits { found: m, expected });
    }
    if m > MAX_PITS {
        return Err(NotationError::PitsOutOfRange(m));
    }
    let mut stores = [0u64; 2];
    let mut to_move = Side::South;
    let rest: Vec<&str> = words.collect();
    let mut rest = rest.as_slice();
    if let Some((first, tail)) = rest.split_first().filter(|(w, _)| w.contains('-')) {
        let parsed = first
            .split_once('-')
            .and_then(|(s, n)| Some([s.parse().ok()?, n.parse().ok()?]));
        stores = parsed.ok_or_else(|| NotationError::Stores(first.to_string()))?;
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first() {
        to_move = match *word {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            _ if word.chars().all(|c| c.is_ascii_digit()) => {
                return Err(NotationError::Stores(word.to_string()));
            }
            _ => return Err(NotationError::ToMove(word.to_string())),
        };
        rest = tail;
    }
    if let Some(word) = rest.first() {
        return Err(NotationError::Trailing(word.to_string()));
    }
    // Saturating: counts near u64::MAX must not wrap to a small total (found by fuzzing).
    let total = south
        .iter()
        .chain(&north)
        .chain(&stores)
        .fold(0u64, |a, &b| a.saturating_add(b));
    if total > u64::from(MAX_SEEDS) {
        return Err(NotationError::TooManySeeds(total));
    }
    // Every count is at most the total, so each fits in a byte.
    let bytes = |v: &[u64]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
    let position = Position::from_sides(
        &bytes(&south),
        &bytes(&north),
        [stores[0] as u8, stores[1] as u8],
        to_move,
    );
    Ok((position, m))
}

/// Writes a position in full notation.
#[must_use]
pub fn format_position(pos: &Position, m: usize) -> String {
    let join = |v: Vec<u8>| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let [s, n] = pos.absolute_stores();
    format!(
        "{}/{} {s}-{n} {}",
        join(pos.pits_of(Side::South, m)),
        join(pos.pits_of(Side::North, m)),
        pos.to_move.letter()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_defaults() {
        let (p, m) = parse_position("1,2,3/4,5,6 7-8 N", None).unwrap();
        assert_eq!(m, 3);
        assert_eq!(format_position(&p, 3), "1,2,3/4,5,6 7-8 N");
        assert_eq!(p.board.to_vec(3), [4, 5, 6, 1, 2, 3]);
        assert_eq!(p.stores, [8, 7]);
        let (q, _) = parse_position("4,4,4,4,4,4/4,4,4,4,4,4", Some(6)).unwrap();
        assert_eq!(q, Position::start(6, 4));
        let (r, _) = parse_position("0,1/1,0 N", None).unwrap();
        assert_eq!((r.to_move, r.stores), (Side::North, [0, 0]));
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let err = |s: &str| parse_position(s, Some(3)).unwrap_err().to_string();
        assert_eq!(
            err("1,x,3/4,5,6"),
            "position: South's pit 2 is 'x', not a whole number of seeds"
        );
        assert_eq!(
            err("1,2,3/4,-5,6"),
            "position: North's pit 2 is '-5', not a whole number of seeds"
        );
        assert!(err("1,2/4,5").contains("2 pits a side but the variant has 3"));
        assert!(err("1,2,3/4,5").contains("South has 3 pits and North 2"));
        assert!(err("1,2,3,4,5,6").contains("expected South's pits, '/'"));
        assert!(err("1,2,3/4,5,6 0-x").contains("stores '0-x'"));
        assert!(err("1,2,3/4,5,6 0-0 W").contains("side to move 'W'"));
        assert!(err("1,2,3/4,5,6 0-0 S x").contains("unexpected 'x'"));
        assert!(err("100,100,3/4,5,60").contains("holds 272 seeds"));
        assert!(err("1,2,3/4,5,99999999999999999999999").contains("not a whole number"));
        assert!(parse_position("", None).is_err());
        assert!(
            parse_position("1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1", None)
                .unwrap_err()
                .to_string()
                .contains("9 pits a side")
        );
    }
}
