//! Writing a layer: to `<name>.tmp`, its disk space reserved, its entries written with positioned
//! writes, then checksummed, synced and renamed, so a finished name always holds a complete,
//! checked table.
//!
//! The space is reserved (`fallocate`) before anything is written: a full disk is then an
//! ordinary error ([`TableError::NoSpace`]) when the file is created, never a failure halfway
//! through the entries. A creator dropped before [`SharedLayer::finish`] (an error, a panic)
//! removes its temporary file. (A compressed layer is written by `crate::compress`.)

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use zerocopy::IntoBytes;

use crate::error::TableError;
use crate::format::{HEADER_LEN, TableKind};

/// A temporary file, removed when dropped unless it was renamed ([`TempFile::rename`]).
#[derive(Debug)]
pub(crate) struct TempFile {
    path: PathBuf,
    renamed: bool,
}

impl TempFile {
    /// The file at `path`, removed when dropped unless renamed.
    pub(crate) fn new(path: PathBuf) -> TempFile {
        TempFile {
            path,
            renamed: false,
        }
    }

    pub(crate) fn rename(&mut self, to: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, to)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Reserves `len` bytes of disk for `file` (zero-filled). Where the filesystem cannot reserve
/// (`fallocate` unsupported), writes the zeros instead, which reserves them as well. `file` must
/// be new and empty.
///
/// # Errors
/// If the disk has no room ([`std::io::ErrorKind::StorageFull`]) or the file cannot be written.
pub fn reserve(file: &File, len: u64) -> std::io::Result<()> {
    use fs4::FileExt;
    use std::io::Write;
    match file.allocate(len) {
        Ok(()) => file.set_len(len),
        Err(err) if err.kind() == std::io::ErrorKind::StorageFull => Err(err),
        Err(_) => {
            // The file is new and empty: append the zeros.
            let zeros = vec![0u8; 1 << 20];
            let mut left = len;
            let mut writer = std::io::BufWriter::new(file);
            while left > 0 {
                let n = left.min(zeros.len() as u64) as usize;
                writer.write_all(&zeros[..n])?;
                left -= n as u64;
            }
            writer.flush()
        }
    }
}

/// The temporary file of layer `path`, `<path>.tmp`, of `entries` entries (zero-filled, its
/// space reserved), replacing any left over from an interrupted build.
fn create_temp(path: &Path, entries: u64) -> Result<(TempFile, File), TableError> {
    let temp_path = temp_path(path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(TableError::io(dir))?;
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp_path)
        .map_err(TableError::io(&temp_path))?;
    // From here on, an error removes the file.
    let temp = TempFile {
        path: temp_path,
        renamed: false,
    };
    let len = HEADER_LEN as u64 + entries;
    reserve(&file, len).map_err(|err| {
        let path = temp.path.clone();
        if err.kind() == std::io::ErrorKind::StorageFull {
            TableError::NoSpace {
                path,
                needed: len,
                source: err,
            }
        } else {
            TableError::Io { path, source: err }
        }
    })?;
    Ok((temp, file))
}

/// The temporary file a layer at `path` is written to before it is renamed: `<path>.tmp`.
#[must_use]
pub fn temp_path(path: &Path) -> PathBuf {
    let mut temp_path = path.as_os_str().to_owned();
    temp_path.push(".tmp");
    PathBuf::from(temp_path)
}

/// Flushes the directory holding `path`, so that a rename in it is durable (best effort).
pub fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
}

/// A layer written in parts by the processes of a distributed build, each the entries of its
/// slice: one creates the temporary file ([`SharedLayer::create`]) and finishes it once every
/// part is written ([`SharedLayer::finish`]); the others open it ([`SharedLayer::join`]).
///
/// Parts are written with positioned writes, never through a memory map, so that processes on
/// different machines sharing the file through a network filesystem only ever write their own
/// bytes; the checksum is read through a fresh open, after every part was written and synced.
#[derive(Debug)]
pub struct SharedLayer {
    final_path: PathBuf,
    temp_path: PathBuf,
    /// The creator's: removes the file unless it was finished.
    temp: Option<TempFile>,
    file: File,
    kind: TableKind,
    seeds: u32,
    entries: u64,
}

/// The entries [`SharedLayer::write_parts`] writes at once.
const PART: u64 = 1 << 22;

