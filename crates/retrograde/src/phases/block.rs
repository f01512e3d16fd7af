//! One block of a layer being solved by the phases: the scan of a phase, the messages from other
//! blocks applied, and the propagation of what they resolve to the parents (un-moves).

use std::ops::Range;
use std::sync::atomic::{
    AtomicBool, AtomicI8, AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed,
};

use granary_index::LayerIndex;
use granary_rules::{Board, Rules};
use granary_tables::prefetch;
use rayon::Scope;
use rayon::prelude::*;

use super::exits::{LOSS_EXIT, OFFSET, PhaseList};
use super::work::{COUNT, EXIT_LOW, pending_value, resolved, settled};
use super::{BATCH, MESSAGE_CHUNK, Solving, pieces};
use crate::PIECE;
use crate::blocks::{BlockPlan, LOCAL_MESSAGES, LOST, Outbox, WorkBytes};
use crate::lower::NO_EXIT;
use crate::report::PhaseCounts;
use crate::unmove::for_each_parent;

/// One block of a layer being solved: its rules, index, values (best exits until resolved;
/// the whole layer's) and work bytes (the block's).
pub(super) struct Block<'a, R> {
    pub(super) rules: &'a R,
    pub(super) index: &'a LayerIndex,
    /// The values of this process's blocks, from rank `base` on.
    pub(super) values: &'a [AtomicI8],
    pub(super) base: u64,
    pub(super) work: &'a [AtomicU8],
    pub(super) plan: &'a BlockPlan,
    pub(super) range: Range<u64>,
    pub(super) outbox: &'a Outbox,
    /// Some position was resolved and left unpropagated (a thread's stack was full).
    pub(super) pending: AtomicBool,
    /// Positions scanned, resolved and parents generated (threads add their [`Local`]'s).
    counted: [AtomicU64; 3],
    /// Shares of a thread's stack handed to the pass and not yet taken up ([`Block::share`]).
    waiting: AtomicUsize,
    /// Threads at work on a piece, a chunk of messages or a share of the pass ([`AtWork`]),
    /// against the pool's `threads`: fewer, and a thread is idle.
    at_work: AtomicUsize,
    threads: usize,
    /// Regions of the block's work bytes ([`BlockPlan::region`]).
    regions: usize,
}

/// A thread at work on a part of a pass, counted in [`Block::at_work`] while it lives.
struct AtWork<'a>(&'a AtomicUsize);

impl<'a> AtWork<'a> {
    fn new(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Relaxed);
        AtWork(count)
    }
}

impl Drop for AtWork<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

/// The most resolved positions a thread hands to the others at once ([`Block::share`]), from a
/// stack of twice as many: about a millisecond of propagation, against a few microseconds to
/// hand them over. Under a small budget a share is an eighth of a thread's stack bound.
const SHARE: usize = 1 << 11;

/// A parent to inform: its rank, its board, and whether the child was lost.
type Parent = (u64, Board, bool);

/// Parents a region of the work bytes gathers before a thread informs them together, in a
/// block of several regions ([`BlockPlan::region`]): their work bytes prefetched at once,
/// within 128 MiB.
const REGION_BATCH: usize = 128;

/// What a thread carries through a pass: resolved positions to propagate, the parents gathered
/// by region of the block (one region: a batch), and messages for other blocks.
#[derive(Default)]
struct Local {
    stack: Vec<(Board, i8)>,
    parents: Vec<Vec<Parent>>,
    /// The regions whose parents reached [`REGION_BATCH`].
    full: Vec<usize>,
    messages: Vec<(u32, u32)>,
    /// The group of the last position the thread unranked ([`LayerIndex::unrank_near`]: a
    /// scan's positions come in rank order).
    group: granary_index::Group,
    /// Positions scanned, resolved and parents generated, not yet added to the block's.
    counted: [u64; 3],
}

