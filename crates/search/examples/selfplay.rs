//! A match: the engine with the evaluation learned from the tables ([`Evaluation::for_game`])
//! against an opponent over the same tables: the engine with the seed difference at the same
//! time a move (`seed`), or the fixed-depth estimate that played beyond the tables before the
//! engine (`estimate:D`), from the start of a game played by its own rules (Oware's repetition
//! and majority end it; [`granary_rules::Record`]).
//!
//! Openings: the start, and the positions after `OPENING_PLIES` random plies (a fixed seed);
//! each played twice, each engine playing South once. A game that reaches `MAX_PLIES` plies is
//! scored by its stores then. Prints each game and the totals: wins, draws, losses and the
//! mean margin in seeds, for the learned evaluation.
//!
//! `cargo run -p granary-search --profile ci --example selfplay -- GAME SEEDS DIR K SECONDS
//! OPENINGS OPPONENT`, e.g. `awari 4 /work/oware 24 1 10 seed`: GAME `awari`, `abapa`, `kalah-empty` or
//! `kalah-standard` on 6 pits with `SEEDS` a pit, the tables of its kind under `DIR` (layers
//! `0..=K`; `K` of `none` for no tables).

use std::time::Duration;

use granary_rules::pits::COMPILED_PITS;
use granary_rules::{Record, Rules, Side, Status, Variant};
use granary_search::engine::learned::below;
use granary_search::{Engine, Evaluation, Limits, Solver};
use rand_core::SeedableRng;
use rand_xoshiro::SplitMix64;

mod common;
use granary_tables::TableSet;

/// Each engine's hash table, MiB.
const HASH_MIB: usize = 64;
/// Random plies before an opening's game starts (the first opening is the start itself).
const OPENING_PLIES: usize = 2;
/// A game still going after this many plies is scored by its stores.
const MAX_PLIES: usize = 400;
/// The seed of the openings.
const SEED: u64 = 0x0DE1_1A7E;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() == 7,
        "usage: selfplay GAME SEEDS DIR K SECONDS OPENINGS seed|estimate:D"
    );
    let game = common::game(&args[0]);
    let seeds: u32 = args[1].parse().expect("SEEDS: a number");
    let variant = Variant::new(game, COMPILED_PITS, seeds).expect("a variant");
    let kind = common::table_kind(&args[0]);
    let set = TableSet::new(std::path::Path::new(&args[2]), kind);
    let horizon: Option<u32> = (args[3] != "none").then(|| args[3].parse().expect("K"));
    let time = Duration::from_secs_f64(args[4].parse().expect("SECONDS"));
    let openings: usize = args[5].parse().expect("OPENINGS: a number");

    let play = variant.engine();
    let search = kind.engine();
    let engine = |evaluation| {
        Engine::new(search.clone(), horizon.map(|k| (&set, k)), HASH_MIB)
            .expect("an engine")
            .with_evaluation(evaluation)
    };
    let learned = engine(Evaluation::for_game(game, COMPILED_PITS));
    let plain = engine(Evaluation::SeedDifference);
    let depth: Option<u32> = match args[6].split_once(':') {
        Some(("estimate", d)) => Some(d.parse().expect("estimate:DEPTH")),
        None if args[6] == "seed" => None,
        _ => panic!("OPPONENT: seed or estimate:DEPTH, not {}", args[6]),
    };
    let solver = Solver::new(search.clone(), horizon.map(|k| (&set, k)), 1).expect("a solver");
    assert!(
        matches!(
            Evaluation::for_game(game, COMPILED_PITS),
            Evaluation::Learned(_)
        ),
        "no learned weights for {}",
        args[0]
    );
    println!(
        "selfplay {}: the learned evaluation at {} s a move against {}",
        args.join(" "),
        args[4],
        args[6]
    );

    let mut rng = SplitMix64::seed_from_u64(SEED);
    let (mut wins, mut draws, mut losses, mut margin, mut games) = (0, 0, 0, 0i64, 0);
    for opening in 0..openings {
        // The opening: random legal plies from the start (none for the first).
        let mut start = Record::new(&play, variant.start());
        let plies = if opening == 0 { 0 } else { OPENING_PLIES };
        for _ in 0..plies {
            let moves = play.legal_moves(start.current());
            let lane = moves
                .iter()
                .nth(below(&mut rng, moves.len() as usize))
                .expect("a move");
            start.play(lane + 1).expect("a legal move");
        }
        for learned_side in [Side::South, Side::North] {
            let mut record = Record::new(&play, *start.current());
            let mut plies = 0;
            let stores = loop {
                if let Status::Over { stores, .. } = record.status() {
                    break stores;
                }
                if plies >= MAX_PLIES {
                    let pos = record.current();
                    let [a, b] = pos.stores.map(u32::from);
                    break if pos.to_move == Side::South {
                        [a, b]
                    } else {
                        [b, a]
                    };
                }
                let pos = *record.current();
                let lane = match (pos.to_move == learned_side, depth) {
                    (true, _) => learned.analyse(&pos, Limits::time(time)).best,
                    (false, None) => plain.analyse(&pos, Limits::time(time)).best,
                    (false, Some(d)) => Some(common::estimate_move(&solver, &search, &pos, d)),
                };
                record
                    .play(lane.expect("a move in a game not over") + 1)
                    .expect("the move is legal");
                plies += 1;
            };
            let [south, north] = stores.map(i64::from);
            let lead = if learned_side == Side::South {
                south - north
            } else {
                north - south
            };
            games += 1;
            margin += lead;
            match lead.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
            println!(
                "opening {opening} ({}), learned plays {}: South {south} - North {north} in \
                 {plies} plies",
                record_text(&start),
                learned_side.name()
            );
        }
    }
    println!(
        "learned: {wins} won, {draws} drawn, {losses} lost of {games}; mean margin {:+.2} seeds",
        margin as f64 / f64::from(games)
    );
}

/// The opening's pits, from 1, or `start`.
fn record_text<R: Rules>(record: &Record<'_, R>) -> String {
    let pits = record.pits_played();
    if pits.is_empty() {
        "start".into()
    } else {
        pits.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}
