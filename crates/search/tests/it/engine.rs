//! The engine against values it must reproduce: full tables above the engine's horizon and the
//! solver's exact solves where it says `exact`, the solver's depth-limited estimate at shallow
//! depths; and what it must always do: legal moves and lines in every variant, the same result
//! for the same node budget, the last completed depth when cancelled.

use std::sync::atomic::{AtomicU64, Ordering};

use granary_rules::{
    Board, Capture, Engine as GameRules, Game, OwareRules, Position, Rules, Side, Sweep,
};
use granary_search::engine::learned::{error, fit, training_set};
use granary_search::solver::Worth;
use granary_search::{
    Analysis, Cancel, Engine, Evaluate, Evaluation, Limits, Quiescence, SeedDifference, Settings,
    Solver,
};
use granary_tables::TableSet;
use granary_tables::probe::move_value;
use rand_core::SeedableRng;
use rand_xoshiro::SplitMix64;

use crate::common::six_pit_tables;

const KALAH_EMPTY: Game = Game::Kalah {
    capture: Capture::Empty,
    sweep: Sweep::Owner,
};
const KALAH_STANDARD: Game = Game::Kalah {
    capture: Capture::Standard,
    sweep: Sweep::Owner,
};
const OWARE_ABAPA: Game = Game::Oware {
    rules: OwareRules::Abapa,
};
const OWARE_AWARI: Game = Game::Oware {
    rules: OwareRules::Awari,
};
const GAMES: [Game; 4] = [KALAH_EMPTY, KALAH_STANDARD, OWARE_ABAPA, OWARE_AWARI];

/// `count` positions of `seeds` seeds on a 6-pit board, spread at random (a fixed sequence),
/// either side to move, with stores that do not matter to values.
fn positions(seeds: u32, count: usize, mut x: u64) -> Vec<Position> {
    (0..count)
        .map(|i| {
            let mut pits = [0u8; 12];
            for _ in 0..seeds {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pits[(x % 12) as usize] += 1;
            }
            let side = if i % 2 == 0 { Side::South } else { Side::North };
            Position {
                board: Board::from_sides(&pits[..6], &pits[6..]),
                stores: [2, 5],
                to_move: side,
            }
        })
        .collect()
}

/// The rules the tables of `set` are built by (Oware played to the last seed).
fn rules_of(set: &TableSet) -> GameRules {
    set.kind().engine()
}

/// Checks what every analysis must be: a legal best move whose score is the value, root moves
/// exactly the legal moves with scores no better than the value, and a principal line that
/// starts with the best move and plays out legally.
fn check_legal<R: Rules>(rules: &R, pos: &Position, a: &Analysis, what: &str) {
    let legal = rules.legal_moves(pos);
    if legal.is_empty() {
        assert_eq!(a.best, None, "{what}");
        assert!(a.pv.is_empty() && a.moves.is_empty() && a.exact, "{what}");
        return;
    }
    let best = a.best.expect("a best move where a move exists");
    assert!(legal.contains(best), "{what}: best {best} not legal");
    assert!(a.depth >= 1, "{what}");
    let lanes: Vec<usize> = a.moves.iter().map(|r| r.lane).collect();
    assert_eq!(
        lanes,
        legal.iter().collect::<Vec<_>>(),
        "{what}: root moves"
    );
    for r in &a.moves {
        assert!(
            r.worth.upper() <= a.value,
            "{what}: {r:?} above {}",
            a.value
        );
        if r.lane == best {
            assert_eq!(
                r.worth,
                Worth::Exact(a.value),
                "{what}: the best move's score"
            );
        }
    }
    assert_eq!(
        a.pv.first(),
        Some(&best),
        "{what}: the line starts with the best move"
    );
    let mut p = *pos;
    for (ply, &lane) in a.pv.iter().enumerate() {
        assert!(
            rules.legal_moves(&p).contains(lane),
            "{what}: line move {ply} (lane {lane}) not legal"
        );
        p = rules.play(&p, lane);
    }
}

