//! The lower layers of a distributed build shared out among the ranks: each rank holds one slice
//! of every lower layer in memory and, once a round of the first pass, answers the lookups the
//! other ranks send it, instead of every rank reading every lower layer.
//!
//! # Owners
//! ```text
//!   lower layer k, S entries:  | rank 0        | rank 1        | ... | rank N-1        |
//!                                rank r owns the entries [S*r/N, S*(r+1)/N)
//! ```
//! A rank holds about `sum(S) / N` bytes: the lower layers of the whole build divided among
//! the ranks, and each rank reads only its slices of the files (sequentially, once a layer).
//!
//! # Rounds
//! The first pass takes each rank's positions in chunks of at most [`ROUND`] positions, one chunk
//! a rank a round; the rounds go on while any rank has a chunk left (a rank with none still
//! answers). In a round, a rank
//! 1. takes every move of its chunk: a move within the layer is counted (the work byte), a
//!    finished game's value becomes the position's best exit (its value byte), and a move out
//!    of the layer becomes a *lookup* `(layer, entry)` for the entry's owner, with a *ledger*
//!    line `(position, gain, whether the mover moves again)` kept in the same order;
//! 2. sends the lookups to their owners in one [`Peers::exchange`]; each owner answers with the
//!    values asked for, in the order asked;
//! 3. gets the answers in a second exchange and sets each position's best exit to the best of
//!    its ledger lines.
//!
//! Every move of every position is taken once, so each position ends the pass with the count
//! and best exit of the pass in rank order: the values do not depend on the number of ranks.
//!
//! # Wire format
//! A rank's lookups to one owner: `[count, lookups...]`, a lookup two words, `k << 26 | o >> 32`
//! and `o mod 2^32`, `k` the lower layer and `o` the entry's offset in the owner's slice. The
//! owner's answer: `count.div_ceil(4)` words, value `i` in byte `i % 4` (little-endian) of word
//! `i / 4`.

use std::ops::Range;

use granary_tables::{Layer, TableError};
use rayon::prelude::*;

use crate::LOAD_PIECE;
use crate::peers::{Peers, Traffic};

/// The most positions of a rank's chunk of a round of the first pass. A position has at most
/// one move a pit out of the layer; a lookup costs about 21 bytes on its way (2 words sent,
/// 2 received by the owner, a ledger line, a byte of answer), so a round of 6-pit positions
/// holds at most about 66 MB.
pub(crate) const ROUND: u64 = 1 << 19;

/// The most entries an offset within a slice may have (26 + 32 bits: lookups' encoding).
const OFFSET_BITS: u32 = 58;

/// This rank's slices of the lower layers, and where every rank's slices lie.
pub(crate) struct Owners {
    rank: usize,
    ranks: usize,
    /// The entries of each lower layer.
    sizes: Vec<u64>,
    /// This rank's slice of each lower layer.
    slices: Vec<Vec<u8>>,
}

/// Where rank `r` of `ranks` starts in a layer of `size` entries.
#[inline]
fn start(size: u64, r: usize, ranks: usize) -> u64 {
    (u128::from(size) * r as u128 / ranks as u128) as u64
}

/// The rank of `ranks` that owns entry `e` of a layer of `size` entries: the last `r` with
/// `start(size, r) <= e`.
#[inline]
fn owner(size: u64, e: u64, ranks: usize) -> usize {
    (((u128::from(e) + 1) * ranks as u128 - 1) / u128::from(size)) as usize
}

impl Owners {
    /// The most bytes of lower layers of `sizes` entries that any of `ranks` ranks holds.
    pub(crate) fn share(sizes: &[u64], ranks: usize) -> u64 {
        sizes.iter().map(|&s| s.div_ceil(ranks as u64)).sum()
    }

    /// The bytes of this rank's slices.
    pub(crate) fn bytes(&self) -> u64 {
        self.slices.iter().map(|s| s.len() as u64).sum()
    }

