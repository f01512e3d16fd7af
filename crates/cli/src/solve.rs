//! `granary solve kalah|oware`: exact values of whole games, one position or a family of starts.

use granary::{Seeds, Setup, SolveReport};

use crate::args::SolveArgs;
use crate::draw;
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;

fn print_text(r: &SolveReport) {
    let [s, n] = r.final_stores;
    println!("{}", r.variant);
    println!("position {}", r.position);
    println!(
        "value {:+} for {} (net score of the seeds on the board)",
        r.value,
        draw::side_title(r.to_move)
    );
    let lead = r.south_lead();
    let verdict = match lead.0.signum() {
        1 => format!("South wins by {lead}"),
        -1 => format!("North wins by {}", Seeds(-lead.0)),
        _ => "a draw".into(),
    };
    println!("final score South {s} - North {n}: {verdict}");
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| format!("{}:{}{:+}", m.pit, if m.exact { "" } else { "<=" }, m.value))
        .collect();
    println!("moves {}", moves.join(" "));
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    println!("pv {}", pv.join(" "));
    let rate = r.nodes as f64 / r.seconds.max(1e-9) / 1e6;
    println!(
        "search {:.2} s, {} nodes ({rate:.2} M nodes/s); tables {} ({:.2} s)",
        r.seconds, r.nodes, r.tables, r.table_seconds
    );
}

pub fn run(args: &SolveArgs) -> CliResult {
    if args.depth.is_some() || args.pns.is_some() {
        return Err(CliError(
            "--depth and --pns are bao options; kalah and oware are solved exactly".into(),
        ));
    }
    let tablebase = args.dir.tablebase();
    let settings = args.tables.settings(args.threads, args.all_moves);
    let Some(spec) = &args.family else {
        let game = args.variant.mancala()?;
        if args.dry_run {
            let seeds = game.position.board.seeds(game.variant.pits);
            let plan = granary::plan(&tablebase, game.variant, seeds, &settings)?;
            if args.json {
                println!("{}", serde_json::to_string(&plan)?);
            } else {
                println!("{}", plan.describe());
            }
            return Ok(());
        }
        let report = granary::solve(&tablebase, &game, &settings, &Terminal::new(args.json))?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_text(&report);
        }
        return Ok(());
    };
    if args.variant.position.is_some()
        || args.variant.seeds.is_some()
        || args.variant.game.pits.is_some()
        || args.dry_run
    {
        return Err(CliError(
            "--family solves start positions; it takes no --position, --pits, --seeds or --dry-run"
                .into(),
        ));
    }
    let (pits, seeds) = granary::game::parse_family(spec)?;
    let mut rows = Vec::new();
    if !args.json {
        println!(
            "{:>5} {:>6} {:>7} {:>11} {:>10} {:>14}",
            "pits", "seeds", "value", "first", "seconds", "nodes"
        );
    }
    for m in pits {
        for n in seeds.clone() {
            let setup = Setup {
                pits: Some(m),
                seeds: Some(n),
                ..args.variant.game.setup(None)
            };
            let game = setup.mancala(args.variant.game.name(), None)?;
            let report = granary::solve(&tablebase, &game, &settings, &Terminal::new(true))?;
            if args.json {
                rows.push(report);
                continue;
            }
            let lead = report.south_lead();
            let first = match lead.0.signum() {
                1 => format!("wins by {lead}"),
                -1 => format!("loses by {}", Seeds(-lead.0)),
                _ => "draw".into(),
            };
            println!(
                "{m:>5} {n:>6} {:>+7} {first:>11} {:>10.2} {:>14}",
                report.value,
                report.seconds + report.table_seconds,
                report.nodes
            );
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&rows)?);
    }
    Ok(())
}
