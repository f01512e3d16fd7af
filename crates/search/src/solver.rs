//! The search.
//!
//! # Contract of [`Solver::alphabeta`] (fail-soft)
//! For a position of true value `v` and a window `alpha < beta`, the returned `u` satisfies
//! - `v <= u <= alpha` when `v <= alpha` (an upper bound, "fail low"),
//! - `beta <= u <= v` when `v >= beta` (a lower bound, "fail high"),
//! - `u == v` otherwise.
//!
//! MTD(f) ([`Solver::mtdf`]) calls it with null windows `(beta - 1, beta)` and closes the interval
//! `[lower, upper]` around `v` until it is a single value. Every result is stored in the
//! transposition table as the bounds the contract gives.
//!
//! The first guess ([`Solver::first_guess`]) comes from a depth-limited search that scores
//! the positions where it stops by the seeds on each side: MTD(f)'s null windows far from the
//! value cost far more than near it (Kalah(6,5) standard over 28-seed tables: 1.02e9 nodes from
//! a guess of 0, 4.7e8 from the value; docs/search.md, session 18). The guess only moves the
//! windows; every value is still proved.
//!
//! Sound pruning used: the value lies in `-n..=n` for `n` seeds on the board (futility); stored
//! bounds cut before any move is searched; children's table values, and more than
//! `ETC_MARGIN` (10) seeds above the tables their stored bounds, cut before any child is searched
//! (enhanced transposition cutoff); children within the tables are exact values, never searched.
//!
//! # Threads
//! Young Brothers Wait (`Solver::split`): a node more than `SPLIT_MARGIN` (4) seeds above the
//! tables searches its first child alone; if that does not cut, its other children are shared
//! out among the threads of rayon's pool, in order, and the first of them to fail high stops its
//! brothers (a chain of `Stop` flags). Every search shares the transposition table. The values
//! found are the same at any thread count (each is proved); node counts and the stored best
//! moves among equals may differ.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};
use granary_tables::{Layer, TableError, TableSet};

use crate::journal::{Contents, Journal, JournalError};
use crate::tt::{Entry, PINNED, TranspositionTable, hash};

/// Why a solve cannot run or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error(transparent)]
    Table(#[from] TableError),
    /// The journal could not be written: the solve stopped, and what the journal holds is
    /// intact.
    #[error("{0}; the solve stopped, and the journal keeps what it proved")]
    Journal(#[from] JournalError),
}

/// The result of solving a position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value for the player to move (net score of the seeds on the board).
    pub value: i32,
    /// Root moves (lanes) with their values: exact for all with `all_moves`, otherwise exact for
    /// the best and an upper bound (`<=`) for the others, flagged by `exact`.
    pub moves: Vec<RootMove>,
    /// A principal variation, lanes, to the end of the game.
    pub pv: Vec<usize>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A root move's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub lane: usize,
    pub value: i32,
    /// Whether `value` is exact; if not, the move's value is at most `value`.
    pub exact: bool,
}

/// A step of a solve, as [`Solver::solve_reporting`] reports it; `nodes` and `seconds` are
/// counted from the start of the solve.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// A pass of MTD(f) on a root move: its value, for the player at the root, is within
    /// `lower..=upper`.
    Bounds {
        lane: usize,
        lower: i32,
        upper: i32,
        nodes: u64,
        seconds: f64,
    },
    /// A root move is settled (exactly, or as no better than the best so far).
    Settled {
        root_move: &'a RootMove,
        nodes: u64,
        seconds: f64,
    },
}

/// A child of a node, with what the move gains and whether the mover moves again.
#[derive(Clone, Copy)]
struct Child {
    lane: usize,
    pos: Position,
    gain: i32,
    again: bool,
    /// Where its value is looked up, found once: an entry of a table layer, or the hash of
    /// its board for the transposition table.
    key: Key,
    /// An upper bound of what the move is worth to the parent (from the child's seeds, then
    /// from its stored bounds).
    at_most: i32,
}

