//! `granary solve kalah|oware`: exact values of whole games, one position or a family of starts.

use granary::{Seeds, Setup, SolveReport};

use crate::args::SolveArgs;
use crate::draw;
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;

/// The line under a solve's moves when some are bounds.
const BOUND_LEGEND: &str = "(<=+N: the move is worth at most +N, no more than the best; --all-moves gives every move's exact value)";

fn print_text(r: &SolveReport) {
    let [s, n] = r.final_stores;
    println!("{}", r.variant);
    println!("position {}", r.position);
    println!(
        "value {:+} for {} (net score of the seeds on the board)",
        r.value,
        draw::side_named(r.to_move)
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
        .map(|m| format!("{}:{}", m.pit, crate::progress::worth(m.worth)))
        .collect();
    println!("moves {}", moves.join(" "));
    if r.moves.iter().any(|m| m.worth.exact().is_none()) {
        println!("{BOUND_LEGEND}");
    }
    let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
    println!("pv {}", pv.join(" "));
    let rate = r.nodes as f64 / r.seconds.max(1e-9) / 1e6;
    println!(
        "search {:.2} s, {} nodes ({rate:.2} M nodes/s); tables {} ({:.2} s)",
        r.seconds, r.nodes, r.tables, r.table_seconds
    );
    if let Some(j) = &r.journal {
        let how = if j.answered {
            "answered from it".to_string()
        } else {
            format!("{} positions loaded from earlier runs", j.loaded)
        };
        println!(
            "journal {}: {} records ({:.2} MiB), {} runs; {how}; earlier runs {} nodes, {:.1} s",
            j.path.display(),
            j.records,
            j.bytes as f64 / f64::from(1 << 20),
            j.runs,
            j.earlier_nodes,
            j.earlier_seconds
        );
    }
}

/// `--recheck N`: re-proves N journal records from scratch, a line each; an error if any fails.
fn recheck(
    args: &SolveArgs,
    tablebase: &granary::Tablebase,
    game: &granary::Mancala,
    settings: &granary::Settings,
    journal: &std::path::Path,
    count: usize,
) -> CliResult {
    let seed = args.recheck_seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    if !args.json {
        println!(
            "re-checking {count} records of {} (seed {seed})",
            journal.display()
        );
    }
    let pick = granary::Recheck {
        journal: journal.to_path_buf(),
        count,
        seed,
    };
    let json = args.json;
    let checked = granary::recheck(
        tablebase,
        game,
        settings,
        &pick,
        &Terminal::new(json),
        &mut |c| {
            if !json {
                println!(
                    "{} {} ({} seeds): {:+}..{:+} in {} nodes, {:.2} s",
                    if c.holds { "holds" } else { "FAILS" },
                    c.position,
                    c.seeds,
                    c.lower,
                    c.upper,
                    c.nodes,
                    c.seconds
                );
            }
        },
    )?;
    if json {
        println!("{}", serde_json::to_string(&checked)?);
    }
    let failed = checked.iter().filter(|c| !c.holds).count();
    if failed > 0 {
        return Err(CliError::Failed(format!(
            "{}: {failed} of {} records re-checked do not hold: the journal is wrong; do not trust its result",
            journal.display(),
            checked.len()
        )));
    }
    if !json {
        println!("all {} records re-checked hold", checked.len());
    }
    Ok(())
}

/// `--dry-run`: the plan's line (or JSON). A search beyond the cost model's measured range is
/// promised no time; its evidence is what a journal of this very solve has searched so far: the
/// one `--journal` names, else the first in the table directory or in
/// [`granary::journal::SOLVES_DIR`], on a line of its own.
fn dry_run(
    args: &SolveArgs,
    tablebase: &granary::Tablebase,
    game: &granary::Mancala,
    settings: &granary::Settings,
) -> CliResult {
    let seeds = game.position.board.seeds(game.variant.pits);
    let plan = granary::plan(tablebase, game.variant, seeds, settings)?;
    let evidence = if plan.search_measured == Some(false) {
        match &args.journal {
            Some(path) => granary::journal::journal_evidence(game, path),
            None => granary::journal::find_journal_evidence(
                game,
                &[
                    tablebase.root(),
                    std::path::Path::new(granary::journal::SOLVES_DIR),
                ],
            ),
        }
        .map_err(granary::SolveError::from)?
    } else {
        None
    };
    if args.json {
        // The plan's fields, and the evidence beside them.
        let mut json = serde_json::to_value(&plan)?;
        if let Some(evidence) = &evidence {
            json["evidence"] = serde_json::to_value(evidence)?;
        }
        println!("{json}");
        return Ok(());
    }
    println!("{}", plan.describe());
    if let Some(evidence) = &evidence {
        println!("evidence: {evidence}");
    }
    Ok(())
}

pub fn run(args: &SolveArgs) -> CliResult {
    if args.depth.is_some() || args.pns.is_some() {
        return Err(CliError::Failed(
            "--depth and --pns are bao options; kalah and oware are solved exactly".into(),
        ));
    }
    let tablebase = args.dir.tablebase();
    let mut settings = args.tables.settings(args.threads, args.all_moves);
    if let Some(every) = args.progress_every {
        settings.tick_seconds = Some(every.as_secs_f64());
    }
    if args.family.is_some() && args.journal.is_some() {
        return Err(CliError::Failed(
            "--journal keeps one solve's proof; it takes no --family".into(),
        ));
    }
    settings.journal = args.journal.as_ref().map(|path| granary::JournalSettings {
        path: path.clone(),
        min_nodes: args
            .journal_min_nodes
            .unwrap_or(granary::journal::DEFAULT_MIN_NODES),
    });
    #[cfg(feature = "mpi")]
    {
        let cluster = granary::cluster::Cluster::init()?;
        if granary::Peers::size(&cluster) > 1 {
            return run_ranks(&cluster, args, &tablebase, &settings);
        }
    }
    let Some(spec) = &args.family else {
        let game = args.variant.mancala()?;
        if let (Some(count), Some(journal)) = (args.recheck, &args.journal) {
            return recheck(args, &tablebase, &game, &settings, journal, count);
        }
        if args.dry_run {
            return dry_run(args, &tablebase, &game, &settings);
        }
        let report = granary::solve(&tablebase, &game, &settings, &Terminal::new(args.json))?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_text(&report);
        }
        return Ok(());
    };
    if args.variant.start.position.is_some()
        || args.variant.start.seeds.is_some()
        || args.variant.game.options.pits.is_some()
        || args.dry_run
    {
        return Err(CliError::Failed(
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

/// `mpirun -np N granary solve ...`: one position solved by every rank of the job
/// (`granary::cluster::solve`); rank 0 prints the answer and what each rank did.
#[cfg(feature = "mpi")]
fn run_ranks(
    cluster: &granary::cluster::Cluster,
    args: &SolveArgs,
    tablebase: &granary::Tablebase,
    settings: &granary::Settings,
) -> CliResult {
    use granary::Peers;
    let rank = cluster.rank();
    if args.family.is_some() || args.recheck.is_some() || args.dry_run {
        // Every rank sees the same flags; rank 0 says what is wrong.
        return if rank == 0 {
            Err(CliError::Failed(
                "under mpirun, solve takes one position: no --family, --recheck or --dry-run"
                    .into(),
            ))
        } else {
            Ok(())
        };
    }
    let game = args.variant.mancala()?;
    let terminal = Terminal::new(args.json || rank != 0);
    match granary::cluster::solve(
        cluster,
        tablebase,
        &game,
        settings,
        &terminal,
        args.job_margin,
    ) {
        Ok(Some(report)) => {
            if args.json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print_text(&report);
                for r in &report.ranks {
                    println!(
                        "rank {}: {} jobs ({} given up), {} nodes, busy {:.1} s, idle {:.1} s",
                        r.rank, r.jobs, r.given_up, r.nodes, r.busy_seconds, r.idle_seconds
                    );
                }
            }
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(err) => {
            // Other ranks may wait for this one: end the job (the journal and the layers
            // built keep what was done; the same command resumes).
            eprintln!("granary: error: rank {rank}: {}", CliError::from(err));
            cluster.abort(2);
        }
    }
}
