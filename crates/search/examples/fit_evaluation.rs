//! Fits the engine's learned evaluation ([`granary_search::engine::learned`]) on the exact
//! values of the tables, and measures it against the seed difference on positions it was not
//! fitted on.
//!
//! `cargo run -p granary-search --profile ci --example fit_evaluation -- DIR TABLES LAYERS
//! PER_LAYER [NAME]`, e.g. `/work/oware awari 17..=24 20000 OWARE_6`: the 6-pit tables of
//! `TABLES` (`awari`, `kalah-empty` or `kalah-standard`) under `DIR` (every layer of `LAYERS` present), `PER_LAYER` random boards of each layer of
//! `LAYERS` (`A..=B`) to fit on, as many others (another seed) to measure on. Prints the error
//! of both evaluations, overall and a layer at a time, then (with `NAME`) the weights as a Rust
//! constant for `crates/search/src/engine/weights.rs` (`scripts/fit-evaluation.sh` writes that
//! file).

// Each example uses a part of what the examples share.
#[allow(dead_code)]
mod common;

use std::path::Path;
use std::time::Instant;

use granary_rules::Board;
use granary_search::SeedDifference;
use granary_search::engine::learned::{FEATURES, error, fit, training_set};
use granary_tables::TableSet;
use rand_core::SeedableRng;
use rand_xoshiro::SplitMix64;

/// The seeds of the random boards: fitted on, measured on.
const FIT_SEED: u64 = 0x05EE_DF17;
const TEST_SEED: u64 = 0x7E57_5EED;

/// The ridge on the weights (relative to the samples): small, it only keeps the features a
/// 6-pit board never has at 0.
const RIDGE: f64 = 1e-6;

/// Fitted on every board, quiet or not: the engine given tables `0..=12` loses less with such a
/// fit far above them than with one on quiet boards alone (`docs/benchmarks.md`), and as much
/// just above them.
const QUIET: bool = false;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 4,
        "usage: fit_evaluation DIR TABLES A..=B PER_LAYER [NAME]"
    );
    let dir = Path::new(&args[0]);
    let kind = common::table_kind(&args[1]);
    let (a, b) = args[2].split_once("..=").expect("LAYERS: A..=B");
    let layers = a.parse::<u32>().expect("A")..=b.parse::<u32>().expect("B");
    let per_layer: usize = args[3].parse().expect("PER_LAYER: a number");
    let name = args.get(4).filter(|n| !n.contains(".."));
    // Measured on other layers than those fitted on, where a fifth argument names them.
    let test_layers = match args
        .get(4)
        .or(args.get(5))
        .and_then(|a| a.split_once("..="))
    {
        Some((a, b)) => a.parse::<u32>().expect("A")..=b.parse::<u32>().expect("B"),
        None => layers.clone(),
    };

    let set = TableSet::new(dir, kind);
    let rules = kind.engine();
    let pits = kind.pits;
    let t = Instant::now();
    let train = training_set(
        &rules,
        &set,
        layers.clone(),
        per_layer,
        QUIET,
        &mut SplitMix64::seed_from_u64(FIT_SEED),
    )
    .expect("the tables of the layers");
    let test = training_set(
        &rules,
        &set,
        test_layers.clone(),
        per_layer,
        QUIET,
        &mut SplitMix64::seed_from_u64(TEST_SEED),
    )
    .expect("the tables of the layers");
    let sampled = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let learned = fit(&train, pits, RIDGE);
    let fitted = t.elapsed().as_secs_f64();
    println!(
        "fit_evaluation {}: {} boards fitted on, {} measured on (sampled in {sampled:.1} s, \
         fitted in {fitted:.2} s)",
        args.join(" "),
        train.len(),
        test.len()
    );
    println!(
        "{:>7} {:>10} {:>10} {:>10} {:>10}",
        "layer", "seed MAE", "seed RMSE", "learn MAE", "learn RMSE"
    );
    let row = |label: &str, samples: &[(Board, i32)]| {
        let (sm, sr) = error(&SeedDifference, samples, pits);
        let (lm, lr) = error(&learned, samples, pits);
        println!("{label:>7} {sm:>10.3} {sr:>10.3} {lm:>10.3} {lr:>10.3}");
    };
    row("all", &test);
    for layer in test_layers {
        let of_layer: Vec<(Board, i32)> = test
            .iter()
            .copied()
            .filter(|(board, _)| board.seeds(pits) == layer)
            .collect();
        row(&layer.to_string(), &of_layer);
    }
    let Some(name) = name else {
        return;
    };
    let (sm, _) = error(&SeedDifference, &test, pits);
    let (lm, _) = error(&learned, &test, pits);
    println!();
    println!(
        "/// {}: fitted on {} random boards of layers {}..={} ({per_layer} a layer).\n\
         /// Mean absolute error {lm:.3} seeds on as many others; the seed difference's {sm:.3}.",
        kind.name(),
        train.len(),
        layers.start(),
        layers.end()
    );
    println!("pub(super) const {name}: [f64; {FEATURES}] = [");
    for w in learned.weights {
        println!("    {w:.6},");
    }
    println!("];");
}
