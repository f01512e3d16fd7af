//! A plain reference implementation of Kalah and Oware, written for clarity, not speed.
//!
//! It shares nothing with the packed engine: the board is South's and North's pits as plain
//! vectors in absolute orientation, and seeds are sown one at a time round a list of places. Tests
//! play the two side by side and require the same result at every ply.

use crate::kalah::{Capture, Sweep};
use crate::oware::OwareRules;
use crate::side::Side;
use crate::variant::Game;

/// A position in plain arrays: `pits[0]` is South's row, `pits[1]` North's, each from its first pit.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPosition {
    pub pits: [Vec<u32>; 2],
    /// `[south, north]`.
    pub stores: [u32; 2],
    pub to_move: Side,
}

fn index(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 1,
    }
}

/// A place seeds can be sown into.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Spot {
    Pit(Side, usize),
    Store(Side),
}

/// The reference rules of one game.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    pub game: Game,
    pub pits: usize,
    /// Oware only: the game ends when a store holds more than half of all seeds.
    pub majority_ends: bool,
}

impl Reference {
    #[must_use]
    pub fn new(game: Game, pits: usize) -> Reference {
        Reference {
            game,
            pits,
            majority_ends: true,
        }
    }

    /// The start position with `seeds` in every pit.
    #[must_use]
    pub fn start(&self, seeds: u32) -> RefPosition {
        RefPosition {
            pits: [vec![seeds; self.pits], vec![seeds; self.pits]],
            stores: [0, 0],
            to_move: Side::South,
        }
    }

    /// The places counter-clockwise, starting at South's first pit, as the mover sows them.
    fn circle(&self, mover: Side) -> Vec<Spot> {
        let mut circle = Vec::new();
        for side in [Side::South, Side::North] {
            for pit in 0..self.pits {
                circle.push(Spot::Pit(side, pit));
            }
            let is_kalah = matches!(self.game, Game::Kalah { .. });
            if is_kalah && side == mover {
                circle.push(Spot::Store(side));
            }
        }
        circle
    }

    fn seeds_on(pos: &RefPosition, side: Side) -> u32 {
        pos.pits[index(side)].iter().sum()
    }

    fn total(pos: &RefPosition) -> u32 {
        Self::seeds_on(pos, Side::South)
            + Self::seeds_on(pos, Side::North)
            + pos.stores[0]
            + pos.stores[1]
    }

    /// Sows pit `pit` (0-based) of the mover; returns the new position (mover unchanged) and
    /// where the last seed fell.
    fn sow(&self, pos: &RefPosition, pit: usize) -> (RefPosition, Spot) {
        let mover = pos.to_move;
        let mut next = pos.clone();
        let circle = self.circle(mover);
        let origin = Spot::Pit(mover, pit);
        let mut at = circle.iter().position(|&s| s == origin).unwrap();
        let mut hand = next.pits[index(mover)][pit];
        next.pits[index(mover)][pit] = 0;
        let skip_origin = matches!(self.game, Game::Oware { .. });
        let mut last = origin;
        while hand > 0 {
            at = (at + 1) % circle.len();
            if skip_origin && circle[at] == origin {
                continue;
            }
            match circle[at] {
                Spot::Pit(side, p) => next.pits[index(side)][p] += 1,
                Spot::Store(side) => next.stores[index(side)] += 1,
            }
            last = circle[at];
            hand -= 1;
        }
        (next, last)
    }

    /// The legal moves, as 0-based pits of the mover, lowest first; empty when the game is over.
    #[must_use]
    pub fn legal_moves(&self, pos: &RefPosition) -> Vec<usize> {
        let mover = pos.to_move;
        let opponent = mover.other();
        let nonempty: Vec<usize> = (0..self.pits)
            .filter(|&p| pos.pits[index(mover)][p] > 0)
            .collect();
        match self.game {
            Game::Kalah { .. } => {
                if Self::seeds_on(pos, mover) == 0 || Self::seeds_on(pos, opponent) == 0 {
                    Vec::new()
                } else {
                    nonempty
                }
            }
            Game::Oware { rules } => {
                if self.majority_ends && self.majority(pos) {
                    return Vec::new();
                }
                let feeds = |&p: &usize| {
                    let after = self.play(pos, p);
                    Self::seeds_on(&after, opponent) > 0
                };
                let feeding: Vec<usize> = nonempty.iter().copied().filter(feeds).collect();
                match rules {
                    // Under abapa a move can only starve an opponent who had no seeds before it.
                    OwareRules::Abapa => feeding,
                    OwareRules::Awari if feeding.is_empty() => nonempty,
                    OwareRules::Awari => feeding,
                }
            }
        }
    }

    fn majority(&self, pos: &RefPosition) -> bool {
        let total = Self::total(pos);
        pos.stores.iter().any(|&s| 2 * s > total)
    }

    /// Plays 0-based pit `pit` of the mover.
    #[must_use]
    pub fn play(&self, pos: &RefPosition, pit: usize) -> RefPosition {
        let mover = pos.to_move;
        let opponent = mover.other();
        let (mut next, last) = self.sow(pos, pit);
        match self.game {
            Game::Kalah { capture, .. } => {
                if last == Spot::Store(mover) {
                    return next; // another move
                }
                if let Spot::Pit(side, p) = last {
                    let opposite = self.pits - 1 - p;
                    let facing = next.pits[index(opponent)][opposite];
                    let own_empty_before = side == mover && next.pits[index(mover)][p] == 1;
                    let captures = match capture {
                        Capture::Empty => true,
                        Capture::Standard => facing > 0,
                    };
                    if own_empty_before && captures {
                        next.stores[index(mover)] += 1 + facing;
                        next.pits[index(mover)][p] = 0;
                        next.pits[index(opponent)][opposite] = 0;
                    }
                }
            }
            Game::Oware { rules } => {
                if let Spot::Pit(side, p) = last
                    && side == opponent
                {
                    let row = &next.pits[index(opponent)];
                    let mut first = p + 1;
                    while first > 0 && (row[first - 1] == 2 || row[first - 1] == 3) {
                        first -= 1;
                    }
                    let taken: u32 = row[first..=p].iter().sum();
                    let left: u32 = row.iter().sum::<u32>() - taken;
                    let grand_slam = left == 0;
                    let allowed = !(grand_slam && rules == OwareRules::Abapa);
                    if taken > 0 && allowed {
                        next.stores[index(mover)] += taken;
                        for pit in first..=p {
                            next.pits[index(opponent)][pit] = 0;
                        }
                    }
                }
            }
        }
        next.to_move = opponent;
        next
    }

    /// The final stores `[south, north]` when the game is over.
    #[must_use]
    pub fn outcome(&self, pos: &RefPosition) -> Option<[u32; 2]> {
        if let Game::Oware { .. } = self.game
            && self.majority_ends
            && self.majority(pos)
        {
            return Some(pos.stores);
        }
        if !self.legal_moves(pos).is_empty() {
            return None;
        }
        let south = Self::seeds_on(pos, Side::South);
        let north = Self::seeds_on(pos, Side::North);
        let [s, n] = pos.stores;
        Some(match self.game {
            Game::Kalah {
                sweep: Sweep::Emptied,
                ..
            } => {
                if south == 0 {
                    [s + south + north, n]
                } else {
                    [s, n + south + north]
                }
            }
            _ => [s + south, n + north],
        })
    }

    /// The number of move sequences of exactly `depth` moves.
    #[must_use]
    pub fn perft(&self, pos: &RefPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves(pos)
            .into_iter()
            .map(|p| self.perft(&self.play(pos, p), depth - 1))
            .sum()
    }
}