impl SharedLayer {
    /// Creates `<path>.tmp` sized for `entries` entries (zero-filled), its space reserved,
    /// replacing any left over from an interrupted build.
    ///
    /// # Errors
    /// If the file cannot be created or its space reserved.
    pub fn create(
        path: &Path,
        kind: TableKind,
        seeds: u32,
        entries: u64,
    ) -> Result<SharedLayer, TableError> {
        let (temp, file) = create_temp(path, entries)?;
        Ok(SharedLayer {
            final_path: path.into(),
            temp_path: temp.path.clone(),
            temp: Some(temp),
            file,
            kind,
            seeds,
            entries,
        })
    }

    /// Opens the `<path>.tmp` another process created for `entries` entries.
    ///
    /// # Errors
    /// If it is missing or of another length ([`TableError::NotShared`]: this process does not
    /// see the creator's file).
    pub fn join(
        path: &Path,
        kind: TableKind,
        seeds: u32,
        entries: u64,
    ) -> Result<SharedLayer, TableError> {
        let temp_path = temp_path(path);
        let not_shared = || TableError::NotShared {
            path: temp_path.clone(),
        };
        let file = OpenOptions::new()
            .write(true)
            .open(&temp_path)
            .map_err(|_| not_shared())?;
        let len = file.metadata().map_err(TableError::io(&temp_path))?.len();
        if len != HEADER_LEN as u64 + entries {
            return Err(not_shared());
        }
        Ok(SharedLayer {
            final_path: path.into(),
            temp_path,
            temp: None,
            file,
            kind,
            seeds,
            entries,
        })
    }

    /// Writes the `len` entries from `first` on, as `fill(from, part)` gives them part after part
    /// (each part the entries from `from` on), through one buffer, then syncs them to the file.
    ///
    /// # Errors
    /// If a write or the sync fails, or the entries run past the layer's last.
    pub fn write_parts(
        &self,
        first: u64,
        len: u64,
        mut fill: impl FnMut(u64, &mut [u8]),
    ) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        if first + len > self.entries {
            return Err(TableError::Io {
                path: self.temp_path.clone(),
                source: std::io::Error::other("a part past the layer's last entry"),
            });
        }
        let mut buf = vec![0u8; len.min(PART) as usize];
        let mut from = first;
        while from < first + len {
            let part = &mut buf[..(first + len - from).min(PART) as usize];
            fill(from, part);
            self.file
                .write_all_at(part, HEADER_LEN as u64 + from)
                .map_err(TableError::io(&self.temp_path))?;
            from += part.len() as u64;
        }
        self.file
            .sync_data()
            .map_err(TableError::io(&self.temp_path))
    }

    /// Checksums the entries (every part written), writes the header, syncs and renames the file
    /// to its final name. Only the creator finishes.
    ///
    /// # Errors
    /// If reading, writing, syncing or renaming fails, or this process did not create the file.
    pub fn finish(mut self) -> Result<PathBuf, TableError> {
        use std::io::Read;
        use std::os::unix::fs::FileExt;
        let io = |e| TableError::io(&self.temp_path)(e);
        let Some(mut temp) = self.temp.take() else {
            return Err(io(std::io::Error::other(
                "only the creator finishes a shared layer",
            )));
        };
        let mut reader = File::open(&self.temp_path).map_err(io)?;
        let mut skip = [0u8; HEADER_LEN];
        reader.read_exact(&mut skip).map_err(io)?;
        let mut hasher = crc32fast::Hasher::new();
        let mut buf = vec![0u8; 1 << 20];
        let mut left = self.entries;
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            reader.read_exact(&mut buf[..n]).map_err(io)?;
            hasher.update(&buf[..n]);
            left -= n as u64;
        }
        let mut header = self.kind.header(self.seeds, self.entries);
        header.data_crc32 = hasher.finalize().into();
        header.header_crc32 = header.compute_crc().into();
        self.file.write_all_at(header.as_bytes(), 0).map_err(io)?;
        self.file.sync_all().map_err(io)?;
        temp.rename(&self.final_path)
            .map_err(TableError::io(&self.final_path))?;
        sync_parent(&self.final_path);
        Ok(std::mem::take(&mut self.final_path))
    }
}
