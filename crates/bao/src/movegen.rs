//! Which turns may start: compulsory captures, takasa and its restrictions, the tax, takasia.
//!
//! Namua stage (the mover has seeds in hand; [`namua`]):
//! - a seed from the hand goes into a non-empty front pit; if the pit faces a non-empty opponent
//!   pit, that is a capture, and capturing is compulsory. A capture at a kimbi starts from the
//!   nearest kichwa; at a centre pit (A3..A6) the player chooses the kichwa;
//! - otherwise takasa: the pit, with the new seed, is sown left or right. Not from a functional
//!   nyumba (6 seeds or more); not from a single-seed pit while another front pit holds 2 or
//!   more, unless the player owns their nyumba; a kichwa that is the only non-empty front pit must sow along the
//!   front row, not into the back row;
//! - the nyumba is taxed when no other front pit may be played (or always, by option): the seed
//!   goes in, 2 seeds come out, sown left or right.
//!
//! KIBA's single-seed rule (namua 5.3) reads: no takasa from a pit of one seed, "except when no
//! front pit holds more than one, or when the player still owns the nyumba (even with fewer than
//! 6 seeds)". Its own examples agree with that literal reading: in 3.3 South (owning the nyumba)
//! may sow the 1 beside a 2; in 5.3 South (no longer owning it) may not.
//!
//! Mtaji stage (empty hand; [`mtaji`]):
//! - a capture starts from any pit of 2 to 15 seeds whose sowing ends in a non-empty front pit
//!   facing a non-empty opponent pit; compulsory;
//! - otherwise takasa from a pit of 2 or more: from the front row if it has one, else the back
//!   row; the kichwa restriction as above; not from the pit takasia forbids.
//!
//! The game is lost by a player to move whose front row is empty or who has no legal move; an
//! endless move (see [`crate::turn`]) is not legal, so a player whose every move is endless loses.
//! Whether a capture is compulsory is decided from the starts (before any turn is played out).

use crate::board::{Dir, NYUMBA, RING, ROW, is_kimbi, opposite};
use crate::moves::{Move, Toward};
use crate::position::{Position, side_index};
use crate::rules::{BaoRules, TaxRule};
use crate::turn::Turn;

pub use crate::starts::{CaptureStart, mtaji_captures, takasa_origins};

/// The directions a takasa from `pit` may take: both, but a kichwa that is the only non-empty
/// front pit sows along the front row.
fn takasa_dirs(ring: &[u8; RING], pit: u8) -> &'static [Dir] {
    let alone = (0..ROW as u8).all(|q| q == pit || ring[usize::from(q)] == 0);
    match pit {
        0 if alone => &[Dir::Clockwise],
        7 if alone => &[Dir::Anticlockwise],
        _ => &Dir::BOTH,
    }
}

/// The legal moves of a position, and the starts whose turn never ends.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    /// Each legal move with the position after it.
    pub legal: Vec<(Move, Position)>,
    /// Starts the rules allow whose turn is endless (illegal).
    pub endless: Vec<Move>,
}

/// Every legal move of the player to move in `pos`.
#[must_use]
pub fn generate(rules: &BaoRules, pos: &Position) -> Moves {
    let mut moves = Moves::default();
    if pos.front_seeds(pos.to_move) == 0 {
        return moves;
    }
    if pos.in_namua(pos.to_move) {
        namua(rules, pos, &mut moves);
    } else {
        mtaji(rules, pos, &mut moves);
    }
    moves
}

/// The legal moves with their positions (see [`generate`]).
#[must_use]
pub fn legal_moves(rules: &BaoRules, pos: &Position) -> Vec<(Move, Position)> {
    generate(rules, pos).legal
}

/// Plays one start out, noting it as endless when it yields no move.
fn start(moves: &mut Moves, mv: Move, play: impl FnOnce(&mut Vec<(Move, Position)>)) {
    let before = moves.legal.len();
    play(&mut moves.legal);
    if moves.legal.len() == before {
        moves.endless.push(mv);
    }
}

/// Namua-stage moves (the mover has seeds in hand).
fn namua(rules: &BaoRules, pos: &Position, moves: &mut Moves) {
    let me = pos.to_move;
    let ring = pos.half(me);
    let theirs = pos.half(me.other());
    for pit in 0..ROW as u8 {
        if ring[usize::from(pit)] == 0 || theirs[usize::from(opposite(pit))] == 0 {
            continue;
        }
        let choices: &[Option<Toward>] = if is_kimbi(pit) {
            &[None]
        } else {
            &[Some(Toward::Left), Some(Toward::Right)]
        };
        for &toward in choices {
            let mv = Move {
                pit,
                toward,
                stop: false,
            };
            let (kichwa, dir) =
                toward.map_or_else(|| Turn::forced_kichwa(pit, Dir::Clockwise), Toward::kichwa);
            start(moves, mv, |out| {
                let mut turn = Turn::new(rules, pos, mv, true);
                turn.place_from_hand(pit);
                turn.capture_and_play_out(kichwa, dir, out);
            });
        }
    }
    if !moves.legal.is_empty() || !moves.endless.is_empty() {
        return;
    }
    let owned = rules.has_nyumba() && pos.nyumba[side_index(me)];
    let functional = pos.functional_nyumba(rules, me);
    let singles_allowed = owned || ring[..ROW].iter().all(|&s| s < 2);
    let origins: Vec<u8> = (0..ROW as u8)
        .filter(|&p| {
            let seeds = ring[usize::from(p)];
            seeds > 0 && !(p == NYUMBA && functional) && (seeds >= 2 || singles_allowed)
        })
        .collect();
    for &pit in &origins {
        for &dir in takasa_dirs(ring, pit) {
            let mv = sowing_move(pit, dir);
            start(moves, mv, |out| {
                let mut turn = Turn::new(rules, pos, mv, false);
                turn.place_from_hand(pit);
                turn.lift_and_sow(pit, dir, None);
                turn.play_out(out);
            });
        }
    }
    if functional && (origins.is_empty() || rules.tax == TaxRule::Always) {
        for dir in Dir::BOTH {
            let mv = sowing_move(NYUMBA, dir);
            start(moves, mv, |out| {
                let mut turn = Turn::new(rules, pos, mv, false);
                turn.place_from_hand(NYUMBA);
                turn.lift_and_sow(NYUMBA, dir, Some(2));
                turn.play_out(out);
            });
        }
    }
}

/// Mtaji-stage moves (the mover's hand is empty).
fn mtaji(rules: &BaoRules, pos: &Position, moves: &mut Moves) {
    let me = pos.to_move;
    for c in mtaji_captures(pos, me) {
        let mv = sowing_move(c.pit, c.dir);
        start(moves, mv, |out| {
            let mut turn = Turn::new(rules, pos, mv, true);
            turn.lift_and_sow(c.pit, c.dir, None);
            turn.play_out(out);
        });
    }
    if !moves.legal.is_empty() || !moves.endless.is_empty() {
        return;
    }
    let ring = pos.half(me);
    for pit in takasa_origins(pos, me, pos.takasia) {
        for &dir in takasa_dirs(ring, pit) {
            let mv = sowing_move(pit, dir);
            start(moves, mv, |out| {
                let mut turn = Turn::new(rules, pos, mv, false);
                turn.lift_and_sow(pit, dir, None);
                turn.play_out(out);
            });
        }
    }
}

/// The move that sows `pit` in `dir`.
fn sowing_move(pit: u8, dir: Dir) -> Move {
    Move {
        pit,
        toward: Some(Toward::of_sowing(pit, dir)),
        stop: false,
    }
}
