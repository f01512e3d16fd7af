//! Where mtaji-stage turns may start: the capture starts of a side and its takasa origins.
//!
//! Both [`crate::movegen`] (which turns are legal) and [`crate::turn`] (takasia after a turn)
//! need them; they live here so that neither module depends on the other both ways.

use granary_rules::Side;

use crate::board::{Dir, RING, ROW, is_front, opposite};
use crate::position::{Position, side_index};

/// A capture start of the mtaji stage: sowing `pit` in `dir` ends in front pit `last`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CaptureStart {
    pub pit: u8,
    pub dir: Dir,
    pub last: u8,
}

/// The mtaji-stage capture starts of `side` in `pos` (whoever is to move).
pub fn mtaji_captures(pos: &Position, side: Side) -> impl Iterator<Item = CaptureStart> + '_ {
    let mine = &pos.pits[side_index(side)];
    let theirs = &pos.pits[1 - side_index(side)];
    (0..RING as u8).flat_map(move |pit| {
        Dir::BOTH.into_iter().filter_map(move |dir| {
            let seeds = mine[usize::from(pit)];
            if !(2..=15).contains(&seeds) {
                return None;
            }
            // Fewer than 16 seeds: every pit gets at most one, the last pit exactly one.
            let last = dir.advance(pit, usize::from(seeds));
            let marker = is_front(last)
                && mine[usize::from(last)] > 0
                && theirs[usize::from(opposite(last))] > 0;
            marker.then_some(CaptureStart { pit, dir, last })
        })
    })
}

/// The mtaji-stage takasa origins of `side`: front pits of 2 or more seeds, else back pits of 2
/// or more; `blocked` (the takasia pit) left out.
#[must_use]
pub fn takasa_origins(pos: &Position, side: Side, blocked: Option<u8>) -> Vec<u8> {
    let ring = pos.half(side);
    let playable = |range: std::ops::Range<u8>| -> Vec<u8> {
        range
            .filter(|&p| ring[usize::from(p)] >= 2 && Some(p) != blocked)
            .collect()
    };
    let front = playable(0..ROW as u8);
    if front.is_empty() {
        playable(ROW as u8..RING as u8)
    } else {
        front
    }
}