    /// Reads this rank's slices of `layers` (a compressed layer decompressed block by block).
    ///
    /// # Errors
    /// [`TableError::Corrupt`] for a compressed block that does not decode; [`TableError::Io`]
    /// for memory that cannot be had.
    pub(crate) fn load(layers: &[&Layer], rank: usize, ranks: usize) -> Result<Self, TableError> {
        let sizes: Vec<u64> = layers.iter().map(|l| l.len()).collect();
        let slices = layers
            .iter()
            .map(|layer| {
                let size = layer.len();
                let (first, end) = (start(size, rank, ranks), start(size, rank + 1, ranks));
                assert!(
                    end - first < 1 << OFFSET_BITS,
                    "a slice of a lower layer too large"
                );
                let mut slice = Vec::new();
                slice
                    .try_reserve_exact((end - first) as usize)
                    .map_err(|e| TableError::Io {
                        path: layer.path().to_path_buf(),
                        source: std::io::Error::new(std::io::ErrorKind::OutOfMemory, e),
                    })?;
                slice.resize((end - first) as usize, 0);
                slice
                    .par_chunks_mut(LOAD_PIECE as usize)
                    .enumerate()
                    .try_for_each(|(i, piece)| {
                        layer.read_range(first + i as u64 * LOAD_PIECE, piece)
                    })?;
                Ok(slice)
            })
            .collect::<Result<_, TableError>>()?;
        Ok(Owners {
            rank,
            ranks,
            sizes,
            slices,
        })
    }

    /// Sends `asks` (a chunk's pieces, in order; none when this rank has no chunk this round)
    /// to the owners of the entries they look up, answers the lookups of every rank, and returns
    /// the answers to this rank's lookups: `answers[o]` the values from owner `o`, in the order
    /// of `asks` and of their lookups. A collective call.
    pub(crate) fn round(
        &self,
        asks: &[Asks],
        peers: &dyn Peers,
        traffic: &mut Traffic,
    ) -> Vec<Vec<i8>> {
        let n = self.ranks;
        let counts: Vec<usize> = (0..n)
            .map(|o| asks.iter().map(|a| a.lookups[o].len() / 2).sum())
            .collect();
        let outgoing: Vec<Vec<u32>> = (0..n)
            .map(|o| {
                let mut words = Vec::with_capacity(1 + 2 * counts[o]);
                words.push(counts[o] as u32);
                for a in asks {
                    words.extend_from_slice(&a.lookups[o]);
                }
                words
            })
            .collect();
        let others = |o: &usize| *o != self.rank;
        traffic.lookups += (0..n).filter(others).map(|o| counts[o] as u64).sum::<u64>();
        traffic.bytes += (0..n)
            .filter(others)
            .map(|o| 4 * (outgoing[o].len() + counts[o].div_ceil(4)) as u64)
            .sum::<u64>();
        traffic.exchanges += 2;
        let incoming = peers.exchange(&outgoing);
        drop(outgoing);
        let mut replies = Vec::with_capacity(n);
        let mut rest = &incoming[..];
        for _ in 0..n {
            let (count, tail) = rest.split_first().expect("a count from every rank");
            let (lookups, tail) = tail.split_at(2 * *count as usize);
            replies.push(self.answer(lookups));
            rest = tail;
        }
        drop(incoming);
        let back = peers.exchange(&replies);
        drop(replies);
        let mut answers = Vec::with_capacity(n);
        let mut rest = &back[..];
        for &count in &counts {
            let (words, tail) = rest.split_at(count.div_ceil(4));
            let mut values: Vec<i8> = words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .map(|b| b as i8)
                .collect();
            values.truncate(count);
            answers.push(values);
            rest = tail;
        }
        answers
    }

    /// The values of `lookups` (two words each) in this rank's slices, four to a word.
    fn answer(&self, lookups: &[u32]) -> Vec<u32> {
        lookups
            .par_chunks(8)
            .map(|four| {
                four.chunks_exact(2).enumerate().fold(0u32, |word, (i, l)| {
                    let k = (l[0] >> 26) as usize;
                    let offset = u64::from(l[0] & ((1 << 26) - 1)) << 32 | u64::from(l[1]);
                    word | u32::from(self.slices[k][offset as usize]) << (8 * i)
                })
            })
            .collect()
    }
}

/// What a piece of a chunk asks of the owners: its lookups and ledger lines, by owner.
///
/// A ledger line is `position << 16 | gain as u8 << 8 | again`: the position's rank in the
/// layer built, what the move gains, and whether the mover moves again (the exit is then
/// `gain + value`, else `gain - value`).
pub(crate) struct Asks {
    lookups: Vec<Vec<u32>>,
    ledger: Vec<Vec<u64>>,
    /// The positions of the piece, which its ledger lines name.
    positions: Range<u64>,
}

