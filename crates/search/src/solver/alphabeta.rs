//! The fail-soft alpha-beta of the search contract (in [`crate::solver`]'s documentation): a
//! node's cutoffs before any child is searched, its children's search, what it stores in the
//! transposition table and the journal, and the live node count for progress reports.

use std::sync::atomic::Ordering::Relaxed;

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::Solver;
use super::node::{Child, Key, NO_MOVE, Node};
use super::split::Stop;
use crate::tt::{Entry, hash};

/// Enhanced transposition cutoffs on nodes with more than the tables' horizon plus this many
/// seeds. Nearer the tables, probing every child's bucket costs more than the small subtrees it
/// saves, with every node that does not cut on its table children loading its children's
/// buckets ([`Solver::prefetch_buckets`]) (the margins measured: docs/benchmarks.md). Table children are read at every node (an
/// exact value, and the read is the child's whole search).
pub(super) const ETC_MARGIN: u32 = 10;

/// Nodes a thread counts before it adds them to [`Solver::live_nodes`].
const LIVE_BATCH: u64 = 1 << 16;

thread_local! {
    /// This thread's nodes not yet added to the live count ([`Solver::count_live`]).
    static PENDING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl<'t, R: Rules> Solver<'t, R> {
    /// Fail-soft alpha-beta; see the [module documentation](crate::solver) for the contract.
    /// `nodes` counts the positions visited. Runs on every thread of rayon's current pool (see
    /// the module documentation).
    pub fn alphabeta(&self, pos: &Position, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
        let seeds = pos.board.seeds(self.rules.pits());
        if let Some(v) = self.table_value(pos, seeds) {
            *nodes += 1;
            return v;
        }
        self.search(
            pos,
            hash(pos.board),
            alpha,
            beta,
            nodes,
            &Stop::root([&self.abort, self.cancel.flag()]),
        )
    }

    /// [`Solver::alphabeta`] on a position beyond the tables, whose board hashes to `h`; gives
    /// up (returns a meaningless value and stores nothing) once `stop` is set.
    pub(super) fn search(
        &self,
        pos: &Position,
        h: u64,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
        stop: &Stop<'_>,
    ) -> i32 {
        debug_assert!(alpha < beta);
        *nodes += 1;
        let seeds = pos.board.seeds(self.rules.pits());
        // Only nodes far enough from the tables split or look at `stop`: below them a subtree
        // is small, runs to its end and its result is true.
        let far = seeds > self.split_above;
        if far {
            if stop.stopped() {
                return 0;
            }
            self.count_live(1);
        }
        // The search is bound by memory latency: making the children starts every load the
        // cutoffs need at once (their table entries, and far from the tables their buckets).
        self.tt.prefetch(h);
        let mut children = ArrayVec::new();
        self.children(pos, &mut children, seeds > self.etc_above);
        let node = match self.prepare(pos, h, alpha, beta, &mut children) {
            Ok(node) => node,
            Err(v) => return v,
        };
        let before = *nodes;
        let mut best = i32::MIN;
        let mut best_lane = NO_MOVE;
        let mut a = alpha;
        for (k, &i) in node.order.iter().enumerate() {
            let child = &children[usize::from(i)];
            let counted = *nodes;
            let option = self.child_option(child, a, beta, nodes, stop);
            if far {
                if stop.stopped() {
                    return 0;
                }
                self.publish(child, *nodes - counted);
            }
            if option > best {
                best = option;
                best_lane = child.lane as u8;
            }
            a = a.max(best);
            if a >= beta {
                break;
            }
            if far && self.threads > 1 && k + 1 < node.order.len() {
                // The eldest brother did not cut: the node is likely to need all its children.
                let rest = &node.order[k + 1..];
                match self.split(&children, rest, a, beta, nodes, stop) {
                    None => return 0,
                    Some((option, lane)) if option > best => {
                        best = option;
                        best_lane = lane;
                    }
                    Some(_) => {}
                }
                break;
            }
        }
        self.store(
            pos,
            h,
            &node,
            alpha,
            beta,
            (best, best_lane),
            *nodes - before,
        );
        best
    }

    /// Adds to the live count ([`Solver::live_nodes`]) the `nodes` of a far node's child's
    /// search if the child is near the tables (a far child counts itself, node by node).
    #[inline]
    pub(super) fn publish(&self, child: &Child, nodes: u64) {
        if child.pos.board.seeds(self.rules.pits()) <= self.split_above {
            self.count_live(nodes);
        }
    }

    /// Adds `nodes` to the live count through a per-thread batch of [`LIVE_BATCH`] nodes: the
    /// threads do not write one shared cache line at every far node (what that cost:
    /// docs/benchmarks.md).
    #[inline]
    pub(super) fn count_live(&self, nodes: u64) {
        PENDING.with(|pending| {
            let n = pending.get() + nodes;
            if n >= LIVE_BATCH {
                self.live.fetch_add(n, Relaxed);
                pending.set(0);
            } else {
                pending.set(n);
            }
        });
    }

    /// A node's work before any child is searched, given its `children` (made with their
    /// loads started): the cutoffs that need no search (terminal, futility, stored bounds,
    /// enhanced transposition cutoff), and the order to search the children in. `Err` is the
    /// node's fail-soft value when a cutoff settles it.
    #[inline(always)]
    fn prepare(
        &self,
        pos: &Position,
        h: u64,
        alpha: i32,
        beta: i32,
        children: &mut [Child],
    ) -> Result<Node, i32> {
        let m = self.rules.pits();
        let seeds = pos.board.seeds(m);
        let n = seeds as i32;
        if children.is_empty() {
            return Err(self.terminal_value(pos));
        }
        let etc = seeds > self.etc_above;
        // Futility: the value lies in -n..=n.
        if alpha >= n {
            return Err(n);
        }
        if beta <= -n {
            return Err(-n);
        }
        let (mut lower, mut upper) = (-n, n);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.get(pos.board, h) {
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
            if lower >= beta || lower == upper {
                return Err(lower);
            }
            if upper <= alpha {
                return Err(upper);
            }
            tt_move = e.best.unwrap_or(NO_MOVE);
        }
        // Enhanced transposition cutoff: a child whose known bound already refutes the window.
        // Table values at every node; stored bounds above `etc_above` (see `ETC_MARGIN`).
        for child in children.iter_mut() {
            let bound = match child.key {
                Key::Table { seeds, rank } => {
                    let v = self.entry(seeds, rank);
                    child.key = Key::Exact(v);
                    Some((v, v))
                }
                Key::Exact(v) => Some((v, v)),
                Key::Hash(h) if etc => self
                    .tt
                    .get(child.pos.board, h)
                    .map(|e| (i32::from(e.lower), i32::from(e.upper))),
                Key::Hash(_) => None,
            };
            if let Some((lo, hi)) = bound {
                let (at_least, at_most) = child.option_bounds(lo, hi);
                if at_least >= beta {
                    return Err(at_least);
                }
                child.at_most = at_most;
            }
        }
        if !etc {
            // The table children did not cut: the children to be searched start loading.
            self.prefetch_buckets(children);
        }
        let order = Self::order(children, tt_move);
        Ok(Node {
            order,
            lower,
            upper,
        })
    }

    /// What `child` is worth to its parent searched with the parent's window `(a, beta)`
    /// (fail-soft); unsearched when its bound already fails low.
    #[inline(always)]
    pub(super) fn child_option(
        &self,
        child: &Child,
        a: i32,
        beta: i32,
        nodes: &mut u64,
        stop: &Stop<'_>,
    ) -> i32 {
        if child.at_most <= a {
            // Its stored bound already says it fails low: a valid fail-soft result, unsearched.
            return child.at_most;
        }
        let (lo, hi) = child.window(a, beta);
        let v = match child.key {
            Key::Hash(h) => match self.remote_value(child, h, lo, hi, nodes, stop) {
                Some(v) => v,
                None => self.search(&child.pos, h, lo, hi, nodes, stop),
            },
            Key::Exact(v) => v,
            Key::Table { seeds, rank } => self.entry(seeds, rank),
        };
        child.option(v)
    }

    /// Stores what the search of `node` (window `(alpha, beta)`) found: `best`, the fail-soft
    /// value, by the move `lane`, after `work` nodes.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn store(
        &self,
        pos: &Position,
        h: u64,
        node: &Node,
        alpha: i32,
        beta: i32,
        (best, lane): (i32, u8),
        work: u64,
    ) {
        let (new_lower, new_upper) = if best <= alpha {
            (node.lower, best.min(node.upper))
        } else if best >= beta {
            (best.max(node.lower), node.upper)
        } else {
            (best, best)
        };
        self.tt.put(
            pos.board,
            h,
            Entry {
                lower: new_lower as i8,
                upper: new_upper as i8,
                best: Some(lane),
                work: (64 - work.leading_zeros()) as u8,
            },
        );
        if let Some((journal, min)) = &self.journal
            && work >= *min
        {
            let best = (lane != NO_MOVE).then_some(lane);
            if let Err(err) = journal.bound(pos.board, new_lower as i8, new_upper as i8, best, work)
            {
                self.fail(err);
            }
        }
    }
}
