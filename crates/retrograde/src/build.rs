//! Building layers: choosing the builder and its blocks, and writing the files.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::AtomicU8;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::Engine;
use granary_tables::compress::{CompressOptions, Entries, compress_entries, compress_layer};
use granary_tables::format::HEADER_LEN;
use granary_tables::{Layer, SharedLayer, TableError, TableKind, TableSet};

use crate::acyclic::solve_acyclic_layer;
use crate::blocks::{LayerValues, Scratch, ScratchError, WorkBytes};
use crate::lower::Lower;
use crate::memory::{MemoryPlan, Reads};
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

/// Copies in memory of the compressed layers among `0..seeds` of `set` where the builder reads
/// lower layers at random ([`granary_tables::Layer::random_reads_copy`]); none where it reads
/// them in tiles or asks their owners (a compressed layer is then decompressed block by block).
fn decompressed(
    set: &TableSet,
    seeds: u32,
    reads: Reads,
) -> Result<Vec<Option<Layer>>, TableError> {
    (0..seeds)
        .map(|n| match reads {
            Reads::Tiles(_) | Reads::Owners => Ok(None),
            Reads::Random => set.layer(n)?.random_reads_copy(),
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
    let output = Output::open(&target, options.compress, peers)?;
    observer.layer_started(set.kind(), seeds, target.size());
    let mut solve = target.solve((&lower, kept), options, observer, peers, resumed)?;
    let written = output.write(&target, solve.finished.read(), peers)?;
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

/// One rank's part of a layer's build: the layer, its files, and the plan of its memory.
struct Target<'s> {
    set: &'s TableSet,
    seeds: u32,
    index: LayerIndex,
    /// The layer's file.
    path: PathBuf,
    /// Its scratch directory ([`scratch_dir`]).
    work_dir: PathBuf,
    memory: MemoryPlan,
    rank: usize,
    /// This rank's positions.
    span: Range<u64>,
}

/// What [`Target::solve`] leaves: the solve's report, the values, and the checkpoints written.
struct Solve {
    solved: Solved,
    finished: Finished,
    checkpoints: u32,
}

impl<'s> Target<'s> {
    /// Step 1: layer `seeds` of `set`, this rank's share of it, and its [`MemoryPlan`] (blocks
    /// of positions `options.region` informed together where given, at least a work piece).
    fn plan(
        set: &'s TableSet,
        seeds: u32,
        options: BuildOptions,
        peers: &dyn Peers,
    ) -> Result<Target<'s>, BuildError> {
        let kind = set.kind();
        let index = LayerIndex::new(kind.pits, seeds, kind.reduced()).map_err(TableError::from)?;
        let path = set.layer_path(seeds);
        let threads = rayon::current_num_threads();
        let mut memory = MemoryPlan::new(kind, &index, options.memory, threads, peers.size());
        if let Some(region) = options.region {
            memory.blocks.region = region.max(crate::PIECE);
        }
        let rank = peers.rank();
        Ok(Target {
            set,
            seeds,
            span: memory.span(rank),
            work_dir: scratch_dir(&path),
            path,
            index,
            memory,
            rank,
        })
    }

    /// Positions of the layer.
    fn size(&self) -> u64 {
        self.index.size()
    }

    /// Positions of this rank's share.
    fn len(&self) -> u64 {
        self.span.end - self.span.start
    }

    /// Rank 0 removes the layer's scratch directory (every rank's scratch files and
    /// checkpoints): before a build that resumes from none, and once the file is written.
    fn remove_scratch(&self) {
        if self.rank == 0 {
            let _ = std::fs::remove_dir_all(&self.work_dir);
        }
    }

    /// This rank's checkpoint file: `r<rank>-<first>.resume` in the scratch directory.
    fn resume_file(&self) -> PathBuf {
        self.work_dir
            .join(format!("r{}-{}.resume", self.rank, self.span.start))
    }

    /// Step 2: the phase to resume at, if every rank has a checkpoint of its share at the same
    /// phase (a layer solved in order of potential starts over).
    fn resumed(&self, observer: &dyn BuildObserver, peers: &dyn Peers) -> Option<u32> {
        let acyclic = self.memory.acyclic.is_some();
        let next = match Checkpoints::find(&self.resume_file(), self.seeds, self.len()) {
            Found::At(next) if !acyclic => u64::from(next),
            Found::Refused(why) if !acyclic => {
                observer.restarted(self.seeds, &why);
                u64::MAX
            }
            _ => u64::MAX,
        };
        let least = peers.min(next);
        (least != u64::MAX && peers.max(next) == least).then_some(least as u32)
    }

    /// How the first pass reads the lower layers ([`MemoryPlan::reads`]), their sizes read from
    /// their files.
    fn reads(&self) -> Result<Reads, TableError> {
        let sizes = (0..self.seeds)
            .map(|n| Ok(self.set.layer(n)?.len()))
            .collect::<Result<Vec<u64>, TableError>>()?;
        Ok(self.memory.reads(&sizes))
    }

    /// Step 3: the lower layers as the builder reads them `reads`, each its `copies` where there
    /// is one; a rank's slices of them where it asks their owners (none where `resumed`: the
    /// first pass is behind it). With them, the bytes they keep in memory through the phases
    /// (the copies, the slices).
    fn lower<'a>(
        &self,
        copies: &'a [Option<Layer>],
        reads: Reads,
        resumed: Option<u32>,
    ) -> Result<(Lower<'a>, u64), BuildError>
    where
        's: 'a,
    {
        let layers = lower_layers(self.set, copies)?;
        let owners = match reads {
            Reads::Owners if resumed.is_none() => {
                Some(Owners::load(&layers, self.rank, self.memory.blocks.ranks)?)
            }
            _ => None,
        };
        let kept = copies.iter().flatten().map(Layer::len).sum::<u64>()
            + owners.as_ref().map_or(0, Owners::bytes);
        let lower = Lower {
            layers,
            tile: match reads {
                Reads::Tiles(tile) => Some(tile),
                _ => None,
            },
            owners,
        };
        Ok((lower, kept))
    }

    /// Step 5: solves this rank's share, its values in memory or in a scratch file as the plan
    /// says, resumed at phase `resumed` if some, reporting to `observer` scaled to the layer;
    /// the lists of exits by phase have what the budget leaves beside the `kept` bytes of the
    /// lower layers ([`MemoryPlan::exit_memory`]).
    fn solve(
        &self,
        (lower, kept): (&Lower<'_>, u64),
        options: BuildOptions,
        observer: &dyn BuildObserver,
        peers: &dyn Peers,
        resumed: Option<u32>,
    ) -> Result<Solve, BuildError> {
        let len = self.len();
        let mut scratch = Scratch::new(self.work_dir.join(format!("r{}", self.rank)));
        let values = LayerValues::new(len, self.memory.values_in_memory(self.rank), &mut scratch)?;
        let mut checkpoints = Checkpoints::new(
            self.resume_file(),
            self.seeds,
            len,
            options.checkpoint_every.unwrap_or(CHECKPOINT_EVERY),
        );
        let share = Share {
            observer,
            scale: (self.size(), len.max(1)),
        };
        let mut solved = match self.set.kind().engine() {
            Engine::Kalah(rules) if self.memory.acyclic.is_some() => {
                solve_acyclic_layer(&rules, &self.index, lower, values.entries(), observer)
                    .map_err(BuildError::Memory)?;
                Solved::default()
            }
            engine => engine.visit(SolveLayer {
                index: &self.index,
                lower,
                values: values.entries(),
                plan: &self.memory.blocks,
                scratch,
                observer: &share,
                peers,
                checkpoints: Some((&mut checkpoints, resumed)),
                exit_memory: self.memory.exit_memory(self.rank, kept),
            })?,
        };
        // The values: in the work bytes after the phases (the values' bytes held best exits),
        // else in the values.
        let finished = match solved.work.take() {
            Some(work) => {
                drop(values);
                Finished::Work(work)
            }
            None => Finished::Values(values),
        };
        Ok(Solve {
            solved,
            finished,
            checkpoints: checkpoints.written,
        })
    }

    /// Step 7: the layer's report, every rank's counts summed, from the solve's `solved`, the
    /// `checkpoints` this rank wrote and the file's `written` bytes and compression.
    fn report(
        &self,
        started: Instant,
        resumed: Option<u32>,
        solved: Solved,
        checkpoints: u32,
        written: Written,
        peers: &dyn Peers,
    ) -> LayerReport {
        let traffic = (peers.size() > 1).then(|| Traffic {
            messages: peers.sum(solved.traffic.messages),
            lookups: peers.sum(solved.traffic.lookups),
            bytes: peers.sum(solved.traffic.bytes),
            ..solved.traffic
        });
        LayerReport {
            seeds: self.seeds,
            positions: self.size(),
            seconds: Some(started.elapsed().as_secs_f64()),
            path: self.path.clone(),
            traffic,
            sweep: solved.sweep.map(|sweep| SweepReport {
                misses: peers.sum(sweep.misses),
                read: peers.sum(sweep.read),
                ..sweep
            }),
            compressed: written.compressed,
            resumed,
            counts: self.memory.acyclic.is_none().then(|| PhaseCounts {
                phases: solved.counts.phases,
                scanned: peers.sum(solved.counts.scanned),
                resolved: peers.sum(solved.counts.resolved),
                parents: peers.sum(solved.counts.parents),
                written: written.bytes
                    + peers.sum(u64::from(checkpoints) * Checkpoints::bytes(self.len())),
            }),
        }
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

/// What writing a layer's file wrote.
struct Written {
    /// Bytes of the file.
    bytes: u64,
    /// Its bytes before and after compression, where it was written compressed.
    compressed: Option<(u64, u64)>,
}

impl Output {
    /// Step 4: the output of `target`'s layer: one process alone with `compress` writes it
    /// compressed straight from its values; else rank 0 creates the version 1 file (its space
    /// reserved) for every rank to write its part, between barriers (rank 0 compresses it
    /// after, [`build_layers_on`]).
    fn open(
        target: &Target<'_>,
        compress: Option<CompressOptions>,
        peers: &dyn Peers,
    ) -> Result<Output, TableError> {
        let (kind, seeds, size) = (target.set.kind(), target.seeds, target.size());
        Ok(match compress.filter(|_| peers.size() == 1) {
            Some(compress) => Output::Compressed(compress),
            None if peers.rank() == 0 => {
                let shared = SharedLayer::create(&target.path, kind, seeds, size)?;
                peers.barrier();
                Output::Parts(shared)
            }
            None => {
                peers.barrier();
                Output::Parts(SharedLayer::join(&target.path, kind, seeds, size)?)
            }
        })
    }

    /// Step 6: writes `target`'s share of the layer's file from its `finished` values, once and
    /// in order; rank 0 finishes a version 1 file (checksum, header, its final name) once every
    /// rank has written its part.
    fn write(
        self,
        target: &Target<'_>,
        finished: FinishedValues<'_>,
        peers: &dyn Peers,
    ) -> Result<Written, TableError> {
        let span = target.span.clone();
        let fill = |first: u64, out: &mut [u8]| finished.fill(first - span.start, out);
        match self {
            Output::Compressed(compress) => {
                let entries = Entries {
                    len: target.len(),
                    fill: &fill,
                };
                let header = target.set.kind().header(target.seeds, target.size());
                let made = compress_entries(&target.path, header, &entries, compress)?;
                Ok(Written {
                    bytes: made.after,
                    compressed: Some((made.before, made.after)),
                })
            }
            Output::Parts(shared) => {
                shared.write_parts(span.start, target.len(), fill)?;
                peers.barrier();
                if peers.rank() == 0 {
                    shared.finish()?;
                }
                Ok(Written {
                    bytes: HEADER_LEN as u64 + target.size(),
                    compressed: None,
                })
            }
        }
    }
}

/// Where a solved layer's values are: in the work bytes of the phases ([`values_of`]), or in the
/// values of a layer solved in order of potential.
enum Finished {
    Work(WorkBytes),
    Values(LayerValues),
}

impl Finished {
    /// The values to read, once the solve is over: borrowing `self` mutably, no thread of the
    /// solve writes them while they are read.
    fn read(&mut self) -> FinishedValues<'_> {
        match self {
            Finished::Work(work) => FinishedValues::Work(work.all()),
            Finished::Values(values) => FinishedValues::Values(values.bytes()),
        }
    }
}

/// The values of a solved layer, read ([`Finished::read`]).
enum FinishedValues<'a> {
    Work(&'a [AtomicU8]),
    Values(&'a [u8]),
}

impl FinishedValues<'_> {
    /// The values of this rank's share from its `from`th position on, into `out`.
    fn fill(&self, from: u64, out: &mut [u8]) {
        let from = from as usize;
        match self {
            FinishedValues::Work(work) => values_of(&work[from..], out),
            FinishedValues::Values(values) => out.copy_from_slice(&values[from..from + out.len()]),
        }
    }
}
