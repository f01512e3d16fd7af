//! The proof searches' speed, the measure of their tables' hashing: the depth-limited search of
//! Bao la kujifunza's start to depth 10 ([`Prover`]) and a proof-number search of Bao la
//! kiswahili's start within 2,000,000 tree nodes ([`pns::search`]), each run `RUNS` times (the
//! median and every run in seconds). `cargo run --release -p granary-bao --example proofs -- [RUNS]`
//! (default 3).

use std::time::Instant;

use granary_bao::pns;
use granary_bao::prove::Prover;
use granary_bao::{BaoRules, Position, Start};

/// The median of `runs` runs of `f`, with every run's seconds.
fn timed(runs: usize, mut f: impl FnMut() -> String) -> (f64, Vec<f64>, String) {
    let mut seconds = Vec::new();
    let mut what = String::new();
    for _ in 0..runs {
        let start = Instant::now();
        what = f();
        seconds.push(start.elapsed().as_secs_f64());
    }
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    (sorted[sorted.len() / 2], seconds, what)
}

fn report(name: &str, (median, seconds, what): (f64, Vec<f64>, String)) {
    let runs: Vec<String> = seconds.iter().map(|s| format!("{s:.3}")).collect();
    println!(
        "{name}: median {median:.3} s (runs {}); {what}",
        runs.join(", ")
    );
}

fn main() {
    let runs = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    let kujifunza = BaoRules::new(Start::Kujifunza);
    let start = Position::start(&kujifunza);
    report(
        "depth 10, kujifunza",
        timed(runs, || {
            let mut prover = Prover::new(&kujifunza);
            let proof = prover.prove(&start, 10, |_, _| {});
            format!("{proof:?}, {} nodes", prover.nodes)
        }),
    );
    let kiswahili = BaoRules::new(Start::Kiswahili);
    let start = Position::start(&kiswahili);
    report(
        "pns 2,000,000, kiswahili",
        timed(runs, || {
            let result = pns::search(&kiswahili, &start, 2_000_000);
            format!("{:?}, {} tree nodes", result.verdict, result.nodes)
        }),
    );
}
