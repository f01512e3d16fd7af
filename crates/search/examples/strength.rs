//! The engine's playing strength, judged by exact values: in random positions of the layers
//! `LAYERS`, each mode chooses a move over table layers `0..=K`, and the exact values of the
//! moves say what the choice lost.
//!
//! Positions: `POSITIONS` a layer, each with its layer's seeds spread uniformly over the 12 pits
//! (stars and bars, a fixed seed: the same positions every run), South to move; a position
//! without a legal move is drawn again. A move's loss is the best move's value less the chosen
//! move's, in seeds, for the mover: read from the tables where they hold every layer of
//! `LAYERS` ([`granary_tables::probe::move_value`]), else (Kalah) from an exact search of every
//! root move over all the tables present ([`Solver::solve`]).
//!
//! Modes, each over layers `0..=K` of the game's 6-pit tables (Oware played to the last seed,
//! [`granary_tables::TableKind::engine`]):
//! - `engine:S`: the [`Engine`] at `S` seconds a move, one thread, a 64 MiB hash table cleared
//!   before each position, the seed difference at its horizon; `engine:SxT` on `T` threads;
//! - `learned:S`: the same with an evaluation learned from quiet boards of layers `K-7..=K`
//!   (the tables the modes are given, none of the layers judged), as the shipped weights are
//!   fitted ([`granary_search::engine::learned::fit`]); `learned-all:S` fitted on all boards;
//!   `learned:SxT` and `learned-all:SxT` on `T` threads;
//! - `depth:D` (`depth:DxT`): the engine with the seed difference searching to depth `D` (on
//!   `T` threads): the median seconds are its time to that depth;
//! - `estimate:D`: the move the tablebase chooses beyond its tables at depth `D`
//!   (`Tablebase::choose` in the granary crate): each move worth its gain and the
//!   [`Solver::estimate`] of the position it leads to at depth `D - 1`, the first best move
//!   (lowest pit) played.
//!
//! For each mode, over all positions and then a layer at a time: the positions, the mean seeds
//! lost a move, the share of best moves, the median seconds a move, and for the engine the mean
//! depth reached and the share of exact results. The engine's moves depend on the machine's
//! speed; the estimate's do not.
//!
//! `cargo run -p granary-search --profile ci --example strength -- GAME DIR K LAYERS POSITIONS
//! MODES...`, e.g. `awari data/tables 16 17..=24 50 engine:0.1 engine:1 estimate:8
//! estimate:16`: GAME `awari`, `kalah-empty` or `kalah-standard`, its tables under `DIR`
//! (Oware: every layer of `LAYERS` present), `LAYERS` as `A..=B`, `A..B` or `A`.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use granary_rules::pits::COMPILED_PITS;
use granary_rules::{Game, Position, Rules, Side};
use granary_search::engine::learned::{fit, random_board, training_set};
use granary_search::solver::Worth;
use granary_search::{Engine, Evaluation, Limits, Settings, Solver};
use granary_tables::TableSet;
use granary_tables::probe::move_value;
use rand_core::SeedableRng;
use rand_xoshiro::SplitMix64;

/// The hash table of the exact search that judges positions above the tables, MiB.
const JUDGE_HASH_MIB: usize = 1024;

/// The engine's hash table, MiB.
const HASH_MIB: usize = 64;

/// The learned evaluation of `learned:S`: fitted on this many layers up to `K`, this many
/// random boards a layer, with this ridge (as `scripts/fit-evaluation.sh` fits).
const FITTED_LAYERS: u32 = 8;
const FIT_PER_LAYER: usize = 20_000;
const FIT_RIDGE: f64 = 1e-6;

/// The seed of the positions (a layer's positions: this plus the layer).
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

const USAGE: &str = "strength GAME DIR K LAYERS POSITIONS MODES... \
                     (e.g. awari data/tables 16 17..=24 50 engine:0.1 estimate:8)";

/// How a move is chosen.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The engine at this many seconds a move on this many threads, with the seed
    /// difference.
    Engine(f64, usize),
    /// The engine at this many seconds a move on this many threads, with the evaluation
    /// learned from layers `K-7..=K` of the tables (the layers it is given): from quiet boards
    /// only if `true`.
    Learned(f64, usize, bool),
    /// The engine to this depth on this many threads, with the seed difference: the time to
    /// a depth, which says what threads buy.
    Depth(u32, usize),
    /// The tablebase's estimate at this depth.
    Estimate(u32),
}

impl Mode {
    fn parse(arg: &str) -> Mode {
        match arg.split_once(':') {
            Some(("engine", s)) => {
                let (s, t) = timed(s);
                Mode::Engine(s, t)
            }
            Some(("learned", s)) => {
                let (s, t) = timed(s);
                Mode::Learned(s, t, true)
            }
            Some(("learned-all", s)) => {
                let (s, t) = timed(s);
                Mode::Learned(s, t, false)
            }
            Some(("depth", d)) => {
                let (d, t) = d.split_once('x').unwrap_or((d, "1"));
                Mode::Depth(
                    d.parse().expect("depth:DEPTH"),
                    t.parse().expect("THREADS, at least 1"),
                )
            }
            Some(("estimate", d)) => Mode::Estimate(d.parse().expect("estimate:DEPTH")),
            _ => panic!("a mode is engine:SECONDS or estimate:DEPTH, not {arg}"),
        }
    }

