//! The node search of the engine's contract (in [`crate::engine`]'s documentation): fail-soft
//! alpha-beta with principal variation search and the hash table, the quiescence search at the
//! horizon, repetitions on the current line, and the budgets that stop a search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;
use granary_rules::{Board, Position, Rules, Side};

use super::table::{CYCLIC, PROVED, Stored};
use super::{Engine, Evaluate, Limits, Quiescence};
use crate::solver::{Child, Key, NO_MOVE, Solver};
use crate::tt::hash;

/// The longest line of the quiescence search, in plies: each of its moves takes seeds off the
/// board, so its lines end anyway; this bounds them where a board holds many seeds.
pub(super) const QUIESCENCE_PLIES: u32 = 16;

/// The value of endless play: the seeds on the board split evenly, as the tables score it.
pub(super) const REPETITION: i32 = 0;

/// Nodes between looks at the clock and the cancel.
const CHECK_EVERY: u64 = 1 << 10;

/// A position on the current line: its board, who moves, and its seeds.
#[derive(Clone, Copy)]
struct OnLine {
    board: Board,
    to_move: Side,
    seeds: u32,
}

/// One search's state: its counts, its budget and the current line.
pub(super) struct Search<'e, 't, R, E> {
    pub(super) engine: &'e Engine<'t, R, E>,
    m: usize,
    pub(super) nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Whether the budget may stop the search (not during depth 1).
    pub(super) stoppable: bool,
    /// Set once the budget is spent: every search returns a meaningless value and stores
    /// nothing.
    pub(super) stopped: bool,
    /// Leaves that were estimates, and cutoffs on entries that rest on estimates, counted: a
    /// subtree whose search leaves it unchanged rests on no estimate.
    inexact: u64,
    /// Leaves that were repetitions, and cutoffs on [`CYCLIC`] entries, counted: a subtree
    /// whose search leaves this and `inexact` unchanged is proved whatever the line to it, and
    /// stored so.
    cycles: u64,
    /// Leaves that were estimates, counted.
    pub(super) estimates: u64,
    /// Cutoffs on entries not proved, counted: entries that rest on estimates, or on
    /// repetitions of another line. A search without estimates that made one is exact only
    /// once searched again without them (`verify`).
    pub(super) borrowed: u64,
    /// Whether only proved entries cut (the other entries still order the moves).
    pub(super) verify: bool,
    /// The positions of the main search's current line, the root first.
    line: Vec<OnLine>,
    /// A helper thread's signal that the calling thread has ended its search ("Threads" in the
    /// module documentation); `None` for the calling thread.
    halt: Option<&'e AtomicBool>,
}

impl<'e, 't, R: Rules, E: Evaluate> Search<'e, 't, R, E> {
    pub(super) fn new(engine: &'e Engine<'t, R, E>, limits: &Limits, start: Instant) -> Self {
        Search {
            engine,
            m: engine.solver.rules().pits(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            stoppable: false,
            stopped: false,
            inexact: 0,
            cycles: 0,
            estimates: 0,
            borrowed: 0,
            verify: false,
            line: Vec::with_capacity(128),
            halt: None,
        }
    }

    /// A helper thread's search: stopped by `halt` as well as by the budget, and from its first
    /// node (a helper owes no depth).
    pub(super) fn helper(mut self, halt: &'e AtomicBool) -> Self {
        self.halt = Some(halt);
        self.stoppable = true;
        self
    }

    #[inline]
    fn solver(&self) -> &'e Solver<'t, R> {
        &self.engine.solver
    }

    /// Whether the budget is spent: the node budget at every node, the clock and the cancel
    /// every `CHECK_EVERY` nodes. Never while depth 1 runs.
    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.stoppable && !self.stopped {
            self.stopped = self.nodes >= self.node_limit
                || (self.nodes.is_multiple_of(CHECK_EVERY) && self.interrupted());
        }
        self.stopped
    }

