//! A playing engine: alpha-beta with iterative deepening under a time limit, and an evaluation
//! that weighs where seeds are and what can be captured, not only how many there are.
//!
//! Scores are from the side to move, in hundredths of a seed. A lost position scores
//! `-WIN + ply` (a later loss is better); the evaluation stays far inside `±WIN / 2`.
//! Contract of [`Engine::alphabeta`] (fail-soft): a result `v <= alpha` is an upper bound of the
//! true depth-limited score, `v >= beta` a lower bound, anything between exact.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use granary_rules::Side;

use crate::board::{ROW, opposite};
use crate::movegen::{legal_moves, mtaji_captures};
use crate::moves::Move;
use crate::position::{Position, side_index};
use crate::rules::BaoRules;

/// The score of a won game.
pub const WIN: i32 = 1_000_000;

/// The evaluation of `pos` for the player to move (hundredths of a seed).
///
/// - a seed in the front row counts 1.5, in the back row 1, in hand 1.25 (front seeds defend
///   and capture; an empty front row loses);
/// - each opponent front pit that one of the player's capture starts threatens counts a quarter
///   of its seeds, for both players alike (a cheap look at the coming exchange);
/// - an owned nyumba with 6 seeds or more counts 2 seeds (it stops sowings and is a reserve).
#[must_use]
pub fn evaluate(rules: &BaoRules, pos: &Position) -> i32 {
    let me = pos.to_move;
    side_score(rules, pos, me) - side_score(rules, pos, me.other())
}

fn side_score(rules: &BaoRules, pos: &Position, side: Side) -> i32 {
    let s = side_index(side);
    let ring = &pos.pits[s];
    let front: i32 = ring[..ROW].iter().map(|&x| i32::from(x)).sum();
    let back: i32 = ring[ROW..].iter().map(|&x| i32::from(x)).sum();
    let mut score = 150 * front + 100 * back + 125 * i32::from(pos.hands[s]);
    if pos.functional_nyumba(rules, side) {
        score += 200;
    }
    let theirs = &pos.pits[1 - s];
    let mut threatened = [false; ROW];
    for c in mtaji_captures(pos, side) {
        threatened[usize::from(opposite(c.last))] = true;
    }
    score += threatened
        .iter()
        .zip(theirs.iter())
        .filter(|(t, _)| **t)
        .map(|(_, &seeds)| 25 * i32::from(seeds))
        .sum::<i32>();
    score
}

/// What the engine found.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub mv: Move,
    pub score: i32,
    /// The deepest depth finished.
    pub depth: u32,
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    depth: u32,
    score: i32,
    /// 0 exact, -1 upper bound, +1 lower bound.
    bound: i8,
    best: Option<Move>,
}

/// The engine, with its transposition table.
#[derive(Debug)]
pub struct Engine<'r> {
    rules: &'r BaoRules,
    table: HashMap<Position, Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl<'r> Engine<'r> {
    #[must_use]
    pub fn new(rules: &'r BaoRules) -> Engine<'r> {
        Engine {
            rules,
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            out_of_time: false,
        }
    }

    /// The best move found within `time` (if given) and `max_depth` plies, or `None` if the
    /// player to move has no legal move. The first depth always finishes.
    pub fn choose(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        max_depth: u32,
    ) -> Option<Choice> {
        let moves = legal_moves(self.rules, pos);
        let first = moves.first()?.0;
        let started = Instant::now();
        self.nodes = 0;
        self.deadline = None;
        self.out_of_time = false;
        if self.table.len() > 4_000_000 {
            self.table.clear();
        }
        let mut choice = Choice {
            mv: first,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=max_depth.max(1) {
            let score = self.alphabeta(pos, depth, -WIN - 1, WIN + 1, 0);
            if self.out_of_time {
                break;
            }
            let best = self.table.get(pos).and_then(|e| e.best).unwrap_or(first);
            choice = Choice {
                mv: best,
                score,
                depth,
                nodes: self.nodes,
            };
            if score.abs() >= WIN / 2 {
                break;
            }
            self.deadline = time.map(|t| started + t);
            if let Some(t) = time {
                // Another depth costs several times the last: do not start what cannot finish.
                if started.elapsed() * 4 > t {
                    break;
                }
            }
        }
        choice.nodes = self.nodes;
        Some(choice)
    }

    /// Fail-soft alpha-beta (see the module's contract).
    pub fn alphabeta(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        let hint = self.table.get(pos).copied();
        if let Some(e) = hint
            && e.depth >= depth
            && (e.bound == 0
                || (e.bound < 0 && e.score <= alpha)
                || (e.bound > 0 && e.score >= beta))
        {
            return e.score;
        }
        let mut moves = legal_moves(self.rules, pos);
        if moves.is_empty() {
            return -WIN + ply;
        }
        if depth == 0 {
            return evaluate(self.rules, pos);
        }
        if let Some(best) = hint.and_then(|e| e.best)
            && let Some(i) = moves.iter().position(|(m, _)| *m == best)
        {
            moves.swap(0, i);
        }
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_move = None;
        for (mv, child) in &moves {
            let v = -self.alphabeta(child, depth - 1, -beta, -alpha, ply + 1);
            if self.out_of_time {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(*mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            -1
        } else if best >= beta {
            1
        } else {
            0
        };
        self.table.insert(
            *pos,
            Entry {
                depth,
                score: best,
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// A player that takes the move leaving it the most seeds on its side of the board (first such
/// move in generation order): the 1-ply greedy opponent of the strength report.
#[must_use]
pub fn greedy(rules: &BaoRules, pos: &Position) -> Option<Move> {
    let me = pos.to_move;
    let gain = |c: &Position| i64::from(c.board_seeds(me)) - i64::from(c.board_seeds(me.other()));
    let mut best: Option<(Move, i64)> = None;
    for (mv, child) in legal_moves(rules, pos) {
        let g = gain(&child);
        if best.is_none_or(|(_, b)| g > b) {
            best = Some((mv, g));
        }
    }
    best.map(|(m, _)| m)
}
