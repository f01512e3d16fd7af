//! Retrograde analysis of a layer by phases of falling magnitude (see the crate documentation),
//! over the blocks of [`crate::blocks`]: positions inform their parents through un-moves, those
//! in the block at once, those in other blocks by message.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::board::byte_sum;
use granary_rules::{Board, MoveSet, Position, Rules, RulesVisitor, exit_value};
use granary_tables::probe::terminal_value;
use granary_tables::{TableError, prefetch};
use rayon::prelude::*;

use crate::PIECE;
use crate::blocks::{
    BlockPlan, LOCAL_MESSAGES, LOST, Outbox, Scratch, ScratchError, WorkBytes, WorkError,
};
use crate::lower::{Exit, Lower};
use crate::owners::{self, Asks, Owners};
use crate::peers::{Peers, Traffic};
use crate::report::BuildObserver;
use crate::resume::Checkpoints;
use crate::sweep::{Misses, SweepReport, Tiles, groups};
use crate::unmove::for_each_parent;

// The per-position work byte:
//
//   bit   7         6         5          4       3..0
//         RESOLVED  PENDING   EXIT_LOW   PLAYED  COUNT
//
// COUNT: in-layer moves not yet known to lead to a positive position; PENDING: resolved, not yet
// propagated; EXIT_LOW: the best exit is at most `-t` (set by phase `t`'s scan, and true in every
// later phase), so that a parent whose last move is refuted needs no read of its value byte.
// PLAYED: only during a first pass in tiles: some legal move was played (the others are finished
// games).
const COUNT: u8 = 0x0f;
const PLAYED: u8 = 0x10;
const EXIT_LOW: u8 = 0x20;
const PENDING: u8 = 0x40;
const RESOLVED: u8 = 0x80;
/// The best-exit byte of a position with no move leaving the layer.
const NO_EXIT: i8 = i8::MIN;
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
}

impl From<ScratchError> for PhaseError {
    fn from(e: ScratchError) -> Self {
        PhaseError::Scratch(e)
    }
}

/// The work pieces of a range of ranks: `(first, end)`.
fn pieces(range: Range<u64>) -> impl ParallelIterator<Item = (u64, u64)> {
    let Range { start, end } = range;
    (0..(end - start).div_ceil(PIECE))
        .into_par_iter()
        .map(move |p| (start + p * PIECE, (start + (p + 1) * PIECE).min(end)))
}

/// A move of the first pass: one that stays in the layer, or one that leaves it.
enum FirstMove {
    Within,
    /// Into lower layer `seeds`, at `child`, gaining `gain`, the mover moving `again` or not
    /// (its value: [`granary_rules::exit_value`] of the child's entry).
    Exit {
        seeds: u32,
        child: Board,
        gain: i32,
        again: bool,
    },
}

/// The kernel of every first pass (at random, in tiles, by owners): lane `lane` of position
/// `pos` of layer `n`, played once if it is legal ([`Rules::play_if_legal`]).
#[inline]
fn first_move<R: Rules>(rules: &R, pos: &Position, lane: usize, n: u32) -> Option<FirstMove> {
    let child = rules.play_if_legal(pos, lane)?;
    let seeds = child.board.seeds(rules.pits());
    if seeds == n {
        return Some(FirstMove::Within); // the other player to move, in the layer
    }
    let (gain, again) = pos.move_gain(&child);
    Some(FirstMove::Exit {
        seeds,
        child: child.board,
        gain,
        again,
    })
}

/// Every move of position `pos` of layer `n` through [`first_move`]: calls `exit` for each one
/// that leaves the layer and returns how many stay in it, or `None` for a finished game (no
/// legal move).
#[inline]
fn first_moves<R: Rules>(
    rules: &R,
    pos: &Position,
    n: u32,
    mut exit: impl FnMut(u32, Board, i32, bool),
) -> Option<u8> {
    let mut legal = false;
    let mut count = 0u8;
    for lane in 0..rules.pits() {
        match first_move(rules, pos, lane, n) {
            None => continue,
            Some(FirstMove::Within) => count += 1,
            Some(FirstMove::Exit {
                seeds,
                child,
                gain,
                again,
            }) => exit(seeds, child, gain, again),
        }
        legal = true;
    }
    legal.then_some(count)
}

