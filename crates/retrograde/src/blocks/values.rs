//! The values of one rank's share of a layer in a distributed build: `len` bytes (one `i8` a
//! position, from the rank's first position) in the scratch file `values`, mapped shared, its
//! space reserved before it is mapped (file-backed pages: they leave the budget free).

use super::scratch::{Scratch, ScratchError, at};

impl Scratch {
    /// A rank's values in a distributed build: `len` bytes in the scratch file `values`, its
    /// space reserved before it is mapped (file-backed pages: they leave the budget free).
    /// `kept`: the values a stopped build left there, for a build resumed from its checkpoint
    /// (the file must then have `len` bytes).
    pub(crate) fn values(&mut self, len: u64, kept: bool) -> Result<RankValues, ScratchError> {
        if len == 0 {
            return Ok(RankValues { map: None });
        }
        let (file, path) = self.open("values", !kept).map_err(at(&self.dir))?;
        if kept && file.metadata().map_err(at(&path))?.len() != len {
            return Err(at(&path)(std::io::Error::other(
                "not the values of the checkpoint (another length)",
            )));
        }
        granary_tables::writer::reserve(&file, len).map_err(at(&path))?;
        let map = memmap2::MmapOptions::new()
            .len(len as usize)
            .map_raw(&file)
            .map_err(at(&path))?;
        Ok(RankValues { map: Some(map) })
    }
}

/// The values of one rank's share of a layer (see [`Scratch::values`]).
#[derive(Debug)]
pub(crate) struct RankValues {
    map: Option<memmap2::MmapRaw>,
}

impl RankValues {
    /// The values, for threads to fill.
    pub(crate) fn entries(&self) -> &[std::sync::atomic::AtomicI8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: a shared, writable mapping of `len()` bytes of a file whose space is reserved
        // (no SIGBUS for want of disk) and that only this process writes; it lives as long as
        // `self`. `AtomicI8` has the size, alignment and bit validity of a byte.
        unsafe { std::slice::from_raw_parts(map.as_mut_ptr().cast(), map.len()) }
    }

    /// The values as bytes, once no thread writes them.
    pub(crate) fn bytes(&self) -> &[u8] {
        let Some(map) = &self.map else {
            return &[];
        };
        // SAFETY: as in `entries`; read after the threads that wrote them have finished.
        unsafe { std::slice::from_raw_parts(map.as_ptr(), map.len()) }
    }
}
