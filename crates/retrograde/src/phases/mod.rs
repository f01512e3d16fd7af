//! Retrograde analysis of a layer by phases of falling magnitude (see the crate documentation),
//! over the blocks of [`crate::blocks`]: positions inform their parents through un-moves, those
//! in the block at once, those in other blocks by message.
//!
//! # Modules
//! - this one: the phase loop ([`SolveLayer`]), the layer as its blocks share it (`Solving`),
//!   the exchange of messages between ranks.
//! - `block`: one block's work: the scan, messages applied, propagation to parents.
//! - `exits`: the positions each phase's scan visits, listed by the phase of their best exit.
//! - `first`: the first pass (each position's moves within the layer and its best exit), one
//!   strategy a module (`random`, `tiles`, `owners`) over one kernel for a position's moves.
//! - `work`: the work byte of a position: its layout, why `Relaxed` atomics are enough for it,
//!   and the values from it after the last phase.

use std::ops::Range;
use std::sync::atomic::AtomicI8;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::{Rules, RulesVisitor};
use granary_tables::TableError;
use rayon::prelude::*;

use crate::PIECE;
use crate::blocks::{
    BlockPlan, LOCAL_MESSAGES, Outbox, Scratch, ScratchError, WorkBytes, WorkError,
};
use crate::lower::Lower;
use crate::peers::{Peers, Traffic};
use crate::report::{BuildObserver, PhaseCounts};
use crate::resume::Checkpoints;
use crate::sweep::{SweepReport, Tiles};

mod block;
mod exits;
mod first;
mod work;

use block::Block;
use exits::Exits;
pub(crate) use work::values_of;

/// Children whose parents are gathered and prefetched together.
const BATCH: usize = 32;
/// The most messages in a frame of an exchange between ranks.
const FRAME: usize = 1 << 24;
/// Messages applied together (their entries prefetched first).
const MESSAGE_CHUNK: usize = 1 << 12;

/// Why a layer could not be solved.
#[derive(Debug)]
pub(crate) enum PhaseError {
    Memory(std::io::Error),
    Scratch(ScratchError),
    /// A lower layer read in tiles ([`crate::sweep`]) is damaged.
    Table(TableError),
    /// A checkpoint could not be written or read back ([`crate::resume`]).
    Checkpoint(std::io::Error),
}

impl From<TableError> for PhaseError {
    fn from(e: TableError) -> Self {
        PhaseError::Table(e)
    }
}

/// What solving a layer did: the traffic between ranks, and the tiles of its first pass.
#[derive(Debug, Default)]
pub(crate) struct Solved {
    pub traffic: Traffic,
    pub sweep: Option<SweepReport>,
    /// This process's counts ([`crate::PhaseCounts`]; `written` left to the caller).
    pub counts: PhaseCounts,
    /// The work bytes after the last phase, which hold the values ([`values_of`]).
    pub work: Option<WorkBytes>,
}

impl From<ScratchError> for PhaseError {
    fn from(e: ScratchError) -> Self {
        PhaseError::Scratch(e)
    }
}

/// The work pieces of a range of ranks: `(first, end)`, each a job a thread may take.
///
/// Rayon's own splitting stops after a few halvings, and a thread then works through the part
/// it holds to its end, alone once the other has finished: where the work is uneven over the
/// ranks (a phase's positions gathered in part of the layer), the other thread waits on it (for
/// 30-40 s at the ends of phases at awari layer 33). So the range is split down to single
/// pieces: a piece is tens of microseconds of work in a pass over bytes and up to milliseconds
/// in a phase's scan, a job about a microsecond to hand over.
fn pieces(range: Range<u64>) -> impl ParallelIterator<Item = (u64, u64)> {
    let Range { start, end } = range;
    (0..(end - start).div_ceil(PIECE) as usize)
        .into_par_iter()
        .with_max_len(1)
        .map(move |p| {
            let first = start + p as u64 * PIECE;
            (first, (first + PIECE).min(end))
        })
}