/// Where a position's value is looked up.
#[derive(Clone, Copy)]
enum Key {
    /// Entry `rank` of table layer `seeds`: an exact value.
    Table { seeds: u32, rank: u64 },
    /// Beyond the tables: the board's hash ([`crate::tt::hash`]).
    Hash(u64),
    /// Read from a table: the exact value.
    Exact(i32),
}

/// What a node knows once its children are made, before any is searched
/// ([`Solver::prepare`]).
struct Node {
    /// Indices into the children, in search order.
    order: ArrayVec<u8, 8>,
    /// Bounds known before the search: from the seeds on the board and the stored entry.
    lower: i32,
    upper: i32,
}

impl Child {
    /// The child's window for the parent's `(alpha, beta)`, and back.
    #[inline]
    fn window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        if self.again {
            (alpha - self.gain, beta - self.gain)
        } else {
            (self.gain - beta, self.gain - alpha)
        }
    }

    #[inline]
    fn option(&self, child_value: i32) -> i32 {
        if self.again {
            self.gain + child_value
        } else {
            self.gain - child_value
        }
    }
}

/// A solver for one game, with tables for positions of at most `table_seeds` seeds.
#[derive(Debug)]
pub struct Solver<'t, R> {
    rules: R,
    layers: Vec<Tables<'t>>,
    tt: TranspositionTable,
    nodes: AtomicU64,
    /// Threads of rayon's pool when the solver was made: more than one, and nodes split
    /// ([`Solver::split`]).
    threads: usize,
    /// Nodes with more seeds than this share their younger children out among the threads
    /// ([`Solver::split`]) and look at their stop flags.
    split_above: u32,
    /// Nodes with more seeds than this probe their children's transposition-table entries
    /// before searching any (enhanced transposition cutoff).
    etc_above: u32,
    /// Positions with more seeds than this start MTD(f) from an estimate
    /// ([`Solver::first_guess`]).
    guess_above: u32,
    /// The journal proven bounds are recorded in ([`Solver::set_journal`]), and the least
    /// work, in nodes, of a search that is recorded.
    journal: Option<(Arc<Journal>, u64)>,
    /// Set when the search must give up (a journal write failed): every search returns, and
    /// the solve returns the error kept in `failure`.
    abort: AtomicBool,
    failure: Mutex<Option<JournalError>>,
    /// Nodes searched since the solve started, published by nodes far from the tables, for
    /// progress reports ([`Solver::live_nodes`]).
    live: AtomicU64,
}

/// A table layer as the solver reads it: the caller's mapping, or the solver's own copy in
/// memory ([`Solver::resident`]).
#[derive(Debug)]
enum Tables<'t> {
    Mapped(&'t Layer),
    Resident(Layer),
}

impl std::ops::Deref for Tables<'_> {
    type Target = Layer;
    fn deref(&self) -> &Layer {
        match self {
            Tables::Mapped(layer) => layer,
            Tables::Resident(layer) => layer,
        }
    }
}

/// Nodes with more than the tables' horizon plus this many seeds split ([`Solver::split`]);
/// nearer the tables subtrees are too small to be worth a task.
const SPLIT_MARGIN: u32 = 4;

/// Enhanced transposition cutoffs on nodes with more than the tables' horizon plus this many
/// seeds. Nearer the tables, probing every child's bucket costs more than the small subtrees it
/// saves: measured side by side (session 6, one thread), margin 2 took 0.81-0.91x the CPU of
/// margin 0 on Kalah(6,4) standard over 20-seed tables (2.5% more nodes) and 0.94x on a 54-seed
/// Kalah(6,5) position over 28-seed tables. Session 19 (a Zen 5 under KVM, tables held in
/// memory, two one-thread solves started together, 5 runs): margin 6 took 0.944x the CPU of 2
/// (0.902-0.947), 4 1.010x of 6, 8 and 10 the same as 6; with every node loading its children's
/// buckets ([`Solver::children`]), 10 took 0.963x of 6 and 2 1.21x, 16 and 100 (none) the same
/// as 10. Table children are read at every node (an exact value, and the read is the child's
/// whole search).
const ETC_MARGIN: u32 = 10;

const NO_MOVE: u8 = 0xff;

