//! The first pass of a distributed build whose lower layers are held by their owners
//! ([`crate::owners`]): the moves out of the layer asked of the ranks that hold their entries.

use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use granary_rules::{Position, Rules};
use granary_tables::probe::terminal_value;
use rayon::prelude::*;

use super::first_moves;
use crate::blocks::WorkBytes;
use crate::lower::{Lower, NO_EXIT};
use crate::owners::{self, Asks, Owners};
use crate::peers::Traffic;
use crate::phases::block::Block;
use crate::phases::{PhaseError, Solving, pieces};

/// The first pass of a distributed build whose lower layers are held by their owners
/// ([`crate::owners`]): this rank's blocks in chunks, a chunk a round, for as many rounds as the
/// rank with the most chunks needs (a collective call).
pub(in crate::phases) fn pass<R: Rules>(
    layer: &Solving<'_, R>,
    work: &mut WorkBytes,
    owned: Range<usize>,
    owners: &Owners,
    traffic: &mut Traffic,
) -> Result<(), PhaseError> {
    let (plan, lower, peers) = (layer.plan, layer.lower, layer.peers);
    let mut chunks = owned.flat_map(|b| owners::chunks(plan.range(b)).map(move |r| (b, r)));
    let mut loaded = None;
    loop {
        let next = chunks.next();
        let started = Instant::now();
        let more = peers.any(next.is_some());
        traffic.seconds += started.elapsed().as_secs_f64();
        if !more {
            break;
        }
        if let Some((b, _)) = next
            && loaded != Some(b)
        {
            if let Some(old) = loaded {
                work.save(plan, old)?;
            }
            work.load(plan, b)?;
            loaded = Some(b);
        }
        let block = next.as_ref().map(|(b, _)| layer.block(work, *b));
        let asks: Vec<Asks> = match (&block, &next) {
            (Some(block), Some((_, range))) => pieces(range.clone())
                .map(|(first, end)| block.ask(first, end, lower, owners))
                .collect(),
            _ => Vec::new(),
        };
        let started = Instant::now();
        let answers = owners.round(&asks, peers, traffic);
        traffic.seconds += started.elapsed().as_secs_f64();
        if let (Some(block), Some((_, range))) = (&block, next) {
            owners::settle(&asks, &answers, |i, exit| block.take_exit(i, exit));
            layer.observer.advanced(range.end - range.start);
        }
    }
    if let Some(old) = loaded {
        work.save(plan, old)?;
    }
    Ok(())
}

impl<R: Rules> Block<'_, R> {
    /// The first pass of positions `first..end` by the owners of the lower layers
    /// ([`crate::owners`]): each position's count of moves within the layer (work byte), and its
    /// best exit so far (value byte: a finished game's value, else none); the moves out of the
    /// layer asked of their owners.
    fn ask(&self, first: u64, end: u64, lower: &Lower<'_>, owners: &Owners) -> Asks {
        let rules = self.rules;
        let m = rules.pits();
        let n = self.index.seeds();
        let mut asks = Asks::new(owners, first..end);
        for (i, board) in (first..end).zip(self.index.iter_from(first)) {
            let pos = Position::of_board(board);
            let count = first_moves(rules, &pos, n, |seeds, child, gain, again| {
                let rank = lower.layers[seeds as usize].index().rank_on(child, m);
                asks.push(owners, seeds, rank, i, gain, again);
            });
            let best = match count {
                Some(_) => i32::from(NO_EXIT),
                None => terminal_value(rules, &pos),
            };
            self.work(i).store(count.unwrap_or(0), Relaxed);
            self.value(i).store(best as i8, Relaxed);
        }
        asks
    }
}
