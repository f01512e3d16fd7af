//! Writing a layer's file: once and in order, from the solved values, compressed by one process
//! alone or as a version 1 file each rank writes its part of.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicU8;

use granary_tables::compress::{CompressOptions, Entries, compress_entries};
use granary_tables::format::HEADER_LEN;
use granary_tables::{SharedLayer, TableError, TableKind};

use crate::blocks::{LayerValues, WorkBytes};
use crate::peers::Peers;
use crate::phases::values_of;

/// A layer's file and this rank's share of its positions: what writing the file needs.
pub(super) struct LayerFile<'a> {
    pub(super) path: &'a Path,
    pub(super) kind: TableKind,
    pub(super) seeds: u32,
    /// Positions of the layer.
    pub(super) size: u64,
    /// This rank's positions.
    pub(super) span: Range<u64>,
}

/// How a layer's file is written.
pub(super) enum Output {
    /// Compressed, straight from the values, by one process alone.
    Compressed(CompressOptions),
    /// As a version 1 file, each rank its part ([`SharedLayer`]).
    Parts(SharedLayer),
}

/// What writing a layer's file wrote.
pub(super) struct Written {
    /// Bytes of the file.
    pub(super) bytes: u64,
    /// Its bytes before and after compression, where it was written compressed.
    pub(super) compressed: Option<(u64, u64)>,
}

impl Output {
    /// Step 4: the output of the layer `file`: one process alone with `compress` writes it
    /// compressed straight from its values; else rank 0 creates the version 1 file (its space
    /// reserved) for every rank to write its part, between barriers (rank 0 compresses it
    /// after, [`super::build_layers_on`]).
    pub(super) fn open(
        file: &LayerFile<'_>,
        compress: Option<CompressOptions>,
        peers: &dyn Peers,
    ) -> Result<Output, TableError> {
        let (path, kind, seeds, size) = (file.path, file.kind, file.seeds, file.size);
        Ok(match compress.filter(|_| peers.size() == 1) {
            Some(compress) => Output::Compressed(compress),
            None if peers.rank() == 0 => {
                let shared = SharedLayer::create(path, kind, seeds, size)?;
                peers.barrier();
                Output::Parts(shared)
            }
            None => {
                peers.barrier();
                Output::Parts(SharedLayer::join(path, kind, seeds, size)?)
            }
        })
    }

    /// Step 6: writes this rank's share of the layer's `file` from its `finished` values, once
    /// and in order; rank 0 finishes a version 1 file (checksum, header, its final name) once
    /// every rank has written its part.
    pub(super) fn write(
        self,
        file: &LayerFile<'_>,
        finished: FinishedValues<'_>,
        peers: &dyn Peers,
    ) -> Result<Written, TableError> {
        let span = file.span.clone();
        let len = span.end - span.start;
        let fill = |first: u64, out: &mut [u8]| finished.fill(first - span.start, out);
        match self {
            Output::Compressed(compress) => {
                let entries = Entries { len, fill: &fill };
                let header = file.kind.header(file.seeds, file.size);
                let made = compress_entries(file.path, header, &entries, compress)?;
                Ok(Written {
                    bytes: made.after,
                    compressed: Some((made.before, made.after)),
                })
            }
            Output::Parts(shared) => {
                shared.write_parts(span.start, len, fill)?;
                peers.barrier();
                if peers.rank() == 0 {
                    shared.finish()?;
                }
                Ok(Written {
                    bytes: HEADER_LEN as u64 + file.size,
                    compressed: None,
                })
            }
        }
    }
}

/// Where a solved layer's values are: in the work bytes of the phases ([`values_of`]), or in the
/// values of a layer solved in order of potential.
pub(super) enum Finished {
    Work(WorkBytes),
    Values(LayerValues),
}

impl Finished {
    /// The values to read, once the solve is over: borrowing `self` mutably, no thread of the
    /// solve writes them while they are read.
    pub(super) fn read(&mut self) -> FinishedValues<'_> {
        match self {
            Finished::Work(work) => FinishedValues::Work(work.all()),
            Finished::Values(values) => FinishedValues::Values(values.bytes()),
        }
    }
}

/// The values of a solved layer, read ([`Finished::read`]).
pub(super) enum FinishedValues<'a> {
    Work(&'a [AtomicU8]),
    Values(&'a [u8]),
}

impl FinishedValues<'_> {
    /// The values of this rank's share from its `from`th position on, into `out`.
    fn fill(&self, from: u64, out: &mut [u8]) {
        let from = from as usize;
        match self {
            FinishedValues::Work(work) => values_of(&work[from..], out),
            FinishedValues::Values(values) => out.copy_from_slice(&values[from..from + out.len()]),
        }
    }
}
