//! The plan of a layer's build in blocks: the cut of the layer's index range into blocks, how
//! large the message buffer and the threads' stacks of resolved positions may grow, and which
//! rank of a distributed build owns which blocks. A budget's plan is
//! [`crate::memory::MemoryPlan`]'s to make.
//!
//! # Layout
//! ```text
//!   ranks   0 ............................................................. size
//!           | block 0 | block 1 | ... | block count-1 (may be shorter) |
//!           each `block` positions: a multiple of PIECE, at most MAX_BLOCK = 2^31
//!           (a message names a parent by its 31-bit offset in its block)
//!
//!   distributed: rank r owns the contiguous blocks `owned(r)`
//!           | rank 0's blocks | rank 1's blocks | ... | rank N-1's blocks |
//! ```
//!
//! # Contract
//! A rank `q` lies in block `locate(q).0` at offset `locate(q).1`, and
//! `range(b).start + offset == q`. Without a budget, or when the layer's work bytes fit in
//! [`crate::memory::WORK`] of it, the plan has one block and no message buffer.

use std::ops::Range;

/// Messages a thread gathers before it hands them to the outbox (`outbox.rs`); the least
/// message buffer of a plan in blocks.
pub const LOCAL_MESSAGES: usize = 1 << 14;
/// The most positions a block holds: a message's offset is 31 bits.
pub(crate) const MAX_BLOCK: u64 = 1 << 31;

/// How a layer of `size` positions is cut into blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockPlan {
    pub size: u64,
    /// Positions a block (the last may hold fewer); a multiple of [`crate::PIECE`] unless it is the
    /// whole layer.
    pub block: u64,
    /// Messages buffered in memory before they are spilled to files.
    pub messages: usize,
    /// Resolved positions a thread keeps on its stack before it leaves them for a later scan.
    pub stack: usize,
    /// The ranks of a distributed build ([`crate::peers`]) among which the blocks are shared.
    pub ranks: usize,
    /// Positions of a region of a block's work bytes whose parents a thread informs together
    /// (`crate::phases`): [`REGION`] in a block beyond [`TLB_REACH`], else the whole block.
    /// Any region gives the same bytes; it decides only the order of the informs.
    pub region: u64,
}

/// The most work bytes (positions) in which a block's parents are informed as they come:
/// beyond them, the addresses of random work bytes on 2 MiB pages miss the TLB, and a thread
/// gathers parents by region ([`REGION`]) first. Awari layers 33 and 34 (6.5e9 and 8.5e9
/// positions) built in 0.79x and 0.80x the time with regions (`docs/benchmarks.md`). Below
/// 4 Gi positions they pay too in the one pair measured (layer 30, 2.7e9 positions: 0.91x);
/// where they stop paying is not swept.
pub const TLB_REACH: u64 = 1 << 32;

/// A region of a block beyond [`TLB_REACH`]: 128 MiB of work bytes, 64 huge pages. A thread
/// gathers the parents it generates by region and informs a region's together, their addresses
/// within pages the TLB holds.
pub const REGION: u64 = 1 << 27;

/// The region of a block of `block` positions ([`BlockPlan::region`]).
pub(crate) fn region(block: u64) -> u64 {
    if block > TLB_REACH {
        REGION
    } else {
        block.max(1)
    }
}

impl BlockPlan {
    /// The blocks of rank `rank`: a contiguous share of them.
    #[must_use]
    pub fn owned(&self, rank: usize) -> Range<usize> {
        let (count, ranks) = (self.count(), self.ranks);
        count * rank / ranks..count * (rank + 1) / ranks
    }

    /// The rank that owns block `b`.
    #[must_use]
    pub fn owner(&self, b: usize) -> usize {
        // The last rank whose share starts at or before `b`.
        (0..self.ranks)
            .rev()
            .find(|&r| self.owned(r).start <= b && !self.owned(r).is_empty())
            .unwrap_or(0)
    }

    /// The ranks (positions) of blocks `blocks`.
    #[must_use]
    pub fn span(&self, blocks: Range<usize>) -> Range<u64> {
        if blocks.is_empty() {
            return 0..0;
        }
        self.range(blocks.start).start..self.range(blocks.end - 1).end
    }

    /// How many blocks.
    #[must_use]
    pub fn count(&self) -> usize {
        self.size.div_ceil(self.block).max(1) as usize
    }

    /// The ranks of block `b`.
    #[must_use]
    pub fn range(&self, b: usize) -> Range<u64> {
        let start = b as u64 * self.block;
        start..(start + self.block).min(self.size)
    }

    /// The block of rank `rank` and the rank's offset in it.
    #[inline]
    #[must_use]
    pub fn locate(&self, rank: u64) -> (usize, u32) {
        ((rank / self.block) as usize, (rank % self.block) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PIECE;

    #[test]
    fn blocks_cut_the_range_and_locate_every_rank() {
        // One region within the TLB's reach, regions of REGION beyond it.
        assert_eq!(region(1000), 1000);
        assert_eq!(region(TLB_REACH), TLB_REACH);
        assert_eq!(region(TLB_REACH + 1), REGION);
        let size = 10 * PIECE + 5;
        let plan = BlockPlan {
            size,
            block: 2 * PIECE,
            messages: LOCAL_MESSAGES,
            stack: 64,
            ranks: 2,
            region: 2 * PIECE,
        };
        assert_eq!(plan.count(), 6);
        assert_eq!(plan.range(5), 10 * PIECE..size);
        assert_eq!(plan.locate(2 * PIECE + 7), (1, 7));
        assert_eq!((plan.owned(0), plan.owned(1)), (0..3, 3..6));
        assert_eq!((plan.owner(2), plan.owner(3)), (0, 1));
        assert_eq!(plan.span(3..6), 6 * PIECE..size);
        // Every rank lies in the block `locate` names, at its offset.
        for rank in [0, PIECE, 2 * PIECE - 1, size - 1] {
            let (b, off) = plan.locate(rank);
            assert_eq!(plan.range(b).start + u64::from(off), rank);
        }
    }
}
