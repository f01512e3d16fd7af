//! The solver against independent values: a plain minimax on the reference rules for small Kalah
//! games, and full tables for random positions searched with a lower table horizon.

use crate::common::{minimax, six_pit_tables};
use std::collections::HashMap;

use granary_rules::reference::Reference;
use granary_rules::{Board, Capture, Game, Kalah, Position, Rules, Side, Sweep, Variant};
use granary_search::Solver;
use granary_search::solver::Worth;

const GAMES: [Game; 4] = [
    Game::Kalah {
        capture: Capture::Empty,
        sweep: Sweep::Owner,
    },
    Game::Kalah {
        capture: Capture::Standard,
        sweep: Sweep::Owner,
    },
    Game::Kalah {
        capture: Capture::Empty,
        sweep: Sweep::Emptied,
    },
    Game::Kalah {
        capture: Capture::Standard,
        sweep: Sweep::Emptied,
    },
];

fn kalah(game: Game, m: usize) -> Kalah {
    let Game::Kalah { capture, sweep } = game else {
        unreachable!()
    };
    Kalah::new(m, capture, sweep)
}

#[test]
fn small_kalah_start_positions_against_minimax() {
    for game in GAMES {
        for m in 1..=4 {
            for n in 1..=(9 / m as u32).min(4) {
                let variant = Variant::new(game, m, n).unwrap();
                let reference = Reference::new(game, m);
                let expected = minimax(&reference, &reference.start(n), &mut HashMap::new());
                let solver = Solver::new(kalah(game, m), None, 8).unwrap();
                let solution = solver.solve(&variant.start(), true).unwrap();
                assert_eq!(solution.value, expected, "{variant}");
                // Every root move exact, and the principal variation plays out to the value.
                for root in &solution.moves {
                    let child = reference.play(&reference.start(n), root.lane);
                    let v = minimax(&reference, &child, &mut HashMap::new());
                    let v = if child.to_move == Side::South { v } else { -v };
                    assert_eq!(
                        root.worth,
                        Worth::Exact(v),
                        "{variant} move {}",
                        root.lane + 1
                    );
                }
                let rules = kalah(game, m);
                let mut pos = variant.start();
                for &lane in &solution.pv {
                    pos = rules.play(&pos, lane);
                }
                let outcome = rules.outcome(&pos).expect("the pv ends the game");
                let [s, north] = pos.absolute(outcome.stores).map(|x| x as i32);
                assert_eq!(s - north, expected, "{variant}: pv result");
            }
        }
    }
}

#[test]
fn random_positions_against_full_tables() {
    for game in [GAMES[0], GAMES[3]] {
        let (_dir, set) = six_pit_tables(game, 12);
        let kind = set.kind();
        let mapped = Solver::new(kalah(game, 6), Some((&set, 5)), 16).unwrap();
        // The same search over the layers copied into memory.
        let resident = Solver::new(kalah(game, 6), Some((&set, 5)), 16)
            .unwrap()
            .resident();
        assert_eq!(mapped.resident_bytes(), 0);
        let all: u64 = (0..=5).map(|n| set.layer(n).unwrap().len()).sum();
        assert_eq!(resident.resident_bytes(), all, "every layer copied");
        // Cutoffs on children's stored bounds from 1 seed above the tables (by default from 10
        // above, 15 seeds: none of these 12-seed positions).
        let etc = Solver::new(kalah(game, 6), Some((&set, 5)), 16)
            .unwrap()
            .etc_margin(1);
        let solvers = [&mapped, &resident, &etc];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for (i, solver) in (0..90).map(|i| (i, solvers[i % 3])) {
            let mut pits = [0u8; 12];
            for _ in 0..12 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pits[(x % 12) as usize] += 1;
            }
            let board = Board::from_sides(&pits[..6], &pits[6..]);
            let pos = Position {
                board,
                stores: [3, 7],
                to_move: Side::North,
            };
            let expected = i32::from(set.probe(board).unwrap().unwrap());
            let solution = solver.solve(&pos, false).unwrap();
            assert_eq!(solution.value, expected, "{} {pits:?} ({i})", kind.name());
        }
    }
}

