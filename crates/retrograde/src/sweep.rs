//! The first pass of a layer whose lower layers do not fit the memory it is given: the moves out
//! of the layer played tile by tile of the lower layers, so that each lower layer is read once
//! a block, in order, instead of at random.
//!
//! # Groups
//! A layer's index keeps together the positions that share the opponent's row (the *group* of
//! that row), groups in lexicographic order of their rows, the same order in every layer
//! ([`granary_index::LayerIndex::block_start`]). A move sows the mover's row `r` from lane `i`
//! into `s(r, i)`; in Oware nothing else touches that row (captures take from the opponent's
//! side), and after the move it is the opponent's row of the position reached. So every
//! position that lane `i` reaches from a position with mover's row `r`, whatever the opponent's
//! row was, lies in the group of `s(r, i)` of its layer.
//!
//! # Tiles
//! ```text
//!   rows, lexicographic:   | tile 0          | tile 1        | ...  | tile T-1        |
//!   lower layer k:         |  groups, tile 0 |  groups, tile 1 | .. |                 |
//!   lower layer k-1:       |  ...                                                     |
//!                          a tile is one range of every lower layer, ranges in order
//! ```
//! A tile is a run of rows whose groups, in all lower layers together, take at most the tile's
//! bytes. For each tile in turn, the pass copies the tile's range of every lower layer into
//! memory ([`granary_tables::Layer::read_range`]: a sweep of each lower layer over the tiles,
//! decompressing a compressed layer block by block), then plays, for every position of the
//! block being built, the moves `(r, i)` whose `s(r, i)` falls in the tile (the *candidates*
//! of the tile, listed once a layer), reading the exits from that copy.
//!
//! # Contract
//! Every move of every position is played in exactly one tile (the tile of `s(r, i)`), so
//! each position ends the pass with the count of its moves within the layer and the best of its
//! exits, as the pass in rank order gives it: the values do not depend on the tiles. Where the
//! rules break the prediction (a Kalah move that ends in the store, or a capture from the mover's
//! side), the exit lies outside the tile and is read from its layer directly: still exact, a
//! random read (a *miss*; an Oware build has none).

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use granary_index::LayerIndex;
use granary_rules::board::{byte_sum, nonzero_bytes};
use granary_rules::{Board, Rules};
use granary_tables::TableError;
use rayon::prelude::*;

use crate::LOAD_PIECE;
use crate::lower::Lower;

/// What a build's first pass did with its tiles (none when it read its lower layers at random).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Tiles of the lower layers.
    pub tiles: usize,
    /// Entries of the lower layers read (each tile once a block of the layer).
    pub read: u64,
    /// Exits outside the tile of their move, read at random (0 for Oware).
    pub misses: u64,
}

/// The mover's rows that can be played, with the lanes (a bit each) whose sowing lands in one
/// tile: the candidates of a tile whose rows hold a given number of seeds. Each row's rank among
/// the rows of as many seeds ([`LayerIndex::row_rank`]: its offset in every group) is kept with
/// it, computed once instead of once a group.
#[derive(Default)]
struct Candidates {
    rows: Vec<u64>,
    ranks: Vec<u32>,
    lanes: Vec<u8>,
}

/// The tiles of a layer's lower layers and the candidates of each.
pub(crate) struct Tiles {
    /// The key ([`key`]) of each tile's first row.
    firsts: Vec<u64>,
    /// `ranges[t][k]`: tile `t`'s ranks in lower layer `k`.
    ranges: Vec<Vec<Range<u64>>>,
    /// `candidates[t][j]`: tile `t`'s candidates among the mover's rows of `j` seeds.
    candidates: Vec<Vec<Candidates>>,
    /// Entries of the largest tile.
    largest: u64,
}

/// A row (byte `p` the pit `p` in sowing order) as a number whose order is the lexicographic
/// order of the rows, pit 0 first.
#[inline]
fn key(row: u64) -> u64 {
    row.swap_bytes()
}

