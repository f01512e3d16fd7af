//! Building layers: choosing the builder and its blocks, and writing the files.

use std::path::PathBuf;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::Engine;
use granary_tables::compress::{CompressOptions, Entries, compress_entries, compress_layer};
use granary_tables::format::HEADER_LEN;
use granary_tables::{Layer, SharedLayer, TableError, TableKind, TableSet};

use crate::acyclic::{acyclic_bytes, solve_acyclic_layer};
use crate::blocks::{
    BlockPlan, LayerValues, STACK_SHARE, Scratch, ScratchError, VALUES_SHARE, WorkBytes,
};
use crate::lower::Lower;
use crate::owners::Owners;
use crate::peers::{Peers, Solo, Traffic};
use crate::phases::{PhaseError, SolveLayer, Solved, values_of};
use crate::report::{BuildObserver, LayerReport, PhaseCounts};
use crate::resume::{Checkpoints, Found};
use crate::sweep::SweepReport;

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
    /// beside them ([`values_in_memory`]), message buffers, stacks), in bytes, beside a small
    /// constant ([`crate::blocks`]); a layer that does not fit is built in blocks. `None`: no
    /// limit, every layer in one block. The bytes written are the same for every budget.
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
    /// whole block: [`BlockPlan::region`]). The bytes written are the same for every region.
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

/// The share of a build's memory budget that holds a tile of the lower layers, when the first
/// pass reads them in tiles ([`crate::sweep`]): a quarter (the work bytes of a block take up to
/// three quarters, [`crate::blocks::WORK_SHARE`]).
pub const TILE_SHARE: u64 = 4;

/// The share of a rank's memory budget, as a fraction `(numerator, denominator)`, that its
/// slices of the lower layers and its share of the layer's work bytes may take together for a
/// distributed build to look exits up from their owners ([`crate::owners`]): three quarters (the
/// rest for messages).
pub const OWNERS_SHARE: (u64, u64) = (3, 4);

/// Copies in memory of the compressed layers among `0..seeds` of `set` where the builder reads
/// lower layers at random ([`granary_tables::Layer::random_reads_copy`]); none where it reads
/// them in tiles (`tile` is `Some`), which decompress block by block.
fn decompressed(
    set: &TableSet,
    seeds: u32,
    tile: Option<u64>,
) -> Result<Vec<Option<Layer>>, TableError> {
    (0..seeds)
        .map(|n| match tile {
            Some(_) => Ok(None),
            None => set.layer(n)?.random_reads_copy(),
        })
        .collect()
}

