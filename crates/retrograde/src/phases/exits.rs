//! The exits of a layer by phase: after the first pass, every position whose best exit `e` is
//! neither 0 nor none is listed under phase `|e|`, the one phase whose scan acts on it
//! ([`super::block::Block::scan`]). A phase's scan reads its own list, once, instead of the
//! value byte of every position of the layer (about 24 reads a position at awari layer 36,
//! from a scratch file the page cache cannot hold); the values are not read again until the
//! last phase writes them.
//!
//! # Layout
//! ```text
//!   phase t (1..=top): one list of u16 entries, little-endian, piece after piece
//!       | piece 0's entries | piece 1's entries | ... |      piece p: starts(t)[p]..starts(t)[p + 1]
//!       (pieces of PIECE = 2^15 positions from the first position of this process's values;
//!        within a piece, in rank order)
//!
//!   an entry    bit 15      14..0
//!               LOSS_EXIT   the position's offset in its piece
//!               (0: the best exit is t; 1: it is -t)
//! ```
//! The lists live in memory when together they fit the memory given them (the share of the
//! budget the first pass's tiles take, gone by then, less what the lower layers keep in
//! memory), else each in a scratch file
//! `exits-<t>`, written once and in order, mapped for its phase and removed after it. Each
//! piece's count a phase stays in memory (two bytes a piece a phase: 30 MB at awari layer 36).
//!
//! A position with no exit at all is listed nowhere: its best exit is below every phase's
//! `-t`, so its work byte is given `EXIT_LOW` when the lists are made, before the first phase
//! (`Block::mark_no_exits`; the first phase's scan marked it before).
//!
//! The lists hold what the values hold: a build resumed from a checkpoint makes them again
//! from the restored values, for the phases still ahead.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI8, Ordering::Relaxed};

use rayon::prelude::*;

use crate::PIECE;
use crate::blocks::{Scratch, ScratchError};
use crate::lower::NO_EXIT;

/// An entry's bit for a best exit of `-t` (clear: `t`).
pub(super) const LOSS_EXIT: u16 = 1 << 15;
/// An entry's offset of its position in its piece.
pub(super) const OFFSET: u16 = LOSS_EXIT - 1;
const _: () = assert!(
    PIECE <= OFFSET as u64 + 1,
    "an offset in a piece fits 15 bits"
);

/// Pieces whose entries are gathered (in parallel) before they are appended to the lists (in
/// order): at most 2^23 positions' entries, 16 MiB.
const CHUNK: usize = 256;
/// The buffer of a list written to its scratch file.
const WRITE_BUFFER: usize = 1 << 20;

/// The lists of this process's exits by phase (see the module documentation).
pub(super) struct Exits {
    /// The highest phase listed (lower than the layer's seeds in a resumed build).
    top: usize,
    pieces: usize,
    /// Entries of each piece in each phase: piece `p`, phase `t` at `(t - 1) * pieces + p`.
    counts: Vec<u16>,
    /// Phase `t`'s list at `t - 1`.
    lists: Vec<List>,
}

/// Where a phase's list lives.
enum List {
    Memory(Vec<u8>),
    File {
        file: File,
        path: PathBuf,
    },
    /// Its phase is over.
    Released,
}

/// One phase's list, as its scan reads it.
pub(super) struct PhaseList<'a> {
    /// Where piece `p`'s entries begin (in entries); `pieces + 1` of them.
    starts: Vec<u64>,
    bytes: Bytes<'a>,
}

enum Bytes<'a> {
    Memory(&'a [u8]),
    Mapped(memmap2::Mmap),
    Empty,
}

/// The phase and side of a best exit `e` listed in a build whose phases go down from `top`:
/// `(|e|, e < 0)`, or none for no exit, an exit of 0 or one above `top`.
#[inline]
fn listed(e: i8, top: usize) -> Option<(usize, bool)> {
    if e == 0 || e == NO_EXIT {
        return None;
    }
    let t = usize::from(e.unsigned_abs());
    (t <= top).then_some((t, e < 0))
}

