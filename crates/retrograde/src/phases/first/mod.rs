//! The first pass of a layer built by phases: each position's count of moves within the layer
//! (its work byte) and best exit (its value byte: the best value among its moves that leave the
//! layer, a finished game's final value, or none), by one of three strategies, one a module:
//!
//! - `random`: the lower layers read at random, positions in rank order (they fit the memory);
//! - `tiles`: the lower layers read in tiles, each once a block and in order ([`crate::sweep`]);
//! - `owners`: a distributed build's ranks ask each lower-layer entry of the rank that holds it
//!   ([`crate::owners`]).
//!
//! All three take a position's moves through one kernel, [`first_move`] (each legal move once:
//! played, or counted where the rules can tell from its last seed that it stays in the layer),
//! and value an exit by [`granary_rules::exit_value`]: the same counts and best exits whichever
//! reads the lower layers.

use std::sync::atomic::Ordering::Relaxed;

use granary_rules::{Board, Position, Rules};

use super::block::Block;

pub(super) mod owners;
pub(super) mod random;
pub(super) mod tiles;

/// A move of the first pass: one that stays in the layer, or one that leaves it.
enum FirstMove {
    Within,
    /// Into lower layer `seeds`, at `child`, gaining `gain`, the mover moving `again` or not
    /// (its value: [`granary_rules::exit_value`] of the child's entry).
    Exit {
        seeds: u32,
        child: Board,
        gain: i32,
        again: bool,
    },
}

/// The kernel of every first pass (at random, in tiles, by owners): lane `lane` of position
/// `pos` of layer `n`, if it is a legal move.
///
/// A sowing that puts no seed in a store, and that the rules can tell from its last seed
/// captures nothing and is legal ([`Rules::quiet_sowing`]: most Oware moves), stays in the layer
/// and is not played (builds with debug assertions play it anyway and compare); any other move
/// is played ([`Rules::play_if_legal`]).
#[inline]
fn first_move<R: Rules>(rules: &R, pos: &Position, lane: usize, n: u32) -> Option<FirstMove> {
    if pos.board.pit(lane) == 0 {
        return None;
    }
    let (sown, sowing) = rules.sow_table().sow(pos.board, lane);
    if sowing.store == 0
        && let Some(quiet) = rules.quiet_sowing(pos, lane, sown, usize::from(sowing.last))
    {
        debug_assert_eq!(
            quiet,
            rules
                .play_if_legal(pos, lane)
                .is_some_and(|child| child.board.seeds(rules.pits()) == n),
            "{pos:?} lane {lane}"
        );
        return quiet.then_some(FirstMove::Within);
    }
    let child = rules.play_if_legal(pos, lane)?;
    let seeds = child.board.seeds(rules.pits());
    if seeds == n {
        return Some(FirstMove::Within); // the other player to move, in the layer
    }
    let (gain, again) = pos.move_gain(&child);
    Some(FirstMove::Exit {
        seeds,
        child: child.board,
        gain,
        again,
    })
}

/// Every move of position `pos` of layer `n` through [`first_move`]: calls `exit` for each one
/// that leaves the layer and returns how many stay in it, or `None` for a finished game (no
/// legal move).
#[inline]
fn first_moves<R: Rules>(
    rules: &R,
    pos: &Position,
    n: u32,
    mut exit: impl FnMut(u32, Board, i32, bool),
) -> Option<u8> {
    let mut legal = false;
    let mut count = 0u8;
    for lane in 0..rules.pits() {
        match first_move(rules, pos, lane, n) {
            None => continue,
            Some(FirstMove::Within) => count += 1,
            Some(FirstMove::Exit {
                seeds,
                child,
                gain,
                again,
            }) => exit(seeds, child, gain, again),
        }
        legal = true;
    }
    legal.then_some(count)
}

impl<R: Rules> Block<'_, R> {
    /// Position `q`'s best exit so far becomes `exit` if that is better (a pass that meets a
    /// position's exits apart: in tiles, by owners).
    ///
    /// One writer: while this runs, no other thread writes `q`'s value byte. The passes that
    /// call it give each position to one job: a tile's jobs hold whole groups, and a position
    /// lies in one group ([`tiles`]); a round's asks are settled a piece at a time, and a
    /// position's lines lie in its piece ([`crate::owners::settle`]). So the load, the compare
    /// and the store are one read-modify-write (`super::work`, Ordering). Not `fetch_max`: on
    /// x86 it is a loop of locked compare-and-swaps, each draining the store buffer, once for
    /// every move out of the layer of the first pass. Debug builds store by a compare-and-swap
    /// from the byte loaded, which fails if another thread wrote it in between.
    #[inline]
    fn take_exit(&self, q: u64, exit: i32) {
        let value = self.value(q);
        let best = value.load(Relaxed);
        if exit > i32::from(best) {
            if cfg!(debug_assertions) {
                let alone = value.compare_exchange(best, exit as i8, Relaxed, Relaxed);
                assert!(alone.is_ok(), "position {q}'s best exit has two writers");
            } else {
                value.store(exit as i8, Relaxed);
            }
        }
    }
}
