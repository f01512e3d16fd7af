//! The same bytes whatever the number of threads: Kalah (both capture rules) and Oware.

use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::{TableKind, TableSet};

fn files(game: Game, m: usize, max: u32, threads: usize) -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind { game, pits: m };
    let options = BuildOptions {
        threads: Some(threads),
        memory: None,
        compress: None,
        checkpoint_every: None,
    };
    build_layers(dir.path(), kind, max, options, &()).unwrap();
    let set = TableSet::new(dir.path(), kind);
    (0..=max)
        .map(|n| std::fs::read(set.layer_path(n)).unwrap())
        .collect()
}

#[test]
fn one_two_and_three_threads_write_the_same_files() {
    let games = [
        (
            Game::Kalah {
                capture: Capture::Standard,
                sweep: Sweep::Owner,
            },
            6,
            13,
        ),
        (
            Game::Kalah {
                capture: Capture::Empty,
                sweep: Sweep::Emptied,
            },
            6,
            13,
        ),
        (
            Game::Oware {
                rules: OwareRules::Awari,
            },
            6,
            11,
        ),
    ];
    for (game, m, max) in games {
        let one = files(game, m, max, 1);
        for threads in [2, 3] {
            let other = files(game, m, max, threads);
            for (n, (a, b)) in one.iter().zip(&other).enumerate() {
                assert!(
                    a == b,
                    "{game:?} layer {n}: {threads} threads differ from 1"
                );
            }
        }
    }
}
