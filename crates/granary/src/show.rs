//! Kalah and Oware positions after moves, and move-path counts (perft).

use granary_rules::notation::format_position;
use granary_rules::perft::{divide, perft};
use granary_rules::{Engine, Position, Record, Rules, Status};
use serde::Serialize;

use crate::error::InputError;
use crate::game::Mancala;

/// A position after moves, as data.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Shown {
    pub game: &'static str,
    pub variant: String,
    pub position: String,
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::side"))]
    pub to_move: &'static str,
    /// South's pits then North's, each from its first pit.
    pub pits: Vec<u8>,
    /// `[south, north]`.
    pub stores: [u8; 2],
    /// Pits the player to move may sow (none when the game is over).
    pub legal_moves: Vec<usize>,
    pub over: bool,
    /// `finished`, `majority` or `repetition` when over.
    pub end: Option<&'static str>,
    /// Final stores `[south, north]` when over.
    #[serde(rename = "final")]
    pub final_stores: Option<[u32; 2]>,
    pub moves_played: Vec<usize>,
    /// The position itself, for drawing.
    #[serde(skip)]
    pub pos: Position,
    /// Pits a side.
    #[serde(skip)]
    pub pits_a_side: usize,
}

/// Plays `moves` (pits) from the game's position with the rules of play (Oware's majority and
/// repetition end a game) and describes where it stands.
///
/// # Errors
/// The first move that cannot be played, naming it.
pub fn show(game: &Mancala, moves: &[usize]) -> Result<Shown, InputError> {
    let engine = game.variant.engine();
    let m = engine.pits();
    let mut record = Record::new(&engine, game.position);
    for (i, &pit) in moves.iter().enumerate() {
        record.play(pit).map_err(|e| InputError::Move {
            number: i + 1,
            pit: Some(pit),
            reason: e.to_string(),
        })?;
    }
    let pos = *record.current();
    let status = record.status();
    let (end, final_stores) = match status {
        Status::Ongoing => (None, None),
        Status::Over { end, stores } => (Some(end.name()), Some(stores)),
    };
    Ok(Shown {
        game: game.variant.game.name(),
        variant: game.variant.to_string(),
        position: format_position(&pos, m),
        to_move: pos.to_move.name(),
        pits: pos.absolute_pits(m),
        stores: pos.absolute_stores(),
        legal_moves: if status == Status::Ongoing {
            engine.legal_moves(&pos).iter().map(|l| l + 1).collect()
        } else {
            Vec::new()
        },
        over: status != Status::Ongoing,
        end,
        final_stores,
        moves_played: record.pits_played(),
        pos,
        pits_a_side: m,
    })
}

/// Move sequences of exactly `depth` moves from the game's position.
#[must_use]
pub fn perft_count(game: &Mancala, depth: u32) -> u64 {
    // The engine's concrete type, so the hot loop is not dispatched per move.
    match game.variant.engine() {
        Engine::Kalah(rules) => perft(&rules, &game.position, depth),
        Engine::Oware(rules) => perft(&rules, &game.position, depth),
    }
}

/// [`perft_count`] split by first move: `(pit, count)`.
#[must_use]
pub fn perft_divide(game: &Mancala, depth: u32) -> Vec<(usize, u64)> {
    divide(&game.variant.engine(), &game.position, depth)
        .into_iter()
        .map(|(lane, n)| (lane + 1, n))
        .collect()
}
