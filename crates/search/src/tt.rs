//! A lockless transposition table shared by threads.
//!
//! Each slot is four `AtomicU64`: `board_lo ^ data`, `board_hi ^ data`, `data` and an unused word,
//! so that a slot (32 bytes, aligned) never straddles two cache lines. A reader accepts
//! a slot only if both key words XOR the data give back the whole 128-bit board it asked for, so a
//! torn write (another thread writing the same slot) or another position in the slot reads as a
//! miss, never as a wrong entry (Hyatt & Mann's lockless hashing, with the full key).
//!
//! `data` packs a lower and an upper bound of the position's value (`i8` each), the best move's
//! lane (`u8`, 0xff for none) and the searched subtree's size as `log2(nodes)` (`u8`), which
//! decides replacement: a slot keeps the larger search.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use granary_rules::Board;

/// What the table knows of a position: `lower <= value <= upper`, and a best move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub lower: i8,
    pub upper: i8,
    pub best: Option<u8>,
    pub work: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best.unwrap_or(0xff)) << 16
            | u64::from(self.work) << 24
            | 1 << 32 // never zero: an empty slot reads as a miss
    }

    fn unpack(data: u64) -> Entry {
        let best = (data >> 16) as u8;
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (best != 0xff).then_some(best),
            work: (data >> 24) as u8,
        }
    }
}

/// The table: slots in an anonymous mapping that asks the kernel for huge pages (a search
/// probes it at random, so 4 KiB pages would cost a TLB miss a probe).
#[derive(Debug)]
pub struct TranspositionTable {
    map: memmap2::MmapRaw,
    len: usize,
}

/// Bytes a slot.
pub const SLOT_BYTES: usize = 32;

type Slot = [AtomicU64; 4];

/// The table's 64-bit hash of a board.
pub(crate) fn hash(board: Board) -> u64 {
    let x = board.0;
    let h = (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
    // A strong 64-bit mix (splitmix64's finaliser).
    let h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one slot).
    #[must_use]
    ///
    /// # Panics
    /// If the system cannot map that much anonymous memory.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let len = ((megabytes << 20) / SLOT_BYTES).max(1);
        let map = memmap2::MmapMut::map_anon(len * SLOT_BYTES).expect("memory for the hash table");
        // Only a hint: without transparent huge pages the table works the same, slower.
        let _ = map.advise(memmap2::Advice::HugePage);
        let map = memmap2::MmapRaw::from(map);
        TranspositionTable { map, len }
    }

    fn slots(&self) -> &[Slot] {
        // SAFETY: the mapping is `len * 32` bytes, page-aligned (so aligned for u64), zeroed by
        // the kernel, writable (`as_mut_ptr` of a raw mapping, made for shared mutable access)
        // and lives as long as `self`. `[AtomicU64; 4]` is 32 bytes of four u64 with any bit
        // pattern valid, and the memory is only ever accessed through these atomics, so shared
        // references from several threads are sound.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<Slot>(), self.len) }
    }

    fn slot(&self, board: Board) -> &Slot {
        let i = ((u128::from(hash(board)) * self.len as u128) >> 64) as usize;
        &self.slots()[i]
    }

    /// Starts loading the slot of `board` into the cache: a search asks for a node's and its
    /// children's slots at once, so that the memory latencies overlap.
    #[inline]
    pub fn prefetch(&self, board: Board) {
        granary_tables::prefetch(self.slot(board));
    }

    /// The entry of `board`, if the table holds one.
    #[must_use]
    pub fn get(&self, board: Board) -> Option<Entry> {
        let [k0, k1, d, _] = self.slot(board);
        let data = d.load(Relaxed);
        let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
        (data != 0 && k0.load(Relaxed) ^ data == lo && k1.load(Relaxed) ^ data == hi)
            .then(|| Entry::unpack(data))
    }

    /// Stores an entry unless the slot holds a larger search of another position.
    pub fn put(&self, board: Board, entry: Entry) {
        let [k0, k1, d, _] = self.slot(board);
        let old = d.load(Relaxed);
        let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
        let same = old != 0 && k0.load(Relaxed) ^ old == lo && k1.load(Relaxed) ^ old == hi;
        if !same && old != 0 && Entry::unpack(old).work > entry.work {
            return;
        }
        let data = entry.pack();
        k0.store(lo ^ data, Relaxed);
        k1.store(hi ^ data, Relaxed);
        d.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_misses() {
        let tt = TranspositionTable::new(1);
        let a = Board(0x0102_0304_0506);
        let b = Board(0x0102_0304_0507);
        let e = Entry {
            lower: -3,
            upper: 5,
            best: Some(2),
            work: 7,
        };
        assert_eq!(tt.get(a), None);
        tt.put(a, e);
        assert_eq!(tt.get(a), Some(e));
        assert_eq!(tt.get(b), None);
        let f = Entry {
            lower: -48,
            upper: 48,
            best: None,
            work: 0,
        };
        tt.put(b, f);
        assert_eq!(tt.get(b), Some(f));
    }
}