/// [`solve_layer`] for an [`granary_rules::Engine`]'s rules, as their own type
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
}

impl RulesVisitor for SolveLayer<'_> {
    type Output = Result<Solved, PhaseError>;

    fn visit<R: Rules>(self, rules: &R) -> Self::Output {
        solve_layer(
            rules,
            self.index,
            self.lower,
            self.values,
            self.plan,
            self.scratch,
            self.observer,
            self.peers,
            self.checkpoints,
        )
    }
}

/// Fills `values` with the values of this process's blocks of layer `index` (`values[0]` is the
/// entry of rank `base`, the first of them; one process alone owns every block and `base` is
/// 0), in the blocks of `plan`, with scratch files (if several blocks) in `scratch`, exchanging
/// messages with the other ranks of a distributed build (see [`crate::peers`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_layer<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    lower: &Lower<'_>,
    values: &[AtomicI8],
    plan: &BlockPlan,
    mut scratch: Scratch,
    observer: &dyn BuildObserver,
    peers: &dyn Peers,
    mut checkpoints: Option<(&mut Checkpoints, Option<u32>)>,
) -> Result<Solved, PhaseError> {
    let mut traffic = Traffic::default();
    let owned = plan.owned(peers.rank());
    let base = plan.span(owned.clone()).start;
    let mut work = WorkBytes::new(plan, owned.clone(), &mut scratch).map_err(|e| match e {
        WorkError::Memory(e) => PhaseError::Memory(e),
        WorkError::Scratch(e) => PhaseError::Scratch(e),
    })?;
    let outbox = Outbox::new(plan, scratch);
    let n = index.seeds() as i8;
    let resume = checkpoints.as_ref().and_then(|(_, at)| *at);
    // A build resumed from a checkpoint has its first pass behind it.
    let tiles = lower
        .tile
        .filter(|_| resume.is_none())
        .map(|entries| Tiles::new(rules, index, entries));
    let mut sweep = tiles.as_ref().map(|tiles| SweepReport {
        tiles: tiles.count(),
        ..SweepReport::default()
    });
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
            }
            Ok::<(), PhaseError>(())
        }
        None => Ok(()),
    };
    let mut buf = Vec::new();
    if let Some(owners) = lower.owners.as_ref().filter(|_| resume.is_none()) {
        let layer = Solving {
            rules,
            index,
            values,
            base,
            plan,
            outbox: &outbox,
        };
        init_by_owners(
            &layer,
            &mut work,
            owned.clone(),
            lower,
            owners,
            peers,
            observer,
            &mut traffic,
        )?;
    }
    for b in owned
        .clone()
        .filter(|_| resume.is_none() && lower.owners.is_none())
    {
        work.load(plan, b)?;
        let block = Block::new(rules, index, values, base, &work, plan, b, &outbox);
        match (&tiles, &mut sweep) {
            (Some(tiles), Some(report)) => {
                report.misses += block.init_swept(tiles, lower, &mut buf, observer)?;
                report.read += tiles.entries();
            }
            _ => block.init(lower, observer),
        }
        work.save(plan, b)?;
    }
    drop(buf);
    if resume.is_none() {
        save(&work, n)?;
    }
    let phases = scan_phases(values, n);
    for t in (1..=first_phase).rev() {
        observer.phase(t as u32);
        // A pass over every block for the positions resolved by their exits, then over the
        // blocks with messages until no block (of any rank) has any.
        let mut first = true;
        loop {
            for b in owned.clone() {
                if !first && !outbox.has(b) {
                    continue;
                }
                work.load(plan, b)?;
                let block = Block::new(rules, index, values, base, &work, plan, b, &outbox);
                if first {
                    block.scan(t, &phases);
                }
                outbox.drain(b, |messages| block.apply(messages, t))?;
                block.finish_pending(t);
                outbox.check()?;
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
        save(&work, t - 1)?;
    }
    // Unresolved: endless play, worth 0.
    for b in owned {
        work.load(plan, b)?;
        Block::new(rules, index, values, base, &work, plan, b, &outbox).zero_unresolved();
    }
    Ok(Solved { traffic, sweep })
}

/// The bit of phase `t` in a piece's phases ([`scan_phases`]); phases past 63 share bit 63.
#[inline]
fn phase_bit(t: i8) -> u64 {
    1 << i32::from(t).unsigned_abs().min(63)
}

/// The phases whose scan has something to do in each work piece of `values` (this process's
/// values, best exits until resolved; pieces of [`PIECE`] positions from its first): the
/// phase `|e|` of each position whose best exit `e` is not 0, phase `n` for one with no exit.
/// A scan acts on a position only in that phase (it resolves `+t` at `e = t`, and marks
/// `EXIT_LOW`, resolving `-t` if no move is left to refute, at `e = -t`), so a phase's scan
/// skips the pieces without its bit. Resolved positions may set bits too: a scan skips them.
fn scan_phases(values: &[AtomicI8], n: i8) -> Vec<u64> {
    values
        .par_chunks(PIECE as usize)
        .map(|piece| {
            piece.iter().fold(0, |bits, e| match e.load(Relaxed) {
                0 => bits,
                NO_EXIT => bits | phase_bit(n),
                e => bits | phase_bit(e),
            })
        })
        .collect()
}

/// The layer being solved, as its blocks share it.
struct Solving<'a, R> {
    rules: &'a R,
    index: &'a LayerIndex,
    values: &'a [AtomicI8],
    base: u64,
    plan: &'a BlockPlan,
    outbox: &'a Outbox,
}

