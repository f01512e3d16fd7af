//! Anonymous memory shared by threads as a slice of atomics ([`AnonAtomics`]): a layer being
//! built, a block's work bytes, a transposition table. One mapping, one argument for why the
//! shared view is sound, used by every builder and search that needs such memory.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicI8, AtomicU8, AtomicU64};

/// Types that anonymous memory may be viewed as, shared between threads: every bit pattern
/// (zero included) is a valid value, and the value is only ever read or written through atomic
/// operations, so shared references from several threads never race.
///
/// # Safety
/// An implementor must be made only of atomics (or arrays and `repr(C)` structs of them), have
/// an alignment of at most a page (4096 bytes), and accept every bit pattern.
pub unsafe trait AtomicCells: Sync {}

// SAFETY: a byte-sized atomic, alignment 1, every bit pattern valid.
unsafe impl AtomicCells for AtomicU8 {}
// SAFETY: a byte-sized atomic, alignment 1, every bit pattern valid.
unsafe impl AtomicCells for AtomicI8 {}
// SAFETY: an 8-byte atomic, alignment 8, every bit pattern valid.
unsafe impl AtomicCells for AtomicU64 {}

/// `len` values of `T`, zeroed, in anonymous memory that asks for huge pages ([`huge_anon`]).
pub struct AnonAtomics<T> {
    map: memmap2::MmapRaw,
    len: usize,
    _cells: PhantomData<T>,
}

impl<T> std::fmt::Debug for AnonAtomics<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnonAtomics")
            .field("len", &self.len)
            .field("bytes", &(self.len * size_of::<T>()))
            .finish()
    }
}

impl<T: AtomicCells> AnonAtomics<T> {
    /// `len` zeroed values (at least the memory of one).
    ///
    /// # Errors
    /// If the memory cannot be mapped.
    pub fn new(len: usize) -> std::io::Result<AnonAtomics<T>> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::OutOfMemory, "size overflows")
        })?;
        Ok(AnonAtomics {
            map: memmap2::MmapRaw::from(huge_anon(bytes)?),
            len,
            _cells: PhantomData,
        })
    }

    /// The values, shared.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[T] {
        // SAFETY: the mapping holds at least `len * size_of::<T>()` bytes, is page-aligned (so
        // aligned for `T`, whose alignment is at most a page: `AtomicCells`), zeroed by the
        // kernel, writable (`as_mut_ptr` of a raw mapping, made for shared mutable access) and
        // lives as long as `self`. `T` accepts every bit pattern and is only accessed through
        // atomic operations (`AtomicCells`), so shared references from several threads are
        // sound.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<T>(), self.len) }
    }

    /// The number of values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The mapping itself, for code that reads or writes its bytes whole (a block saved to a
    /// file) while no thread holds [`AnonAtomics::cells`].
    #[must_use]
    pub fn raw(&self) -> &memmap2::MmapRaw {
        &self.map
    }
}

/// `len` bytes (at least one) of zeroed anonymous memory with a request for transparent huge
/// pages: for memory probed at random (a table copy, a hash table, a layer being built), where
/// 4 KiB pages would cost a TLB miss a probe. The request is only a hint: without huge pages the
/// memory works the same, slower.
///
/// # Errors
/// If the memory cannot be mapped.
pub fn huge_anon(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(len.max(1))?;
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn zeroed_shared_and_written() {
        let cells = AnonAtomics::<AtomicU64>::new(1000).unwrap();
        assert_eq!(cells.len(), 1000);
        assert!(cells.cells().iter().all(|c| c.load(Relaxed) == 0));
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let cells = &cells;
                s.spawn(move || {
                    for c in cells.cells().iter().skip(t as usize).step_by(2) {
                        c.store(t + 1, Relaxed);
                    }
                });
            }
        });
        let sum: u64 = cells.cells().iter().map(|c| c.load(Relaxed)).sum();
        assert_eq!(sum, 500 + 500 * 2); // 500 cells of 1, 500 of 2
        assert!(AnonAtomics::<AtomicU8>::new(usize::MAX).is_err());
    }
}