#[test]
fn progress_bounds_narrow_to_each_root_moves_value() {
    use granary_search::Progress;
    for game in [GAMES[0], GAMES[1]] {
        for (m, n) in [(2, 4), (3, 3), (4, 2)] {
            let variant = Variant::new(game, m, n).unwrap();
            let reference = Reference::new(game, m);
            let solver = Solver::new(kalah(game, m), None, 8).unwrap();
            let start = reference.start(n);
            let mut memo = HashMap::new();
            let truth: HashMap<usize, i32> = reference
                .legal_moves(&start)
                .into_iter()
                .map(|lane| {
                    let child = reference.play(&start, lane);
                    let v = minimax(&reference, &child, &mut memo);
                    (lane, if child.to_move == Side::South { v } else { -v })
                })
                .collect();
            let mut bounds: HashMap<usize, (i32, i32)> = HashMap::new();
            let mut settled = Vec::new();
            let mut last_nodes = 0;
            let solution = solver
                .solve_reporting(&variant.start(), false, |step| {
                    let nodes = match step {
                        Progress::Bounds {
                            lane,
                            lower,
                            upper,
                            nodes,
                            ..
                        } => {
                            // Each pass keeps within the last one, and holds the move's true value.
                            let (lo, hi) =
                                bounds.get(&lane).copied().unwrap_or((i32::MIN, i32::MAX));
                            assert!(lo <= lower && upper <= hi && lower <= upper, "{variant}");
                            assert!(
                                (lower..=upper).contains(&truth[&lane]),
                                "{variant} move {}",
                                lane + 1
                            );
                            bounds.insert(lane, (lower, upper));
                            nodes
                        }
                        Progress::Settled {
                            root_move, nodes, ..
                        } => {
                            settled.push(*root_move);
                            nodes
                        }
                    };
                    assert!(nodes >= last_nodes, "{variant}: nodes only grow");
                    last_nodes = nodes;
                })
                .unwrap();
            // Every root move settled once, as the solution gives it; an exact one where its
            // passes closed.
            settled.sort_by_key(|r| r.lane);
            assert_eq!(settled, solution.moves, "{variant}");
            for r in &settled {
                if let Worth::Exact(v) = r.worth {
                    assert_eq!(bounds.get(&r.lane), Some(&(v, v)), "{variant}");
                }
            }
        }
    }
}

/// Root moves with one thread and with two (the moves after the first tested one a thread each):
/// the same answers, each true: an exact move its value, an inexact one no more than it says;
/// principal variations that reach the value.
#[test]
fn root_moves_agree_across_threads_and_with_minimax() {
    for game in [GAMES[0], GAMES[1]] {
        for (m, n) in [(2, 4), (3, 3), (4, 2), (3, 4)] {
            let variant = Variant::new(game, m, n).unwrap();
            let reference = Reference::new(game, m);
            let start = reference.start(n);
            let mut memo = HashMap::new();
            let truth: HashMap<usize, i32> = reference
                .legal_moves(&start)
                .into_iter()
                .map(|lane| {
                    let child = reference.play(&start, lane);
                    let v = minimax(&reference, &child, &mut memo);
                    (lane, if child.to_move == Side::South { v } else { -v })
                })
                .collect();
            let solutions: Vec<_> = [1, 2]
                .map(|threads| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(|| {
                            let solver = Solver::new(kalah(game, m), None, 8).unwrap();
                            solver.solve(&variant.start(), false).unwrap()
                        })
                })
                .into();
            assert_eq!(solutions[0].moves, solutions[1].moves, "{variant}: moves");
            // A principal variation may differ (the threads leave other best moves in the
            // transposition table); each plays out to the value.
            for solution in &solutions {
                let rules = kalah(game, m);
                let mut pos = variant.start();
                for &lane in &solution.pv {
                    pos = rules.play(&pos, lane);
                }
                let outcome = rules.outcome(&pos).expect("the pv ends the game");
                let [s, north] = pos.absolute(outcome.stores).map(|x| x as i32);
                assert_eq!(s - north, solution.value, "{variant}: pv result");
            }
            let best = truth.values().copied().max().unwrap();
            assert_eq!(solutions[1].value, best, "{variant}");
            for r in &solutions[1].moves {
                let v = truth[&r.lane];
                assert!(
                    r.worth.admits(v),
                    "{variant} move {}: {:?}, truly {v}",
                    r.lane + 1,
                    r.worth
                );
            }
            // A best move is given exactly (others of its value may be bounds).
            assert!(
                solutions[1]
                    .moves
                    .iter()
                    .any(|r| r.worth == Worth::Exact(best)),
                "{variant}"
            );
        }
    }
}

/// The solver front ends hold ([`granary_search::kalah_solver`]: 6 pits a constant) against the
/// solver over the rules with the pit count read at run time: on one thread both visit the
/// same nodes, so the whole solution must match, node count included.
#[test]
fn the_six_pit_solver_is_the_same_search() {
    use granary_search::Progress;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for game in GAMES {
        let (_dir, set) = six_pit_tables(game, 6);
        for (seeds, tables) in [
            (1, None),
            (2, None),
            (2, Some((&set, 4))),
            (2, Some((&set, 6))),
        ] {
            let variant = Variant::new(game, 6, seeds).unwrap();
            let (general, six) = one.install(|| {
                let general = Solver::new(kalah(game, 6), tables, 4)
                    .unwrap()
                    .solve(&variant.start(), true)
                    .unwrap();
                let mut steps = 0;
                let six = granary_search::kalah_solver(&kalah(game, 6), tables, 4, false)
                    .unwrap()
                    .solve_reporting(&variant.start(), true, &mut |step: Progress<'_>| {
                        steps += usize::from(matches!(step, Progress::Settled { .. }));
                    })
                    .unwrap();
                assert_eq!(
                    steps,
                    six.moves.len(),
                    "{variant}: every root move reported"
                );
                (general, six)
            });
            let horizon = tables.map(|(_, h)| h);
            assert_eq!(six.value, general.value, "{variant} over {horizon:?}");
            assert_eq!(six.moves, general.moves, "{variant} over {horizon:?}");
            assert_eq!(six.pv, general.pv, "{variant} over {horizon:?}");
            assert_eq!(six.nodes, general.nodes, "{variant} over {horizon:?}");
        }
    }
}

