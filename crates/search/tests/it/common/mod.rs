//! What the search tests share: the plain minimax on the reference rules they check against.

use std::collections::HashMap;

use granary_rules::Side;
use granary_rules::reference::{RefPosition, Reference};

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
