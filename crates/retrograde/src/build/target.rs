//! One rank's part of a layer's build: the layer, its share, the plan of its memory, the
//! checkpoint it resumes from, the lower layers it reads, the solve and the report.

use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use granary_index::LayerIndex;
use granary_rules::Engine;
use granary_tables::{Layer, TableError, TableSet};

use super::output::{Finished, LayerFile, Written};
use super::{BuildError, BuildOptions, CHECKPOINT_EVERY, scratch_dir};
use crate::acyclic::solve_acyclic_layer;
use crate::blocks::{LayerValues, Scratch};
use crate::lower::Lower;
use crate::memory::{MemoryPlan, Reads};
use crate::owners::Owners;
use crate::peers::{Peers, Traffic};
use crate::phases::{SolveLayer, Solved};
use crate::report::{BuildObserver, LayerReport, PhaseCounts};
use crate::resume::{Checkpoints, Found};
use crate::sweep::SweepReport;

/// Copies in memory of the compressed layers among `0..seeds` of `set` where the builder reads
/// lower layers at random ([`granary_tables::Layer::random_reads_copy`]); none where it reads
/// them in tiles or asks their owners (a compressed layer is then decompressed block by block).
///
/// A layer with filled don't-cares is not copied but holds its values in the set
/// ([`granary_tables::Layer::hold_values`]: a byte a position, as a copy takes, checked against
/// the data checksum), the lowest first, so that each is rebuilt from values already held below
/// it; a copy would settle every value from the layers below as they are stored.
pub(super) fn decompressed(
    set: &TableSet,
    seeds: u32,
    reads: Reads,
) -> Result<Vec<Option<Layer>>, TableError> {
    (0..seeds)
        .map(|n| match reads {
            Reads::Tiles(_) | Reads::Owners => Ok(None),
            Reads::Random => {
                let layer = set.layer(n)?;
                if layer.rebuilds_values() {
                    layer.hold_values()?;
                    return Ok(None);
                }
                layer.random_reads_copy()
            }
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

/// One rank's part of a layer's build: the layer, its files, and the plan of its memory.
pub(super) struct Target<'s> {
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
pub(super) struct Solve {
    pub(super) solved: Solved,
    pub(super) finished: Finished,
    pub(super) checkpoints: u32,
}

impl<'s> Target<'s> {
    /// Step 1: layer `seeds` of `set`, this rank's share of it, and its [`MemoryPlan`] (blocks
    /// of positions `options.region` informed together where given, at least a work piece).
    pub(super) fn plan(
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
    pub(super) fn size(&self) -> u64 {
        self.index.size()
    }

    /// Positions of this rank's share.
    fn len(&self) -> u64 {
        self.span.end - self.span.start
    }

    /// The layer's file and this rank's share, as writing it needs them (steps 4 and 6).
    pub(super) fn file(&self) -> LayerFile<'_> {
        LayerFile {
            path: &self.path,
            kind: self.set.kind(),
            seeds: self.seeds,
            size: self.size(),
            span: self.span.clone(),
        }
    }

    /// Rank 0 removes the layer's scratch directory (every rank's scratch files and
    /// checkpoints): before a build that resumes from none, and once the file is written.
    pub(super) fn remove_scratch(&self) {
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
    pub(super) fn resumed(&self, observer: &dyn BuildObserver, peers: &dyn Peers) -> Option<u32> {
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
    pub(super) fn reads(&self) -> Result<Reads, TableError> {
        let sizes = (0..self.seeds)
            .map(|n| Ok(self.set.layer(n)?.len()))
            .collect::<Result<Vec<u64>, TableError>>()?;
        Ok(self.memory.reads(&sizes))
    }

    /// Step 3: the lower layers as the builder reads them `reads`, each its `copies` where there
    /// is one; a rank's slices of them where it asks their owners (none where `resumed`: the
    /// first pass is behind it). With them, the bytes they keep in memory through the phases
    /// (the copies, the values that filled layers hold, the slices).
    pub(super) fn lower<'a>(
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
            + layers
                .iter()
                .filter(|layer| layer.holds_values())
                .map(|layer| layer.len())
                .sum::<u64>()
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
    pub(super) fn solve(
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
    pub(super) fn report(
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