/// MTD(f) started from the depth-limited estimate (`Solver::first_guess`, here for every
/// position above the tables, margin 0): Kalah(3,3) and Kalah(3,4), 18 and 24 seeds, no tables,
/// every root move against the plain minimax.
#[test]
fn solves_from_an_estimated_guess_against_minimax() {
    for game in GAMES {
        for n in 3..=4 {
            let variant = Variant::new(game, 3, n).unwrap();
            let reference = Reference::new(game, 3);
            let start = reference.start(n);
            let mut memo = HashMap::new();
            let expected = minimax(&reference, &start, &mut memo);
            let solver = Solver::new(kalah(game, 3), None, 16)
                .unwrap()
                .guess_margin(0);
            let solution = solver.solve(&variant.start(), true).unwrap();
            assert_eq!(solution.value, expected, "{variant}");
            for root in &solution.moves {
                let child = reference.play(&start, root.lane);
                let v = minimax(&reference, &child, &mut memo);
                let v = if child.to_move == Side::South { v } else { -v };
                assert_eq!(
                    root.worth,
                    Worth::Exact(v),
                    "{variant} move {}",
                    root.lane + 1
                );
            }
        }
    }
}

/// The estimate is exact once its depth reaches every end of the game, and MTD(f) reaches the
/// value from any first guess, far or near.
#[test]
fn the_estimate_and_any_guess_against_minimax() {
    for game in GAMES {
        for (m, n) in [(2, 2), (2, 3), (3, 2)] {
            let variant = Variant::new(game, m, n).unwrap();
            let reference = Reference::new(game, m);
            let expected = minimax(&reference, &reference.start(n), &mut HashMap::new());
            let solver = Solver::new(kalah(game, m), None, 8).unwrap();
            let seeds = (2 * m * n as usize) as i32;
            let (mut nodes, mut shallow) = (0, 0);
            assert_eq!(
                solver.estimate(&variant.start(), 1000, &mut nodes),
                expected,
                "{variant}: estimate to the end"
            );
            // A shallow estimate is a guess: within the bounds of the seeds, not the value.
            let guess = solver.estimate(&variant.start(), 2, &mut shallow);
            assert!((-seeds..=seeds).contains(&guess), "{variant}: {guess}");
            assert!(
                shallow < nodes,
                "{variant}: a shallow estimate searches less"
            );
            for guess in -seeds - 3..=seeds + 3 {
                let solver = Solver::new(kalah(game, m), None, 8).unwrap();
                let mut nodes = 0;
                assert_eq!(
                    solver.mtdf(&variant.start(), guess, &mut nodes),
                    expected,
                    "{variant} from guess {guess}"
                );
            }
        }
    }
}

/// A hash table the system cannot map is an error that says what to do, not a panic.
#[test]
fn a_hash_table_without_memory_is_an_error() {
    // About 2^63 bytes: no system maps that much.
    let mib = usize::MAX >> 21;
    let Err(err) = Solver::new(kalah(GAMES[0], 6), None, mib) else {
        panic!("a {mib} MiB hash table was mapped");
    };
    assert!(
        matches!(err, granary_search::SolverError::Memory { .. }),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("no memory for a {mib} MiB hash table: "))
            && message.ends_with("; give a smaller hash table"),
        "{message}"
    );
}

#[test]
fn a_cancelled_solve_ends_cancelled_and_leaves_only_true_bounds_behind() {
    use granary_search::{Cancel, Progress, SolverError};
    for game in [GAMES[0], GAMES[1]] {
        for (m, n) in [(3, 3), (4, 2)] {
            let variant = Variant::new(game, m, n).unwrap();
            let reference = Reference::new(game, m);
            let truth = minimax(&reference, &reference.start(n), &mut HashMap::new());
            let mut solver = Solver::new(kalah(game, m), None, 8).unwrap();
            // Cancelled from within the solve, at its first report: a search is under way.
            let cancel = Cancel::new();
            solver.set_cancel(cancel.clone());
            let mut reports = 0;
            let stopped = solver.solve_reporting(&variant.start(), true, |step| {
                if let Progress::Bounds { .. } = step {
                    reports += 1;
                    cancel.cancel();
                }
            });
            assert!(matches!(stopped, Err(SolverError::Cancelled)), "{variant}");
            assert!(reports >= 1, "{variant}: no search was under way");
            // The request stays made: the next solve ends the same way.
            assert!(matches!(
                solver.solve(&variant.start(), false),
                Err(SolverError::Cancelled)
            ));
            // A fresh request: the same solver, its table as the cancelled solves left it, finds
            // the true value.
            solver.set_cancel(Cancel::new());
            let solution = solver.solve(&variant.start(), true).unwrap();
            assert_eq!(solution.value, truth, "{variant}");
        }
    }
}
