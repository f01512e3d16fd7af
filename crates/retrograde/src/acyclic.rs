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
//! The last pass writes every block to the file in final order, one block at a time.
//!
//! # Passes
//! 1. **Exits.** For every position, the best value among its moves that leave the layer (a
//!    seed in the store, a capture), read from the finished lower layers, or its final value
//!    if the game is over; `NO_EXIT` if every move stays. Work pieces are runs of mover rows
//!    in working order against every opponent row: for a fixed mover row and move, the
//!    children of the opponent rows in lexicographic order lie at increasing ranks of a lower
//!    layer, so the reads stream; the writes fill a run of each block.
//! 2. **Moves within the layer**, by falling `P`: the positions of potential `P` are the
//!    tiles `class(p) x class(P - p)` of opponent and mover rows of potentials `p` and
//!    `P - p`, independent of each other. The child `(x', o)` of `(o, x)` lies in block `x'`
//!    at `place(o)`, so for a run of `o` in working order the reads of one move are one run of
//!    bytes. A rayon barrier separates one `P` from the next.
//! 3. **Final order**: each block written to the layer's values, permuted from working to final
//!    order.
//!
//! Most moves are valued from the mover's row alone: from the sowing table, a move whose last
//! seed ends in the store or across it (one seed in the store, no lap) leads to layer `n - 1`
//! at a rank whose row part is found once per mover row and whose other part once per
//! opponent row (`Sow`); a move within the row is a capture only if its last seed lands in an
//! empty pit. The rest are played in full. Builds with debug assertions check every shortcut
//! against [`Rules::play`] and [`LayerIndex::rank`].
//!
//! Every entry is written by one thread, once a pass; the value of a position does not depend
//! on the order in which its children were solved, so the bytes are the same for any thread
//! count.
//!
//! Memory: the working order is kept in anonymous memory (`Working`, one byte a position, on
//! huge pages), the final order in the layer's values (written to the file once, in order, by
//! [`crate::build`]); the row lists take 16 bytes a row,
//! `A(m, k)` rows of each `k <= n` seeds (1.4 M rows, 22 MB, for a 6-pit layer of 28 seeds).

use std::sync::atomic::{AtomicI8, Ordering::Relaxed};

use granary_index::LayerIndex;
use granary_rules::board::{byte_sum, lanes_mask, ones};
use granary_rules::pits::COMPILED_PITS;
use granary_rules::sowing::LAST_IN_STORE;
use granary_rules::{Board, Kalah, MoveSet, PitCount, Position, Rules, exit_value};
use granary_tables::Layer;
use granary_tables::probe::terminal_value;
use rayon::prelude::*;

