//! Building layers: choosing the builder and its blocks, and writing the files.

use std::path::PathBuf;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::Engine;
use granary_tables::{Layer, LayerWriter, TableError, TableKind, TableSet};

use crate::acyclic::{acyclic_bytes, solve_acyclic_layer};
use crate::blocks::{BlockPlan, Scratch, ScratchError};
use crate::phases::{PhaseError, solve_layer};

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("--threads: {0}")]
    Threads(String),
    #[error("no memory for the layer being built: {0}")]
    Memory(std::io::Error),
    /// A scratch file of a build in blocks (a full disk, most likely).
    #[error("scratch file of the build: {0}")]
    Scratch(#[from] ScratchError),
}

impl From<PhaseError> for BuildError {
    fn from(e: PhaseError) -> Self {
        match e {
            PhaseError::Memory(e) => BuildError::Memory(e),
            PhaseError::Scratch(e) => BuildError::Scratch(e),
        }
    }
}

/// How to build.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// The builder's own memory (anonymous memory: the work bytes, message buffers, stacks), in
    /// bytes, beside a small constant ([`crate::blocks`]); a layer that does not fit is built in
    /// blocks. `None`: no limit, every layer in one block. The bytes written are the same for
    /// every budget.
    pub memory: Option<u64>,
}

/// What a build reports as it goes. Every method has an empty default; `()` observes nothing.
/// Methods are called from rayon's worker threads, hence `Sync`; they should return quickly.
pub trait BuildObserver: Sync {
    /// Layer `seeds` of `kind`, of `positions` positions, is about to be built.
    fn layer_started(&self, kind: TableKind, seeds: u32, positions: u64) {
        let _ = (kind, seeds, positions);
    }
    /// Another `positions` positions of the current layer's first pass are done.
    fn advanced(&self, positions: u64) {
        let _ = positions;
    }
    /// The current layer entered phase `t` of its retrograde analysis (values of magnitude `t`).
    fn phase(&self, t: u32) {
        let _ = t;
    }
    /// A layer was built, or found already built (`report.seconds` is `None`).
    fn layer_done(&self, report: &LayerReport) {
        let _ = report;
    }
}

impl BuildObserver for () {}

/// What building (or finding) one layer did.
#[derive(Clone, Debug)]
pub struct LayerReport {
    pub seeds: u32,
    pub positions: u64,
    /// `None` if the layer was already built.
    pub seconds: Option<f64>,
    pub path: PathBuf,
}

/// The finished lower layers, checked and mapped.
pub(crate) struct Lower<'a> {
    pub(crate) layers: Vec<&'a Layer>,
}

/// A move out of the layer, or a finished game's value.
pub(crate) enum Exit {
    Final(i32),
    /// `gain + sign * value` of the entry `rank` of lower layer `seeds`.
    Lower {
        seeds: u32,
        rank: u64,
        gain: i32,
        sign: i32,
    },
}

impl Exit {
    #[inline]
    pub(crate) fn value(&self, lower: &Lower<'_>) -> i32 {
        match *self {
            Exit::Final(value) => value,
            Exit::Lower {
                seeds,
                rank,
                gain,
                sign,
            } => gain + sign * i32::from(lower.layers[seeds as usize].value(rank)),
        }
    }
}

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
    let pool = thread_pool(options.threads)?;
    let set = TableSet::new(root, kind);
    let _lock = set.lock_for_writing()?;
    let mut reports = Vec::new();
    for seeds in 0..=max_seeds {
        let path = set.layer_path(seeds);
        let r = if path.exists() {
            let layer = set.layer(seeds)?;
            LayerReport {
                seeds,
                positions: layer.index().size(),
                seconds: None,
                path,
            }
        } else {
            pool.install(|| build_layer(&set, seeds, options.memory, observer))?
        };
        observer.layer_done(&r);
        reports.push(r);
    }
    Ok(reports)
}

/// Builds layer `seeds` of `set` (whose lower layers must be built) and writes its file, with
/// the builder's memory within `memory` bytes if given ([`BuildOptions::memory`]), on rayon's
/// current pool.
///
/// Kalah layers that fit are solved in order of potential ([`crate::acyclic`]); the others,
/// and every Oware layer, by the phases of [`crate::phases`], in blocks when they do not fit.
///
/// # Errors
/// If a lower layer is missing or bad, or a file cannot be written.
pub fn build_layer(
    set: &TableSet,
    seeds: u32,
    memory: Option<u64>,
    observer: &dyn BuildObserver,
) -> Result<LayerReport, BuildError> {
    let kind = set.kind();
    let index = LayerIndex::new(kind.pits, seeds, kind.reduced()).map_err(TableError::from)?;
    let lower = Lower {
        layers: (0..seeds).map(|n| set.layer(n)).collect::<Result<_, _>>()?,
    };
    let path = set.layer_path(seeds);
    let started = Instant::now();
    let mut writer = LayerWriter::create(&path, kind, seeds, index.size())?;
    observer.layer_started(kind, seeds, index.size());
    let plan = BlockPlan::new(index.size(), memory, rayon::current_num_threads());
    let mut scratch_dir = path.as_os_str().to_owned();
    scratch_dir.push(".work");
    let scratch = Scratch::new(PathBuf::from(scratch_dir));
    match kind.engine() {
        Engine::Kalah(rules) if memory.is_none_or(|m| acyclic_bytes(&index) <= m) => {
            solve_acyclic_layer(&rules, &index, &lower, writer.entries(), observer)
                .map_err(BuildError::Memory)?;
        }
        Engine::Kalah(rules) => {
            solve_layer(
                &rules,
                &index,
                &lower,
                writer.entries(),
                &plan,
                scratch,
                observer,
            )?;
        }
        Engine::Oware(rules) => {
            solve_layer(
                &rules,
                &index,
                &lower,
                writer.entries(),
                &plan,
                scratch,
                observer,
            )?;
        }
    }
    let path = writer.finish()?;
    Ok(LayerReport {
        seeds,
        positions: index.size(),
        seconds: Some(started.elapsed().as_secs_f64()),
        path,
    })
}