/// The first pass of a distributed build whose lower layers are held by their owners
/// ([`crate::owners`]): this rank's blocks in chunks, a chunk a round, for as many rounds as the
/// rank with the most chunks needs (a collective call).
#[allow(clippy::too_many_arguments)]
fn init_by_owners<R: Rules>(
    layer: &Solving<'_, R>,
    work: &mut WorkBytes,
    owned: Range<usize>,
    lower: &Lower<'_>,
    owners: &Owners,
    peers: &dyn Peers,
    observer: &dyn BuildObserver,
    traffic: &mut Traffic,
) -> Result<(), PhaseError> {
    let plan = layer.plan;
    let mut chunks = owned.flat_map(|b| owners::chunks(plan.range(b)).map(move |r| (b, r)));
    let mut loaded = None;
    loop {
        let next = chunks.next();
        let started = Instant::now();
        let more = peers.any(next.is_some());
        traffic.seconds += started.elapsed().as_secs_f64();
        if !more {
            break;
        }
        if let Some((b, _)) = next
            && loaded != Some(b)
        {
            if let Some(old) = loaded {
                work.save(plan, old)?;
            }
            work.load(plan, b)?;
            loaded = Some(b);
        }
        let block = next.as_ref().map(|(b, _)| layer.block(work, *b));
        let asks: Vec<Asks> = match (&block, &next) {
            (Some(block), Some((_, range))) => pieces(range.clone())
                .map(|(first, end)| block.ask(first, end, lower, owners))
                .collect(),
            _ => Vec::new(),
        };
        let started = Instant::now();
        let answers = owners.round(&asks, peers, traffic);
        traffic.seconds += started.elapsed().as_secs_f64();
        if let (Some(block), Some((_, range))) = (&block, next) {
            owners::settle(&asks, &answers, |i, exit| {
                let value = block.value(i);
                if exit > i32::from(value.load(Relaxed)) {
                    value.store(exit as i8, Relaxed);
                }
            });
            observer.advanced(range.end - range.start);
        }
    }
    if let Some(old) = loaded {
        work.save(plan, old)?;
    }
    Ok(())
}

impl<'a, R: Rules> Solving<'a, R> {
    fn block(&self, work: &'a WorkBytes, b: usize) -> Block<'a, R> {
        Block::new(
            self.rules,
            self.index,
            self.values,
            self.base,
            work,
            self.plan,
            b,
            self.outbox,
        )
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

/// One block of a layer being solved: its rules, index, values (best exits until resolved;
/// the whole layer's) and work bytes (the block's).
struct Block<'a, R> {
    rules: &'a R,
    index: &'a LayerIndex,
    /// The values of this process's blocks, from rank `base` on.
    values: &'a [AtomicI8],
    base: u64,
    work: &'a [AtomicU8],
    plan: &'a BlockPlan,
    range: Range<u64>,
    outbox: &'a Outbox,
    /// Some position was resolved and left unpropagated (a thread's stack was full).
    pending: AtomicBool,
}

/// What a thread carries through a pass: resolved positions to propagate, parents gathered for
/// a batch, and messages for other blocks.
#[derive(Default)]
struct Local {
    stack: Vec<(Board, i8)>,
    batch: Vec<(u64, Board, bool)>,
    messages: Vec<(u32, u32)>,
}

impl<'a, R: Rules> Block<'a, R> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &'a R,
        index: &'a LayerIndex,
        values: &'a [AtomicI8],
        base: u64,
        work: &'a WorkBytes,
        plan: &'a BlockPlan,
        b: usize,
        outbox: &'a Outbox,
    ) -> Self {
        Block {
            rules,
            index,
            values,
            base,
            work: work.entries(),
            plan,
            range: plan.range(b),
            outbox,
            pending: AtomicBool::new(false),
        }
    }

