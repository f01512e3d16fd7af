//! Proof-number search (Allis, 1994): best-first, for a win of the player to move at the root.
//!
//! The search tree is explicit. Each node has a proof number (how many leaves at least must be
//! proven to prove it a win for the root's player) and a disproof number; an OR node is one
//! where the root's player moves (one child proven suffices), an AND node one where the
//! opponent moves (every child must be). The most-proving leaf is reached by following the
//! child of least proof number at OR nodes and of least disproof number at AND nodes; it is
//! expanded (all its moves generated) and the numbers are updated back to the root. A player
//! to move without a legal move has lost (Bao has no draws). Proven and disproven positions are
//! remembered across transpositions. No depth limit: the search stops when the root is decided
//! or the node budget is spent.

use std::collections::HashMap;

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::prove::PositionMap;
use crate::rules::BaoRules;

const INFINITE: u32 = u32::MAX / 2;

#[derive(Clone, Debug)]
struct Node {
    pos: Position,
    mv: Option<Move>,
    parent: u32,
    /// Children are `first..first + count` in the node vector, once expanded.
    first: u32,
    count: u32,
    expanded: bool,
    /// The root's player is to move here.
    or_node: bool,
    pn: u32,
    dn: u32,
}

/// What the search decided for the player to move at the root.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Win,
    Loss,
    /// The node budget ran out first.
    Unknown,
}

/// A finished search: the verdict, the winning first move if any, the nodes used.
#[derive(Clone, Debug)]
pub struct PnsResult {
    pub verdict: Verdict,
    pub best: Option<Move>,
    /// A line of the proof: the winner's proving moves and the loser's replies, as far as the
    /// tree holds it (positions before each move).
    pub line: Vec<(Move, Position)>,
    pub nodes: usize,
    /// For a win: the winning strategy, every position of the proof where the winner moves
    /// with the move it plays there (for an independent check of the proof).
    pub strategy: PositionMap<Move>,
}

/// Searches `pos` with at most `budget` tree nodes.
#[must_use]
pub fn search(rules: &BaoRules, pos: &Position, budget: usize) -> PnsResult {
    let mut tree = Tree {
        rules,
        nodes: vec![Node {
            pos: *pos,
            mv: None,
            parent: u32::MAX,
            first: 0,
            count: 0,
            expanded: false,
            or_node: true,
            pn: 1,
            dn: 1,
        }],
        known: PositionMap::default(),
    };
    while tree.nodes[0].pn != 0 && tree.nodes[0].dn != 0 && tree.nodes.len() < budget {
        let leaf = tree.most_proving();
        tree.expand(leaf);
        tree.update(leaf);
    }
    let root = &tree.nodes[0];
    let verdict = if root.pn == 0 {
        Verdict::Win
    } else if root.dn == 0 {
        Verdict::Loss
    } else {
        Verdict::Unknown
    };
    let line = tree.line();
    let strategy = if verdict == Verdict::Win {
        tree.strategy()
    } else {
        PositionMap::default()
    };
    PnsResult {
        strategy,
        verdict,
        best: (verdict == Verdict::Win)
            .then(|| line.first().map(|(m, _)| *m))
            .flatten(),
        line,
        nodes: tree.nodes.len(),
    }
}

struct Tree<'r> {
    rules: &'r BaoRules,
    nodes: Vec<Node>,
    /// Decided positions: whether the player to move there wins.
    known: PositionMap<bool>,
}

