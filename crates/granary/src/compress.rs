//! Compressing a kind's finished layers in place (table format version 3 by default, or 2;
//! `docs/table-format.md`): each layer of another version is rewritten as compressed blocks
//! under a temporary name and renamed over the original, so each file is always a whole table of
//! one version or the other; layers in the version asked for are left as they are.

use std::path::PathBuf;

use granary_index::MAX_LAYER_SEEDS;
/// Version 3's block sizes.
pub use granary_tables::coded::{
    DEFAULT_CODED_BLOCK_ENTRIES, MAX_CODED_BLOCK_ENTRIES, MIN_CODED_BLOCK_ENTRIES,
};
/// How to compress: format, block size, threads.
pub use granary_tables::compress::{Codec, CompressOptions};
/// Version 2's block sizes and zstd level.
pub use granary_tables::compressed::{
    DEFAULT_BLOCK_ENTRIES, DEFAULT_LEVEL, MAX_BLOCK_ENTRIES, MIN_BLOCK_ENTRIES,
};
use granary_tables::layer::{Layer, read_header};
use granary_tables::{TableError, TableKind, TableSet};

use crate::tablebase::Tablebase;

/// What compressing one layer did.
#[derive(Clone, Debug)]
pub struct LayerCompressed {
    pub seeds: u32,
    pub path: PathBuf,
    /// Positions in the layer.
    pub entries: u64,
    /// Bytes of the file before.
    pub before: u64,
    /// Bytes of the file after.
    pub after: u64,
    /// `true` if the layer was compressed already and left as it was.
    pub skipped: bool,
}

impl LayerCompressed {
    /// The file's size before over its size after.
    #[must_use]
    pub fn ratio(&self) -> f64 {
        self.before as f64 / self.after.max(1) as f64
    }

    /// Bits a position of the file after (header and index counted).
    #[must_use]
    pub fn bits(&self) -> f64 {
        8.0 * self.after as f64 / self.entries.max(1) as f64
    }
}

/// Compresses every finished layer of `kind` under the tablebase's root that is not in the
/// version `options` write yet (a layer of any other version is rewritten), lowest first,
/// calling `each` after each layer (compressed or skipped). Holds the kind's
/// write lock meanwhile, so no build writes the directory at the same time. Each layer's data is
/// checked against its checksum on the way ([`granary_tables::compress_layer`]).
///
/// # Errors
/// [`TableError::Missing`] if the kind has no layer files; [`TableError::Busy`] if a build holds
/// the lock; the first layer that cannot be read or written (the layers before it stay
/// compressed, the rest as they were).
pub fn compress(
    tablebase: &Tablebase,
    kind: TableKind,
    options: CompressOptions,
    mut each: impl FnMut(&LayerCompressed),
) -> Result<Vec<LayerCompressed>, TableError> {
    let set = TableSet::new(tablebase.root(), kind);
    let layers: Vec<u32> = (0..=MAX_LAYER_SEEDS)
        .filter(|&n| set.layer_path(n).is_file())
        .collect();
    if layers.is_empty() {
        return Err(TableError::Missing {
            path: set.dir().join("layer-NNN.tbl"),
        });
    }
    let _lock = set.lock_for_writing()?;
    let mut done = Vec::with_capacity(layers.len());
    for seeds in layers {
        let path = set.layer_path(seeds);
        let (header, length) = read_header(&path)?;
        let result = if header.version.get() == options.version() {
            // Opening checks it is this kind's layer and its index is whole.
            let layer = Layer::open(&path, kind, seeds)?;
            LayerCompressed {
                seeds,
                path,
                entries: layer.len(),
                before: length,
                after: length,
                skipped: true,
            }
        } else {
            let layer = Layer::open(&path, kind, seeds)?;
            let made = granary_tables::compress_layer(&layer, &path, options)?;
            LayerCompressed {
                seeds,
                path,
                entries: layer.len(),
                before: made.before,
                after: made.after,
                skipped: false,
            }
        };
        each(&result);
        done.push(result);
    }
    Ok(done)
}
