//! A table directory as an object: what is present, each kind's tables opened lazily and shared.
//!
//! Layout: `<root>/<kind>/layer-NNN.tbl`, one file a layer of `NNN` seeds on the board
//! (`docs/table-format.md`). Listing reads directory entries and one header a kind, never table
//! data; a layer is mapped on first use and then shared by every caller of [`Tablebase::tables`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use granary_index::LayerIndex;
use granary_tables::format::HEADER_LEN;
use granary_tables::verify::{LayerCheck, kind_of, verify_layer};
use granary_tables::{TableError, TableKind, TableSet};
use serde::Serialize;

use crate::error::{DirectoryError, Error};
use crate::machine::Machine;

/// The directory tables go to when neither a directory nor `$GRANARY_TABLES` is given,
/// relative to the working directory.
pub const BUILT_IN_DIR: &str = "data/tables";

/// The directory tables go to when none is given: `$GRANARY_TABLES`, else [`BUILT_IN_DIR`].
#[must_use]
pub fn default_dir() -> PathBuf {
    std::env::var_os("GRANARY_TABLES").map_or_else(|| BUILT_IN_DIR.into(), Into::into)
}

/// Positions in layer `seeds` of a kind (`u64::MAX` beyond what an index can hold).
#[must_use]
pub fn layer_positions(kind: TableKind, seeds: u32) -> u64 {
    LayerIndex::new(kind.pits, seeds, kind.reduced()).map_or(u64::MAX, |i| i.size())
}

/// Bytes of the file of layer `seeds` of a kind (header and one byte a position).
#[must_use]
pub fn layer_bytes(kind: TableKind, seeds: u32) -> u64 {
    layer_positions(kind, seeds).saturating_add(HEADER_LEN as u64)
}

/// The layer a file's name gives (`layer-NNN.tbl`).
fn layer_number(path: &Path) -> Option<u32> {
    path.file_stem()?
        .to_str()?
        .strip_prefix("layer-")?
        .parse()
        .ok()
}

/// Holds the values of layer `seeds` of `set` in memory ([`granary_tables::Layer::hold_values`])
/// if its don't-cares are filled, it does not hold them yet, and they fit beside the `held`
/// bytes within `memory` (then counted in `held`).
fn hold_within(set: &TableSet, seeds: u32, held: &mut u64, memory: u64) -> Result<(), TableError> {
    let layer = set.layer(seeds)?;
    let size = layer.index().size();
    if layer.rebuilds_values() && !layer.holds_values() && held.saturating_add(size) <= memory {
        layer.hold_values()?;
        *held += size;
    }
    Ok(())
}

/// One kind's tables as found on disk.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KindSummary {
    /// The directory name, e.g. `kalah-6-standard-owner`.
    pub name: String,
    #[serde(skip)]
    pub kind: TableKind,
    /// Layers present (files named `layer-NNN.tbl`; not opened).
    pub layers: Vec<u32>,
    /// The largest `n` with layers `0..=n` all present.
    pub complete_up_to: Option<u32>,
    /// Bytes of all its layer files.
    pub bytes: u64,
}

/// A file's verdict from [`Tablebase::verify`].
#[derive(Debug)]
pub struct FileCheck {
    pub path: PathBuf,
    pub result: Result<LayerCheck, TableError>,
}

/// The value counts of one layer file, from [`BottomUp::layer_stats`].
#[derive(Clone, Debug)]
pub struct LayerStats {
    pub kind: TableKind,
    pub seeds: u32,
    pub positions: u64,
    pub bytes: u64,
    /// The file's format version (`docs/table-format.md`).
    pub version: u16,
    /// Whether its don't-cares are filled (version 3, codec 3: values rebuilt from the layers
    /// below at every read).
    pub filled: bool,
    /// The values' CRC-32 as the header records it: the same in every format (what
    /// `granary verify` checks the values against, and `data/builds/` keeps for each layer).
    pub crc32: u32,
    /// Positions by value, indexed by the value's byte (`value as u8`); `None` where they were
    /// not counted (a filled layer, unless asked for: [`BottomUp::layer_stats`]).
    pub histogram: Option<Box<[u64; 256]>>,
}