/// The rows of `m` pits holding at most `max` seeds, in lexicographic order (pit 0 first): the
/// order of the groups of a layer.
pub(crate) fn rows_in_order(m: usize, max: u32) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let row = next?;
        next = if byte_sum(row) < max {
            // One more seed in the last pit.
            Some(row + (1 << (8 * (m - 1))))
        } else {
            // Full: the last non-empty pit is emptied and the pit before it takes one more.
            let q = (63 - row.leading_zeros()) as usize / 8;
            (q > 0).then(|| (row & ((1u64 << (8 * q)) - 1)) + (1 << (8 * (q - 1))))
        };
        Some(row)
    })
}

/// Whether the group of `row` exists in a layer of `index`'s kind: a reduced (Oware) index holds
/// only opponent's rows with an empty pit.
#[inline]
fn has_group(index: &LayerIndex, row: u64) -> bool {
    !index.reduced() || (nonzero_bytes(row).count_ones() as usize) < index.pits()
}

/// The groups of layer `index` that meet the ranks `range`: each opponent's row and the rank
/// where its group starts.
pub(crate) fn groups(index: &LayerIndex, range: Range<u64>) -> Vec<(u64, u64)> {
    let (m, n) = (index.pits(), index.seeds());
    let mut start = 0u64;
    let mut out = Vec::new();
    for row in rows_in_order(m, n) {
        if start >= range.end {
            break;
        }
        if !has_group(index, row) {
            continue;
        }
        let size = index.rows(n - byte_sum(row));
        if start + size > range.start {
            out.push((row, start));
        }
        start += size;
    }
    out
}

impl Tiles {
    /// The tiles of the lower layers of layer `index` (`lower.layers`, layers `0..n`) of at most
    /// `budget` entries each (a tile holds at least one row's groups), and their candidates.
    pub(crate) fn new<R: Rules>(rules: &R, index: &LayerIndex, budget: u64) -> Tiles {
        let (m, n) = (index.pits(), index.seeds());
        let layers = n as usize;
        let mut firsts = Vec::new();
        let mut ranges: Vec<Vec<Range<u64>>> = Vec::new();
        let mut at = vec![0u64; layers];
        let mut opened = at.clone();
        let mut filled = 0u64;
        let mut largest = 0u64;
        for row in rows_in_order(m, n.saturating_sub(1)) {
            if !has_group(index, row) {
                continue;
            }
            let seeds = byte_sum(row) as usize;
            let total: u64 = (seeds..layers)
                .map(|k| index.rows((k - seeds) as u32))
                .sum();
            if firsts.is_empty() || (filled > 0 && filled + total > budget) {
                if !firsts.is_empty() {
                    ranges.push((0..layers).map(|k| opened[k]..at[k]).collect());
                }
                firsts.push(key(row));
                opened.clone_from(&at);
                filled = 0;
            }
            for (k, at) in at.iter_mut().enumerate().skip(seeds) {
                *at += index.rows((k - seeds) as u32);
            }
            filled += total;
            largest = largest.max(filled);
        }
        if firsts.is_empty() {
            firsts.push(0);
        }
        ranges.push((0..layers).map(|k| opened[k]..at[k]).collect());

        let mut candidates: Vec<Vec<Candidates>> = (0..firsts.len())
            .map(|_| (0..=n).map(|_| Candidates::default()).collect())
            .collect();
        let sowing = rules.sow_table();
        for row in rows_in_order(m, n).skip(1) {
            let seeds = byte_sum(row) as usize;
            for lane in (0..m).filter(|&lane| (row >> (8 * lane)) as u8 != 0) {
                let (sown, _) = sowing.sow(Board(u128::from(row)), lane);
                let sown = key(sown.mover_lanes(m));
                let t = firsts.partition_point(|&first| first <= sown).max(1) - 1;
                let list = &mut candidates[t][seeds];
                if list.rows.last() == Some(&row) {
                    *list.lanes.last_mut().expect("a lane per row") |= 1 << lane;
                } else {
                    list.rows.push(row);
                    list.ranks.push(
                        u32::try_from(index.row_rank(row))
                            .expect("rows of at most 8 pits and 64 seeds number under 2^31"),
                    );
                    list.lanes.push(1 << lane);
                }
            }
        }
        Tiles {
            firsts,
            ranges,
            candidates,
            largest,
        }
    }

