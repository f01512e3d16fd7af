//! `granary perft`: move-path counts, per depth or split by first move (Kalah, Oware, Bao).

use std::time::Instant;

use serde_json::{Value, json};

use crate::args::PerftArgs;
use crate::error::CliResult;

/// What perft counts from: a two-row game or Bao.
enum Start {
    Mancala(granary::Mancala),
    Bao(granary::BaoRules, granary::BaoPosition),
}

impl Start {
    fn count(&self, depth: u32) -> u64 {
        match self {
            Start::Mancala(game) => granary::show::perft_count(game, depth),
            Start::Bao(rules, pos) => granary::bao::perft_count(rules, pos, depth),
        }
    }

    /// The split by first move: `(move as JSON, move as text, count)`.
    fn divide(&self, depth: u32) -> Vec<(Value, String, u64)> {
        match self {
            Start::Mancala(game) => granary::show::perft_divide(game, depth)
                .into_iter()
                .map(|(pit, n)| (json!(pit), format!("pit {pit}"), n))
                .collect(),
            Start::Bao(rules, pos) => granary::bao::perft_divide(rules, pos, depth)
                .into_iter()
                .map(|(m, n)| (json!(m), m, n))
                .collect(),
        }
    }

    fn title(&self) -> String {
        match self {
            Start::Mancala(game) => format!(
                "{}, from {}",
                game.variant,
                granary::format_position(&game.position, game.variant.pits)
            ),
            Start::Bao(rules, pos) => format!(
                "{}, from {}",
                rules.describe(),
                granary::bao::format_position(pos)
            ),
        }
    }
}

pub fn run(args: &PerftArgs) -> CliResult {
    let start = if args.variant.is_bao() {
        let (rules, pos) = args.variant.bao()?;
        Start::Bao(rules, pos)
    } else {
        Start::Mancala(args.variant.mancala()?)
    };
    let started = Instant::now();
    let split = args.divide.then(|| start.divide(args.depth));
    let nodes = match &split {
        Some(split) => split.iter().map(|(_, _, n)| n).sum(),
        None => start.count(args.depth),
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut out = json!({"depth": args.depth, "nodes": nodes});
        if let Some(split) = split {
            out["divide"] = split
                .into_iter()
                .map(|(m, _, n)| json!({"move": m, "nodes": n}))
                .collect();
        }
        println!("{out}");
        return Ok(());
    }
    println!("{}", start.title());
    if let Some(split) = split {
        for (_, m, n) in split {
            println!("{m}: {n}");
        }
    } else {
        for depth in 1..args.depth {
            println!("depth {depth}: {}", start.count(depth));
        }
    }
    println!("depth {}: {nodes}", args.depth);
    let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
    eprintln!("{seconds:.3} s, {rate:.3} M leaf nodes/s");
    Ok(())
}
