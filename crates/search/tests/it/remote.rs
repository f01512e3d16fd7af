//! Jobs handed to other searchers ([`Remote`]): a solve whose far subtrees are searched by a
//! second solver, with its own transposition table, in other threads (the way the ranks of an
//! MPI job search them), gives the values of a plain minimax and of a solve alone, and the jobs
//! are really taken, given up and answered.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use crate::common::minimax;
use granary_rules::reference::Reference;
use granary_rules::{Capture, Game, Kalah, Position, Sweep, Variant};
use granary_search::{Remote, Remoted, Solver};

/// Workers in this process: at most `workers` jobs at once, each searched by `solver` on a
/// thread of its own while the asking thread watches its stop flag.
#[derive(Debug)]
struct Workers {
    solver: Solver<'static, Kalah>,
    workers: usize,
    busy: AtomicUsize,
    done: AtomicU64,
    stopped: AtomicU64,
    refused: AtomicU64,
}

impl Workers {
    fn new(rules: Kalah, workers: usize) -> Workers {
        Workers {
            solver: Solver::new(rules, None, 8).unwrap(),
            workers,
            busy: AtomicUsize::new(0),
            done: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
            refused: AtomicU64::new(0),
        }
    }
}

impl Remote for Workers {
    fn search(&self, pos: &Position, alpha: i32, beta: i32, stopped: &dyn Fn() -> bool) -> Remoted {
        if self.busy.fetch_add(1, Relaxed) >= self.workers {
            self.busy.fetch_sub(1, Relaxed);
            self.refused.fetch_add(1, Relaxed);
            return Remoted::Busy;
        }
        let cancel = AtomicBool::new(false);
        let answer = std::thread::scope(|s| {
            let job = s.spawn(|| self.solver.job(pos, alpha, beta, &cancel));
            while !job.is_finished() {
                if stopped() {
                    cancel.store(true, Relaxed);
                }
                std::thread::sleep(Duration::from_micros(50));
            }
            job.join().unwrap()
        });
        self.busy.fetch_sub(1, Relaxed);
        match answer {
            Some((value, nodes)) if !stopped() => {
                self.done.fetch_add(1, Relaxed);
                Remoted::Done { value, nodes }
            }
            _ => {
                self.stopped.fetch_add(1, Relaxed);
                Remoted::Stopped
            }
        }
    }
}

#[test]
fn jobs_give_the_values_of_minimax_and_of_a_solve_alone() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let mut jobs = 0;
    for capture in [Capture::Empty, Capture::Standard] {
        let game = Game::Kalah {
            capture,
            sweep: Sweep::Owner,
        };
        for (m, n) in [(3, 3), (4, 2), (4, 3), (6, 2)] {
            let rules = Kalah::new(m, capture, Sweep::Owner);
            let variant = Variant::new(game, m, n).unwrap();
            let start = variant.start();
            let alone = pool.install(|| {
                Solver::new(rules.clone(), None, 8)
                    .unwrap()
                    .solve(&start, true)
                    .unwrap()
            });
            if m * n as usize <= 9 {
                let reference = Reference::new(game, m);
                let expected = minimax(&reference, &reference.start(n), &mut HashMap::new());
                assert_eq!(alone.value, expected, "{variant}");
            }
            let workers = Arc::new(Workers::new(rules.clone(), 2));
            let mut solver = Solver::new(rules.clone(), None, 8).unwrap();
            solver.set_remote(workers.clone(), 6);
            let farmed = pool.install(|| solver.solve(&start, true).unwrap());
            assert_eq!(farmed.value, alone.value, "{variant}");
            assert_eq!(farmed.moves, alone.moves, "{variant}");
            jobs += workers.done.load(Relaxed);
        }
    }
    assert!(jobs > 0, "no job was handed out");
}

#[test]
fn a_job_answers_its_window_and_a_cancelled_one_answers_nothing() {
    let game = Game::Kalah {
        capture: Capture::Standard,
        sweep: Sweep::Owner,
    };
    let rules = Kalah::new(3, Capture::Standard, Sweep::Owner);
    let variant = Variant::new(game, 3, 3).unwrap();
    let reference = Reference::new(game, 3);
    let v = minimax(&reference, &reference.start(3), &mut HashMap::new());
    let solver = Solver::new(rules, None, 8).unwrap();
    let start = variant.start();
    let go = AtomicBool::new(false);
    // The contract for windows below, around and above the value.
    for (alpha, beta) in [(v - 3, v - 1), (v - 1, v + 1), (v + 1, v + 3)] {
        let (u, nodes) = solver.job(&start, alpha, beta, &go).unwrap();
        assert!(nodes > 0);
        if v <= alpha {
            assert!(v <= u && u <= alpha, "{u} for {v} in ({alpha}, {beta})");
        } else if v >= beta {
            assert!(beta <= u && u <= v, "{u} for {v} in ({alpha}, {beta})");
        } else {
            assert_eq!(u, v);
        }
    }
    let cancelled = AtomicBool::new(true);
    assert_eq!(solver.job(&start, v - 1, v + 1, &cancelled), None);
}

#[test]
fn a_busy_remote_leaves_the_search_to_the_solver() {
    let game = Game::Kalah {
        capture: Capture::Empty,
        sweep: Sweep::Owner,
    };
    let rules = Kalah::new(3, Capture::Empty, Sweep::Owner);
    let variant = Variant::new(game, 3, 3).unwrap();
    let reference = Reference::new(game, 3);
    let expected = minimax(&reference, &reference.start(3), &mut HashMap::new());
    let workers = Arc::new(Workers::new(rules.clone(), 0));
    let mut solver = Solver::new(rules, None, 8).unwrap();
    solver.set_remote(workers.clone(), 6);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let solution = pool.install(|| solver.solve(&variant.start(), true).unwrap());
    assert_eq!(solution.value, expected);
    assert!(workers.refused.load(Relaxed) > 0);
    assert_eq!(workers.done.load(Relaxed), 0);
}
