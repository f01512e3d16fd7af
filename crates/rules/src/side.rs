//! The two players.

use std::fmt;

/// A player. South moves first; South's store is on South's right.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    South,
    North,
}

impl Side {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `"south"` or `"north"`, as the JSON output writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// `'S'` or `'N'`, as the position notation writes it.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}
