//! The work bytes of a build in blocks: one byte a position (its bits are those of
//! [`crate::phases`]). One block: in anonymous memory (huge pages). Several blocks: all of them
//! in the scratch file `work`, mapped shared, the block in use a slice of the map; the kernel
//! pages in what a pass touches and writes back what it must evict.
//!
//! # Layout
//! ```text
//!   one block   memory | work bytes of the block (range(b).len() <= len) | unused |
//!   several     file   | block first | ... | block last |   (this process's blocks, from rank `base`)
//!                        block b at byte range(b).start - base; in use: the map's slice of it
//! ```
//!
//! Why a map rather than a copy loaded before a block's passes and saved after them: a phase
//! takes as many rounds over the blocks as its chains of resolutions cross between blocks, and
//! the later rounds carry few messages. A copy moves the whole block twice a round; through the
//! map a round reads and writes the pages its messages touch. When the scratch file stays in the
//! page cache both cost the same; when it does not (a layer larger than memory), the copy sent
//! tens of gigabytes a layer through the disk (`docs/scale.md`).

use std::ops::Range;
use std::sync::atomic::AtomicU8;

use granary_tables::AnonAtomics;

use super::plan::BlockPlan;
use super::scratch::{Scratch, ScratchError, at};

/// The work bytes: the block in memory, or every block of this process in a mapped file.
#[derive(Debug)]
pub(crate) enum WorkBytes {
    /// One block, in anonymous memory.
    Memory(AnonAtomics<AtomicU8>),
    /// Several blocks in the scratch file, mapped.
    Mapped {
        map: memmap2::MmapRaw,
        /// The rank (position) of the file's first byte.
        base: u64,
        /// The ranks of the block in use.
        block: Range<u64>,
    },
}

impl WorkBytes {
    /// Memory for one block of `plan` (zeroed) or, for several blocks in `owned`, a scratch
    /// file for them (zeroed, its space reserved before it is mapped: no SIGBUS for want of
    /// disk), mapped.
    pub(crate) fn new(
        plan: &BlockPlan,
        owned: Range<usize>,
        scratch: &mut Scratch,
    ) -> Result<WorkBytes, WorkError> {
        if owned.len() <= 1 {
            let len = plan.block.min(plan.size) as usize;
            return AnonAtomics::new(len)
                .map(WorkBytes::Memory)
                .map_err(WorkError::Memory);
        }
        let span = plan.span(owned.clone());
        let (file, path) = scratch
            .file("work")
            .map_err(|e| WorkError::Scratch(at(&scratch.dir)(e)))?;
        let len = span.end - span.start;
        granary_tables::writer::reserve(&file, len)
            .map_err(|e| WorkError::Scratch(at(&path)(e)))?;
        let map = memmap2::MmapOptions::new()
            .len(len as usize)
            .map_raw(&file)
            .map_err(|e| WorkError::Scratch(at(&path)(e)))?;
        Ok(WorkBytes::Mapped {
            map,
            base: span.start,
            block: plan.range(owned.start),
        })
    }

    /// The work bytes of the block in use (its first `range(b).len()` are the block's).
    pub(crate) fn entries(&self) -> &[AtomicU8] {
        match self {
            WorkBytes::Memory(cells) => cells.cells(),
            WorkBytes::Mapped {
                map, base, block, ..
            } => {
                let (from, to) = ((block.start - base) as usize, (block.end - base) as usize);
                debug_assert!(to <= map.len());
                // SAFETY: `from..to` lies within the mapping (the block is one of the file's,
                // checked in `load`), a shared, writable mapping of a file whose space is
                // reserved and that only this process writes; it lives as long as `self`.
                // `AtomicU8` has the size, alignment and bit validity of a byte, and the bytes are
                // only accessed through atomics while the slice lives.
                unsafe { std::slice::from_raw_parts(map.as_mut_ptr().add(from).cast(), to - from) }
            }
        }
    }

    /// The work bytes of every block of this process, from rank `base` on (one block: the
    /// block's), for a checkpoint between passes ([`crate::resume`]).
    pub(crate) fn all(&self) -> &[AtomicU8] {
        match self {
            WorkBytes::Memory(cells) => cells.cells(),
            WorkBytes::Mapped { map, .. } => {
                // SAFETY: the whole mapping, as in `entries`.
                unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast(), map.len()) }
            }
        }
    }

    /// Makes block `b` the block in use (nothing to do with a single block).
    pub(crate) fn load(&mut self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        if let WorkBytes::Mapped {
            map, base, block, ..
        } = self
        {
            let range = plan.range(b);
            assert!(
                range.start >= *base && range.end - *base <= map.len() as u64,
                "block {b} is one of the file's"
            );
            *block = range;
        }
        Ok(())
    }

    /// Done with block `b` for now. Nothing to do: a mapped block's pages stay for the kernel
    /// to write back when it needs the memory.
    pub(crate) fn save(&self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        let _ = (plan, b);
        Ok(())
    }
}

/// Why the work bytes cannot be set up.
#[derive(Debug)]
pub(crate) enum WorkError {
    Memory(std::io::Error),
    Scratch(ScratchError),
}