#[test]
fn exact_answers_above_the_engines_horizon_are_the_tables_values() {
    for game in GAMES {
        let (_dir, set) = six_pit_tables(game, 12);
        let rules = rules_of(&set);
        let name = set.kind().name();
        // Kalah does not repeat: every tree ends within the tables, and with every root move
        // searched to its value every answer is exact. Oware's lines without a capture run
        // long before they repeat: small boards above its horizon, the best move alone.
        let (cases, all_moves): (&[(u32, u32)], bool) = match game {
            Game::Kalah { .. } => (&[(10, 11), (10, 12), (11, 12)], true),
            Game::Oware { .. } => (&[(3, 4), (4, 5), (5, 6), (8, 9)], false),
        };
        let settings = Settings {
            quiescence: Quiescence::Captures,
            all_moves,
            ..Settings::default()
        };
        let (mut exact, mut total) = (0, 0);
        // Exact leaves make an exact answer whatever the evaluation at the cut-off.
        let evaluations = [Evaluation::SeedDifference, Evaluation::for_game(game, 6)];
        for (&(horizon, seeds), evaluation) in cases
            .iter()
            .flat_map(|c| evaluations.iter().map(move |e| (c, e)))
        {
            let engine = Engine::new(rules.clone(), Some((&set, horizon)), 16)
                .unwrap()
                .with_settings(settings)
                .with_evaluation(evaluation);
            for (i, pos) in positions(seeds, 20, 0x9E37_79B9_7F4A_7C15 ^ u64::from(seeds))
                .iter()
                .enumerate()
            {
                let what = format!(
                    "{name} K={horizon} {seeds} seeds #{i}, {}",
                    evaluation.name()
                );
                let a = engine.analyse(pos, Limits::nodes(300_000));
                check_legal(&rules, pos, &a, &what);
                total += 1;
                if !a.exact {
                    continue;
                }
                exact += 1;
                let truth = granary_tables::probe::position_value(&set, &rules, pos).unwrap();
                assert_eq!(a.value, truth, "{what}");
                // Every root move's score is its value or a true bound on it; the best move's
                // is the value.
                for r in &a.moves {
                    let v = move_value(&set, &rules, pos, r.lane).unwrap();
                    assert!(
                        r.worth.admits(v),
                        "{what}: lane {}: {:?}, {v}",
                        r.lane,
                        r.worth
                    );
                    assert!(!all_moves || r.worth == Worth::Exact(v), "{what}");
                }
            }
        }
        if all_moves {
            assert_eq!(exact, total, "{name}: every answer exact");
        } else {
            assert!(5 * exact >= 2 * total, "{name}: {exact} of {total} exact");
        }
    }
}

/// Helper threads fill the shared hash table while the calling thread deepens: whatever they
/// leave there, an exact answer is the tables' value and every root move's score admits its
/// value. Kalah above its horizon, every root move searched, deepened (no node budget, so the
/// helpers run) until a depth is exact.
#[test]
fn helper_threads_change_no_exact_answer() {
    for game in [KALAH_EMPTY, KALAH_STANDARD] {
        let (_dir, set) = six_pit_tables(game, 12);
        let rules = rules_of(&set);
        let name = set.kind().name();
        let settings = Settings {
            all_moves: true,
            threads: 3,
            ..Settings::default()
        };
        let engine = Engine::new(rules.clone(), Some((&set, 9)), 16)
            .unwrap()
            .with_settings(settings)
            .with_evaluation(Evaluation::for_game(game, 6));
        for (i, pos) in positions(12, 12, 0x5DEE_CE66_D1CE_4E5B).iter().enumerate() {
            let what = format!("{name} K=9 12 seeds #{i}, 3 threads");
            engine.clear();
            let a = engine.analyse(pos, Limits::default());
            check_legal(&rules, pos, &a, &what);
            assert!(a.exact, "{what}: a Kalah tree ends within the tables");
            let truth = granary_tables::probe::position_value(&set, &rules, pos).unwrap();
            assert_eq!(a.value, truth, "{what}");
            for r in &a.moves {
                let v = move_value(&set, &rules, pos, r.lane).unwrap();
                assert_eq!(r.worth, Worth::Exact(v), "{what}: lane {}", r.lane);
            }
        }
    }
}

