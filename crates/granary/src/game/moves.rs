//! A move as any game writes it: a pit number (Kalah, Oware) or Bao's move text.

use std::fmt;

use serde::Serialize;

/// A move of a game, as its notation writes it (`docs/notation.md`): Kalah and Oware a pit
/// number, 1 to m from the mover's first pit; Bao its move text (`A6R`, `b2L`), whose case
/// names the mover. In JSON a number or a string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum GameMove {
    /// Kalah or Oware: the pit sown.
    Pit(usize),
    /// Bao: the move as written, e.g. `A6R`.
    Bao(String),
}

impl GameMove {
    /// The pit, for Kalah and Oware.
    #[must_use]
    pub fn pit(&self) -> Option<usize> {
        match self {
            GameMove::Pit(pit) => Some(*pit),
            GameMove::Bao(_) => None,
        }
    }
}

impl fmt::Display for GameMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameMove::Pit(pit) => write!(f, "{pit}"),
            GameMove::Bao(text) => f.write_str(text),
        }
    }
}
