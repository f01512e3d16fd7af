//! The first pass reading the lower layers at random: positions in rank order, the exits of a
//! group of positions prefetched before they are read.

use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

use granary_rules::{Board, Position, Rules};
use granary_tables::probe::terminal_value;
use rayon::prelude::*;

use super::first_moves;
use crate::blocks::WorkBytes;
use crate::lower::{Exit, Lower, NO_EXIT};
use crate::phases::block::Block;
use crate::phases::{BATCH, PhaseError, Solving, pieces};
use crate::report::BuildObserver;

/// The first pass of this process's blocks `owned`, block by block.
pub(in crate::phases) fn pass<R: Rules>(
    layer: &Solving<'_, R>,
    work: &mut WorkBytes,
    owned: Range<usize>,
) -> Result<(), PhaseError> {
    for b in owned {
        work.load(layer.plan, b)?;
        layer.block(work, b).init(layer.lower, layer.observer);
        work.save(layer.plan, b)?;
    }
    Ok(())
}

impl<R: Rules> Block<'_, R> {
    /// The first pass: each position's count of moves within the layer (work byte) and best exit
    /// (value byte).
    fn init(&self, lower: &Lower<'_>, observer: &dyn BuildObserver) {
        let index = self.index;
        pieces(self.range.clone()).for_each(|(first, end)| {
            let mut boards = index.iter_from(first);
            let mut exits = Vec::with_capacity(BATCH * 8);
            let mut group = Vec::with_capacity(BATCH);
            let mut i = first;
            while i < end {
                // Gather a group's moves, prefetching the lower-layer entries they read...
                group.clear();
                exits.clear();
                for board in boards.by_ref().take((end - i).min(BATCH as u64) as usize) {
                    let from = exits.len();
                    let count = self.init_moves(board, lower, &mut exits);
                    group.push((count, from..exits.len()));
                }
                // ...then read them.
                for (count, range) in group.drain(..) {
                    let best = exits[range]
                        .iter()
                        .map(|e| e.value(lower))
                        .max()
                        .unwrap_or(i32::from(NO_EXIT));
                    self.work(i).store(count, Relaxed);
                    self.value(i).store(best as i8, Relaxed);
                    i += 1;
                }
            }
            observer.advanced(end - first);
        });
    }

    /// Counts a position's moves that stay in the layer, and pushes onto `exits` the moves that
    /// leave it (for a finished game, its final value), prefetching the entries they will read.
    fn init_moves(&self, board: Board, lower: &Lower<'_>, exits: &mut Vec<Exit>) -> u8 {
        let rules = self.rules;
        let m = rules.pits();
        let n = self.index.seeds();
        let pos = Position::of_board(board);
        let count = first_moves(rules, &pos, n, |seeds, child, gain, again| {
            let layer = lower.layers[seeds as usize];
            let rank = layer.index().rank_on(child, m);
            layer.prefetch(rank);
            exits.push(Exit::Lower {
                seeds,
                rank,
                gain,
                again,
            });
        });
        count.unwrap_or_else(|| {
            exits.push(Exit::Final(terminal_value(rules, &pos)));
            0
        })
    }
}
