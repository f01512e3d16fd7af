//! A lockless transposition table shared by threads.
//!
//! The table is an array of buckets of one 64-byte cache line each, eight `AtomicU64`, so a probe
//! reads one line. A bucket holds four narrow slots or two wide ones, chosen by the width of the
//! game's boards when the table is made:
//!
//! ```text
//! narrow (boards of at most 12 byte lanes, 96 bits: 6 pits a side), 4 slots of 16 bytes:
//!   word 0: board bits 0..64 ^ word 1
//!   word 1: board bits 64..96 (bits 32..64) | data (bits 0..32)
//! wide (boards of up to 16 lanes), 2 slots of 32 bytes:
//!   word 0: board bits 0..64 ^ word 2
//!   word 1: board bits 64..128 ^ word 2
//!   word 2: data (bits 0..32)
//!   word 3: unused
//! data (32 bits): lower bound (i8, bits 0..8) | upper bound (i8, 8..16) | best move's lane
//!   (16..24, 0xff for none) | log2 of the searched subtree's nodes (24..31) | 1 (bit 31)
//! ```
//!
//! A reader accepts a slot only if its key words give back the whole board it asked for, so a
//! torn write (another thread writing the same slot) or another position in the slot reads as a
//! miss, never as a wrong entry (Hyatt & Mann's lockless hashing, with the full key). Bit 31 of
//! the data is set in every entry, so an empty (zero) slot never matches.
//!
//! A new entry replaces its own position's, else an empty slot, else the slot of the smallest
//! search in the bucket. Pinned entries ([`TranspositionTable::pin`]: a solve journal's proven
//! bounds) are never replaced by another position, and their own position's new entries only
//! tighten them. Narrow slots hold twice the positions in the same memory (measured against
//! wide ones on Kalah(6,4): docs/search.md).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use granary_rules::Board;
use granary_tables::AnonAtomics;

/// What the table knows of a position: `lower <= value <= upper`, and a best move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub lower: i8,
    pub upper: i8,
    pub best: Option<u8>,
    /// `log2` of the nodes of the search that found it (at most [`MAX_WORK`]; larger values
    /// are stored as it).
    pub work: u8,
}

/// The largest [`Entry::work`] an entry keeps.
pub const MAX_WORK: u8 = 0x7f;

/// The work of a pinned entry ([`TranspositionTable::pin`]): the bounds of a solve journal, or
/// a solved root. No search reaches it (a search of `n` nodes stores `log2 n <= 64`).
pub const PINNED: u8 = MAX_WORK;

/// Set in the data of every entry: an empty slot reads as a miss.
const PRESENT: u32 = 1 << 31;

impl Entry {
    fn pack(self) -> u32 {
        u32::from(self.lower as u8)
            | u32::from(self.upper as u8) << 8
            | u32::from(self.best.unwrap_or(0xff)) << 16
            | u32::from(self.work.min(MAX_WORK)) << 24
            | PRESENT
    }

    fn unpack(data: u32) -> Entry {
        let best = (data >> 16) as u8;
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (best != 0xff).then_some(best),
            work: (data >> 24) as u8 & MAX_WORK,
        }
    }
}

/// The table: buckets in an anonymous mapping that asks the kernel for huge pages (a search
/// probes it at random, so 4 KiB pages would cost a TLB miss a probe).
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: AnonAtomics<Bucket>,
    /// Words a slot: 2 (narrow) or 4 (wide).
    slot_words: usize,
}

/// Bytes a bucket (one cache line).
pub const BUCKET_BYTES: usize = 64;

/// Byte lanes of the widest board narrow slots hold: 96 bits.
pub const NARROW_LANES: usize = 12;

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

/// A table's bucket: one cache line of slots.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 8]);

