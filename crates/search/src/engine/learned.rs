//! An evaluation learned from the tables: a linear function of a position's features, fitted by
//! least squares to the exact values of positions the tables hold ([`fit`]), and the
//! positions to fit it on ([`training_set`]: random layouts of a few layers below the tables'
//! top, each valued by the tables).
//!
//! # Features
//! Of the board only (stores do not change a value), seen from the player to move, lanes in
//! sowing order (the mover's first pit is lane 0):
//!
//! ```text
//!  index   feature
//!  0..8    seeds in the mover's pit of lane i (0 past the board's pits)
//!  8..16   seeds in the opponent's pit of lane i
//!  16, 17  the mover's, the opponent's pits holding 1 or 2 seeds (Oware: a sowing that ends
//!          there makes 2 or 3, a capture)
//!  18, 19  the mover's, the opponent's empty pits (Kalah: a sowing that ends there captures)
//!  20, 21  the mover's, the opponent's pits whose seeds end exactly in their own store
//!          (Kalah: another move)
//!  22, 23  the mover's, the opponent's pits holding at least 2m seeds (a sowing that goes
//!          round the board)
//!  24      1
//! ```
//!
//! The seed difference ([`super::SeedDifference`]) is the function with weight 1/2 on each of
//! the mover's pits and -1/2 on each of the opponent's; a fit starts from nothing and finds its
//! own. The weights of a game are fitted once per table kind (`scripts/fit-evaluation.sh`,
//! kept in `weights.rs` with the fit's figures) and chosen by [`Evaluation::for_game`].

use std::ops::RangeInclusive;

use granary_rules::{Board, Capture, Game, Position, Rules, Side};
use granary_tables::TableSet;
use granary_tables::error::TableError;
use granary_tables::probe::position_value;
use rand_core::RngCore;

use super::evaluate::{Evaluate, SeedDifference};
use super::weights;

/// The number of features (the module's table).
pub const FEATURES: usize = 25;

/// The most pits a side has that the features describe one by one.
const LANES: usize = 8;

/// The features of `board` (mover first) on a board of `pits` pits a side (at most 8).
#[must_use]
pub fn features(board: Board, pits: usize) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    for side in 0..2 {
        for lane in 0..pits {
            let seeds = usize::from(board.pit(side * pits + lane));
            f[side * LANES + lane] = seeds as f64;
            if seeds == 1 || seeds == 2 {
                f[16 + side] += 1.0;
            }
            if seeds == 0 {
                f[18 + side] += 1.0;
            }
            if seeds == pits - lane {
                f[20 + side] += 1.0;
            }
            if seeds >= 2 * pits {
                f[22 + side] += 1.0;
            }
        }
    }
    f[24] = 1.0;
    f
}

/// A linear evaluation: the weights of the module's features.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub weights: [f64; FEATURES],
}

impl Learned {
    /// The estimate of `board` before rounding.
    #[must_use]
    pub fn raw(&self, board: Board, pits: usize) -> f64 {
        features(board, pits)
            .iter()
            .zip(&self.weights)
            .map(|(f, w)| f * w)
            .sum()
    }
}

impl Evaluate for Learned {
    #[inline]
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        self.raw(pos.board, pits).round() as i32
    }
}

/// The evaluation the engine uses for a game: the learned weights where the project has
/// fitted them, else the seed difference.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluation {
    SeedDifference,
    Learned(Learned),
}

impl Evaluation {
    /// The fitted weights of `game` on `pits` pits a side, where there are some: Kalah(6) of
    /// each capture rule, and Oware(6) (fitted on the awari tables; abapa's differ only near
    /// the game's end, and use them too). Else the seed difference.
    #[must_use]
    pub fn for_game(game: Game, pits: usize) -> Evaluation {
        let fitted = match (game, pits) {
            (Game::Oware { .. }, 6) => Some(&weights::OWARE_6),
            (Game::Kalah { capture, .. }, 6) => match capture {
                Capture::Empty => Some(&weights::KALAH_6_EMPTY),
                Capture::Standard => Some(&weights::KALAH_6_STANDARD),
            },
            _ => None,
        };
        fitted.map_or(Evaluation::SeedDifference, |weights| {
            Evaluation::Learned(Learned { weights: *weights })
        })
    }

