//! Proof-number search against the depth-limited proof search on positions of random games:
//! wherever either decides a position, they must agree.

use crate::common::reference;
use crate::common::rng::Rng;
use granary_bao::notation::parse_position;
use granary_bao::pns::{self, Verdict};
use granary_bao::prove::{Proof, Prover};
use granary_bao::{BaoRules, Position, Start, TakasiaRule, legal_moves};

#[test]
fn a_win_in_one_and_a_lost_position() {
    let rules = BaoRules::new(Start::Kiswahili);
    let win = parse_position(
        "2,2,2,2,2,2,2,2/0,0,0,0,1,0,0,0/0,0,2,0,1,0,0,0/1,1,1,1,1,1,1,1 0-0 S",
        &rules,
    )
    .unwrap();
    let r = pns::search(&rules, &win, 10_000);
    assert_eq!(r.verdict, Verdict::Win);
    assert_eq!(r.best.map(|m| m.text(false)), Some("A3R".to_string()));
    let lost = parse_position(
        "2,2,2,2,2,2,2,2/0,0,0,0,1,0,0,0/1,0,1,0,1,0,0,0/1,1,1,1,1,1,1,1 0-0 S",
        &rules,
    )
    .unwrap();
    assert_eq!(pns::search(&rules, &lost, 10_000).verdict, Verdict::Loss);
}

#[test]
fn agrees_with_the_depth_limited_proof_search() {
    let mut decided = 0;
    for start in [Start::Kujifunza, Start::Kiswahili] {
        let rules = BaoRules::new(start);
        for game in 0..40u64 {
            let mut rng = Rng::for_game(game);
            let mut pos = Position::start(&rules);
            // Into the game: kujifunza ends fast, kiswahili needs its namua played out.
            let plies = if start == Start::Kujifunza {
                4 + game % 6
            } else {
                50 + game % 20
            };
            for _ in 0..plies {
                let moves = legal_moves(&rules, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = moves[rng.below(moves.len())].1;
            }
            let by_depth = Prover::new(&rules).search(&pos, 5);
            let by_pns = pns::search(&rules, &pos, 100_000).verdict;
            match (by_depth, by_pns) {
                (Proof::Win(_), v) => {
                    assert!(v != Verdict::Loss, "game {game}: depth says win, pns {v:?}")
                }
                (Proof::Loss(_), v) => {
                    assert!(v != Verdict::Win, "game {game}: depth says loss, pns {v:?}")
                }
                (Proof::Unknown, _) => {}
            }
            if let (Proof::Win(_), Verdict::Win) | (Proof::Loss(_), Verdict::Loss) =
                (by_depth, by_pns)
            {
                decided += 1;
            }
        }
    }
    assert!(decided >= 10, "only {decided} positions decided by both");
}

/// Walks a winning strategy of South's with the plain implementation of
/// `common/reference.rs`: at South's positions the strategy's move must be legal there, at
/// North's every reply is followed, and every line must end with North to move and no move
/// (front row empty or nothing to play) without ever coming back to a position of the line.
/// Returns the positions checked, the lines' end positions and the longest line (plies).
fn check_strategy(
    rules: &BaoRules,
    strategy: &std::collections::HashMap<String, String>,
) -> (usize, usize, usize) {
    fn walk(
        rules: &BaoRules,
        strategy: &std::collections::HashMap<String, String>,
        pos: reference::RefPos,
        line: &mut std::collections::HashSet<String>,
        done: &mut std::collections::HashSet<String>,
        ends: &mut usize,
        longest: &mut usize,
    ) {
        let text = reference::format(&pos);
        *longest = (*longest).max(line.len());
        if done.contains(&text) {
            return;
        }
        assert!(
            line.insert(text.clone()),
            "the strategy comes back to {text}"
        );
        let moves = reference::moves(rules, &pos);
        if pos.to_move == 0 {
            let mv = strategy
                .get(&text)
                .unwrap_or_else(|| panic!("no strategy move at {text}"));
            let (_, child) = moves
                .iter()
                .find(|(m, _)| m == mv)
                .unwrap_or_else(|| panic!("{mv} is not legal at {text} for the reference"));
            walk(rules, strategy, child.clone(), line, done, ends, longest);
        } else {
            if moves.is_empty() {
                *ends += 1;
            }
            for (_, child) in moves {
                walk(rules, strategy, child, line, done, ends, longest);
            }
        }
        line.remove(&text);
        done.insert(text);
    }
    let start = reference::parse(&granary_bao::notation::format_position(&Position::start(
        rules,
    )));
    let (mut line, mut done, mut ends, mut longest) = Default::default();
    walk(
        rules,
        strategy,
        start,
        &mut line,
        &mut done,
        &mut ends,
        &mut longest,
    );
    (done.len(), ends, longest)
}

/// Bao la kujifunza is a first-player win (Donkers & Uiterwijk, 2002). The proof-number search
/// finds a winning strategy for South from the start, under both readings of takasia, and the
/// plain implementation, which shares no code with the engine, checks it position by position.
#[test]
fn bao_la_kujifunza_is_a_first_player_win() {
    for takasia in [TakasiaRule::Kiba, TakasiaRule::Off] {
        let mut rules = BaoRules::new(Start::Kujifunza);
        rules.takasia = takasia;
        prove_the_start(&rules);
    }
}

fn prove_the_start(rules: &BaoRules) {
    let rules = *rules;
    let result = pns::search(&rules, &Position::start(&rules), 2_000_000);
    assert_eq!(result.verdict, Verdict::Win);
    let strategy = result
        .strategy
        .iter()
        .map(|(p, m)| (granary_bao::notation::format_position(p), m.text(false)))
        .collect();
    let (positions, ends, longest) = check_strategy(&rules, &strategy);
    eprintln!(
        "{}: first move {}; proof: {} tree nodes, {} strategy positions; checked {positions} positions, {ends} won ends, longest line {longest} plies",
        rules.describe(),
        result.best.unwrap().text(false),
        result.nodes,
        result.strategy.len()
    );
    assert!(ends > 0);
}
