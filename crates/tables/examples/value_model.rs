//! What a model of the stored values could gain, measured on built layers before any format is
//! chosen: for each layer given, over runs of consecutive entries starting at random ranks,
//!
//! - the share of *don't-care* positions: those whose value a move into a lower layer already
//!   gives (a capture in Oware; in Kalah, any move that sows into the store), and those without a
//!   move (valued by the rules alone);
//! - the entropy of the values (bits a position) under several contexts: none, the previous
//!   entry, the two previous, the seeds on the mover's side, the value the lower layers
//!   guarantee, and pairs of these;
//! - the same entropies once each don't-care entry is replaced by the previous stored one where
//!   that is allowed (any value at most the guaranteed one rebuilds the true value as
//!   `max(stored, guaranteed)`);
//! - the bits a position of Huffman codes in three of those contexts (as version 3 codes them);
//! - the cost of rebuilding a don't-care: the time to compute the guaranteed value of a random
//!   position from its lower layers (mapped, warm), median and 99th percentile.
//!
//! `cargo run --release -p granary-tables --example value_model -- GAME DIR LAYER...`
//! with GAME `awari`, `abapa`, `kalah-standard` or `kalah-empty` (6 pits).

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use granary_rules::{Capture, Game, OwareRules, Position, Rules, Sweep};
use granary_tables::huffman::Lengths;
use granary_tables::probe::move_value;
use granary_tables::{TableKind, TableSet};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Runs of consecutive entries a layer, and their length.
const RUNS: u64 = 1024;
const RUN: u64 = 4096;
/// Random positions timed for the cost of a rebuild.
const TIMED: usize = 20_001;

/// Counts of values (shifted by `n`) under each context.
#[derive(Default)]
struct Model(HashMap<u64, Vec<u64>>);

impl Model {
    fn add(&mut self, context: u64, value: usize, width: usize) {
        self.0.entry(context).or_insert_with(|| vec![0; width])[value] += 1;
    }

    /// The empirical conditional entropy, bits a position.
    fn bits(&self) -> f64 {
        let total: u64 = self.0.values().flatten().sum();
        let mut bits = 0.0;
        for counts in self.0.values() {
            let sum: u64 = counts.iter().sum();
            for &c in counts.iter().filter(|&&c| c > 0) {
                bits -= c as f64 * (c as f64 / sum as f64).log2();
            }
        }
        bits / total as f64
    }

    /// The bits a position of a Huffman code a context (as version 3 codes the previous
    /// entry's context: lengths limited to 11 bits), model left out.
    fn huffman_bits(&self, width: usize) -> f64 {
        let total: u64 = self.0.values().flatten().sum();
        let mut bits = 0;
        for counts in self.0.values() {
            let mut padded = vec![0u64; (width + 1) * width];
            padded[width * width..].copy_from_slice(counts);
            let lengths = Lengths::fit(width, &padded);
            bits += lengths
                .cost(&padded)
                .expect("a code for every counted symbol");
        }
        bits as f64 / total as f64
    }
}

fn kind_of(game: &str) -> TableKind {
    let game = match game {
        "awari" => Game::Oware {
            rules: OwareRules::Awari,
        },
        "abapa" => Game::Oware {
            rules: OwareRules::Abapa,
        },
        "kalah-standard" => Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        "kalah-empty" => Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        _ => panic!("GAME: awari, abapa, kalah-standard or kalah-empty"),
    };
    TableKind::new(game, 6).expect("6 pits")
}