// SAFETY: eight `AtomicU64` in a `repr(C)` struct aligned to 64 bytes (less than a page): every
// bit pattern is valid and the table reads and writes them only atomically.
unsafe impl granary_tables::AtomicCells for Bucket {}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one bucket) for boards of `lanes` byte lanes
    /// (two a pit): narrow slots up to [`NARROW_LANES`], wide ones beyond.
    ///
    /// # Errors
    /// If the system cannot map that much anonymous memory.
    pub fn new(megabytes: usize, lanes: usize) -> std::io::Result<TranspositionTable> {
        let bytes = megabytes.checked_mul(1 << 20).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                "more bytes than an address holds",
            )
        })?;
        let len = (bytes / BUCKET_BYTES).max(1);
        Ok(TranspositionTable {
            buckets: AnonAtomics::new(len)?,
            slot_words: if lanes <= NARROW_LANES { 2 } else { 4 },
        })
    }

    /// Positions the table can hold.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 8 / self.slot_words
    }

    #[inline]
    fn buckets(&self) -> &[Bucket] {
        self.buckets.cells()
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let i = ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize;
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
        // One branch on the slot width, then slots of a width the compiler knows (a loop it
        // unrolls, no bounds checks).
        let words = &self.bucket(hash).0;
        let data = if self.slot_words == 2 {
            words.as_chunks::<2>().0.iter().find_map(|s| read(s, board))
        } else {
            words.as_chunks::<4>().0.iter().find_map(|s| read(s, board))
        };
        data.map(Entry::unpack)
    }

    /// Stores an entry for `board` (of hash `hash`): in the slot that holds the position, else
    /// in an empty slot or the one with the smallest search.
    pub fn put(&self, board: Board, hash: u64, entry: Entry) {
        let words = &self.bucket(hash).0;
        if self.slot_words == 2 {
            put_in(words.as_chunks::<2>().0, board, entry);
        } else {
            put_in(words.as_chunks::<4>().0, board, entry);
        }
    }

    /// Stores `entry` for `board` as pinned ([`PINNED`]): never replaced by another position,
    /// and its bounds only ever tightened. False if the bucket is full of other pinned entries
    /// (then nothing is stored).
    pub fn pin(&self, board: Board, hash: u64, entry: Entry) -> bool {
        let entry = Entry {
            work: PINNED,
            ..entry
        };
        let words = &self.bucket(hash).0;
        if self.slot_words == 2 {
            put_in(words.as_chunks::<2>().0, board, entry)
        } else {
            put_in(words.as_chunks::<4>().0, board, entry)
        }
    }

    /// Empties every slot, pinned ones too.
    pub fn clear(&self) {
        for bucket in self.buckets() {
            for word in &bucket.0 {
                word.store(0, Relaxed);
            }
        }
    }
}

/// [`TranspositionTable::put`] into a bucket of slots of `W` words; false if every slot of the
/// bucket holds another position's pinned entry.
#[inline]
fn put_in<const W: usize>(slots: &[[AtomicU64; W]], board: Board, mut entry: Entry) -> bool {
    let mut victim: Option<(&[AtomicU64; W], i32)> = None;
    for slot in slots {
        if let Some(old) = read(slot, board) {
            let old = Entry::unpack(old);
            if old.work == PINNED {
                // A pinned entry stays pinned, and keeps what it knew: both are proven bounds.
                entry.work = PINNED;
                entry.lower = entry.lower.max(old.lower);
                entry.upper = entry.upper.min(old.upper);
            }
            victim = Some((slot, -2));
            break;
        }
        let data = slot[W / 2].load(Relaxed) as u32;
        let work = if data & PRESENT == 0 {
            -1
        } else {
            i32::from(Entry::unpack(data).work)
        };
        if work != i32::from(PINNED) && victim.is_none_or(|(_, w)| work < w) {
            victim = Some((slot, work));
        }
    }
    let Some((slot, _)) = victim else {
        return false;
    };
    let data = entry.pack();
    let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
    if let [k, d] = slot.as_slice() {
        debug_assert!(hi >> 32 == 0, "a narrow slot holds 96 bits of board");
        let d_word = hi << 32 | u64::from(data);
        k.store(lo ^ d_word, Relaxed);
        d.store(d_word, Relaxed);
    } else if let [k0, k1, d, _] = slot.as_slice() {
        let data = u64::from(data);
        k0.store(lo ^ data, Relaxed);
        k1.store(hi ^ data, Relaxed);
        d.store(data, Relaxed);
    }
    true
}

