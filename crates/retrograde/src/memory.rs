//! The builder's memory budget in one place: from a budget and a layer, everything the builder
//! takes ([`MemoryPlan`]): which builder, the blocks, where the work bytes and the values live,
//! the tiles of the lower layers, the message buffer, the threads' stacks, the lists of exits,
//! and the scratch files and checkpoints on disk.
//!
//! # The budget
//! The budget `M` bounds the builder's own anonymous memory, beside a small constant
//! ([`floor`]). Pages of mapped files (the work file of several blocks, values in a scratch
//! file, the lower layers' files) are the kernel's to write back and drop: they are not in it.
//! Each share is a fraction of `M` ([`Share`]), rounded down:
//!
//! ```text
//!   share        of M   held                      by
//!   work bytes   3/4    the whole layer           one block in anonymous memory (WORK;
//!                                                 several: a mapped scratch file)
//!   values       1/4    the whole layer           in anonymous memory when they fit it
//!                                                 (VALUES), or what one block's work bytes,
//!                                                 the stacks and the least tile leave
//!   tile         1/4    the first pass            the lower layers' tiles (TILE), or what the
//!                                                 values beside one block leave (at least
//!                                                 MIN_TILE)
//!   exits        rest   the phases                the lists of exits by phase: the tile's share
//!                                                 less what the phases add (messages, stacks)
//!                                                 and what the lower layers keep in memory
//!   messages     1/8    the phases, several       the buffer of messages between blocks
//!                       blocks or ranks           (MESSAGES)
//!   stacks       1/16   the phases                the threads' stacks of resolved positions
//!                                                 (STACKS; at most FREE_STACK a thread)
//! ```
//!
//! The build holds two of these sets at once ([`Ledger`]): in the first pass the work bytes,
//! the values and the tile; in the phases the work bytes, the values, the lists of exits, the
//! messages and the stacks. For one process both sums stay within `M` plus [`floor`] for every
//! budget and layer, within `M` from 1 MiB on (tested below). A distributed build may go
//! beyond: a rank that holds a single block gets the message buffer beside its work bytes,
//! values and tile, and a rank's slices of the lower layers ([`OWNERS`]) leave no room for
//! values beside them; [`Ledger::excess`] says by how much, at most those messages and values.
//!
//! Beyond the budget: growing buffers may hold up to twice their share of messages and stacks
//! for a moment (a vector doubles, a stack hands a share to another thread); a Kalah layer
//! solved in order of potential copies its compressed lower layers whole into memory (it reads
//! them at random); and the buffers of fixed size (`crate::blocks`).

use std::ops::Range;

use granary_index::LayerIndex;
use granary_rules::Engine;
use granary_tables::TableKind;

use crate::PIECE;
use crate::acyclic::acyclic_bytes;
use crate::blocks::{BlockPlan, LOCAL_MESSAGES, MAX_BLOCK, region};
use crate::owners::Owners;
use crate::resume::Checkpoints;

/// A share of a budget: `budget / den * num` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    pub num: u64,
    pub den: u64,
}

impl Share {
    /// The bytes of this share of `budget`.
    #[must_use]
    pub const fn of(self, budget: u64) -> u64 {
        budget / self.den * self.num
    }
}

/// The work bytes of the block in use (one byte a position): three quarters. A layer whose work
/// bytes fit it is built in one block, in anonymous memory.
pub const WORK: Share = Share { num: 3, den: 4 };
/// The values of a rank's share that live in anonymous memory whatever else it holds: a quarter.
pub const VALUES: Share = Share { num: 1, den: 4 };
/// A tile of the lower layers, read by the first pass ([`crate::sweep`]): a quarter.
pub const TILE: Share = Share { num: 1, den: 4 };
/// The least tile when the values live beside one block's work bytes: a thirty-second (a tile
/// must still hold a useful run of rows).
pub const MIN_TILE: Share = Share { num: 1, den: 32 };
/// The buffer of messages between blocks ([`crate::blocks`]), four bytes a message: an eighth.
pub const MESSAGES: Share = Share { num: 1, den: 8 };
/// The threads' stacks of resolved positions: a sixteenth.
pub const STACKS: Share = Share { num: 1, den: 16 };
/// A rank's slices of the lower layers and its share of the layer's work bytes, for the ranks of
/// a distributed build to look exits up from their owners ([`crate::owners`]): three quarters.
pub const OWNERS: Share = Share { num: 3, den: 4 };