#[test]
fn exact_answers_above_the_tables_are_the_solvers_values() {
    for game in [KALAH_EMPTY, KALAH_STANDARD] {
        let (_dir, set) = six_pit_tables(game, 8);
        let rules = rules_of(&set);
        let solver = Solver::new(rules.clone(), Some((&set, 8)), 16).unwrap();
        let engine = Engine::new(rules.clone(), Some((&set, 8)), 16).unwrap();
        let mut exact = 0;
        let all = positions(14, 12, 0x2545_F491_4F6C_DD1D);
        for (i, pos) in all.iter().enumerate() {
            let what = format!("{} #{i}", set.kind().name());
            let a = engine.analyse(pos, Limits::nodes(2_000_000));
            check_legal(&rules, pos, &a, &what);
            let solution = solver.solve(pos, false).unwrap();
            if a.exact {
                exact += 1;
                assert_eq!(a.value, solution.value, "{what}");
                // The best move is a best move.
                let child = rules.play(pos, a.best.unwrap());
                let (gain, again) = pos.move_gain(&child);
                let v = solver.solve(&child, false).unwrap().value;
                assert_eq!(granary_rules::exit_value(gain, again, v), a.value, "{what}");
            }
        }
        assert!(2 * exact >= all.len(), "{exact} of {} exact", all.len());
    }
}

