//! Building a kind's missing layers, after checking that they fit the disk.

use std::time::Instant;

pub use granary_retrograde::NO_CHECKPOINTS;
use granary_retrograde::{BuildOptions, MemoryPlan, Peers, Solo, build_layers_on};
use granary_tables::TableKind;
use granary_tables::compress::CompressOptions;
use serde::Serialize;

use crate::error::BuildError;
use crate::machine::Machine;
use crate::observer::{BuildEvents, Observer};
use crate::tablebase::{Tablebase, layer_bytes};

/// What a build did.
#[derive(Clone, Debug, Serialize)]
pub struct BuildReport {
    /// The kind's name.
    pub tables: String,
    pub max_seeds: u32,
    /// Positions in layers `0..=max_seeds`.
    pub positions: u64,
    /// Positions built now (the rest were present).
    pub built: u64,
    /// Layers that were present already.
    pub kept: usize,
    pub seconds: f64,
}

/// Bytes the missing layers `0..=max` of `kind` will take.
#[must_use]
pub fn missing_bytes(tablebase: &Tablebase, kind: TableKind, max: u32) -> u64 {
    let set = tablebase.tables(kind);
    (0..=max)
        .filter(|&n| !set.layer_path(n).is_file())
        .map(|n| layer_bytes(kind, n))
        .fold(0, u64::saturating_add)
}

/// The least a compressed layer's file is smaller than its entries, as the disk check assumes
/// it (`build --compress`): below every ratio measured (`docs/table-format.md`).
pub const COMPRESSION_FLOOR: f64 = 1.5;

/// Bytes the missing layers `0..=max` of `kind` will take at their largest when each is
/// compressed as soon as it is built by `ranks` processes: at [`COMPRESSION_FLOOR`], but for
/// the largest, whole while it is built, where several ranks write their parts of its version 1
/// file before it is compressed (one process alone writes each layer compressed straight from
/// its values).
#[must_use]
pub fn missing_bytes_compressed(
    tablebase: &Tablebase,
    kind: TableKind,
    max: u32,
    ranks: usize,
) -> u64 {
    let set = tablebase.tables(kind);
    let missing: Vec<u64> = (0..=max)
        .filter(|&n| !set.layer_path(n).is_file())
        .map(|n| layer_bytes(kind, n))
        .collect();
    let largest = match ranks {
        0 | 1 => 0,
        _ => missing.iter().copied().max().unwrap_or(0),
    };
    let rest = missing.iter().sum::<u64>() - largest;
    largest.saturating_add((rest as f64 / COMPRESSION_FLOOR) as u64)
}

/// Bytes of scratch files and checkpoints that building the missing layers `0..=max` of `kind`
/// needs on disk beside the tables, with `memory` bytes of memory for each of `ranks` processes:
/// the most that one layer needs, as its plan says ([`MemoryPlan::most_scratch_bytes`]: the
/// work bytes of a layer built in blocks, a byte a position; its values where they do not fit
/// the memory, a byte a position; unless `checkpoints` is false, the checkpoints of a layer
/// built by phases, two bytes a position, twice). Messages between blocks, and lists of exits
/// that outgrow their memory, spill to files too; they are not counted (a full disk then stops
/// the build with an error naming the file).
#[must_use]
pub fn scratch_bytes(
    tablebase: &Tablebase,
    kind: TableKind,
    max: u32,
    memory: u64,
    checkpoints: bool,
    ranks: usize,
) -> u64 {
    let set = tablebase.tables(kind);
    let missing = (0..=max).filter(|&n| !set.layer_path(n).is_file());
    MemoryPlan::most_scratch_bytes(kind, missing, memory, checkpoints, ranks)
}

/// Bytes on disk of what builds of the missing layers `0..=max` of `kind` left when they were
/// stopped: each layer's `<layer>.tbl.tmp` and the files under `<layer>.tbl.work/`, as allocated
/// (a sparse file counts what it holds). A build removes or reuses all of them, so the disk
/// check counts them as free.
#[must_use]
pub fn left_over_bytes(tablebase: &Tablebase, kind: TableKind, max: u32) -> u64 {
    let set = tablebase.tables(kind);
    (0..=max)
        .map(|n| set.layer_path(n))
        .filter(|path| !path.is_file())
        .map(|path| {
            allocated(&granary_tables::writer::temp_path(&path))
                .saturating_add(allocated(&granary_retrograde::scratch_dir(&path)))
        })
        .fold(0, u64::saturating_add)
}