/// The data of `slot` if it holds an entry of `board`: its key words give back the board.
#[inline]
fn read(slot: &[AtomicU64], board: Board) -> Option<u32> {
    let (lo, hi) = (board.0 as u64, (board.0 >> 64) as u64);
    match slot {
        [k, d] => {
            let d = d.load(Relaxed);
            let data = d as u32;
            (data & PRESENT != 0 && d >> 32 == hi && k.load(Relaxed) ^ d == lo).then_some(data)
        }
        [k0, k1, d, _] => {
            let d = d.load(Relaxed);
            let data = d as u32;
            (data & PRESENT != 0 && k0.load(Relaxed) ^ d == lo && k1.load(Relaxed) ^ d == hi)
                .then_some(data)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NARROW: usize = NARROW_LANES;
    const WIDE: usize = 16;

    fn entry(work: u8) -> Entry {
        Entry {
            lower: -2,
            upper: 2,
            best: Some(1),
            work,
        }
    }

    #[test]
    fn round_trip_and_misses() {
        for (lanes, high) in [(NARROW, 0x0304_0506u128), (WIDE, 0x0102_0304_0506_0708)] {
            let tt = TranspositionTable::new(1, lanes).unwrap();
            // Boards that differ only in their highest bits, only in their lowest, in both.
            let a = Board(high << 64 | 0x0102_0304_0506);
            let b = Board(0x0102_0304_0506);
            let c = Board(high << 64 | 0x0102_0304_0507);
            let e = Entry {
                lower: -3,
                upper: 5,
                best: Some(2),
                work: 7,
            };
            assert_eq!(tt.get(a, hash(a)), None);
            tt.put(a, hash(a), e);
            assert_eq!(tt.get(a, hash(a)), Some(e));
            for other in [b, c] {
                assert_eq!(tt.get(other, hash(other)), None, "{lanes} lanes");
                // Even where the other board's hash leads to the same bucket.
                assert_eq!(tt.get(other, hash(a)), None, "{lanes} lanes");
            }
            let f = Entry {
                lower: -48,
                upper: 48,
                best: None,
                work: 0,
            };
            tt.put(b, hash(b), f);
            assert_eq!(tt.get(b, hash(b)), Some(f));
            assert_eq!(tt.get(a, hash(a)), Some(e));
            // Work beyond what an entry keeps is kept as the largest.
            tt.put(c, hash(c), entry(u8::MAX));
            assert_eq!(tt.get(c, hash(c)), Some(entry(MAX_WORK)));
        }
    }

    #[test]
    fn pinned_entries_stay_and_only_tighten() {
        for (lanes, slots) in [(NARROW, 4u8), (WIDE, 2)] {
            let tt = TranspositionTable::new(0, lanes).unwrap(); // one bucket
            let boards: Vec<Board> = (1..=u128::from(slots) + 2).map(Board).collect();
            for &b in &boards[..usize::from(slots)] {
                assert!(tt.pin(b, hash(b), entry(1)), "{lanes} lanes");
            }
            // A full bucket of pinned entries takes no other position, pinned or not.
            let other = boards[usize::from(slots)];
            tt.put(other, hash(other), entry(60));
            assert_eq!(tt.get(other, hash(other)), None);
            assert!(!tt.pin(other, hash(other), entry(1)));
            // A pinned position's own new entry keeps the tighter bounds and stays pinned.
            let b = boards[0];
            let wider = Entry {
                lower: -6,
                upper: 0,
                best: Some(3),
                work: 5,
            };
            tt.put(b, hash(b), wider);
            assert_eq!(
                tt.get(b, hash(b)),
                Some(Entry {
                    lower: -2,
                    upper: 0,
                    best: Some(3),
                    work: PINNED
                })
            );
        }
    }

    #[test]
    fn a_bucket_keeps_its_slots_and_replaces_the_smallest_search() {
        for (lanes, slots) in [(NARROW, 4u8), (WIDE, 2)] {
            let tt = TranspositionTable::new(0, lanes).unwrap(); // one bucket
            assert_eq!(tt.capacity(), usize::from(slots));
            let boards: Vec<Board> = (1..=u128::from(slots) + 1).map(Board).collect();
            // Fill the bucket; the smallest search is the second position's.
            for (i, &b) in boards[..usize::from(slots)].iter().enumerate() {
                tt.put(b, hash(b), entry(if i == 1 { 3 } else { 9 + i as u8 }));
            }
            for &b in &boards[..usize::from(slots)] {
                assert!(tt.get(b, hash(b)).is_some(), "{lanes} lanes");
            }
            let new = boards[usize::from(slots)];
            tt.put(new, hash(new), entry(1));
            assert_eq!(tt.get(new, hash(new)), Some(entry(1)));
            assert_eq!(tt.get(boards[1], hash(boards[1])), None, "{lanes} lanes");
            assert_eq!(tt.get(boards[0], hash(boards[0])), Some(entry(9)));
            // A position's own slot is updated in place, whatever its work.
            tt.put(boards[0], hash(boards[0]), entry(0));
            assert_eq!(tt.get(boards[0], hash(boards[0])), Some(entry(0)));
            assert_eq!(tt.get(new, hash(new)), Some(entry(1)));
        }
    }
}