impl LayerStats {
    /// Positions whose value satisfies `keep`, if the values were counted.
    #[must_use]
    pub fn count(&self, keep: impl Fn(i8) -> bool) -> Option<u64> {
        let histogram = self.histogram.as_ref()?;
        Some(
            (0..=255u8)
                .filter(|&b| keep(b as i8))
                .map(|b| histogram[usize::from(b)])
                .sum(),
        )
    }

    /// Bits a position the file takes, all of it counted.
    #[must_use]
    pub fn bits(&self) -> f64 {
        8.0 * self.bytes as f64 / self.positions.max(1) as f64
    }
}

/// A directory of tables.
#[derive(Debug)]
pub struct Tablebase {
    root: PathBuf,
    sets: Mutex<HashMap<TableKind, Arc<TableSet>>>,
}

impl Tablebase {
    /// The tables under `root`; nothing is read yet, and `root` need not exist.
    #[must_use]
    pub fn new(root: impl Into<PathBuf>) -> Tablebase {
        Tablebase {
            root: root.into(),
            sets: Mutex::new(HashMap::new()),
        }
    }

    /// The tables under `root`, which must be a directory that exists (an empty one is a table
    /// directory with nothing built yet): for front ends that read what is there, so that a
    /// mistyped path is an error rather than a directory with no tables. Nothing is read.
    ///
    /// # Errors
    /// [`DirectoryError`] naming `root`: missing, or not a directory.
    pub fn existing(root: impl Into<PathBuf>) -> Result<Tablebase, DirectoryError> {
        let root = root.into();
        match std::fs::metadata(&root) {
            Ok(meta) if meta.is_dir() => Ok(Tablebase::new(root)),
            Ok(_) => Err(DirectoryError::NotADirectory(root)),
            Err(_) => Err(DirectoryError::Missing(root)),
        }
    }

    /// The directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The tables of `kind`, shared: a layer opened through one handle is open for all.
    #[must_use]
    pub fn tables(&self, kind: TableKind) -> Arc<TableSet> {
        let mut sets = self
            .sets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(
            sets.entry(kind)
                .or_insert_with(|| Arc::new(TableSet::new(&self.root, kind))),
        )
    }

    /// The largest `n` such that layers `0..=n` of `kind` are all present (files, not opened).
    #[must_use]
    pub fn complete_up_to(&self, kind: TableKind) -> Option<u32> {
        TableSet::new(&self.root, kind).complete_up_to()
    }