/// Bytes a resolved position takes on a thread's stack.
const STACK_ENTRY: u64 = 32;
/// The stack of a thread without a budget, and the most it holds under one (`2^20` positions,
/// 32 MiB).
const FREE_STACK: u64 = 1 << 20;
/// The least stack of a thread, in positions.
const MIN_STACK: u64 = 64;

/// The constant beside the budget of a build on `threads` threads: what the shares take at
/// least, however small the budget (a work piece of work bytes, [`LOCAL_MESSAGES`] messages,
/// a stack of 64 positions a thread).
#[must_use]
pub fn floor(threads: usize) -> u64 {
    PIECE + 4 * LOCAL_MESSAGES as u64 + threads.max(1) as u64 * MIN_STACK * STACK_ENTRY
}

/// How the first pass of a layer built by the phases reads the lower layers its moves leave
/// into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// At random, in rank order of the layer built (no budget, or lower layers that fit a
    /// tile: they are then small beside the budget).
    Random,
    /// In tiles of at most that many entries ([`crate::sweep`]).
    Tiles(u64),
    /// Each rank of a distributed build holds a slice of every lower layer and asks the others
    /// for the rest ([`crate::owners`]).
    Owners,
}

/// Where a rank's work bytes live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// None: a layer solved in order of potential, whose working order ([`acyclic_bytes`], in
    /// anonymous memory) is its own.
    Acyclic(u64),
    /// One block, in anonymous memory: that many bytes, the rank's positions (a rank's short
    /// block leaves the rest of its allocation untouched, no memory).
    Memory(u64),
    /// Several blocks, in a mapped scratch file of that many bytes.
    Scratch(u64),
}

/// Everything a layer's build takes from its budget: see the module documentation. The same on
/// every rank of a distributed build, given the same budget (each rank's figures by rank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// The budget of each rank, in bytes; `None`: no limit.
    pub budget: Option<u64>,
    /// Worker threads of each rank.
    pub threads: usize,
    /// The anonymous memory of a layer solved in order of potential ([`acyclic_bytes`]); `None`:
    /// the layer is solved by the phases ([`crate::phases`]).
    pub acyclic: Option<u64>,
    /// The layer's blocks, their message buffer and their threads' stacks.
    pub blocks: BlockPlan,
}

impl MemoryPlan {
    /// The plan of layer `index` of `kind` built by `ranks` processes of `threads` threads,
    /// each within `budget` bytes. A Kalah layer that one process builds is solved in order of
    /// potential where its working memory and its values fit the budget; every other layer by
    /// the phases.
    #[must_use]
    pub fn new(
        kind: TableKind,
        index: &LayerIndex,
        budget: Option<u64>,
        threads: usize,
        ranks: usize,
    ) -> MemoryPlan {
        let size = index.size();
        let acyclic = (ranks <= 1 && matches!(kind.engine(), Engine::Kalah(_)))
            .then(|| acyclic_bytes(index))
            .filter(|&bytes| budget.is_none_or(|m| acyclic_fits(bytes, size, m)));
        MemoryPlan {
            budget,
            threads: threads.max(1),
            acyclic,
            blocks: blocks(size, budget, threads, ranks),
        }
    }

    /// The positions of rank `rank`'s share.
    #[must_use]
    pub fn span(&self, rank: usize) -> Range<u64> {
        self.blocks.span(self.blocks.owned(rank))
    }

    /// Positions of rank `rank`'s share.
    fn len(&self, rank: usize) -> u64 {
        let span = self.span(rank);
        span.end - span.start
    }

    /// The positions of the one block a rank of the phases holds in anonymous memory; `None`
    /// for several blocks, or the order of potential.
    fn one_block(&self, rank: usize) -> Option<u64> {
        let b = &self.blocks;
        (self.acyclic.is_none() && b.owned(rank).len() <= 1).then_some(b.block.min(b.size))
    }

    /// Where rank `rank`'s work bytes live.
    #[must_use]
    pub fn work(&self, rank: usize) -> Work {
        match (self.acyclic, self.one_block(rank)) {
            (Some(bytes), _) => Work::Acyclic(bytes),
            (None, Some(_)) => Work::Memory(self.len(rank)),
            (None, None) => Work::Scratch(self.len(rank)),
        }
    }