/// Bytes allocated on disk to the file or directory tree at `path`; 0 where there is none.
fn allocated(path: &std::path::Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if meta.is_dir() {
        std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| allocated(&entry.path()))
            .fold(0, u64::saturating_add)
    } else if meta.is_file() {
        meta.blocks().saturating_mul(512)
    } else {
        0
    }
}

/// How a build runs: threads, memory, whether it compresses what it builds, how often it saves
/// a checkpoint.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildSettings {
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// The builder's memory in bytes; `None` for the planner's [`crate::plan::build_memory`].
    pub memory: Option<u64>,
    /// Each layer compressed as soon as it is built, and the uncompressed layers already there
    /// ([`BuildOptions::compress`]); `None`: layers stay version 1.
    pub compress: Option<CompressOptions>,
    /// How often a layer saves a checkpoint to resume from if the build is stopped
    /// ([`BuildOptions::checkpoint_every`]); `None`: every 10 minutes.
    pub checkpoint_every: Option<std::time::Duration>,
}

/// Builds the missing layers `0..=max_seeds` of `kind`, lowest first, reporting to `observer`.
/// Layers already present are checked and kept, so an interrupted build resumes.
///
/// `memory` bounds the builder's own memory in bytes (layers that do not fit are built in
/// blocks, with scratch files beside them; the files written are the same for every budget);
/// `None` takes the planner's [`crate::plan::build_memory`] for this machine.
///
/// # Errors
/// Too many seeds, not enough free disk for the missing layers (checked before anything is
/// written), a bad thread count, or a table error naming the file.
pub fn build(
    tablebase: &Tablebase,
    kind: TableKind,
    max_seeds: u32,
    threads: Option<usize>,
    memory: Option<u64>,
    observer: &dyn Observer,
) -> Result<BuildReport, BuildError> {
    let settings = BuildSettings {
        threads,
        memory,
        compress: None,
        checkpoint_every: None,
    };
    build_on(tablebase, kind, max_seeds, settings, observer, &Solo)
}

