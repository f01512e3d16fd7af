//! Perfect combinatorial index of the layouts of `n` seeds on `2m` pits, seen from the mover.
//!
//! A table layer holds one entry per layout of `n` seeds on the board, dense from `0` to
//! `size - 1`. Stores are not part of the layout (they do not change a position's value).
//!
//! # Order
//!
//! The index ranks the sequence `s = (s_0, ..., s_{2m-1})` of the board **seen from the opponent**:
//! `s_0..s_{m-1}` are the opponent's pits in sowing order, `s_m..s_{2m-1}` the mover's
//! (`s = board.flipped(m)` lane by lane, see `granary_rules::board`). Sequences are numbered in
//! lexicographic order, smallest `s_0` first:
//!
//! ```text
//!   n = 2, m = 1 (lanes: opponent, mover)      rank   s_0 s_1
//!                                               0      0   2
//!                                               1      1   1
//!                                               2      2   0
//! ```
//!
//! With `A(k, r)` = the number of ways to put `r` seeds in `k` pits = `C(r + k - 1, k - 1)`
//! (`A(0, 0) = 1`, `A(k, r < 0) = 0`), the rank is the number of sequences before `s`:
//!
//! ```text
//!   rank(s) = sum over p < 2m-1 of  sum over v < s_p of  A(2m-1-p, r_p - v)
//!           = sum over p         of  A(2m-p, r_p) - A(2m-p, r_p - s_p)     (hockey stick)
//! ```
//!
//! where `r_p = n - s_0 - ... - s_{p-1}` is the number of seeds not yet placed. The second line is
//! what [`LayerIndex::rank`] computes: two lookups in the table of `A` per pit.
//!
//! # Romein & Bal's reduction (Oware)
//!
//! After any Oware move the origin pit is empty, so in every reachable position the opponent's row
//! has an empty pit (except the start). With `reduced`, sequences whose first `m` entries are all
//! non-zero are left out and the rest keep their order. Counting completions then depends on
//! whether a zero has been seen among the opponent's pits: with `j` opponent pits still to come
//! and `J` pits in all after pit `p`, the completions that still contain a zero number
//! `A(J, r) - A(J, r - j)` (take one seed from each of the `j` pits to count those without). The
//! layer then holds `A(2m, n) - A(2m, n - m)` layouts, which for `m = 6` is
//! `C(n+11, 11) - C(n+5, 11)` (Romein & Bal).
//!
//! The order and therefore every table file depend on this scheme: it is stable.

use granary_rules::Board;
use granary_rules::board::MAX_PITS;

/// Why a layer cannot be indexed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IndexError {
    #[error("a side has 1 to {MAX_PITS} pits, not {0}")]
    Pits(usize),
    #[error("layer of {0} seeds: a table layer holds at most {MAX_LAYER_SEEDS} seeds")]
    Seeds(u32),
}

/// The most seeds a layer may hold: pits of up to 127 seeds let the builder compare lanes with
/// SWAR arithmetic, and every layer of that size has fewer than 2^64 layouts.
pub const MAX_LAYER_SEEDS: u32 = 64;

/// Row length of the table of A(k, r).
const STRIDE: usize = MAX_LAYER_SEEDS as usize + 1;

/// The index of one layer: `seeds` seeds on `2 * pits` pits.
#[derive(Clone, Debug)]
pub struct LayerIndex {
    pits: usize,
    seeds: u32,
    reduced: bool,
    /// `ways[k * STRIDE + r]` = A(k, r) for k in 0..=2m+1, r in 0..=seeds.
    ways: Box<[u64]>,
    size: u64,
}

