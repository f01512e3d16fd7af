//! Bao: positions after moves, perft, proof searches and the engine's moves (no tables).
//!
//! Moves are written as in `docs/notation.md` (`A6R`, `b2L`, `A3Ls`); South's pits are upper
//! case, North's lower case.

use std::time::{Duration, Instant};

use granary_bao::engine::{Engine, WIN};
use granary_bao::prove::{Proof, Prover};
use granary_bao::{BaoRules, Move, MoveText};
use granary_rules::Side;
use serde::Serialize;

use crate::error::InputError;
use crate::game::BaoPosition;
use crate::observer::{Event, Observer};

pub use granary_bao::notation::{draw, format_position};
pub use granary_bao::{Moves, generate};

/// Tree nodes of the default proof-number search (about 150 MB).
pub const PNS_NODES: usize = 2_000_000;

fn north(pos: &BaoPosition) -> bool {
    pos.to_move == Side::North
}

/// The legal moves of `moves` written out, or `none`.
#[must_use]
pub fn list(moves: &Moves, north: bool) -> String {
    let texts: Vec<String> = moves.legal.iter().map(|(m, _)| m.text(north)).collect();
    if texts.is_empty() {
        "none".into()
    } else {
        texts.join(" ")
    }
}

/// Why a text is not a legal Bao move where it is played ([`find_move`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BaoMoveError {
    /// Text that is no Bao move at all.
    #[error(transparent)]
    Syntax(#[from] granary_bao::moves::MoveSyntaxError),
    /// A pit of the side not to move (the case of its letter names the side).
    #[error(
        "{text} is a pit of {given}; {to_move} is to move (pits {})",
        if *.to_move == Side::North { "a1..b8" } else { "A1..B8" }
    )]
    WrongSide {
        text: String,
        given: Side,
        to_move: Side,
    },
    /// A move the rules allow whose turn never ends.
    #[error("{text} never ends (an endless move), so it is not legal")]
    Endless { text: String },
    /// A move the rules do not allow here.
    #[error("{text} is not legal here; legal: {legal}")]
    Illegal {
        text: String,
        /// The legal moves written out, or `none`.
        legal: String,
    },
}

/// The legal move written `text` in `pos` with the position after it, or why it is not one.
///
/// # Errors
/// Text that is no move, a pit of the side not to move, an endless move, a move the rules do
/// not allow here (with the legal ones).
pub fn find_move(
    rules: &BaoRules,
    pos: &BaoPosition,
    text: &str,
) -> Result<(Move, BaoPosition), BaoMoveError> {
    let parsed: MoveText = text.parse()?;
    let north = north(pos);
    let moves = generate(rules, pos);
    if parsed.north != north {
        return Err(BaoMoveError::WrongSide {
            text: text.to_string(),
            given: pos.to_move.other(),
            to_move: pos.to_move,
        });
    }
    if let Some(found) = moves.legal.iter().find(|(m, _)| *m == parsed.mv) {
        return Ok(*found);
    }
    if moves.endless.contains(&parsed.mv) {
        return Err(BaoMoveError::Endless {
            text: text.to_string(),
        });
    }
    Err(BaoMoveError::Illegal {
        text: text.to_string(),
        legal: list(&moves, north),
    })
}

/// Why the game is over for the player to move, if it is.
#[must_use]
pub fn game_over(pos: &BaoPosition, moves: &Moves) -> Option<&'static str> {
    if pos.front_seeds(pos.to_move) == 0 {
        Some("front row empty")
    } else if moves.legal.is_empty() && !moves.endless.is_empty() {
        Some("every move is endless")
    } else if moves.legal.is_empty() {
        Some("no legal move")
    } else {
        None
    }
}

/// `namua, 21 in hand` or `mtaji`.
#[must_use]
pub fn stage(pos: &BaoPosition) -> String {
    let hand = pos.hands[usize::from(north(pos))];
    if hand > 0 {
        format!("namua, {hand} in hand")
    } else {
        "mtaji".into()
    }
}

/// One player's half of the board as data.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Half {
    /// Front row, pits 1 to 8.
    pub front: Vec<u8>,
    /// Back row, pits 1 to 8.
    pub back: Vec<u8>,
    pub hand: u8,
    pub nyumba_owned: bool,
}