    #[inline]
    fn work(&self, rank: u64) -> &AtomicU8 {
        &self.work[(rank - self.range.start) as usize]
    }

    #[inline]
    fn value(&self, rank: u64) -> &AtomicI8 {
        &self.values[(rank - self.base) as usize]
    }

    /// The first pass: each position's count of moves within the layer (work byte) and best exit
    /// (value byte).
    fn init(&self, lower: &Lower<'_>, observer: &dyn BuildObserver) {
        let index = self.index;
        pieces(self.range.clone()).for_each(|(first, end)| {
            let mut boards = index.iter_from(first);
            let mut exits = Vec::with_capacity(BATCH * 8);
            let mut group = Vec::with_capacity(BATCH);
            let mut i = first;
            while i < end {
                // Gather a group's moves, prefetching the lower-layer entries they read...
                group.clear();
                exits.clear();
                for board in boards.by_ref().take((end - i).min(BATCH as u64) as usize) {
                    let from = exits.len();
                    let count = self.init_moves(board, lower, &mut exits);
                    group.push((count, from..exits.len()));
                }
                // ...then read them.
                for (count, range) in group.drain(..) {
                    let best = exits[range]
                        .iter()
                        .map(|e| e.value(lower))
                        .max()
                        .unwrap_or(i32::from(NO_EXIT));
                    self.work(i).store(count, Relaxed);
                    self.value(i).store(best as i8, Relaxed);
                    i += 1;
                }
            }
            observer.advanced(end - first);
        });
    }