impl Tree<'_> {
    fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first as usize..(n.first + n.count) as usize
    }

    fn most_proving(&self) -> usize {
        let mut i = 0;
        while self.nodes[i].expanded {
            let or_node = self.nodes[i].or_node;
            i = self
                .children(i)
                .min_by_key(|&c| {
                    if or_node {
                        self.nodes[c].pn
                    } else {
                        self.nodes[c].dn
                    }
                })
                .expect("an expanded undecided node has children");
        }
        i
    }

    /// Proof numbers of a decided node: the player to move there `wins` or not.
    fn decided(or_node: bool, wins: bool) -> (u32, u32) {
        // At an OR node the mover is the root's player.
        if wins == or_node {
            (0, INFINITE)
        } else {
            (INFINITE, 0)
        }
    }

    fn expand(&mut self, i: usize) {
        let moves = legal_moves(self.rules, &self.nodes[i].pos);
        let or_node = self.nodes[i].or_node;
        self.nodes[i].expanded = true;
        if moves.is_empty() {
            (self.nodes[i].pn, self.nodes[i].dn) = Self::decided(or_node, false);
            self.known.insert(self.nodes[i].pos, false);
            return;
        }
        self.nodes[i].first = self.nodes.len() as u32;
        self.nodes[i].count = moves.len() as u32;
        for (mv, child) in moves {
            let (pn, dn, expanded) = match self.known.get(&child) {
                Some(&wins) => {
                    let (pn, dn) = Self::decided(!or_node, wins);
                    (pn, dn, true)
                }
                None => (1, 1, false),
            };
            self.nodes.push(Node {
                pos: child,
                mv: Some(mv),
                parent: i as u32,
                first: 0,
                count: 0,
                expanded,
                or_node: !or_node,
                pn,
                dn,
            });
        }
    }

    /// Recomputes the numbers from node `i` up to the root.
    fn update(&mut self, mut i: usize) {
        loop {
            let n = &self.nodes[i];
            if n.count > 0 {
                let kids = self.children(i);
                let (pn, dn) = if n.or_node {
                    (
                        kids.clone()
                            .map(|c| self.nodes[c].pn)
                            .min()
                            .unwrap_or(INFINITE),
                        kids.map(|c| self.nodes[c].dn)
                            .fold(0u32, |a, b| a.saturating_add(b).min(INFINITE)),
                    )
                } else {
                    (
                        kids.clone()
                            .map(|c| self.nodes[c].pn)
                            .fold(0u32, |a, b| a.saturating_add(b).min(INFINITE)),
                        kids.map(|c| self.nodes[c].dn).min().unwrap_or(INFINITE),
                    )
                };
                let n = &mut self.nodes[i];
                (n.pn, n.dn) = (pn, dn);
                if pn == 0 || dn == 0 {
                    // Decided: the mover here wins if this is an OR node proven, or an AND node
                    // disproven.
                    let wins = (pn == 0) == n.or_node;
                    let pos = n.pos;
                    self.known.insert(pos, wins);
                }
            }
            if i == 0 {
                return;
            }
            i = self.nodes[i].parent as usize;
        }
    }

    /// The winner's moves of the proof: at each OR node of the proof its proven child, at each
    /// AND node every child. A node decided by an earlier proof of the same position is
    /// followed there.
    fn strategy(&self) -> PositionMap<Move> {
        let mut expanded: PositionMap<usize> = HashMap::default();
        for (i, n) in self.nodes.iter().enumerate() {
            if n.count > 0 && n.pn == 0 {
                expanded.entry(n.pos).or_insert(i);
            }
        }
        let mut strategy = PositionMap::default();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![0usize];
        while let Some(mut i) = stack.pop() {
            if self.nodes[i].count == 0 {
                match expanded.get(&self.nodes[i].pos) {
                    Some(&j) => i = j,
                    None => continue, // a position without moves: the opponent has lost
                }
            }
            if !seen.insert(i) {
                continue;
            }
            let kids = self.children(i);
            if self.nodes[i].or_node {
                let c = kids
                    .clone()
                    .find(|&c| self.nodes[c].pn == 0)
                    .expect("a proven OR node has a proven child");
                strategy.insert(self.nodes[i].pos, self.nodes[c].mv.expect("a move"));
                stack.push(c);
            } else {
                stack.extend(kids);
            }
        }
        strategy
    }

    /// From the root: at OR nodes a proven child (else the least proof number), at AND nodes
    /// the child of greatest proof number (the longest resistance), while the tree holds it.
    fn line(&self) -> Vec<(Move, Position)> {
        // Nodes decided by an earlier search of their position continue there.
        let mut expanded: PositionMap<usize> = HashMap::default();
        for (i, n) in self.nodes.iter().enumerate() {
            if n.count > 0 {
                expanded.entry(n.pos).or_insert(i);
            }
        }
        let mut line = Vec::new();
        let mut i = 0;
        while line.len() < 1000 {
            if self.nodes[i].count == 0 {
                match expanded.get(&self.nodes[i].pos) {
                    Some(&j) if j != i => i = j,
                    _ => break,
                }
            }
            let or_node = self.nodes[i].or_node;
            let kids = self.children(i);
            let next = if or_node {
                kids.min_by_key(|&c| self.nodes[c].pn)
            } else {
                kids.max_by_key(|&c| (self.nodes[c].pn == 0, self.nodes[c].count))
            };
            let Some(c) = next else { break };
            line.push((
                self.nodes[c].mv.expect("a child has a move"),
                self.nodes[i].pos,
            ));
            i = c;
        }
        line
    }
}
