//! `granary perft`: move-path counts, per depth or split by first move.

use std::time::Instant;

use granary_rules::notation::format_position;
use granary_rules::perft::{divide, perft};
use granary_rules::{Engine, Rules};
use serde_json::json;

use crate::args::GameName;
use crate::args::PerftArgs;
use crate::error::CliResult;

/// Perft with the engine's concrete type, so the hot loop is not dispatched per move.
fn count(engine: &Engine, pos: &granary_rules::Position, depth: u32) -> u64 {
    match engine {
        Engine::Kalah(rules) => perft(rules, pos, depth),
        Engine::Oware(rules) => perft(rules, pos, depth),
    }
}

pub fn run(args: &PerftArgs) -> CliResult {
    if args.variant.game.game == GameName::Bao {
        return crate::bao::perft_cmd(args);
    }
    let (variant, pos) = args.variant.resolve()?;
    let engine = variant.engine();
    let m = engine.pits();
    let started = Instant::now();
    let split = args.divide.then(|| divide(&engine, &pos, args.depth));
    let nodes = match &split {
        Some(split) => split.iter().map(|(_, n)| n).sum(),
        None => count(&engine, &pos, args.depth),
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut out = json!({"depth": args.depth, "nodes": nodes});
        if let Some(split) = split {
            out["divide"] = split
                .iter()
                .map(|(lane, n)| json!({"move": lane + 1, "nodes": n}))
                .collect();
        }
        println!("{out}");
        return Ok(());
    }
    println!("{variant}, from {}", format_position(&pos, m));
    if let Some(split) = split {
        for (lane, n) in split {
            println!("pit {}: {n}", lane + 1);
        }
    } else {
        for depth in 1..args.depth {
            println!("depth {depth}: {}", count(&engine, &pos, depth));
        }
    }
    println!("depth {}: {nodes}", args.depth);
    let rate = nodes as f64 / seconds.max(1e-9) / 1e6;
    eprintln!("{seconds:.3} s, {rate:.1} M leaf nodes/s");
    Ok(())
}
