//! The first guess MTD(f) starts from: a depth-limited estimate that scores the positions where
//! it stops by the seeds on each side, or, for a solve resumed from a journal, the bound its
//! earlier passes proved.

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::Solver;
use super::node::NO_MOVE;
use crate::tt::{PINNED, hash};

/// [`Solver::first_guess`] deepens by two plies until a depth costs more than this many nodes
/// (measured: docs/benchmarks.md).
const GUESS_NODES: u64 = 1 << 18;

/// [`Solver::first_guess`] stops at this depth whatever it costs.
const GUESS_MAX_DEPTH: u32 = 24;

/// Positions at most this many seeds above the tables get no estimate (their searches are too
/// small for one to pay): their first guess is 0 (measured: docs/benchmarks.md).
pub(super) const GUESS_MARGIN: u32 = 24;

impl<'t, R: Rules> Solver<'t, R> {
    /// A first guess at the value of `pos` for MTD(f): iterative deepening, two plies at a time,
    /// of [`Solver::estimate`] until a depth costs more than `GUESS_NODES` nodes (counted in
    /// `nodes`) or reaches `GUESS_MAX_DEPTH`; 0 near the tables. Deterministic: no hash
    /// table, one thread.
    ///
    /// How near the estimate comes to the value, and what MTD(f) from it saves: docs/search.md
    /// and docs/benchmarks.md.
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
    pub(super) fn resumed_guess(&self, pos: &Position) -> Option<i32> {
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
}