    /// Every `*.tbl` file in the kind directories under the root, sorted; none if the root does
    /// not exist.
    ///
    /// # Errors
    /// If the root exists but cannot be read.
    pub fn table_files(&self) -> Result<Vec<PathBuf>, Error> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| Error::Io { path, source }
        };
        let entries = match std::fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(&self.root)(e)),
        };
        let mut files = Vec::new();
        for dir in entries.flatten().filter(|e| e.path().is_dir()) {
            for file in std::fs::read_dir(dir.path())
                .map_err(io(&dir.path()))?
                .flatten()
            {
                if file.path().extension().is_some_and(|x| x == "tbl") {
                    files.push(file.path());
                }
            }
        }
        files.sort();
        Ok(files)
    }

    /// What is present, kind by kind (headers of one file a kind read; no table data).
    ///
    /// # Errors
    /// If the root exists but cannot be read. Files whose header is unreadable are left out
    /// (`verify` names them).
    pub fn present(&self) -> Result<Vec<KindSummary>, Error> {
        let mut by_dir: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
        for path in self.table_files()? {
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            by_dir.entry(dir).or_default().push(path);
        }
        let mut out = Vec::new();
        for files in by_dir.into_values() {
            let Some(kind) = files.iter().find_map(|p| kind_of(p).ok().map(|(k, _)| k)) else {
                continue;
            };
            // Layers by file name (`layer-NNN.tbl`, regular files), as `complete_up_to` counts.
            let mut found: Vec<(u32, u64)> = files
                .iter()
                .filter_map(|p| {
                    let seeds = layer_number(p)?;
                    let meta = std::fs::metadata(p)
                        .ok()
                        .filter(std::fs::Metadata::is_file)?;
                    Some((seeds, meta.len()))
                })
                .collect();
            found.sort_unstable();
            let layers: Vec<u32> = found.iter().map(|&(seeds, _)| seeds).collect();
            let complete_up_to = layers
                .iter()
                .zip(0..)
                .take_while(|&(&layer, n)| layer == n)
                .last()
                .map(|(&layer, _)| layer);
            let bytes = found.iter().map(|&(_, len)| len).sum();
            out.push(KindSummary {
                name: kind.name(),
                kind,
                layers,
                complete_up_to,
                bytes,
            });
        }
        Ok(out)
    }

    /// Opens layers `0..=max` of `kind` and checks their data checksums (reads every byte; a
    /// plain open reads headers only), bottom up through a set of their own, dropped after, in
    /// which the checked values of filled layers stay for the layers above within half the
    /// memory available (as [`Tablebase::verify`]'s).
    ///
    /// # Errors
    /// The first layer missing, foreign or corrupt.
    pub fn verify_checksums(&self, kind: TableKind, max: u32) -> Result<(), TableError> {
        let memory = Machine::detect(&self.root).available_memory / 2;
        let set = TableSet::new(&self.root, kind);
        let mut held = 0;
        (0..=max).try_for_each(|n| {
            hold_within(&set, n, &mut held, memory)?;
            set.layer(n)?.verify_checksum()
        })
    }

    /// Holds in memory the values of the layers with filled don't-cares of every complete kind
    /// present ([`granary_tables::Layer::hold_values`]), through the sets that
    /// [`Tablebase::tables`] shares, each kind's from the bottom up, as many as `memory` bytes
    /// hold at a byte a position: the lookups of a long-lived reader (a server) then read them
    /// directly, and the layers above them settle from them. Lookups meanwhile settle values as
    /// before. The bytes held.
    ///
    /// # Errors
    /// If the root cannot be read, or a layer to hold is damaged or unreadable.
    pub fn hold_filled(&self, memory: u64) -> Result<u64, Error> {
        let mut held = 0;
        for present in self.present()? {
            let Some(top) = present.complete_up_to else {
                continue;
            };
            let set = self.tables(present.kind);
            for n in 0..=top {
                hold_within(&set, n, &mut held, memory)?;
            }
        }
        Ok(held)
    }

    /// Every table file, read bottom up through [`BottomUp`], whose memory is `memory` bytes
    /// (`None`: half the memory available).
    ///
    /// # Errors
    /// If the root exists but cannot be read.
    pub fn bottom_up(&self, memory: Option<u64>) -> Result<BottomUp<'_>, Error> {
        Ok(BottomUp {
            root: &self.root,
            files: self.table_files()?,
            memory: memory.unwrap_or_else(|| Machine::detect(&self.root).available_memory / 2),
            held: 0,
            open: None,
        })
    }

    /// Checks every table file: header, length, checksum, value range, and `sample` entries a
    /// layer recomputed from their children, bottom up ([`Tablebase::bottom_up`]: the checked
    /// values of filled layers kept for the layers above within `memory`). Calls `each` as each
    /// file is done.
    ///
    /// # Errors
    /// If the root cannot be read. Bad files are results, not errors.
    pub fn verify(
        &self,
        sample: u64,
        memory: Option<u64>,
        mut each: impl FnMut(&FileCheck),
    ) -> Result<Vec<FileCheck>, Error> {
        let mut files = self.bottom_up(memory)?;
        let mut checks = Vec::new();
        for path in files.files().to_vec() {
            let result = files.open(&path, true).and_then(|(set, seeds)| {
                if set.layer_path(seeds) != path {
                    return Err(TableError::Mismatch {
                        path: path.clone(),
                        expected: format!("the file name {}", set.layer_path(seeds).display()),
                        found: format!("{} layer {seeds}", set.kind().name()),
                    });
                }
                verify_layer(set, seeds, sample)
            });
            let check = FileCheck { path, result };
            each(&check);
            checks.push(check);
        }
        Ok(checks)
    }
}

/// The table files under a root, read bottom up: one [`TableSet`] a kind, open while that
/// kind's files are read (sorted paths of `<kind>/layer-NNN.tbl`: a kind's files together, in
/// order of layers), in which the values of each layer with filled don't-cares are rebuilt,
/// checked and held in memory as it is opened, for its own reads and the layers above, whose
/// every read settles values from it: the lowest layers (the smallest), as many as the memory
/// holds at a byte a position.
#[derive(Debug)]
pub struct BottomUp<'a> {
    root: &'a Path,
    files: Vec<PathBuf>,
    memory: u64,
    /// Bytes of values held in the open set.
    held: u64,
    open: Option<TableSet>,
}

