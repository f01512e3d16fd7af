//! Everything that can be wrong with a table file. Each message names the file.

use std::path::PathBuf;

use crate::format::HEADER_LEN;

/// A table that cannot be used, and why.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: table not built (run `granary build`)", path.display())]
    Missing { path: PathBuf },
    #[error("{}: not a granary table (bad magic)", path.display())]
    NotATable { path: PathBuf },
    #[error("{}: table format version {found}, this granary reads versions 1 to {expected}: delete the file and build it again with `granary build`", path.display())]
    Version {
        path: PathBuf,
        found: u16,
        expected: u16,
    },
    #[error("{}: a directory or special file where a table file should be", path.display())]
    NotAFile { path: PathBuf },
    #[error("{}: {found} bytes, shorter than a table header ({HEADER_LEN} bytes): delete it and build it again", path.display())]
    Truncated { path: PathBuf, found: u64 },
    #[error("{}: not enough disk space for the layer ({needed} bytes): {source}; free space and run the same command again, it resumes after the last finished layer", path.display())]
    NoSpace {
        path: PathBuf,
        needed: u64,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: another granary build is writing these tables; wait for it to finish", path.display())]
    Busy { path: PathBuf },
    #[error("{}: header checksum mismatch (corrupt header)", path.display())]
    HeaderChecksum { path: PathBuf },
    #[error("{}: table is for {found} but {expected} was asked for", path.display())]
    Mismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error("{}: file is {found} bytes, the table needs {expected} (truncated or damaged): delete it and build it again", path.display())]
    Length {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    #[error("{}: {what} (a damaged compressed table): delete it and build it again", path.display())]
    Corrupt { path: PathBuf, what: String },
    #[error("{}: data checksum mismatch (corrupt data): delete it and build it again", path.display())]
    DataChecksum { path: PathBuf },
    #[error("{}: entry {index} holds {value}, outside -{seeds}..={seeds}", path.display())]
    Value {
        path: PathBuf,
        index: u64,
        value: i8,
        seeds: u32,
    },
    #[error("{}: not found, or not the file another rank of this build created: every rank must see the table directory through a shared filesystem", path.display())]
    NotShared { path: PathBuf },
    #[error("{}: its don't-cares are rebuilt from the layers below it: open it with its table directory", path.display())]
    NeedsLower { path: PathBuf },
    #[error("{0}")]
    Index(#[from] granary_index::IndexError),
}

impl TableError {
    /// The file the error is about (`None` for an index error, which names no file).
    #[must_use]
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            TableError::Io { path, .. }
            | TableError::Missing { path }
            | TableError::NotATable { path }
            | TableError::Version { path, .. }
            | TableError::NotAFile { path }
            | TableError::Truncated { path, .. }
            | TableError::NoSpace { path, .. }
            | TableError::Busy { path }
            | TableError::HeaderChecksum { path }
            | TableError::Mismatch { path, .. }
            | TableError::Length { path, .. }
            | TableError::Corrupt { path, .. }
            | TableError::DataChecksum { path }
            | TableError::Value { path, .. }
            | TableError::NotShared { path }
            | TableError::NeedsLower { path } => Some(path),
            TableError::Index(_) => None,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> TableError {
        let path = path.into();
        move |source| TableError::Io { path, source }
    }
}
