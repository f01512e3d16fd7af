//! A job of a distributed solve as the words it travels in between the ranks (`JOB` in
//! `jobs.rs`): its id, the board's low and high 64 bits, the stores and the side to move in one
//! word, and the window's two ends. Built with or without the `mpi` feature, so that its tests
//! run in every build.

// Only the ranks (feature `mpi`) send jobs.
#![cfg_attr(not(feature = "mpi"), allow(dead_code))]

use granary_rules::{Board, Position, Side};

/// The words of job `id`: searching `pos` in the window `alpha..beta`.
pub(super) fn encode(id: u64, pos: &Position, alpha: i32, beta: i32) -> [u64; 6] {
    let meta = u64::from(pos.stores[0])
        | u64::from(pos.stores[1]) << 8
        | u64::from(pos.to_move == Side::North) << 16;
    [
        id,
        pos.board.0 as u64,
        (pos.board.0 >> 64) as u64,
        meta,
        alpha as i64 as u64,
        beta as i64 as u64,
    ]
}

/// The job [`encode`] wrote into `words` (`None` unless they are six).
pub(super) fn decode(words: &[u64]) -> Option<(u64, Position, i32, i32)> {
    let &[id, low, high, meta, alpha, beta] = words else {
        return None;
    };
    let pos = Position {
        board: Board(u128::from(low) | u128::from(high) << 64),
        stores: [meta as u8, (meta >> 8) as u8],
        to_move: if meta >> 16 & 1 == 1 {
            Side::North
        } else {
            Side::South
        },
    };
    Some((id, pos, alpha as i64 as i32, beta as i64 as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_travels_unchanged() {
        for (stores, side) in [([0, 0], Side::South), ([37, 255], Side::North)] {
            let pos = Position {
                board: Board(0x0102_0304_0506_0708_090a_0b0c_0d0e_0f10),
                stores,
                to_move: side,
            };
            let words = encode(7, &pos, -72, 3);
            let (id, back, alpha, beta) = decode(&words).unwrap();
            assert_eq!((id, alpha, beta), (7, -72, 3));
            assert_eq!(back, pos);
        }
        assert!(decode(&[1, 2, 3]).is_none());
    }
}
