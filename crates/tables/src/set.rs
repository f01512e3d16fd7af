//! The layers of one table kind in a directory, opened lazily on first use.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use granary_index::MAX_LAYER_SEEDS;
use granary_rules::Board;

use crate::error::TableError;
use crate::filled;
use crate::format::TableKind;
use crate::layer::Layer;
use crate::probe::{UNBOUNDED, Values};

/// The tables of one kind under `<root>/<kind name>/layer-NNN.tbl`.
#[derive(Debug)]
pub struct TableSet {
    kind: TableKind,
    dir: PathBuf,
    layers: Vec<OnceLock<Arc<Layer>>>,
    /// Filled layers of at most this many entries are rebuilt whole on their first read.
    filled_whole_entries: u64,
}

impl TableSet {
    /// The tables of `kind` under `root`; nothing is opened yet.
    #[must_use]
    pub fn new(root: &Path, kind: TableKind) -> TableSet {
        TableSet {
            kind,
            dir: root.join(kind.name()),
            layers: (0..=MAX_LAYER_SEEDS).map(|_| OnceLock::new()).collect(),
            filled_whole_entries: filled::WHOLE_ENTRIES,
        }
    }

    /// This set, with its layers with filled don't-cares of at most `entries` entries rebuilt
    /// whole on their first read (by default [`filled::WHOLE_ENTRIES`]; with 0, every read of
    /// such a layer settles its value from the layers below, as a large layer's reads do).
    #[must_use]
    pub fn with_filled_whole_entries(mut self, entries: u64) -> TableSet {
        self.filled_whole_entries = entries;
        self
    }

    #[must_use]
    pub fn kind(&self) -> TableKind {
        self.kind
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of the layer of `seeds` seeds.
    #[must_use]
    pub fn layer_path(&self, seeds: u32) -> PathBuf {
        self.dir.join(format!("layer-{seeds:03}.tbl"))
    }

    /// The layer of `seeds` seeds, opened and checked on first use (with, for a layer with
    /// filled don't-cares, every layer below it).
    ///
    /// # Errors
    /// [`TableError::Missing`] if it is not built, or what is wrong with the file.
    pub fn layer(&self, seeds: u32) -> Result<&Layer, TableError> {
        self.shared_layer(seeds).map(|layer| &**layer)
    }

    fn shared_layer(&self, seeds: u32) -> Result<&Arc<Layer>, TableError> {
        let cell = self
            .layers
            .get(seeds as usize)
            .ok_or(TableError::Index(granary_index::IndexError::Seeds(seeds)))?;
        if let Some(layer) = cell.get() {
            return Ok(layer);
        }
        let layer = Layer::open_over(
            &self.layer_path(seeds),
            self.kind,
            seeds,
            self.filled_whole_entries,
            &|s| self.shared_layer(s).cloned(),
        )?;
        let _ = cell.set(Arc::new(layer));
        Ok(cell.get().expect("just set"))
    }

    /// The value of a layout (mover to move), or `None` if the reduced index leaves it out.
    ///
    /// # Errors
    /// If its layer is missing or unusable.
    pub fn probe(&self, board: Board) -> Result<Option<i8>, TableError> {
        self.probe_within(board, -UNBOUNDED, UNBOUNDED)
    }

    /// [`TableSet::probe`], or a bound on the value outside the window `(alpha, beta)`
    /// ([`Values::probe_within`]).
    ///
    /// # Errors
    /// If its layer is missing or unusable.
    pub fn probe_within(
        &self,
        board: Board,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<i8>, TableError> {
        self.layer(board.seeds(self.kind.pits))?
            .probe_within(board, alpha, beta)
    }

    /// Takes this kind's write lock (`<dir>/.lock`, an advisory file lock, released when the
    /// returned guard is dropped or the process ends, however it ends), creating the directory.
    ///
    /// # Errors
    /// [`TableError::Busy`] if another process holds it; an I/O error naming the path.
    pub fn lock_for_writing(&self) -> Result<WriteLock, TableError> {
        std::fs::create_dir_all(&self.dir).map_err(TableError::io(&self.dir))?;
        let path = self.dir.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(TableError::io(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(WriteLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(TableError::Busy {
                path: self.dir.clone(),
            }),
            Err(std::fs::TryLockError::Error(e)) => Err(TableError::Io { path, source: e }),
        }
    }

    /// The largest `n` such that layers `0..=n` all exist (not checked), if layer 0 does.
    #[must_use]
    pub fn complete_up_to(&self) -> Option<u32> {
        (0..=MAX_LAYER_SEEDS)
            .take_while(|&n| self.layer_path(n).is_file())
            .last()
    }
}

impl Values for TableSet {
    fn probe(&self, board: Board) -> Result<Option<i8>, TableError> {
        TableSet::probe(self, board)
    }

    fn probe_within(&self, board: Board, alpha: i32, beta: i32) -> Result<Option<i8>, TableError> {
        TableSet::probe_within(self, board, alpha, beta)
    }
}

/// A kind's write lock, held while its layers are built (see [`TableSet::lock_for_writing`]).
#[derive(Debug)]
pub struct WriteLock {
    _file: std::fs::File,
}