/// The solve of this process's blocks of a layer: fills `values` with their values
/// (`values[0]` is the entry of rank `base`, the first of them; one process alone owns every
/// block and `base` is 0), in the blocks of `plan`, with scratch files (if several blocks) in
/// `scratch`, exchanging messages with the other ranks of a distributed build (see
/// [`crate::peers`]). Run for an [`granary_rules::Engine`]'s rules as their own type
/// ([`granary_rules::Engine::visit`]: compiled for 6 pits where the board has 6).
pub(crate) struct SolveLayer<'a> {
    pub index: &'a LayerIndex,
    pub lower: &'a Lower<'a>,
    pub values: &'a [AtomicI8],
    pub plan: &'a BlockPlan,
    pub scratch: Scratch,
    pub observer: &'a dyn BuildObserver,
    pub peers: &'a dyn Peers,
    /// Checkpoints between phases, and the phase a checkpoint says to resume at (the first pass
    /// then skipped, the work bytes restored from it; [`crate::resume`]). Under several ranks,
    /// every rank has them or none.
    pub checkpoints: Option<(&'a mut Checkpoints, Option<u32>)>,
    /// The memory the lists of exits by phase may take ([`exits`]; `None`: no limit): the
    /// share of the budget the first pass's tiles take, free once it is over, less what the
    /// lower layers keep in memory.
    pub exit_memory: Option<u64>,
}

impl RulesVisitor for SolveLayer<'_> {
    type Output = Result<Solved, PhaseError>;

    fn visit<R: Rules>(self, rules: &R) -> Self::Output {
        self.solve(rules)
    }
}

impl SolveLayer<'_> {
    /// The solve, for rules `rules`.
    fn solve<R: Rules>(self, rules: &R) -> Result<Solved, PhaseError> {
        let SolveLayer {
            index,
            lower,
            values,
            plan,
            mut scratch,
            observer,
            peers,
            mut checkpoints,
            exit_memory,
        } = self;
        let mut traffic = Traffic::default();
        let owned = plan.owned(peers.rank());
        let base = plan.span(owned.clone()).start;
        let mut work = WorkBytes::new(plan, owned.clone(), &mut scratch).map_err(|e| match e {
            WorkError::Memory(e) => PhaseError::Memory(e),
            WorkError::Scratch(e) => PhaseError::Scratch(e),
        })?;
        let mut exit_files = scratch.sub("exits");
        let outbox = Outbox::new(plan, scratch);
        let layer = Solving {
            rules,
            index,
            lower,
            values,
            base,
            plan,
            outbox: &outbox,
            observer,
            peers,
        };
        let n = index.seeds() as i8;
        let resume = checkpoints.as_ref().and_then(|(_, at)| *at);
        // A build resumed from a checkpoint has its first pass behind it.
        let tiles = lower
            .tile
            .filter(|_| resume.is_none())
            .map(|entries| Tiles::new(rules, index, entries));
        let mut sweep = None;
        let first_phase = match (resume, &checkpoints) {
            (Some(next), Some((c, _))) => {
                c.restore(work.all(), values)
                    .map_err(PhaseError::Checkpoint)?;
                observer.advanced(index.size());
                (next as i8).min(n)
            }
            _ => n,
        };
        // Rank 0's clock decides for every rank (a collective step: see `crate::resume`).
        let mut save = |work: &WorkBytes, next: i8| match &mut checkpoints {
            Some((c, _)) => {
                if peers.broadcast(u64::from(c.due())) == 1 {
                    c.save(work.all(), values, next as u32)
                        .map_err(PhaseError::Checkpoint)?;
                    peers.barrier();
                    observer.checkpointed(n as u32, next as u32);
                }
                Ok::<(), PhaseError>(())
            }
            None => Ok(()),
        };
        // The first pass, one way a layer ([`first`]); a resumed build has it behind it.
        if resume.is_none() {
            match (&lower.owners, &tiles) {
                (Some(owners), _) => {
                    first::owners::pass(&layer, &mut work, owned.clone(), owners, &mut traffic)?;
                }
                (None, Some(tiles)) => {
                    sweep = Some(first::tiles::pass(&layer, &mut work, owned.clone(), tiles)?);
                }
                (None, None) => first::random::pass(&layer, &mut work, owned.clone())?,
            }
            save(&work, n)?;
        }
        // The phases' scans read the exits listed by phase; no exit at all is marked at once.
        for b in owned.clone() {
            work.load(plan, b)?;
            layer.block(&work, b).mark_no_exits();
            work.save(plan, b)?;
        }
        let mut exits = Exits::new(values, first_phase, exit_memory, &mut exit_files)?;
        let mut counts = PhaseCounts::default();
        for t in (1..=first_phase).rev() {
            observer.phase(t as u32);
            counts.phases += 1;
            let list = exits.phase(t)?;
            // A pass over every block for the positions resolved by their exits, then over the
            // blocks with messages until no block (of any rank) has any.
            let mut first = true;
            loop {
                for b in owned.clone() {
                    if !first && !outbox.has(b) {
                        continue;
                    }
                    work.load(plan, b)?;
                    let block = layer.block(&work, b);
                    if first {
                        block.scan(t, &list);
                    }
                    outbox.drain(b, |messages| block.apply(messages, t))?;
                    block.finish_pending(t);
                    outbox.check()?;
                    block.count(&mut counts);
                    work.save(plan, b)?;
                }
                first = false;
                let started = Instant::now();
                exchange(plan, &outbox, peers, &mut traffic)?;
                let more = peers.any(owned.clone().any(|b| outbox.has(b)));
                traffic.seconds += started.elapsed().as_secs_f64();
                if !more {
                    break;
                }
            }
            drop(list);
            exits.release(t);
            save(&work, t - 1)?;
        }
        Ok(Solved {
            traffic,
            sweep,
            counts,
            work: Some(work),
        })
    }
}