    /// How many tiles.
    pub(crate) fn count(&self) -> usize {
        self.firsts.len()
    }

    /// Tile `t`'s candidates among the mover's rows of `seeds` seeds: each row, its rank among
    /// the rows of `seeds` seeds ([`LayerIndex::row_rank`]), and its lanes as bits.
    pub(crate) fn candidates(
        &self,
        t: usize,
        seeds: u32,
    ) -> impl Iterator<Item = (u64, u64, u8)> + '_ {
        let list = &self.candidates[t][seeds as usize];
        list.rows
            .iter()
            .zip(&list.ranks)
            .zip(&list.lanes)
            .map(|((&row, &rank), &lanes)| (row, u64::from(rank), lanes))
    }

    /// Memory for the largest tile, on huge pages (a tile is read at random: on 4 KiB pages
    /// each read would also miss the TLB).
    pub(crate) fn buffer(&self) -> std::io::Result<memmap2::MmapMut> {
        granary_tables::huge_anon(self.largest as usize)
    }

    /// Copies tile `t`'s range of every lower layer into `buf` ([`Tiles::buffer`]), the ranges
    /// loading in parallel.
    pub(crate) fn load<'a>(
        &'a self,
        t: usize,
        lower: &Lower<'_>,
        buf: &'a mut [u8],
    ) -> Result<Loaded<'a>, TableError> {
        let ranges = &self.ranges[t];
        let mut offsets = Vec::with_capacity(ranges.len());
        let mut pieces = Vec::new();
        let mut rest = &mut buf[..];
        let mut offset = 0u64;
        for (k, range) in ranges.iter().enumerate() {
            offsets.push(offset);
            let mut first = range.start;
            while first < range.end {
                let end = (first + LOAD_PIECE).min(range.end);
                let (piece, tail) = rest.split_at_mut((end - first) as usize);
                pieces.push((k, first, piece));
                rest = tail;
                first = end;
            }
            offset += range.end - range.start;
        }
        pieces
            .into_par_iter()
            .try_for_each(|(k, first, piece)| lower.layers[k].read_range(first, piece))?;
        Ok(Loaded {
            ranges,
            offsets,
            entries: &buf[..offset as usize],
        })
    }

    /// Entries of all the tiles, lower layers together (each is read once a block).
    pub(crate) fn entries(&self) -> u64 {
        self.ranges.iter().flatten().map(|r| r.end - r.start).sum()
    }
}

/// A tile's ranges of the lower layers, in memory.
pub(crate) struct Loaded<'a> {
    ranges: &'a [Range<u64>],
    offsets: Vec<u64>,
    entries: &'a [u8],
}

impl Loaded<'_> {
    /// Where the tile holds the entry of rank `rank` of lower layer `seeds`, if it does: for
    /// [`Loaded::prefetch`] and [`Loaded::entry`].
    #[inline]
    pub(crate) fn locate(&self, seeds: u32, rank: u64) -> Option<usize> {
        let range = &self.ranges[seeds as usize];
        range
            .contains(&rank)
            .then(|| (self.offsets[seeds as usize] + rank - range.start) as usize)
    }

    /// Asks for the entry at `at` ([`Loaded::locate`]) to be loaded into the cache.
    #[inline]
    pub(crate) fn prefetch(&self, at: usize) {
        granary_tables::prefetch(&self.entries[at]);
    }

    /// The entry at `at` ([`Loaded::locate`]).
    #[inline]
    pub(crate) fn entry(&self, at: usize) -> i8 {
        self.entries[at] as i8
    }
}

