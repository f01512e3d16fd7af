//! Built tables against an independent solver: value iteration to a fixed point over every layout
//! of each small layer, on the plain reference rules with hash maps (no index, no un-moves, no
//! retrograde order). Every game, rule option and board size 1..6.

use std::collections::HashMap;

use granary_index::LayerIndex;
use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::reference::{RefPosition, Reference};
use granary_rules::{Board, Capture, Game, OwareRules, Side, Sweep};
use granary_tables::{TableKind, TableSet};

/// A layout seen from the mover: the mover's pits, then the opponent's, each in sowing order.
type Layout = Vec<u32>;

fn layouts(lanes: usize, seeds: u32) -> Vec<Layout> {
    if lanes == 1 {
        return vec![vec![seeds]];
    }
    (0..=seeds)
        .flat_map(|first| {
            layouts(lanes - 1, seeds - first)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

fn as_position(layout: &Layout, m: usize) -> RefPosition {
    RefPosition {
        pits: [layout[..m].to_vec(), layout[m..].to_vec()],
        stores: [0, 0],
        to_move: Side::South,
    }
}

/// The layout of a reference position seen from its mover.
fn seen_by_mover(pos: &RefPosition) -> Layout {
    let (own, other) = match pos.to_move {
        Side::South => (0, 1),
        Side::North => (1, 0),
    };
    pos.pits[own]
        .iter()
        .chain(&pos.pits[other])
        .copied()
        .collect()
}

/// Values of every layout of layers `0..=max` by value iteration from 0.
fn value_iteration(game: Game, m: usize, max: u32) -> Vec<HashMap<Layout, i32>> {
    let mut reference = Reference::new(game, m);
    reference.majority_ends = false;
    let mut layers: Vec<HashMap<Layout, i32>> = Vec::new();
    for n in 0..=max {
        let all = layouts(2 * m, n);
        let mut values: HashMap<Layout, i32> = all.iter().map(|l| (l.clone(), 0)).collect();
        loop {
            let mut next = HashMap::new();
            for layout in &all {
                let pos = as_position(layout, m);
                let moves = reference.legal_moves(&pos);
                let value = if moves.is_empty() {
                    let [s, n] = reference.outcome(&pos).unwrap();
                    s as i32 - n as i32
                } else {
                    let option = |pit: usize| {
                        let child = reference.play(&pos, pit);
                        let seeds: u32 = child.pits.iter().flatten().sum();
                        let layer = if seeds == n {
                            &values
                        } else {
                            &layers[seeds as usize]
                        };
                        let v = layer[&seen_by_mover(&child)];
                        let gain = child.stores[0] as i32 - child.stores[1] as i32;
                        if child.to_move == Side::South {
                            gain + v
                        } else {
                            gain - v
                        }
                    };
                    moves.into_iter().map(option).max().unwrap()
                };
                next.insert(layout.clone(), value);
            }
            let done = next == values;
            values = next;
            if done {
                break;
            }
        }
        layers.push(values);
    }
    layers
}

fn check(game: Game, m: usize, max: u32) {
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind { game, pits: m };
    let options = BuildOptions {
        threads: Some(2),
        memory: None,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    build_layers(dir.path(), kind, max, options, &()).unwrap();
    let set = TableSet::new(dir.path(), kind);
    let expected = value_iteration(game, m, max);
    for (n, values) in expected.iter().enumerate() {
        let index = LayerIndex::new(m, n as u32, kind.reduced()).unwrap();
        let mut checked = 0u64;
        for (layout, &value) in values {
            let bytes: Vec<u8> = layout.iter().map(|&x| x as u8).collect();
            let board = Board::from_sides(&bytes[..m], &bytes[m..]);
            match set.probe(board).unwrap() {
                Some(v) => {
                    assert_eq!(i32::from(v), value, "{} layer {n} {layout:?}", kind.name());
                    checked += 1;
                }
                None => assert!(kind.reduced(), "{layout:?} missing from a full index"),
            }
        }
        assert_eq!(
            checked,
            index.size(),
            "{} layer {n}: every entry checked",
            kind.name()
        );
    }
}

/// The largest layer checked for `m` pits a side: small enough for value iteration.
fn max_seeds(m: usize) -> u32 {
    [0, 24, 14, 10, 8, 7, 6][m]
}

#[test]
fn kalah_all_options_against_value_iteration() {
    for capture in [Capture::Empty, Capture::Standard] {
        for sweep in [Sweep::Owner, Sweep::Emptied] {
            for m in 1..=6 {
                check(Game::Kalah { capture, sweep }, m, max_seeds(m));
            }
        }
    }
}

#[test]
fn oware_both_rule_sets_against_value_iteration() {
    for rules in [OwareRules::Abapa, OwareRules::Awari] {
        for m in 1..=6 {
            check(Game::Oware { rules }, m, max_seeds(m));
        }
    }
}
