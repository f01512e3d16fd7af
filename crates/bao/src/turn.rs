//! Playing one turn out: sowing, captures, relay sowing, the nyumba, and endless moves.
//!
//! A turn is a chain of sowings on the mover's ring. After each sowing the pit of its last seed
//! decides what follows ([`Turn::play_out`]):
//!
//! 1. it was empty (now holds 1 seed): the turn ends;
//! 2. in a capturing turn (one whose first sowing captured), a front pit facing a non-empty
//!    opponent pit is a capture: the opponent's seeds are taken and sown from a kichwa: the
//!    nearest one if the pit is a kimbi (A1, A2, A7, A8), else the one that keeps the direction
//!    (left kichwa when sowing clockwise). The first capture of a namua turn from a centre pit is
//!    the exception: its kichwa is the player's choice, made by the move;
//! 3. the mover's functional nyumba: a takasa turn ends there; in a capturing turn the player
//!    chooses to stop or to sow the nyumba on (then it is no longer theirs);
//! 4. otherwise relay: the pit's seeds are lifted and sown on from the next pit.
//!
//! A turn that captures the opponent's last front-row seeds ends with that capture's sowing: the
//! game is won. Sowing alone cannot loop for ever without repeating a state, and a capture only
//! removes seeds, so an endless move is detected exactly: between two captures the state (the
//! mover's half, the pit, the direction, nyumba ownership) is checked for a repeat with Brent's
//! cycle finder. Such a move is not legal.

use crate::board::{
    Dir, LEFT_KICHWA, NYUMBA, Packed, RIGHT_KICHWA, is_front, opposite, pack, relay_packed,
    seeds_at, sow, unpack,
};
use crate::moves::Move;
use crate::position::{Position, side_index};
use crate::rules::{BaoRules, NyumbaRule, TakasiaRule};
use crate::starts;

/// The sowing state that must not repeat within a move.
type Snapshot = (Packed, u8, Dir, bool);

/// Relays of at least this many sowings are remembered ([`LONG_RELAYS`]).
const LONG_RELAY: u64 = 10_000;
/// Long relays remembered a thread before the memory is cleared.
const LONG_RELAYS_KEPT: usize = 100_000;

/// A takasa relay's start: the mover's half, the pit, the direction, nyumba ownership, and
/// whether the rules have a nyumba.
type RelayStart = (Packed, u8, Dir, bool, bool);
/// Its end: the half, the pit, ownership and why it stopped; `None` if it never ends.
type RelayEnd = Option<(Packed, u8, bool, Stop)>;

thread_local! {
    /// The ends of long takasa relays seen by this thread. Some Bao la kujifunza relays run
    /// hundreds of millions of sowings before they repeat (one measured: a cycle of 146,722,351
    /// sowings, found after 415,157,807), and a search meets the same half many times.
    static LONG_RELAYS: std::cell::RefCell<std::collections::HashMap<RelayStart, RelayEnd>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Why a relay stops.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stop {
    /// The last seed fell into an empty pit.
    Empty,
    /// A capture (capturing turns only).
    Capture,
    /// The mover's functional nyumba.
    Nyumba,
}

/// Brent's cycle finder over the states of one deterministic run of sowings.
#[derive(Clone, Debug)]
struct CycleFinder {
    saved: Option<Snapshot>,
    power: u64,
    steps: u64,
    total: u64,
}

impl CycleFinder {
    const fn new() -> CycleFinder {
        CycleFinder {
            saved: None,
            power: 1,
            steps: 0,
            total: 0,
        }
    }

    /// Whether nothing has been watched yet.
    const fn fresh(&self) -> bool {
        self.saved.is_none() && self.total == 0
    }

    /// States watched since the last reset.
    const fn steps_seen(&self) -> u64 {
        self.total
    }

    /// Whether `now` repeats a state of this run (reported within two cycle lengths of the repeat).
    fn repeats(&mut self, now: Snapshot) -> bool {
        if self.saved == Some(now) {
            return true;
        }
        self.total += 1;
        self.steps += 1;
        if self.steps == self.power {
            self.saved = Some(now);
            self.power *= 2;
            self.steps = 0;
        }
        false
    }
}

/// A turn being played.
#[derive(Clone, Debug)]
pub(crate) struct Turn<'r> {
    rules: &'r BaoRules,
    pos: Position,
    me: usize,
    opp: usize,
    /// Pit of the last seed sown.
    at: u8,
    dir: Dir,
    /// A capturing (mtaji) turn, as opposed to a takasa turn.
    capturing: bool,
    /// The turn began in the mtaji stage (no seeds in hand).
    mtaji_stage: bool,
    mv: Move,
    cycle: CycleFinder,
}

