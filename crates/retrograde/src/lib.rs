//! Parallel retrograde analysis of one layer (all positions with `n` seeds on the board).
//!
//! # Values
//! An entry is the best net score of the seeds still on the board for the player to move, in
//! `-n..=n` (seeds the mover will still take minus seeds the opponent will still take). A move's
//! value is what it gains now plus the value of the position it leads to, negated when the other
//! player moves next. Endless play is worth 0.
//!
//! # Algorithm
//! A move either stays in the layer (nothing reaches a store; the other player moves next) or
//! leaves it (a capture, a seed in the Kalah store), leading into a finished lower layer, read
//! from its memory-mapped file. Positions within a layer can repeat (Oware), so values are found
//! by retrograde analysis, in order of magnitude:
//!
//! 1. **Init** (one forward pass): for each position, `count` = its moves that stay in the layer,
//!    and `best exit` = the best value among its moves that leave the layer (or, for a finished
//!    game, its final value with `count = 0`).
//! 2. **Phases** `t = n, n-1, ..., 1`. Invariant: at the start of phase `t` every position whose
//!    value has magnitude above `t` is resolved. An unresolved position is worth
//!    - `+t` if its best exit is `t`, or a move leads to a position resolved as `-t`;
//!    - `-t` if every move leads to a position resolved positive (its `count` has dropped to 0)
//!      and its best exit is at most `-t`.
//!
//!    A scan of the positions whose best exit is `t` or `-t` (listed by phase after the first
//!    pass) finds those their exits resolve; each resolved position then informs its parents
//!    through **un-moves** (the moves undone, see [`unmove`]): a parent of a `-t` becomes `+t`,
//!    a parent of a `+t` has its counter decremented, and becomes `-t` when the counter reaches
//!    0 and its exits allow. Every position propagates at most once, so the work is
//!    proportional to the layer's moves, not to the number of values times sweeps.
//! 3. What is still unresolved can force neither side above 0: it is worth 0 (endless play).
//!
//! Kalah layers have no cycles (a move that stays in a layer sows into the mover's own following
//! pits, so `sum of pit number x seeds` grows): they are solved in order of that potential
//! instead, each position the best of its moves, in passes whose reads stream ([`acyclic`]).
//!
//! The value assigned in phase `t` does not depend on the order in which threads find it, so the
//! files are byte-identical for any thread count.
//!
//! # Parallelism
//! The index range is cut into work pieces of [`PIECE`] positions that rayon's threads claim.
//! Work bytes (counters, flags, and a resolved position's value) are atomics, changed by
//! compare-and-swap; the values are written from them once, in order.
//!
//! # Memory
//! A build may be given a budget for its own memory ([`BuildOptions::memory`]): a layer whose
//! work does not fit is solved in blocks of its index range, parents in other blocks informed by
//! messages kept in scratch files ([`blocks`]), to the same bytes; lower layers larger than a
//! tile (a quarter of the budget at most, [`MemoryPlan::tile`]) are read by the first pass in
//! tiles, each once a block and in order ([`sweep`]). What each part takes of the budget:
//! [`memory`]. Kalah layers that fit are solved in order of potential ([`acyclic`]); the others
//! by the phases ([`phases`]).
//!
//! Modules: [`build`] (the steps of a layer's build), [`memory`] (the budget shared out: the
//! builder, blocks, tiles, scratch files), [`report`] (what a build reports), `lower` (private:
//! the finished lower layers a move leaves into), [`phases`] (the phases over blocks), [`sweep`]
//! (the first pass in tiles of the lower layers), [`blocks`] (the plan of blocks, scratch files,
//! work bytes, messages), [`peers`] (the ranks of a distributed build),
//! `owners` (private: the lower layers shared out among the ranks, their entries looked up by
//! message), [`acyclic`] (Kalah in order of potential), [`unmove`] (parents of a position).

pub mod acyclic;
pub mod blocks;
pub mod build;
mod lower;
pub mod memory;
mod owners;
pub mod peers;
pub mod phases;
pub mod report;
pub mod resume;
pub mod sweep;
pub mod unmove;

pub use build::{
    BuildError, BuildOptions, NO_CHECKPOINTS, build_layer, build_layers, build_layers_on,
    scratch_dir, thread_pool,
};
pub use memory::{Ledger, MemoryPlan, Reads};
pub use peers::{Peers, Solo, Traffic};
pub use report::{BuildObserver, DiskTraffic, LayerLine, LayerReport, PhaseCounts, ProcessCost};
pub use sweep::SweepReport;

/// Positions a work piece.
pub const PIECE: u64 = 1 << 15;

/// Entries of a lower layer read as one piece where a range of it is loaded, several pieces at
/// once (a tile: [`sweep`]; a rank's slice: `owners`).
pub(crate) const LOAD_PIECE: u64 = 1 << 22;
