//! The same bytes whatever the number of threads, and whatever the regions in which the phases
//! inform parents: Kalah (both capture rules) and Oware.

use granary_retrograde::{BuildOptions, PIECE, build_layers};
use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::{TableKind, TableSet};

fn files(game: Game, m: usize, max: u32, threads: usize) -> Vec<Vec<u8>> {
    let options = BuildOptions {
        threads: Some(threads),
        memory: None,
        compress: None,
        checkpoint_every: None,
        region: None,
    };
    files_with(game, m, max, options).0
}

/// The files of `game` to `max` built with `options`, and how many layers the phases built.
fn files_with(game: Game, m: usize, max: u32, options: BuildOptions) -> (Vec<Vec<u8>>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind { game, pits: m };
    let reports = build_layers(dir.path(), kind, max, options, &()).unwrap();
    let phased = reports.iter().filter(|r| r.counts.is_some()).count();
    let set = TableSet::new(dir.path(), kind);
    let files = (0..=max)
        .map(|n| std::fs::read(set.layer_path(n)).unwrap())
        .collect();
    (files, phased)
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

/// Parents informed region by region, as in a block beyond the TLB's reach
/// (`BlockPlan::region`; here regions of one work piece, more than a hundred a layer at awari 14 and 387 at
/// awari 16), on one, two and three threads, in one block and in blocks under a budget: the same
/// bytes as parents informed as they come. Kalah's layers fit its builder in order of potential
/// unless the budget is small: only that case reaches the phases (layers 13 and 14).
fn parents_informed_by_region(awari_max: u32) {
    let awari = Game::Oware {
        rules: OwareRules::Awari,
    };
    let kalah = Game::Kalah {
        capture: Capture::Empty,
        sweep: Sweep::Emptied,
    };
    let budget = Some(2 << 20);
    // Each game, its top layer, and its threads and budgets.
    type Settings<'a> = &'a [(usize, Option<u64>)];
    let cases: [(Game, u32, Settings); 2] = [
        (
            awari,
            awari_max,
            &[(1, None), (2, None), (3, None), (2, budget)],
        ),
        (kalah, 14, &[(2, budget)]),
    ];
    for (game, max, settings) in cases {
        let expected = files(game, 6, max, 2);
        for &(threads, memory) in settings {
            let options = BuildOptions {
                threads: Some(threads),
                memory,
                compress: None,
                checkpoint_every: None,
                region: Some(PIECE),
            };
            let (other, phased) = files_with(game, 6, max, options);
            assert!(phased >= 2, "{game:?}: {phased} layers by the phases");
            for (n, (a, b)) in expected.iter().zip(&other).enumerate() {
                assert!(
                    a == b,
                    "{game:?} layer {n}: regions of a piece, {threads} threads, {memory:?} bytes: other bytes"
                );
            }
        }
    }
}

#[test]
fn parents_informed_by_region_write_the_same_files() {
    parents_informed_by_region(14);
}

#[test]
#[ignore = "slow (about 35 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn parents_informed_by_region_write_the_same_files_to_awari_16() {
    parents_informed_by_region(16);
}
