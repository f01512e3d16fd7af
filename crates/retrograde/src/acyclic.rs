//! Kalah layers solved in order of potential: no recursion, reads that stream.
//!
//! # Why an order exists
//! A Kalah move that stays in its layer sows into the mover's own following pits, short of the
//! store (anything else puts a seed in a store or captures). With the *potential* of a row
//! `r(row) = sum over lanes j of j x seeds in lane j` (lanes in sowing order), such a move from
//! lane `i` with `s` seeds raises the mover's row by `s(s+1)/2 > 0` and leaves the other row
//! alone. The board is seen from the mover, so the position `(o, x)` (opponent row `o`, mover
//! row `x`) leads within the layer to `(x', o)` with `r(x') > r(x)`: the potential of a
//! position, `P = r(o) + r(x)`, grows with every move inside the layer. Solving the positions
//! in order of falling `P` finds every child inside the layer already solved.
//!
//! # The index, seen as rows
//! In the full index the opponent's row is the major key (`granary_index`): the layouts with
//! opponent row `o` are one block, starting at `block_start(o)`, ordered by the mover's row.
//! While a layer is built, each block is kept in a *working order*: the mover's rows sorted by
//! potential (ties by row rank), so that the rows of one potential are one run of the block:
//!
//! ```text
//!   final:    W[block_start(o) + row_rank(x)]
//!   working:  W[block_start(o) + place(x)]      place(x) = position of x among the rows of
//!                                               |x| seeds sorted by (potential, row rank)
//! ```
//!
//! The last pass puts every block back in final order, one block at a time, in cache.
//!
//! # Passes
//! 1. **Exits.** For every position, the best value among its moves that leave the layer (a
//!    seed in the store, a capture), read from the finished lower layers, or its final value
//!    if the game is over; [`NO_EXIT`] if every move stays. Work pieces are runs of mover rows
//!    in working order against every opponent row: for a fixed mover row and move, the
//!    children of the opponent rows in lexicographic order lie at increasing ranks of a lower
//!    layer, so the reads stream; the writes fill a run of each block.
//! 2. **Moves within the layer**, by falling `P`: the positions of potential `P` are the
//!    tiles `class(p) x class(P - p)` of opponent and mover rows of potentials `p` and
//!    `P - p`, independent of each other. The child `(x', o)` of `(o, x)` lies in block `x'`
//!    at `place(o)`, so for a run of `o` in working order the reads of one move are one run of
//!    bytes. A rayon barrier separates one `P` from the next.
//! 3. **Final order**: each block permuted from working to final order.
//!
//! Every entry is written by one thread, once a pass; the value of a position does not depend
//! on the order in which its children were solved, so the bytes are the same for any thread
//! count.
//!
//! Memory: the layer's own entries are the output file's map (file-backed); the row lists
//! take 16 bytes a row, `A(m, k)` rows of each `k <= n` seeds (1.4 M rows, 22 MB, for a
//! 6-pit layer of 28 seeds).

use std::sync::atomic::{AtomicI8, Ordering::Relaxed};

use granary_index::LayerIndex;
use granary_rules::{Board, Position, Rules};
use granary_tables::probe::terminal_value;
use rayon::prelude::*;

use crate::build::{BuildObserver, Lower};

/// The value byte of a position with no move leaving the layer (values never reach -128).
pub(crate) const NO_EXIT: i8 = i8::MIN;
/// Mover rows a work piece of the exit pass.
const EXIT_RUN: usize = 64;
/// Mover rows a tile of the second pass takes at most.
const MOVE_RUN: usize = 512;

/// The rows of `m` pits holding `k` seeds, for every `k <= n`.
struct Rows {
    /// `lanes[k][id]`: the row of rank `id` (lexicographic order).
    lanes: Vec<Vec<u64>>,
    /// `order[k][j]`: the rank of the `j`-th row in working order (potential, then rank).
    order: Vec<Vec<u32>>,
    /// `place[k][id]`: where the row of rank `id` stands in working order.
    place: Vec<Vec<u32>>,
    /// `classes[k][p]..classes[k][p + 1]`: the rows of potential `p`, in working order.
    classes: Vec<Vec<usize>>,
}

/// A row's potential: the sum of lane number times seeds.
fn potential(row: u64, pits: usize) -> usize {
    (0..pits)
        .map(|j| j * usize::from((row >> (8 * j)) as u8))
        .sum()
}