/// The layer being solved, as its blocks and its first pass share it.
struct Solving<'a, R> {
    rules: &'a R,
    index: &'a LayerIndex,
    lower: &'a Lower<'a>,
    /// The values of this process's blocks, from rank `base` on.
    values: &'a [AtomicI8],
    base: u64,
    plan: &'a BlockPlan,
    outbox: &'a Outbox,
    observer: &'a dyn BuildObserver,
    peers: &'a dyn Peers,
}

impl<'a, R: Rules> Solving<'a, R> {
    /// Block `b`, whose work bytes are those in use in `work`.
    fn block(&self, work: &'a WorkBytes, b: usize) -> Block<'a, R> {
        Block::new(self, work, b)
    }
}

/// Sends the messages to other ranks' blocks to their owners and files what comes in, in one
/// collective exchange. Messages travel in frames `[block, count, messages...]` of at most
/// [`FRAME`] messages.
fn exchange(
    plan: &BlockPlan,
    outbox: &Outbox,
    peers: &dyn Peers,
    traffic: &mut Traffic,
) -> Result<(), ScratchError> {
    if peers.size() == 1 {
        return Ok(());
    }
    let mut outgoing = vec![Vec::new(); peers.size()];
    let mine = plan.owned(peers.rank());
    for b in (0..plan.count()).filter(|b| !mine.contains(b)) {
        if !outbox.has(b) {
            continue;
        }
        let to = &mut outgoing[plan.owner(b)];
        outbox.drain(b, |messages| {
            for frame in messages.chunks(FRAME) {
                to.extend([b as u32, frame.len() as u32]);
                to.extend_from_slice(frame);
                traffic.messages += frame.len() as u64;
            }
        })?;
    }
    traffic.bytes += 4 * outgoing.iter().map(|v| v.len() as u64).sum::<u64>();
    traffic.exchanges += 1;
    let incoming = peers.exchange(&outgoing);
    drop(outgoing);
    let mut rest = &incoming[..];
    let mut local = Vec::with_capacity(LOCAL_MESSAGES);
    while let [b, count, tail @ ..] = rest {
        let (messages, tail) = tail.split_at(*count as usize);
        for chunk in messages.chunks(LOCAL_MESSAGES) {
            local.extend(chunk.iter().map(|&m| (*b, m)));
            outbox.deliver(&mut local);
        }
        rest = tail;
    }
    outbox.check()
}