    /// Whether the clock has run out or the cancel is set.
    pub(super) fn interrupted(&self) -> bool {
        self.engine.cancel.is_cancelled()
            || self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the node budget is spent.
    pub(super) fn nodes_spent(&self) -> bool {
        self.nodes >= self.node_limit
    }

    /// Puts `pos` on the current line (before its children are searched).
    #[inline]
    pub(super) fn enter(&mut self, pos: &Position) {
        self.line.push(OnLine {
            board: pos.board,
            to_move: pos.to_move,
            seeds: pos.board.seeds(self.m),
        });
    }

    #[inline]
    pub(super) fn leave(&mut self) {
        self.line.pop();
    }

    /// Whether `pos` stood earlier on the current line with the same player to move. Only the
    /// positions since the last seed left the board can be the same (same seeds, hence the
    /// same stores too): the line is read back while its seeds are `pos`'s.
    #[inline]
    fn repeated(&self, pos: &Position, seeds: u32) -> bool {
        self.line
            .iter()
            .rev()
            .take_while(|p| p.seeds == seeds)
            .any(|p| p.board == pos.board && p.to_move == pos.to_move)
    }

    /// The search of the contract on `pos`, beyond the tables and not the root, whose board
    /// hashes to `h`, `depth` plies deep.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        h: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let seeds = pos.board.seeds(self.m);
        if self.repeated(pos, seeds) {
            self.cycles += 1;
            return REPETITION;
        }
        if depth == 0 {
            return self.quiesce_node(pos, seeds, alpha, beta, 0);
        }
        let engine = self.engine;
        engine.table.prefetch(h);
        let mut children = ArrayVec::new();
        self.solver().children(pos, &mut children, false);
        if children.is_empty() {
            return self.solver().terminal_value(pos);
        }
        // Futility: the value lies in -n..=n.
        let n = seeds as i32;
        if alpha >= n {
            return n;
        }
        if beta <= -n {
            return -n;
        }
        let stored = engine.table.probe(pos.board, h);
        let mut hash_move = NO_MOVE;
        if let Some(e) = stored {
            hash_move = e.best;
            if e.covers(depth) && (e.proved() || !self.verify) {
                let cut = if e.lower >= beta || e.lower == e.upper {
                    Some(e.lower)
                } else if e.upper <= alpha {
                    Some(e.upper)
                } else {
                    None
                };
                if let Some(v) = cut {
                    if e.cyclic() {
                        self.cycles += 1;
                        self.borrowed += 1;
                    } else if !e.proved() {
                        self.inexact += 1;
                        self.borrowed += 1;
                    }
                    return v;
                }
            }
        }
        let (inexact, cycles) = (self.inexact, self.cycles);
        // Children within the tables: read, and a cutoff before any other child is searched.
        let (mut best, mut best_lane, _) = self.table_children(&children, true);
        let mut a = alpha.max(best);
        if a < beta {
            self.enter(pos);
            let mut searched = false;
            for i in Solver::<R>::order(&children, hash_move) {
                let child = &children[usize::from(i)];
                let Key::Hash(ch) = child.key else {
                    continue;
                };
                if child.at_most <= a {
                    // It cannot beat the window: its bound is a fail-soft result, unsearched.
                    if child.at_most > best {
                        best = child.at_most;
                    }
                    continue;
                }
                let option = self.child_option(child, ch, depth - 1, a, beta, searched);
                if self.stopped {
                    self.leave();
                    return 0;
                }
                searched = true;
                if option > best {
                    best = option;
                    best_lane = child.lane as u8;
                }
                a = a.max(best);
                if a >= beta {
                    break;
                }
            }
            self.leave();
        }
        let (lower, upper) = if best <= alpha {
            (-n, best)
        } else if best >= beta {
            (best, n)
        } else {
            (best, best)
        };
        let depth = if self.inexact != inexact {
            depth as u8
        } else if self.cycles != cycles {
            CYCLIC
        } else {
            PROVED
        };
        engine.table.store(
            pos.board,
            h,
            seeds,
            stored,
            Stored {
                lower,
                upper,
                best: best_lane,
                depth,
            },
        );
        best
    }

