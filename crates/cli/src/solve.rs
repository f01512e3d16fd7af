//! `granary solve`: exact values of whole games.
//!
//! Kalah: MTD(f) search with tables below a horizon (built on the fly if missing). Oware: positions
//! repeat, which a transposition-table search cannot value exactly, so Oware is solved by
//! retrograde tables up to the seeds on the board (built on the fly within a size limit).

use std::time::Instant;

use granary_index::LayerIndex;
use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::notation::format_position;
use granary_rules::{Game, Position, Rules, Variant};
use granary_search::solver::RootMove;
use granary_search::{Progress, Solution, Solver};
use granary_tables::probe::{move_value, position_value, principal_variation};
use granary_tables::{TableKind, TableSet};
use serde_json::json;

use crate::args::SolveArgs;
use crate::error::{CliError, CliResult};

/// Positions the on-the-fly Kalah tables may hold (all layers together).
const KALAH_TABLE_BUDGET: u64 = 32_000_000;
/// Positions the on-the-fly Oware tables may hold before `solve` asks for an explicit build.
/// Positions beyond which Oware tables do not fit this machine's disk (one byte each, ~20 GB).
const OWARE_TABLE_LIMIT: u64 = 20_000_000_000;
pub const OWARE_TABLE_BUDGET: u64 = 1_500_000_000;

/// A solve's progress line (stderr): `move 3: +8..+12 (41.2 s, 2.1e8 nodes)` after a pass of
/// MTD(f) on root move (pit) 3, `move 3: +10 (...)` when it is settled, `<=+10` when it is no
/// better than the best so far.
fn progress_line(step: &Progress<'_>) -> String {
    let (pit, value, nodes, seconds) = match *step {
        Progress::Bounds {
            lane,
            lower,
            upper,
            nodes,
            seconds,
        } => (lane, format!("{lower:+}..{upper:+}"), nodes, seconds),
        Progress::Settled {
            root_move,
            nodes,
            seconds,
        } => {
            let bound = if root_move.exact { "" } else { "<=" };
            (
                root_move.lane,
                format!("{bound}{:+}", root_move.value),
                nodes,
                seconds,
            )
        }
    };
    format!(
        "move {}: {value} ({seconds:.1} s, {nodes:.2e} nodes)",
        pit + 1,
        nodes = nodes as f64
    )
}

/// Positions in layers `0..=max` of a kind.
pub fn table_positions(kind: TableKind, max: u32) -> u64 {
    (0..=max)
        .map(|n| LayerIndex::new(kind.pits, n, kind.reduced()).map_or(u64::MAX, |i| i.size()))
        .sum()
}

/// The default Kalah horizon for a position of `seeds` seeds: the largest whose tables fit the
/// budget, and no more than a third of the seeds (bigger tables cost more to build than they
/// save on small boards: Kalah(6,4) gets 16 seeds, Kalah(5,4) 14; `docs/search.md`).
pub fn default_kalah_tables(kind: TableKind, seeds: u32) -> u32 {
    (0..=granary_index::MAX_LAYER_SEEDS)
        .take_while(|&n| table_positions(kind, n) <= KALAH_TABLE_BUDGET)
        .last()
        .unwrap_or(0)
        .min(seeds.div_ceil(3))
}

/// Builds layers `0..=max` if any is missing, saying so on the terminal.
pub fn ensure_tables(
    root: &std::path::Path,
    threads: Option<usize>,
    kind: TableKind,
    max: u32,
    quiet: bool,
) -> Result<TableSet, CliError> {
    let root = root.to_path_buf();
    let set = TableSet::new(&root, kind);
    if set.complete_up_to().is_none_or(|n| n < max) {
        if !quiet {
            eprintln!(
                "building {} tables, layers 0..={max} ({} positions), into {} (kept for later runs)",
                kind.name(),
                table_positions(kind, max),
                set.dir().display()
            );
        }
        build_layers(&root, kind, max, BuildOptions { threads, quiet }, |_| {})?;
    }
    Ok(set)
}

/// A solve's result with what the output needs.
struct Report {
    variant: Variant,
    position: Position,
    solution: Solution,
    tables: String,
    table_seconds: f64,
}

