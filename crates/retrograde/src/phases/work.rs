//! The work byte: one a position of the block being solved, its state in the phases and, once
//! resolved, its value; and why `Relaxed` atomics are enough for it.
//!
//! # Layout
//! Bits 7 and 6 tell a byte's state; the other bits are the fields of that state. Each constant
//! names one field of one state:
//!
//! ```text
//!   bit         7    6               5          4        3..0
//!   unresolved  0    0               EXIT_LOW   PLAYED   COUNT
//!   pending     0    1 (PENDING)     0          0        000 PENDING_LOSS
//!   resolved    1    RESOLVED_LOSS   MAGNITUDE: the magnitude less one (6 bits)
//! ```
//!
//! - `COUNT`: the moves within the layer not yet known to lead to a positive position.
//! - `EXIT_LOW`: the best exit is at most `-t` (set by phase `t`'s scan, or before the first
//!   phase where there is no exit, and true in every later phase), so that a parent whose last
//!   move is refuted needs no read of its value byte.
//! - `PLAYED`: only during a first pass in tiles: some legal move was played (the others are
//!   finished games); clear once it is over.
//! - Pending: resolved in this phase `t` when the resolving thread's stack was full, worth `t`,
//!   or `-t` with `PENDING_LOSS`; it is propagated before the block is saved
//!   (`Block::finish_pending`), so no pending byte outlives its block's turn in the phase.
//! - Resolved: worth `m`, or `-m` with `RESOLVED_LOSS`; `MAGNITUDE` holds `m - 1` (a magnitude
//!   is at most 64, the most seeds a layer holds).
//!
//! Bit 6 is `PENDING` where bit 7 is clear and `RESOLVED_LOSS` where it is set; bit 0 is part of
//! `COUNT` in an unresolved byte and `PENDING_LOSS` in a pending one. So a byte's state is read
//! first, and a field only in its state: the sign bits are read only here ([`resolved`],
//! [`pending_value`], [`VALUE_OF`]). The unresolved and resolved bytes are kept in checkpoints
//! (`crate::resume`) and the resolved ones become the layer's values: their bits are fixed. The
//! values are written from the work bytes once, in order, after the last phase ([`values_of`]),
//! as the layer's file is written.
//!
//! # Ordering
//! Every access to a work byte, and to a value byte, is `Relaxed`. A layer is solved in
//! *passes*, run one after the other by the calling thread:
//! - the first pass ([`super::first`]): pieces of ranks (at random, by owners: asking, then
//!   [`crate::owners::settle`]); in tiles, pieces, one parallel loop over the groups a tile,
//!   pieces again;
//! - `Block::mark_no_exits`, once, before the phases;
//! - in each phase, for each block: `Block::scan`, `Block::apply` (once a batch of messages),
//!   `Block::finish_pending` (a round while positions are left pending);
//! - [`values_of`], after the last phase, on the calling thread alone.
//!
//! A pass is one rayon parallel loop or one `rayon::scope`, and its call returns only once every
//! job of it has finished, the jobs spawned into the scope included (`Block::share`). Between
//! two passes only the calling thread touches the bytes (loading and saving a block, a
//! checkpoint, the lists of exits).
//!
//! **Between passes.** Rayon hands a job to a thread through its deques and signals its end
//! through a latch, and both synchronize (release, then acquire): whatever the calling thread
//! did before a pass happens-before every job of the pass, and every job happens-before the
//! return of the call that ran the pass (the join). So every write of a pass happens-before
//! every access of a later pass, and a `Relaxed` load reads that write or a later one (write-read
//! coherence). Nothing written in an earlier pass needs a stronger ordering.
//!
//! **Within a pass.** Threads communicate through a byte only its own value: no thread reads
//! other memory on the strength of a work byte it loaded (a position's board is unranked, or
//! carried on the thread's own stack; a share of a stack reaches another thread through
//! `Scope::spawn`, which synchronizes; the value bytes are written in the first pass only). So
//! only the order of the accesses to each byte matters, and every ordering, `Relaxed` included,
//! gives it: the writes to one atomic have one modification order, and a read-modify-write reads
//! the write just before its own in it. A pass accesses the bytes in one of two ways:
//! - *One writer a position*: the first pass and `mark_no_exits`. The positions are split among
//!   the jobs (pieces of ranks, the groups of a tile, the pieces of a round of asks) so that one
//!   job writes a position's bytes and no other job of the pass reads or writes them: a load,
//!   then a store, is then an exact read-modify-write, with no race at all (checked in debug
//!   builds: `Block::take_exit`, the groups of a tile, the pieces of a round).
//! - *Many writers*: the passes of a phase, whose threads inform parents anywhere in the block.
//!   Every change of an unresolved byte is one compare-and-swap from the byte it read
//!   (`Block::change`), and none changes a settled (pending or resolved) byte. So each inform
//!   takes one move off `COUNT`, and exactly one compare-and-swap makes a byte settled: the one
//!   that resolves it, whose thread alone queues the position (or leaves it pending). The scan's
//!   `EXIT_LOW` and the last refutation of a position's moves may come from two threads in
//!   either order: whichever is later in the byte's modification order sees the other's bits and
//!   resolves the position. A pending byte is then changed only by `finish_pending`, by the one
//!   thread whose piece holds it: it loaded the pending byte, so its store follows the
//!   compare-and-swap that made it pending, and no write can come between.
//!
//! The races that remain are benign. The scan's load that skips a settled position may read an
//! older, unresolved byte: the compare-and-swap after it reads the settled one and changes nothing
//! (and a byte once settled stays settled, so a skip is never wrong). `finish_pending`'s load may
//! miss a position that another thread of the round leaves pending after it: that thread also sets
//! the block's `pending` flag, read after the round's join, and another round runs. The loads of a
//! block's `waiting` and `at_work` choose only which thread informs which parents; the informs
//! commute, and the bytes come out the same.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use granary_rules::board::MAX_PITS;