/// Nodes a thread counts before it adds them to [`Solver::live_nodes`].
const LIVE_BATCH: u64 = 1 << 16;

thread_local! {
    /// This thread's nodes not yet added to the live count ([`Solver::count_live`]).
    static PENDING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// [`Solver::first_guess`] deepens by two plies until a depth costs more than this many nodes
/// (the depth reached is 14 or 16 plies on the Kalah(6,4) and (6,5) starts, in 0.05-0.1 s).
/// Measured (session 18): 2^18 gives the same guesses there as 2^20 at a third of the cost
/// (one thread over 20-seed tables, standard 0.98x, empty 0.97x of 2^20's time).
const GUESS_NODES: u64 = 1 << 18;

/// [`Solver::first_guess`] stops at this depth whatever it costs.
const GUESS_MAX_DEPTH: u32 = 24;

/// Positions at most this many seeds above the tables get no estimate (their searches are too
/// small for one to pay): their first guess is 0. Measured (session 18): Kalah(6,4) standard
/// over 24-seed tables (24 above) took 5.97e6 nodes and 0.82 s with the estimate, 5.40e6 and
/// 0.79 s without; over 20-seed tables (28 above) the estimate saves 4%.
const GUESS_MARGIN: u32 = 24;

impl<'t, R: Rules> Solver<'t, R> {
    /// A solver using layers `0..=table_seeds` of `tables` (opened and checked now) and a
    /// transposition table of `hash_mb` MiB.
    ///
    /// # Errors
    /// If a layer is missing or bad.
    pub fn new(
        rules: R,
        tables: Option<(&'t TableSet, u32)>,
        hash_mb: usize,
    ) -> Result<Self, SolverError> {
        let layers = match tables {
            Some((set, max)) => (0..=max)
                .map(|n| set.layer(n).map(Tables::Mapped))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        Ok(Solver {
            layers,
            tt: TranspositionTable::new(hash_mb, 2 * rules.pits()),
            rules,
            nodes: AtomicU64::new(0),
            threads: rayon::current_num_threads().max(1),
            split_above: tables.map_or(0, |(_, max)| max) + SPLIT_MARGIN,
            etc_above: tables.map_or(0, |(_, max)| max) + ETC_MARGIN,
            guess_above: tables.map_or(0, |(_, max)| max) + GUESS_MARGIN,
            journal: None,
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            live: AtomicU64::new(0),
        })
    }

    /// Records in `journal` every position whose search took at least `min_nodes` nodes (and
    /// each solve's start and result). Load what the journal already holds with
    /// [`Solver::load_journal`].
    pub fn set_journal(&mut self, journal: Arc<Journal>, min_nodes: u64) {
        self.journal = Some((journal, min_nodes.max(1)));
    }

    /// Loads a journal's proven bounds into the transposition table, pinned: never evicted, and
    /// a search that reaches one of those positions starts from what the journal proved. The
    /// number of positions loaded (a bucket already full of pinned entries drops one; a table
    /// far smaller than the journal's positions drops many, which costs work, not values).
    pub fn load_journal(&self, contents: &Contents) -> usize {
        contents
            .merged()
            .into_iter()
            .filter(|&(board, (lower, upper, best))| {
                self.tt.pin(
                    board,
                    hash(board),
                    Entry {
                        lower,
                        upper,
                        best,
                        work: PINNED,
                    },
                )
            })
            .count()
    }

    /// Nodes searched since the current solve started, as far as the searches have published
    /// them (nodes within a few seeds of the tables are counted when their subtree ends).
    #[must_use]
    pub fn live_nodes(&self) -> u64 {
        self.live.load(Relaxed)
    }

    /// Whether a journal write failed and the searches are giving up.
    fn aborted(&self) -> bool {
        self.abort.load(Relaxed)
    }

    /// Keeps the first journal failure and stops every search.
    fn fail(&self, err: JournalError) {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        failure.get_or_insert(err);
        self.abort.store(true, Relaxed);
    }

    /// The error that stopped the searches.
    fn failure(&self) -> SolverError {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match failure.take() {
            Some(err) => SolverError::Journal(err),
            None => unreachable!("searches stop only on a journal failure"),
        }
    }

    /// Starts MTD(f) from an estimate ([`Solver::first_guess`]) for positions more than
    /// `margin` seeds above the tables, instead of the default [`GUESS_MARGIN`] (24). Values do
    /// not depend on it; the work does.
    #[must_use]
    pub fn guess_margin(mut self, margin: u32) -> Self {
        self.guess_above = self.guess_above - GUESS_MARGIN + margin;
        self
    }

    /// Cuts on children's stored bounds (enhanced transposition cutoff) at nodes more than
    /// `margin` seeds above the tables, instead of the default [`ETC_MARGIN`] (10). Values do not
    /// depend on it.
    #[must_use]
    pub fn etc_margin(mut self, margin: u32) -> Self {
        self.etc_above = self.etc_above - ETC_MARGIN + margin;
        self
    }

    /// Copies the table layers into memory with huge pages ([`Layer::resident`]), for a long
    /// search: fewer TLB misses on its random probes. A layer that cannot be copied stays mapped
    /// (the copy only saves time). Costs the tables' size in memory and a read of every byte;
    /// layers are copied in parallel (rayon's pool).
    #[must_use]
    pub fn resident(mut self) -> Self {
        use rayon::prelude::*;
        self.layers.par_iter_mut().for_each(|layer| {
            if let Tables::Mapped(mapped) = layer
                && let Ok(copy) = mapped.resident()
            {
                *layer = Tables::Resident(copy);
            }
        });
        self
    }

    /// Bytes of table layers this solver holds in its own memory ([`Solver::resident`]).
    #[must_use]
    pub fn resident_bytes(&self) -> u64 {
        self.layers
            .iter()
            .filter(|layer| matches!(layer, Tables::Resident(_)))
            .map(|layer| layer.data().len() as u64)
            .sum()
    }

    /// The exact value of a position within the tables, if it is.
    #[inline]
    fn table_value(&self, pos: &Position, seeds: u32) -> Option<i32> {
        let layer = self.layers.get(seeds as usize)?;
        let (index, m) = (layer.index(), self.rules.pits());
        index
            .contains_on(pos.board, m)
            .then(|| i32::from(layer.value(index.rank_on(pos.board, m))))
    }

    /// Where the value of `pos` is looked up; starts loading it into the cache, a table entry
    /// always, a bucket if `bucket` (a node asks for all its children's at once, so that the
    /// memory latencies overlap).
    #[inline]
    fn key(&self, pos: &Position, bucket: bool) -> Key {
        let m = self.rules.pits();
        let seeds = pos.board.seeds(m);
        match self.layers.get(seeds as usize) {
            Some(layer) if layer.index().contains_on(pos.board, m) => {
                let rank = layer.index().rank_on(pos.board, m);
                layer.prefetch(rank);
                Key::Table { seeds, rank }
            }
            _ => {
                let h = hash(pos.board);
                if bucket {
                    self.tt.prefetch(h);
                }
                Key::Hash(h)
            }
        }
    }

    fn terminal_value(&self, pos: &Position) -> i32 {
        granary_tables::probe::terminal_value(&self.rules, pos)
    }

    /// The children of `pos`, in lane order, into `out` (made in place: returned by value, the
    /// 656 bytes cost a `memcpy` a node), with their table entries and, if `buckets`, their
    /// transposition-table buckets loading.
    ///
    /// The search asks for the buckets at every node, though it reads them before any child is
    /// searched only more than `ETC_MARGIN` seeds above the tables: a child it enters finds its
    /// bucket loaded. Measured (session 19, Kalah(6,4) standard over 20-seed tables, two
    /// one-thread solves started together, 5 runs): 0.876x the CPU of loading them only where
    /// the node reads them (then from 6 seeds above the tables), 0.890x from 2.
    fn children(&self, pos: &Position, out: &mut ArrayVec<Child, 8>, buckets: bool) {
        out.clear();
        for lane in self.rules.legal_moves(pos).iter() {
            let child = self.rules.play(pos, lane);
            let (gain, again) = pos.move_gain(&child);
            out.push(Child {
                lane,
                key: self.key(&child, buckets),
                at_most: gain + child.board.seeds(self.rules.pits()) as i32,
                pos: child,
                gain,
                again,
            });
        }
    }

    /// Fail-soft alpha-beta; see the module documentation for the contract. `nodes` counts the
    /// positions visited. Runs on every thread of rayon's current pool (see the module
    /// documentation).
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
            &Stop::root(&self.abort),
        )
    }

    /// [`Solver::alphabeta`] on a position beyond the tables, whose board hashes to `h`; gives
    /// up (returns a meaningless value and stores nothing) once `stop` is set.
    fn search(
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
        // cutoffs need at once (their table entries or buckets).
        self.tt.prefetch(h);
        let mut children = ArrayVec::new();
        self.children(pos, &mut children, true);
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

    /// Young Brothers Wait: the children `rest` (indices into `children`) of a node whose first
    /// child did not cut, searched in parallel on rayon's pool with the window `(a, beta)`
    /// (threads that run out of work steal the oldest, largest, pieces of others). The first
    /// child that fails high stops its brothers. The best option and its lane, or `None` if
    /// `stop` was set meanwhile.
    fn split(
        &self,
        children: &[Child],
        rest: &[u8],
        a: i32,
        beta: i32,
        nodes: &mut u64,
        stop: &Stop<'_>,
    ) -> Option<(i32, u8)> {
        use std::sync::atomic::{AtomicI32, AtomicUsize};
        let local = Stop::below(stop);
        let options: ArrayVec<AtomicI32, 8> =
            rest.iter().map(|_| AtomicI32::new(i32::MIN)).collect();
        let counted = AtomicU64::new(0);
        let next = AtomicUsize::new(0);
        // Each thread takes the next child in order, so that the children most likely to be
        // needed are searched first.
        let work = || {
            while !local.stopped() {
                let k = next.fetch_add(1, Relaxed);
                let Some(&i) = rest.get(k) else { return };
                let mut n = 0;
                let child = &children[usize::from(i)];
                let option = self.child_option(child, a, beta, &mut n, &local);
                counted.fetch_add(n, Relaxed);
                self.publish(child, n);
                if local.stopped() {
                    return;
                }
                options[k].store(option, Relaxed);
                if option >= beta {
                    local.set();
                }
            }
        };
        rayon::scope(|scope| {
            for _ in 1..self.threads.min(rest.len()) {
                scope.spawn(|_| work());
            }
            work();
        });
        *nodes += counted.into_inner();
        if stop.stopped() {
            return None;
        }
        rest.iter()
            .zip(&options)
            .map(|(&i, o)| (o.load(Relaxed), children[usize::from(i)].lane as u8))
            .filter(|&(o, _)| o != i32::MIN)
            .max_by_key(|&(o, _)| o)
    }

    /// Adds to the live count ([`Solver::live_nodes`]) the `nodes` of a far node's child's
    /// search if the child is near the tables (a far child counts itself, node by node).
    #[inline]
    fn publish(&self, child: &Child, nodes: u64) {
        if child.pos.board.seeds(self.rules.pits()) <= self.split_above {
            self.count_live(nodes);
        }
    }

    /// Adds `nodes` to the live count through a per-thread batch of [`LIVE_BATCH`] nodes: the
    /// threads do not write one shared cache line at every far node (that cost 1.7x the time
    /// of a 2-thread Kalah(6,5) search).
    #[inline]
    fn count_live(&self, nodes: u64) {
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
                    let v = i32::from(self.layers[seeds as usize].value(rank));
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
                let (at_least, at_most) = if child.again {
                    (child.gain + lo, child.gain + hi)
                } else {
                    (child.gain - hi, child.gain - lo)
                };
                if at_least >= beta {
                    return Err(at_least);
                }
                child.at_most = at_most;
            }
        }
        let order = Self::order(children, tt_move);
        Ok(Node {
            order,
            lower,
            upper,
        })
    }

    /// A first guess at the value of `pos` for MTD(f): iterative deepening, two plies at a time,
    /// of [`Solver::estimate`] until a depth costs more than [`GUESS_NODES`] nodes (counted in
    /// `nodes`) or reaches [`GUESS_MAX_DEPTH`]; 0 near the tables. Deterministic: no hash
    /// table, one thread.
    ///
    /// Measured (session 18, docs/search.md): the estimate is within two seeds of the value on
    /// the Kalah(6,4) and (6,5) starts, and MTD(f) from it takes 0.46x the nodes of a guess of 0
    /// on Kalah(6,5) standard over 28-seed tables and about 0.96x the time on Kalah(6,4)
    /// standard over 20-seed tables.
    pub fn first_guess(&self, pos: &Position, nodes: &mut u64) -> i32 {
        let n = pos.board.seeds(self.rules.pits());
        if n <= self.guess_above {
            return 0;
        }
        let mut depth = 2;
        loop {
            let mut spent = 0;
            let guess = self.estimate(pos, depth, &mut spent);
            *nodes += spent;
            if spent > GUESS_NODES || depth >= GUESS_MAX_DEPTH {
                return guess;
            }
            depth += 2;
        }
    }

    /// Where MTD(f) on `pos` starts when a journal ([`Solver::load_journal`]) already bounds its
    /// value: at the bound its earlier passes proved (a solve resumed after a stop), with no
    /// estimate to pay for again.
    fn resumed_guess(&self, pos: &Position) -> Option<i32> {
        let n = pos.board.seeds(self.rules.pits()) as i32;
        let e = self.tt.get(pos.board, hash(pos.board))?;
        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
        if e.work != PINNED {
            None
        } else if lower > -n {
            Some(lower)
        } else {
            (upper < n).then_some(upper)
        }
    }

    /// A depth-limited estimate of the value of `pos` ([`Solver::first_guess`]'s): exact within
    /// the tables and when every line ends within `depth` plies (moves, extra moves included);
    /// where a line is cut, half the difference between the seeds on the mover's side and the
    /// opponent's.
    pub fn estimate(&self, pos: &Position, depth: u32, nodes: &mut u64) -> i32 {
        let n = pos.board.seeds(self.rules.pits()) as i32;
        self.estimate_within(pos, depth, -n - 1, n + 1, nodes)
    }

    /// [`Solver::estimate`] as a fail-soft alpha-beta with the window `(alpha, beta)` (no hash
    /// table, the search's move order).
    fn estimate_within(
        &self,
        pos: &Position,
        depth: u32,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> i32 {
        *nodes += 1;
        let m = self.rules.pits();
        let seeds = pos.board.seeds(m);
        if let Some(v) = self.table_value(pos, seeds) {
            return v;
        }
        if depth == 0 {
            if self.rules.legal_moves(pos).is_empty() {
                return self.terminal_value(pos);
            }
            let mine = pos.board.mover_seeds(m) as i32;
            return mine - seeds as i32 / 2;
        }
        let mut children = ArrayVec::new();
        // No hash table here: no buckets to load.
        self.children(pos, &mut children, false);
        if children.is_empty() {
            return self.terminal_value(pos);
        }
        let mut best = i32::MIN;
        let mut a = alpha;
        for i in Self::order(&children, NO_MOVE) {
            let child = &children[usize::from(i)];
            let (lo, hi) = child.window(a, beta);
            let option = child.option(self.estimate_within(&child.pos, depth - 1, lo, hi, nodes));
            best = best.max(option);
            a = a.max(best);
            if a >= beta {
                break;
            }
        }
        best
    }

    /// What `child` is worth to its parent searched with the parent's window `(a, beta)`
    /// (fail-soft); unsearched when its bound already fails low.
    #[inline(always)]
    fn child_option(
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
            Key::Hash(h) => self.search(&child.pos, h, lo, hi, nodes, stop),
            Key::Exact(v) => v,
            Key::Table { seeds, rank } => i32::from(self.layers[seeds as usize].value(rank)),
        };
        child.option(v)
    }

    /// Stores what the search of `node` (window `(alpha, beta)`) found: `best`, the fail-soft
    /// value, by the move `lane`, after `work` nodes.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn store(
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
    /// (see the module documentation).
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
                    value: child.option(v),
                    exact: true,
                }
            } else {
                RootMove {
                    lane: child.lane,
                    value: best,
                    exact: false,
                }
            };
            if result.exact {
                best = best.max(result.value);
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
        let value = match moves.iter().filter(|r| r.exact).map(|r| r.value).max() {
            Some(v) => v,
            None => self.value(pos),
        };
        // An inexact move was bounded by a bar no higher than the final best: it is no better.
        // The best root move goes into the table, so the principal variation starts with it.
        if let Some(best) = moves.iter().find(|r| r.exact && r.value == value) {
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
                let exact = if child.again {
                    r.value - child.gain
                } else {
                    child.gain - r.value
                };
                let (a, b) = if r.exact {
                    (exact, exact)
                } else if child.again {
                    (-n, r.value - child.gain)
                } else {
                    (child.gain - r.value, n)
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
                value: upper,
                exact: lower == upper,
            });
        }
        let best = moves.iter().filter(|r| r.exact).map(|r| r.value).max()?;
        if best != recorded.value || moves.iter().any(|r| r.value > best) {
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
                assert!(self.aborted(), "some move attains the position's value");
                return pv;
            };
            self.nodes.fetch_add(nodes, Relaxed);
            pv.push(child.lane);
            value = if child.again {
                value - child.gain
            } else {
                child.gain - value
            };
            pos = child.pos;
        }
    }

    /// The search's move order, as indices into `children`: `first` (a stored best move), then
    /// moves that move again, then by gain, then lanes nearest the store. (Sorting one-byte
    /// indices by a packed key, not the children themselves: measured in session 6, the sort and
    /// its copies were 9% of a search's time.)
    fn order(children: &[Child], first: u8) -> ArrayVec<u8, 8> {
        // One u32 a child, larger first: the criteria above it, its index below (children come
        // in lane order, so a larger index is a lane nearer the store). Gains lie in -n..=n for
        // n < 2^15 seeds.
        let mut keys: ArrayVec<u32, 8> = children
            .iter()
            .enumerate()
            .map(|(i, c)| {
                u32::from(c.lane as u8 == first) << 31
                    | u32::from(c.again) << 30
                    | ((c.gain + (1 << 15)) as u32) << 8
                    | i as u32
            })
            .collect();
        // Insertion sort, largest first: at most eight keys. (Fed from the last child to the
        // first, so that equal moves arrive in order, it was no faster: session 15.)
        for i in 1..keys.len() {
            let key = keys[i];
            let mut j = i;
            while j > 0 && keys[j - 1] < key {
                keys[j] = keys[j - 1];
                j -= 1;
            }
            keys[j] = key;
        }
        keys.iter().map(|k| *k as u8).collect()
    }
}