/// The best value a move into a lower layer gives the mover of `pos` (`None` without such a
/// move), and whether `pos` has no move at all (then its value is the rules').
fn guaranteed<R: Rules>(
    set: &TableSet,
    rules: &R,
    pos: &Position,
    seeds: u32,
) -> (Option<i32>, bool) {
    let moves = rules.legal_moves(pos);
    if moves.is_empty() {
        return (None, true);
    }
    let mut best = None;
    for lane in moves.iter() {
        let child = rules.play(pos, lane);
        if child.board.seeds(6) < seeds {
            let value = move_value(set, rules, pos, lane).expect("lower layers readable");
            best = Some(best.map_or(value, |b: i32| b.max(value)));
        }
    }
    (best, false)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = kind_of(&args[0]);
    let set = TableSet::new(Path::new(&args[1]), kind);
    let rules = kind.engine();
    println!(
        "| layer | sampled | lower move | don't-care | H0 | H(prev) | H(prev2) | H(side) | H(side,prev) | H(guar) | H(guar,prev) | filled H0 | filled H(prev) | filled H(prev2) | filled H(side,prev) | filled H(guar,prev) | H(prev,last pit) | filled H(prev,last pit) | filled H(prev2,side) | Huffman: prev / filled prev / filled guar,prev | rebuild median / p99 |"
    );
    println!("|{}", " --- |".repeat(21));
    for layer_arg in &args[2..] {
        let seeds: u32 = layer_arg.parse().expect("a layer number");
        let layer = set.layer(seeds).expect("layer readable");
        let index = layer.index();
        let size = index.size();
        let n = seeds as i32;
        let width = (2 * n + 1) as usize;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(seeds));
        let names = [
            "H0",
            "prev",
            "prev2",
            "side",
            "side,prev",
            "guar",
            "guar,prev",
            "f H0",
            "f prev",
            "f prev2",
            "f side,prev",
            "f guar,prev",
            "prev,last",
            "f prev,last",
            "f prev2,side",
        ];
        let mut models: Vec<Model> = names.iter().map(|_| Model::default()).collect();
        let (mut sampled, mut lower, mut dont_care) = (0u64, 0u64, 0u64);
        let runs = if size <= RUNS * RUN { 1 } else { RUNS };
        for _ in 0..runs {
            let (first, len) = if runs == 1 {
                (0, size)
            } else {
                (rng.next_u64() % (size - RUN), RUN)
            };
            let (mut p1, mut p2, mut f1, mut f2) = (width, width, width, width);
            for (offset, board) in index.iter_from(first).take(len as usize).enumerate() {
                let i = first + offset as u64;
                let v = i32::from(layer.value(i));
                let pos = Position::of_board(board);
                let (guar, terminal) = guaranteed(&set, &rules, &pos, seeds);
                sampled += 1;
                lower += u64::from(guar.is_some());
                let care = !(terminal || guar == Some(v));
                dont_care += u64::from(!care);
                let vi = (v + n) as usize;
                let g = guar.map_or(width as u64, |g| (g + n) as u64);
                let w = width as u64 + 1;
                let side = u64::from(board.mover_seeds(6));
                models[0].add(0, vi, width);
                models[1].add(p1 as u64, vi, width);
                models[2].add(p1 as u64 * w + p2 as u64, vi, width);
                models[3].add(side, vi, width);
                models[4].add(side * w + p1 as u64, vi, width);
                models[5].add(g, vi, width);
                models[6].add(g * w + p1 as u64, vi, width);
                // The stored entry: the true value where it matters, else the previous stored one
                // if that rebuilds the value, else the largest one that does.
                let stored = if care {
                    vi
                } else {
                    let limit = if terminal { width - 1 } else { g as usize };
                    if f1 <= limit { f1 } else { limit }
                };
                models[7].add(0, stored, width);
                models[8].add(f1 as u64, stored, width);
                models[9].add(f1 as u64 * w + f2 as u64, stored, width);
                models[10].add(side * w + f1 as u64, stored, width);
                models[11].add(g * w + f1 as u64, stored, width);
                let last = u64::from(board.pit(5));
                models[12].add(last * w + p1 as u64, vi, width);
                models[13].add(last * w + f1 as u64, stored, width);
                models[14].add((side * w + f1 as u64) * w + f2 as u64, stored, width);
                (p2, p1) = (p1, vi);
                (f2, f1) = (f1, stored);
            }
        }
        // The cost of a rebuild at random positions.
        let mut times = Vec::with_capacity(TIMED);
        let mut sink = 0i64;
        for _ in 0..TIMED {
            let i = rng.next_u64() % size;
            let board = index.unrank(i);
            let start = Instant::now();
            let pos = Position::of_board(board);
            let (guar, _) = guaranteed(&set, &rules, &pos, seeds);
            sink += i64::from(guar.unwrap_or(0));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
        std::hint::black_box(sink);
        times.sort_by(f64::total_cmp);
        let bits: Vec<String> = models.iter().map(|m| format!("{:.2}", m.bits())).collect();
        println!(
            "| {seeds} | {sampled} | {:.1}% | {:.1}% | {} | {:.2} / {:.2} / {:.2} | {:.2} / {:.2} µs |",
            100.0 * lower as f64 / sampled as f64,
            100.0 * dont_care as f64 / sampled as f64,
            bits.join(" | "),
            models[1].huffman_bits(width),
            models[8].huffman_bits(width),
            models[11].huffman_bits(width),
            times[times.len() / 2],
            times[times.len() * 99 / 100],
        );
    }
}
