//! A lockless transposition table shared by threads.
//!
//! Each slot is four `AtomicU64`: `board_lo ^ data`, `board_hi ^ data`, `data` and an unused word
//! (32 bytes, aligned). Two slots make a bucket, one 64-byte cache line: a position may sit in
//! either slot of its bucket, so a probe reads one line, and a store of a new position replaces
//! the smaller of the two searches already there. A reader accepts
//! a slot only if both key words XOR the data give back the whole 128-bit board it asked for, so a
//! torn write (another thread writing the same slot) or another position in the slot reads as a
//! miss, never as a wrong entry (Hyatt & Mann's lockless hashing, with the full key).
//!
//! `data` packs a lower and an upper bound of the position's value (`i8` each), the best move's
//! lane (`u8`, 0xff for none) and the searched subtree's size as `log2(nodes)` (`u8`), which
//! decides replacement: a new entry replaces its own position's, else the smaller search of the
//! bucket.

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
#[must_use]
#[inline]
pub fn hash(board: Board) -> u64 {
    let x = board.0;
    let h = (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
    // A strong 64-bit mix (splitmix64's finaliser).
    let h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A table's bucket: two slots, one cache line.
#[repr(C, align(64))]
struct Bucket([Slot; 2]);

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket).
    #[must_use]
    ///
    /// # Panics
    /// If the system cannot map that much anonymous memory.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let len = ((megabytes << 20) / (2 * SLOT_BYTES)).max(1);
        let map =
            granary_tables::huge_anon(len * 2 * SLOT_BYTES).expect("memory for the hash table");
        let map = memmap2::MmapRaw::from(map);
        TranspositionTable { map, len }
    }

    fn buckets(&self) -> &[Bucket] {
        // SAFETY: the mapping is `len * 64` bytes, page-aligned (so aligned for a 64-byte
        // bucket), zeroed by the kernel, writable (`as_mut_ptr` of a raw mapping, made for
        // shared mutable access) and lives as long as `self`. A bucket is eight `AtomicU64`
        // with any bit pattern valid, and the memory is only ever accessed through these
        // atomics, so shared references from several threads are sound.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<Bucket>(), self.len) }
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let i = ((u128::from(hash) * self.len as u128) >> 64) as usize;
        &self.buckets()[i]
    }

    /// Starts loading the bucket of a board of hash `hash` ([`hash`]) into the cache: a search
    /// asks for a node's and its children's buckets at once, so that the memory latencies
    /// overlap.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        granary_tables::prefetch(self.bucket(hash));
    }

    /// The entry of `board` (of hash `hash`), if the table holds one.
    #[must_use]
    #[inline]
    pub fn get(&self, board: Board, hash: u64) -> Option<Entry> {
        self.bucket(hash)
            .0
            .iter()
            .find_map(|slot| holds(slot, board).then(|| Entry::unpack(slot[2].load(Relaxed))))
    }

    /// Stores an entry for `board` (of hash `hash`): in the slot that holds the position, else
    /// in an empty slot or the one with the smaller search.
    pub fn put(&self, board: Board, hash: u64, entry: Entry) {
        let [a, b] = &self.bucket(hash).0;
        let slot = if holds(a, board) {
            a
        } else if holds(b, board) {
            b
        } else {
            let work = |s: &Slot| {
                let d = s[2].load(Relaxed);
                if d == 0 {
                    -1
                } else {
                    i32::from(Entry::unpack(d).work)
                }
            };
            if work(a) < work(b) { a } else { b }
        };
        let [k0, k1, d, _] = slot;
        let data = entry.pack();
        let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
        k0.store(lo ^ data, Relaxed);
        k1.store(hi ^ data, Relaxed);
        d.store(data, Relaxed);
    }
}

/// Whether `slot` holds an entry of `board`: both key words XOR the data give back the board.
#[inline]
fn holds(slot: &Slot, board: Board) -> bool {
    let [k0, k1, d, _] = slot;
    let data = d.load(Relaxed);
    let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
    data != 0 && k0.load(Relaxed) ^ data == lo && k1.load(Relaxed) ^ data == hi
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
        let (ha, hb) = (hash(a), hash(b));
        assert_eq!(tt.get(a, ha), None);
        tt.put(a, ha, e);
        assert_eq!(tt.get(a, ha), Some(e));
        assert_eq!(tt.get(b, hb), None);
        let f = Entry {
            lower: -48,
            upper: 48,
            best: None,
            work: 0,
        };
        tt.put(b, hb, f);
        assert_eq!(tt.get(b, hb), Some(f));
    }

    #[test]
    fn a_bucket_keeps_two_positions_and_replaces_the_smaller_search() {
        let tt = TranspositionTable::new(0); // one bucket
        let entry = |work| Entry {
            lower: -2,
            upper: 2,
            best: Some(1),
            work,
        };
        let [a, b, c] = [Board(1), Board(2), Board(3)];
        tt.put(a, hash(a), entry(9));
        tt.put(b, hash(b), entry(3));
        assert_eq!(tt.get(a, hash(a)), Some(entry(9)));
        assert_eq!(tt.get(b, hash(b)), Some(entry(3)));
        tt.put(c, hash(c), entry(1));
        assert_eq!(tt.get(c, hash(c)), Some(entry(1)));
        assert_eq!(tt.get(a, hash(a)), Some(entry(9)));
        assert_eq!(tt.get(b, hash(b)), None);
        // A position's own slot is updated in place, whatever its work.
        tt.put(a, hash(a), entry(0));
        assert_eq!(tt.get(a, hash(a)), Some(entry(0)));
        assert_eq!(tt.get(c, hash(c)), Some(entry(1)));
    }
}
