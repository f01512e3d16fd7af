//! A node's children and their order: the moves out of a position, where each child's value is
//! looked up (a table entry, or a transposition-table bucket, their loads started together),
//! and the order the search tries them in.

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::Solver;
use crate::tt::hash;

/// A child of a node, with what the move gains and whether the mover moves again.
#[derive(Clone, Copy)]
pub(crate) struct Child {
    pub(crate) lane: usize,
    pub(crate) pos: Position,
    pub(crate) gain: i32,
    pub(crate) again: bool,
    /// Where its value is looked up, found once: an entry of a table layer, or the hash of
    /// its board for the transposition table.
    pub(crate) key: Key,
    /// An upper bound of what the move is worth to the parent (from the child's seeds, then
    /// from its stored bounds).
    pub(crate) at_most: i32,
}

/// Where a position's value is looked up.
#[derive(Clone, Copy)]
pub(crate) enum Key {
    /// Entry `rank` of table layer `seeds`: an exact value.
    Table { seeds: u32, rank: u64 },
    /// Beyond the tables: the board's hash ([`crate::tt::hash`]).
    Hash(u64),
    /// Read from a table: the exact value.
    Exact(i32),
}

/// What a node knows once its children are made, before any is searched
/// ([`Solver::prepare`]).
pub(super) struct Node {
    /// Indices into the children, in search order.
    pub(super) order: ArrayVec<u8, 8>,
    /// Bounds known before the search: from the seeds on the board and the stored entry.
    pub(super) lower: i32,
    pub(super) upper: i32,
}

impl Child {
    /// The child's window for the parent's `(alpha, beta)` ([`granary_rules::undo_exit`] of
    /// each end; the ends trade places where the other player moves next).
    #[inline]
    pub(crate) fn window(&self, alpha: i32, beta: i32) -> (i32, i32) {
        let (a, b) = (self.undo(alpha), self.undo(beta));
        if self.again { (a, b) } else { (b, a) }
    }

    /// What the move is worth to the parent when the child is worth `child_value`
    /// ([`granary_rules::exit_value`]).
    #[inline]
    pub(crate) fn option(&self, child_value: i32) -> i32 {
        granary_rules::exit_value(self.gain, self.again, child_value)
    }

    /// The child's value at which the move is worth `value` to the parent: the inverse of
    /// [`Child::option`] ([`granary_rules::undo_exit`]).
    #[inline]
    pub(super) fn undo(&self, value: i32) -> i32 {
        granary_rules::undo_exit(self.gain, self.again, value)
    }

    /// The parent's bounds on the move from the child's bounds `(lo, hi)` ([`Child::option`] of
    /// each end; the ends trade places where the other player moves next).
    #[inline]
    pub(super) fn option_bounds(&self, lo: i32, hi: i32) -> (i32, i32) {
        let (a, b) = (self.option(lo), self.option(hi));
        if self.again { (a, b) } else { (b, a) }
    }
}

/// No move: what a node without a stored best move passes to [`Solver::order`] (no child goes
/// first).
pub(crate) const NO_MOVE: u8 = 0xff;

impl<'t, R: Rules> Solver<'t, R> {
    /// The exact value of a position within the tables, if it is.
    #[inline]
    pub(crate) fn table_value(&self, pos: &Position, seeds: u32) -> Option<i32> {
        let layer = self.layers.get(seeds as usize)?;
        let (index, m) = (layer.index(), self.rules.pits());
        index
            .contains_on(pos.board, m)
            .then(|| self.entry(seeds, index.rank_on(pos.board, m)))
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

    pub(crate) fn terminal_value(&self, pos: &Position) -> i32 {
        granary_tables::probe::terminal_value(&self.rules, pos)
    }

    /// The exact value of a child's table entry ([`Key::Table`]).
    #[inline]
    pub(crate) fn table_entry(&self, seeds: u32, rank: u64) -> i32 {
        self.entry(seeds, rank)
    }

    /// The rules the solver plays by.
    #[inline]
    pub(crate) fn rules(&self) -> &R {
        &self.rules
    }

    /// The children of `pos`, in lane order, into `out` (made in place: returned by value, the
    /// 656 bytes cost a `memcpy` a node), with their table entries and, if `buckets`, their
    /// transposition-table buckets loading.
    ///
    /// The search asks for the buckets here only more than `ETC_MARGIN` seeds above the tables,
    /// where it reads them before any child is searched; nearer the tables it asks for them
    /// once the table children have not cut the node ([`Solver::prefetch_buckets`]).
    pub(crate) fn children(&self, pos: &Position, out: &mut ArrayVec<Child, 8>, buckets: bool) {
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

    /// Starts loading the buckets of the children beyond the tables, so that a child the search
    /// enters finds its bucket loaded. A node near the tables asks for them after its table
    /// children's cutoff test: a third of the nodes end there, and their children's buckets
    /// would be loaded for nothing (measured: docs/benchmarks.md).
    #[inline]
    pub(super) fn prefetch_buckets(&self, children: &[Child]) {
        for child in children {
            if let Key::Hash(h) = child.key {
                self.tt.prefetch(h);
            }
        }
    }

    /// The search's move order, as indices into `children`: `first` (a stored best move), then
    /// moves that move again, then by gain, then lanes nearest the store. (Sorting one-byte
    /// indices by a packed key, not the children themselves, whose sort and copies cost more:
    /// docs/benchmarks.md.)
    pub(crate) fn order(children: &[Child], first: u8) -> ArrayVec<u8, 8> {
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
        // first, so that equal moves arrive in order, it measures no faster.)
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
