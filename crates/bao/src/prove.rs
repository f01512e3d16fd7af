//! A proof search: is the position a forced win or loss within `depth` moves?
//!
//! Bao has no draws: a player to move with an empty front row or no legal move has lost. The
//! search is a depth-limited AND/OR search (alpha-beta on the values win/loss/unknown) with
//! iterative deepening, so the first depth that proves a win gives the shortest win. A
//! transposition table keeps proven results (exact at any depth) and the depth to which a
//! position is known to be unproven.
//!
//! Contract of [`Prover::search`]: `Win(k)`: the player to move wins in at most `k` of their own
//! and the opponent's moves together (plies) whatever the opponent does; `Loss(k)`: every move
//! loses within `k` plies; `Unknown`: neither is proven within the depth searched.

use std::collections::HashMap;

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::BaoRules;

/// What a search proved for the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proof {
    /// A win within this many plies.
    Win(u32),
    /// A loss within this many plies whatever is played.
    Loss(u32),
    /// Nothing proven within the depth.
    Unknown,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
enum Known {
    Proven(Proof),
    /// Unproven to this depth.
    Open(u32),
}

/// A map keyed by positions, as the proof searches keep them (here and [`crate::pns`]): hashed
/// by Fx (`rustc-hash`), as the default SipHash spends more than the search on positions; the
/// same hashes every run.
pub type PositionMap<V> = HashMap<Position, V, rustc_hash::FxBuildHasher>;

/// Entries kept before the table is cleared (each a few dozen bytes).
const TABLE_LIMIT: usize = 20_000_000;

/// The searcher, with its table and node count.
#[derive(Debug)]
pub struct Prover<'r> {
    rules: &'r BaoRules,
    table: PositionMap<Known>,
    /// Positions whose moves were generated.
    pub nodes: u64,
}

impl<'r> Prover<'r> {
    #[must_use]
    pub fn new(rules: &'r BaoRules) -> Prover<'r> {
        Prover {
            rules,
            table: HashMap::default(),
            nodes: 0,
        }
    }

    /// Proves `pos` by iterative deepening up to `depth` plies; `progress` hears each depth done.
    pub fn prove(
        &mut self,
        pos: &Position,
        depth: u32,
        mut progress: impl FnMut(u32, Proof),
    ) -> Proof {
        for d in 1..=depth {
            let proof = self.search(pos, d);
            progress(d, proof);
            if proof != Proof::Unknown {
                return proof;
            }
        }
        Proof::Unknown
    }

    /// The search of one depth (see the module's contract).
    pub fn search(&mut self, pos: &Position, depth: u32) -> Proof {
        match self.table.get(pos) {
            Some(Known::Proven(p)) => return *p,
            Some(Known::Open(d)) if *d >= depth => return Proof::Unknown,
            _ => {}
        }
        self.nodes += 1;
        let moves = legal_moves(self.rules, pos);
        if moves.is_empty() {
            return self.store(pos, Known::Proven(Proof::Loss(0)));
        }
        if depth == 0 {
            return Proof::Unknown;
        }
        let mut longest_loss = 0;
        let mut open = false;
        for (_, child) in Self::ordered(moves) {
            match self.search(&child, depth - 1) {
                Proof::Loss(k) => return self.store(pos, Known::Proven(Proof::Win(k + 1))),
                Proof::Win(k) => longest_loss = longest_loss.max(k + 1),
                Proof::Unknown => open = true,
            }
        }
        if open {
            self.store(pos, Known::Open(depth))
        } else {
            self.store(pos, Known::Proven(Proof::Loss(longest_loss)))
        }
    }

    /// Children where the opponent (to move there) has the fewest front-row seeds first: the
    /// nearest to an empty front row, the way most games are won.
    fn ordered(mut moves: Vec<(Move, Position)>) -> Vec<(Move, Position)> {
        moves.sort_by_key(|(_, c)| c.front_seeds(c.to_move));
        moves
    }

    fn store(&mut self, pos: &Position, known: Known) -> Proof {
        if matches!(known, Known::Open(d) if d < 2) {
            // Most open positions are near the leaves and cheap to search again.
            return Proof::Unknown;
        }
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        self.table.insert(*pos, known);
        match known {
            Known::Proven(p) => p,
            Known::Open(_) => Proof::Unknown,
        }
    }

    /// The moves of a proven line from `pos`: the winner's fastest win, the loser's longest
    /// defence, to the end of the game.
    pub fn principal_variation(&mut self, pos: &Position) -> Vec<(Move, Position)> {
        let mut line = Vec::new();
        let mut pos = *pos;
        loop {
            let proof = self.search(&pos, 0);
            let next = match proof {
                Proof::Win(k) => legal_moves(self.rules, &pos)
                    .into_iter()
                    .find(|(_, c)| matches!(self.search(c, k - 1), Proof::Loss(j) if j < k)),
                Proof::Loss(k) if k > 0 => legal_moves(self.rules, &pos)
                    .into_iter()
                    .find(|(_, c)| self.search(c, k - 1) == Proof::Win(k - 1)),
                _ => None,
            };
            let Some((mv, child)) = next else {
                return line;
            };
            line.push((mv, pos));
            pos = child;
        }
    }
}