/// Layers `0..copies.len()` of `set` as the builder reads them: each copy in `copies` where
/// there is one ([`decompressed`]), else the layer as it is.
fn lower_layers<'a>(
    set: &'a TableSet,
    copies: &'a [Option<Layer>],
) -> Result<Vec<&'a Layer>, TableError> {
    copies
        .iter()
        .enumerate()
        .map(|(n, copy)| match copy {
            Some(copy) => Ok(copy),
            None => set.layer(n as u32),
        })
        .collect()
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
/// `options.memory` bytes if given, on rayon's current pool. One process alone is [`Solo`],
/// rank 0 of 1: the same pipeline, whatever the number of ranks.
///
/// 1. **Where the layer lives.** Each rank holds the values of its share
///    ([`crate::blocks::LayerValues`]: in anonymous memory when they fit, else in a mapped
///    scratch file) and its work bytes as the plan of blocks says ([`BlockPlan`]).
/// 2. **How the layer is solved.** A Kalah layer that one process holds whole is solved in
///    order of potential ([`crate::acyclic`]); every other layer by the phases of
///    [`crate::phases`], whose first pass reads the lower layers one way a layer
///    ([`Reads`]).
/// 3. **Checkpoints** between phases, every rank its share ([`crate::resume`]); a rerun
///    resumes only if every rank has a checkpoint of its share at the same phase.
/// 4. **The file**, written once and in order: rank 0 creates `<layer>.tbl.tmp` (its space
///    reserved), every rank writes its share, rank 0 checksums and renames it, between
///    barriers.
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
    let memory = options.memory;
    let kind = set.kind();
    let index = LayerIndex::new(kind.pits, seeds, kind.reduced()).map_err(TableError::from)?;
    let path = set.layer_path(seeds);
    let size = index.size();
    let work_dir = scratch_dir(&path);
    let acyclic = peers.size() == 1
        && matches!(kind.engine(), Engine::Kalah(_))
        && memory.is_none_or(|m| acyclic_fits(&index, m));
    let mut plan = BlockPlan::distributed(size, memory, rayon::current_num_threads(), peers.size());
    if let Some(region) = options.region {
        plan.region = region.max(crate::PIECE);
    }
    let span = plan.span(plan.owned(peers.rank()));
    let len = span.end - span.start;
    // This rank's checkpoint, resumed from only if every rank has one at the same phase.
    let resume_file = work_dir.join(format!("r{}-{}.resume", peers.rank(), span.start));
    let next = match Checkpoints::find(&resume_file, seeds, len) {
        Found::At(next) if !acyclic => u64::from(next),
        Found::Refused(why) if !acyclic => {
            observer.restarted(seeds, &why);
            u64::MAX
        }
        _ => u64::MAX,
    };
    let least = peers.min(next);
    let resumed = (least != u64::MAX && peers.max(next) == least).then_some(least as u32);
    // The work bytes of a single block live in anonymous memory beside the values.
    let one_block =
        (!acyclic && plan.owned(peers.rank()).len() <= 1).then_some(plan.block.min(size));
    // The same on every rank (their shares differ by a block at most).
    let tile = memory.map(|m| peers.min(tile_bytes(len, one_block, m)));
    let reads = if acyclic {
        Reads::Random
    } else {
        Reads::choose(set, &index, memory, tile, peers)?
    };
    let copies = match reads {
        Reads::Owners => (0..seeds).map(|_| None).collect(),
        Reads::Tiles(tile) => decompressed(set, seeds, Some(tile))?,
        Reads::Random => decompressed(set, seeds, None)?,
    };
    let layers = lower_layers(set, &copies)?;
    // A resumed layer has its first pass behind it.
    let owners = match reads {
        Reads::Owners if resumed.is_none() => {
            Some(Owners::load(&layers, peers.rank(), peers.size())?)
        }
        _ => None,
    };
    let lower = Lower {
        layers,
        tile: match reads {
            Reads::Tiles(tile) => Some(tile),
            _ => None,
        },
        owners,
    };
    // What the lower layers keep in memory through the phases (copies read at random, a rank's
    // slices): the lists of exits by phase have the rest of the tiles' share of the budget.
    let resident = copies.iter().flatten().map(Layer::len).sum::<u64>()
        + lower.owners.as_ref().map_or(0, Owners::bytes);
    let started = Instant::now();
    if peers.rank() == 0 && resumed.is_none() {
        let _ = std::fs::remove_dir_all(&work_dir); // left by a killed build
    }
    // One process alone writes a compressed layer straight from its values; ranks write their
    // parts of a version 1 file, which rank 0 compresses after ([`build_layers_on`]).
    let output = match options.compress.filter(|_| peers.size() == 1) {
        Some(compress) => Output::Compressed(compress),
        None if peers.rank() == 0 => {
            let shared = SharedLayer::create(&path, kind, seeds, size)?;
            peers.barrier();
            Output::Parts(shared)
        }
        None => {
            peers.barrier();
            Output::Parts(SharedLayer::join(&path, kind, seeds, size)?)
        }
    };
    observer.layer_started(kind, seeds, size);
    let mut scratch = Scratch::new(work_dir.join(format!("r{}", peers.rank())));
    let in_memory = memory.is_none_or(|m| values_in_memory(len, one_block, m));
    let values = LayerValues::new(len, in_memory, &mut scratch)?;
    let mut checkpoints = Checkpoints::new(
        resume_file,
        seeds,
        len,
        options.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
    );
    let share = Share {
        observer,
        scale: (size, len.max(1)),
    };
    let mut solved = match kind.engine() {
        Engine::Kalah(rules) if acyclic => {
            solve_acyclic_layer(&rules, &index, &lower, values.entries(), observer)
                .map_err(BuildError::Memory)?;
            Solved::default()
        }
        engine => engine.visit(SolveLayer {
            index: &index,
            lower: &lower,
            values: values.entries(),
            plan: &plan,
            scratch,
            observer: &share,
            peers,
            checkpoints: Some((&mut checkpoints, resumed)),
            exit_memory: tile.map(|tile| tile.saturating_sub(resident)),
        })?,
    };
    // The values: in the work bytes after the phases (the values' bytes held best exits), else
    // in the values.
    let finished = match solved.work.take() {
        Some(work) => {
            drop(values);
            Finished::Work(work)
        }
        None => Finished::Values(values),
    };
    let fill = |first: u64, out: &mut [u8]| finished.fill(first - span.start, out);
    let mut compressed = None;
    let file_bytes = match output {
        Output::Compressed(compress) => {
            let entries = Entries { len, fill: &fill };
            let made = compress_entries(&path, kind.header(seeds, size), &entries, compress)?;
            compressed = Some((made.before, made.after));
            made.after
        }
        Output::Parts(shared) => {
            shared.write_parts(span.start, len, fill)?;
            peers.barrier();
            if peers.rank() == 0 {
                shared.finish()?;
            }
            HEADER_LEN as u64 + size
        }
    };
    drop(finished);
    if peers.rank() == 0 {
        let _ = std::fs::remove_dir_all(&work_dir);
    }
    peers.barrier();
    let traffic = (peers.size() > 1).then(|| Traffic {
        messages: peers.sum(solved.traffic.messages),
        lookups: peers.sum(solved.traffic.lookups),
        bytes: peers.sum(solved.traffic.bytes),
        ..solved.traffic
    });
    Ok(LayerReport {
        seeds,
        positions: size,
        seconds: Some(started.elapsed().as_secs_f64()),
        path,
        traffic,
        sweep: solved.sweep.map(|sweep| SweepReport {
            misses: peers.sum(sweep.misses),
            read: peers.sum(sweep.read),
            ..sweep
        }),
        compressed,
        resumed,
        counts: (!acyclic).then(|| PhaseCounts {
            phases: solved.counts.phases,
            scanned: peers.sum(solved.counts.scanned),
            resolved: peers.sum(solved.counts.resolved),
            parents: peers.sum(solved.counts.parents),
            written: file_bytes
                + peers.sum(u64::from(checkpoints.written) * Checkpoints::bytes(len)),
        }),
    })
}

