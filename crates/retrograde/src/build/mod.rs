//! Building layers: the layers of a table set built lowest first, and the steps of one layer's
//! build ([`build_layer`]): its plan and solve (`target`, private), then its file (`output`,
//! private).

use std::path::PathBuf;
use std::time::Instant;

use granary_tables::compress::{CompressOptions, compress_layer};
use granary_tables::{Layer, TableError, TableKind, TableSet};

use crate::blocks::ScratchError;
use crate::peers::{Peers, Solo};
use crate::phases::PhaseError;
use crate::report::{BuildObserver, LayerReport};

mod output;
mod target;

use output::Output;
use target::{Target, decompressed};

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Table(#[from] TableError),
    /// The worker threads asked for cannot be had.
    #[error("threads: {0}")]
    Threads(String),
    #[error(
        "no memory for the layer being built ({0}): close other programs, or build fewer seeds"
    )]
    Memory(std::io::Error),
    /// A checkpoint of a layer could not be written or read back.
    #[error(
        "checkpoint of the layer being built: {0}: free disk space (a checkpoint takes two bytes a position of the layer, twice while it is replaced) and run the same command again"
    )]
    Checkpoint(std::io::Error),
    /// A scratch file of a build in blocks (a full disk, most likely).
    #[error(
        "scratch file of the build: {0}: free disk space, or give the build more memory (fewer scratch files)"
    )]
    Scratch(#[from] ScratchError),
    /// The ranks of a distributed build disagree on whether a layer exists.
    #[error("{}: some ranks of the build see this layer and others do not: every rank must see the table directory through a shared filesystem", path.display())]
    Ranks { path: PathBuf },
}

impl From<PhaseError> for BuildError {
    fn from(e: PhaseError) -> Self {
        match e {
            PhaseError::Memory(e) => BuildError::Memory(e),
            PhaseError::Scratch(e) => BuildError::Scratch(e),
            PhaseError::Table(e) => BuildError::Table(e),
            PhaseError::Checkpoint(e) => BuildError::Checkpoint(e),
        }
    }
}

/// How to build.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// The builder's own memory (anonymous memory: the work bytes, the values where they fit
    /// beside them, the tiles of the lower layers, message buffers, stacks), in bytes, beside a
    /// small constant; a layer that does not fit is built in blocks. How it is shared out:
    /// [`MemoryPlan`]. `None`: no limit, every layer in one block. The bytes written are the
    /// same for every budget.
    pub memory: Option<u64>,
    /// Compress each layer (table format version 2) as it is built, and the uncompressed layers
    /// already there: one process alone writes each layer compressed straight from its values
    /// (no uncompressed copy on disk); the ranks of a distributed build write their parts of the
    /// version 1 file, which rank 0 compresses. The same bytes either way. `None`: layers stay
    /// version 1.
    pub compress: Option<CompressOptions>,
    /// How often a layer built by the phases saves a checkpoint between two phases, so that a
    /// build stopped in the middle of a layer resumes from it ([`crate::resume`]); `None`: the
    /// default, [`CHECKPOINT_EVERY`]; [`NO_CHECKPOINTS`]: none. A distributed build
    /// checkpoints every rank's share and resumes when run again on the same ranks with the
    /// same budget and threads.
    pub checkpoint_every: Option<std::time::Duration>,
    /// Positions of a region of the work bytes whose parents a thread informs together, at
    /// least [`crate::PIECE`] (a setting to measure and test by; `None`:
    /// [`crate::blocks::REGION`] in a block beyond the TLB's reach, else the
    /// whole block: [`crate::blocks::BlockPlan::region`]). The bytes written are the same for
    /// every region.
    pub region: Option<u64>,
}

/// How often a layer saves a checkpoint unless told: 10 minutes (a checkpoint writes two bytes
/// a position; an estimate of its cost: docs/benchmarks.md).
pub const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// The interval of a build that saves no checkpoint (a layer stopped in its middle starts
/// over; the disk needs no room for them).
pub const NO_CHECKPOINTS: std::time::Duration = std::time::Duration::MAX;

/// A pool of `threads` worker threads (`None`: one per core).
///
/// # Errors
/// [`BuildError::Threads`] for 0 threads or a pool that cannot start.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, BuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        if threads == 0 {
            return Err(BuildError::Threads("must be at least 1".into()));
        }
        builder = builder.num_threads(threads);
    }
    builder
        .build()
        .map_err(|e| BuildError::Threads(e.to_string()))
}