    /// What it is, in a few words: `learned` or `seed difference`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Evaluation::SeedDifference => "seed difference",
            Evaluation::Learned(_) => "learned",
        }
    }
}

impl Evaluate for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &Position, pits: usize) -> i32 {
        match self {
            Evaluation::SeedDifference => SeedDifference.evaluate(pos, pits),
            Evaluation::Learned(learned) => learned.evaluate(pos, pits),
        }
    }
}

/// Uniform in `0..n`, from 64 random bits (the high part of their product with `n`).
#[must_use]
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// A board of `seeds` seeds over `2 * pits` pits, every spread equally likely (stars and bars:
/// the bars are a uniform choice of `2 * pits - 1` of `seeds + 2 * pits - 1` slots).
///
/// # Panics
/// If `pits` is 0 or more than a board holds, or a pit would hold more than 255 seeds.
pub fn random_board(rng: &mut impl RngCore, seeds: u32, pits: usize) -> Board {
    let bars_count = 2 * pits - 1;
    let slots = seeds as usize + bars_count;
    let mut order: Vec<usize> = (0..slots).collect();
    for i in 0..bars_count {
        let j = i + below(rng, slots - i);
        order.swap(i, j);
    }
    let mut bars = order[..bars_count].to_vec();
    bars.sort_unstable();
    let mut lanes = vec![0u8; 2 * pits];
    let mut start = 0;
    for (pit, &bar) in bars.iter().enumerate() {
        lanes[pit] = u8::try_from(bar - start).expect("a pit's seeds");
        start = bar + 1;
    }
    lanes[bars_count] = u8::try_from(slots - start).expect("a pit's seeds");
    Board::from_sides(&lanes[..pits], &lanes[pits..])
}

/// Whether the mover of `pos` has no move that captures (a move whose gain is more than the
/// seeds it sows into its own store): a position where the engine's quiescence search stands on
/// the evaluation alone.
#[must_use]
pub fn quiet<R: Rules>(rules: &R, pos: &Position) -> bool {
    let sowing = rules.sow_table();
    rules.legal_moves(pos).iter().all(|lane| {
        let child = rules.play(pos, lane);
        let (gain, _) = pos.move_gain(&child);
        gain <= i32::from(sowing.get(lane, pos.board.pit(lane)).store)
    })
}

/// `per_layer` random boards of each layer of `layers` ([`random_board`] from `rng`) with a
/// legal move for South to move, and (`quiet_only`) no capture ([`quiet`]), each with its
/// exact value from `tables` (every layer of `layers` present), by `rules` (the tables' own,
/// [`granary_tables::TableKind::engine`]).
///
/// # Errors
/// A missing or damaged layer.
pub fn training_set<R: Rules>(
    rules: &R,
    tables: &TableSet,
    layers: RangeInclusive<u32>,
    per_layer: usize,
    quiet_only: bool,
    rng: &mut impl RngCore,
) -> Result<Vec<(Board, i32)>, TableError> {
    let pits = rules.pits();
    let mut out = Vec::with_capacity(per_layer * layers.clone().count());
    for layer in layers {
        let mut found = 0;
        while found < per_layer {
            let pos = Position {
                board: random_board(rng, layer, pits),
                stores: [0, 0],
                to_move: Side::South,
            };
            if rules.legal_moves(&pos).is_empty() || (quiet_only && !quiet(rules, &pos)) {
                continue;
            }
            out.push((pos.board, position_value(tables, rules, &pos)?));
            found += 1;
        }
    }
    Ok(out)
}