    /// Whether rank `rank`'s values live in anonymous memory, rather than in a scratch file:
    /// where there is no budget, where they fit [`VALUES`], or, beside one block's work bytes
    /// (in anonymous memory too), where they fit what the budget leaves beside the work bytes,
    /// the stacks and the least tile. In a scratch file, every tile of the first pass reads and
    /// writes them all again wherever the page cache cannot hold them; in memory, a smaller tile
    /// costs little more (each lower layer is still read once).
    #[must_use]
    pub fn values_in_memory(&self, rank: usize) -> bool {
        self.budget
            .is_none_or(|m| values_fit(self.len(rank), self.one_block(rank), m))
    }

    /// The bytes a tile of the lower layers may take, the least over the ranks (so the same on
    /// every rank, whose shares differ by a block at most): [`TILE`], or what the budget leaves
    /// beside the work bytes, the values and the stacks where the values live beside one block.
    /// `None` without a budget.
    #[must_use]
    pub fn tile(&self) -> Option<u64> {
        let m = self.budget?;
        (0..self.blocks.ranks)
            .map(|r| tile_bytes(self.len(r), self.one_block(r), m))
            .min()
    }

    /// Whether every rank's slices of lower layers of `lower` positions and its share of the
    /// layer's work bytes fit [`OWNERS`] of the budget.
    fn owners_fit(&self, lower: &[u64]) -> bool {
        let ranks = self.blocks.ranks;
        self.budget.is_none_or(|m| {
            Owners::share(lower, ranks) + self.blocks.size.div_ceil(ranks as u64) <= OWNERS.of(m)
        })
    }

    /// How the first pass reads lower layers of `lower` positions: at random for a layer solved
    /// in order of potential; by owners when the ranks are several and their slices fit
    /// ([`OWNERS`]); else in tiles ([`MemoryPlan::tile`]) when the lower layers exceed one;
    /// else at random.
    #[must_use]
    pub fn reads(&self, lower: &[u64]) -> Reads {
        if self.acyclic.is_some() {
            return Reads::Random;
        }
        if self.blocks.ranks > 1 && self.owners_fit(lower) {
            return Reads::Owners;
        }
        match self.tile() {
            Some(tile) if lower.iter().sum::<u64>() > tile.max(1) => Reads::Tiles(tile.max(1)),
            _ => Reads::Random,
        }
    }

    /// The bytes of the message buffer and of the threads' stacks at their bounds.
    fn messages_and_stacks(&self) -> (u64, u64) {
        let b = &self.blocks;
        let messages = (b.messages as u64).saturating_mul(4);
        let stacks = (b.stack as u64 * STACK_ENTRY).saturating_mul(self.threads as u64);
        (messages, stacks)
    }

    /// The memory the lists of exits by phase may take on rank `rank` where the lower layers
    /// keep `kept` bytes in memory through the phases (copies read at random, the values that
    /// filled layers hold, a rank's slices): the tile's share, which the first pass no longer
    /// needs, less what the phases add beside the work bytes and values (messages, stacks), less
    /// `kept`. `None` without a budget.
    #[must_use]
    pub fn exit_memory(&self, rank: usize, kept: u64) -> Option<u64> {
        let m = self.budget?;
        let (messages, stacks) = self.messages_and_stacks();
        let held = self
            .anonymous_work(rank)
            .saturating_add(self.anonymous_values(rank))
            .saturating_add(messages)
            .saturating_add(stacks);
        let room = self.tile()?.min(m.saturating_sub(held));
        Some(room.saturating_sub(kept))
    }

    /// Anonymous bytes of rank `rank`'s work bytes.
    fn anonymous_work(&self, rank: usize) -> u64 {
        match self.work(rank) {
            Work::Acyclic(bytes) | Work::Memory(bytes) => bytes,
            Work::Scratch(_) => 0,
        }
    }

    /// Anonymous bytes of rank `rank`'s values.
    fn anonymous_values(&self, rank: usize) -> u64 {
        if self.values_in_memory(rank) {
            self.len(rank)
        } else {
            0
        }
    }

