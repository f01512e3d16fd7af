//! Perft speed of the packed engine on one core: `cargo bench -p granary-rules --bench perft`.
//!
//! Prints, for Kalah(6,4) and Oware(6,4), the median of several runs of
//! - leaf nodes a second with bulk counting (the last ply counted, not played), as chess engines
//!   quote perft, and
//! - moves played a second when every move down to the leaves is made.

use std::time::Instant;

use granary_rules::perft::{perft, perft_played};
use granary_rules::{Capture, Game, OwareRules, Rules, Sweep, Variant};

const RUNS: usize = 5;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn measure<R: Rules>(name: &str, rules: &R, variant: &Variant, depth: u32) {
    let start = variant.start();
    let mut bulk = Vec::new();
    let mut played = Vec::new();
    let mut nodes = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        nodes = perft(rules, &start, depth);
        bulk.push(nodes as f64 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        let moves = perft_played(rules, &start, depth);
        assert_eq!(moves, nodes);
        played.push(moves as f64 / t.elapsed().as_secs_f64());
    }
    println!(
        "{name:<28} depth {depth:>2} {nodes:>12} leaves   bulk {:>7.1} M leaves/s   played {:>6.1} M moves/s   (median of {RUNS})",
        median(bulk) / 1e6,
        median(played) / 1e6
    );
}

fn main() {
    let kalah = |capture| {
        Variant::new(
            Game::Kalah {
                capture,
                sweep: Sweep::Owner,
            },
            6,
            4,
        )
        .unwrap()
    };
    let oware = |rules| Variant::new(Game::Oware { rules }, 6, 4).unwrap();
    for capture in [Capture::Empty, Capture::Standard] {
        let v = kalah(capture);
        let granary_rules::Engine::Kalah(rules) = v.engine() else {
            unreachable!()
        };
        measure(&v.to_string(), &rules, &v, 10);
    }
    for rules in [OwareRules::Abapa, OwareRules::Awari] {
        let v = oware(rules);
        let granary_rules::Engine::Oware(engine) = v.engine() else {
            unreachable!()
        };
        measure(&v.to_string(), &engine, &v, 10);
    }
}
