//! Many Kalah/Oware positions labelled at once from the tables: each position's value and, if
//! asked, every move's, in parallel (rayon) with the GIL released.
//!
//! A position the tables do not cover (more seeds than [`MAX_LAYER_SEEDS`], or a layer it needs
//! not built) is marked uncovered instead of failing the batch; a damaged table file still
//! fails it (`TableError`). Values do not depend on the stores (the tables hold the net score
//! of the seeds on the board for the player to move), so positions are pits and a side to move.
//!
//! Answers go back to Python as little-endian bytes that `numpy.frombuffer` reads without a
//! copy: values as `int16`, flags as one byte each (`bool`).

use granary::game::Counts;
use granary::{MAX_LAYER_SEEDS, Position, TableKind, Tablebase};
use granary_rules::Rules;
use granary_tables::TableSet;
use granary_tables::probe::{move_value, position_value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;

use crate::options::Options;
use crate::{input, raise};

/// Pits a side at most (the packed board's lanes).
const MAX_PITS: usize = 8;

/// What the tables say of one covered position.
#[derive(Clone, Copy)]
struct Label {
    value: i16,
    /// Each pit's move value, `None` where the move is not legal.
    moves: [Option<i16>; MAX_PITS],
}

/// The label of `pos`, `None` if the tables do not cover it.
fn label<R: Rules>(
    set: &TableSet,
    rules: &R,
    pos: &Position,
    pits: usize,
    with_moves: bool,
) -> Result<Option<Label>, granary::TableError> {
    if pos.board.seeds(pits) > MAX_LAYER_SEEDS {
        return Ok(None);
    }
    let covered = |result: Result<i32, granary::TableError>| match result {
        Ok(v) => Ok(Some(v as i16)),
        Err(granary::TableError::Missing { .. }) => Ok(None),
        Err(err) => Err(err),
    };
    let Some(value) = covered(position_value(set, rules, pos))? else {
        return Ok(None);
    };
    let mut moves = [None; MAX_PITS];
    if with_moves {
        for lane in rules.legal_moves(pos).iter() {
            let Some(v) = covered(move_value(set, rules, pos, lane))? else {
                return Ok(None);
            };
            moves[lane] = Some(v);
        }
    }
    Ok(Some(Label { value, moves }))
}

/// The batch's answer as bytes: values (`int16`), covered (`bool`), and with moves each pit's
/// move value (`int16`, 0 where not legal) and legality (`bool`), `pits` a position.
type Answer = (Py<PyBytes>, Py<PyBytes>, Option<(Py<PyBytes>, Py<PyBytes>)>);

fn label_all(
    py: Python<'_>,
    directory: &str,
    kind: TableKind,
    positions: &[Position],
    with_moves: bool,
) -> PyResult<Answer> {
    let pits = kind.pits;
    let tablebase = Tablebase::new(directory);
    let labels = py
        .detach(|| {
            let set = tablebase.tables(kind);
            let rules = kind.engine();
            positions
                .par_iter()
                .map(|pos| label(&set, &rules, pos, pits, with_moves))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| raise(e.into()))?;
    let mut values = Vec::with_capacity(2 * labels.len());
    let mut covered = Vec::with_capacity(labels.len());
    let mut move_values = Vec::new();
    let mut legal = Vec::new();
    for found in &labels {
        values.extend_from_slice(&found.map_or(0, |l| l.value).to_le_bytes());
        covered.push(u8::from(found.is_some()));
        if with_moves {
            let moves = found.map_or([None; MAX_PITS], |l| l.moves);
            for m in &moves[..pits] {
                move_values.extend_from_slice(&m.unwrap_or(0).to_le_bytes());
                legal.push(u8::from(m.is_some()));
            }
        }
    }
    let bytes = |b: &[u8]| PyBytes::new(py, b).unbind();
    Ok((
        bytes(&values),
        bytes(&covered),
        with_moves.then(|| (bytes(&move_values), bytes(&legal))),
    ))
}

/// Labels positions given as pit counts: `pits` holds `n` rows of `2 * m` counts as
/// little-endian `u64` (South's pits then North's, each from its owner's first pit; `m` the
/// game's pits a side, checked as any table kind's: `Setup::table_kind`), `to_move` one byte a
/// row (0 South, 1 North). Each row is checked as the library checks any position given as
/// counts (`granary::game::Counts`); the first that the packed board cannot hold raises
/// `ValueError` naming it.
#[pyfunction]
#[pyo3(signature = (directory, options, pits, to_move, with_moves))]
pub fn label_pits(
    py: Python<'_>,
    directory: &str,
    options: Options,
    pits: &[u8],
    to_move: &[u8],
    with_moves: bool,
) -> PyResult<Answer> {
    // Rows of too many or too few counts for a board are named as given.
    let kind = options.table_kind().map_err(|e| match e {
        granary::InputError::Pits(granary_rules::PitsError(m)) => {
            PyValueError::new_err(format!("positions: rows of {} pit counts: {e}", 2 * m))
        }
        e => input(e),
    })?;
    let m = kind.pits;
    if pits.len() != to_move.len() * 2 * m * 8 {
        return Err(PyValueError::new_err(format!(
            "positions: {} bytes of pit counts for {} positions of {m} pits a side",
            pits.len(),
            to_move.len()
        )));
    }
    let positions = pits
        .chunks_exact(2 * m * 8)
        .zip(to_move)
        .enumerate()
        .map(|(i, (row, &side))| {
            // At most 2 * 8 pits (the kind's), on the stack: no allocation a row.
            let mut counts_of = [0u64; 16];
            for (c, b) in counts_of.iter_mut().zip(row.chunks_exact(8)) {
                *c = u64::from_le_bytes(b.try_into().expect("8 bytes"));
            }
            let row = &counts_of[..2 * m];
            let counts = Counts {
                south: &row[..m],
                north: &row[m..],
                stores: [0, 0],
                to_move: u64::from(side),
            };
            counts
                .position(Some(m))
                .map(|(pos, _)| pos)
                .map_err(|e| PyValueError::new_err(format!("positions[{i}]: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    label_all(py, directory, kind, &positions, with_moves)
}

/// Labels positions written in the project's notation; all have the pits a side of the first
/// (or of `options`). Returns the pits a side with the answer.
#[pyfunction]
#[pyo3(signature = (directory, options, positions, with_moves))]
pub fn label_text(
    py: Python<'_>,
    directory: &str,
    mut options: Options,
    positions: Vec<String>,
    with_moves: bool,
) -> PyResult<(usize, Answer)> {
    let mut parsed = Vec::with_capacity(positions.len());
    let mut kind = None;
    for (i, text) in positions.iter().enumerate() {
        let game = options
            .setup()
            .mancala(options.name()?, Some(text))
            .map_err(|e| PyValueError::new_err(format!("positions[{i}]: {e}")))?;
        // Every position after the first must have its pits a side.
        options.pits = Some(game.variant.pits);
        kind = Some(game.kind());
        parsed.push(game.position);
    }
    let kind = match kind {
        Some(kind) => kind,
        None => options.table_kind().map_err(input)?,
    };
    Ok((
        kind.pits,
        label_all(py, directory, kind, &parsed, with_moves)?,
    ))
}