    /// What rank `rank` holds in anonymous memory, share by share, where its first pass reads
    /// the lower layers `reads` and they keep `kept` bytes in memory (copies read at random, the
    /// values that filled layers hold, a rank's slices; none in tiles); `None` without a budget.
    #[must_use]
    pub fn ledger(&self, rank: usize, reads: Reads, kept: u64) -> Option<Ledger> {
        let budget = self.budget?;
        let work = self.anonymous_work(rank);
        let values = self.anonymous_values(rank);
        let lower = match reads {
            Reads::Tiles(tile) => tile,
            Reads::Random | Reads::Owners => kept,
        };
        let (exits, (messages, stacks)) = match self.acyclic {
            Some(_) => (0, (0, 0)),
            None => (
                self.exit_memory(rank, kept).unwrap_or(0),
                self.messages_and_stacks(),
            ),
        };
        Some(Ledger {
            budget,
            work,
            values,
            lower,
            kept,
            exits,
            messages,
            stacks,
        })
    }

    /// Bytes of rank `rank`'s scratch files on disk, at most: the work bytes of several blocks
    /// (`work`), the values where they do not live in memory (`values`), and, where the layer is
    /// solved by the phases and `checkpoints` is true, a checkpoint twice (written beside the
    /// last before it replaces it, [`crate::resume`]). Messages spilled between blocks and the
    /// lists of exits that do not fit [`MemoryPlan::exit_memory`] go to scratch files too; they
    /// are not counted (a full disk then stops the build with an error naming the file).
    #[must_use]
    pub fn rank_scratch_bytes(&self, rank: usize, checkpoints: bool) -> u64 {
        let len = self.len(rank);
        let work = match self.work(rank) {
            Work::Scratch(bytes) => bytes,
            Work::Acyclic(_) | Work::Memory(_) => 0,
        };
        let values = if self.values_in_memory(rank) { 0 } else { len };
        let resume = if checkpoints && self.acyclic.is_none() {
            2 * Checkpoints::bytes(len)
        } else {
            0
        };
        work + values + resume
    }

    /// Bytes of every rank's scratch files on disk ([`MemoryPlan::rank_scratch_bytes`]): they
    /// share the table directory's filesystem.
    #[must_use]
    pub fn scratch_bytes(&self, checkpoints: bool) -> u64 {
        (0..self.blocks.ranks)
            .map(|r| self.rank_scratch_bytes(r, checkpoints))
            .fold(0, u64::saturating_add)
    }

    /// Bytes of scratch files and checkpoints on disk that building the layers of `seeds` seeds
    /// of `kind` needs beside the tables, by `ranks` processes each within `budget` bytes: the
    /// most that one of them needs ([`MemoryPlan::scratch_bytes`]; a layer's scratch directory
    /// is removed once it is built). Layers beyond the index's reach count nothing (a build
    /// refuses them first).
    #[must_use]
    pub fn most_scratch_bytes(
        kind: TableKind,
        seeds: impl IntoIterator<Item = u32>,
        budget: u64,
        checkpoints: bool,
        ranks: usize,
    ) -> u64 {
        seeds
            .into_iter()
            .filter_map(|n| LayerIndex::new(kind.pits, n, kind.reduced()).ok())
            // Threads change no scratch file: one will do.
            .map(|index| {
                MemoryPlan::new(kind, &index, Some(budget), 1, ranks).scratch_bytes(checkpoints)
            })
            .max()
            .unwrap_or(0)
    }
}

/// What a rank holds in anonymous memory at its two peaks, share by share, at their bounds
/// ([`MemoryPlan::ledger`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ledger {
    /// The budget.
    pub budget: u64,
    /// The work bytes of one block; a layer solved in order of potential: its working order.
    pub work: u64,
    /// The values, where they live in memory.
    pub values: u64,
    /// The lower layers in the first pass: a tile, or what they keep in memory.
    pub lower: u64,
    /// What the lower layers keep in memory through the phases (copies read at random, the values
    /// that filled layers hold, slices).
    pub kept: u64,
    /// The lists of exits by phase, at most.
    pub exits: u64,
    /// The message buffer.
    pub messages: u64,
    /// The threads' stacks.
    pub stacks: u64,
}