impl BottomUp<'_> {
    /// Every `*.tbl` file, sorted ([`Tablebase::table_files`]).
    #[must_use]
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The set of the kind the header of the file at `path` names, to read it through, and
    /// the layer it says it is (the file name is not checked against it): the set of the file
    /// before it where that is of the same kind, else a new one. With `hold`, a layer with
    /// filled don't-cares, named as it should be, has its values held within the memory (for a
    /// reader of every value; one that reads headers only passes `false`).
    ///
    /// # Errors
    /// If the header is unreadable or names no known game; for a layer whose values are held,
    /// what is wrong with it or a layer below.
    pub fn open(&mut self, path: &Path, hold: bool) -> Result<(&TableSet, u32), TableError> {
        let (kind, seeds) = kind_of(path)?;
        let set = match self.open.take() {
            Some(set) if set.kind() == kind => set,
            previous => {
                // The previous kind's values go before the next kind's are read.
                drop(previous);
                self.held = 0;
                TableSet::new(self.root, kind)
            }
        };
        let set = self.open.insert(set);
        if hold && set.layer_path(seeds) == path {
            hold_within(set, seeds, &mut self.held, self.memory)?;
        }
        Ok((set, seeds))
    }

    /// What the table file at `path` is, and its value counts: every layer's, or with
    /// `count_filled` false, every layer's but one with filled don't-cares (counting rebuilds
    /// every value).
    ///
    /// # Errors
    /// What is wrong with the file.
    pub fn layer_stats(
        &mut self,
        path: &Path,
        count_filled: bool,
    ) -> Result<LayerStats, TableError> {
        let (set, seeds) = self.open(path, count_filled)?;
        let kind = set.kind();
        let layer = set.layer(seeds)?;
        let histogram = if count_filled || !layer.rebuilds_values() {
            let mut histogram = Box::new([0u64; 256]);
            layer.for_each_chunk(|_, entries| {
                for &b in entries {
                    histogram[usize::from(b)] += 1;
                }
            })?;
            Some(histogram)
        } else {
            None
        };
        Ok(LayerStats {
            kind,
            seeds,
            positions: layer.index().size(),
            bytes: std::fs::metadata(path).map_or(0, |m| m.len()),
            version: layer.header().version.get(),
            filled: layer.rebuilds_values(),
            crc32: layer.header().data_crc32.get(),
            histogram,
        })
    }
}

/// The `granary build` command that builds `kind`'s layers up to `seeds`.
#[must_use]
pub fn build_command(kind: TableKind, seeds: u32) -> String {
    format!("granary build {} --max-seeds {seeds}", game_options(kind))
}

/// The `granary solve` command that answers `game`'s position, every move's value included.
#[must_use]
pub fn solve_command(game: &crate::Mancala) -> String {
    let kind = game.kind();
    format!(
        "granary solve {} --position \"{}\" --all-moves",
        game_options(kind),
        granary_rules::notation::format_position(&game.position, kind.pits)
    )
}

/// `kalah --pits 6 --rules standard --sweep owner`: the game and the options that name `kind`.
fn game_options(kind: TableKind) -> String {
    let options = match kind.game {
        granary_rules::Game::Kalah { capture, sweep } => {
            format!(" --rules {} --sweep {}", capture.name(), sweep.name())
        }
        granary_rules::Game::Oware { rules } => format!(" --rules {}", rules.name()),
    };
    format!("{} --pits {}{options}", kind.game.name(), kind.pits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_directory_is_required_and_an_empty_one_is_enough() {
        let tmp = tempfile::tempdir().unwrap();
        let empty = Tablebase::existing(tmp.path()).unwrap();
        assert!(empty.present().unwrap().is_empty());
        let missing = tmp.path().join("nonexistent");
        let err = Tablebase::existing(&missing).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "{}: no such table directory: give the directory the tables are in (an empty \
                 one to build tables into)",
                missing.display()
            )
        );
        let file = tmp.path().join("file");
        std::fs::write(&file, b"").unwrap();
        let err = Tablebase::existing(&file).unwrap_err().to_string();
        assert!(
            err.ends_with(": not a directory: give the directory the tables are in"),
            "{err}"
        );
    }
}
