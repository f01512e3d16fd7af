//! The values of one rank's share of a layer being built (one process alone: the whole layer),
//! one `i8` a position from the share's first position: in anonymous memory (huge pages) when
//! they fit the budget ([`crate::memory::MemoryPlan::values_in_memory`]) or there is none; else
//! in the scratch file `values`, mapped shared, its space reserved before it is mapped
//! (file-backed pages: they leave the budget free). A layer solved by the phases keeps its best
//! exits there (its values end in the work bytes); a Kalah layer solved in order of potential,
//! its values, from which its file is written once, in order.

use std::sync::atomic::AtomicI8;

use granary_tables::AnonAtomics;

use super::scratch::{Scratch, ScratchError, at};

impl Scratch {
    /// `len` values in the scratch file `values`, its space reserved before it is mapped.
    fn values(&mut self, len: u64) -> Result<RankValues, ScratchError> {
        if len == 0 {
            return Ok(RankValues { map: None });
        }
        let (file, path) = self.file("values").map_err(at(&self.dir))?;
        granary_tables::writer::reserve(&file, len).map_err(at(&path))?;
        let map = memmap2::MmapOptions::new()
            .len(len as usize)
            .map_raw(&file)
            .map_err(at(&path))?;
        Ok(RankValues { map: Some(map) })
    }
}

/// The values of a rank's share of the layer being built (see the module documentation).
#[derive(Debug)]
pub(crate) enum LayerValues {
    Memory(AnonAtomics<AtomicI8>),
    Mapped(RankValues),
}

impl LayerValues {
    /// `len` zeroed values: in memory if `in_memory` says so and the memory can be had, else in
    /// a file of `scratch`.
    pub(crate) fn new(
        len: u64,
        in_memory: bool,
        scratch: &mut Scratch,
    ) -> Result<LayerValues, ScratchError> {
        if in_memory && let Ok(cells) = AnonAtomics::new(len as usize) {
            return Ok(LayerValues::Memory(cells));
        }
        scratch.values(len).map(LayerValues::Mapped)
    }

    /// The values, for threads to fill.
    pub(crate) fn entries(&self) -> &[AtomicI8] {
        match self {
            LayerValues::Memory(cells) => cells.cells(),
            LayerValues::Mapped(values) => values.entries(),
        }
    }

    /// The values as bytes. Borrowing `self` mutably, it outlives every slice of atomics that
    /// [`LayerValues::entries`] handed out: no thread writes the values while the bytes are read.
    pub(crate) fn bytes(&mut self) -> &[u8] {
        match self {
            LayerValues::Memory(cells) => {
                // SAFETY: the mapping holds `len()` bytes (one an `AtomicI8`), initialised (zeroed
                // by the kernel, then written), and lives as long as `self`. `self` is borrowed
                // mutably for as long as the slice lives, so no `&[AtomicI8]` from `entries`
                // lives beside it and no thread writes the bytes while they are read.
                unsafe { std::slice::from_raw_parts(cells.raw().as_ptr(), cells.len()) }
            }
            LayerValues::Mapped(values) => values.bytes(),
        }
    }
}

/// Values in a scratch file (see [`Scratch::values`]).
#[derive(Debug)]
pub(crate) struct RankValues {
    map: Option<memmap2::MmapRaw>,
}

impl RankValues {
    /// The values, for threads to fill.
    fn entries(&self) -> &[AtomicI8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: a shared, writable mapping of `len()` bytes of a file whose space is reserved
        // (no SIGBUS for want of disk) and that only this process writes; it lives as long as
        // `self`. `AtomicI8` has the size, alignment and bit validity of a byte.
        unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast(), map.len()) }
    }

    /// The values as bytes; as [`LayerValues::bytes`], `self` borrowed mutably while they are
    /// read.
    fn bytes(&mut self) -> &[u8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: the mapping of `len()` bytes, as in `entries`; `self` is borrowed mutably for
        // as long as the slice lives, so no slice of atomics from `entries` lives beside it and
        // no thread writes the bytes while they are read.
        unsafe { std::slice::from_raw_parts(map.as_ptr(), map.len()) }
    }
}
