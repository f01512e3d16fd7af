//! `granary build`: the missing layers of a variant's tables, lowest first.

use crate::args::BuildArgs;
use crate::error::CliResult;
use crate::progress::{Terminal, peak_memory};

pub fn run(args: &BuildArgs) -> CliResult {
    let kind = args.game.kind()?;
    let tablebase = args.dir.tablebase();
    #[cfg(feature = "mpi")]
    let cluster = granary::cluster::Cluster::init()?;
    #[cfg(feature = "mpi")]
    let peers: &dyn granary::Peers = &cluster;
    #[cfg(not(feature = "mpi"))]
    let peers: &dyn granary::Peers = &granary::Solo;
    // Rank 0 speaks for the job.
    let quiet = args.quiet || peers.rank() != 0;
    let progress_every = args
        .progress_every
        .unwrap_or(std::time::Duration::from_secs(60));
    let terminal = Terminal::for_build(quiet, progress_every);
    let settings = granary::build::BuildSettings {
        threads: args.threads,
        memory: args.memory,
        compress: args
            .compress
            .then(granary::compress::CompressOptions::default),
        checkpoint_every: if args.no_checkpoints {
            Some(granary::build::NO_CHECKPOINTS)
        } else {
            args.checkpoint_every.map(std::time::Duration::from_secs)
        },
    };
    let report = granary::build_on(&tablebase, kind, args.max_seeds, settings, &terminal, peers);
    #[cfg(feature = "mpi")]
    if let Err(err) = &report
        && peers.size() > 1
    {
        // The other ranks wait for this one in their next exchange: end them all.
        eprintln!("granary: error: rank {}: {err}", peers.rank());
        cluster.abort(2);
    }
    let report = report?;
    if !quiet {
        let mut memory = peak_memory().map_or(String::new(), |b| {
            format!(", peak memory {:.2} GiB", b as f64 / f64::from(1 << 30))
        });
        if let Some(anon) = terminal.peak_anon() {
            memory += &format!(" ({:.2} GiB anonymous)", anon as f64 / f64::from(1 << 30));
        }
        eprintln!(
            "{}: layers 0..={} in {} ({} positions; {} already built); built {} positions in {:.1} s ({:.2} M/s){memory}",
            report.tables,
            report.max_seeds,
            tablebase.root().join(&report.tables).display(),
            report.positions,
            report.kept,
            report.built,
            report.seconds,
            report.built as f64 / report.seconds.max(1e-9) / 1e6
        );
    }
    Ok(())
}