/// A Bao position after moves, as data.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BaoShown {
    pub game: &'static str,
    pub rules: String,
    pub position: String,
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::side"))]
    pub to_move: &'static str,
    /// `namua` or `mtaji`.
    pub stage: &'static str,
    pub south: Half,
    pub north: Half,
    /// The pit takasia forbids, if any.
    pub takasia: Option<String>,
    pub legal_moves: Vec<String>,
    /// Moves the rules allow whose turn never ends (so illegal).
    pub endless_moves: Vec<String>,
    pub over: bool,
    pub end: Option<&'static str>,
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::schema::side_or_null")
    )]
    pub winner: Option<&'static str>,
    pub moves_played: Vec<String>,
    #[serde(skip)]
    pub pos: BaoPosition,
    #[serde(skip)]
    pub moves: Moves,
}

/// Plays `moves` (written out) from `pos` and describes where the game stands.
///
/// # Errors
/// The first move that is not legal, naming it.
pub fn show<S: AsRef<str>>(
    rules: &BaoRules,
    mut pos: BaoPosition,
    moves: &[S],
) -> Result<BaoShown, InputError> {
    let mut played = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let (mv, child) =
            find_move(rules, &pos, text.as_ref().trim()).map_err(|e| InputError::Move {
                number: i + 1,
                pit: None,
                reason: e.to_string(),
            })?;
        played.push(mv.text(north(&pos)));
        pos = child;
    }
    let moves = generate(rules, &pos);
    let n = north(&pos);
    let over = game_over(&pos, &moves);
    let half = |s: usize| {
        let ring = pos.pits[s];
        Half {
            front: ring[..8].to_vec(),
            back: (0..8).map(|i| ring[15 - i]).collect(),
            hand: pos.hands[s],
            nyumba_owned: pos.nyumba[s],
        }
    };
    Ok(BaoShown {
        game: "bao",
        rules: rules.describe(),
        position: format_position(&pos),
        to_move: pos.to_move.name(),
        stage: if pos.in_namua(pos.to_move) {
            "namua"
        } else {
            "mtaji"
        },
        south: half(0),
        north: half(1),
        takasia: pos.takasia.map(|p| granary_bao::board::pit_name(p, n)),
        legal_moves: moves.legal.iter().map(|(m, _)| m.text(n)).collect(),
        endless_moves: moves.endless.iter().map(|m| m.text(n)).collect(),
        over: over.is_some(),
        end: over,
        winner: over.map(|_| pos.to_move.other().name()),
        moves_played: played,
        pos,
        moves,
    })
}

/// Move sequences of exactly `depth` moves.
#[must_use]
pub fn perft_count(rules: &BaoRules, pos: &BaoPosition, depth: u32) -> u64 {
    granary_bao::perft::perft(rules, pos, depth)
}

/// [`perft_count`] split by first move, written out.
#[must_use]
pub fn perft_divide(rules: &BaoRules, pos: &BaoPosition, depth: u32) -> Vec<(String, u64)> {
    let n = north(pos);
    granary_bao::perft::divide(rules, pos, depth)
        .into_iter()
        .map(|(m, c)| (m.text(n), c))
        .collect()
}

/// What a Bao search found.
#[derive(Clone, Debug, Serialize)]
pub struct BaoSolution {
    pub game: &'static str,
    pub rules: String,
    pub position: String,
    pub to_move: &'static str,
    /// `pns` (proof-number search) or `depth` (full width to a depth).
    pub search: &'static str,
    /// The depth limit of a `depth` search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The node budget of a `pns` search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<usize>,
    /// `win`, `loss` or `unknown` for the player to move.
    pub value: &'static str,
    /// Plies to the forced end (`depth` search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// The winning move, if a win.
    pub best: Option<String>,
    /// The proof's line (or the most-proving line when unknown).
    pub pv: Vec<String>,
    pub nodes: u64,
    pub seconds: f64,
}

fn line_text(line: &[(Move, BaoPosition)]) -> Vec<String> {
    line.iter().map(|(m, p)| m.text(north(p))).collect()
}

