//! The root driver: MTD(f) over the search, solves of a position with its root moves' values
//! and a principal variation, exact values, and the checks of a journal's records (its answer
//! to a finished solve, a proven bound).

use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::node::{Child, NO_MOVE};
use super::{Progress, RootMove, Solution, Solver, SolverError, Worth};
use crate::journal::Contents;
use crate::tt::{Entry, hash};

impl<'t, R: Rules> Solver<'t, R> {
    /// The exact value by MTD(f), starting from `guess`.
    ///
    /// Every seed ends in a store, so a value `v` for `n` seeds on the board has the parity of `n`
    /// (`v = 2 * mover's share - n`); the bounds keep that parity and each test skips the values
    /// that cannot occur.
    pub fn mtdf(&self, pos: &Position, guess: i32, nodes: &mut u64) -> i32 {
        self.mtdf_reporting(pos, guess, nodes, &mut |_, _, _| {})
    }

    /// [`Solver::mtdf`], telling `pass` the interval `[lower, upper]` known after each pass and
    /// the nodes counted so far.
    fn mtdf_reporting(
        &self,
        pos: &Position,
        guess: i32,
        nodes: &mut u64,
        pass: &mut dyn FnMut(i32, i32, u64),
    ) -> i32 {
        let n = pos.board.seeds(self.rules.pits()) as i32;
        let (mut lower, mut upper) = (-n, n);
        let mut g = guess.clamp(-n, n);
        if (g - n) % 2 != 0 {
            g += 1;
        }
        while lower < upper {
            let beta = if g == lower { g + 2 } else { g };
            g = self.alphabeta(pos, beta - 1, beta, nodes);
            if self.aborted() {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
            pass(lower, upper, *nodes);
        }
        g
    }

    /// Solves `pos`: its value, root move values (all exact with `all_moves`), a principal
    /// variation, nodes and time. Every search runs on all threads of rayon's current pool
    /// (see the [module documentation](crate::solver)).
    ///
    /// # Errors
    /// Only with a journal ([`Solver::set_journal`]): a record could not be written.
    pub fn solve(&self, pos: &Position, all_moves: bool) -> Result<Solution, SolverError> {
        self.solve_reporting(pos, all_moves, |_| {})
    }

    /// [`Solver::solve`], telling `report` each step (long solves take hours; this is their
    /// progress). With a journal, records the solve's start and, at its end, its result.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_reporting(
        &self,
        pos: &Position,
        all_moves: bool,
        mut report: impl FnMut(Progress<'_>),
    ) -> Result<Solution, SolverError> {
        let started = Instant::now();
        self.nodes.store(0, Relaxed);
        self.live.store(0, Relaxed);
        self.abort.store(false, Relaxed);
        if let Some((journal, _)) = &self.journal {
            journal.run()?;
        }
        let mut children = ArrayVec::new();
        self.children(pos, &mut children, true);
        children.sort_by_key(|c| {
            (
                std::cmp::Reverse((c.again, c.gain)),
                std::cmp::Reverse(c.lane),
            )
        });
        let mut best = i32::MIN;
        let mut nodes = 0;
        let mut moves: Vec<RootMove> = Vec::new();
        // Whether each move beats the value of the first, tested for all moves at once (see
        // `Solver::beat_tests`) once that value is known.
        let mut tests: Option<(i32, Vec<bool>)> = None;
        for (i, child) in children.iter().enumerate() {
            // Only a move that beats the best so far needs its exact value.
            let beats = all_moves || best == i32::MIN || {
                let (bar, beat) = tests.get_or_insert_with(|| {
                    (best, self.beat_tests(&children[i..], best, &mut nodes))
                });
                if self.aborted() {
                    return Err(self.failure());
                }
                // A move that does not beat the first's value beats no later best either; one
                // that does is tested again if the best has risen since.
                let beat = beat[i - (children.len() - beat.len())];
                beat && (*bar == best || {
                    let (lo, hi) = child.window(best, best + 1);
                    child.option(self.alphabeta(&child.pos, lo, hi, &mut nodes)) > best
                })
            };
            let result = if beats {
                // The child's bounds, seen from the root.
                let mut pass = |lower: i32, upper: i32, nodes: u64| {
                    let (a, b) = (child.option(lower), child.option(upper));
                    report(Progress::Bounds {
                        lane: child.lane,
                        lower: a.min(b),
                        upper: a.max(b),
                        nodes,
                        seconds: started.elapsed().as_secs_f64(),
                    });
                };
                let guess = self
                    .resumed_guess(&child.pos)
                    .unwrap_or_else(|| self.first_guess(&child.pos, &mut nodes));
                let v = self.mtdf_reporting(&child.pos, guess, &mut nodes, &mut pass);
                if self.aborted() {
                    return Err(self.failure());
                }
                RootMove {
                    lane: child.lane,
                    worth: Worth::Exact(child.option(v)),
                }
            } else {
                // Not better than the best so far: the bar it failed to beat bounds it.
                RootMove {
                    lane: child.lane,
                    worth: Worth::AtMost(best),
                }
            };
            if let Worth::Exact(v) = result.worth {
                best = best.max(v);
            }
            report(Progress::Settled {
                root_move: &result,
                nodes,
                seconds: started.elapsed().as_secs_f64(),
            });
            moves.push(result);
        }
        self.nodes.fetch_add(nodes, Relaxed);
        moves.sort_by_key(|r| r.lane);
        let value = match moves.iter().filter_map(|r| r.worth.exact()).max() {
            Some(v) => v,
            None => self.value(pos),
        };
        // An inexact move was bounded by a bar no higher than the final best: it is no better.
        // The best root move goes into the table, so the principal variation starts with it.
        if let Some(best) = moves.iter().find(|r| r.worth == Worth::Exact(value)) {
            let value = value as i8;
            self.tt.put(
                pos.board,
                hash(pos.board),
                Entry {
                    lower: value,
                    upper: value,
                    best: Some(best.lane as u8),
                    work: u8::MAX,
                },
            );
        }
        let pv = self.principal_variation(*pos, value);
        if self.aborted() {
            return Err(self.failure());
        }
        let solution = Solution {
            value,
            moves,
            pv,
            nodes: self.nodes.load(Relaxed),
            seconds: started.elapsed().as_secs_f64(),
        };
        if let Some((journal, _)) = &self.journal {
            // Each root move's value as a bound on its child, whatever its search cost, so that
            // the journal alone answers ([`Solver::answer_from_journal`]).
            for child in &children {
                let Some(r) = solution.moves.iter().find(|r| r.lane == child.lane) else {
                    continue;
                };
                let n = child.pos.board.seeds(self.rules.pits()) as i32;
                let v = r.worth.upper();
                let exact = child.undo(v);
                let (a, b) = match r.worth {
                    Worth::Exact(_) => (exact, exact),
                    Worth::AtMost(_) if child.again => (-n, exact),
                    Worth::AtMost(_) => (exact, n),
                };
                let (lo, hi) = (a.clamp(-n, n), b.clamp(-n, n));
                journal.bound(child.pos.board, lo as i8, hi as i8, None, 0)?;
            }
            journal.result(
                solution.value,
                all_moves,
                &solution.pv,
                solution.nodes,
                solution.seconds,
            )?;
        }
        Ok(solution)
    }

    /// The result a finished journal records for `pos` ([`Contents::result`]), checked against
    /// the journal's bounds of the root's children: every root move's value (all exact with
    /// `all_moves`) must follow from them, the best reach the recorded value, and the
    /// principal variation be legal. `None` if it does not hold (a search is needed).
    #[must_use]
    pub fn answer_from_journal(
        &self,
        pos: &Position,
        contents: &Contents,
        all_moves: bool,
    ) -> Option<Solution> {
        let started = Instant::now();
        let recorded = contents.result.as_ref()?;
        if all_moves && !recorded.all_moves {
            return None;
        }
        let merged = contents.merged();
        let mut children = ArrayVec::new();
        self.children(pos, &mut children, false);
        let mut moves = Vec::new();
        for child in &children {
            let m = self.rules.pits();
            let (lo, hi) = if self.rules.legal_moves(&child.pos).is_empty() {
                let v = self.terminal_value(&child.pos);
                (v, v)
            } else if let Some(v) = self.table_value(&child.pos, child.pos.board.seeds(m)) {
                (v, v)
            } else {
                let &(lo, hi, _) = merged.get(&child.pos.board)?;
                (i32::from(lo), i32::from(hi))
            };
            let (a, b) = (child.option(lo), child.option(hi));
            let (lower, upper) = (a.min(b), a.max(b));
            if all_moves && lower != upper {
                return None;
            }
            moves.push(RootMove {
                lane: child.lane,
                worth: if lower == upper {
                    Worth::Exact(upper)
                } else {
                    Worth::AtMost(upper)
                },
            });
        }
        let best = moves.iter().filter_map(|r| r.worth.exact()).max()?;
        if best != recorded.value || moves.iter().any(|r| r.worth.upper() > best) {
            return None;
        }
        let mut at = *pos;
        for &lane in &recorded.pv {
            if !self.rules.legal_moves(&at).iter().any(|l| l == lane) {
                return None;
            }
            at = self.rules.play(&at, lane);
        }
        if !self.rules.legal_moves(&at).is_empty() {
            return None;
        }
        moves.sort_by_key(|r| r.lane);
        Some(Solution {
            value: best,
            moves,
            pv: recorded.pv.clone(),
            nodes: 0,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// Whether the position of `board` (any stores: its value does not depend on them) is worth
    /// `lower..=upper`, proved by a null-window search at each bound that is not the trivial
    /// one; and the nodes it took. A journal's record checked from scratch: give this solver
    /// no journal and a fresh transposition table.
    pub fn check_bound(&self, board: granary_rules::Board, lower: i32, upper: i32) -> (bool, u64) {
        let pos = Position::of_board(board);
        let n = board.seeds(self.rules.pits()) as i32;
        let mut nodes = 0;
        let mut holds = true;
        if lower > -n {
            holds &= self.alphabeta(&pos, lower - 1, lower, &mut nodes) >= lower;
        }
        if holds && upper < n {
            holds &= self.alphabeta(&pos, upper, upper + 1, &mut nodes) <= upper;
        }
        (holds, nodes)
    }

    /// Whether each of `children` is worth more than `bar` to the root: null-window tests, one
    /// task a move on rayon's pool (each test splits further as any search does). The answers
    /// do not depend on the threads' timing.
    fn beat_tests(&self, children: &[Child], bar: i32, nodes: &mut u64) -> Vec<bool> {
        use rayon::prelude::*;
        let (beats, counts): (Vec<bool>, Vec<u64>) = children
            .par_iter()
            .with_max_len(1)
            .map(|child| {
                let mut n = 0;
                let (lo, hi) = child.window(bar, bar + 1);
                let beat = child.option(self.alphabeta(&child.pos, lo, hi, &mut n)) > bar;
                (beat, n)
            })
            .unzip();
        *nodes += counts.iter().sum::<u64>();
        beats
    }

    /// The exact value of any position (tables, terminal, or search).
    pub fn value(&self, pos: &Position) -> i32 {
        let mut nodes = 0;
        let v = match self.table_value(pos, pos.board.seeds(self.rules.pits())) {
            Some(v) => v,
            None if self.rules.legal_moves(pos).is_empty() => self.terminal_value(pos),
            None => {
                let guess = self.first_guess(pos, &mut nodes);
                self.mtdf(pos, guess, &mut nodes)
            }
        };
        self.nodes.fetch_add(nodes, Relaxed);
        v
    }

    /// Best moves from `pos` (worth `value`) to the end of the game: at each position the first
    /// move, in the search's order (stored best move first), whose value reaches the position's.
    /// No move is worth more than its position, so a null-window test `option >= value` (cheap
    /// where the search has been) proves the move's value exact.
    pub fn principal_variation(&self, mut pos: Position, mut value: i32) -> Vec<usize> {
        let mut pv = Vec::new();
        loop {
            let mut children = ArrayVec::new();
            self.children(&pos, &mut children, true);
            if children.is_empty() {
                return pv;
            }
            let tt_move = self
                .tt
                .get(pos.board, hash(pos.board))
                .and_then(|e| e.best)
                .map_or(NO_MOVE, |b| b);
            let order = Self::order(&children, tt_move);
            let mut nodes = 0;
            if self.aborted() {
                return pv;
            }
            let Some(child) = order.iter().map(|&i| &children[usize::from(i)]).find(|c| {
                let (lo, hi) = c.window(value - 1, value);
                let v = match self.table_value(&c.pos, c.pos.board.seeds(self.rules.pits())) {
                    Some(v) => v,
                    None if self.rules.legal_moves(&c.pos).is_empty() => {
                        self.terminal_value(&c.pos)
                    }
                    None => self.alphabeta(&c.pos, lo, hi, &mut nodes),
                };
                c.option(v) >= value
            }) else {
                // Only a search that gave up, or a journal whose bounds are false (`--recheck`
                // finds those), leaves a position no move of which attains its value.
                return pv;
            };
            self.nodes.fetch_add(nodes, Relaxed);
            pv.push(child.lane);
            value = child.undo(value);
            pos = child.pos;
        }
    }
}
