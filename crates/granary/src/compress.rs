//! Compressing a kind's finished layers in place (table format version 3 by default, with or
//! without filled don't-cares, or 2; `docs/table-format.md`): each layer in another format is
//! rewritten as compressed blocks under a temporary name and renamed over the original, so each
//! file is always a whole table of one format or the other; layers in the format asked for are
//! left as they are.

use std::path::PathBuf;

use granary_index::MAX_LAYER_SEEDS;
use granary_rules::Game;
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
use granary_tables::layer::read_header;
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

/// The version 3 codec a kind's tables are compressed with by default: don't-cares filled for
/// Oware, whose filled entries rebuild in about one read (0.75x the size of plain codes on awari),
/// plain codes for Kalah, where rebuilding a filled entry reads tens to hundreds of entries
/// (`docs/benchmarks.md`).
#[must_use]
pub fn default_codec(kind: TableKind) -> Codec {
    match kind.game {
        Game::Oware { .. } => Codec::Filled,
        Game::Kalah { .. } => Codec::Coded,
    }
}

/// Compresses every finished layer of `kind` under the tablebase's root that is not in the
/// format `options` write yet (a layer in any other format is rewritten), highest first (a
/// filled layer is then written from the layers below as they were built), calling `each` after
/// each layer (compressed or skipped). Holds the kind's write lock meanwhile, so no build writes
/// the directory at the same time. Each layer's data is checked against its checksum on the way
/// ([`granary_tables::compress_layer`], [`granary_tables::compress_filled`]).
///
/// # Errors
/// [`TableError::Missing`] if the kind has no layer files; [`TableError::Busy`] if a build holds
/// the lock; the first layer that cannot be read or written (the layers above it stay
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
    for seeds in layers.into_iter().rev() {
        let path = set.layer_path(seeds);
        let (header, length) = read_header(&path)?;
        // Opening checks it is this kind's layer and its index is whole; a filled layer opens
        // with the layers below it.
        let layer = set.layer(seeds)?;
        let result = if options.writes(&header) {
            LayerCompressed {
                seeds,
                path,
                entries: layer.len(),
                before: length,
                after: length,
                skipped: true,
            }
        } else {
            let made = if options.codec == Codec::Filled {
                granary_tables::compress_filled(&set, layer, &path, options)?
            } else {
                granary_tables::compress_layer(layer, &path, options)?
            };
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
    done.reverse();
    Ok(done)
}
