//! The engine's hash table: the solver's lockless [`TranspositionTable`] (keyed by the whole
//! board, no false hits), each entry's bounds those of a depth-limited search and its work
//! field that search's depth.
//!
//! An entry `(lower, upper, best, depth)` says that a search `depth` plies deep values the
//! position within `lower..=upper` and found `best` its best move; depth [`PROVED`] says that
//! the bounds rest on exact leaves alone and hold for the game's value, at any depth; depth
//! [`CYCLIC`] that they rest on exact leaves and repetitions (Oware), at any depth, but on the
//! line that searched them: another line's repetitions may differ. A bucket
//! replaces the entry of the shallowest search first (the table's smallest work), so proved
//! and deep entries stay longest. A proved entry is not overwritten by an unproved one of the
//! same position. Values must fit a byte: positions of more than 127 seeds are not stored.

use granary_rules::Board;

use crate::solver::NO_MOVE;
use crate::tt::{Entry, MAX_WORK, TranspositionTable};

/// The depth of a proved entry: beyond every search's, below the table's pinned mark.
pub(super) const PROVED: u8 = MAX_WORK - 1;

/// The depth of an entry whose bounds rest on exact leaves and repetitions on its line.
pub(super) const CYCLIC: u8 = PROVED - 1;

/// The deepest search whose depth an entry records.
pub(super) const MAX_DEPTH: u32 = CYCLIC as u32 - 1;

/// Seeds of the largest board whose values fit an entry's bytes.
const MAX_STORED_SEEDS: u32 = i8::MAX as u32;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stored {
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// The best move found ([`NO_MOVE`] for none).
    pub(super) best: u8,
    pub(super) depth: u8,
}

impl Stored {
    /// Whether the bounds are the game's, not a depth's.
    #[inline]
    pub(super) fn proved(&self) -> bool {
        self.depth == PROVED
    }

    /// Whether the bounds rest on repetitions, and no estimate.
    #[inline]
    pub(super) fn cyclic(&self) -> bool {
        self.depth == CYCLIC
    }

    /// Whether the bounds answer a search `depth` plies deep: proved or cyclic, or found as
    /// deep.
    #[inline]
    pub(super) fn covers(&self, depth: u32) -> bool {
        u32::from(self.depth) >= depth
    }
}

#[derive(Debug)]
pub(super) struct HashTable(TranspositionTable);

impl HashTable {
    /// A table of about `megabytes` MiB for boards of `lanes` byte lanes.
    pub(super) fn new(megabytes: usize, lanes: usize) -> std::io::Result<HashTable> {
        TranspositionTable::new(megabytes, lanes).map(HashTable)
    }

    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        self.0.prefetch(hash);
    }

    /// The entry of `board` (of hash `hash`), if any.
    #[inline]
    pub(super) fn probe(&self, board: Board, hash: u64) -> Option<Stored> {
        self.0.get(board, hash).map(|e| Stored {
            lower: i32::from(e.lower),
            upper: i32::from(e.upper),
            best: e.best.unwrap_or(NO_MOVE),
            depth: e.work,
        })
    }

    /// Stores `entry` for `board` of `seeds` seeds, unless the table holds a proved entry of
    /// the position (`old`, as probed) and this one is not.
    #[inline]
    pub(super) fn store(
        &self,
        board: Board,
        hash: u64,
        seeds: u32,
        old: Option<Stored>,
        entry: Stored,
    ) {
        if seeds > MAX_STORED_SEEDS || (old.is_some_and(|o| o.proved()) && !entry.proved()) {
            return;
        }
        self.0.put(
            board,
            hash,
            Entry {
                lower: entry.lower as i8,
                upper: entry.upper as i8,
                best: (entry.best != NO_MOVE).then_some(entry.best),
                work: entry.depth.min(PROVED),
            },
        );
    }

    pub(super) fn clear(&self) {
        self.0.clear();
    }
}