/// Whether a Kalah layer of `index` is solved in order of potential within `memory` bytes: its
/// working memory ([`acyclic_bytes`]) and its values, these in anonymous memory when they fit a
/// quarter of the budget ([`values_in_memory`] with no work bytes).
#[must_use]
pub fn acyclic_fits(index: &LayerIndex, memory: u64) -> bool {
    let size = index.size();
    let values = if values_in_memory(size, None, memory) {
        size
    } else {
        0
    };
    acyclic_bytes(index) + values <= memory
}

/// Whether `len` values of a layer (a rank's share of it) live in anonymous memory within a
/// budget of `memory` bytes, rather than in a scratch file: when they fit a quarter of it
/// ([`VALUES_SHARE`]), or, where the work bytes take one block of `work` positions (in
/// anonymous memory too), when they fit what the budget leaves beside the work bytes, the
/// threads' stacks ([`STACK_SHARE`]) and the least tile ([`MIN_TILE_SHARE`]). In a scratch file,
/// every tile of the first pass reads and writes them all again wherever the page cache cannot
/// hold them; in memory, a smaller tile costs little more (each lower layer is still read once).
#[must_use]
pub fn values_in_memory(len: u64, work: Option<u64>, memory: u64) -> bool {
    len <= memory / VALUES_SHARE
        || work.is_some_and(|work| {
            len + work + memory / STACK_SHARE + memory / MIN_TILE_SHARE <= memory
        })
}