impl Rows {
    fn new(pits: usize, n: u32) -> Rows {
        let mut rows = Rows {
            lanes: Vec::new(),
            order: Vec::new(),
            place: Vec::new(),
            classes: Vec::new(),
        };
        for k in 0..=n {
            let mut lanes = Vec::new();
            push_rows(pits, 0, k, 0, &mut lanes);
            let max = (pits - 1) * k as usize;
            let mut counts = vec![0usize; max + 2];
            for &row in &lanes {
                counts[potential(row, pits) + 1] += 1;
            }
            for p in 1..counts.len() {
                counts[p] += counts[p - 1];
            }
            let classes = counts.clone();
            let mut order = vec![0u32; lanes.len()];
            let mut place = vec![0u32; lanes.len()];
            for (id, &row) in lanes.iter().enumerate() {
                let slot = &mut counts[potential(row, pits)];
                order[*slot] = id as u32;
                place[id] = *slot as u32;
                *slot += 1;
            }
            rows.lanes.push(lanes);
            rows.order.push(order);
            rows.place.push(place);
            rows.classes.push(classes);
        }
        rows
    }

    /// The rows of `k` seeds at places `range` of working order.
    fn in_order(&self, k: usize, range: std::ops::Range<usize>) -> impl Iterator<Item = u64> + '_ {
        self.order[k][range]
            .iter()
            .map(move |&id| self.lanes[k][id as usize])
    }
}

/// Appends, in lexicographic order (lane 0 the most significant), every row of lanes
/// `lane..pits` holding `left` seeds, on top of the lanes already set in `prefix`.
fn push_rows(pits: usize, lane: usize, left: u32, prefix: u64, out: &mut Vec<u64>) {
    if lane + 1 == pits {
        out.push(prefix | u64::from(left) << (8 * lane));
        return;
    }
    for v in 0..=left {
        push_rows(
            pits,
            lane + 1,
            left - v,
            prefix | u64::from(v) << (8 * lane),
            out,
        );
    }
}

/// A board from the opponent's and the mover's rows.
#[inline]
fn board(opponent: u64, mover: u64, pits: usize) -> Board {
    Board(u128::from(mover) | u128::from(opponent) << (8 * pits))
}

/// Ranks of lower-layer boards, from cached halves: `block_start` of the opponent row and
/// `row_rank` of the mover row (the same rows recur for many positions of a work piece).
struct SplitRanks {
    starts: Vec<(u64, u32, u64)>,
    rows: Vec<(u64, u64)>,
}

const CACHE: usize = 1 << 12;

impl SplitRanks {
    fn new() -> SplitRanks {
        SplitRanks {
            starts: vec![(u64::MAX, 0, 0); CACHE],
            rows: vec![(u64::MAX, 0); CACHE],
        }
    }

    #[inline]
    fn slot(row: u64, salt: u32) -> usize {
        ((row ^ u64::from(salt)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize
    }

    /// The rank of `board` in `index` (a full index).
    #[inline]
    fn rank(&mut self, index: &LayerIndex, board: Board) -> u64 {
        let m = index.pits();
        let (opponent, mover) = (board.opponent_lanes(m), board.mover_lanes(m));
        let seeds = index.seeds();
        let s = &mut self.starts[Self::slot(opponent, seeds)];
        if s.0 != opponent || s.1 != seeds {
            *s = (opponent, seeds, index.block_start(opponent));
        }
        let start = s.2;
        let r = &mut self.rows[Self::slot(mover, 0)];
        if r.0 != mover {
            *r = (mover, index.row_rank(mover));
        }
        debug_assert_eq!(start + r.1, index.rank(board));
        start + r.1
    }
}

/// Fills `values` (in final order) with the values of layer `index` of an acyclic game.
pub(crate) fn solve_acyclic_layer<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    lower: &Lower<'_>,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) {
    let m = rules.pits();
    let n = index.seeds();
    let rows = Rows::new(m, n);
    exit_pass(rules, index, lower, &rows, values, observer);
    move_pass(rules, index, &rows, values, observer);
    final_order(index, &rows, values);
}

/// Pass 1: every position's best exit (see the module documentation), in working order.
fn exit_pass<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    lower: &Lower<'_>,
    rows: &Rows,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) {
    let m = rules.pits();
    let n = index.seeds() as usize;
    let pieces: Vec<(usize, usize)> = (0..=n)
        .flat_map(|k| {
            let movers = rows.lanes[n - k].len();
            (0..movers.div_ceil(EXIT_RUN)).map(move |c| (k, c * EXIT_RUN))
        })
        .collect();
    pieces.into_par_iter().for_each_init(
        || (SplitRanks::new(), Vec::new(), Vec::new()),
        |(ranks, exits, group), (k, first)| {
            let movers_len = rows.lanes[n - k].len();
            let end = (first + EXIT_RUN).min(movers_len);
            let movers: Vec<u64> = rows.in_order(n - k, first..end).collect();
            for &opponent in &rows.lanes[k] {
                let start = index.block_start(opponent) as usize + first;
                // Gather the group's exits, prefetching the entries they read...
                exits.clear();
                group.clear();
                for &mover in &movers {
                    let from = exits.len();
                    let pos = Position::of_board(board(opponent, mover, m));
                    let moves = rules.legal_moves(&pos);
                    if moves.is_empty() {
                        exits.push((u32::MAX, 0u64, terminal_value(rules, &pos), 0i32));
                    }
                    for lane in moves.iter() {
                        let child = rules.play(&pos, lane);
                        let seeds = child.board.seeds(m);
                        if seeds as usize == n {
                            continue;
                        }
                        let (gain, again) = pos.move_gain(&child);
                        let layer = lower.layers[seeds as usize];
                        let rank = ranks.rank(layer.index(), child.board);
                        layer.prefetch(rank);
                        exits.push((seeds, rank, gain, if again { 1 } else { -1 }));
                    }
                    group.push(from..exits.len());
                }
                // ...then read them.
                for (t, range) in group.drain(..).enumerate() {
                    let best = exits[range]
                        .iter()
                        .map(|&(seeds, rank, gain, sign)| {
                            if seeds == u32::MAX {
                                gain
                            } else {
                                gain + sign * i32::from(lower.layers[seeds as usize].value(rank))
                            }
                        })
                        .max()
                        .map_or(NO_EXIT, |v| v as i8);
                    values[start + t].store(best, Relaxed);
                }
            }
            let positions = ((end - first) * rows.lanes[k].len()) as u64;
            observer.advanced(positions / 2);
        },
    );
}