use crate::lower::{Lower, NO_EXIT};
use crate::report::BuildObserver;

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
    /// The rows of every seed count of layer `index`'s layouts.
    fn new(index: &LayerIndex) -> Rows {
        let (pits, n) = (index.pits(), index.seeds());
        let mut rows = Rows {
            lanes: Vec::new(),
            order: Vec::new(),
            place: Vec::new(),
            classes: Vec::new(),
        };
        for k in 0..=n {
            let mut lanes = Vec::new();
            push_rows(pits, 0, k, 0, &mut lanes);
            debug_assert_eq!(lanes.len() as u64, index.rows(k));
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

/// Bytes of anonymous memory the acyclic builder takes for layer `index`: the working order
/// (a byte a position) and the row lists (16 bytes a row).
#[must_use]
pub fn acyclic_bytes(index: &LayerIndex) -> u64 {
    let rows: u64 = (0..=index.seeds()).map(|k| index.rows(k)).sum();
    index.size() + 16 * rows
}

/// Fills `values` (in final order) with the values of layer `index` of an acyclic game.
///
/// A 6-pit board is built by code compiled for 6 pits ([`Kalah::with_const_pits`]).
pub(crate) fn solve_acyclic_layer(
    rules: &Kalah,
    index: &LayerIndex,
    lower: &Lower<'_>,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) -> std::io::Result<()> {
    match rules.with_const_pits::<COMPILED_PITS>() {
        Some(six) => solve_with(&six, index, lower, values, observer),
        None => solve_with(rules, index, lower, values, observer),
    }
}

fn solve_with<P: PitCount>(
    rules: &Kalah<P>,
    index: &LayerIndex,
    lower: &Lower<'_>,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) -> std::io::Result<()> {
    let rows = Rows::new(index);
    let working = Working::new(values.len())?;
    exit_pass(rules, index, lower, &rows, working.entries(), observer);
    move_pass(rules, index, &rows, working.entries(), observer);
    final_order(index, &rows, working.entries(), values);
    Ok(())
}

/// The layer's entries in working order while it is built: anonymous memory, one byte a
/// position, that asks the kernel for huge pages (the passes touch many blocks at once: with
/// the 4 KiB pages of a file map, most of those touches would miss the TLB). The last pass
/// copies it to the file in final order.
struct Working(granary_tables::AnonAtomics<AtomicI8>);

impl Working {
    fn new(len: usize) -> std::io::Result<Working> {
        Ok(Working(granary_tables::AnonAtomics::new(len)?))
    }

    fn entries(&self) -> &[AtomicI8] {
        self.0.cells()
    }
}

/// Pass 1: every position's best exit (see the module documentation), in working order.
fn exit_pass<P: PitCount>(
    rules: &Kalah<P>,
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
    let next = (n > 0).then(|| lower.layers[n - 1]);
    pieces.into_par_iter().for_each_init(
        || (SplitRanks::new(), Vec::new(), Vec::new(), Vec::new()),
        |(ranks, exits, group, plan), (k, first)| {
            let movers_len = rows.lanes[n - k].len();
            let end = (first + EXIT_RUN).min(movers_len);
            sow_plan(rules, next, rows.in_order(n - k, first..end), plan);
            for &opponent in &rows.lanes[k] {
                let start = index.block_start(opponent) as usize + first;
                // Ranks in layer n - 1 that depend on the opponent's row only, found once.
                let mut again_start = None;
                let mut across_rank = [u64::MAX; 9];
                // Gather the group's exits, prefetching the entries they read...
                exits.clear();
                group.clear();
                for (mover, sows) in plan.iter() {
                    let from = exits.len();
                    let pos = Position::of_board(board(opponent, *mover, m));
                    let moves = rules.legal_moves(&pos);
                    if moves.is_empty() {
                        exits.push((u32::MAX, 0u64, terminal_value(rules, &pos), 0i32));
                    }
                    for lane in moves.iter() {
                        let (seeds, rank, gain, sign) = match sows[lane] {
                            Sow::Again { row_rank } => {
                                let layer = next.expect("a move to the store leaves layer 0");
                                let start = *again_start
                                    .get_or_insert_with(|| layer.index().block_start(opponent));
                                (n as u32 - 1, start + row_rank, 1, 1)
                            }
                            Sow::Across { lanes, block } => {
                                let layer = next.expect("a move to the store leaves layer 0");
                                let cached = &mut across_rank[lanes];
                                if *cached == u64::MAX {
                                    let row = opponent + ones(lanes) as u64;
                                    *cached = layer.index().row_rank(row);
                                }
                                (n as u32 - 1, block + *cached, 1, -1)
                            }
                            Sow::Play => {
                                let child = rules.play(&pos, lane);
                                let seeds = child.board.seeds(m);
                                if seeds as usize == n {
                                    continue;
                                }
                                let (gain, again) = pos.move_gain(&child);
                                let layer = lower.layers[seeds as usize];
                                let rank = ranks.rank(layer.index(), child.board);
                                (seeds, rank, gain, if again { 1 } else { -1 })
                            }
                        };
                        #[cfg(debug_assertions)]
                        {
                            let child = rules.play(&pos, lane);
                            let (g, again) = pos.move_gain(&child);
                            let layer = lower.layers[seeds as usize];
                            assert_eq!(
                                (seeds, rank, gain, sign),
                                (
                                    child.board.seeds(m),
                                    layer.index().rank(child.board),
                                    g,
                                    if again { 1 } else { -1 }
                                )
                            );
                        }
                        lower.layers[seeds as usize].prefetch(rank);
                        exits.push((seeds, rank, gain, sign));
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
                                exit_value(
                                    gain,
                                    sign > 0,
                                    i32::from(lower.layers[seeds as usize].value(rank)),
                                )
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

/// How a mover row's move is valued in the exit pass, found from the row alone.
#[derive(Clone, Copy)]
enum Sow {
    /// The last seed ends in the store, after one seed there and none in the opponent's row:
    /// the mover moves again, gains 1, on (the same opponent row, the row after the move) in
    /// layer `n - 1`, whose mover row has rank `row_rank`.
    Again { row_rank: u64 },
    /// The last seed ends in the opponent's row, after one seed in the store and one in each of
    /// the opponent's first `lanes` pits (no capture on that side): the opponent moves next, on
    /// (the row after the move, the opponent's row plus those seeds) in layer `n - 1`; the
    /// former's block starts at `block`.
    Across { lanes: usize, block: u64 },
    /// Anything else (a move within the row, which may capture; a lap): played in full.
    Play,
}

/// For each mover row of a run, how each of its moves is valued ([`Sow`]), from the Kalah
/// sowing table. `next` is layer `n - 1` (none for layer 0, where every move is [`Sow::Play`]).
fn sow_plan<P: PitCount>(
    rules: &Kalah<P>,
    next: Option<&Layer>,
    movers: impl Iterator<Item = u64>,
    plan: &mut Vec<(u64, [Sow; 8])>,
) {
    let m = rules.pits();
    let table = rules.sow_table();
    plan.clear();
    for row in movers {
        let mut sows = [Sow::Play; 8];
        if let Some(layer) = next {
            for (lane, sow) in sows.iter_mut().enumerate().take(m) {
                let seeds = (row >> (8 * lane)) as u8;
                let sowing = table.get(lane, seeds);
                // One seed in the store: neither within the row (none) nor a lap (two or more).
                if seeds == 0 || sowing.store != 1 {
                    continue;
                }
                let after = sowing.apply(board(0, row, m)).0;
                let (own, theirs) = (
                    after as u64 & lanes_mask(m) as u64,
                    (after >> (8 * m)) as u64,
                );
                if sowing.last == LAST_IN_STORE {
                    debug_assert_eq!(theirs, 0);
                    *sow = Sow::Again {
                        row_rank: layer.index().row_rank(own),
                    };
                } else if usize::from(sowing.last) >= m {
                    let lanes = byte_sum(theirs) as usize;
                    debug_assert_eq!(u128::from(theirs), ones(lanes));
                    *sow = Sow::Across {
                        lanes,
                        block: layer.index().block_start(own),
                    };
                }
            }
        }
        plan.push((row, sows));
    }
}

/// Pass 2: the moves within the layer, by falling potential (see the module documentation).
fn move_pass<P: PitCount>(
    rules: &Kalah<P>,
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
        tiles
            .into_par_iter()
            .for_each_init(Vec::new, |plan, (k, opponents, run)| {
                in_row_moves(rules, index, rows.in_order(n - k, run.clone()), plan);
                for j in opponents.clone() {
                    let opponent = rows.lanes[k][rows.order[k][j] as usize];
                    let start = index.block_start(opponent) as usize + run.start;
                    for mover in plan.iter() {
                        let pos = Position::of_board(board(opponent, mover.row, m));
                        let legal = rules.legal_moves(&pos).0 & mover.lanes;
                        let entry = &values[start + mover.place];
                        let mut best = i32::from(entry.load(Relaxed));
                        for lane in MoveSet(legal).iter() {
                            if mover.may_capture & (1 << lane) != 0
                                && rules.play(&pos, lane).board.seeds(m) as usize != n
                            {
                                continue; // a capture
                            }
                            // Within the layer: the other player moves, nothing gained; the
                            // child's rows are (opponent x', mover o), so its entry is at o's place
                            // in block x'.
                            let block = mover.blocks[lane];
                            #[cfg(debug_assertions)]
                            {
                                let child = rules.play(&pos, lane);
                                assert_eq!(child.board.seeds(m) as usize, n);
                                assert_eq!(child.board.mover_lanes(m), opponent);
                                let start = index.block_start(child.board.opponent_lanes(m));
                                assert_eq!(block, start as usize);
                            }
                            best = best.max(-i32::from(values[block + j].load(Relaxed)));
                        }
                        entry.store(best as i8, Relaxed);
                    }
                }
                let positions = (run.len() * opponents.len()) as u64;
                observer.advanced(positions - positions / 2);
            });
    }
}

/// A mover row of a tile with moves that may stay in the layer.
struct InRow {
    /// Its place in the tile's run.
    place: usize,
    row: u64,
    /// The lanes whose sowing stays in the mover's row (bit `l` for lane `l`).
    lanes: u8,
    /// Those of them whose last seed lands in an empty pit: a capture, unless the rules and the
    /// opponent's row say otherwise (the move is then played to find out).
    may_capture: u8,
    /// For each such lane, where the block of the row after the move starts.
    blocks: [usize; 8],
}

/// The mover rows of a run that have moves sowing only into their own row (the only moves that
/// can stay in the layer), with the blocks those moves lead to.
fn in_row_moves<P: PitCount>(
    rules: &Kalah<P>,
    index: &LayerIndex,
    movers: impl Iterator<Item = u64>,
    plan: &mut Vec<InRow>,
) {
    let m = rules.pits();
    let table = rules.sow_table();
    plan.clear();
    for (place, row) in movers.enumerate() {
        let mut mover = InRow {
            place,
            row,
            lanes: 0,
            may_capture: 0,
            blocks: [0; 8],
        };
        for lane in 0..m {
            let seeds = (row >> (8 * lane)) as u8;
            let sowing = table.get(lane, seeds);
            if seeds == 0 || sowing.store != 0 {
                continue;
            }
            // Within the row: the opponent's (empty here) still empty after the sowing.
            let after = sowing.apply(board(0, row, m)).0;
            if after >> (8 * m) != 0 {
                continue;
            }
            let after = after as u64;
            mover.lanes |= 1 << lane;
            if (after >> (8 * sowing.last)) as u8 == 1 {
                mover.may_capture |= 1 << lane;
            }
            mover.blocks[lane] = index.block_start(after) as usize;
        }
        if mover.lanes != 0 {
            plan.push(mover);
        }
    }
}

/// Pass 3: every block from working order into the file, in final order.
fn final_order(index: &LayerIndex, rows: &Rows, working: &[AtomicI8], values: &[AtomicI8]) {
    let n = index.seeds() as usize;
    let blocks: Vec<(usize, usize)> = (0..=n)
        .flat_map(|k| (0..rows.lanes[k].len()).map(move |id| (k, id)))
        .collect();
    blocks.par_chunks(256).for_each(|chunk| {
        for &(k, id) in chunk {
            let start = index.block_start(rows.lanes[k][id]) as usize;
            let place = &rows.place[n - k];
            let from = &working[start..start + place.len()];
            for (entry, &j) in values[start..start + place.len()].iter().zip(place) {
                entry.store(from[j as usize].load(Relaxed), Relaxed);
            }
        }
    });
}
