//! The scratch directory of a build in blocks (`<layer>.tbl.work/`, or one a rank in a
//! distributed build): made when a file is first needed, removed when dropped, and the error
//! that names the scratch file an I/O operation failed on.
//!
//! # Files
//! ```text
//!   work          the work bytes of this process's blocks, one a position, from the rank of
//!                 its first block's first position (`WorkBytes`)
//!   messages-<b>  the messages spilled for block b: u32s, little-endian, in the order spilled
//!                 (`Outbox`)
//!   exits/exits-<t>  the positions whose best exit concerns phase t, when the lists of
//!                 exits by phase do not fit their memory (`crate::phases`)
//!   values        the values of this process's share when they do not fit the budget, one
//!                 i8 a position, from the share's first position (`LayerValues`)
//! ```

use std::fs::File;
use std::path::{Path, PathBuf};

/// Files a blocked build keeps next to its layer (`<layer>.tbl.work/`), removed when dropped.
#[derive(Debug)]
pub(crate) struct Scratch {
    pub(super) dir: PathBuf,
    made: bool,
}

impl Scratch {
    /// Scratch files under `dir`, made when first needed. Whatever `dir` holds is left from a
    /// build that was killed (the table set's write lock keeps other builds out): removed.
    pub(crate) fn new(dir: PathBuf) -> Scratch {
        let _ = std::fs::remove_dir_all(&dir);
        Scratch { dir, made: false }
    }

    /// The scratch file `name`, emptied.
    pub(super) fn file(&mut self, name: &str) -> std::io::Result<(File, PathBuf)> {
        if !self.made {
            std::fs::create_dir_all(&self.dir)?;
            self.made = true;
        }
        let path = self.dir.join(name);
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        Ok((file, path))
    }
}

impl Scratch {
    /// The scratch file `name`, emptied, its errors naming the scratch directory.
    pub(crate) fn named_file(&mut self, name: &str) -> Result<(File, PathBuf), ScratchError> {
        let dir = self.dir.clone();
        self.file(name).map_err(at(&dir))
    }

    /// Scratch files in the subdirectory `name`, made when first needed, removed when dropped.
    pub(crate) fn sub(&self, name: &str) -> Scratch {
        Scratch::new(self.dir.join(name))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.made {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// An I/O error on a scratch file, with its path.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct ScratchError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

pub(super) fn at(path: &Path) -> impl FnOnce(std::io::Error) -> ScratchError + '_ {
    move |source| ScratchError {
        path: path.to_owned(),
        source,
    }
}