impl Asks {
    /// The asks of the piece of positions `positions`, none yet.
    pub(crate) fn new(owners: &Owners, positions: Range<u64>) -> Self {
        Asks {
            lookups: vec![Vec::new(); owners.ranks],
            ledger: vec![Vec::new(); owners.ranks],
            positions,
        }
    }

    /// Asks for entry `entry` of lower layer `seeds`, left by a move of `position` that gains
    /// `gain`, the mover moving again or not.
    #[inline]
    pub(crate) fn push(
        &mut self,
        owners: &Owners,
        seeds: u32,
        entry: u64,
        position: u64,
        gain: i32,
        again: bool,
    ) {
        debug_assert!(
            self.positions.contains(&position),
            "a position of the piece"
        );
        let size = owners.sizes[seeds as usize];
        let o = owner(size, entry, owners.ranks);
        let offset = entry - start(size, o, owners.ranks);
        self.lookups[o].extend([seeds << 26 | (offset >> 32) as u32, offset as u32]);
        self.ledger[o].push(position << 16 | u64::from(gain as i8 as u8) << 8 | u64::from(again));
    }
}

/// A ledger line's position and exit, given the value its lookup was answered with.
#[inline]
fn exit(line: u64, value: i8) -> (u64, i32) {
    let gain = i32::from((line >> 8) as u8 as i8);
    let exit = granary_rules::exit_value(gain, line & 1 == 1, i32::from(value));
    (line >> 16, exit)
}

/// Calls `best(position, exit)` for every ledger line of `asks` with the answers of
/// [`Owners::round`], the pieces in parallel. The pieces' positions lie apart and a position's
/// lines all lie in its piece, so `best` is called for a position by one thread.
pub(crate) fn settle(asks: &[Asks], answers: &[Vec<i8>], best: impl Fn(u64, i32) + Sync) {
    debug_assert!(
        asks.windows(2)
            .all(|a| a[0].positions.end <= a[1].positions.start),
        "the pieces lie apart"
    );
    // Where each piece's answers start, by owner.
    let mut at = vec![0usize; answers.len()];
    let starts: Vec<Vec<usize>> = asks
        .iter()
        .map(|a| {
            let here = at.clone();
            for (o, lines) in a.ledger.iter().enumerate() {
                at[o] += lines.len();
            }
            here
        })
        .collect();
    asks.par_iter().zip(starts).for_each(|(a, starts)| {
        for (o, lines) in a.ledger.iter().enumerate() {
            let values = &answers[o][starts[o]..starts[o] + lines.len()];
            for (&line, &value) in lines.iter().zip(values) {
                let (position, exit) = exit(line, value);
                best(position, exit);
            }
        }
    });
}

/// The chunks of a round: `range` cut into pieces of at most [`ROUND`] positions.
pub(crate) fn chunks(range: Range<u64>) -> impl Iterator<Item = Range<u64>> {
    (range.start..range.end)
        .step_by(ROUND as usize)
        .map(move |first| first..(first + ROUND).min(range.end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_has_one_owner_whose_slice_holds_it() {
        for ranks in 1..=7 {
            for size in [1u64, 2, 3, 5, 6, 7, 64, 1000, 1 << 40] {
                let mut last = 0;
                let mut entries: Vec<u64> = (0..size.min(200)).collect();
                entries.extend([size / 2, size - 1]);
                entries.sort_unstable();
                for e in entries {
                    let o = owner(size, e, ranks);
                    assert!(o < ranks);
                    assert!(o >= last, "owners in order");
                    last = o;
                    assert!(
                        (start(size, o, ranks)..start(size, o + 1, ranks)).contains(&e),
                        "size {size}, {ranks} ranks: entry {e} not in its owner {o}'s slice"
                    );
                }
            }
        }
    }

    #[test]
    fn a_ledger_line_gives_back_its_position_and_exit() {
        for (gain, again, value, expected) in [
            (0, false, 5i8, -5),
            (3, true, -2, 1),
            (-4, false, -7, 3),
            (40, true, 8, 48),
        ] {
            let owners = Owners {
                rank: 0,
                ranks: 1,
                sizes: vec![100],
                slices: vec![vec![0; 100]],
            };
            let position = 14_300_000_000u64;
            let mut asks = Asks::new(&owners, position..position + 1);
            asks.push(&owners, 0, 42, position, gain, again);
            assert_eq!(asks.lookups[0], [0, 42]);
            assert_eq!(exit(asks.ledger[0][0], value), (position, expected));
        }
    }
}
