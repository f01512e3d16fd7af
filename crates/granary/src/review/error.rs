//! Why a game cannot be reviewed: a move that cannot be played, a position that cannot be
//! answered, tables that contradict themselves; each names the ply (1 for the first move) and
//! the move (the pit played).

use granary_rules::MoveError;

use crate::bao::BaoMoveError;
use crate::error::Error;
use crate::game::{GameMove, GameName};

/// What stops a review; the message names the ply and the move.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A move that cannot be played where it stands in the game (no such pit, an empty pit, a
    /// move the rules forbid, a game already over). No position is answered before the whole
    /// game is found legal.
    #[error("ply {ply}: move {pit} cannot be played: {source}")]
    Illegal {
        ply: usize,
        pit: usize,
        #[source]
        source: MoveError,
    },
    /// A Bao move that cannot be played where it stands in the game.
    #[error("ply {ply}: move {mv} cannot be played: {source}")]
    IllegalBao {
        ply: usize,
        mv: String,
        #[source]
        source: BaoMoveError,
    },
    /// A move written as another game's: Bao's move text in Kalah or Oware, a pit number in
    /// Bao.
    #[error(
        "ply {ply}: move {mv} cannot be played: a move of {game} is {}",
        if *.game == GameName::Bao { "written as A6R, b2L, ..." } else { "a pit number" }
    )]
    MoveOfAnotherGame {
        ply: usize,
        mv: GameMove,
        /// The game reviewed.
        game: GameName,
    },
    /// The position before the move could not be answered (tables missing or damaged, a failed
    /// search).
    #[error("ply {ply} (move {pit}): {source}")]
    Answer {
        ply: usize,
        pit: usize,
        #[source]
        source: Box<Error>,
    },
    /// The review was cancelled ([`crate::review::Watch::cancel`]) before ply `ply` was
    /// answered: the plies before it were reported as they were answered, nothing after.
    #[error("the review was cancelled at ply {ply}, {done} of {total} plies reviewed")]
    Cancelled {
        ply: usize,
        done: usize,
        total: usize,
    },
    /// The answer for the position before the move gives the move no value (every legal move
    /// has one in a sound answer).
    #[error(
        "ply {ply} (move {pit}): the answer for the position before the move has no value for it; run `granary verify`"
    )]
    Unvalued { ply: usize, pit: usize },
    /// The value the position before gives the move played is not the value of the position
    /// after it (for its mover, adjusted for who moves next).
    #[error(
        "ply {ply} (move {pit}): tables are inconsistent: the move is worth {played} but the position it leads to gives it {after}; run `granary verify`"
    )]
    Inconsistent {
        ply: usize,
        pit: usize,
        played: i32,
        after: i32,
    },
}

impl ReviewError {
    /// Whether the game given is at fault (a move that cannot be played, or an answer that
    /// failed on the caller's input) rather than the tables, the machine or a cancel: a front
    /// end's 400 or `ValueError`.
    #[must_use]
    pub fn is_input(&self) -> bool {
        match self {
            ReviewError::Illegal { .. }
            | ReviewError::IllegalBao { .. }
            | ReviewError::MoveOfAnotherGame { .. } => true,
            ReviewError::Answer { source, .. } => source.is_input(),
            ReviewError::Cancelled { .. }
            | ReviewError::Unvalued { .. }
            | ReviewError::Inconsistent { .. } => false,
        }
    }
}