/// The linear evaluation of least squared error on `samples` (boards on `pits` pits a side
/// and their exact values), with a ridge of `ridge` on every weight but the constant's (which
/// keeps the features a board of fewer than 8 pits never has at weight 0).
///
/// # Panics
/// If `samples` is empty.
#[must_use]
pub fn fit(samples: &[(Board, i32)], pits: usize, ridge: f64) -> Learned {
    assert!(!samples.is_empty(), "a fit needs samples");
    // The normal equations (X'X + ridge I) w = X'y.
    let mut a = [[0.0f64; FEATURES]; FEATURES];
    let mut b = [0.0f64; FEATURES];
    for &(board, value) in samples {
        let f = features(board, pits);
        for i in 0..FEATURES {
            b[i] += f[i] * f64::from(value);
            for j in 0..FEATURES {
                a[i][j] += f[i] * f[j];
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate().take(FEATURES - 1) {
        row[i] += ridge * samples.len() as f64;
    }
    Learned {
        weights: solve(a, b),
    }
}

/// The solution of `a x = b` by Gaussian elimination with partial pivoting (`a` symmetric and
/// positive definite: the normal equations with a ridge).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("a row");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        for row in col + 1..FEATURES {
            let factor = a[row][col] / p;
            if factor != 0.0 {
                let pivot_row = a[col];
                for (x, y) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= factor * y;
                }
                b[row] -= factor * b[col];
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let p = a[row][row];
        if p.abs() < 1e-12 {
            continue;
        }
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / p;
    }
    x
}

/// How an evaluation's estimates of `samples` stand against their exact values: the mean
/// absolute error and the root mean squared error, in seeds.
#[must_use]
pub fn error<E: Evaluate>(evaluate: &E, samples: &[(Board, i32)], pits: usize) -> (f64, f64) {
    let n = samples.len().max(1) as f64;
    let (mut abs, mut sq) = (0.0, 0.0);
    for &(board, value) in samples {
        let pos = Position {
            board,
            stores: [0, 0],
            to_move: Side::South,
        };
        let seeds = i32::try_from(board.seeds(pits)).unwrap_or(i32::MAX);
        let e = f64::from(evaluate.evaluate(&pos, pits).clamp(-seeds, seeds) - value);
        abs += e.abs();
        sq += e * e;
    }
    (abs / n, (sq / n).sqrt())
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;
    use rand_xoshiro::SplitMix64;

    use super::*;

    #[test]
    fn the_features_of_a_board_follow_the_drawn_layout() {
        // Mover: 0,1,2,3,12,1; opponent: 2,0,0,5,0,13.
        let board = Board::from_sides(&[0, 1, 2, 3, 12, 1], &[2, 0, 0, 5, 0, 13]);
        let f = features(board, 6);
        assert_eq!(&f[..6], &[0.0, 1.0, 2.0, 3.0, 12.0, 1.0]);
        assert_eq!(&f[6..8], &[0.0, 0.0]);
        assert_eq!(&f[8..14], &[2.0, 0.0, 0.0, 5.0, 0.0, 13.0]);
        assert_eq!(f[16], 3.0); // 1, 2, 1
        assert_eq!(f[17], 1.0); // 2
        assert_eq!((f[18], f[19]), (1.0, 3.0));
        // Mover lane 3 holds 3 = 6 - 3; lane 5 holds 1 = 6 - 5. Opponent: none.
        assert_eq!((f[20], f[21]), (2.0, 0.0));
        assert_eq!((f[22], f[23]), (1.0, 1.0));
        assert_eq!(f[24], 1.0);
    }

    #[test]
    fn a_fit_recovers_a_linear_function_and_the_seed_difference_is_one() {
        // Values that are exactly the seed difference (without its rounding): the fit finds
        // weights 1/2 and -1/2.
        let mut rng = SplitMix64::seed_from_u64(7);
        let samples: Vec<(Board, i32)> = (0..2000)
            .map(|i| {
                let board = random_board(&mut rng, 2 * (i % 10) + 2, 6);
                let v = (board.mover_seeds(6) as i32 - board.opponent_seeds(6) as i32) / 2;
                (board, v)
            })
            .collect();
        let learned = fit(&samples, 6, 1e-9);
        for lane in 0..6 {
            assert!((learned.weights[lane] - 0.5).abs() < 1e-6, "{learned:?}");
            assert!(
                (learned.weights[8 + lane] + 0.5).abs() < 1e-6,
                "{learned:?}"
            );
        }
        assert_eq!(error(&learned, &samples, 6), (0.0, 0.0));
    }

    #[test]
    fn random_boards_hold_their_seeds_and_repeat_from_a_seed() {
        let mut a = SplitMix64::seed_from_u64(3);
        let mut b = SplitMix64::seed_from_u64(3);
        for seeds in 0..40 {
            let board = random_board(&mut a, seeds, 6);
            assert_eq!(board.seeds(6), seeds);
            assert_eq!(board, random_board(&mut b, seeds, 6));
        }
    }
}
