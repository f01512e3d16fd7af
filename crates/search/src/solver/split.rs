//! The thread split, Young Brothers Wait: a node far from the tables whose first child did not
//! cut shares its other children out among rayon's threads, and the first of them to fail
//! high stops its brothers through a chain of stop flags.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use arrayvec::ArrayVec;
use granary_rules::Rules;

use super::Solver;
use super::node::Child;

/// Nodes with more than the tables' horizon plus this many seeds split ([`Solver::split`]);
/// nearer the tables subtrees are too small to be worth a task.
pub(super) const SPLIT_MARGIN: u32 = 4;

impl<'t, R: Rules> Solver<'t, R> {
    /// Young Brothers Wait: the children `rest` (indices into `children`) of a node whose first
    /// child did not cut, searched in parallel on rayon's pool with the window `(a, beta)`
    /// (threads that run out of work steal the oldest, largest, pieces of others). The first
    /// child that fails high stops its brothers. The best option and its lane, or `None` if
    /// `stop` was set meanwhile.
    pub(super) fn split(
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
}

/// Whether a search must give up: a flag set where a split's child failed high (its brothers'
/// searches are no longer needed), seen by every search below that split through the chain of
/// flags of the splits above it.
pub(super) struct Stop<'a> {
    flag: AtomicBool,
    above: Above<'a>,
}

/// What is above a [`Stop`]: the split it belongs to, or at a search's root two flags (the
/// solver's abort flag and its caller's cancel request, or a job's own flag).
enum Above<'a> {
    Split(&'a Stop<'a>),
    Root([&'a AtomicBool; 2]),
}

impl<'a> Stop<'a> {
    /// The flag of a search from its root, which also stops when either of `roots` is set.
    pub(super) fn root(roots: [&'a AtomicBool; 2]) -> Stop<'a> {
        Stop {
            flag: AtomicBool::new(false),
            above: Above::Root(roots),
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
    pub(super) fn stopped(&self) -> bool {
        let mut s = self;
        loop {
            if s.flag.load(Relaxed) {
                return true;
            }
            match s.above {
                Above::Split(above) => s = above,
                Above::Root([a, b]) => return a.load(Relaxed) || b.load(Relaxed),
            }
        }
    }
}