    fn name(self) -> String {
        match self {
            Mode::Engine(s, t) => format!("engine:{s}{}", threads(t)),
            Mode::Learned(s, t, true) => format!("learned:{s}{}", threads(t)),
            Mode::Learned(s, t, false) => format!("learned-all:{s}{}", threads(t)),
            Mode::Depth(d, t) => format!("depth:{d}{}", threads(t)),
            Mode::Estimate(d) => format!("estimate:{d}"),
        }
    }
}

/// `S` or `SxT`: seconds a move and threads (1 if not given).
fn timed(arg: &str) -> (f64, usize) {
    let (s, t) = arg.split_once('x').unwrap_or((arg, "1"));
    (
        s.parse().expect("SECONDS"),
        t.parse().expect("THREADS, at least 1"),
    )
}

/// How a mode's name shows its threads: nothing for one.
fn threads(t: usize) -> String {
    if t == 1 {
        String::new()
    } else {
        format!("x{t}")
    }
}

/// A position to play, with the exact value of each of its legal moves.
#[derive(Debug)]
struct Sample {
    layer: u32,
    pos: Position,
    /// `(lane, value)`, lowest lane first.
    moves: Vec<(usize, i32)>,
}

impl Sample {
    fn best(&self) -> i32 {
        self.moves.iter().map(|&(_, v)| v).max().expect("a move")
    }

    fn loss(&self, lane: usize) -> i32 {
        let chosen = self.moves.iter().find(|&&(l, _)| l == lane);
        self.best() - chosen.expect("a legal move").1
    }
}

/// One mode's move in one sample.
#[derive(Debug)]
struct Played {
    layer: u32,
    loss: i32,
    seconds: f64,
    /// The engine's depth and whether its result was exact.
    engine: Option<(u32, bool)>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(args.len() >= 6, "usage: {USAGE}");
    let kind = common::table_kind(&args[0]);
    let dir = Path::new(&args[1]);
    let horizon: u32 = args[2].parse().expect("K: a layer");
    let layers = parse_layers(&args[3]);
    let count: usize = args[4].parse().expect("POSITIONS: a number");
    let modes: Vec<Mode> = args[5..].iter().map(|m| Mode::parse(m)).collect();

    let set = TableSet::new(dir, kind);
    let rules = kind.engine();
    println!(
        "strength {}: tables {} (the modes over layers 0..={horizon}), layers {}, {count} \
         positions a layer",
        args.join(" "),
        set.dir().display(),
        args[3],
    );

    let judged = Instant::now();
    // Positions above the tables present are judged by an exact search (Kalah only).
    let top = set.complete_up_to();
    let judge = layers
        .iter()
        .any(|&layer| top.is_none_or(|t| layer > t))
        .then(|| {
            assert!(
                matches!(kind.game, Game::Kalah { .. }),
                "Oware is judged by its tables: every layer of LAYERS present"
            );
            Solver::new(rules.clone(), top.map(|t| (&set, t)), JUDGE_HASH_MIB).expect("a solver")
        });
    if judge.is_some() {
        println!(
            "positions above layer {} judged by an exact search over the tables",
            top.map_or_else(|| "none".to_owned(), |t| t.to_string())
        );
    }
    let samples: Vec<Sample> = layers
        .iter()
        .flat_map(|&layer| samples(&rules, &set, judge.as_ref(), layer, count))
        .collect();
    println!(
        "{} positions judged in {:.1} s",
        samples.len(),
        judged.elapsed().as_secs_f64()
    );
    println!(
        "{:<14} {:>5} {:>9} {:>9} {:>6} {:>9} {:>6} {:>6}",
        "mode", "layer", "positions", "loss/move", "best%", "median s", "depth", "exact%"
    );
    for mode in modes {
        let played = play(mode, &rules, &set, horizon, &samples);
        report(&mode.name(), "all", &played.iter().collect::<Vec<_>>());
        for &layer in &layers {
            let of_layer: Vec<&Played> = played.iter().filter(|p| p.layer == layer).collect();
            report("", &layer.to_string(), &of_layer);
        }
    }
}

/// `A..=B`, `A..B` or `A`.
fn parse_layers(arg: &str) -> Vec<u32> {
    let n = |s: &str| -> u32 { s.trim().parse().expect("LAYERS: A..=B, A..B or A") };
    if let Some((a, b)) = arg.split_once("..=") {
        (n(a)..=n(b)).collect()
    } else if let Some((a, b)) = arg.split_once("..") {
        (n(a)..n(b)).collect()
    } else {
        vec![n(arg)]
    }
}

