//! Don't-cares, filled: a version 3 layer with codec 3 stores, at a position whose value its
//! moves into lower layers already give, whatever entry codes best, and every read rebuilds the
//! value from the rules and the layers below (as syzygy's tables resolve captures).
//!
//! The contract, for a position `p` of layer `n` with value `v` and stored entry `e`:
//!
//! ```text
//!  p has no legal move                       e is anything; the value is the rules' (the sweep)
//!  p's moves into layers below n give at     e is anything at most g
//!  best g, and g = v
//!  otherwise                                 e = v
//! ```
//!
//! A read returns `max(e, g)` (`e` where `p` has no move into a lower layer), or the rules'
//! value where `p` has no move. This is `v` in each case: `g` is the value of one of `p`'s moves
//! and `v` the best of them, so `g <= v`. The data checksum in the header is of the values, as
//! in version 1, never of the stored entries: whatever reads the layer whole (verify, a copy in
//! memory, a compressed copy) rebuilds every entry and checks the values against it.
//!
//! Reading an entry therefore reads the entries its lower moves reach, each settled the same way
//! in its own layer ([`settle`]: alpha-beta over `max(e, g)`, the entry a lower bound, each
//! lower move read in the window where it could still raise the best so far): one read at the
//! median on awari, up to about ten at the 99th percentile (`docs/benchmarks.md`). A layer of
//! this kind is opened through its [`crate::TableSet`], which hands it the layers below it;
//! [`crate::Layer::open`] refuses it.
//!
//! The writer fills greedily, block by block: a don't-care repeats the entry before it when that
//! entry still rebuilds the value, else it holds the largest entry that does (`g`, or for a
//! position without moves the layer's largest value). Runs of equal entries are what the
//! previous-entry model of [`crate::huffman`] codes in the fewest bits.

use std::sync::{Mutex, OnceLock, PoisonError};

use granary_index::LayerIndex;
use granary_rules::{Engine, MoveSet, Position, Rules, exit_value, undo_exit};
use rayon::prelude::*;

use memmap2::MmapMut;

use crate::anon::huge_anon;
use crate::coded::Coded;
use crate::compressed::corrupt;
use crate::error::TableError;
use crate::probe::{UNBOUNDED, Values, position_value, position_value_within, terminal_value};

/// Entries rebuilt a task when a filled layer is read whole.
const RUN: usize = 1 << 16;
/// Layers of at most this many entries are rebuilt whole on their first read, by default
/// ([`crate::TableSet::with_filled_whole_entries`]): about half a second for awari's largest
/// such layer (a rebuild costs about as much as a lookup; a plain layer's limit,
/// [`crate::compressed::WHOLE_ENTRIES`], would cost seconds), after which the layers above read
/// its values directly.
pub const WHOLE_ENTRIES: u64 = 1 << 20;

/// What a position's moves say of its value before its entry is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// No legal move: the game is over, and this is its value.
    Finished(i32),
    /// The best of its moves into lower layers, `None` if it has none.
    Lower(Option<i32>),
}

impl Guarantee {
    /// The value of a position whose entry is `entry`.
    #[must_use]
    pub fn rebuild(self, entry: i8) -> i8 {
        match self {
            Guarantee::Finished(v) => v as i8,
            Guarantee::Lower(None) => entry,
            Guarantee::Lower(Some(g)) => (g as i8).max(entry),
        }
    }

    /// What a position of value `value` may store: anything without a move, at most its value
    /// where its lower moves give it, else its value.
    #[must_use]
    pub fn slack(self, value: i8) -> Slack {
        match self {
            Guarantee::Finished(_) => Slack::Any,
            Guarantee::Lower(Some(g)) if g == i32::from(value) => Slack::AtMostValue,
            Guarantee::Lower(_) => Slack::Value,
        }
    }

    /// The entry a greedy fill stores for a position of value `value` in a layer of `seeds`
    /// seeds, after the entry `prev` (`None` at a block's start): [`Slack::fill`].
    #[must_use]
    pub fn fill(self, prev: Option<i8>, value: i8, seeds: u32) -> i8 {
        self.slack(value).fill(prev, value, seeds)
    }
}