impl Ledger {
    /// The first pass (a layer solved in order of potential: its whole build): work bytes,
    /// values and the lower layers.
    #[must_use]
    pub fn first_pass(&self) -> u64 {
        self.work + self.values + self.lower
    }

    /// The phases: work bytes, values, what the lower layers keep, the lists of exits, messages
    /// and stacks.
    #[must_use]
    pub fn phases(&self) -> u64 {
        self.work + self.values + self.kept + self.exits + self.messages + self.stacks
    }

    /// Bytes beyond the budget at the larger of the two peaks; 0 where both fit it.
    #[must_use]
    pub fn excess(&self) -> u64 {
        self.first_pass()
            .max(self.phases())
            .saturating_sub(self.budget)
    }
}

/// Whether a layer of `size` positions is solved in order of potential within `memory` bytes:
/// its working memory (`working`, [`acyclic_bytes`]) and its values, these in anonymous memory
/// when they fit [`VALUES`].
fn acyclic_fits(working: u64, size: u64, memory: u64) -> bool {
    let values = if values_fit(size, None, memory) {
        size
    } else {
        0
    };
    working.saturating_add(values) <= memory
}

/// Whether `len` values fit in anonymous memory within `memory` bytes, beside `work` positions
/// of one block's work bytes if some ([`MemoryPlan::values_in_memory`]).
fn values_fit(len: u64, work: Option<u64>, memory: u64) -> bool {
    len <= VALUES.of(memory)
        || work.is_some_and(|work| {
            len.saturating_add(work)
                .saturating_add(STACKS.of(memory))
                .saturating_add(MIN_TILE.of(memory))
                <= memory
        })
}

/// The tile of a rank of `len` values and `work` positions of one block's work bytes if some,
/// within `memory` bytes ([`MemoryPlan::tile`]).
fn tile_bytes(len: u64, work: Option<u64>, memory: u64) -> u64 {
    let quarter = TILE.of(memory);
    match work {
        Some(work) if len > VALUES.of(memory) && values_fit(len, Some(work), memory) => {
            quarter.min(memory - len - work - STACKS.of(memory))
        }
        _ => quarter,
    }
}

