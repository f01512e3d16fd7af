//! Random positions of larger Kalah layers against a plain memoized negamax on the reference rules.
//! Kalah positions never repeat, so plain recursion is exact; it shares nothing with the builder.

use std::collections::HashMap;

use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::reference::{RefPosition, Reference};
use granary_rules::{Board, Capture, Game, Side, Sweep};
use granary_tables::{TableKind, TableSet};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The net score the mover still makes from `pos` (stores ignored), memoized by layout.
fn negamax(reference: &Reference, pos: &RefPosition, memo: &mut HashMap<Vec<u32>, i32>) -> i32 {
    let (own, other) = if pos.to_move == Side::South {
        (0, 1)
    } else {
        (1, 0)
    };
    let key: Vec<u32> = pos.pits[own]
        .iter()
        .chain(&pos.pits[other])
        .copied()
        .collect();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let stores = |p: &RefPosition| (p.stores[own] as i32, p.stores[other] as i32);
    let (mine, theirs) = stores(pos);
    let moves = reference.legal_moves(pos);
    let value = if moves.is_empty() {
        let fin = reference.outcome(pos).unwrap();
        (fin[own] as i32 - mine) - (fin[other] as i32 - theirs)
    } else {
        moves
            .into_iter()
            .map(|pit| {
                let child = reference.play(pos, pit);
                let (m2, t2) = stores(&child);
                let gain = (m2 - mine) - (t2 - theirs);
                let v = negamax(reference, &child, memo);
                if child.to_move == pos.to_move {
                    gain + v
                } else {
                    gain - v
                }
            })
            .max()
            .unwrap()
    };
    memo.insert(key, value);
    value
}

fn check(game: Game, m: usize, seeds: u32, samples: usize) {
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind { game, pits: m };
    build_layers(
        dir.path(),
        kind,
        seeds,
        BuildOptions {
            threads: Some(2),
            memory: None,
            compress: None,
            checkpoint_every: None,
            region: None,
        },
        &(),
    )
    .unwrap();
    let set = TableSet::new(dir.path(), kind);
    let reference = Reference::new(game, m);
    let mut memo = HashMap::new();
    // Seeded: the positions are the same every run.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(seeds));
    for _ in 0..samples {
        let mut pits = vec![0u32; 2 * m];
        for _ in 0..seeds {
            pits[(rng.next_u64() % (2 * m as u64)) as usize] += 1;
        }
        let pos = RefPosition {
            pits: [pits[..m].to_vec(), pits[m..].to_vec()],
            stores: [0, 0],
            to_move: Side::South,
        };
        let bytes: Vec<u8> = pits.iter().map(|&x| x as u8).collect();
        let table = set
            .probe(Board::from_sides(&bytes[..m], &bytes[m..]))
            .unwrap()
            .unwrap();
        assert_eq!(
            i32::from(table),
            negamax(&reference, &pos, &mut memo),
            "{} {pits:?}",
            kind.name()
        );
    }
}

#[test]
fn kalah_larger_layers_against_negamax() {
    check(
        Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        4,
        14,
        300,
    );
    check(
        Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        4,
        14,
        300,
    );
    check(
        Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Emptied,
        },
        5,
        11,
        200,
    );
    check(
        Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        6,
        10,
        200,
    );
}
