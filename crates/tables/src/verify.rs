//! Checking a table file: header and length (by opening it), data checksum, every value in range, and a
//! sample of entries recomputed from their children (the value is the best move's value).

use std::path::Path;

use granary_rules::{Position, Rules};

use crate::error::TableError;
use crate::format::TableKind;
use crate::layer::read_header;
use crate::probe::{move_value, terminal_value};
use crate::set::TableSet;

/// What a checked layer holds.
#[derive(Clone, Debug)]
pub struct LayerCheck {
    pub kind: TableKind,
    pub seeds: u32,
    pub entries: u64,
    pub sampled: u64,
}

/// The kind of table a file says it is, from its header alone.
///
/// # Errors
/// If the header is unreadable or names no known game.
pub fn kind_of(path: &Path) -> Result<(TableKind, u32), TableError> {
    let (header, _) = read_header(path)?;
    let kind = TableKind::from_codes(
        header.game,
        header.rules,
        header.sweep,
        usize::from(header.pits),
    )
    .ok_or_else(|| TableError::Mismatch {
        path: path.into(),
        expected: "a kalah or oware table".into(),
        found: header.describe(),
    })?;
    Ok((kind, u32::from(header.seeds.get())))
}

/// Checks layer `seeds` of `set`: opening it checks header and length, then the data checksum; every value
/// must lie in `-seeds..=seeds`, and `sample` entries spread over the layer must equal the best of
/// their moves' values, read from the lower layers and this one.
///
/// # Errors
/// The first thing wrong, naming the file.
pub fn verify_layer(set: &TableSet, seeds: u32, sample: u64) -> Result<LayerCheck, TableError> {
    let layer = set.layer(seeds)?;
    let path = layer.path().to_path_buf();
    let n = seeds as i32;
    let mut bad = None;
    // One pass for the checksum and the range: a compressed layer is decompressed once.
    let mut crc = crc32fast::Hasher::new();
    layer.for_each_chunk(|first, entries| {
        crc.update(entries);
        if bad.is_none()
            && let Some(at) = entries
                .iter()
                .position(|&b| !(-n..=n).contains(&i32::from(b as i8)))
        {
            bad = Some((first + at as u64, entries[at] as i8));
        }
    })?;
    if crc.finalize() != layer.header().data_crc32.get() {
        return Err(TableError::DataChecksum { path });
    }
    if let Some((index, value)) = bad {
        return Err(TableError::Value {
            path,
            index,
            value,
            seeds,
        });
    }
    let kind = set.kind();
    let engine = kind.engine();
    let size = layer.index().size();
    let step = (size / sample.max(1)).max(1);
    let mut sampled = 0;
    for i in (0..size).step_by(step as usize) {
        let pos = Position::of_board(layer.index().unrank(i));
        let moves = engine.legal_moves(&pos);
        let expected = if moves.is_empty() {
            terminal_value(&engine, &pos)
        } else {
            let mut best = i32::MIN;
            for lane in moves.iter() {
                best = best.max(move_value(set, &engine, &pos, lane)?);
            }
            best
        };
        let found = i32::from(layer.try_value(i)?);
        if found != expected {
            return Err(TableError::Mismatch {
                path,
                expected: format!("entry {i} = {expected} (the best of its moves)"),
                found: format!("{found}"),
            });
        }
        sampled += 1;
    }
    Ok(LayerCheck {
        kind,
        seeds,
        entries: size,
        sampled,
    })
}
