//! Building layers: the init pass, the phases, and writing the files.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::{Board, Engine, Position, Rules};
use granary_tables::probe::terminal_value;
use granary_tables::{Layer, LayerWriter, TableError, TableKind, TableSet, prefetch};
use rayon::prelude::*;

use crate::PIECE;
use crate::acyclic::solve_acyclic_layer;
use crate::unmove::for_each_parent;

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("--threads: {0}")]
    Threads(String),
    #[error("no memory for the layer being built: {0}")]
    Memory(std::io::Error),
}

/// How to build.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions {
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
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

// The per-position work byte: in-layer moves not yet known to lead to a positive position, a
// pending flag (resolved, not yet propagated) and the resolved flag.
const COUNT: u8 = 0x0f;
const PENDING: u8 = 0x40;
const RESOLVED: u8 = 0x80;
/// The best-exit byte of a position with no move leaving the layer.
const NO_EXIT: i8 = i8::MIN;
/// Children whose parents are gathered and prefetched together.
const BATCH: usize = 32;
/// Resolved positions a thread keeps on its own stack before leaving them for a later scan.
const STACK_CAP: usize = 1 << 20;

/// The finished lower layers, checked and mapped.
pub(crate) struct Lower<'a> {
    pub(crate) layers: Vec<&'a Layer>,
}

/// A move out of the layer, or a finished game's value.
enum Exit {
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
    fn value(&self, lower: &Lower<'_>) -> i32 {
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
            pool.install(|| build_layer(&set, seeds, observer))?
        };
        observer.layer_done(&r);
        reports.push(r);
    }
    Ok(reports)
}

/// Builds layer `seeds` of `set` (whose lower layers must be built) and writes its file.
///
/// # Errors
/// If a lower layer is missing or bad, or the file cannot be written.
pub fn build_layer(
    set: &TableSet,
    seeds: u32,
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
    match kind.engine() {
        Engine::Kalah(rules) => {
            solve_acyclic_layer(&rules, &index, &lower, writer.entries(), observer)
                .map_err(BuildError::Memory)?;
        }
        Engine::Oware(rules) => solve_layer(&rules, &index, &lower, writer.entries(), observer),
    }
    let path = writer.finish()?;
    Ok(LayerReport {
        seeds,
        positions: index.size(),
        seconds: Some(started.elapsed().as_secs_f64()),
        path,
    })
}

/// The work pieces of a layer: `(first, end)` ranks.
fn pieces(size: u64) -> impl ParallelIterator<Item = (u64, u64)> {
    (0..size.div_ceil(PIECE))
        .into_par_iter()
        .map(move |p| (p * PIECE, ((p + 1) * PIECE).min(size)))
}

/// Fills `values` with the layer's values.
fn solve_layer<R: Rules>(
    rules: &R,
    index: &LayerIndex,
    lower: &Lower<'_>,
    values: &[AtomicI8],
    observer: &dyn BuildObserver,
) {
    let size = index.size();
    let work: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(0)).collect();
    let layer = LayerState {
        rules,
        index,
        values,
        work: &work,
        pending: AtomicBool::new(false),
    };

    pieces(size).for_each(|(first, end)| {
        let mut boards = index.iter_from(first);
        let mut exits = Vec::with_capacity(BATCH * 8);
        let mut group = Vec::with_capacity(BATCH);
        let mut i = first;
        while i < end {
            // Gather a group's moves, prefetching the lower-layer entries they read...
            group.clear();
            exits.clear();
            for board in boards.by_ref().take((end - i).min(BATCH as u64) as usize) {
                let from = exits.len();
                let count = layer.init_moves(board, lower, &mut exits);
                group.push((count, from..exits.len()));
            }
            // ...then read them.
            for (count, range) in group.drain(..) {
                let best = exits[range]
                    .iter()
                    .map(|e| e.value(lower))
                    .max()
                    .unwrap_or(i32::from(NO_EXIT));
                work[i as usize].store(count, Relaxed);
                values[i as usize].store(best as i8, Relaxed);
                i += 1;
            }
        }
        observer.advanced(end - first);
    });

    let n = index.seeds() as i8;
    for t in (1..=n).rev() {
        observer.phase(t as u32);
        pieces(size).for_each(|(first, end)| {
            let mut stack = Vec::new();
            for i in first..end {
                let w = work[i as usize].load(Relaxed);
                if w & RESOLVED != 0 {
                    continue;
                }
                let exit = values[i as usize].load(Relaxed);
                if exit == t || (w & COUNT == 0 && exit == -t) {
                    layer.resolve(i, exit, || index.unrank(i), &mut stack);
                    layer.propagate(&mut stack, t);
                }
            }
        });
        while layer.pending.swap(false, Relaxed) {
            pieces(size).for_each(|(first, end)| {
                let mut stack = Vec::new();
                for i in first..end {
                    if work[i as usize].load(Relaxed) & PENDING != 0 {
                        work[i as usize].fetch_and(!PENDING, Relaxed);
                        stack.push((index.unrank(i), values[i as usize].load(Relaxed)));
                        layer.propagate(&mut stack, t);
                    }
                }
            });
        }
    }
    // Unresolved: endless play, worth 0.
    pieces(size).for_each(|(first, end)| {
        for i in first..end {
            if work[i as usize].load(Relaxed) & RESOLVED == 0 {
                values[i as usize].store(0, Relaxed);
            }
        }
    });
}