/// [`build`] by the ranks of a distributed build (each rank calls it with the same arguments;
/// `peers` is a `cluster::Cluster` under MPI): every layer is shared among the ranks
/// and the files are the same as [`build`]'s, byte for byte. The table directory must be on a
/// filesystem every rank sees. `settings.memory` is each rank's; by default the planner's share
/// of this machine for each of its ranks. With `settings.compress` the disk check counts the
/// missing layers compressed ([`missing_bytes_compressed`]).
///
/// # Errors
/// As [`build`]. A rank that returns an error leaves the others waiting for it: the caller
/// ends the job (`Cluster::abort`).
pub fn build_on(
    tablebase: &Tablebase,
    kind: TableKind,
    max_seeds: u32,
    settings: BuildSettings,
    observer: &dyn Observer,
    peers: &dyn Peers,
) -> Result<BuildReport, BuildError> {
    let BuildSettings {
        threads,
        memory,
        compress,
        checkpoint_every,
    } = settings;
    if max_seeds > granary_index::MAX_LAYER_SEEDS {
        return Err(BuildError::TooManySeeds(max_seeds));
    }
    let machine = Machine::detect(tablebase.root());
    let memory = memory
        .unwrap_or_else(|| crate::plan::build_memory(&machine) / peers.local_size().max(1) as u64);
    let missing = if compress.is_some() {
        missing_bytes_compressed(tablebase, kind, max_seeds, peers.size())
    } else {
        missing_bytes(tablebase, kind, max_seeds)
    };
    let checkpoints = checkpoint_every != Some(NO_CHECKPOINTS);
    let needed = missing.saturating_add(scratch_bytes(
        tablebase,
        kind,
        max_seeds,
        memory,
        checkpoints,
        peers.size(),
    ));
    // What a killed build of these layers left (a mapped output, scratch files, checkpoints) is
    // reused or replaced, so its space counts as free: a resume on a nearly full disk goes on.
    let available = machine
        .free_disk
        .saturating_add(left_over_bytes(tablebase, kind, max_seeds));
    if needed > available {
        return Err(BuildError::Disk {
            dir: tablebase.root().join(kind.name()),
            seeds: max_seeds,
            needed,
            available,
        });
    }
    let started = Instant::now();
    let events = BuildEvents {
        observer,
        kind: kind.name(),
    };
    let reports = build_layers_on(
        tablebase.root(),
        kind,
        max_seeds,
        BuildOptions {
            threads,
            memory: Some(memory),
            compress,
            checkpoint_every,
            region: None,
        },
        &events,
        peers,
    )?;
    Ok(BuildReport {
        tables: kind.name(),
        max_seeds,
        positions: reports.iter().map(|r| r.positions).sum(),
        built: reports
            .iter()
            .filter(|r| r.seconds.is_some())
            .map(|r| r.positions)
            .sum(),
        kept: reports.iter().filter(|r| r.seconds.is_none()).count(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use granary_index::LayerIndex;
    use granary_rules::{Capture, Game, Sweep};

    /// Kalah layers built by phases (their order of potential does not fit the memory) save
    /// checkpoints too: the disk check counts them; built in order of potential, they do not.
    #[test]
    fn the_disk_check_counts_the_checkpoints_of_every_layer_built_by_phases() {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = Tablebase::new(dir.path());
        let kalah = TableKind {
            game: Game::Kalah {
                capture: Capture::Standard,
                sweep: Sweep::Owner,
            },
            pits: 6,
        };
        let max = 20;
        let largest = crate::tablebase::layer_positions(kalah, max);
        // Ample memory: every layer in order of potential, in memory; nothing on disk.
        assert_eq!(scratch_bytes(&tablebase, kalah, max, 1 << 40, true, 1), 0);
        // A budget the largest layer's order of potential does not fit: it goes by phases and
        // checkpoints, two bytes a position, two checkpoints at once.
        let memory = largest;
        let index = LayerIndex::new(6, max, false).unwrap();
        assert!(
            MemoryPlan::new(kalah, &index, Some(memory), 1, 1)
                .acyclic
                .is_none()
        );
        assert!(scratch_bytes(&tablebase, kalah, max, memory, true, 1) >= 4 * largest);
        // Without checkpoints: the scratch files of its blocks' work bytes (more than three
        // quarters of the memory) and of its values (more than a quarter), a byte a position
        // each.
        assert_eq!(
            scratch_bytes(&tablebase, kalah, max, memory, false, 1),
            2 * largest
        );
        // Two ranks, each with that memory: each rank's half of the layer in one block in
        // memory, only their values in files.
        assert_eq!(
            scratch_bytes(&tablebase, kalah, max, memory, false, 2),
            largest
        );
        // The largest layer needs the most: a layer built already is not counted.
        let set = tablebase.tables(kalah);
        std::fs::create_dir_all(set.layer_path(max).parent().unwrap()).unwrap();
        std::fs::write(set.layer_path(max), b"built").unwrap();
        assert!(scratch_bytes(&tablebase, kalah, max, memory, false, 1) < largest);
    }

    /// A stopped build's output and scratch files count as free space for the layers still
    /// missing (their build removes or reuses them), not for a layer already built.
    #[test]
    fn what_a_stopped_build_left_counts_as_free_for_its_missing_layer() {
        let dir = tempfile::tempdir().unwrap();
        let tablebase = Tablebase::new(dir.path());
        let kind = TableKind {
            game: Game::Oware {
                rules: granary_rules::OwareRules::Abapa,
            },
            pits: 6,
        };
        let set = tablebase.tables(kind);
        let missing = set.layer_path(3);
        std::fs::create_dir_all(missing.parent().unwrap()).unwrap();
        assert_eq!(left_over_bytes(&tablebase, kind, 3), 0);
        std::fs::write(
            granary_tables::writer::temp_path(&missing),
            vec![1u8; 64 << 10],
        )
        .unwrap();
        let work = granary_retrograde::scratch_dir(&missing);
        std::fs::create_dir_all(work.join("r0")).unwrap();
        std::fs::write(work.join("r0").join("values"), vec![2u8; 32 << 10]).unwrap();
        std::fs::write(work.join("r0-0.resume"), vec![3u8; 16 << 10]).unwrap();
        let left = left_over_bytes(&tablebase, kind, 3);
        assert!(left >= 112 << 10, "{left}");
        // Below the missing layer, or with the layer built, nothing is left over.
        assert_eq!(left_over_bytes(&tablebase, kind, 2), 0);
        std::fs::write(&missing, b"built").unwrap();
        assert_eq!(left_over_bytes(&tablebase, kind, 3), 0);
    }
}