/// The blocks of a layer of `size` positions within `budget` bytes (`None`: no limit, one
/// block) on `threads` threads, shared among `ranks` processes: blocks of [`WORK`] of the
/// budget (a multiple of [`PIECE`], at most [`MAX_BLOCK`]), no larger than a rank's share of
/// the layer, so that every rank has some (unless the layer has fewer work pieces than ranks);
/// a message buffer of [`MESSAGES`] where there are several (without a budget, between ranks:
/// unbounded), and stacks of [`STACKS`] among the threads.
fn blocks(size: u64, budget: Option<u64>, threads: usize, ranks: usize) -> BlockPlan {
    let ranks = ranks.max(1);
    let messages = |budget: u64| ((MESSAGES.of(budget) / 4) as usize).max(LOCAL_MESSAGES);
    let mut plan = match budget {
        None => BlockPlan {
            size,
            block: size.max(1),
            messages: 0,
            stack: FREE_STACK as usize,
            ranks,
            region: region(size),
        },
        Some(budget) => {
            let stack = (STACKS.of(budget) / threads.max(1) as u64 / STACK_ENTRY)
                .clamp(MIN_STACK, FREE_STACK) as usize;
            let work = WORK.of(budget);
            let (block, messages) = if size <= work {
                (size.max(1), 0)
            } else {
                let block = (work / PIECE * PIECE).clamp(PIECE, MAX_BLOCK);
                (block, messages(budget))
            };
            BlockPlan {
                size,
                block,
                messages,
                stack,
                ranks,
                region: region(block),
            }
        }
    };
    if ranks > 1 {
        let share = size.div_ceil(ranks as u64).div_ceil(PIECE) * PIECE;
        if share < plan.block {
            plan.block = share.clamp(PIECE, MAX_BLOCK);
            plan.region = region(plan.block);
            // Messages to other ranks' blocks: within the budget's share, or kept in memory.
            plan.messages = budget.map_or(usize::MAX / 4, messages);
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::{REGION, TLB_REACH};
    use granary_rules::{Capture, Game, OwareRules, Sweep};

    fn awari() -> TableKind {
        TableKind {
            game: Game::Oware {
                rules: OwareRules::Awari,
            },
            pits: 6,
        }
    }

    fn kalah(pits: usize) -> TableKind {
        TableKind {
            game: Game::Kalah {
                capture: Capture::Standard,
                sweep: Sweep::Owner,
            },
            pits,
        }
    }

    /// Budgets from 16 KiB to 2 TiB: powers of two, and odd numbers between them.
    fn budgets() -> impl Iterator<Item = u64> {
        (14..=41).flat_map(|p| [1u64 << p, (1u64 << p) / 7 * 9 + 13, (1u64 << p) / 3 * 5 + 1])
    }

    /// Every layer of `kind` up to `max` seeds with its lower layers' positions.
    fn layers(kind: TableKind, max: u32) -> Vec<(LayerIndex, Vec<u64>)> {
        let indexes: Vec<LayerIndex> = (0..=max)
            .map(|n| LayerIndex::new(kind.pits, n, kind.reduced()).unwrap())
            .collect();
        let sizes: Vec<u64> = indexes.iter().map(LayerIndex::size).collect();
        indexes
            .into_iter()
            .enumerate()
            .map(|(n, index)| (index, sizes[..n].to_vec()))
            .collect()
    }

    /// What the lower layers keep in memory through the phases at the most: every copy read at
    /// random (every lower layer compressed), a rank's slices; a layer solved in order of
    /// potential reads them as they are (its copies of compressed ones are beyond the budget:
    /// see the module documentation).
    fn kept(plan: &MemoryPlan, reads: Reads, lower: &[u64]) -> u64 {
        match reads {
            Reads::Random if plan.acyclic.is_some() => 0,
            Reads::Random => lower.iter().sum(),
            Reads::Tiles(_) => 0,
            Reads::Owners => Owners::share(lower, plan.blocks.ranks),
        }
    }

    #[test]
    fn one_process_holds_its_budget_at_both_peaks_for_every_budget_and_layer() {
        let mut cases = 0;
        let mut seen = [false; 5];
        for (kind, max) in [(awari(), 48), (kalah(6), 40), (kalah(2), 64)] {
            for (index, lower) in layers(kind, max) {
                for m in budgets() {
                    for threads in [1, 2, 16] {
                        let plan = MemoryPlan::new(kind, &index, Some(m), threads, 1);
                        let reads = plan.reads(&lower);
                        let ledger = plan.ledger(0, reads, kept(&plan, reads, &lower)).unwrap();
                        let excess = ledger.excess();
                        assert!(
                            excess <= floor(threads),
                            "{kind:?} layer {}, {m} bytes, {threads} threads: {ledger:?}",
                            index.seeds()
                        );
                        if m >= 1 << 20 {
                            assert_eq!(
                                excess,
                                0,
                                "{kind:?} layer {}, {m} bytes, {threads} threads: {ledger:?}",
                                index.seeds()
                            );
                        }
                        // The cases the budget is shared out in, each met.
                        let work = plan.work(0);
                        let values = plan.values_in_memory(0);
                        seen[0] |= plan.acyclic.is_some();
                        seen[1] |= matches!(work, Work::Memory(_))
                            && values
                            && ledger.values > VALUES.of(m);
                        seen[2] |= matches!(work, Work::Memory(_)) && !values;
                        seen[3] |=
                            matches!(work, Work::Scratch(_)) && matches!(reads, Reads::Tiles(_));
                        seen[4] |=
                            matches!(work, Work::Memory(_)) && matches!(reads, Reads::Random);
                        cases += 1;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
        assert!(cases > 10_000, "{cases}");
    }

    /// Ranks holding one block each leave no room for the messages they send, and slices of the
    /// lower layers none for values beside them: a rank's excess is at most those (and the
    /// shares' floors).
    #[test]
    fn ranks_exceed_their_budget_by_their_messages_and_values_beside_slices_at_most() {
        for (kind, max) in [(awari(), 40), (kalah(6), 34)] {
            for (index, lower) in layers(kind, max) {
                for m in budgets() {
                    for ranks in [2, 3, 8] {
                        let plan = MemoryPlan::new(kind, &index, Some(m), 2, ranks);
                        let reads = plan.reads(&lower);
                        let kept = kept(&plan, reads, &lower);
                        for rank in 0..ranks {
                            let ledger = plan.ledger(rank, reads, kept).unwrap();
                            let beside = match reads {
                                Reads::Owners => ledger.values,
                                Reads::Random | Reads::Tiles(_) => 0,
                            };
                            assert!(
                                ledger.excess() <= ledger.messages + beside + floor(2),
                                "{kind:?} layer {}, {m} bytes, rank {rank} of {ranks}: {ledger:?}",
                                index.seeds()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn plans_cut_the_range_into_pieces_of_the_budget() {
        let free = blocks(1000, None, 2, 1);
        assert_eq!(
            (free.count(), free.range(0), free.messages),
            (1, 0..1000, 0)
        );
        // One region within the TLB's reach, regions of REGION beyond it.
        assert_eq!(free.region, 1000);
        assert_eq!(blocks(TLB_REACH + 1, None, 2, 1).region, REGION);
        let fits = blocks(1000, Some(1 << 20), 2, 1);
        assert_eq!((fits.count(), fits.messages), (1, 0));
        // Blocks of three quarters of the budget, a multiple of PIECE; messages of an eighth.
        let size = 10 * PIECE + 5;
        let plan = blocks(size, Some(3 * PIECE), 2, 1);
        assert_eq!((plan.block, plan.count()), (2 * PIECE, 6));
        assert_eq!(plan.messages, LOCAL_MESSAGES);
        let plan = blocks(size, Some(1 << 24), 2, 1);
        assert_eq!((plan.block, plan.count(), plan.messages), (size, 1, 0));
        // Stacks of a sixteenth among the threads, within their bounds.
        assert_eq!(blocks(size, Some(1 << 24), 2, 1).stack, (1 << 20) / 2 / 32);
        assert_eq!(blocks(size, Some(1 << 10), 2, 1).stack, MIN_STACK as usize);
        assert_eq!(blocks(size, Some(1 << 40), 2, 1).stack, FREE_STACK as usize);
        // Ranks: blocks no larger than a rank's share, messages between them.
        let ranks = blocks(size, Some(1 << 24), 2, 3);
        assert_eq!((ranks.block, ranks.count(), ranks.ranks), (4 * PIECE, 3, 3));
        assert_eq!(ranks.messages, (1 << 24) / 8 / 4);
        assert_eq!(blocks(size, None, 2, 3).messages, usize::MAX / 4);
    }

    /// The disk: the work file of several blocks, values that do not fit, two checkpoints of a
    /// layer built by the phases; nothing for a Kalah layer in order of potential in memory.
    #[test]
    fn scratch_bytes_count_what_lives_on_disk() {
        let index = LayerIndex::new(6, 20, true).unwrap();
        let size = index.size();
        let roomy = MemoryPlan::new(awari(), &index, Some(4 * size), 2, 1);
        assert_eq!(roomy.work(0), Work::Memory(size));
        assert!(roomy.values_in_memory(0));
        assert_eq!(roomy.scratch_bytes(false), 0);
        assert_eq!(roomy.scratch_bytes(true), 2 * Checkpoints::bytes(size));
        let tight = MemoryPlan::new(awari(), &index, Some(size / 2), 2, 1);
        assert_eq!(tight.work(0), Work::Scratch(size));
        assert!(!tight.values_in_memory(0));
        assert_eq!(tight.scratch_bytes(false), 2 * size);
        // Ranks: their shares add up to the layer.
        let ranks = MemoryPlan::new(awari(), &index, Some(size / 2), 2, 3);
        assert_eq!(
            ranks.scratch_bytes(true) - ranks.scratch_bytes(false),
            (0..3)
                .map(|r| 2 * Checkpoints::bytes(ranks.span(r).end - ranks.span(r).start))
                .sum::<u64>()
        );
        let board = LayerIndex::new(6, 20, false).unwrap();
        let acyclic = MemoryPlan::new(kalah(6), &board, Some(1 << 40), 2, 1);
        assert!(acyclic.acyclic.is_some());
        assert_eq!(acyclic.scratch_bytes(true), 0);
        // Two ranks never solve in order of potential.
        let ranks = MemoryPlan::new(kalah(6), &board, Some(1 << 40), 2, 2);
        assert!(ranks.acyclic.is_none());
    }
}