impl<'a, R: Rules> Block<'a, R> {
    /// Block `b` of `layer`, whose work bytes are those in use in `work`.
    pub(super) fn new(layer: &Solving<'a, R>, work: &'a WorkBytes, b: usize) -> Self {
        let range = layer.plan.range(b);
        let regions = (range.end - range.start).div_ceil(layer.plan.region).max(1) as usize;
        Block {
            rules: layer.rules,
            index: layer.index,
            values: layer.values,
            base: layer.base,
            work: work.entries(),
            plan: layer.plan,
            range,
            outbox: layer.outbox,
            pending: AtomicBool::new(false),
            counted: Default::default(),
            waiting: AtomicUsize::new(0),
            at_work: AtomicUsize::new(0),
            threads: rayon::current_num_threads(),
            regions,
        }
    }

    /// Adds this block's counts to `counts`.
    pub(super) fn count(&self, counts: &mut PhaseCounts) {
        let [scanned, resolved, parents] = self.counted.each_ref().map(|c| c.load(Relaxed));
        counts.scanned += scanned;
        counts.resolved += resolved;
        counts.parents += parents;
    }

    /// The end of a thread's piece, chunk of messages or share of a pass (phase `t`): what is
    /// left on its stack propagated, and the parents waiting in its regions' lists informed,
    /// until neither holds any; its messages handed to the outbox, its counts added to the
    /// block's.
    fn done<'s>(&'s self, local: &mut Local, t: i8, scope: &Scope<'s>) {
        self.propagate(local, t, scope, 1);
        while self.inform_waiting(local, t) {
            self.propagate(local, t, scope, 1);
        }
        self.outbox.deliver(&mut local.messages);
        for (total, c) in self.counted.iter().zip(&mut local.counted) {
            total.fetch_add(std::mem::take(c), Relaxed);
        }
    }

    #[inline]
    pub(super) fn work(&self, rank: u64) -> &AtomicU8 {
        &self.work[(rank - self.range.start) as usize]
    }

    #[inline]
    pub(super) fn value(&self, rank: u64) -> &AtomicI8 {
        &self.values[(rank - self.base) as usize]
    }

    /// Phase `t`'s scan: the positions its exits resolve (best exit `t`, or `-t` with every
    /// move within the layer known to lead to a positive position: `-t`), and their
    /// propagation; marks `EXIT_LOW` where the best exit is `-t`.
    ///
    /// A position's exit concerns one phase only: `t` resolves it at `e = t`; `e = -t` marks it
    /// (and resolves it if no move is left to refute: a later refutation of its last move
    /// resolves it through the mark); a position with no exit is marked before the first phase
    /// ([`Block::mark_no_exits`]). So the scan visits the positions of the phase's `list` in
    /// this block ([`super::exits`]).
    ///
    /// The mark and the last refutation of a position's moves may come from two threads: each is
    /// an atomic read-modify-write of the work byte, and whichever comes second sees the other
    /// and resolves the position.
    pub(super) fn scan(&self, t: i8, list: &PhaseList<'_>) {
        let pieces = pieces(self.range.clone()).filter_map(|(first, _)| {
            let entries = list.piece(((first - self.base) / PIECE) as usize);
            (!entries.is_empty()).then_some((first, entries))
        });
        rayon::scope(|scope| {
            pieces.for_each_init(Local::default, |local, (first, entries)| {
                let _at_work = AtWork::new(&self.at_work);
                local.counted[0] += entries.len() as u64 / 2;
                for entry in entries.chunks_exact(2) {
                    let entry = u16::from_le_bytes([entry[0], entry[1]]);
                    let i = first + u64::from(entry & OFFSET);
                    // A load that races the threads informing `i`: a stale byte is refused by
                    // the compare-and-swap that follows (`super::work`, Ordering).
                    if settled(self.work(i).load(Relaxed)) {
                        continue;
                    }
                    if entry & LOSS_EXIT == 0 {
                        let group = &mut local.group;
                        self.resolve(i, t, || self.index.unrank_near(i, group), &mut local.stack);
                    } else {
                        // Marked, or lost if no move is left to refute.
                        let room = local.stack.len() < self.plan.stack;
                        let lost = resolved(-t, room);
                        let marked =
                            self.change(i, |w| if w & COUNT == 0 { lost } else { w | EXIT_LOW });
                        if marked == Some(lost) {
                            let group = &mut local.group;
                            let board = || self.index.unrank_near(i, group);
                            self.queue(-t, board, room, &mut local.stack);
                        }
                    }
                    self.propagate(local, t, scope, BATCH);
                }
                self.done(local, t, scope);
            });
        });
    }

    /// Gives every unresolved position of the block with no exit `EXIT_LOW`, before the first
    /// phase of a layer or of a resumed build ([`super::exits`]). Run with no pass running: a
    /// position's bytes are its piece's alone, so a load and a store change them
    /// (`super::work`, Ordering).
    pub(super) fn mark_no_exits(&self) {
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                if self.value(i).load(Relaxed) != NO_EXIT {
                    continue;
                }
                let work = self.work(i);
                let w = work.load(Relaxed);
                if !settled(w) {
                    debug_assert!(w & COUNT != 0, "a position with no exit has a move within");
                    work.store(w | EXIT_LOW, Relaxed);
                }
            }
        });
    }

    /// Applies messages from other blocks (see [`crate::blocks`]) and propagates what they
    /// resolve.
    pub(super) fn apply(&self, messages: &[u32], t: i8) {
        rayon::scope(|scope| {
            messages
                .par_chunks(MESSAGE_CHUNK)
                .for_each_init(Local::default, |local, chunk| {
                    let _at_work = AtWork::new(&self.at_work);
                    for &m in chunk {
                        let q = self.range.start + u64::from(m & !LOST);
                        prefetch(self.work(q));
                    }
                    for &m in chunk {
                        let q = self.range.start + u64::from(m & !LOST);
                        self.inform(
                            q,
                            || self.index.unrank(q),
                            m & LOST != 0,
                            t,
                            &mut local.stack,
                        );
                        self.propagate(local, t, scope, BATCH);
                    }
                    self.done(local, t, scope);
                });
        });
    }

    /// Propagates the positions left pending (resolved when a stack was full), until none is.
    pub(super) fn finish_pending(&self, t: i8) {
        while self.pending.swap(false, Relaxed) {
            rayon::scope(|scope| {
                pieces(self.range.clone()).for_each_init(Local::default, |local, (first, end)| {
                    let _at_work = AtWork::new(&self.at_work);
                    for i in first..end {
                        // A pending byte is changed by no other thread, and only this one
                        // (whose piece holds `i`) makes it resolved: the load and the store
                        // need no compare-and-swap. A position left pending after this load is
                        // taken by the next round (`super::work`, Ordering).
                        if let Some(value) = pending_value(self.work(i).load(Relaxed), t) {
                            self.work(i).store(resolved(value, true), Relaxed);
                            let board = self.index.unrank_near(i, &mut local.group);
                            local.stack.push((board, value));
                            self.propagate(local, t, scope, BATCH);
                        }
                    }
                    self.done(local, t, scope);
                });
            });
        }
    }

    /// Sets position `i`'s work byte `w`, unless it is settled, to `next(w)` (one
    /// compare-and-swap); returns the byte set (`None`: it was settled).
    ///
    /// The only change of an unresolved byte while other threads may change it too. `Relaxed`
    /// is enough (`super::work`, Ordering): the compare-and-swaps of one byte follow one another
    /// in its modification order, each from the byte the one before it set, so each inform takes
    /// off one move and exactly one call settles the byte (and its caller alone queues it); no
    /// other memory is read on the strength of the byte.
    #[inline]
    fn change(&self, i: u64, next: impl Fn(u8) -> u8) -> Option<u8> {
        let cell = self.work(i);
        let mut w = cell.load(Relaxed);
        loop {
            if settled(w) {
                return None;
            }
            let set = next(w);
            match cell.compare_exchange_weak(w, set, Relaxed, Relaxed) {
                Ok(_) => return Some(set),
                Err(now) => w = now,
            }
        }
    }

    /// Marks position `i` resolved with `value` (`t` or `-t`) unless it already is, and queues
    /// its board (`board()` gives it; callers that hold it need not unrank).
    #[inline]
    fn resolve(
        &self,
        i: u64,
        value: i8,
        board: impl FnOnce() -> Board,
        stack: &mut Vec<(Board, i8)>,
    ) {
        let room = stack.len() < self.plan.stack;
        if self.change(i, |_| resolved(value, room)).is_some() {
            self.queue(value, board, room, stack);
        }
    }

    /// A position just resolved as `value` by this thread: its board queued (`room` on the
    /// stack) or left pending.
    #[inline]
    fn queue(
        &self,
        value: i8,
        board: impl FnOnce() -> Board,
        room: bool,
        stack: &mut Vec<(Board, i8)>,
    ) {
        if room {
            stack.push((board(), value));
        } else {
            self.pending.store(true, Relaxed);
        }
    }

    /// Tells parent `q` (in this block) that a child resolved in phase `t` was lost (the parent
    /// is won: `+t`) or won (one move fewer to refute; when none is left and its best exit is at
    /// most `-t`, `EXIT_LOW`, the parent is lost: `-t`; if the scan has not marked it yet, the
    /// scan resolves it).
    #[inline]
    fn inform(
        &self,
        q: u64,
        parent: impl FnOnce() -> Board,
        child_lost: bool,
        t: i8,
        stack: &mut Vec<(Board, i8)>,
    ) {
        if child_lost {
            self.resolve(q, t, parent, stack);
            return;
        }
        let room = stack.len() < self.plan.stack;
        let lost = resolved(-t, room);
        let refuted = self.change(q, |w| {
            if w & (COUNT | EXIT_LOW) == 1 | EXIT_LOW {
                lost
            } else {
                w - 1
            }
        });
        if refuted == Some(lost) {
            self.queue(-t, parent, room, stack);
        }
    }

    /// Informs the parents of the queued positions (resolved as `+t` or `-t`) in phase `t`:
    /// those in this block now or in their region's list, the others by message; while the stack
    /// holds at least `least` of them (1: until it is empty).
    ///
    /// Parents are random accesses into the block: they are gathered for a batch of children and
    /// prefetched before any is updated, so the cache misses overlap. A cascade mostly leaves
    /// one position on the stack at a time, so the passes gather the positions they resolve
    /// until a batch is full (`least` = [`BATCH`]) and propagate what is left at the end of a
    /// piece or a chunk of messages ([`Block::done`]).
    ///
    /// In a block of one region (within the TLB's reach), a parent's work byte is prefetched as
    /// the parent is ranked, and the batch's parents are informed after the batch. In a block of
    /// several ([`BlockPlan::region`]), a parent waits in its region's list until the list
    /// holds [`REGION_BATCH`] (or the thread's part of the pass ends: [`Block::done`]); the list's work bytes are
    /// then prefetched and informed together, at addresses in pages the TLB holds. The informs
    /// commute, so the order does not change the bytes.
    ///
    /// A stack that grows long (a cascade of resolutions) hands a share of its positions to the
    /// pass ([`Block::share`]) whenever no earlier share waits, so that a thread left without
    /// work takes it up instead of waiting for this one to finish the cascade alone; a short
    /// one hands half of itself while fewer threads are at work than the pool has (at the end
    /// of a pass of a large layer, one thread's cascade can otherwise run on alone for minutes).
    fn propagate<'s>(&'s self, local: &mut Local, t: i8, scope: &Scope<'s>, least: usize) {
        let Local {
            stack,
            parents,
            full,
            messages,
            counted,
            ..
        } = local;
        if parents.len() < self.regions {
            parents.resize_with(self.regions, Vec::new);
        }
        let spread = self.regions > 1;
        let share = SHARE.min(self.plan.stack / 8).max(1);
        while stack.len() >= least.max(1) {
            if stack.len() >= 2 && self.waiting.load(Relaxed) == 0 {
                // A long stack hands a share; a short one half of it while a thread is idle
                // (the end of a pass, where one thread's cascade would go on alone).
                let give = if stack.len() >= 2 * share {
                    share
                } else if self.at_work.load(Relaxed) < self.threads {
                    stack.len() / 2
                } else {
                    0
                };
                if give > 0 {
                    self.share(stack.split_off(stack.len() - give), t, scope);
                }
            }
            for _ in 0..BATCH {
                let Some((child, value)) = stack.pop() else {
                    break;
                };
                let lost = value == -t;
                counted[1] += 1;
                // A parent whose move sowed only its own row has the child's mover row as
                // its opponent row: its rank is that row's block start, once a child, plus
                // its own row's rank ([`LayerIndex::block_start`]).
                let m = self.rules.pits();
                let opponent = child.mover_lanes(m);
                let mut start = None;
                for_each_parent(self.rules, self.index, child, |parent, _| {
                    counted[2] += 1;
                    let q = if parent.opponent_lanes(m) == opponent {
                        *start.get_or_insert_with(|| self.index.block_start(opponent))
                            + self.index.row_rank_on(parent.mover_lanes(m), m)
                    } else {
                        self.index.rank_on(parent, m)
                    };
                    debug_assert_eq!(q, self.index.rank_on(parent, m), "{parent:?}");
                    if !self.range.contains(&q) {
                        let (b, offset) = self.plan.locate(q);
                        messages.push((b as u32, offset | if lost { LOST } else { 0 }));
                    } else if spread {
                        let r = ((q - self.range.start) / self.plan.region) as usize;
                        let list = &mut parents[r];
                        if list.capacity() == 0 {
                            list.reserve(2 * REGION_BATCH);
                        }
                        list.push((q, parent, lost));
                        if list.len() == REGION_BATCH {
                            full.push(r);
                        }
                    } else {
                        prefetch(self.work(q));
                        parents[0].push((q, parent, lost));
                    }
                });
            }
            if spread {
                for r in full.drain(..) {
                    self.inform_all(&mut parents[r], true, t, stack);
                }
            } else {
                self.inform_all(&mut parents[0], false, t, stack);
            }
            if messages.len() >= LOCAL_MESSAGES {
                self.outbox.deliver(messages);
            }
        }
    }

    /// Informs the parents waiting in the thread's regions' lists in phase `t`; whether there
    /// were any.
    fn inform_waiting(&self, local: &mut Local, t: i8) -> bool {
        let mut informed = false;
        for list in local.parents.iter_mut().filter(|list| !list.is_empty()) {
            informed = true;
            self.inform_all(list, true, t, &mut local.stack);
        }
        informed
    }

    /// Informs `parents` (emptied) in phase `t`, their work bytes prefetched together first
    /// (`prefetch_now`) or already as they were gathered.
    #[inline]
    fn inform_all(
        &self,
        parents: &mut Vec<Parent>,
        prefetch_now: bool,
        t: i8,
        stack: &mut Vec<(Board, i8)>,
    ) {
        if prefetch_now {
            for &(q, ..) in parents.iter() {
                prefetch(self.work(q));
            }
        }
        for (q, parent, child_lost) in parents.drain(..) {
            self.inform(q, || parent, child_lost, t, stack);
        }
    }

    /// Hands `stack`, positions resolved in phase `t` and not yet propagated, to whichever
    /// thread of the pass's `scope` is free first: the same work as on the stack it came from,
    /// so the values do not depend on who does it.
    fn share<'s>(&'s self, stack: Vec<(Board, i8)>, t: i8, scope: &Scope<'s>) {
        self.waiting.fetch_add(1, Relaxed);
        scope.spawn(move |scope| {
            let _at_work = AtWork::new(&self.at_work);
            self.waiting.fetch_sub(1, Relaxed);
            let mut local = Local {
                stack,
                ..Local::default()
            };
            self.done(&mut local, t, scope);
        });
    }
}
