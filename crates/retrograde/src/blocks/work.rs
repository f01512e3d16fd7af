//! The work bytes of a build in blocks: one byte a position (its bits are those of
//! [`crate::phases`]), the loaded block in anonymous memory (huge pages), and, when this process
//! has several blocks, all of them in the scratch file `work`, each loaded before its passes and
//! saved after them.
//!
//! # Layout
//! ```text
//!   memory   | work bytes of the loaded block b (range(b).len() <= len) | unused |
//!   file     | block first | ... | block last |   (this process's blocks, from rank `base`)
//!              block b at byte range(b).start - base
//! ```

use std::fs::File;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::AtomicU8;

use granary_tables::AnonAtomics;

use super::plan::BlockPlan;
use super::scratch::{Scratch, ScratchError, at};

/// The work bytes: the loaded block in memory, every block of this process in a file when it
/// has several.
#[derive(Debug)]
pub(crate) struct WorkBytes {
    cells: AnonAtomics<AtomicU8>,
    /// The file and the rank (position) of its first byte.
    file: Option<(File, PathBuf, u64)>,
}

impl WorkBytes {
    /// Memory for one block of `plan` (zeroed) and, for several blocks in `owned`, a scratch
    /// file for them.
    pub(crate) fn new(
        plan: &BlockPlan,
        owned: Range<usize>,
        scratch: &mut Scratch,
    ) -> Result<WorkBytes, WorkError> {
        let len = plan.block.min(plan.size) as usize;
        let cells = AnonAtomics::new(len).map_err(WorkError::Memory)?;
        let file = if owned.len() > 1 {
            let span = plan.span(owned);
            let (file, path) = scratch
                .file("work")
                .map_err(|e| WorkError::Scratch(at(&scratch.dir)(e)))?;
            granary_tables::writer::reserve(&file, span.end - span.start)
                .map_err(|e| WorkError::Scratch(at(&path)(e)))?;
            Some((file, path, span.start))
        } else {
            None
        };
        Ok(WorkBytes { cells, file })
    }

    /// The loaded block's work bytes (its first `len` are the block's).
    pub(crate) fn entries(&self) -> &[AtomicU8] {
        self.cells.cells()
    }

    /// Loads block `b` from the file (nothing to do with a single block).
    pub(crate) fn load(&mut self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        let range = plan.range(b);
        let n = (range.end - range.start) as usize;
        let Some((file, path, base)) = &self.file else {
            return Ok(());
        };
        assert!(n <= self.cells.len(), "a block fits the work bytes");
        // SAFETY: the first `n <= len` bytes of the mapping (checked above), writable
        // (`as_mut_ptr` of a raw mapping); `&mut self` means no view of them from `entries` is
        // alive.
        let bytes = unsafe { std::slice::from_raw_parts_mut(self.cells.raw().as_mut_ptr(), n) };
        file.read_exact_at(bytes, range.start - base)
            .map_err(at(path))
    }

    /// Saves block `b` to the file (nothing to do with a single block).
    pub(crate) fn save(&self, plan: &BlockPlan, b: usize) -> Result<(), ScratchError> {
        let range = plan.range(b);
        let n = (range.end - range.start) as usize;
        let Some((file, path, base)) = &self.file else {
            return Ok(());
        };
        assert!(n <= self.cells.len(), "a block fits the work bytes");
        // SAFETY: the first `n <= len` bytes of the mapping (checked above), read while no
        // thread writes them
        // (the passes over the block are finished when a block is saved).
        let bytes = unsafe { std::slice::from_raw_parts(self.cells.raw().as_ptr(), n) };
        file.write_all_at(bytes, range.start - base)
            .map_err(at(path))
    }
}

/// Why the work bytes cannot be set up.
#[derive(Debug)]
pub(crate) enum WorkError {
    Memory(std::io::Error),
    Scratch(ScratchError),
}
