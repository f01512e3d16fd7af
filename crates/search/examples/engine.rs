//! The engine's speed and its quiescence choice, on 6-pit tables `0..=K` built into a temporary
//! directory:
//!
//! 1. speed: the starts of Oware(6,4) (awari, abapa) and Kalah(6,6) (empty and standard
//!    capture) searched with each quiescence mode: the nodes a fixed depth costs, and with a
//!    node budget the depth reached and nodes a second (a 256 MiB hash table);
//! 2. quality: positions of `K` seeds searched over layers `0..=K-6` with a small node budget,
//!    against the tables' values: how far the value is, how often the move is a best move.
//!
//! `cargo run -p granary-search --profile ci --example engine -- [K [NODES [SMALL]]]`
//! (defaults: 12, 4,000,000 and 4,000).

use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::pits::COMPILED_PITS;
use granary_rules::{Board, Capture, Game, OwareRules, Position, Rules, Side, Sweep};
use granary_search::{Engine, Limits, Quiescence, Settings};
use granary_tables::probe::{move_value, position_value};
use granary_tables::{TableKind, TableSet};

/// The depth whose cost in nodes [`speed`] prints.
const DEPTH: u32 = 11;

const MODES: [Quiescence; 3] = [
    Quiescence::Off,
    Quiescence::Captures,
    Quiescence::CapturesAndExtraMoves,
];

fn main() {
    let mut args = std::env::args().skip(1);
    let mut arg = |default: u64| {
        args.next()
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let max = arg(12) as u32;
    let nodes = arg(4_000_000);
    let small = arg(4_000);
    let games = [
        (
            Game::Oware {
                rules: OwareRules::Awari,
            },
            4,
        ),
        (
            Game::Oware {
                rules: OwareRules::Abapa,
            },
            4,
        ),
        (
            Game::Kalah {
                capture: Capture::Empty,
                sweep: Sweep::Owner,
            },
            6,
        ),
        (
            Game::Kalah {
                capture: Capture::Standard,
                sweep: Sweep::Owner,
            },
            6,
        ),
    ];
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (game, seeds) in games {
        let kind = TableKind {
            game,
            pits: COMPILED_PITS,
        };
        let root = dir.path().join(kind.name());
        let built = std::time::Instant::now();
        build_layers(
            &root,
            kind,
            max,
            BuildOptions {
                threads: None,
                memory: None,
                compress: None,
                checkpoint_every: None,
                region: None,
            },
            &(),
        )
        .expect("tables build");
        println!(
            "{}: tables 0..={max} built in {:.1} s",
            kind.name(),
            built.elapsed().as_secs_f64()
        );
        let set = TableSet::new(&root, kind);
        let start = Position::start(COMPILED_PITS, seeds);
        match kind.engine() {
            granary_rules::Engine::Kalah(r) => {
                let six = r.with_const_pits::<COMPILED_PITS>().expect("6 pits");
                speed(&six, &set, max, &start, nodes);
                quality(&six, &set, max, small);
            }
            granary_rules::Engine::Oware(r) => {
                let six = r.with_const_pits::<COMPILED_PITS>().expect("6 pits");
                speed(&six, &set, max, &start, nodes);
                quality(&six, &set, max, small);
            }
        }
    }
}

fn engine<'t, R: Rules + Clone>(
    rules: &R,
    set: &'t TableSet,
    horizon: u32,
    quiescence: Quiescence,
    hash_mb: usize,
) -> Engine<'t, R> {
    Engine::new(rules.clone(), Some((set, horizon)), hash_mb)
        .expect("an engine")
        .with_settings(Settings {
            quiescence,
            ..Settings::default()
        })
}

/// The start searched with `nodes` nodes in each mode: the depth reached and the speed.
fn speed<R: Rules + Clone>(rules: &R, set: &TableSet, max: u32, start: &Position, nodes: u64) {
    for quiescence in MODES {
        let engine = engine(rules, set, max, quiescence, 256);
        // The hash table's and the layers' pages touched once, outside the timing.
        engine.analyse(start, Limits::nodes(nodes / 4));
        engine.clear();
        let a = engine.analyse(start, Limits::nodes(nodes));
        engine.clear();
        let to_depth = engine.analyse(start, Limits::depth(DEPTH));
        println!(
            "  start, {quiescence:?}: depth {DEPTH} in {} nodes, value {:+}",
            to_depth.nodes, to_depth.value
        );
        println!(
            "  start, {quiescence:?}: depth {} value {:+} best {} | {} nodes in {:.2} s: {:.2}e6 nodes/s",
            a.depth,
            a.value,
            a.best.map_or(0, |l| l + 1),
            a.nodes,
            a.seconds,
            a.nodes as f64 / a.seconds / 1e6,
        );
    }
}

/// Positions of `max` seeds over layers `0..=max - 6`, `nodes` nodes each, against the tables:
/// the mean error of the value and the share of best moves.
fn quality<R: Rules + Clone>(rules: &R, set: &TableSet, max: u32, nodes: u64) {
    let horizon = max.saturating_sub(6);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let positions: Vec<Position> = (0..200)
        .map(|_| {
            let mut pits = [0u8; 12];
            for _ in 0..max {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pits[(x % 12) as usize] += 1;
            }
            Position {
                board: Board::from_sides(&pits[..6], &pits[6..]),
                stores: [0, 0],
                to_move: Side::South,
            }
        })
        .filter(|p| !rules.legal_moves(p).is_empty())
        .collect();
    for quiescence in MODES {
        let engine = engine(rules, set, horizon, quiescence, 4);
        let (mut error, mut best, mut exact, mut spent, mut depth) = (0, 0, 0, 0, 0);
        for pos in &positions {
            engine.clear();
            let a = engine.analyse(pos, Limits::nodes(nodes));
            let truth = position_value(set, rules, pos).expect("tables");
            error += (a.value - truth).abs();
            let lane = a.best.expect("a move");
            best += usize::from(move_value(set, rules, pos, lane).expect("tables") == truth);
            exact += usize::from(a.exact);
            spent += a.nodes;
            depth += a.depth;
        }
        let k = positions.len();
        println!(
            "  {k} positions of {max} seeds over 0..={horizon}, {nodes} nodes, {quiescence:?}: \
             mean error {:.2}, best moves {:.1}%, exact {exact}, mean depth {:.1}, mean nodes {}",
            f64::from(error) / k as f64,
            100.0 * best as f64 / k as f64,
            depth as f64 / k as f64,
            spent / k as u64,
        );
    }
}
