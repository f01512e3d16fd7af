//! Endless moves: the engine's cycle finder against a plain simulation that remembers every
//! state of the move, on random takasa positions; and a player whose every move is endless.

use std::collections::HashSet;

use granary_bao::movegen::mtaji_captures;
use granary_bao::notation::parse_position;
use granary_bao::{BaoRules, Position, Start, generate};
use granary_rules::Side;
use proptest::prelude::*;

/// A takasa relay on one ring, plainly: sow from the pit after `pit`, and while the last seed
/// falls into an occupied pit lift it and sow on. `None` if a (ring, pit) state repeats.
fn plain_takasa(ring: [u8; 16], pit: usize, clockwise: bool) -> Option<[u8; 16]> {
    let mut ring = ring;
    let mut seen = HashSet::new();
    let mut at = pit;
    loop {
        let seeds = std::mem::take(&mut ring[at]);
        for _ in 0..seeds {
            at = if clockwise {
                (at + 1) % 16
            } else {
                (at + 15) % 16
            };
            ring[at] += 1;
        }
        if ring[at] == 1 {
            return Some(ring);
        }
        if !seen.insert((ring, at)) {
            return None;
        }
    }
}

fn position(mine: [u8; 16], theirs: [u8; 16]) -> Position {
    let rules = BaoRules::new(Start::Kujifunza);
    let mut pos = Position::start(&rules);
    pos.pits = [mine, theirs];
    pos
}

proptest! {
    #![proptest_config(crate::common::cases(3000))]

    /// Bao la kujifunza, mtaji stage, South without a capture: every move is a takasa. Each start
    /// the engine finds endless must loop in the plain simulation, and every legal move must end
    /// where the plain simulation ends.
    #[test]
    fn cycle_finder_agrees_with_a_plain_simulation(
        mine in prop::array::uniform16(0u8..5),
        theirs in prop::array::uniform16(0u8..3),
    ) {
        // No opponent seed faces an occupied front pit of South's, so South cannot capture.
        let mut theirs = theirs;
        for r in 0..8 {
            if mine[r] > 0 {
                theirs[7 - r] = 0;
            }
        }
        let pos = position(mine, theirs);
        prop_assume!(pos.front_seeds(Side::South) > 0);
        prop_assert!(mtaji_captures(&pos, Side::South).next().is_none());
        let rules = BaoRules::new(Start::Kujifunza);
        let moves = generate(&rules, &pos);
        for mv in &moves.endless {
            let dir = mv.toward.unwrap().sowing_dir(mv.pit);
            let clockwise = dir == granary_bao::board::Dir::Clockwise;
            prop_assert_eq!(plain_takasa(mine, usize::from(mv.pit), clockwise), None, "{:?}", mv);
        }
        for (mv, child) in &moves.legal {
            let dir = mv.toward.unwrap().sowing_dir(mv.pit);
            let clockwise = dir == granary_bao::board::Dir::Clockwise;
            prop_assert_eq!(plain_takasa(mine, usize::from(mv.pit), clockwise), Some(child.pits[0]), "{:?}", mv);
            prop_assert_eq!(child.pits[1], theirs);
        }
    }
}

/// South's only takasa origin is A3 (3 seeds; every other pit holds at most one), and sowing it
/// either way loops for ever: South has no legal move and has lost. (Found by a random search.)
#[test]
fn a_player_whose_every_move_is_endless_has_no_move() {
    let rules = BaoRules::new(Start::Kujifunza);
    let pos = parse_position(
        "0,0,0,0,1,1,0,0/0,0,0,0,1,0,0,0/0,1,3,1,0,1,0,1/1,0,1,0,1,0,3,0 0-0 S",
        &rules,
    )
    .unwrap();
    let moves = generate(&rules, &pos);
    assert!(moves.legal.is_empty());
    let endless: Vec<String> = moves.endless.iter().map(|m| m.text(false)).collect();
    assert_eq!(endless, ["A3R", "A3L"]);
    let mine = pos.pits[0];
    assert_eq!(plain_takasa(mine, 2, true), None);
    assert_eq!(plain_takasa(mine, 2, false), None);
}

/// A never-ending move of Bao la kujifunza with a long cycle: South's A1 sown right relays for
/// ever; its states first repeat after 415,157,807 sowings, in a cycle of 146,722,351 (measured
/// with the packed relay and Brent's finder; a state-set simulation would need gigabytes). A seed
/// cap of any practical size would call it finite-but-long; the exact finder calls it endless.
#[test]
fn a_never_ending_move_with_a_cycle_of_146_million_sowings() {
    let rules = BaoRules::new(Start::Kujifunza);
    let pos = parse_position(
        "2,2,2,2,2,2,0,0/0,0,0,0,0,1,0,0/2,2,6,0,4,0,14,1/1,8,1,4,3,0,1,4 0-0 S",
        &rules,
    )
    .unwrap();
    assert!(mtaji_captures(&pos, Side::South).next().is_none());
    let moves = generate(&rules, &pos);
    let endless: Vec<String> = moves.endless.iter().map(|m| m.text(false)).collect();
    assert_eq!(endless, ["A1R"]);
    assert_eq!(moves.legal.len(), 9);
}