/// Counts the exits read outside their tile.
#[derive(Default)]
pub(crate) struct Misses(AtomicU64);

impl Misses {
    pub(crate) fn add(&self, n: u64) {
        self.0.fetch_add(n, Relaxed);
    }
    pub(crate) fn get(&self) -> u64 {
        self.0.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use granary_rules::{Oware, OwareRules};

    #[test]
    fn rows_come_in_the_order_of_the_groups() {
        for (m, n, reduced) in [(3, 5, false), (3, 5, true), (6, 7, true), (6, 6, false)] {
            let index = LayerIndex::new(m, n, reduced).unwrap();
            let rows: Vec<u64> = rows_in_order(m, n).collect();
            let expected = (0..=n).map(|k| index.rows(k)).sum::<u64>();
            assert_eq!(
                rows.len() as u64,
                expected,
                "every row of at most {n} seeds"
            );
            assert!(rows.windows(2).all(|w| key(w[0]) < key(w[1])), "increasing");
            // A group starts at the rank of its first layout: the mover's row (0, .., 0, rest).
            let all = groups(&index, 0..index.size());
            let mut covered = 0;
            for &(row, start) in &all {
                let rest = n - byte_sum(row);
                let mover = u64::from(rest as u8) << (8 * (m - 1));
                let board = Board(u128::from(mover) | u128::from(row) << (8 * m));
                assert_eq!(index.rank(board), start, "group of {row:x}");
                covered += index.rows(rest);
            }
            assert_eq!(covered, index.size());
            // The groups that meet a range in the middle.
            let mid = index.size() / 3..index.size() / 2;
            let some = groups(&index, mid.clone());
            assert!(some.first().unwrap().1 <= mid.start);
            assert!(some.last().unwrap().1 < mid.end);
        }
    }

    #[test]
    fn tiles_cut_every_lower_layer_into_consecutive_ranges_within_the_budget() {
        let rules = Oware::new(6, OwareRules::Awari).played_out();
        let index = LayerIndex::new(6, 12, true).unwrap();
        let lower_total: u64 = (0..12)
            .map(|k| LayerIndex::new(6, k, true).unwrap().size())
            .sum();
        for budget in [1, 50_000, 400_000, u64::MAX] {
            let tiles = Tiles::new(&rules, &index, budget);
            assert_eq!(tiles.entries(), lower_total, "budget {budget}");
            for k in 0..12 {
                let size = LayerIndex::new(6, k, true).unwrap().size();
                let mut end = 0;
                for t in 0..tiles.count() {
                    assert_eq!(tiles.ranges[t][k as usize].start, end);
                    end = tiles.ranges[t][k as usize].end;
                }
                assert_eq!(end, size, "layer {k}");
            }
            if budget == u64::MAX {
                assert_eq!(tiles.count(), 1);
            }
            if budget == 50_000 {
                assert!(tiles.count() > 10);
                assert!(tiles.largest <= budget.max(tiles_min(&index)));
            }
            // Every playable lane of every row is a candidate of exactly one tile.
            let mut lanes = 0u64;
            for t in 0..tiles.count() {
                for seeds in 0..=12 {
                    lanes += tiles
                        .candidates(t, seeds)
                        .map(|(row, rank, l)| {
                            assert_eq!(rank, index.row_rank(row));
                            u64::from(l.count_ones())
                        })
                        .sum::<u64>();
                }
            }
            let expected: u64 = rows_in_order(6, 12)
                .map(|r| u64::from(nonzero_bytes(r).count_ones()))
                .sum();
            assert_eq!(lanes, expected);
        }
    }

    /// The largest groups of one row, lower layers together: no tile can be smaller.
    fn tiles_min(index: &LayerIndex) -> u64 {
        (0..index.seeds()).map(|k| index.rows(k)).sum()
    }
}
