//! A game in play: the positions so far, move checking with clear errors, repetition, undo.

use crate::position::Position;
use crate::rules::{End, Rules};

/// Why a move given by a person cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveError {
    #[error("pit {pit} does not exist: pits are numbered 1 to {pits}")]
    NoSuchPit { pit: usize, pits: usize },
    #[error("the game is over")]
    GameOver,
    #[error("pit {0} is empty")]
    EmptyPit(usize),
    #[error("pit {pit} is not a legal move here (legal: {legal})")]
    NotLegal { pit: usize, legal: String },
}

/// How a game in play stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    Ongoing,
    /// Over by the rules' end ([`End`]) or by repetition; final stores `[south, north]`.
    Over {
        end: GameEnd,
        stores: [u32; 2],
    },
}

/// Why a game in play ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEnd {
    Rules(End),
    /// The position repeated: each player takes the seeds on their side (the tournament rule).
    Repetition,
}

impl GameEnd {
    /// A short name for output: `finished`, `majority` or `repetition`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameEnd::Rules(End::Finished) => "finished",
            GameEnd::Rules(End::Majority) => "majority",
            GameEnd::Repetition => "repetition",
        }
    }
}

/// The positions of a game from its first, with the moves (lanes) between them.
#[derive(Clone, Debug)]
pub struct Record<'r, R: Rules + ?Sized> {
    rules: &'r R,
    positions: Vec<Position>,
    moves: Vec<usize>,
}

impl<'r, R: Rules + ?Sized> Record<'r, R> {
    #[must_use]
    pub fn new(rules: &'r R, start: Position) -> Self {
        Record {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position now.
    #[must_use]
    pub fn current(&self) -> &Position {
        self.positions.last().expect("a record holds its start")
    }

    /// The moves played, as pit numbers `1..m`.
    #[must_use]
    pub fn pits_played(&self) -> Vec<usize> {
        self.moves.iter().map(|l| l + 1).collect()
    }

    /// Checks and plays pit `pit` (`1..m`).
    ///
    /// # Errors
    /// A [`MoveError`] saying why the move cannot be played; the record is unchanged.
    pub fn play(&mut self, pit: usize) -> Result<(), MoveError> {
        let m = self.rules.pits();
        if !(1..=m).contains(&pit) {
            return Err(MoveError::NoSuchPit { pit, pits: m });
        }
        if self.status() != Status::Ongoing {
            return Err(MoveError::GameOver);
        }
        let pos = *self.current();
        let lane = pit - 1;
        let legal = self.rules.legal_moves(&pos);
        if !legal.contains(lane) {
            if pos.board.pit(lane) == 0 {
                return Err(MoveError::EmptyPit(pit));
            }
            let legal = legal
                .iter()
                .map(|l| (l + 1).to_string())
                .collect::<Vec<_>>()
                .join(",");
            return Err(MoveError::NotLegal { pit, legal });
        }
        self.positions.push(self.rules.play(&pos, lane));
        self.moves.push(lane);
        Ok(())
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }

    /// Whether the current position stood earlier in the game with the same player to move.
    #[must_use]
    pub fn repeated(&self) -> bool {
        let (now, before) = self
            .positions
            .split_last()
            .expect("a record holds its start");
        before.contains(now)
    }

    /// Whether the game goes on, and if not, how it ended.
    #[must_use]
    pub fn status(&self) -> Status {
        let pos = self.current();
        if let Some(outcome) = self.rules.outcome(pos) {
            return Status::Over {
                end: GameEnd::Rules(outcome.end),
                stores: pos.absolute(outcome.stores),
            };
        }
        if self.repeated() {
            return Status::Over {
                end: GameEnd::Repetition,
                stores: pos.absolute(pos.swept_to_owners(self.rules.pits())),
            };
        }
        Status::Ongoing
    }
}