/// Builds the missing layers `0..=max_seeds` of `kind` under `root`, lowest first. Layers already
/// built are opened and checked (header, length, checksum) and kept.
///
/// # Errors
/// A table error naming the file, or a bad thread count.
pub fn build_layers(
    root: &std::path::Path,
    kind: TableKind,
    max_seeds: u32,
    options: BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<Vec<LayerReport>, BuildError> {
    build_layers_on(root, kind, max_seeds, options, observer, &Solo)
}

/// [`build_layers`] by the ranks of a distributed build (every rank calls it; see
/// [`crate::peers`]): each layer is shared among the ranks, which write their parts of its file
/// (the table directory must be on a filesystem every rank sees); rank 0 holds the table set's
/// write lock and finishes each file. One rank alone ([`Solo`]) is [`build_layers`].
///
/// Memory: `options.memory` is a rank's budget; where the ranks are given different ones, every
/// rank builds within the smallest (the plan of blocks must be the same on every rank).
///
/// # Errors
/// As [`build_layers`], and [`BuildError::Ranks`] when the ranks see different table
/// directories. A rank that returns an error leaves the others waiting: end the job.
pub fn build_layers_on(
    root: &std::path::Path,
    kind: TableKind,
    max_seeds: u32,
    options: BuildOptions,
    observer: &dyn BuildObserver,
    peers: &dyn Peers,
) -> Result<Vec<LayerReport>, BuildError> {
    let pool = thread_pool(options.threads)?;
    let options = BuildOptions {
        memory: match peers.min(options.memory.unwrap_or(u64::MAX)) {
            u64::MAX => None,
            least => Some(least),
        },
        ..options
    };
    let set = TableSet::new(root, kind);
    let _lock = if peers.rank() == 0 {
        Some(set.lock_for_writing()?)
    } else {
        None
    };
    peers.barrier();
    let mut reports = Vec::new();
    for seeds in 0..=max_seeds {
        let path = set.layer_path(seeds);
        let exists = path.exists();
        // Some rank sees it and some rank does not.
        if peers.size() > 1 && peers.any(exists) && peers.any(!exists) {
            return Err(BuildError::Ranks { path });
        }
        let mut r = if !exists {
            pool.install(|| build_layer(&set, seeds, options, observer, peers))?
        } else {
            LayerReport {
                seeds,
                positions: 0,
                seconds: None,
                path,
                traffic: None,
                sweep: None,
                compressed: None,
                resumed: None,
                counts: None,
            }
        };
        // Compressed before the set opens it: an open layer would keep the old file's space.
        if let Some(compress) = options.compress {
            if peers.rank() == 0 && r.compressed.is_none() {
                r.compressed = compress_in_place(&set, seeds, compress)?;
            }
            peers.barrier();
        }
        if exists {
            r.positions = set.layer(seeds)?.index().size();
        }
        observer.layer_done(&r);
        reports.push(r);
    }
    Ok(reports)
}

/// Compresses layer `seeds` of `set` in place if it is a version 1 file (not yet opened by the
/// set): `Some((bytes before, bytes after))`, `None` if it was compressed already.
fn compress_in_place(
    set: &TableSet,
    seeds: u32,
    options: CompressOptions,
) -> Result<Option<(u64, u64)>, TableError> {
    let path = set.layer_path(seeds);
    let layer = Layer::open(&path, set.kind(), seeds)?;
    if layer.is_compressed() {
        return Ok(None);
    }
    let made = compress_layer(&layer, &path, options)?;
    Ok(Some((made.before, made.after)))
}

/// The scratch directory of the layer at `path`: `<path>.work` (its blocks' scratch files and
/// its checkpoints).
#[must_use]
pub fn scratch_dir(path: &std::path::Path) -> PathBuf {
    let mut dir = path.as_os_str().to_owned();
    dir.push(".work");
    PathBuf::from(dir)
}

/// Builds layer `seeds` of `set` (whose lower layers must be built) by the ranks `peers`, each
/// its share of the blocks, and writes its file, with each rank's memory within
/// `options.memory` bytes if given (the same on every rank: [`build_layers_on`] gives them the
/// least), on rayon's current pool. One process alone is [`Solo`], rank 0 of 1: the same
/// pipeline, whatever the number of ranks. The steps:
///
/// 1. **The plan** (`Target::plan`): the builder, the blocks, where this rank's work bytes
///    and values live, and the tiles, from the budget ([`MemoryPlan`]).
/// 2. **The checkpoint to resume from** (`Target::resumed`): only if every rank has one of
///    its share at the same phase ([`crate::resume`]).
/// 3. **The lower layers** (`Target::lower`), read one way a layer ([`Reads`]): at random
///    (compressed ones copied into memory), in tiles, or asking their owners.
/// 4. **The output** (`Output::open`): rank 0 creates `<layer>.tbl.tmp` (its space reserved)
///    for every rank to write its share; one process alone that compresses writes the
///    compressed file straight from its values.
/// 5. **The solve** (`Target::solve`): a Kalah layer that one process holds whole in order of
///    potential ([`crate::acyclic`]), every other layer by the phases of [`crate::phases`],
///    with checkpoints between phases.
/// 6. **The file** (`Output::write`), written once and in order; rank 0 checksums and
///    renames it, between barriers, and removes the scratch directory.
/// 7. **The report** (`Target::report`), summed over the ranks.
///
/// # Errors
/// If a lower layer is missing or bad, or a file cannot be written. A rank that returns an
/// error leaves the others waiting: end the job.
pub fn build_layer(
    set: &TableSet,
    seeds: u32,
    options: BuildOptions,
    observer: &dyn BuildObserver,
    peers: &dyn Peers,
) -> Result<LayerReport, BuildError> {
    let target = Target::plan(set, seeds, options, peers)?;
    let resumed = target.resumed(observer, peers);
    let reads = target.reads()?;
    let copies = decompressed(set, seeds, reads)?;
    let (lower, kept) = target.lower(&copies, reads, resumed)?;
    let started = Instant::now();
    if resumed.is_none() {
        target.remove_scratch(); // left by a killed build
    }
    let output = Output::open(&target.file(), options.compress, peers)?;
    observer.layer_started(set.kind(), seeds, target.size());
    let mut solve = target.solve((&lower, kept), options, observer, peers, resumed)?;
    let written = output.write(&target.file(), solve.finished.read(), peers)?;
    drop(solve.finished);
    target.remove_scratch();
    peers.barrier();
    Ok(target.report(
        started,
        resumed,
        solve.solved,
        solve.checkpoints,
        written,
        peers,
    ))
}