    /// The first pass read against the lower layers in tiles ([`crate::sweep`]): the same
    /// count and best exit for each position as [`Block::init`]. Returns the exits read outside
    /// their tile.
    fn init_swept(
        &self,
        tiles: &Tiles,
        lower: &Lower<'_>,
        buf: &mut Vec<u8>,
        observer: &dyn BuildObserver,
    ) -> Result<u64, TableError> {
        let (rules, index) = (self.rules, self.index);
        let m = rules.pits();
        let n = index.seeds();
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                self.work(i).store(0, Relaxed);
                self.value(i).store(NO_EXIT, Relaxed);
            }
        });
        let groups = groups(index, self.range.clone());
        let misses = Misses::default();
        let len = self.range.end - self.range.start;
        let count = tiles.count() as u64;
        for t in 0..tiles.count() {
            let tile = tiles.load(t, lower, buf)?;
            groups.par_iter().try_for_each(|&(opponent, start)| {
                let mut missed = 0;
                let whole = self.range.start <= start
                    && start + index.rows(n - byte_sum(opponent)) <= self.range.end;
                for (mover, lanes) in tiles.candidates(t, n - byte_sum(opponent)) {
                    let q = start + index.row_rank(mover);
                    if !whole && !self.range.contains(&q) {
                        continue;
                    }
                    let pos = Position::of_board(Board(
                        u128::from(mover) | u128::from(opponent) << (8 * m),
                    ));
                    for lane in MoveSet(lanes).iter() {
                        let Some(mv) = first_move(rules, &pos, lane, n) else {
                            continue;
                        };
                        let work = self.work(q);
                        let w = work.load(Relaxed) | PLAYED;
                        let FirstMove::Exit {
                            seeds,
                            child,
                            gain,
                            again,
                        } = mv
                        else {
                            work.store(w + 1, Relaxed);
                            continue;
                        };
                        work.store(w, Relaxed);
                        let layer = lower.layers[seeds as usize];
                        let rank = layer.index().rank_on(child, m);
                        let entry = match tile.get(seeds, rank) {
                            Some(entry) => entry,
                            None => {
                                missed += 1;
                                layer.try_value(rank)?
                            }
                        };
                        let exit = exit_value(gain, again, i32::from(entry));
                        let value = self.value(q);
                        if exit > i32::from(value.load(Relaxed)) {
                            value.store(exit as i8, Relaxed);
                        }
                    }
                }
                misses.add(missed);
                Ok::<(), TableError>(())
            })?;
            let t = t as u64;
            observer.advanced(len * (t + 1) / count - len * t / count);
        }
        // A position where no move was played is a finished game.
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                let w = self.work(i).load(Relaxed);
                if w & PLAYED == 0 {
                    let pos = Position::of_board(index.unrank(i));
                    debug_assert!(rules.legal_moves(&pos).is_empty());
                    self.value(i)
                        .store(terminal_value(rules, &pos) as i8, Relaxed);
                } else {
                    self.work(i).store(w & !PLAYED, Relaxed);
                }
            }
        });
        Ok(misses.get())
    }

    /// The first pass of positions `first..end` by the owners of the lower layers
    /// ([`crate::owners`]): each position's count of moves within the layer (work byte), and its
    /// best exit so far (value byte: a finished game's value, else none); the moves out of the
    /// layer asked of their owners.
    fn ask(&self, first: u64, end: u64, lower: &Lower<'_>, owners: &Owners) -> Asks {
        let rules = self.rules;
        let m = rules.pits();
        let n = self.index.seeds();
        let mut asks = Asks::new(owners);
        for (i, board) in (first..end).zip(self.index.iter_from(first)) {
            let pos = Position::of_board(board);
            let count = first_moves(rules, &pos, n, |seeds, child, gain, again| {
                let rank = lower.layers[seeds as usize].index().rank_on(child, m);
                asks.push(owners, seeds, rank, i, gain, again);
            });
            let best = match count {
                Some(_) => i32::from(NO_EXIT),
                None => terminal_value(rules, &pos),
            };
            self.work(i).store(count.unwrap_or(0), Relaxed);
            self.value(i).store(best as i8, Relaxed);
        }
        asks
    }

    /// Counts a position's moves that stay in the layer, and pushes onto `exits` the moves that
    /// leave it (for a finished game, its final value), prefetching the entries they will read.
    fn init_moves(&self, board: Board, lower: &Lower<'_>, exits: &mut Vec<Exit>) -> u8 {
        let rules = self.rules;
        let m = rules.pits();
        let n = self.index.seeds();
        let pos = Position::of_board(board);
        let count = first_moves(rules, &pos, n, |seeds, child, gain, again| {
            let layer = lower.layers[seeds as usize];
            let rank = layer.index().rank_on(child, m);
            layer.prefetch(rank);
            exits.push(Exit::Lower {
                seeds,
                rank,
                gain,
                again,
            });
        });
        count.unwrap_or_else(|| {
            exits.push(Exit::Final(terminal_value(rules, &pos)));
            0
        })
    }

    /// Phase `t`'s scan: the positions its exits resolve (best exit `t`, or at most `-t` with
    /// every move within the layer known to lead to a positive position: `-t`), and their
    /// propagation; marks `EXIT_LOW` where the best exit is at most `-t`.
    ///
    /// The mark and the last refutation of a position's moves may come from two threads: each is
    /// an atomic read-modify-write of the work byte, and whichever comes second sees the other
    /// and resolves the position.
    fn scan(&self, t: i8, phases: &[u64]) {
        let bit = phase_bit(t);
        let pieces = pieces(self.range.clone())
            .filter(|&(first, _)| phases[((first - self.base) / PIECE) as usize] & bit != 0);
        pieces.for_each_init(Local::default, |local, (first, end)| {
            for i in first..end {
                let w = self.work(i).load(Relaxed);
                if w & RESOLVED != 0 {
                    continue;
                }
                let exit = self.value(i).load(Relaxed);
                let value = if exit == t {
                    t
                } else if exit <= -t {
                    let w = if w & EXIT_LOW == 0 {
                        self.work(i).fetch_or(EXIT_LOW, Relaxed)
                    } else {
                        w
                    };
                    if w & COUNT != 0 {
                        continue;
                    }
                    -t
                } else {
                    continue;
                };
                self.resolve(i, value, || self.index.unrank(i), &mut local.stack);
                self.propagate(local, t);
            }
            self.outbox.deliver(&mut local.messages);
        });
    }

    /// Applies messages from other blocks (see [`crate::blocks`]) and propagates what they
    /// resolve.
    fn apply(&self, messages: &[u32], t: i8) {
        messages
            .par_chunks(MESSAGE_CHUNK)
            .for_each_init(Local::default, |local, chunk| {
                for &m in chunk {
                    let q = self.range.start + u64::from(m & !LOST);
                    prefetch(self.work(q));
                    if m & LOST != 0 {
                        prefetch(self.value(q));
                    }
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
                    if local.stack.len() >= BATCH {
                        self.propagate(local, t);
                    }
                }
                self.propagate(local, t);
                self.outbox.deliver(&mut local.messages);
            });
    }

    /// Propagates the positions left pending (resolved when a stack was full), until none is.
    fn finish_pending(&self, t: i8) {
        while self.pending.swap(false, Relaxed) {
            pieces(self.range.clone()).for_each_init(Local::default, |local, (first, end)| {
                for i in first..end {
                    if self.work(i).load(Relaxed) & PENDING != 0 {
                        self.work(i).fetch_and(!PENDING, Relaxed);
                        local
                            .stack
                            .push((self.index.unrank(i), self.value(i).load(Relaxed)));
                        self.propagate(local, t);
                    }
                }
                self.outbox.deliver(&mut local.messages);
            });
        }
    }

    /// What is still unresolved after the last phase is worth 0.
    fn zero_unresolved(&self) {
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                if self.work(i).load(Relaxed) & RESOLVED == 0 {
                    self.value(i).store(0, Relaxed);
                }
            }
        });
    }

    /// Marks position `i` resolved with `value` unless it already is, and queues its board
    /// (`board()` gives it; callers that hold it need not unrank).
    #[inline]
    fn resolve(
        &self,
        i: u64,
        value: i8,
        board: impl FnOnce() -> Board,
        stack: &mut Vec<(Board, i8)>,
    ) {
        if self.work(i).fetch_or(RESOLVED, Relaxed) & RESOLVED != 0 {
            return;
        }
        self.value(i).store(value, Relaxed);
        if stack.len() < self.plan.stack {
            stack.push((board(), value));
        } else {
            self.work(i).fetch_or(PENDING, Relaxed);
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
        let w = self.work(q);
        if w.load(Relaxed) & RESOLVED != 0 {
            return;
        }
        if child_lost {
            self.resolve(q, t, parent, stack);
        } else {
            let before = w.fetch_sub(1, Relaxed);
            if before & (COUNT | RESOLVED) == 1 && before & EXIT_LOW != 0 {
                self.resolve(q, -t, parent, stack);
            }
        }
    }

    /// Informs the parents of every queued position (resolved as `+t` or `-t`) in phase `t`:
    /// those in this block now, the others by message.
    ///
    /// Parents are random accesses into the block: they are gathered for a batch of children and
    /// prefetched before any is updated, so the cache misses overlap.
    fn propagate(&self, local: &mut Local, t: i8) {
        let Local {
            stack,
            batch,
            messages,
        } = local;
        while !stack.is_empty() {
            batch.clear();
            for _ in 0..BATCH {
                let Some((child, value)) = stack.pop() else {
                    break;
                };
                let lost = value == -t;
                for_each_parent(self.rules, self.index, child, |parent, _| {
                    let q = self.index.rank_on(parent, self.rules.pits());
                    if self.range.contains(&q) {
                        prefetch(self.work(q));
                        if lost {
                            prefetch(self.value(q));
                        }
                        batch.push((q, parent, lost));
                    } else {
                        let (b, offset) = self.plan.locate(q);
                        messages.push((b as u32, offset | if lost { LOST } else { 0 }));
                    }
                });
            }
            for &(q, parent, child_lost) in batch.iter() {
                self.inform(q, || parent, child_lost, t, stack);
            }
            if messages.len() >= LOCAL_MESSAGES {
                self.outbox.deliver(messages);
            }
        }
    }
}
