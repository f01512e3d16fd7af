//! `granary build`: the missing layers of a variant's tables, lowest first.

use std::time::Instant;

use granary_retrograde::{BuildOptions, build_layers};
use granary_tables::TableKind;

use crate::args::BuildArgs;
use crate::error::{CliError, CliResult};

/// Peak resident memory of this process so far, in bytes (Linux), for reports.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub fn run(args: &BuildArgs) -> CliResult {
    let kind = TableKind {
        game: args.game.game()?,
        pits: args.game.pits.unwrap_or(6),
    };
    if !(1..=8).contains(&kind.pits) {
        return Err(CliError(format!(
            "--pits {} is out of range: a side has 1 to 8 pits",
            kind.pits
        )));
    }
    let limit = granary_index::MAX_LAYER_SEEDS;
    if args.max_seeds > limit {
        return Err(CliError(format!(
            "--max-seeds {}: tables hold at most {limit} seeds on the board",
            args.max_seeds
        )));
    }
    let root = args.dir.resolve();
    let options = BuildOptions {
        threads: args.threads,
        quiet: args.quiet,
    };
    let started = Instant::now();
    let mut built = 0u64;
    let reports = build_layers(&root, kind, args.max_seeds, options, |r| {
        if let Some(seconds) = r.seconds {
            built += r.positions;
            if !args.quiet {
                let rate = r.positions as f64 / seconds.max(1e-9) / 1e6;
                eprintln!(
                    "{} layer {:>2}: {:>13} positions in {seconds:>8.2} s ({rate:.2} M/s)",
                    kind.name(),
                    r.seeds,
                    r.positions
                );
            }
        }
    })?;
    if !args.quiet {
        let seconds = started.elapsed().as_secs_f64();
        let total: u64 = reports.iter().map(|r| r.positions).sum();
        let kept = reports.iter().filter(|r| r.seconds.is_none()).count();
        let memory = peak_memory().map_or(String::new(), |b| {
            format!(", peak memory {:.2} GiB", b as f64 / f64::from(1 << 30))
        });
        eprintln!(
            "{}: layers 0..={} in {} ({total} positions; {kept} already built); built {built} positions in {seconds:.1} s ({:.2} M/s){memory}",
            kind.name(),
            args.max_seeds,
            root.join(kind.name()).display(),
            built as f64 / seconds.max(1e-9) / 1e6
        );
    }
    Ok(())
}