    /// The best option among the children within the tables (`i32::MIN` if none) and its
    /// lane, and whether any child is beyond them; with `prefetch`, starts loading the hash
    /// table buckets of those.
    #[inline]
    fn table_children(&self, children: &[Child], prefetch: bool) -> (i32, u8, bool) {
        let (mut best, mut lane, mut beyond) = (i32::MIN, NO_MOVE, false);
        for child in children {
            let v = match child.key {
                Key::Table { seeds, rank } => self.solver().table_entry(seeds, rank),
                Key::Exact(v) => v,
                Key::Hash(h) => {
                    if prefetch {
                        self.engine.table.prefetch(h);
                    }
                    beyond = true;
                    continue;
                }
            };
            let option = child.option(v);
            if option > best {
                best = option;
                lane = child.lane as u8;
            }
        }
        (best, lane, beyond)
    }

    /// What `child` (beyond the tables, of hash `h`) is worth to its parent searched `depth`
    /// plies deep with the parent's window `(a, beta)`: with a null window first when a brother
    /// was searched (`later`), again with the window if it beats `a`.
    #[inline]
    pub(super) fn child_option(
        &mut self,
        child: &Child,
        h: u64,
        depth: u32,
        a: i32,
        beta: i32,
        later: bool,
    ) -> i32 {
        if later && a + 1 < beta {
            let (lo, hi) = child.window(a, a + 1);
            let option = child.option(self.search(&child.pos, h, depth, lo, hi));
            if option <= a || self.stopped {
                return option;
            }
            let (lo, hi) = child.window(a, beta);
            return child.option(self.search(&child.pos, h, depth, lo, hi));
        }
        let (lo, hi) = child.window(a, beta);
        child.option(self.search(&child.pos, h, depth, lo, hi))
    }

    /// The quiescence search on `pos` (beyond the tables, not repeated, a child of the
    /// quiescence search `ply` plies past the horizon).
    fn quiesce(&mut self, pos: &Position, alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let seeds = pos.board.seeds(self.m);
        self.quiesce_node(pos, seeds, alpha, beta, ply)
    }

    /// The quiescence search's node (counted by the caller): the evaluation, raised by the
    /// moves [`Quiescence`] plays and by the children within the tables.
    fn quiesce_node(&mut self, pos: &Position, seeds: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        let mut children = ArrayVec::new();
        self.solver().children(pos, &mut children, false);
        if children.is_empty() {
            return self.solver().terminal_value(pos);
        }
        let n = seeds as i32;
        if alpha >= n {
            return n;
        }
        if beta <= -n {
            return -n;
        }
        let (tables, _, beyond) = self.table_children(&children, false);
        if !beyond {
            // Every move is read from the tables: the exact value, no estimate.
            return tables;
        }
        self.inexact += 1;
        self.estimates += 1;
        let stand = self.engine.evaluate.evaluate(pos, self.m).clamp(-n, n);
        let mut best = stand.max(tables);
        let mode = self.engine.settings.quiescence;
        if best >= beta || ply >= QUIESCENCE_PLIES || mode == Quiescence::Off {
            return best;
        }
        let mut a = alpha.max(best);
        let sowing = self.solver().rules().sow_table();
        for i in Solver::<R>::order(&children, NO_MOVE) {
            let child = &children[usize::from(i)];
            let Key::Hash(_) = child.key else {
                continue;
            };
            let sown = sowing.get(child.lane, pos.board.pit(child.lane)).store;
            let captures = child.gain > i32::from(sown);
            let extra = child.again && mode == Quiescence::CapturesAndExtraMoves;
            if !(captures || extra) {
                continue;
            }
            if child.at_most <= a {
                best = best.max(child.at_most);
                continue;
            }
            let (lo, hi) = child.window(a, beta);
            let option = child.option(self.quiesce(&child.pos, lo, hi, ply + 1));
            if self.stopped {
                return 0;
            }
            best = best.max(option);
            a = a.max(best);
            if a >= beta {
                break;
            }
        }
        best
    }

    /// The hash of `board` ([`crate::tt::hash`]).
    #[inline]
    pub(super) fn hash(board: Board) -> u64 {
        hash(board)
    }
}
