//! A record's moves checked one after the other, for any game: the side to move, the end of
//! the game, the move's legality, each in its own words ([`MoveFault`]).

use granary_bao::BaoRules;
use granary_rules::{Engine, MoveError, Record, Side, Status};

use crate::bao::BaoMoveError;
use crate::game::{AnyGame, BaoPosition, GameMove};

/// Why a move of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveFault {
    /// Kalah or Oware: text that is no pit number (after a side letter, if any).
    #[error("'{0}' is not a move: {PIT_MOVE}")]
    NotAPit(String),
    /// A move after the game's end (why it ended).
    #[error("the game is over ({0}): no move follows")]
    AfterEnd(&'static str),
    /// Kalah or Oware: the side letter names the side not to move.
    #[error("it is a move of {given}, but {to_move} is to move")]
    WrongSide { given: Side, to_move: Side },
    /// Kalah or Oware: a pit the rules do not let the side to move play.
    #[error(transparent)]
    Illegal(#[from] MoveError),
    /// Bao: text that is no legal Bao move here.
    #[error(transparent)]
    Bao(#[from] BaoMoveError),
}

/// A game being replayed from its start.
pub enum Replay<'e> {
    Mancala(Record<'e, Engine>),
    Bao { rules: BaoRules, pos: BaoPosition },
}

/// What a Kalah or Oware move must look like.
const PIT_MOVE: &str = "a move is a pit number, after the side if given (3, S3, N1)";

impl<'e> Replay<'e> {
    /// The replay of `game` from its position; a Kalah or Oware game's engine is kept in
    /// `engine`, which the replay borrows.
    pub fn start(game: &AnyGame, engine: &'e mut Option<Engine>) -> Replay<'e> {
        match game {
            AnyGame::Mancala(m) => {
                let engine: &'e Engine = engine.insert(m.variant.engine());
                Replay::Mancala(Record::new(engine, m.position))
            }
            AnyGame::Bao(rules, pos) => Replay::Bao {
                rules: *rules,
                pos: *pos,
            },
        }
    }

    /// Plays the move written `text` (no mark), returning its mover and the move in its
    /// canonical form.
    ///
    /// # Errors
    /// Text that is no move of the game, a move after the end, a side letter that is not the
    /// side to move, an illegal move.
    pub fn play(&mut self, text: &str) -> Result<(Side, GameMove), MoveFault> {
        match self {
            Replay::Mancala(record) => {
                let letter = text.chars().next().filter(char::is_ascii);
                let given = [Side::South, Side::North]
                    .into_iter()
                    .find(|s| letter.is_some_and(|l| l.eq_ignore_ascii_case(&s.letter())));
                let digits = if given.is_some() { &text[1..] } else { text };
                let pit = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    digits.parse::<usize>().ok()
                } else {
                    None
                }
                .ok_or_else(|| MoveFault::NotAPit(text.to_string()))?;
                if let Status::Over { end, .. } = record.status() {
                    return Err(MoveFault::AfterEnd(end.name()));
                }
                let to_move = record.current().to_move;
                if let Some(given) = given.filter(|&g| g != to_move) {
                    return Err(MoveFault::WrongSide { given, to_move });
                }
                record.play(pit)?;
                Ok((to_move, GameMove::Pit(pit)))
            }
            Replay::Bao { rules, pos } => {
                let moves = granary_bao::generate(rules, pos);
                if let Some(end) = crate::bao::game_over(pos, &moves) {
                    return Err(MoveFault::AfterEnd(end));
                }
                let to_move = pos.to_move;
                let (mv, child) = crate::bao::find_move(rules, pos, text)?;
                *pos = child;
                Ok((to_move, GameMove::Bao(mv.text(to_move == Side::North))))
            }
        }
    }
}
