//! Iterative deepening at the root: each depth's search of the root moves, in the previous
//! depth's order, the result of the last completed depth, and its principal line.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::search::Search;
use super::table::{PROVED, Stored};
use super::{Analysis, Engine, Evaluate, Limits, MAX_DEPTH};
use crate::solver::{Child, Key, NO_MOVE, RootMove, Solver, Worth};

/// The longest principal line returned, in plies.
const PV_LIMIT: usize = 256;

/// What one depth's search of the root moves found: each searched move's score (by index into
/// the children), and the best.
struct Pass {
    scores: ArrayVec<(u8, Worth), 8>,
    best: i32,
    best_lane: usize,
}

impl<R: Rules, E: Evaluate> Engine<'_, R, E> {
    /// Searches `pos` by iterative deepening until `limits` or the engine's cancel end it, or a
    /// depth is exact; the result of the last completed depth (see the
    /// [module documentation](crate::engine) for the contract). A finished game gets its
    /// terminal value, exact, at depth 0, and no move.
    pub fn analyse(&self, pos: &Position, limits: Limits) -> Analysis {
        let start = Instant::now();
        let helpers = if limits.nodes.is_none() {
            self.settings.threads.saturating_sub(1)
        } else {
            0
        };
        if helpers == 0 {
            return self.deepen(pos, limits, start);
        }
        let halt = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let halt = &halt;
            let threads: Vec<_> = (1..=helpers)
                .map(|k| scope.spawn(move || self.help(pos, limits, start, halt, k)))
                .collect();
            let mut analysis = self.deepen(pos, limits, start);
            halt.store(true, Ordering::Relaxed);
            for thread in threads {
                // A helper that panicked searched nothing the result relies on: the calling
                // thread's deepening decided it alone.
                analysis.nodes += thread.join().unwrap_or(0);
            }
            analysis.seconds = start.elapsed().as_secs_f64();
            analysis
        })
    }

    /// A helper thread's deepening of `pos` ("Threads" in the module documentation), the
    /// `k`-th: from depth 1, or 2 for every other helper, each depth's root moves in its own
    /// rotation of the first order, until `halt`, the budget or the depth limit ends it; its
    /// nodes.
    fn help(
        &self,
        pos: &Position,
        limits: Limits,
        start: Instant,
        halt: &AtomicBool,
        k: usize,
    ) -> u64 {
        let mut s = Search::new(self, &limits, start).helper(halt);
        let mut children = ArrayVec::new();
        self.solver.children(pos, &mut children, false);
        if children.is_empty() {
            return 0;
        }
        let mut order = self.first_order(pos, &children);
        let turn = k % order.len();
        order.rotate_left(turn);
        let first = 1 + (k % 2) as u32;
        for depth in first..=limits.depth.clamp(1, MAX_DEPTH) {
            if self
                .root_pass(&mut s, pos, &children, &order, depth)
                .is_none()
            {
                break;
            }
        }
        s.nodes
    }

    /// The deepening of [`Engine::analyse`] on the calling thread, begun at `start`.
    fn deepen(&self, pos: &Position, limits: Limits, start: Instant) -> Analysis {
        let mut s = Search::new(self, &limits, start);
        let m = self.solver.rules().pits();
        let seeds = pos.board.seeds(m);
        let mut children = ArrayVec::new();
        self.solver.children(pos, &mut children, false);
        if children.is_empty() {
            return Analysis {
                best: None,
                value: self.solver.terminal_value(pos),
                exact: true,
                depth: 0,
                pv: Vec::new(),
                moves: Vec::new(),
                nodes: 1,
                seconds: start.elapsed().as_secs_f64(),
            };
        }
        let h = Search::<R, E>::hash(pos.board);
        let mut order = self.first_order(pos, &children);
        let mut done: Option<Analysis> = None;
        for depth in 1..=limits.depth.clamp(1, MAX_DEPTH) {
            s.stoppable = depth > 1;
            s.nodes += 1;
            if s.out_of_budget() {
                break;
            }
            let (estimates, borrowed) = (s.estimates, s.borrowed);
            let Some(mut pass) = self.root_pass(&mut s, pos, &children, &order, depth) else {
                break;
            };
            let mut exact = s.estimates == estimates && s.borrowed == borrowed;
            if !exact && s.estimates == estimates {
                // No estimate, but cutoffs on entries not proved (resting on estimates of an
                // earlier depth, or on another line's repetitions): searched again with proved
                // entries alone, the value is proved or not.
                s.verify = true;
                if let Some(verified) = self.root_pass(&mut s, pos, &children, &order, depth)
                    && s.estimates == estimates
                {
                    (pass, exact) = (verified, true);
                }
                s.verify = false;
            }
            let Pass {
                mut scores,
                best,
                best_lane,
            } = pass;
            // The next depth's order: the best first, then by score.
            scores.sort_by_key(|&(i, w)| {
                (
                    children[usize::from(i)].lane != best_lane,
                    std::cmp::Reverse(w.upper()),
                )
            });
            order = scores.iter().map(|&(i, _)| i).collect();
            let old = self.table.probe(pos.board, h);
            self.table.store(
                pos.board,
                h,
                seeds,
                old,
                Stored {
                    lower: best,
                    upper: best,
                    best: best_lane as u8,
                    depth: if exact { PROVED } else { depth as u8 },
                },
            );
            let mut moves: Vec<RootMove> = scores
                .iter()
                .map(|&(i, worth)| RootMove {
                    lane: children[usize::from(i)].lane,
                    worth,
                })
                .collect();
            moves.sort_by_key(|r| r.lane);
            done = Some(Analysis {
                best: Some(best_lane),
                value: best,
                exact,
                depth,
                pv: self.principal_line(pos, best_lane, depth),
                moves,
                nodes: 0,
                seconds: 0.0,
            });
            if exact || s.nodes_spent() || s.interrupted() {
                break;
            }
        }
        let mut analysis = done.expect("depth 1 is always completed");
        analysis.nodes = s.nodes;
        analysis.seconds = start.elapsed().as_secs_f64();
        analysis
    }

    /// The order of the root moves `children` of `pos` at the first depth: the hash table's
    /// best move first, then the solver's order.
    fn first_order(&self, pos: &Position, children: &[Child]) -> ArrayVec<u8, 8> {
        let h = Search::<R, E>::hash(pos.board);
        let hash_move = self.table.probe(pos.board, h).map_or(NO_MOVE, |e| e.best);
        Solver::<R>::order(children, hash_move)
    }

    /// One depth's search of the root moves in `order`; `None` if the budget stopped it.
    fn root_pass(
        &self,
        s: &mut Search<'_, '_, R, E>,
        pos: &Position,
        children: &[Child],
        order: &[u8],
        depth: u32,
    ) -> Option<Pass> {
        let n = pos.board.seeds(self.solver.rules().pits()) as i32;
        let all = self.settings.all_moves;
        let mut scores: ArrayVec<(u8, Worth), 8> = ArrayVec::new();
        let (mut best, mut best_lane) = (i32::MIN, 0);
        s.enter(pos);
        for (k, &i) in order.iter().enumerate() {
            let child = &children[usize::from(i)];
            let option = match child.key {
                Key::Table { seeds, rank } => child.option(self.solver.table_entry(seeds, rank)),
                Key::Exact(v) => child.option(v),
                Key::Hash(ch) => {
                    let a = if all { -n - 1 } else { best.max(-n - 1) };
                    s.child_option(child, ch, depth - 1, a, n + 1, k > 0 && !all)
                }
            };
            if s.stopped {
                break;
            }
            // Searched with the window (best so far, n + 1): a move that does not beat the best
            // fails low, its result an upper bound.
            let worth = if all || option > best || !matches!(child.key, Key::Hash(_)) {
                Worth::Exact(option)
            } else {
                Worth::AtMost(option)
            };
            scores.push((i, worth));
            if option > best {
                best = option;
                best_lane = child.lane;
            }
        }
        s.leave();
        (!s.stopped).then_some(Pass {
            scores,
            best,
            best_lane,
        })
    }

    /// The principal line from `pos` after `best`: the hash table's best moves while it knows
    /// them and they are legal, `depth` plies in all, then within the tables the tables' best
    /// moves (the lowest lane among equals), until the game ends or a position repeats.
    fn principal_line(&self, pos: &Position, best: usize, depth: u32) -> Vec<usize> {
        let rules = self.solver.rules();
        let mut line = vec![best];
        let mut seen = vec![*pos];
        let mut p = rules.play(pos, best);
        while line.len() < PV_LIMIT && !seen.contains(&p) {
            let moves = rules.legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            let lane = if self.known_value(&p).is_some() {
                // Within the tables: the move of the best exact value.
                let options: Option<Vec<(i32, usize)>> = moves
                    .iter()
                    .map(|lane| {
                        let child = rules.play(&p, lane);
                        let (gain, again) = p.move_gain(&child);
                        let v = self.known_value(&child)?;
                        Some((granary_rules::exit_value(gain, again, v), lane))
                    })
                    .collect();
                // The highest value, the lowest lane among equals.
                match options.and_then(|o| {
                    o.into_iter()
                        .max_by_key(|&(v, lane)| (v, usize::MAX - lane))
                }) {
                    Some((_, lane)) => lane,
                    None => break,
                }
            } else {
                if line.len() >= depth as usize {
                    break;
                }
                match self
                    .table
                    .probe(p.board, Search::<R, E>::hash(p.board))
                    .map(|e| usize::from(e.best))
                {
                    Some(lane) if moves.contains(lane) => lane,
                    _ => break,
                }
            };
            seen.push(p);
            line.push(lane);
            p = rules.play(&p, lane);
        }
        line
    }

    /// The exact value of `pos` if the tables hold it or its game is over.
    fn known_value(&self, pos: &Position) -> Option<i32> {
        let seeds = pos.board.seeds(self.solver.rules().pits());
        self.solver.table_value(pos, seeds).or_else(|| {
            self.solver
                .rules()
                .legal_moves(pos)
                .is_empty()
                .then(|| self.solver.terminal_value(pos))
        })
    }
}
