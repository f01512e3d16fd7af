//! The engine against the plain implementation of `common/reference.rs`: perft counts of the
//! committed data, and every move (its text and resulting position) along random games.

use crate::common::reference;
use crate::common::rng::Rng;
use granary_bao::notation::{format_position, parse_position};
use granary_bao::{BaoRules, Position, generate};

fn rules_of(head: &[&str]) -> BaoRules {
    let mut rules = BaoRules::new(head[0].parse().unwrap());
    if head[1] != "-" {
        rules.nyumba = head[1].parse().unwrap();
        rules.tax = head[3].parse().unwrap();
    }
    rules.takasia = head[2].parse().unwrap();
    rules
}

/// Rows of `data/perft/bao.csv` small enough for the plain implementation.
#[test]
fn perft_counts_agree_with_the_reference() {
    let path = format!("{}/../../data/perft/bao.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let nodes: u64 = f[f.len() - 1].parse().unwrap();
        if nodes > 200_000 {
            continue;
        }
        let rules = rules_of(&f[..4]);
        let position = f[4..f.len() - 2].join(",");
        let depth: u32 = f[f.len() - 2].parse().unwrap();
        let pos = if position == "-" {
            Position::start(&rules)
        } else {
            parse_position(&position, &rules).unwrap()
        };
        let r = reference::parse(&format_position(&pos));
        assert_eq!(reference::perft(&rules, &r, depth), nodes, "{line}");
        checked += 1;
    }
    assert!(checked >= 80, "{checked} rows checked");
}

/// Along random games of every rule set and option, each position's moves (texts and
/// positions, written alike) are the same in both.
#[test]
fn every_move_of_random_games_agrees_with_the_reference() {
    let mut positions = 0;
    for (start, nyumba, takasia, tax) in [
        ("kiswahili", "emptied", "kiba", "last-resort"),
        ("kiswahili", "below6", "kiba", "always"),
        ("kiswahili", "namua", "off", "last-resort"),
        ("malawi", "emptied", "kiba", "last-resort"),
        ("kujifunza", "-", "kiba", "-"),
        ("kujifunza", "-", "off", "-"),
    ] {
        let rules = rules_of(&[start, nyumba, takasia, tax]);
        for game in 0..150u64 {
            let mut rng = Rng::for_game(game);
            let mut pos = Position::start(&rules);
            for _ in 0..300 {
                let text = format_position(&pos);
                let mut engine: Vec<(String, String)> = generate(&rules, &pos)
                    .legal
                    .iter()
                    .map(|(m, c)| {
                        (
                            m.text(pos.to_move == granary_rules::Side::North),
                            format_position(c),
                        )
                    })
                    .collect();
                let mut plain: Vec<(String, String)> =
                    reference::moves(&rules, &reference::parse(&text))
                        .iter()
                        .map(|(m, c)| (m.clone(), reference::format(c)))
                        .collect();
                engine.sort();
                plain.sort();
                assert_eq!(engine, plain, "{} at {text}", rules.describe());
                positions += 1;
                let moves = generate(&rules, &pos).legal;
                if moves.is_empty() {
                    break;
                }
                pos = moves[rng.below(moves.len())].1;
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
}