/// An unresolved byte's count of moves within the layer not yet refuted.
pub(super) const COUNT: u8 = 0x0f;
/// An unresolved byte's mark, during a first pass in tiles, that some legal move was played.
pub(super) const PLAYED: u8 = 0x10;
/// An unresolved byte's mark that the best exit is at most `-t` in phase `t`.
pub(super) const EXIT_LOW: u8 = 0x20;
/// The state of a byte whose bits 7 and 6 are `01`: resolved in this phase, not yet propagated.
const PENDING: u8 = 0x40;
/// The state bit of a resolved byte.
const RESOLVED: u8 = 0x80;
/// The bits that tell a byte's state: none set, it is unresolved; else settled (pending or
/// resolved), its value known.
const SETTLED: u8 = RESOLVED | PENDING;
/// A resolved byte's sign: its value is negative.
const RESOLVED_LOSS: u8 = 0x40;
/// A resolved byte's magnitude less one.
const MAGNITUDE: u8 = 0x3f;
/// A pending byte's sign: its value is `-t`.
const PENDING_LOSS: u8 = 0x01;

const _: () = {
    // Each state's fields lie apart from each other and from the bits that tell the state.
    assert!(COUNT & PLAYED == 0 && (COUNT | PLAYED) & EXIT_LOW == 0);
    assert!((COUNT | PLAYED | EXIT_LOW) & SETTLED == 0);
    assert!(PENDING_LOSS & SETTLED == 0);
    assert!(RESOLVED_LOSS & RESOLVED == 0 && MAGNITUDE & (RESOLVED | RESOLVED_LOSS) == 0);
    // A position's moves within the layer fit `COUNT`; the magnitudes up to 64 fit `MAGNITUDE`.
    assert!(MAX_PITS <= COUNT as usize && MAGNITUDE == 63);
};

/// Whether work byte `w` is settled: pending or resolved, its value known.
#[inline]
pub(super) fn settled(w: u8) -> bool {
    w & SETTLED != 0
}

/// The value of work byte `w` in phase `t` if it is pending (`t` or `-t`), else `None`.
#[inline]
pub(super) fn pending_value(w: u8, t: i8) -> Option<i8> {
    (w & SETTLED == PENDING).then_some(if w & PENDING_LOSS != 0 { -t } else { t })
}

/// The work byte of a position resolved as `value` (`t` or `-t`) in phase `t`: resolved, or
/// pending if it is not propagated at once (no `room` on the thread's stack).
#[inline]
pub(super) fn resolved(value: i8, room: bool) -> u8 {
    let loss = value < 0;
    let m = value.unsigned_abs();
    debug_assert!((1..=MAGNITUDE + 1).contains(&m), "a magnitude of 1..=64");
    if room {
        RESOLVED | if loss { RESOLVED_LOSS } else { 0 } | (m - 1)
    } else {
        PENDING | if loss { PENDING_LOSS } else { 0 }
    }
}

/// The value of a position of work byte `w` after the last phase: a resolved position's, 0 for
/// one never resolved (endless play). A table of the 256 bytes.
const VALUE_OF: [i8; 256] = {
    let mut table = [0i8; 256];
    let mut w = 0;
    while w < 256 {
        let w8 = w as u8;
        if w8 & RESOLVED != 0 {
            let m = (w8 & MAGNITUDE) as i8 + 1;
            table[w] = if w8 & RESOLVED_LOSS != 0 { -m } else { m };
        }
        w += 1;
    }
    table
};

/// The values of positions from their work bytes after the last phase: `out[k]` from
/// `work[k]` ([`VALUE_OF`]; `work` at least as long as `out`). Once no pass runs.
pub(crate) fn values_of(work: &[AtomicU8], out: &mut [u8]) {
    for (v, w) in out.iter_mut().zip(work) {
        let w = w.load(Relaxed);
        debug_assert!(
            w & SETTLED != PENDING,
            "every pending position is propagated"
        );
        *v = VALUE_OF[usize::from(w)] as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A resolved byte gives back its value, a pending one its value in its phase; the bytes
    /// are those of the checkpoints and the values (bits 7 and 6, then the magnitude less one).
    #[test]
    fn a_resolved_or_pending_byte_gives_back_its_value() {
        for t in 1..=64i8 {
            for value in [t, -t] {
                let w = resolved(value, true);
                assert!(settled(w));
                assert_eq!(pending_value(w, t), None);
                assert_eq!(VALUE_OF[usize::from(w)], value);
                let sign = if value < 0 { 0x40 } else { 0 };
                assert_eq!(w, 0x80 | sign | (t as u8 - 1), "value {value}");
                let p = resolved(value, false);
                assert!(settled(p));
                assert_eq!(pending_value(p, t), Some(value));
            }
        }
        // Unresolved bytes, whatever their fields hold, are worth 0 and settled in no way.
        for w in 0..=(COUNT | PLAYED | EXIT_LOW) {
            assert!(!settled(w));
            assert_eq!(pending_value(w, 5), None);
            assert_eq!(VALUE_OF[usize::from(w)], 0);
        }
    }
}