impl Exits {
    /// The lists of `values` (this process's best exits, from its first position) for phases
    /// `top..=1`, in memory if they fit `memory` bytes (`None`: no limit), else in files of
    /// `scratch`.
    pub(super) fn new(
        values: &[AtomicI8],
        top: i8,
        memory: Option<u64>,
        scratch: &mut Scratch,
    ) -> Result<Exits, ScratchError> {
        let top = usize::try_from(top).unwrap_or(0);
        let piece = PIECE as usize;
        let pieces = values.len().div_ceil(piece);
        let by_piece: Vec<u16> = values
            .par_chunks(piece)
            .flat_map_iter(|values| {
                let mut counts = vec![0u16; top];
                for v in values {
                    if let Some((t, _)) = listed(v.load(Relaxed), top) {
                        counts[t - 1] += 1;
                    }
                }
                counts
            })
            .collect();
        let mut counts = vec![0u16; top * pieces];
        for (p, row) in by_piece.chunks(top.max(1)).enumerate().take(pieces) {
            for (t, &c) in row.iter().enumerate() {
                counts[t * pieces + p] = c;
            }
        }
        drop(by_piece);
        let bytes: u64 = 2 * counts.iter().map(|&c| u64::from(c)).sum::<u64>();
        let in_memory = memory.is_none_or(|m| bytes <= m);
        let mut exits = Exits {
            top,
            pieces,
            counts,
            lists: Vec::with_capacity(top),
        };
        let mut writers = Vec::new();
        for t in 1..=top {
            let len = 2 * exits.phase_entries(t);
            if in_memory {
                exits
                    .lists
                    .push(List::Memory(Vec::with_capacity(len as usize)));
            } else {
                let (file, path) = scratch.named_file(&format!("exits-{t}"))?;
                writers.push((BufWriter::with_capacity(WRITE_BUFFER, file), path));
            }
        }
        for chunk in (0..pieces).step_by(CHUNK) {
            let end = (chunk + CHUNK).min(pieces);
            // Each piece's entries, phase after phase.
            let gathered: Vec<Vec<u8>> = (chunk..end)
                .into_par_iter()
                .map(|p| exits.gather(p, &values[p * piece..((p + 1) * piece).min(values.len())]))
                .collect();
            // Where each piece's entries of the next phase begin in its gathered bytes.
            let mut at = vec![0usize; gathered.len()];
            for t in 1..=top {
                for ((p, entries), at) in (chunk..end).zip(&gathered).zip(&mut at) {
                    let len = 2 * usize::from(exits.counts[(t - 1) * pieces + p]);
                    let part = &entries[*at..*at + len];
                    *at += len;
                    if in_memory {
                        let List::Memory(list) = &mut exits.lists[t - 1] else {
                            unreachable!("every list is in memory")
                        };
                        list.extend_from_slice(part);
                    } else {
                        let (writer, path) = &mut writers[t - 1];
                        writer.write_all(part).map_err(|e| error(path, e))?;
                    }
                }
            }
        }
        for (writer, path) in writers {
            let file = writer
                .into_inner()
                .map_err(|e| error(&path, e.into_error()))?;
            exits.lists.push(List::File { file, path });
        }
        Ok(exits)
    }

    /// Entries of phase `t` in all.
    fn phase_entries(&self, t: usize) -> u64 {
        let row = &self.counts[(t - 1) * self.pieces..t * self.pieces];
        row.iter().map(|&c| u64::from(c)).sum()
    }

    /// Piece `p`'s entries (its values `values`), phase after phase from 1, each phase's in
    /// rank order.
    fn gather(&self, p: usize, values: &[AtomicI8]) -> Vec<u8> {
        let mut next = Vec::with_capacity(self.top);
        let mut len = 0;
        for t in 1..=self.top {
            next.push(len);
            len += 2 * usize::from(self.counts[(t - 1) * self.pieces + p]);
        }
        let mut bytes = vec![0u8; len];
        for (offset, v) in values.iter().enumerate() {
            if let Some((t, loss)) = listed(v.load(Relaxed), self.top) {
                let entry = offset as u16 | if loss { LOSS_EXIT } else { 0 };
                let at = &mut next[t - 1];
                bytes[*at..*at + 2].copy_from_slice(&entry.to_le_bytes());
                *at += 2;
            }
        }
        bytes
    }

