//! A Bao move and its written form.
//!
//! A move is the pit a player starts from, the letter of the one choice made at the start, and
//! whether they stop in their nyumba when the rules let them choose:
//!
//! ```text
//!   A6R     South starts from A6 and sows to the right (as South sees the row of A6)
//!   b2L     North starts from b2 and sows to the left (as North sees it)
//!   A4L     namua capture from A4 (a centre pit): the captured seeds start at the LEFT kichwa
//!   A2      namua capture from A2 (a kimbi): the nearest kichwa is forced, no letter
//!   A5R     namua tax: 2 seeds from the nyumba to its right
//!   A3Ls    ... and the capturing turn reaches the nyumba, where the player stops (no suffix:
//!           they sow the nyumba on, where the choice arises)
//! ```
//!
//! The letter of a sowing is the direction the seeds travel from the start pit, along its row,
//! seen from the mover's seat: on the front row right is clockwise, on the back row right is
//! anticlockwise (the KIBA mtaji example "the 9, to the right" is B2 sown towards B3). In a namua
//! capture the letter names the kichwa the captured seeds start from.

use std::fmt;

use crate::board::{Dir, LEFT_KICHWA, RIGHT_KICHWA, is_front, parse_pit_name, pit_name};

/// Left or right, as the mover sees it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Toward {
    Left,
    Right,
}

impl Toward {
    /// `'L'` or `'R'`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Toward::Left => 'L',
            Toward::Right => 'R',
        }
    }

    /// The direction a sowing from `pit` takes when it goes this way along `pit`'s row.
    #[must_use]
    pub const fn sowing_dir(self, pit: u8) -> Dir {
        match (self, is_front(pit)) {
            (Toward::Right, true) | (Toward::Left, false) => Dir::Clockwise,
            (Toward::Left, true) | (Toward::Right, false) => Dir::Anticlockwise,
        }
    }

    /// The letter of a sowing from `pit` in `dir`.
    #[must_use]
    pub const fn of_sowing(pit: u8, dir: Dir) -> Toward {
        match (dir, is_front(pit)) {
            (Dir::Clockwise, true) | (Dir::Anticlockwise, false) => Toward::Right,
            (Dir::Anticlockwise, true) | (Dir::Clockwise, false) => Toward::Left,
        }
    }

    /// The kichwa this letter names and the direction its sowing takes.
    #[must_use]
    pub const fn kichwa(self) -> (u8, Dir) {
        match self {
            Toward::Left => (LEFT_KICHWA, Dir::Clockwise),
            Toward::Right => (RIGHT_KICHWA, Dir::Anticlockwise),
        }
    }
}

/// A move of the player to move; `pit` is a ring index of their own half.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub pit: u8,
    pub toward: Option<Toward>,
    pub stop: bool,
}

impl Move {
    /// The written form for the player `north` or South.
    #[must_use]
    pub fn text(&self, north: bool) -> String {
        let mut text = pit_name(self.pit, north);
        if let Some(t) = self.toward {
            text.push(t.letter());
        }
        if self.stop {
            text.push('s');
        }
        text
    }
}

/// A move as written, before it is matched against the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveText {
    pub mv: Move,
    /// Whether the pit was written as North's (lower case).
    pub north: bool,
}

/// Why a move text is not a move.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "'{0}' is not a bao move: write a pit A1..A8, B1..B8 (South) or a1..b8 (North), then L or R where there is a choice, then s to stop in the nyumba"
)]
pub struct MoveSyntaxError(pub String);

impl std::str::FromStr for MoveText {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<MoveText, MoveSyntaxError> {
        let err = || MoveSyntaxError(text.to_string());
        let t = text.trim();
        if t.len() < 2 || !t.is_ascii() {
            return Err(err());
        }
        let (pit, north) = parse_pit_name(&t[..2]).ok_or_else(err)?;
        let mut rest = t[2..].chars().peekable();
        let toward = match rest.peek().map(char::to_ascii_uppercase) {
            Some('L') => Some(Toward::Left),
            Some('R') => Some(Toward::Right),
            _ => None,
        };
        if toward.is_some() {
            rest.next();
        }
        let stop = match rest.next() {
            None => false,
            Some('s' | 'S') => true,
            Some(_) => return Err(err()),
        };
        if rest.next().is_some() {
            return Err(err());
        }
        Ok(MoveText {
            mv: Move { pit, toward, stop },
            north,
        })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.mv.text(self.north))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_round_trip() {
        for text in ["A6R", "b2L", "A2", "A3Ls", "a5R", "B1Rs"] {
            let parsed: MoveText = text.parse().unwrap();
            assert_eq!(parsed.to_string(), text);
        }
        for bad in ["", "A", "A9R", "C1L", "A1X", "A1Lss", "A1 L"] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad}");
        }
    }

    #[test]
    fn letters_follow_the_row_seen_by_the_mover() {
        // B2 (ring 14) to the right goes to B3 (ring 13): anticlockwise.
        assert_eq!(Toward::Right.sowing_dir(14), Dir::Anticlockwise);
        assert_eq!(Toward::Right.sowing_dir(5), Dir::Clockwise);
        for pit in 0..16 {
            for t in [Toward::Left, Toward::Right] {
                assert_eq!(Toward::of_sowing(pit, t.sowing_dir(pit)), t);
            }
        }
    }
}
