//! A solve by the ranks of an MPI job (`mpirun -np N granary solve ...`): rank 0 plans, every
//! rank builds the missing layers together ([`crate::build::build_on`]), then rank 0 runs the
//! search and its journal while the other ranks search the jobs it hands out
//! ([`super::jobs`]), each with its own tables mapped and its own transposition table. (An
//! Oware board is answered from its tables: the ranks build them together, rank 0 reads.)
//!
//! What the ranks agree on travels in sums (rank 0's words, the others' zeros): whether to
//! search, the table horizon and the hash size. Values are the single process's: a job's
//! answer is a bound the contract proves, whoever searched it. Faults: an error before the
//! search (a foreign journal, a plan that does not fit) is rank 0's to report, and every rank
//! ends cleanly; an error during the build or search, or a rank that dies, ends the job (the
//! caller aborts, `mpirun` ends the others), and the same command resumes from the journal and
//! the layers already built.

use granary_rules::Game;

use super::{Cluster, jobs};
use crate::error::{Error, SolveError};
use crate::game::Mancala;
use crate::observer::Observer;
use crate::plan::TableChoice;
use crate::solve::{RankFigures, Settings, SolveReport};
use crate::tablebase::Tablebase;
use granary_retrograde::Peers;

/// Solves `game` on every rank of `cluster` (each rank calls it with the same arguments): the
/// report on rank 0, `None` on the others. Children of at most `job_margin` seeds above the
/// tables are the workers' jobs (default [`granary_search::job_margin`]: six seeds below the
/// root). One rank solves alone ([`crate::solve`]).
///
/// # Errors
/// As [`crate::solve`]. After an error from the build or the search, other ranks may be waiting
/// for this one: the caller ends the job ([`Cluster::abort`]).
pub fn solve(
    cluster: &Cluster,
    tablebase: &Tablebase,
    game: &Mancala,
    settings: &Settings,
    observer: &dyn Observer,
    job_margin: Option<u32>,
) -> Result<Option<SolveReport>, Error> {
    let size = cluster.size();
    let rank = cluster.rank();
    if size == 1 {
        return crate::solve::solve(tablebase, game, settings, observer).map(Some);
    }
    let local = cluster.local_size().max(1);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = settings.threads.unwrap_or((cores / local).max(1));
    // Rank 0 decides: [search (1) or not (0), horizon + 1 (0: none), hash MiB a rank].
    let mine = if rank == 0 {
        decide(tablebase, game, settings, local)
    } else {
        [0; 3]
    };
    let agreed = mine.map(|word| cluster.sum(word));
    if agreed[0] == 0 {
        // A journal that answers, or an error to report: rank 0 does it alone, as one process.
        return if rank == 0 {
            crate::solve::solve(tablebase, game, settings, observer).map(Some)
        } else {
            Ok(None)
        };
    }
    let horizon = agreed[1].checked_sub(1).map(|h| h as u32);
    let seeds = game.position.board.seeds(game.variant.pits);
    let margin =
        job_margin.unwrap_or_else(|| granary_search::job_margin(seeds, horizon.unwrap_or(0)));
    let hash_mib = agreed[2] as usize;
    let kind = game.kind();
    if let Some(h) = horizon {
        let quiet: &dyn Observer = if rank == 0 { observer } else { &() };
        crate::build::build_on(
            tablebase,
            kind,
            h,
            crate::build::BuildSettings {
                threads: Some(threads),
                ..Default::default()
            },
            quiet,
            cluster,
        )?;
    }
    if rank == 0 {
        let farmed = Settings {
            tables: horizon.map_or(TableChoice::None, TableChoice::Seeds),
            hash_mib: Some(hash_mib),
            // Threads that wait for a job's answer hold a thread of the pool each.
            threads: Some(threads + size - 1),
            // Ranks on one machine share mapped tables through the page cache.
            in_memory: settings.in_memory.filter(|_| local == 1).or(Some(false)),
            ..settings.clone()
        };
        let (report, figures) = jobs::dispatch(cluster, |remote| {
            crate::solve::solve_farmed(tablebase, game, &farmed, observer, Some((remote, margin)))
        });
        let mut report = report?;
        let workers: u64 = figures.iter().map(|f| f.nodes).sum();
        report.ranks = std::iter::once(RankFigures {
            rank: 0,
            nodes: report.nodes.saturating_sub(workers),
            busy_seconds: report.seconds,
            ..RankFigures::default()
        })
        .chain(figures)
        .collect();
        Ok(Some(report))
    } else {
        let pool = granary_retrograde::thread_pool(Some(threads))
            .map_err(crate::error::BuildError::from)?;
        let Game::Kalah { capture, sweep } = kind.game else {
            // Oware is answered from its tables on rank 0: the workers only built them.
            jobs::serve(cluster, None, &pool);
            return Ok(None);
        };
        let rules = granary_rules::Kalah::new(kind.pits, capture, sweep);
        let set = tablebase.tables(kind);
        let solver = pool.install(|| {
            granary_search::kalah_solver(
                &rules,
                horizon.map(|h| (&*set, h)),
                hash_mib,
                settings.in_memory == Some(true) && local == 1,
            )
            .map_err(SolveError::from)
        })?;
        jobs::serve(cluster, Some(solver.as_ref()), &pool);
        Ok(None)
    }
}

/// Rank 0's decision, as the words the ranks sum: whether the ranks search together, the
/// horizon (plus one; zero for none) and each rank's hash table in MiB (the plan's, shared by
/// the `local` ranks of this machine). Not together: a journal that already answers, or an
/// error (which rank 0 then meets again and reports).
fn decide(tablebase: &Tablebase, game: &Mancala, settings: &Settings, local: usize) -> [u64; 3] {
    let no = [0; 3];
    if let Some(j) = &settings.journal {
        match crate::journal::open(game, j)
            .and_then(|opened| crate::journal::answer(game, &opened.contents, settings.all_moves))
        {
            Ok(None) => {}
            _ => return no,
        }
    }
    let seeds = game.position.board.seeds(game.variant.pits);
    match crate::solve::plan(tablebase, game.variant, seeds, settings) {
        Ok(plan) => [
            1,
            plan.horizon.map_or(0, |h| u64::from(h) + 1),
            (plan.hash_mib / local).max(16) as u64,
        ],
        Err(_) => no,
    }
}
