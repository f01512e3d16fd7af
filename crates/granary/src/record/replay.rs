//! A record's moves checked one after the other, for any game: the side to move, the end of
//! the game, the move's legality, each in its own words ([`Fault`]).

use granary_bao::BaoRules;
use granary_rules::{Engine, Record, Side, Status};

use crate::game::{AnyGame, BaoPosition, GameMove};

/// Why a move of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("'{0}' is not a move: {1}")]
    NotAMove(String, &'static str),
    #[error("the game is over ({0}): no move follows")]
    AfterEnd(&'static str),
    #[error("it is a move of {given}, but {to_move} is to move")]
    WrongSide { given: Side, to_move: Side },
    #[error("{0}")]
    Illegal(String),
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
    pub fn play(&mut self, text: &str) -> Result<(Side, GameMove), Fault> {
        match self {
            Replay::Mancala(record) => {
                let (given, digits) = match text.as_bytes().first() {
                    Some(b'S' | b's') => (Some(Side::South), &text[1..]),
                    Some(b'N' | b'n') => (Some(Side::North), &text[1..]),
                    _ => (None, text),
                };
                let pit = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    digits.parse::<usize>().ok()
                } else {
                    None
                }
                .ok_or_else(|| Fault::NotAMove(text.to_string(), PIT_MOVE))?;
                if let Status::Over { end, .. } = record.status() {
                    return Err(Fault::AfterEnd(end.name()));
                }
                let to_move = record.current().to_move;
                if let Some(given) = given.filter(|&g| g != to_move) {
                    return Err(Fault::WrongSide { given, to_move });
                }
                record
                    .play(pit)
                    .map_err(|e| Fault::Illegal(e.to_string()))?;
                Ok((to_move, GameMove::Pit(pit)))
            }
            Replay::Bao { rules, pos } => {
                let moves = granary_bao::generate(rules, pos);
                if let Some(end) = crate::bao::game_over(pos, &moves) {
                    return Err(Fault::AfterEnd(end));
                }
                let to_move = pos.to_move;
                let (mv, child) =
                    crate::bao::find_move(rules, pos, text).map_err(Fault::Illegal)?;
                *pos = child;
                Ok((to_move, GameMove::Bao(mv.text(to_move == Side::North))))
            }
        }
    }
}