    /// Phase `t`'s list, for its scan (empty above the highest phase listed).
    pub(super) fn phase(&self, t: i8) -> Result<PhaseList<'_>, ScratchError> {
        let t = usize::try_from(t).unwrap_or(0);
        if t == 0 || t > self.top {
            return Ok(PhaseList {
                starts: vec![0; self.pieces + 1],
                bytes: Bytes::Empty,
            });
        }
        let mut starts = Vec::with_capacity(self.pieces + 1);
        let mut at = 0u64;
        starts.push(0);
        for &c in &self.counts[(t - 1) * self.pieces..t * self.pieces] {
            at += u64::from(c);
            starts.push(at);
        }
        let bytes = match &self.lists[t - 1] {
            List::Memory(list) => Bytes::Memory(list),
            List::File { .. } if at == 0 => Bytes::Empty,
            List::File { file, path } => {
                // SAFETY: a read-only map of a scratch file this process wrote whole and
                // flushed, that nothing truncates while the map lives (the scratch directory is
                // the build's own, under the table set's write lock).
                let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| error(path, e))?;
                let _ = map.advise(memmap2::Advice::Sequential);
                Bytes::Mapped(map)
            }
            List::Released => unreachable!("phase {t}'s list asked for after its phase"),
        };
        Ok(PhaseList { starts, bytes })
    }

    /// Frees phase `t`'s list (its memory, or its file): its phase is over.
    pub(super) fn release(&mut self, t: i8) {
        let Some(list) = usize::try_from(t)
            .ok()
            .and_then(|t| t.checked_sub(1))
            .and_then(|t| self.lists.get_mut(t))
        else {
            return;
        };
        if let List::File { path, .. } = std::mem::replace(list, List::Released) {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl PhaseList<'_> {
    /// The entries of piece `p` (see the module documentation), as little-endian bytes.
    #[inline]
    pub(super) fn piece(&self, p: usize) -> &[u8] {
        let (start, end) = (self.starts[p] as usize, self.starts[p + 1] as usize);
        match &self.bytes {
            Bytes::Memory(bytes) => &bytes[2 * start..2 * end],
            Bytes::Mapped(map) => &map[2 * start..2 * end],
            Bytes::Empty => &[],
        }
    }
}

fn error(path: &std::path::Path, source: std::io::Error) -> ScratchError {
    ScratchError {
        path: path.to_owned(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;

    /// Every phase's list, piece by piece, against the values read one by one: in memory, and in
    /// scratch files (a budget of nothing), for all phases and for a resumed build's.
    #[test]
    fn the_lists_hold_each_listed_position_once_under_its_phase() {
        let n = 9i8;
        let len = 2 * PIECE as usize + 1234;
        // A fixed pseudo-random mix of exits: none, 0, and every magnitude up to n + 2.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let values: Vec<AtomicI8> = (0..len)
            .map(|_| {
                let x = rng.next_u64();
                AtomicI8::new(match x % 8 {
                    0 => NO_EXIT,
                    1 => 0,
                    _ => ((x >> 8) % 23) as i8 - 11,
                })
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        for (top, memory) in [(n, None), (n, Some(0)), (4, None), (4, Some(0))] {
            let mut scratch = Scratch::new(dir.path().join("s"));
            let mut exits = Exits::new(&values, top, memory, &mut scratch).unwrap();
            let mut listed_in_all = 0;
            for t in (1..=n + 2).rev() {
                let list = exits.phase(t).unwrap();
                for (p, piece) in values.chunks(PIECE as usize).enumerate() {
                    let expected: Vec<u16> = piece
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| t <= top && v.load(Relaxed).unsigned_abs() == t as u8)
                        .map(|(j, v)| j as u16 | if v.load(Relaxed) < 0 { LOSS_EXIT } else { 0 })
                        .collect();
                    let got: Vec<u16> = list
                        .piece(p)
                        .chunks_exact(2)
                        .map(|e| u16::from_le_bytes([e[0], e[1]]))
                        .collect();
                    assert_eq!(got, expected, "phase {t}, piece {p}, top {top}, {memory:?}");
                    listed_in_all += got.len();
                }
                drop(list);
                exits.release(t);
            }
            let expected = values
                .iter()
                .filter(|v| listed(v.load(Relaxed), top as usize).is_some())
                .count();
            assert_eq!(listed_in_all, expected);
            assert!(
                expected > len / 8,
                "the mix lists a good share of the positions"
            );
        }
    }
}