/// Pass 2: the moves within the layer, by falling potential (see the module documentation).
fn move_pass<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    rows: &Rows,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) {
    let m = rules.pits();
    let n = index.seeds() as usize;
    let top = (m - 1) * n;
    for total in (0..=top).rev() {
        // Tiles: (opponent seeds k, opponent potential p, a run of the mover rows of potential
        // total - p).
        let mut tiles = Vec::new();
        for k in 0..=n {
            let (opp, mov) = (&rows.classes[k], &rows.classes[n - k]);
            for p in 0..opp.len() - 1 {
                let Some(q) = total.checked_sub(p) else { break };
                if q + 1 >= mov.len() || opp[p] == opp[p + 1] {
                    continue;
                }
                let mut first = mov[q];
                while first < mov[q + 1] {
                    let end = (first + MOVE_RUN).min(mov[q + 1]);
                    tiles.push((k, opp[p]..opp[p + 1], first..end));
                    first = end;
                }
            }
        }
        tiles.into_par_iter().for_each_init(
            || (Vec::new(), Vec::new()),
            |(movers, starts): &mut (Vec<u64>, Vec<[u64; 8]>), (k, opponents, run)| {
                movers.clear();
                movers.extend(rows.in_order(n - k, run.clone()));
                starts.clear();
                starts.resize(movers.len(), [u64::MAX; 8]);
                for j in opponents.clone() {
                    let opponent = rows.lanes[k][rows.order[k][j] as usize];
                    let start = index.block_start(opponent) as usize + run.start;
                    for (t, &mover) in movers.iter().enumerate() {
                        let pos = Position::of_board(board(opponent, mover, m));
                        let mut best = i32::from(values[start + t].load(Relaxed));
                        for lane in rules.legal_moves(&pos).iter() {
                            let child = rules.play(&pos, lane);
                            if child.board.seeds(m) as usize != n {
                                continue;
                            }
                            // Within the layer: the other player moves, nothing gained; the
                            // child's rows are (opponent x', mover o).
                            debug_assert_eq!(child.board.mover_lanes(m), opponent);
                            let block = &mut starts[t][lane];
                            if *block == u64::MAX {
                                *block = index.block_start(child.board.opponent_lanes(m));
                            }
                            let child_value = values[*block as usize + j].load(Relaxed);
                            best = best.max(-i32::from(child_value));
                        }
                        values[start + t].store(best as i8, Relaxed);
                    }
                }
                let positions = (movers.len() * opponents.len()) as u64;
                observer.advanced(positions - positions / 2);
            },
        );
    }
}

/// Pass 3: every block from working order to final order.
fn final_order(index: &LayerIndex, rows: &Rows, values: &[AtomicI8]) {
    let n = index.seeds() as usize;
    let blocks: Vec<(usize, usize)> = (0..=n)
        .flat_map(|k| (0..rows.lanes[k].len()).map(move |id| (k, id)))
        .collect();
    blocks
        .par_chunks(256)
        .for_each_init(Vec::new, |scratch: &mut Vec<i8>, chunk| {
            for &(k, id) in chunk {
                let start = index.block_start(rows.lanes[k][id]) as usize;
                let place = &rows.place[n - k];
                let block = &values[start..start + place.len()];
                scratch.clear();
                scratch.extend(block.iter().map(|v| v.load(Relaxed)));
                for (entry, &j) in block.iter().zip(place) {
                    entry.store(scratch[j as usize], Relaxed);
                }
            }
        });
}