fn solve_one(
    args: &SolveArgs,
    variant: Variant,
    pos: Position,
    quiet: bool,
) -> Result<Report, CliError> {
    let m = variant.pits;
    let kind = TableKind {
        game: variant.game,
        pits: m,
    };
    let seeds = pos.board.seeds(m);
    if seeds > 127 {
        return Err(CliError(format!(
            "{seeds} seeds on the board: values must fit a signed byte (at most 127)"
        )));
    }
    let started = Instant::now();
    match variant.game {
        Game::Kalah { .. } => {
            let horizon = args
                .table_seeds
                .unwrap_or_else(|| default_kalah_tables(kind, seeds))
                .min(seeds);
            let set = ensure_tables(&args.dir.resolve(), args.threads, kind, horizon, quiet)?;
            let table_seconds = started.elapsed().as_secs_f64();
            let granary_rules::Engine::Kalah(rules) = kind.engine() else {
                unreachable!()
            };
            let solver = Solver::new(rules, Some((&set, horizon)), args.hash)?;
            let solution = solver.solve_reporting(&pos, args.all_moves, |step| {
                if !quiet {
                    eprintln!("{}", progress_line(&step));
                }
            });
            Ok(Report {
                variant,
                position: pos,
                solution,
                tables: format!("{} layers 0..={horizon}", kind.name()),
                table_seconds,
            })
        }
        Game::Oware { .. } => {
            let needed = table_positions(kind, seeds);
            if needed > OWARE_TABLE_LIMIT {
                return Err(CliError(format!(
                    "Oware is solved from retrograde tables up to the {seeds} seeds on the board: {needed} positions, more than tables on this machine can hold ({OWARE_TABLE_LIMIT})"
                )));
            }
            if needed > OWARE_TABLE_BUDGET
                && TableSet::new(&args.dir.resolve(), kind)
                    .complete_up_to()
                    .is_none_or(|n| n < seeds)
            {
                return Err(CliError(format!(
                    "Oware is solved from retrograde tables up to the {seeds} seeds on the board: {needed} positions; build them first with `granary build oware --pits {m} --rules {} --max-seeds {seeds}`",
                    variant.game.options().trim_start_matches("rules=")
                )));
            }
            let set = ensure_tables(&args.dir.resolve(), args.threads, kind, seeds, quiet)?;
            let table_seconds = started.elapsed().as_secs_f64();
            let solution = from_tables(&set, &kind.engine(), &pos)?;
            Ok(Report {
                variant,
                position: pos,
                solution,
                tables: format!("{} layers 0..={seeds}", kind.name()),
                table_seconds,
            })
        }
    }
}