/// The entries that rebuild a position's value, all its writer needs of its guarantee once the
/// value is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slack {
    /// Only the value (a move outside the lower layers is the best, or there is no lower move).
    Value,
    /// Any entry at most the value (a move into a lower layer gives it).
    AtMostValue,
    /// Any entry (no legal move: the rules value the position).
    Any,
}

impl Slack {
    /// The entry a greedy fill stores for a position of value `value` in a layer of `seeds`
    /// seeds, after the entry `prev` (`None` at a block's start): the value where it matters,
    /// else `prev` where that rebuilds the value, else the largest entry that does.
    #[must_use]
    pub fn fill(self, prev: Option<i8>, value: i8, seeds: u32) -> i8 {
        let limit = match self {
            Slack::Any => seeds as i8,
            Slack::AtMostValue => value,
            Slack::Value => return value,
        };
        prev.map_or(limit, |p| p.min(limit))
    }
}

/// The moves of a position into layers below its own (a move set holds at most 8): each
/// child, with the mover's gain and whether the mover plays again, largest gain first.
struct LowerMoves {
    moves: [(i32, bool, Position); 8],
    count: usize,
}

impl LowerMoves {
    /// The moves among `moves` of `pos`, a position of layer `seeds`, into lower layers.
    fn of<R: Rules>(rules: &R, pos: &Position, moves: MoveSet, seeds: u32) -> LowerMoves {
        let mut lower = LowerMoves {
            moves: [(0, false, *pos); 8],
            count: 0,
        };
        for lane in moves.iter() {
            let child = rules.play(pos, lane);
            if child.board.seeds(rules.pits()) < seeds {
                let (gain, again) = pos.move_gain(&child);
                lower.moves[lower.count] = (gain, again, child);
                lower.count += 1;
            }
        }
        lower.moves[..lower.count].sort_unstable_by_key(|&(gain, _, _)| std::cmp::Reverse(gain));
        lower
    }

    fn as_slice(&self) -> &[(i32, bool, Position)] {
        &self.moves[..self.count]
    }
}

/// What the moves of `pos` (a position of layer `seeds`) guarantee, from the values of the
/// layers below, which `lower` reads.
///
/// # Errors
/// If a lower layer is missing or unusable.
pub fn guarantee<R: Rules>(
    rules: &R,
    pos: &Position,
    seeds: u32,
    lower: &dyn Values,
) -> Result<Guarantee, TableError> {
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return Ok(Guarantee::Finished(terminal_value(rules, pos)));
    }
    let mut best = None;
    for &(gain, again, child) in LowerMoves::of(rules, pos, moves, seeds).as_slice() {
        let value = exit_value(gain, again, position_value(lower, rules, &child)?);
        best = Some(best.map_or(value, |b: i32| b.max(value)));
    }
    Ok(Guarantee::Lower(best))
}

/// The value of `pos`, a position of layer `seeds` whose stored entry is `entry`, or a bound on
/// it outside the window `(alpha, beta)` (fail-soft, as [`Values::probe_within`]): `max(entry,
/// g)` (the contract) searched as alpha-beta searches a maximum, the entry first, then each
/// move into a lower layer (largest gain first) with its own window, read through `lower`.
///
/// The entry is exact or a lower bound, so a move whose child's bound already shows it gains no
/// more than the best so far costs one read: a position settles after reading its entry and
/// its lower moves' entries unless a move beats the entry, and only then reads deeper. With
/// the whole window it returns the value, as [`Guarantee::rebuild`] over [`guarantee`] does.
///
/// # Errors
/// If a lower layer is missing or unusable.
pub fn settle<R: Rules>(
    rules: &R,
    pos: &Position,
    seeds: u32,
    entry: i8,
    lower: &dyn Values,
    alpha: i32,
    beta: i32,
) -> Result<i32, TableError> {
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return Ok(terminal_value(rules, pos));
    }
    // Largest gain first: the move likeliest to be best is read first, and its value cuts the
    // others' reads short.
    let lower_moves = LowerMoves::of(rules, pos, moves, seeds);
    let mut best = i32::from(entry);
    let mut alpha = alpha;
    for (gain, again, child) in lower_moves.as_slice() {
        if best >= beta {
            break;
        }
        alpha = alpha.max(best);
        // The child's window: the values at which this move would land inside ours.
        let (a, b) = (
            undo_exit(*gain, *again, alpha),
            undo_exit(*gain, *again, beta),
        );
        let child_value = position_value_within(lower, rules, child, a.min(b), a.max(b))?;
        best = best.max(exit_value(*gain, *again, child_value));
    }
    Ok(best)
}

