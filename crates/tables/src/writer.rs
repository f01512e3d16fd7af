//! Writing a layer: to `<name>.tmp`, its disk space reserved, memory-mapped, then checksummed,
//! flushed and renamed, so a finished name always holds a complete, checked table.
//!
//! The space is reserved (`fallocate`) before the file is mapped: a write into a memory map of a
//! sparse file on a full disk would kill the process with SIGBUS, while a failed reservation is an
//! ordinary error ([`TableError::NoSpace`]). A writer dropped before [`LayerWriter::finish`] (an
//! error, a panic) removes its temporary file.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicI8;

use memmap2::MmapMut;
use zerocopy::IntoBytes;

use crate::error::TableError;
use crate::format::{HEADER_LEN, TableKind};

/// A layer being written.
#[derive(Debug)]
pub struct LayerWriter {
    final_path: PathBuf,
    temp: TempFile,
    file: File,
    map: MmapMut,
    kind: TableKind,
    seeds: u32,
    entries: u64,
}

/// A temporary file, removed when dropped unless it was renamed ([`TempFile::rename`]).
#[derive(Debug)]
struct TempFile {
    path: PathBuf,
    renamed: bool,
}

impl TempFile {
    fn rename(&mut self, to: &Path) -> std::io::Result<()> {
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

impl LayerWriter {
    /// Creates `<path>.tmp` sized for `entries` positions (zero-filled), replacing any left over
    /// from an interrupted build.
    ///
    /// # Errors
    /// If the file cannot be created, sized or mapped.
    pub fn create(
        path: &Path,
        kind: TableKind,
        seeds: u32,
        entries: u64,
    ) -> Result<LayerWriter, TableError> {
        let mut temp_path = path.as_os_str().to_owned();
        temp_path.push(".tmp");
        let temp_path = PathBuf::from(temp_path);
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
        // SAFETY: the temporary file was just created by this process, which alone writes it
        // until it is renamed; no other mapping of it exists. Its blocks are reserved, so a write
        // through the map cannot fault for want of disk space.
        let map = unsafe { MmapMut::map_mut(&file) }.map_err(TableError::io(&temp.path))?;
        Ok(LayerWriter {
            final_path: path.into(),
            temp,
            file,
            map,
            kind,
            seeds,
            entries,
        })
    }

    /// The entries, for threads to fill in parallel.
    #[must_use]
    pub fn entries(&mut self) -> &[AtomicI8] {
        let data = &mut self.map[HEADER_LEN..];
        // SAFETY: `AtomicI8` has the same size, alignment and bit validity as `u8`, and the
        // exclusive borrow of `self` guarantees no other reference to these bytes exists while
        // the returned slice lives.
        unsafe { &*(std::ptr::from_mut::<[u8]>(data) as *const [AtomicI8]) }
    }

    /// Checksums the entries, writes the header, flushes and renames the file to its final name.
    ///
    /// # Errors
    /// If flushing, syncing or renaming fails; the final name is then untouched and the
    /// temporary file removed.
    pub fn finish(mut self) -> Result<PathBuf, TableError> {
        let mut header = self.kind.header(self.seeds, self.entries);
        header.data_crc32 = crc32fast::hash(&self.map[HEADER_LEN..]).into();
        header.header_crc32 = header.compute_crc().into();
        self.map[..HEADER_LEN].copy_from_slice(header.as_bytes());
        self.map.flush().map_err(TableError::io(&self.temp.path))?;
        self.file
            .sync_all()
            .map_err(TableError::io(&self.temp.path))?;
        self.temp
            .rename(&self.final_path)
            .map_err(TableError::io(&self.final_path))?;
        if let Some(dir) = self.final_path.parent()
            && let Ok(dir) = File::open(dir)
        {
            let _ = dir.sync_all();
        }
        Ok(self.final_path)
    }
}
