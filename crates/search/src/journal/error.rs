//! What can be wrong with a journal: its file, its format, its binding, its records.

use std::path::{Path, PathBuf};

use super::format::{MAX_BINDING, VERSION};

/// What is wrong with a journal.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a granary solve journal: give a journal file, or a new file name", path.display())]
    Foreign { path: PathBuf },
    #[error("{}: journal format {found}, this granary reads {VERSION}", path.display())]
    Version { path: PathBuf, found: u16 },
    #[error("{}: a journal of {found}, not of {expected}: give this solve a journal of its own", path.display())]
    Other {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{}: damaged record at byte {offset} (not the last, so not a torn write): the journal cannot be trusted; move it aside", path.display())]
    Damaged { path: PathBuf, offset: u64 },
    #[error("{}: the record at byte {offset} takes the runs' nodes past 2^64: the journal cannot be trusted; move it aside", path.display())]
    Nodes { path: PathBuf, offset: u64 },
    #[error("the journal's binding is {len} bytes, at most {MAX_BINDING} fit")]
    Binding { len: usize },
    #[error("{}: another granary solve has this journal open: let it finish or stop it first", path.display())]
    Busy { path: PathBuf },
    #[error("{}: an earlier write failed; the journal keeps what it held before it", path.display())]
    Closed { path: PathBuf },
    /// Records that cannot be true of any position of this game: another game's, or damaged.
    #[error(
        "the journal holds impossible bounds ({0}): it is not this game's, or damaged; move it aside"
    )]
    Impossible(String),
}

pub(super) fn io(path: &Path) -> impl Fn(std::io::Error) -> JournalError + '_ {
    move |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}
