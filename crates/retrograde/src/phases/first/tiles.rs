//! The first pass reading the lower layers in tiles ([`crate::sweep`]): for each tile, the
//! moves of every position of the block whose sowing lands in it.

use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

use granary_rules::board::byte_sum;
use granary_rules::{Board, MoveSet, Position, Rules, exit_value};
use granary_tables::TableError;
use granary_tables::probe::terminal_value;
use rayon::prelude::*;

use super::{FirstMove, first_move};
use crate::blocks::WorkBytes;
use crate::lower::{Lower, NO_EXIT};
use crate::phases::block::Block;
use crate::phases::work::PLAYED;
use crate::phases::{BATCH, PhaseError, Solving, pieces};
use crate::report::BuildObserver;
use crate::sweep::{Loaded, Misses, SweepReport, Tiles, groups};

/// Groups (of one opponent row, [`groups`]) a job of a tile's pass holds at most: a thread left
/// without work takes the next job instead of waiting on the other's part of the layer, whose
/// groups are uneven (the rows of a small opponent row by the thousand, of a full one a few).
const GROUPS_A_JOB: usize = 64;

/// The first pass of this process's blocks `owned`, block by block, each reading every tile.
pub(in crate::phases) fn pass<R: Rules>(
    layer: &Solving<'_, R>,
    work: &mut WorkBytes,
    owned: Range<usize>,
    tiles: &Tiles,
) -> Result<SweepReport, PhaseError> {
    let mut report = SweepReport {
        tiles: tiles.count(),
        ..SweepReport::default()
    };
    let mut buf = tiles.buffer().map_err(PhaseError::Memory)?;
    for b in owned {
        work.load(layer.plan, b)?;
        let block = layer.block(work, b);
        report.misses += block.init_swept(tiles, layer.lower, &mut buf, layer.observer)?;
        report.read += tiles.entries();
        work.save(layer.plan, b)?;
    }
    Ok(report)
}

impl<R: Rules> Block<'_, R> {
    /// The first pass read against the lower layers in tiles ([`crate::sweep`]): the same
    /// count and best exit for each position as [`Block::init`]. Returns the exits read outside
    /// their tile.
    fn init_swept(
        &self,
        tiles: &Tiles,
        lower: &Lower<'_>,
        buf: &mut [u8],
        observer: &dyn BuildObserver,
    ) -> Result<u64, TableError> {
        let (rules, index) = (self.rules, self.index);
        let m = rules.pits();
        let n = index.seeds();
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                self.work(i).store(0, Relaxed);
                self.value(i).store(NO_EXIT, Relaxed);
            }
        });
        let groups = groups(index, self.range.clone());
        // A group is the run of ranks `start..start + its size`; each position lies in one, so
        // the job that holds it is its bytes' one writer in a tile's pass (`Block::take_exit`).
        let size = |opponent: u64| index.rows(n - byte_sum(opponent));
        debug_assert!(
            groups.windows(2).all(|g| g[0].1 + size(g[0].0) <= g[1].1),
            "the groups lie apart"
        );
        let misses = Misses::default();
        let len = self.range.end - self.range.start;
        let count = tiles.count() as u64;
        for t in 0..tiles.count() {
            let tile = tiles.load(t, lower, buf)?;
            let jobs = groups.par_iter().with_max_len(GROUPS_A_JOB);
            jobs.try_for_each_init(
                || Vec::with_capacity(BATCH),
                |exits, &(opponent, start)| {
                    let mut missed = 0;
                    let group = size(opponent);
                    let whole = self.range.start <= start && start + group <= self.range.end;
                    for (mover, rank, lanes) in tiles.candidates(t, n - byte_sum(opponent)) {
                        debug_assert!(rank < group, "a candidate lies in its group");
                        let q = start + rank;
                        if !whole && !self.range.contains(&q) {
                            continue;
                        }
                        let pos = Position::of_board(Board(
                            u128::from(mover) | u128::from(opponent) << (8 * m),
                        ));
                        for lane in MoveSet(lanes).iter() {
                            let Some(mv) = first_move(rules, &pos, lane, n) else {
                                continue;
                            };
                            // One writer (the job of `q`'s group): a load and a store.
                            let work = self.work(q);
                            let w = work.load(Relaxed) | PLAYED;
                            let FirstMove::Exit {
                                seeds,
                                child,
                                gain,
                                again,
                            } = mv
                            else {
                                work.store(w + 1, Relaxed);
                                continue;
                            };
                            work.store(w, Relaxed);
                            let layer = lower.layers[seeds as usize];
                            let rank = layer.index().rank_on(child, m);
                            match tile.locate(seeds, rank) {
                                Some(at) => {
                                    // Read with the batch, its cache misses overlapping.
                                    tile.prefetch(at);
                                    exits.push((q, at, gain, again));
                                    if exits.len() == BATCH {
                                        self.take_exits(&tile, exits);
                                    }
                                }
                                None => {
                                    missed += 1;
                                    let entry = layer.try_value(rank)?;
                                    self.take_exit(q, exit_value(gain, again, i32::from(entry)));
                                }
                            }
                        }
                    }
                    self.take_exits(&tile, exits);
                    misses.add(missed);
                    Ok::<(), TableError>(())
                },
            )?;
            let t = t as u64;
            observer.advanced(len * (t + 1) / count - len * t / count);
        }
        // A position where no move was played is a finished game.
        pieces(self.range.clone()).for_each(|(first, end)| {
            for i in first..end {
                let w = self.work(i).load(Relaxed);
                if w & PLAYED == 0 {
                    let pos = Position::of_board(index.unrank(i));
                    debug_assert!(rules.legal_moves(&pos).is_empty());
                    self.value(i)
                        .store(terminal_value(rules, &pos) as i8, Relaxed);
                } else {
                    self.work(i).store(w & !PLAYED, Relaxed);
                }
            }
        });
        Ok(misses.get())
    }

    /// The exits of `exits` (position, where the tile holds the entry its move reaches, gain,
    /// whether the mover moves again), their entries prefetched, each kept if it is the best of
    /// its position so far; `exits` emptied.
    #[inline]
    fn take_exits(&self, tile: &Loaded<'_>, exits: &mut Vec<(u64, usize, i32, bool)>) {
        for (q, at, gain, again) in exits.drain(..) {
            self.take_exit(q, exit_value(gain, again, i32::from(tile.entry(at))));
        }
    }
}