impl LayerIndex {
    /// The index of the layer of `seeds` seeds on `2 * pits` pits; `reduced` leaves out the
    /// layouts whose opponent row has no empty pit.
    ///
    /// # Errors
    /// If `pits` is not in `1..=8` or `seeds` exceeds [`MAX_LAYER_SEEDS`].
    pub fn new(pits: usize, seeds: u32, reduced: bool) -> Result<LayerIndex, IndexError> {
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(IndexError::Pits(pits));
        }
        if seeds > MAX_LAYER_SEEDS {
            return Err(IndexError::Seeds(seeds));
        }
        let n = seeds as usize;
        let mut ways = vec![0u64; (2 * MAX_PITS + 2) * STRIDE].into_boxed_slice();
        ways[0] = 1;
        for k in 1..2 * pits + 2 {
            let mut running = 0u64;
            for r in 0..=n {
                // A(k, r) = sum over t <= r of A(k-1, t): the last pit takes r - t seeds.
                running += ways[(k - 1) * STRIDE + r];
                ways[k * STRIDE + r] = running;
            }
        }
        let mut index = LayerIndex {
            pits,
            seeds,
            reduced,
            ways,
            size: 0,
        };
        let m = pits as i64;
        let all = index.a(2 * pits, i64::from(seeds));
        index.size = if reduced {
            all - index.a(2 * pits, i64::from(seeds) - m)
        } else {
            all
        };
        Ok(index)
    }

    /// A(k, r), zero for negative `r`.
    #[inline]
    fn a(&self, k: usize, r: i64) -> u64 {
        if r < 0 {
            0
        } else {
            self.ways[k * STRIDE + r as usize]
        }
    }

    /// Layouts in the layer.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    #[must_use]
    pub fn pits(&self) -> usize {
        self.pits
    }

    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    #[must_use]
    pub fn reduced(&self) -> bool {
        self.reduced
    }

    /// Whether the layout is in this layer: `seeds` seeds, and with `reduced` an empty pit in the
    /// opponent's row.
    #[must_use]
    pub fn contains(&self, board: Board) -> bool {
        self.contains_on(board, self.pits)
    }

    /// [`LayerIndex::contains`] told the layer's pits a side, `m` (which must be
    /// [`LayerIndex::pits`]): a caller that knows `m` as a constant gets code compiled for it
    /// (`granary_rules::pits`).
    #[must_use]
    #[inline(always)]
    pub fn contains_on(&self, board: Board, m: usize) -> bool {
        debug_assert_eq!(m, self.pits);
        // Nothing beyond the 2m lanes (an 8-pit board fills all 128 bits: nothing to check).
        if board.0.checked_shr(16 * m as u32).unwrap_or(0) != 0 || board.seeds(m) != self.seeds {
            return false;
        }
        !self.reduced
            || granary_rules::board::nonzero_bytes(board.opponent_lanes(m)).count_ones() < m as u32
    }

    /// The rank of a layout of this layer; see the module documentation.
    ///
    /// # Panics
    /// If the layout is not in the layer ([`LayerIndex::contains`]): always in debug builds; in
    /// release builds it may panic or give a meaningless rank (callers check first).
    #[must_use]
    pub fn rank(&self, board: Board) -> u64 {
        self.rank_on(board, self.pits)
    }

    /// [`LayerIndex::rank`] told the layer's pits a side, `m` (which must be
    /// [`LayerIndex::pits`]): a caller that knows `m` as a constant gets the loops over pits
    /// unrolled (`granary_rules::pits`).
    #[must_use]
    #[inline(always)]
    pub fn rank_on(&self, board: Board, m: usize) -> u64 {
        debug_assert_eq!(m, self.pits);
        debug_assert!(
            self.contains(board),
            "{board:?} not in layer {}",
            self.seeds
        );
        // The pits in ranking order, as bytes: reading one is a load, where `Board::pit` shifts
        // 128 bits (the ranks went from 21 to 31 M/s on a full 6-pit layer: `benches/rank.rs`).
        let s = board.flipped(m).0.to_le_bytes();
        let mut r = self.seeds as usize;
        let mut rank = 0u64;
        let mut p = 0;
        if self.reduced {
            // Opponent pits before the first zero. The sequences before s at pit p take a value
            // v < s_p there: v = 0 is a zero, and every completion of the k - 1 = 2m - 1 - p
            // pits after p is valid, A(k - 1, r); for 0 < v < s_p only those with a zero among
            // the j = m - 1 - p opponent pits after p, A(k - 1, r - v) - A(k - 1, r - v - j).
            // Summed over v by the hockey stick: the unreduced term, less
            // A(k, r - 1 - j) - A(k, r - s_p - j).
            while s[p] != 0 {
                let (k, b) = (2 * m - p, usize::from(s[p]));
                let j = (m - 1 - p) as i64;
                rank += self.below(k, r, b);
                rank -= self.a(k, r as i64 - 1 - j) - self.a(k, r as i64 - b as i64 - j);
                r = r.wrapping_sub(b);
                p += 1;
            }
        }
        // From the first zero on (or from the start, unreduced): every completion is valid.
        while p < 2 * m - 1 {
            let b = usize::from(s[p]);
            rank += self.below(2 * m - p, r, b);
            r = r.wrapping_sub(b);
            p += 1;
        }
        rank
    }

    /// `A(k, r) - A(k, r - b)`: the sequences of `k` pits holding `r` seeds whose first pit
    /// holds fewer than `b` (the hockey stick). Within the layer `r - b >= 0`; for a layout
    /// outside it the result is wrong or the bounds check panics, never a read outside the
    /// table.
    #[inline]
    fn below(&self, k: usize, r: usize, b: usize) -> u64 {
        let ways = &self.ways[k * STRIDE..];
        ways[r] - ways[r.wrapping_sub(b)]
    }

    /// Where the entries of the layouts with opponent row `opponent` begin.
    ///
    /// The opponent's row is the major key: the layouts sharing it are one contiguous block,
    /// ordered by the mover's row (in the reduced index too, where a row with no empty pit has
    /// no layouts: the rest keep their order), so for every layout of the layer
    ///
    /// ```text
    ///   rank(board) = block_start(opponent row) + row_rank(mover row)
    /// ```
    ///
    /// `opponent` holds the opponent's pits as byte lanes in sowing order
    /// ([`Board::opponent_lanes`]), at most `seeds` seeds in all (and, reduced, an empty pit).
    /// Builders use the split to compute a row's part once for many layouts. The terms are
    /// those of the first `m` pits of [`LayerIndex::rank_on`].
    ///
    /// # Panics
    /// In debug builds, for a row of more seeds than the layer holds, or a row with no empty pit
    /// in the reduced index.
    #[must_use]
    #[inline]
    pub fn block_start(&self, opponent: u64) -> u64 {
        let m = self.pits;
        let mut r = i64::from(self.seeds);
        let mut start = 0u64;
        // Reduced: the pits before the first empty one take the correction of `rank_on`.
        let mut zero_seen = !self.reduced;
        for p in 0..m {
            let b = i64::from((opponent >> (8 * p)) as u8);
            let k = 2 * m - p;
            start += self.a(k, r) - self.a(k, r - b);
            if b == 0 {
                zero_seen = true;
            } else if !zero_seen {
                let j = (m - 1 - p) as i64;
                start -= self.a(k, r - 1 - j) - self.a(k, r - b - j);
            }
            r -= b;
        }
        debug_assert!(r >= 0, "opponent row of more than {} seeds", self.seeds);
        debug_assert!(
            zero_seen,
            "an opponent row with no empty pit in the reduced index"
        );
        start
    }

    /// The rank of a row of `m` pits (byte lanes in sowing order) among the rows of `m` pits
    /// holding the same number of seeds, in lexicographic order of the pits in sowing order; the
    /// mover's part of [`LayerIndex::rank`] (see [`LayerIndex::block_start`]). Rows of up to
    /// the layer's seeds.
    #[must_use]
    #[inline]
    pub fn row_rank(&self, row: u64) -> u64 {
        self.row_rank_on(row, self.pits)
    }

    /// [`LayerIndex::row_rank`] told the layer's pits a side, `m` (which must be
    /// [`LayerIndex::pits`]): a caller that knows `m` as a constant gets the loop unrolled.
    #[must_use]
    #[inline(always)]
    pub fn row_rank_on(&self, row: u64, m: usize) -> u64 {
        debug_assert_eq!(m, self.pits);
        let mut r = i64::from(granary_rules::board::byte_sum(row));
        let mut rank = 0u64;
        for p in 0..m - 1 {
            let b = i64::from((row >> (8 * p)) as u8);
            let after = m - 1 - p;
            rank += self.a(after + 1, r) - self.a(after + 1, r - b);
            r -= b;
        }
        rank
    }

    /// Rows of `m` pits holding `seeds` seeds: `A(m, seeds)`.
    #[must_use]
    pub fn rows(&self, seeds: u32) -> u64 {
        self.a(self.pits, i64::from(seeds))
    }

    /// The layout of rank `index`.
    ///
    /// # Panics
    /// If `index >= size()`.
    #[must_use]
    pub fn unrank(&self, mut index: u64) -> Board {
        assert!(
            index < self.size,
            "index {index} >= layer size {}",
            self.size
        );
        let m = self.pits;
        let mut lanes = [0u8; MAX_PITS];
        let mut r = self.seeds as usize;
        let mut p = 0;
        // Each pit takes the value `v` whose block of completions holds what is left of the
        // index: the blocks of `v = 0, 1, ...` are counted off in turn (a pit rarely holds
        // many seeds), each count one or two lookups in the table of A.
        if self.reduced {
            // Before the first zero among the opponent's pits: `v = 0` is a zero, after which
            // every completion of the k = 2m - 1 - p pits after p is valid, A(k, r); for v > 0
            // only those with a zero among the j = m - 1 - p opponent pits after p,
            // A(k, r - v) - A(k, r - v - j).
            while p < m {
                let k = 2 * m - 1 - p;
                let j = (m - 1 - p) as i64;
                let zero = self.ways[k * STRIDE + r];
                if index < zero {
                    p += 1; // lanes[p] = 0: a zero seen
                    break;
                }
                index -= zero;
                let mut v = 1;
                loop {
                    let left = r as i64 - v as i64;
                    let count = self.a(k, left) - self.a(k, left - j);
                    if index < count {
                        break;
                    }
                    index -= count;
                    v += 1;
                    assert!(v <= r, "unrank past the layer");
                }
                lanes[p] = v as u8;
                r -= v;
                p += 1;
            }
        }
        // From the first zero on (or from the start, unreduced): A(k, r - v) completions; the
        // mover's row is the rank left among the rows of the seeds left.
        while p < m {
            let row = &self.ways[(2 * m - 1 - p) * STRIDE..];
            let mut v = 0;
            while index >= row[r - v] {
                index -= row[r - v];
                v += 1;
            }
            lanes[p] = v as u8;
            r -= v;
            p += 1;
        }
        let opponent = u64::from_le_bytes(lanes[..8].try_into().expect("8 lanes"));
        let mover = self.row_unrank(index, r as u32);
        Board(u128::from(mover) | u128::from(opponent) << (8 * m))
    }

    /// The mover's row of rank `index` among the rows of the layer's pits holding `seeds` seeds
    /// (byte lanes in sowing order): the inverse of [`LayerIndex::row_rank`], the mover's part of
    /// [`LayerIndex::unrank`].
    ///
    /// # Panics
    /// If `index >= rows(seeds)` (a debug assertion), or `seeds` exceeds the layer's seeds.
    #[must_use]
    pub fn row_unrank(&self, mut index: u64, seeds: u32) -> u64 {
        debug_assert!(index < self.rows(seeds), "row index {index} out of range");
        let m = self.pits;
        let mut r = seeds as usize;
        let mut row = 0u64;
        for p in 0..m - 1 {
            let completions = &self.ways[(m - 1 - p) * STRIDE..];
            let mut v = 0;
            while index >= completions[r - v] {
                index -= completions[r - v];
                v += 1;
            }
            row |= (v as u64) << (8 * p);
            r -= v;
        }
        row | (r as u64) << (8 * (m - 1))
    }

    /// [`LayerIndex::unrank`] for ranks that mostly come near the last one (a scan's, in rank
    /// order): a rank in the group of the last (the positions of one opponent's row, see
    /// [`LayerIndex::block_start`]) costs only its mover's row ([`LayerIndex::row_unrank`]).
    ///
    /// # Panics
    /// As [`LayerIndex::unrank`].
    #[must_use]
    pub fn unrank_near(&self, rank: u64, last: &mut Group) -> Board {
        if last.ranks.contains(&rank) {
            let mover = self.row_unrank(rank - last.ranks.start, last.seeds);
            return Board(last.opponent | u128::from(mover));
        }
        let board = self.unrank(rank);
        let m = self.pits;
        let opponent = board.opponent_lanes(m);
        let seeds = self.seeds - granary_rules::board::byte_sum(opponent);
        let start = self.block_start(opponent);
        *last = Group {
            ranks: start..start + self.rows(seeds),
            opponent: u128::from(opponent) << (8 * m),
            seeds,
        };
        board
    }

    /// The layouts of ranks `first, first + 1, ...` in order, stepping from one to the next
    /// without unranking each.
    pub fn iter_from(&self, first: u64) -> impl Iterator<Item = Board> + '_ {
        let m = self.pits;
        let mut next = (first < self.size).then(|| self.unrank(first).flipped(m).0);
        std::iter::from_fn(move || {
            let current = next.take()?;
            next = self.successor(current);
            Some(Board(current).flipped(m))
        })
    }

    /// The next valid sequence in lexicographic order, if any. A sequence is held as the board
    /// seen from the opponent (its entry `j` in byte `j`: the opponent's pits, then the
    /// mover's), so that a step is a few integer operations.
    fn successor(&self, mut s: u128) -> Option<u128> {
        let last = 2 * self.pits - 1;
        loop {
            // The last non-zero entry gives one seed to the entry before it, and what it keeps
            // goes to the end.
            let q = s.checked_ilog2()? as usize / 8;
            if q == 0 {
                return None;
            }
            let tail = (s >> (8 * q)) as u8 - 1;
            s &= (1u128 << (8 * q)) - 1;
            s += 1u128 << (8 * (q - 1));
            s |= u128::from(tail) << (8 * last);
            if !self.reduced || (s as u64).to_le_bytes()[..self.pits].contains(&0) {
                return Some(s);
            }
        }
    }
}

/// The group of the last rank [`LayerIndex::unrank_near`] unranked: its ranks, its opponent's
/// row (in place on the board) and the seeds left to the mover. The default holds no rank.
#[derive(Clone, Debug, Default)]
pub struct Group {
    ranks: std::ops::Range<u64>,
    opponent: u128,
    seeds: u32,
}
