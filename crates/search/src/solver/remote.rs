//! Jobs: subtrees of a solve searched by other processes (the ranks of an MPI job), each a
//! position and the window it must be proven against, each answered with a fail-soft value of
//! the search contract.
//!
//! The solver that runs the top of the tree ([`Solver::set_remote`]) offers every child of
//! `job_margin` or fewer seeds above its tables (and more than `SPLIT_MARGIN`, where the
//! searches watch their stop flags) to its [`Remote`]: a worker takes it and the thread waits
//! for the value, or the remote declines ([`Remoted::Busy`]) and the thread searches the child
//! itself. A value that comes back is stored as the bounds it proves, in the transposition
//! table and the journal, as if this process had searched it. The thread split (Young Brothers Wait) is what
//! puts many jobs in flight at once: each of its threads that takes a child may hand it out.
//!
//! A worker answers with [`Solver::job`]: the same search, from its own tables and its own
//! transposition table (kept from job to job), given up when the job is cancelled (a brother
//! failed high at the node that sent it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use arrayvec::ArrayVec;
use granary_rules::{Position, Rules};

use super::Solver;
use super::node::{Child, NO_MOVE, Node};
use super::split::{SPLIT_MARGIN, Stop};
use crate::tt::hash;

/// What became of a job offered to a [`Remote`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remoted {
    /// No worker was idle: search it here.
    Busy,
    /// A worker searched it: the fail-soft value for the job's window, and its nodes.
    Done { value: i32, nodes: u64 },
    /// The searches that wanted it stopped before it came back; nothing is known.
    Stopped,
}

/// Workers that search positions for this solver (in another process, on another machine).
pub trait Remote: Send + Sync + std::fmt::Debug {
    /// Searches `pos` with the window `(alpha, beta)` on a worker and waits for its value, or
    /// declines at once with [`Remoted::Busy`] (the caller searches it). While it waits, gives
    /// the job up (and returns [`Remoted::Stopped`]) once `stopped` says so.
    fn search(&self, pos: &Position, alpha: i32, beta: i32, stopped: &dyn Fn() -> bool) -> Remoted;
}

/// How far below the root's seeds the jobs start by default ([`job_margin`]).
pub const JOB_DEPTH: u32 = 6;

/// The default `job_margin` of [`Solver::set_remote`] for a root of `root_seeds` seeds over
/// tables of `horizon` seeds: jobs are the positions [`JOB_DEPTH`] (6) seeds below the root
/// (more than `SPLIT_MARGIN` above the tables): subtrees large enough that a job's round trip
/// is small beside them (`docs/scale.md`; the margins measured: docs/benchmarks.md).
#[must_use]
pub fn job_margin(root_seeds: u32, horizon: u32) -> u32 {
    root_seeds
        .saturating_sub(horizon)
        .saturating_sub(JOB_DEPTH)
        .max(SPLIT_MARGIN + 1)
}

impl<'t, R: Rules> Solver<'t, R> {
    /// Hands the children of `job_margin` or fewer seeds above the tables (and more than
    /// `SPLIT_MARGIN`) out to `remote`'s workers. Values do not depend on it.
    ///
    /// # Panics
    /// If `job_margin` is not above `SPLIT_MARGIN` (4): nearer the tables no search looks at its
    /// stop flag, and no job could be given up.
    pub fn set_remote(&mut self, remote: Arc<dyn Remote>, job_margin: u32) {
        assert!(
            job_margin > SPLIT_MARGIN,
            "jobs lie more than {SPLIT_MARGIN} seeds above the tables"
        );
        self.jobs_below = self.split_above - SPLIT_MARGIN + job_margin;
        self.remote = Some(remote);
    }

    /// A child's fail-soft value for the window `(lo, hi)` from a worker, stored as what it
    /// proves; `None` if it is not a job or no worker is idle (the caller searches it). After a
    /// job that stopped, `Some` of a meaningless value: `stop` is set.
    #[inline]
    pub(super) fn remote_value(
        &self,
        child: &Child,
        h: u64,
        lo: i32,
        hi: i32,
        nodes: &mut u64,
        stop: &Stop<'_>,
    ) -> Option<i32> {
        let remote = self.remote.as_ref()?;
        let seeds = child.pos.board.seeds(self.rules.pits());
        if seeds > self.jobs_below || seeds <= self.split_above {
            return None;
        }
        match remote.search(&child.pos, lo, hi, &|| stop.stopped()) {
            Remoted::Busy => None,
            Remoted::Stopped => Some(0),
            Remoted::Done { value, nodes: n } => {
                *nodes += n;
                self.count_live(n);
                // Stored as the child's own search would have: its known bounds tightened by
                // the value, its best move kept.
                let m = seeds as i32;
                let known = self.tt.get(child.pos.board, h);
                let node = Node {
                    order: ArrayVec::new(),
                    lower: known.map_or(-m, |e| i32::from(e.lower)),
                    upper: known.map_or(m, |e| i32::from(e.upper)),
                };
                let lane = known.and_then(|e| e.best).unwrap_or(NO_MOVE);
                self.store(&child.pos, h, &node, lo, hi, (value, lane), n);
                Some(value)
            }
        }
    }

    /// A worker's job: the fail-soft value of `pos` for the window `(alpha, beta)` (the search
    /// contract) and the nodes it took, or `None` if `cancel` (or the solver's cancel request,
    /// [`Solver::set_cancel`]) was set before it ended (nothing
    /// half-searched is stored).
    pub fn job(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        cancel: &AtomicBool,
    ) -> Option<(i32, u64)> {
        let mut nodes = 0;
        let seeds = pos.board.seeds(self.rules.pits());
        let value = match self.table_value(pos, seeds) {
            Some(v) => {
                nodes += 1;
                v
            }
            None => self.search(
                pos,
                hash(pos.board),
                alpha,
                beta,
                &mut nodes,
                &Stop::root([cancel, self.cancel.flag()]),
            ),
        };
        (!cancel.load(Relaxed) && !self.cancel.is_cancelled()).then_some((value, nodes))
    }
}