/// A solution read from complete tables: every root move exact, the best moves to the end or into
/// a cycle.
pub fn from_tables<R: Rules>(
    set: &TableSet,
    rules: &R,
    pos: &Position,
) -> Result<Solution, CliError> {
    let started = Instant::now();
    let value = position_value(set, rules, pos)?;
    let mut moves = Vec::new();
    for lane in rules.legal_moves(pos).iter() {
        moves.push(RootMove {
            lane,
            value: move_value(set, rules, pos, lane)?,
            exact: true,
        });
    }
    let (pv, _) = principal_variation(set, rules, *pos, 400)?;
    Ok(Solution {
        value,
        moves,
        pv,
        nodes: 0,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `(first player's final lead, final stores [south, north])`, halves allowed (odd seeds in endless play).
fn finals(report: &Report) -> ([f64; 2], f64) {
    let pos = &report.position;
    let m = report.variant.pits;
    let n = f64::from(pos.board.seeds(m));
    let v = f64::from(report.solution.value);
    let [mover, opponent] = pos.stores.map(f64::from);
    let fin = pos.absolute([mover + (n + v) / 2.0, opponent + (n - v) / 2.0]);
    (fin, fin[0] - fin[1])
}

fn number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

fn to_json(report: &Report) -> serde_json::Value {
    let (fin, _) = finals(report);
    let s = &report.solution;
    json!({
        "variant": report.variant.to_string(),
        "position": format_position(&report.position, report.variant.pits),
        "to_move": report.position.to_move.name(),
        "value": s.value,
        "final": [number(fin[0]), number(fin[1])],
        "moves": s.moves.iter().map(|r| json!({"move": r.lane + 1, "value": r.value, "exact": r.exact})).collect::<Vec<_>>(),
        "best": s.moves.iter().filter(|r| r.exact && r.value == s.value).map(|r| r.lane + 1).collect::<Vec<_>>(),
        "pv": s.pv.iter().map(|l| l + 1).collect::<Vec<_>>(),
        "nodes": s.nodes,
        "seconds": s.seconds,
        "table_seconds": report.table_seconds,
        "tables": report.tables,
    })
}

fn print_text(report: &Report) {
    let (fin, _) = finals(report);
    let s = &report.solution;
    let pos = &report.position;
    println!("{}", report.variant);
    println!("position {}", format_position(pos, report.variant.pits));
    println!(
        "value {:+} for {} (net score of the seeds on the board)",
        s.value, pos.to_move
    );
    let verdict = match fin[0].total_cmp(&fin[1]) {
        std::cmp::Ordering::Greater => format!("South wins by {}", number(fin[0] - fin[1])),
        std::cmp::Ordering::Less => format!("North wins by {}", number(fin[1] - fin[0])),
        std::cmp::Ordering::Equal => "a draw".into(),
    };
    println!(
        "final score South {} - North {}: {verdict}",
        number(fin[0]),
        number(fin[1])
    );
    let moves: Vec<String> = s
        .moves
        .iter()
        .map(|r| {
            format!(
                "{}:{}{:+}",
                r.lane + 1,
                if r.exact { "" } else { "<=" },
                r.value
            )
        })
        .collect();
    println!("moves {}", moves.join(" "));
    let pv: Vec<String> = s.pv.iter().map(|l| (l + 1).to_string()).collect();
    println!("pv {}", pv.join(" "));
    let rate = s.nodes as f64 / s.seconds.max(1e-9) / 1e6;
    println!(
        "search {:.2} s, {} nodes ({rate:.2} M nodes/s); tables {} ({:.2} s)",
        s.seconds, s.nodes, report.tables, report.table_seconds
    );
}

/// Parses `A..BxC..D` (or `A..B x C..D` with single numbers allowed).
fn parse_family(spec: &str) -> Result<(Vec<usize>, Vec<u32>), CliError> {
    let bad = || {
        CliError(format!(
            "--family '{spec}': expected PITSxSEEDS ranges such as 1..6x1..5"
        ))
    };
    let (pits, seeds) = spec.split_once('x').ok_or_else(bad)?;
    let range = |r: &str| -> Result<(u32, u32), CliError> {
        let (a, b) = r.trim().split_once("..").unwrap_or((r.trim(), r.trim()));
        let (a, b) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if a > b { Err(bad()) } else { Ok((a, b)) }
    };
    let (p0, p1) = range(pits)?;
    let (s0, s1) = range(seeds)?;
    Ok(((p0 as usize..=p1 as usize).collect(), (s0..=s1).collect()))
}

pub fn run(args: &SolveArgs) -> CliResult {
    if args.variant.game.game == crate::args::GameName::Bao {
        return crate::bao::solve(args);
    }
    if args.depth.is_some() {
        return Err(CliError(
            "--depth is a bao option; kalah and oware are solved exactly".into(),
        ));
    }
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = args.threads {
            if t == 0 {
                return Err(CliError("--threads must be at least 1".into()));
            }
            b = b.num_threads(t);
        }
        b.build().map_err(|e| CliError(e.to_string()))?
    };
    pool.install(|| {
        let Some(spec) = &args.family else {
            let (variant, pos) = args.variant.resolve()?;
            let report = solve_one(args, variant, pos, args.json)?;
            if args.json {
                println!("{}", to_json(&report));
            } else {
                print_text(&report);
            }
            return Ok(());
        };
        if args.variant.position.is_some() {
            return Err(CliError(
                "--family solves start positions; it takes no --position".into(),
            ));
        }
        let (pits, seeds) = parse_family(spec)?;
        let game = args.variant.game.game()?;
        let mut rows = Vec::new();
        if !args.json {
            println!(
                "{:>5} {:>6} {:>7} {:>11} {:>10} {:>14}",
                "pits", "seeds", "value", "first", "seconds", "nodes"
            );
        }
        for &m in &pits {
            for &n in &seeds {
                let variant = Variant::new(game, m, n)?;
                let report = solve_one(args, variant, variant.start(), true)?;
                let (_, lead) = finals(&report);
                let secs = report.solution.seconds + report.table_seconds;
                if args.json {
                    rows.push(to_json(&report));
                } else {
                    let first = if lead > 0.0 {
                        format!("wins by {}", number(lead))
                    } else if lead < 0.0 {
                        format!("loses by {}", number(-lead))
                    } else {
                        "draw".into()
                    };
                    println!(
                        "{m:>5} {n:>6} {:>+7} {first:>11} {secs:>10.2} {:>14}",
                        report.solution.value, report.solution.nodes
                    );
                }
            }
        }
        if args.json {
            println!("{}", serde_json::to_string(&rows)?);
        }
        Ok(())
    })
}