/// A full-width proof search for a win or loss within `depth` plies, reporting each depth.
#[must_use]
pub fn prove(
    rules: &BaoRules,
    pos: &BaoPosition,
    depth: u32,
    observer: &dyn Observer,
) -> BaoSolution {
    let started = Instant::now();
    let mut prover = Prover::new(rules);
    let proof = prover.prove(pos, depth, |d, p| {
        let verdict = match p {
            Proof::Win(k) => format!("win in {k}"),
            Proof::Loss(k) => format!("loss in {k}"),
            Proof::Unknown => "not proven".into(),
        };
        observer.event(Event::Depth {
            depth: d,
            verdict: &verdict,
            seconds: started.elapsed().as_secs_f64(),
        });
    });
    let seconds = started.elapsed().as_secs_f64();
    let pv = prover.principal_variation(pos);
    let (value, plies) = match proof {
        Proof::Win(k) => ("win", Some(k)),
        Proof::Loss(k) => ("loss", Some(k)),
        Proof::Unknown => ("unknown", None),
    };
    BaoSolution {
        game: "bao",
        rules: rules.describe(),
        position: format_position(pos),
        to_move: pos.to_move.name(),
        search: "depth",
        depth: Some(depth),
        budget: None,
        value,
        plies,
        best: matches!(proof, Proof::Win(_))
            .then(|| pv.first().map(|(m, _)| m.text(north(pos))))
            .flatten(),
        pv: line_text(&pv),
        nodes: prover.nodes,
        seconds,
    }
}

/// A proof-number search with at most `budget` tree nodes.
#[must_use]
pub fn prove_pns(rules: &BaoRules, pos: &BaoPosition, budget: usize) -> BaoSolution {
    let started = Instant::now();
    let result = granary_bao::pns::search(rules, pos, budget);
    BaoSolution {
        game: "bao",
        rules: rules.describe(),
        position: format_position(pos),
        to_move: pos.to_move.name(),
        search: "pns",
        depth: None,
        budget: Some(budget),
        value: match result.verdict {
            granary_bao::pns::Verdict::Win => "win",
            granary_bao::pns::Verdict::Loss => "loss",
            granary_bao::pns::Verdict::Unknown => "unknown",
        },
        plies: None,
        best: result.best.map(|m| m.text(north(pos))),
        pv: line_text(&result.line),
        nodes: result.nodes as u64,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The engine's move.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EngineMove {
    #[serde(rename = "move")]
    pub text: String,
    /// The position after it.
    pub position: String,
    /// Deepest depth finished.
    pub depth: u32,
    /// Its score for the mover, in seeds.
    pub score: f64,
    pub nodes: u64,
}

/// A player with a transposition table, kept between moves.
#[derive(Debug)]
pub struct Player<'r> {
    rules: &'r BaoRules,
    engine: Engine<'r>,
}

impl<'r> Player<'r> {
    #[must_use]
    pub fn new(rules: &'r BaoRules) -> Player<'r> {
        Player {
            rules,
            engine: Engine::new(rules),
        }
    }

    /// The engine's move in `pos` within `time`, or `None` if it has no legal move.
    pub fn choose(
        &mut self,
        pos: &BaoPosition,
        time: Duration,
    ) -> Option<(EngineMove, BaoPosition)> {
        let choice = self.engine.choose(pos, Some(time), 64)?;
        let child = generate(self.rules, pos)
            .legal
            .into_iter()
            .find(|(m, _)| *m == choice.mv)?
            .1;
        Some((
            EngineMove {
                text: choice.mv.text(north(pos)),
                position: format_position(&child),
                depth: choice.depth,
                score: f64::from(choice.score) / 100.0,
                nodes: choice.nodes,
            },
            child,
        ))
    }

    /// Every legal move with the engine's 3-ply score for the mover, in seeds.
    pub fn hint(&mut self, pos: &BaoPosition) -> Vec<(String, f64)> {
        let n = north(pos);
        generate(self.rules, pos)
            .legal
            .iter()
            .map(|(mv, child)| {
                let score = -self.engine.alphabeta(child, 2, -WIN - 1, WIN + 1, 1);
                (mv.text(n), f64::from(score) / 100.0)
            })
            .collect()
    }
}