/// The bytes that the first pass's tile of the lower layers may take within a budget of `memory`
/// bytes (the phases' lists of exits take them after it), for `len` values and `work` as in
/// [`values_in_memory`]: a quarter of the budget ([`TILE_SHARE`]), or what it leaves beside the
/// work bytes, values and stacks when the values live beside the work bytes in memory.
#[must_use]
pub fn tile_bytes(len: u64, work: Option<u64>, memory: u64) -> u64 {
    let quarter = memory / TILE_SHARE;
    match work {
        Some(work) if len > memory / VALUES_SHARE && values_in_memory(len, Some(work), memory) => {
            quarter.min(memory - len - work - memory / STACK_SHARE)
        }
        _ => quarter,
    }
}

/// The least share of a budget that a tile of the lower layers takes: a thirty-second (values
/// live beside the work bytes only while a tile still holds a useful run of rows).
pub const MIN_TILE_SHARE: u64 = 32;

/// How the first pass of a layer built by phases reads the lower layers its moves leave into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// At random, in rank order of the layer built (no budget, or lower layers that fit a
    /// tile: they are then small beside the budget).
    Random,
    /// In tiles of at most that many entries ([`crate::sweep`]).
    Tiles(u64),
    /// Each rank of a distributed build holds a slice of every lower layer and asks the others
    /// for the rest ([`crate::owners`]).
    Owners,
}

impl Reads {
    /// The way for layer `index` of `set` within `memory`, the same on every rank (the choice
    /// is collective): by owners when the ranks are several and every rank's slices of the
    /// lower layers fit its budget beside its share of the work bytes ([`OWNERS_SHARE`]);
    /// else in tiles of `tile` bytes ([`tile_bytes`]) when the lower layers exceed one; else at
    /// random.
    fn choose(
        set: &TableSet,
        index: &LayerIndex,
        memory: Option<u64>,
        tile: Option<u64>,
        peers: &dyn Peers,
    ) -> Result<Reads, TableError> {
        let seeds = index.seeds();
        let sizes = (0..seeds)
            .map(|n| Ok(set.layer(n)?.len()))
            .collect::<Result<Vec<u64>, TableError>>()?;
        if peers.size() > 1 {
            let fits = memory.is_none_or(|m| {
                Owners::share(&sizes, peers.size()) + index.size().div_ceil(peers.size() as u64)
                    <= m / OWNERS_SHARE.1 * OWNERS_SHARE.0
            });
            // Budgets may differ between machines: every rank the same way.
            if !peers.any(!fits) {
                return Ok(Reads::Owners);
            }
        }
        let Some(tile) = tile else {
            return Ok(Reads::Random);
        };
        let tile = tile.max(1);
        Ok(if sizes.iter().sum::<u64>() > tile {
            Reads::Tiles(tile)
        } else {
            Reads::Random
        })
    }
}

/// The observer of one rank's share of a layer: its progress scaled to the whole layer, so
/// that rank 0's bar reads as the layer's.
struct Share<'a> {
    observer: &'a dyn BuildObserver,
    /// (layer size, share size).
    scale: (u64, u64),
}

impl BuildObserver for Share<'_> {
    fn advanced(&self, positions: u64) {
        let (size, share) = self.scale;
        let scaled = u128::from(positions) * u128::from(size) / u128::from(share);
        self.observer.advanced(scaled as u64);
    }
    fn phase(&self, t: u32) {
        self.observer.phase(t);
    }
    fn checkpointed(&self, seeds: u32, next: u32) {
        self.observer.checkpointed(seeds, next);
    }
}

/// How a layer's file is written.
enum Output {
    /// Compressed, straight from the values, by one process alone.
    Compressed(CompressOptions),
    /// As a version 1 file, each rank its part ([`SharedLayer`]).
    Parts(SharedLayer),
}

/// Where a solved layer's values are: in the work bytes of the phases ([`values_of`]), or in the
/// values of a layer solved in order of potential.
enum Finished {
    Work(WorkBytes),
    Values(LayerValues),
}

impl Finished {
    /// The values of this rank's share from its `from`th position on, into `out`.
    fn fill(&self, from: u64, out: &mut [u8]) {
        let from = from as usize;
        match self {
            Finished::Work(work) => values_of(&work.all()[from..], out),
            Finished::Values(values) => {
                out.copy_from_slice(&values.bytes()[from..from + out.len()]);
            }
        }
    }
}