/// `count` positions of `layer` seeds with a legal move, South to move, each move valued by the
/// tables, or beyond them by `judge`'s exact search.
fn samples<R: Rules>(
    rules: &R,
    set: &TableSet,
    judge: Option<&Solver<'_, R>>,
    layer: u32,
    count: usize,
) -> Vec<Sample> {
    let mut rng = SplitMix64::seed_from_u64(SEED.wrapping_add(u64::from(layer)));
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pos = Position {
            board: random_board(&mut rng, layer, COMPILED_PITS),
            stores: [0, 0],
            to_move: Side::South,
        };
        let legal = rules.legal_moves(&pos);
        if legal.is_empty() {
            continue;
        }
        let moves = match judge {
            Some(solver) => {
                let solution = solver.solve(&pos, true).expect("an exact search");
                let mut moves: Vec<(usize, i32)> = solution
                    .moves
                    .iter()
                    .map(|m| match m.worth {
                        Worth::Exact(v) => (m.lane, v),
                        Worth::AtMost(_) => panic!("every root move exact"),
                    })
                    .collect();
                moves.sort_unstable();
                moves
            }
            None => legal
                .iter()
                .map(|lane| {
                    let value =
                        move_value(set, rules, &pos, lane).expect("the tables of the layers");
                    (lane, value)
                })
                .collect(),
        };
        out.push(Sample { layer, pos, moves });
    }
    out
}

/// Each sample played by `mode` over layers `0..=horizon`.
fn play<R: Rules + Clone>(
    mode: Mode,
    rules: &R,
    set: &TableSet,
    horizon: u32,
    samples: &[Sample],
) -> Vec<Played> {
    match mode {
        Mode::Engine(..) | Mode::Learned(..) | Mode::Depth(..) => {
            let (limits, threads) = match mode {
                Mode::Engine(s, t) | Mode::Learned(s, t, _) => {
                    (Limits::time(Duration::from_secs_f64(s)), t)
                }
                Mode::Depth(d, t) => (Limits::depth(d), t),
                Mode::Estimate(_) => unreachable!("matched above"),
            };
            let evaluation = if let Mode::Learned(_, _, quiet) = mode {
                // Fitted on the layers the engine is given, none of those it is judged on.
                let layers = horizon.saturating_sub(FITTED_LAYERS - 1)..=horizon;
                let mut rng = SplitMix64::seed_from_u64(!SEED);
                let samples = training_set(rules, set, layers, FIT_PER_LAYER, quiet, &mut rng)
                    .expect("the tables of the layers");
                Evaluation::Learned(fit(&samples, COMPILED_PITS, FIT_RIDGE))
            } else {
                Evaluation::SeedDifference
            };
            let engine = Engine::new(rules.clone(), Some((set, horizon)), HASH_MIB)
                .expect("an engine")
                .with_evaluation(evaluation)
                .with_settings(Settings {
                    threads,
                    ..Settings::default()
                });
            samples
                .iter()
                .map(|s| {
                    engine.clear();
                    let t = Instant::now();
                    let a = engine.analyse(&s.pos, limits);
                    let seconds = t.elapsed().as_secs_f64();
                    Played {
                        layer: s.layer,
                        loss: s.loss(a.best.expect("a move")),
                        seconds,
                        engine: Some((a.depth, a.exact)),
                    }
                })
                .collect()
        }
        Mode::Estimate(depth) => {
            let solver = Solver::new(rules.clone(), Some((set, horizon)), 1).expect("a solver");
            samples
                .iter()
                .map(|s| {
                    let t = Instant::now();
                    let lane = common::estimate_move(&solver, rules, &s.pos, depth);
                    let seconds = t.elapsed().as_secs_f64();
                    Played {
                        layer: s.layer,
                        loss: s.loss(lane),
                        seconds,
                        engine: None,
                    }
                })
                .collect()
        }
    }
}

/// One line: the positions, mean loss, share of best moves, median seconds and (engine) mean
/// depth and share of exact results.
fn report(mode: &str, layer: &str, played: &[&Played]) {
    let k = played.len();
    if k == 0 {
        return;
    }
    let n = k as f64;
    let loss = played.iter().map(|p| f64::from(p.loss)).sum::<f64>() / n;
    let best = 100.0 * played.iter().filter(|p| p.loss == 0).count() as f64 / n;
    let mut seconds: Vec<f64> = played.iter().map(|p| p.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let median = if k % 2 == 1 {
        seconds[k / 2]
    } else {
        f64::midpoint(seconds[k / 2 - 1], seconds[k / 2])
    };
    let (depth, exact) = if played.iter().all(|p| p.engine.is_some()) {
        let depth = played
            .iter()
            .filter_map(|p| p.engine)
            .map(|(d, _)| f64::from(d))
            .sum::<f64>()
            / n;
        let exact = played
            .iter()
            .filter_map(|p| p.engine)
            .filter(|&(_, e)| e)
            .count() as f64;
        (format!("{depth:.1}"), format!("{:.1}", 100.0 * exact / n))
    } else {
        ("-".to_owned(), "-".to_owned())
    };
    println!(
        "{mode:<14} {layer:>5} {k:>9} {loss:>9.3} {best:>6.1} {median:>9.4} {depth:>6} {exact:>6}"
    );
}
