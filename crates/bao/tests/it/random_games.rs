//! 10,000 random games of each rule set play to a rule-defined end without a panic: the player
//! to move has an empty front row, or no legal move (none the rules allow, or only endless ones).
//! Every position on the way keeps the 64 seeds and the rules' own invariants.

use crate::common::rng::Rng;
use granary_bao::board::{NYUMBA, ROW};
use granary_bao::{BaoRules, Position, Start, generate};
use granary_rules::Side;

#[derive(Default, Debug)]
struct Ends {
    front_row_empty: u32,
    no_move: u32,
    only_endless: u32,
    longest: usize,
}

/// Plays one random game; panics on a broken invariant or a game over `cap` moves.
fn play(rules: &BaoRules, seed: u64, cap: usize, ends: &mut Ends) {
    let mut rng = Rng::for_game(seed);
    let mut pos = Position::start(rules);
    for ply in 0..cap {
        assert_eq!(pos.total_seeds(), 64, "game {seed} ply {ply}");
        if !rules.has_nyumba() {
            assert_eq!(pos.nyumba, [false; 2]);
        }
        if let Some(pit) = pos.takasia {
            // Takasia protects a front pit that could be lifted, never the owned nyumba.
            let me = usize::from(pos.to_move == Side::North);
            assert!(
                usize::from(pit) < ROW && pos.pits[me][usize::from(pit)] >= 2,
                "game {seed} ply {ply}"
            );
            assert!(!(pos.nyumba[me] && pit == NYUMBA), "game {seed} ply {ply}");
        }
        if pos.front_seeds(pos.to_move) == 0 {
            ends.front_row_empty += 1;
            ends.longest = ends.longest.max(ply);
            return;
        }
        let moves = generate(rules, &pos);
        if moves.legal.is_empty() {
            if moves.endless.is_empty() {
                ends.no_move += 1;
            } else {
                ends.only_endless += 1;
            }
            ends.longest = ends.longest.max(ply);
            return;
        }
        let (mv, child) = moves.legal[rng.below(moves.legal.len())];
        // The mover's hand falls by one exactly in the namua stage.
        let me = usize::from(pos.to_move == Side::North);
        let expected_hand = pos.hands[me].saturating_sub(1);
        assert_eq!(
            child.hands[me], expected_hand,
            "game {seed} ply {ply} {mv:?}"
        );
        for s in 0..2 {
            // A nyumba once given up or captured is never owned again.
            assert!(pos.nyumba[s] || !child.nyumba[s], "game {seed} ply {ply}");
        }
        // The player who just moved cannot be forbidden anything; takasia is for the opponent.
        assert!(
            child.takasia.is_none() || pos.hands[me] == 0,
            "game {seed} ply {ply}"
        );
        assert_eq!(child.to_move, pos.to_move.other());
        pos = child;
    }
    panic!("game {seed} did not end in {cap} moves");
}

fn run(start: Start, games: u64) -> Ends {
    let rules = BaoRules::new(start);
    let mut ends = Ends::default();
    for seed in 0..games {
        play(&rules, seed, 5_000, &mut ends);
    }
    eprintln!("{}: {ends:?}", rules.describe());
    assert_eq!(
        u64::from(ends.front_row_empty + ends.no_move + ends.only_endless),
        games
    );
    ends
}

#[test]
fn ten_thousand_random_games_of_bao_la_kiswahili_end() {
    let ends = run(Start::Kiswahili, 10_000);
    assert!(ends.front_row_empty > 0);
}

#[test]
fn ten_thousand_random_games_of_bao_la_kujifunza_end() {
    let ends = run(Start::Kujifunza, 10_000);
    assert!(ends.front_row_empty > 0);
}

#[test]
fn a_thousand_random_games_of_the_malawi_start_end() {
    run(Start::Malawi, 1_000);
}
