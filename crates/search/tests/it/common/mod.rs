//! What the search tests share: the plain minimax on the reference rules they check against,
//! and 6-pit tables built into a temporary directory.

use std::collections::HashMap;

use granary_retrograde::{BuildOptions, build_layers};
use granary_rules::reference::{RefPosition, Reference};
use granary_rules::{Game, Side};
use granary_tables::{TableKind, TableSet};

/// Plain minimax with memo on the reference rules: the mover's final lead from here (stores
/// included), so it shares no convention with the solver either.
pub fn minimax(
    reference: &Reference,
    pos: &RefPosition,
    memo: &mut HashMap<RefPosition, i32>,
) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let me = usize::from(pos.to_move == Side::North);
    let moves = reference.legal_moves(pos);
    let value = if moves.is_empty() {
        let fin = reference.outcome(pos).unwrap();
        fin[me] as i32 - fin[1 - me] as i32
    } else {
        moves
            .into_iter()
            .map(|pit| {
                let child = reference.play(pos, pit);
                let v = minimax(reference, &child, memo);
                if child.to_move == pos.to_move { v } else { -v }
            })
            .max()
            .unwrap()
    };
    memo.insert(pos.clone(), value);
    value
}

/// 6-pit tables of `game`, layers `0..=max`, built into a temporary directory (kept while the
/// returned handle lives).
pub fn six_pit_tables(game: Game, max: u32) -> (tempfile::TempDir, TableSet) {
    tables(game, 6, max)
}

/// Tables of `game` on a board of `pits` pits a side, layers `0..=max`, built into a temporary
/// directory (kept while the returned handle lives).
pub fn tables(game: Game, pits: usize, max: u32) -> (tempfile::TempDir, TableSet) {
    let dir = tempfile::tempdir().unwrap();
    let kind = TableKind { game, pits };
    build_layers(
        dir.path(),
        kind,
        max,
        BuildOptions {
            threads: Some(2),
            memory: None,
            compress: None,
            checkpoint_every: None,
            region: None,
        },
        &(),
    )
    .unwrap();
    let set = TableSet::new(dir.path(), kind);
    (dir, set)
}