/// An open filled layer: its coded entries, the rules and the layers below it.
pub(crate) struct Filled {
    coded: Coded,
    rules: Engine,
    seeds: u32,
    /// The values of layers `0..seeds`.
    lower: Box<dyn Values + Send + Sync>,
    data_crc32: u32,
    /// Layers of at most this many entries are rebuilt whole on their first read.
    whole_entries: u64,
    /// The values, rebuilt whole: a small layer's on its first read, a larger one's where a
    /// reader asks for them ([`Filled::hold`]).
    whole: OnceLock<MmapMut>,
    /// Taken while a layer is rebuilt whole for [`Filled::hold`], so that it is rebuilt once.
    holding: Mutex<()>,
}

impl std::fmt::Debug for Filled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filled")
            .field("coded", &self.coded)
            .field("seeds", &self.seeds)
            .finish_non_exhaustive()
    }
}

impl Filled {
    /// A filled layer over its coded entries (opened with no whole decoding and no data
    /// checksum: its entries are not its values) and the values of layers `0..seeds` in
    /// `lower`.
    pub(crate) fn new(
        coded: Coded,
        rules: Engine,
        seeds: u32,
        lower: Box<dyn Values + Send + Sync>,
        data_crc32: u32,
        whole_entries: u64,
    ) -> Filled {
        Filled {
            coded,
            rules,
            seeds,
            lower,
            data_crc32,
            whole_entries,
            whole: OnceLock::new(),
            holding: Mutex::new(()),
        }
    }

    /// [`settle`] in this layer.
    fn settle(&self, pos: &Position, entry: i8, alpha: i32, beta: i32) -> Result<i8, TableError> {
        // Every bound settle returns is an entry or a move's value: within the layer's values.
        settle(
            &self.rules,
            pos,
            self.seeds,
            entry,
            &*self.lower,
            alpha,
            beta,
        )
        .map(|v| v as i8)
    }

    /// The value of rank `rank`, or a bound on it outside the window `(alpha, beta)`
    /// ([`Values::probe_within`]).
    pub(crate) fn value_within(
        &self,
        index: &LayerIndex,
        rank: u64,
        alpha: i32,
        beta: i32,
    ) -> Result<i8, TableError> {
        if let Some(whole) = self.held(index)? {
            return Ok(whole[rank as usize] as i8);
        }
        let entry = self.coded.value(rank)?;
        let pos = Position::of_board(index.unrank(rank));
        self.settle(&pos, entry, alpha, beta)
    }

    /// The values of ranks `first..first + out.len()`; a long range is rebuilt on rayon's
    /// threads.
    pub(crate) fn read_range(
        &self,
        index: &LayerIndex,
        first: u64,
        out: &mut [u8],
    ) -> Result<(), TableError> {
        if let Some(whole) = self.held(index)? {
            out.copy_from_slice(&whole[first as usize..first as usize + out.len()]);
            return Ok(());
        }
        self.rebuild_range(index, first, out)
    }

    /// [`Filled::read_range`] from the coded entries, whatever the layer's size.
    fn rebuild_range(
        &self,
        index: &LayerIndex,
        first: u64,
        out: &mut [u8],
    ) -> Result<(), TableError> {
        if out.len() <= RUN {
            self.coded.read_range(first, out)?;
            return self.rebuild(index, first, out);
        }
        // Runs shared among rayon's threads: a rebuild costs more than a decode.
        out.par_chunks_mut(RUN)
            .enumerate()
            .try_for_each(|(i, chunk)| {
                let at = first + (i * RUN) as u64;
                self.coded.read_range(at, chunk)?;
                self.rebuild(index, at, chunk)
            })
    }

    /// Rebuilds the values of ranks `first..` from their entries, in place.
    fn rebuild(
        &self,
        index: &LayerIndex,
        first: u64,
        entries: &mut [u8],
    ) -> Result<(), TableError> {
        for (entry, board) in entries.iter_mut().zip(index.iter_from(first)) {
            let pos = Position::of_board(board);
            *entry = self.settle(&pos, *entry as i8, -UNBOUNDED, UNBOUNDED)? as u8;
        }
        Ok(())
    }