#[test]
fn shallow_depths_without_quiescence_are_the_solvers_estimate() {
    for game in GAMES {
        let (_dir, set) = six_pit_tables(game, 6);
        let rules = rules_of(&set);
        let solver = Solver::new(rules.clone(), Some((&set, 6)), 1).unwrap();
        let settings = Settings {
            quiescence: Quiescence::Off,
            all_moves: false,
            ..Settings::default()
        };
        for (i, pos) in positions(36, 20, 0x0123_4567_89AB_CDEF).iter().enumerate() {
            for depth in [1, 2] {
                let engine = Engine::new(rules.clone(), Some((&set, 6)), 4)
                    .unwrap()
                    .with_settings(settings);
                let a = engine.analyse(pos, Limits::depth(depth));
                let mut nodes = 0;
                let expected = solver.estimate(pos, depth, &mut nodes);
                let what = format!("{} #{i} depth {depth}", set.kind().name());
                assert_eq!(
                    (a.value, a.depth, a.exact),
                    (expected, depth, false),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn moves_and_lines_are_legal_in_every_variant() {
    for game in GAMES {
        let (_dir, set) = six_pit_tables(game, 8);
        let rules = rules_of(&set);
        // The doors' evaluation: the learned one.
        let engine = Engine::new(rules.clone(), Some((&set, 8)), 16)
            .unwrap()
            .with_evaluation(Evaluation::for_game(game, 6));
        assert!(matches!(
            Evaluation::for_game(game, 6),
            Evaluation::Learned(_)
        ));
        let name = set.kind().name();
        let mut all = vec![Position::start(6, 4), Position::start(6, 6)];
        for seeds in [9, 16, 30, 48] {
            all.extend(positions(
                seeds,
                6,
                0xD1B5_4A32_D192_ED03 ^ u64::from(seeds),
            ));
        }
        // A finished game: one side empty.
        all.push(Position::from_sides(
            &[0; 6],
            &[1, 0, 2, 0, 0, 3],
            [20, 10],
            Side::South,
        ));
        for (i, pos) in all.iter().enumerate() {
            let mut p = *pos;
            // The position, and a few plies of the engine's own play from it.
            for ply in 0..4 {
                let a = engine.analyse(&p, Limits::nodes(30_000));
                check_legal(&rules, &p, &a, &format!("{name} #{i} ply {ply}"));
                let Some(best) = a.best else { break };
                p = rules.play(&p, best);
            }
        }
    }
}

#[test]
fn an_evaluation_fitted_on_the_tables_errs_less_than_the_seed_difference_above_them() {
    for game in [KALAH_EMPTY, OWARE_AWARI] {
        let (_dir, set) = six_pit_tables(game, 12);
        let rules = rules_of(&set);
        let name = set.kind().name();
        // Fitted on layers 7..=10, measured on 11..=12: boards it never saw, of more seeds.
        let train = training_set(
            &rules,
            &set,
            7..=10,
            2000,
            true,
            &mut SplitMix64::seed_from_u64(1),
        )
        .unwrap();
        let test = training_set(
            &rules,
            &set,
            11..=12,
            2000,
            true,
            &mut SplitMix64::seed_from_u64(2),
        )
        .unwrap();
        assert!(train.iter().all(|&(b, _)| (7..=10).contains(&b.seeds(6))));
        let learned = fit(&train, 6, 1e-6);
        let (seed_mae, _) = error(&SeedDifference, &test, 6);
        let (learned_mae, _) = error(&learned, &test, 6);
        assert!(
            learned_mae < 0.9 * seed_mae,
            "{name}: learned {learned_mae:.3}, seed difference {seed_mae:.3}"
        );
        // The values fitted on are the tables' own; for Kalah, which the solver searches,
        // a few checked against a search without tables.
        if let Game::Kalah { .. } = game {
            let solver = Solver::new(rules.clone(), None, 1).unwrap();
            for &(board, value) in train.iter().step_by(400) {
                let pos = Position {
                    board,
                    stores: [0, 0],
                    to_move: Side::South,
                };
                let solved = solver.solve(&pos, false).unwrap().value;
                assert_eq!(solved, value, "{name}: {board:?}");
            }
        }
    }
}

#[test]
fn the_same_budget_gives_the_same_result() {
    for game in [KALAH_STANDARD, OWARE_AWARI] {
        let (_dir, set) = six_pit_tables(game, 8);
        let rules = rules_of(&set);
        for pos in [Position::start(6, 4), positions(30, 1, 7)[0]] {
            let budget = 150_000;
            let run = |engine: &Engine<'_, GameRules>| {
                let mut a = engine.analyse(&pos, Limits::nodes(budget));
                a.seconds = 0.0;
                a
            };
            let engine = Engine::new(rules.clone(), Some((&set, 8)), 16).unwrap();
            let first = run(&engine);
            // The budget ended it, in the middle of a depth.
            assert_eq!(first.nodes, budget);
            assert!(!first.exact);
            let again = run(&Engine::new(rules.clone(), Some((&set, 8)), 16).unwrap());
            assert_eq!(first, again, "{}", set.kind().name());
            engine.clear();
            assert_eq!(first, run(&engine), "{}: cleared", set.kind().name());
        }
    }
}

/// The seed difference, setting a cancel at its `at`-th call: a cancel at a point of the
/// search that does not depend on timing.
struct CancelAt {
    calls: AtomicU64,
    at: u64,
    cancel: Cancel,
}

impl Evaluate for CancelAt {
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        if self.calls.fetch_add(1, Ordering::Relaxed) + 1 == self.at {
            self.cancel.cancel();
        }
        SeedDifference.evaluate(pos, pits)
    }
}

#[test]
fn a_cancel_ends_with_the_last_completed_depth() {
    for game in [KALAH_EMPTY, OWARE_ABAPA] {
        let (_dir, set) = six_pit_tables(game, 8);
        let rules = rules_of(&set);
        let pos = Position::start(6, 4);
        let fresh = || Engine::new(rules.clone(), Some((&set, 8)), 16).unwrap();
        let name = set.kind().name();
        // Cancelled before it starts: depth 1, as a search of depth 1 finds it.
        let mut engine = fresh();
        let cancel = Cancel::new();
        cancel.cancel();
        engine.set_cancel(cancel);
        let a = engine.analyse(&pos, Limits::default());
        check_legal(&rules, &pos, &a, &name);
        let mut one = fresh().analyse(&pos, Limits::depth(1));
        assert_eq!(a.depth, 1, "{name}");
        (one.seconds, one.nodes) = (a.seconds, a.nodes);
        assert_eq!(a, one, "{name}");
        // Cancelled in the middle of a depth: the result of the depth before, as a search to
        // that depth finds it.
        let reached = fresh().analyse(&pos, Limits::nodes(400_000));
        let cancel = Cancel::new();
        let mut engine = fresh().with_evaluation(CancelAt {
            calls: AtomicU64::new(0),
            at: 20_000,
            cancel: cancel.clone(),
        });
        engine.set_cancel(cancel.clone());
        let a = engine.analyse(&pos, Limits::default());
        assert!(cancel.is_cancelled(), "{name}");
        assert!(
            a.depth > 1 && a.depth < reached.depth,
            "{name}: depth {} of {}",
            a.depth,
            reached.depth
        );
        let mut to_depth = fresh().analyse(&pos, Limits::depth(a.depth));
        (to_depth.seconds, to_depth.nodes) = (a.seconds, a.nodes);
        assert_eq!(a, to_depth, "{name}");
    }
}

#[test]
fn repetitions_count_as_endless_play_as_the_tables_score_it() {
    // Oware on 2 and 3 pits a side, whose cycles are short enough to search to their end: the
    // starts whose value is endless play (odd: the seeds left split evenly), then positions
    // at random, one engine (and its hash table) for many, so that entries resting on one
    // line's repetitions meet other lines.
    for (game, pits, horizon) in [(OWARE_AWARI, 2, 0), (OWARE_ABAPA, 3, 16)] {
        let (_dir, set) = crate::common::tables(game, pits, 18);
        let rules = rules_of(&set);
        let engine = Engine::new(rules.clone(), Some((&set, horizon)), 16).unwrap();
        let a = engine.analyse(&Position::start(pits, 3), Limits::nodes(500_000));
        assert_eq!((a.value, a.exact), (1, true), "{}", set.kind().name());
    }
    for game in [OWARE_ABAPA, OWARE_AWARI] {
        for pits in [2, 3] {
            let (_dir, set) = crate::common::tables(game, pits, 12);
            let rules = rules_of(&set);
            let name = set.kind().name();
            let mut x = 0x0005_DEEC_E66D_u64;
            let (mut exact, mut endless, mut total) = (0, 0, 0);
            for horizon in [0, 6] {
                let engine = Engine::new(rules.clone(), Some((&set, horizon)), 16).unwrap();
                for seeds in [4, 6, 8, 10, 12] {
                    for _ in 0..if pits == 2 { 60 } else { 20 } {
                        let mut lanes = vec![0u8; 2 * pits];
                        for _ in 0..seeds {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            lanes[(x % (2 * pits as u64)) as usize] += 1;
                        }
                        let pos = Position::from_sides(
                            &lanes[..pits],
                            &lanes[pits..],
                            [0, 0],
                            Side::South,
                        );
                        let what = format!("{name} K={horizon} {lanes:?}");
                        let a = engine.analyse(&pos, Limits::nodes(100_000));
                        check_legal(&rules, &pos, &a, &what);
                        total += 1;
                        if a.exact {
                            let truth =
                                granary_tables::probe::position_value(&set, &rules, &pos).unwrap();
                            assert_eq!(a.value, truth, "{what}");
                            exact += 1;
                            endless += usize::from((truth - seeds) % 2 != 0);
                        }
                    }
                }
            }
            assert!(4 * exact >= 3 * total, "{name}: {exact} of {total} exact");
            assert!(
                endless >= 5,
                "{name}: {endless} exact answers of endless play"
            );
        }
    }
}