impl<'r> Turn<'r> {
    /// A turn of the player to move in `pos`, before anything is done.
    pub(crate) fn new(rules: &'r BaoRules, pos: &Position, mv: Move, capturing: bool) -> Turn<'r> {
        let me = side_index(pos.to_move);
        Turn {
            rules,
            pos: *pos,
            me,
            opp: 1 - me,
            at: mv.pit,
            dir: Dir::Clockwise,
            capturing,
            mtaji_stage: pos.hands[me] == 0,
            mv,
            cycle: CycleFinder::new(),
        }
    }

    /// Namua: one seed from the hand into `pit`.
    pub(crate) fn place_from_hand(&mut self, pit: u8) {
        self.pos.hands[self.me] -= 1;
        self.pos.pits[self.me][usize::from(pit)] += 1;
        self.at = pit;
    }

    /// Lifts `seeds` seeds from `pit` (all of them if `None`) and sows them on from the next pit
    /// in `dir`. Lifting all seeds of one's nyumba gives it up.
    pub(crate) fn lift_and_sow(&mut self, pit: u8, dir: Dir, seeds: Option<u8>) {
        let ring = &mut self.pos.pits[self.me];
        let all = ring[usize::from(pit)];
        let n = seeds.unwrap_or(all);
        ring[usize::from(pit)] = all - n;
        if pit == NYUMBA && n == all {
            self.pos.nyumba[self.me] = false;
        }
        self.dir = dir;
        self.at = sow(ring, dir.step(pit), dir, n);
    }

    /// Captures the opponent's pit facing `self.at` and sows its seeds from `kichwa` in `dir`.
    /// Returns true when the opponent's front row is now empty (the game is won).
    pub(crate) fn capture(&mut self, kichwa: u8, dir: Dir) -> bool {
        let facing = opposite(self.at);
        let seeds = std::mem::take(&mut self.pos.pits[self.opp][usize::from(facing)]);
        debug_assert!(seeds > 0);
        if facing == NYUMBA {
            self.pos.nyumba[self.opp] = false;
        }
        self.dir = dir;
        self.at = sow(&mut self.pos.pits[self.me], kichwa, dir, seeds);
        self.cycle = CycleFinder::new();
        self.pos.pits[self.opp][..crate::board::ROW]
            .iter()
            .all(|&s| s == 0)
    }

    /// The kichwa and direction for a capture at `at` when no choice is offered.
    pub(crate) const fn forced_kichwa(at: u8, dir: Dir) -> (u8, Dir) {
        match at {
            0 | 1 => (LEFT_KICHWA, Dir::Clockwise),
            6 | 7 => (RIGHT_KICHWA, Dir::Anticlockwise),
            _ => match dir {
                Dir::Clockwise => (LEFT_KICHWA, Dir::Clockwise),
                Dir::Anticlockwise => (RIGHT_KICHWA, Dir::Anticlockwise),
            },
        }
    }

    /// The first capture of a namua turn, from the kichwa given, then the rest of the turn.
    pub(crate) fn capture_and_play_out(
        mut self,
        kichwa: u8,
        dir: Dir,
        out: &mut Vec<(Move, Position)>,
    ) {
        if self.capture(kichwa, dir) {
            out.push(self.finish());
        } else {
            self.play_out(out);
        }
    }

    /// Follows the turn to every end it can have (two when the player may stop in the nyumba),
    /// pushing each finished move and its position; an endless branch pushes nothing.
    pub(crate) fn play_out(mut self, out: &mut Vec<(Move, Position)>) {
        loop {
            let Some(stop) = self.relay() else {
                return;
            };
            match stop {
                Stop::Empty => break,
                Stop::Capture => {
                    let (kichwa, dir) = Self::forced_kichwa(self.at, self.dir);
                    if self.capture(kichwa, dir) {
                        break;
                    }
                }
                Stop::Nyumba => {
                    if !self.capturing {
                        break;
                    }
                    let mut stop = self.clone();
                    stop.mv.stop = true;
                    out.push(stop.finish());
                    self.lift_and_sow(self.at, self.dir, None);
                }
            }
        }
        out.push(self.finish());
    }

    /// Relay-sows on the packed half until the last seed needs more than a relay; `None` if the
    /// state repeats first (an endless move).
    fn relay(&mut self) -> Option<Stop> {
        // A takasa relay depends on the mover's half alone: long ones are remembered.
        let key = (!self.capturing && self.cycle.fresh()).then(|| {
            (
                pack(&self.pos.pits[self.me]),
                self.at,
                self.dir,
                self.pos.nyumba[self.me],
                self.rules.has_nyumba(),
            )
        });
        if let Some(key) = key
            && let Some(known) = LONG_RELAYS.with(|m| m.borrow().get(&key).copied())
        {
            let (ring, at, owned, stop) = known?;
            self.pos.pits[self.me] = unpack(ring);
            (self.at, self.pos.nyumba[self.me]) = (at, owned);
            return Some(stop);
        }
        let result = self.relay_uncached();
        if let Some(key) = key
            && self.cycle.steps_seen() >= LONG_RELAY
        {
            let known = result.map(|stop| {
                (
                    pack(&self.pos.pits[self.me]),
                    self.at,
                    self.pos.nyumba[self.me],
                    stop,
                )
            });
            LONG_RELAYS.with(|m| {
                let mut m = m.borrow_mut();
                if m.len() >= LONG_RELAYS_KEPT {
                    m.clear();
                }
                m.insert(key, known);
            });
        }
        result
    }

    fn relay_uncached(&mut self) -> Option<Stop> {
        let mut ring = pack(&self.pos.pits[self.me]);
        let theirs = self.pos.pits[self.opp];
        let nyumba_rules = self.rules.has_nyumba();
        let stop = loop {
            let owned = self.pos.nyumba[self.me];
            if self.cycle.repeats((ring, self.at, self.dir, owned)) {
                return None;
            }
            let here = seeds_at(ring, self.at);
            if here == 1 {
                break Stop::Empty;
            }
            if self.capturing && is_front(self.at) && theirs[usize::from(opposite(self.at))] > 0 {
                break Stop::Capture;
            }
            if self.at == NYUMBA && nyumba_rules && owned && here >= 6 {
                break Stop::Nyumba;
            }
            if self.at == NYUMBA {
                // Lifting every seed of one's nyumba gives it up.
                self.pos.nyumba[self.me] = false;
            }
            (ring, self.at) = relay_packed(ring, self.at, self.dir);
        };
        self.pos.pits[self.me] = unpack(ring);
        Some(stop)
    }

    /// The position after the turn, with the opponent to move.
    fn finish(self) -> (Move, Position) {
        let rules = self.rules;
        let mut pos = self.pos;
        match rules.nyumba {
            NyumbaRule::BelowSix => {
                for s in 0..2 {
                    if pos.pits[s][usize::from(NYUMBA)] < 6 {
                        pos.nyumba[s] = false;
                    }
                }
            }
            NyumbaRule::Namua if pos.hands[self.me] == 0 => pos.nyumba[self.me] = false,
            _ => {}
        }
        pos.to_move = pos.to_move.other();
        pos.takasia = None;
        if rules.takasia == TakasiaRule::Kiba && self.mtaji_stage && !self.capturing {
            pos.takasia = takasia_after(rules, &pos);
        }
        (self.mv, pos)
    }
}

/// The pit takasia forbids the player to move in `pos` to lift, if the opponent's turn that led
/// here was a takasa of the mtaji stage (KIBA mtaji 5): the opponent's possible captures now
/// threaten exactly one of this player's pits, this player cannot capture (so must takasa), and
/// that pit is neither their owned nyumba nor the only pit they could play.
#[must_use]
pub fn takasia_after(rules: &BaoRules, pos: &Position) -> Option<u8> {
    let me = pos.to_move;
    let mover = side_index(me);
    if pos.hands[mover] > 0 || starts::mtaji_captures(pos, me).next().is_some() {
        return None;
    }
    let mut threatened = starts::mtaji_captures(pos, me.other()).map(|c| opposite(c.last));
    let pit = threatened.next()?;
    if threatened.any(|p| p != pit) {
        return None;
    }
    if rules.has_nyumba() && pos.nyumba[mover] && pit == NYUMBA {
        return None;
    }
    let origins = starts::takasa_origins(pos, me, None);
    // A pit that could not be lifted anyway (one seed) is not marked, so that equal positions
    // are written alike.
    if origins.as_slice() == [pit] || !origins.contains(&pit) {
        return None;
    }
    Some(pit)
}