/// Whether a search must give up: a flag set where a split's child failed high (its brothers'
/// searches are no longer needed), seen by every search below that split through the chain of
/// flags of the splits above it.
struct Stop<'a> {
    flag: AtomicBool,
    above: Above<'a>,
}

/// What is above a [`Stop`]: the split it belongs to, or at a search's root the solver's
/// abort flag.
enum Above<'a> {
    Split(&'a Stop<'a>),
    Root(&'a AtomicBool),
}

impl<'a> Stop<'a> {
    /// The flag of a search from its root, which also stops when `abort` is set.
    fn root(abort: &'a AtomicBool) -> Stop<'a> {
        Stop {
            flag: AtomicBool::new(false),
            above: Above::Root(abort),
        }
    }

    /// A new flag for the searches of a split below `above`.
    fn below(above: &'a Stop<'a>) -> Stop<'a> {
        Stop {
            flag: AtomicBool::new(false),
            above: Above::Split(above),
        }
    }

    fn set(&self) {
        self.flag.store(true, Relaxed);
    }

    /// Whether this flag or one above it is set.
    #[inline]
    fn stopped(&self) -> bool {
        let mut s = self;
        loop {
            if s.flag.load(Relaxed) {
                return true;
            }
            match s.above {
                Above::Split(above) => s = above,
                Above::Root(abort) => return abort.load(Relaxed),
            }
        }
    }
}
