//! How a rule set knows its pits a side: read at run time ([`AnyPits`]), or a constant
//! ([`ConstPits`]) that the compiler folds into every board operation of a monomorphised
//! search or builder.
//!
//! A board's lanes are found by shifts of `8 x lane` bits and masks of `8 x m` bits
//! ([`crate::Board`]); with `m` known at compile time those become immediate operands and the
//! loops over pits unroll, and the search takes less time (measured: docs/benchmarks.md). The
//! rules are the same code either way: [`crate::Kalah`] is generic over its pit count, and a
//! test plays every position of a perft tree with both.

use std::fmt::Debug;

/// The board the search and the builders are also compiled for (`with_const_pits::<
/// COMPILED_PITS>()` where they pick their rules): 6 pits a side, the board of every published
/// Kalah and Oware result. Any other board runs the same code with the count read at run time.
pub const COMPILED_PITS: usize = 6;

/// The number of pits a side of a rule set.
pub trait PitCount: Copy + Send + Sync + Debug + 'static {
    /// Pits a side.
    fn get(self) -> usize;
}

/// Pits a side known at run time (any board of `1..=8` pits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AnyPits(pub(crate) usize);

impl PitCount for AnyPits {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }
}

/// `M` pits a side, a constant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ConstPits<const M: usize>;

impl<const M: usize> PitCount for ConstPits<M> {
    #[inline(always)]
    fn get(self) -> usize {
        M
    }
}