/// A layer being solved: its rules, index, values (best exits until resolved) and work bytes.
struct LayerState<'a, R> {
    rules: &'a R,
    index: &'a LayerIndex,
    values: &'a [AtomicI8],
    work: &'a [AtomicU8],
    pending: AtomicBool,
}

impl<R: Rules> LayerState<'_, R> {
    /// Counts a position's moves that stay in the layer, and pushes onto `exits` the moves that
    /// leave it (for a finished game, its final value), prefetching the entries they will read.
    fn init_moves(&self, board: Board, lower: &Lower<'_>, exits: &mut Vec<Exit>) -> u8 {
        let rules = self.rules;
        let m = rules.pits();
        let n = self.index.seeds();
        let pos = Position::of_board(board);
        let moves = rules.legal_moves(&pos);
        if moves.is_empty() {
            exits.push(Exit::Final(terminal_value(rules, &pos)));
            return 0;
        }
        let mut count = 0u8;
        for lane in moves.iter() {
            let child = rules.play(&pos, lane);
            let seeds = child.board.seeds(m);
            let (gain, again) = pos.move_gain(&child);
            if seeds == n {
                count += 1; // within the layer, the other player to move
                continue;
            }
            let sign = if again { 1 } else { -1 };
            let layer = lower.layers[seeds as usize];
            let rank = layer.index().rank(child.board);
            layer.prefetch(rank);
            exits.push(Exit::Lower {
                seeds,
                rank,
                gain,
                sign,
            });
        }
        count
    }

    /// Marks position `i` resolved with `value` unless it already is, and queues its board
    /// (`board()` gives it; callers that hold it need not unrank).
    #[inline]
    fn resolve(
        &self,
        i: u64,
        value: i8,
        board: impl FnOnce() -> Board,
        stack: &mut Vec<(Board, i8)>,
    ) {
        if self.work[i as usize].fetch_or(RESOLVED, Relaxed) & RESOLVED != 0 {
            return;
        }
        self.values[i as usize].store(value, Relaxed);
        if stack.len() < STACK_CAP {
            stack.push((board(), value));
        } else {
            self.work[i as usize].fetch_or(PENDING, Relaxed);
            self.pending.store(true, Relaxed);
        }
    }

    /// Informs the parents of every queued position (resolved as `+t` or `-t`) in phase `t`.
    ///
    /// Parents are random accesses into the layer: they are gathered for a batch of children and
    /// prefetched before any is updated, so the cache misses overlap.
    fn propagate(&self, stack: &mut Vec<(Board, i8)>, t: i8) {
        let mut batch: Vec<(u64, Board, bool)> = Vec::with_capacity(BATCH * 16);
        while !stack.is_empty() {
            batch.clear();
            for _ in 0..BATCH {
                let Some((child, value)) = stack.pop() else {
                    break;
                };
                for_each_parent(self.rules, self.index, child, |parent, _| {
                    let q = self.index.rank(parent);
                    prefetch(&self.work[q as usize]);
                    prefetch(&self.values[q as usize]);
                    batch.push((q, parent, value == -t));
                });
            }
            for &(q, parent, child_lost) in &batch {
                let w = &self.work[q as usize];
                if w.load(Relaxed) & RESOLVED != 0 {
                    continue;
                }
                if child_lost {
                    self.resolve(q, t, || parent, stack);
                } else {
                    let before = w.fetch_sub(1, Relaxed);
                    let exit = self.values[q as usize].load(Relaxed);
                    if before & (COUNT | RESOLVED) == 1 && exit <= -t {
                        self.resolve(q, -t, || parent, stack);
                    }
                }
            }
        }
    }
}