    /// Every value, into `out`, checked against the data checksum: on this thread, or with
    /// `parallel` shared among rayon's threads.
    pub(crate) fn decode_all(
        &self,
        index: &LayerIndex,
        out: &mut [u8],
        parallel: bool,
    ) -> Result<(), TableError> {
        if parallel {
            self.rebuild_range(index, 0, out)?;
        } else {
            self.coded.read_range(0, out)?;
            self.rebuild(index, 0, out)?;
        }
        if crc32fast::hash(out) != self.data_crc32 {
            return Err(corrupt(
                self.coded.path(),
                "its rebuilt values do not match the data checksum",
            ));
        }
        Ok(())
    }

    /// The values rebuilt whole, if they are held: a small layer's (at most `whole_entries`
    /// entries), rebuilt and checked on its first read, or a layer's that [`Filled::hold`] kept.
    fn held(&self, index: &LayerIndex) -> Result<Option<&[u8]>, TableError> {
        if let Some(whole) = self.whole.get() {
            return Ok(Some(whole));
        }
        if index.size() > self.whole_entries {
            return Ok(None);
        }
        let data = self.rebuilt(index, index.size() > WHOLE_ENTRIES)?;
        Ok(Some(self.whole.get_or_init(|| data)))
    }

    /// Every value, checked against the data checksum, in memory of its own that asks for huge
    /// pages (read at random by the layers above): on this thread, or with `parallel` on
    /// rayon's.
    fn rebuilt(&self, index: &LayerIndex, parallel: bool) -> Result<MmapMut, TableError> {
        let mut data =
            huge_anon(index.size() as usize).map_err(TableError::io(self.coded.path()))?;
        self.decode_all(index, &mut data[..index.size() as usize], parallel)?;
        Ok(data)
    }

    /// Rebuilds every value on rayon's threads, checks them against the data checksum and keeps
    /// them: every later read is an index into them. A reader that holds a layer's values in
    /// memory makes the reads of the layers above it as fast as version 1 reads (a reader of
    /// every layer bottom up, a server within its memory). Reads meanwhile settle as before; a
    /// second caller waits for the first.
    pub(crate) fn hold(&self, index: &LayerIndex) -> Result<(), TableError> {
        let _one = self.holding.lock().unwrap_or_else(PoisonError::into_inner);
        if self.whole.get().is_some() {
            return Ok(());
        }
        let data = self.rebuilt(index, true)?;
        let _ = self.whole.set(data);
        Ok(())
    }

    /// Whether the values are held whole.
    pub(crate) fn holds(&self) -> bool {
        self.whole.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::Guarantee;

    /// Every case of the contract: whatever the entry before it, a greedy fill stores an entry
    /// in the layer's range that rebuilds the value, and the value itself wherever it matters.
    #[test]
    fn a_filled_entry_rebuilds_the_value_in_every_case() {
        for seeds in 0..=8u32 {
            let n = seeds as i32;
            let prevs = std::iter::once(None).chain((-n..=n).map(|p| Some(p as i8)));
            for prev in prevs {
                for value in -n..=n {
                    let v = value as i8;
                    // A finished game: any entry, the value is the rules'.
                    let stored = Guarantee::Finished(value).fill(prev, v, seeds);
                    assert!((-n..=n).contains(&i32::from(stored)));
                    assert_eq!(Guarantee::Finished(value).rebuild(stored), v);
                    // No move into a lower layer: the entry is the value.
                    assert_eq!(Guarantee::Lower(None).fill(prev, v, seeds), v);
                    assert_eq!(Guarantee::Lower(None).rebuild(v), v);
                    // A lower move guarantees g <= value: a don't-care only where g = value.
                    for g in -n..=value {
                        let guarantee = Guarantee::Lower(Some(g));
                        let stored = guarantee.fill(prev, v, seeds);
                        assert!((-n..=n).contains(&i32::from(stored)));
                        assert_eq!(guarantee.rebuild(stored), v, "g {g} prev {prev:?}");
                        if g < value {
                            assert_eq!(stored, v);
                        } else if let Some(p) = prev.filter(|&p| p <= v) {
                            assert_eq!(stored, p, "the entry before is kept where it rebuilds");
                        }
                    }
                }
            }
        }
    }
}
