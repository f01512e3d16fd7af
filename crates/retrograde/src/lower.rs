//! The finished lower layers that a layer's moves leave into, and a move out of the layer.

use granary_tables::Layer;

use crate::owners::Owners;

/// The best exit of a position with no move leaving the layer, as a value byte holds it: below
/// every value and every exit (they never reach -128).
pub(crate) const NO_EXIT: i8 = i8::MIN;

/// The finished lower layers, checked and mapped, and how the first pass reads them.
pub(crate) struct Lower<'a> {
    pub(crate) layers: Vec<&'a Layer>,
    /// `Some(entries)`: the first pass reads the lower layers in tiles of at most that many
    /// entries ([`crate::sweep`]); `None`: at random, in rank order of the layer built.
    pub(crate) tile: Option<u64>,
    /// `Some`: a distributed build's first pass asks each lower-layer entry of the rank that
    /// holds it ([`crate::owners`]), reading neither at random nor in tiles.
    pub(crate) owners: Option<Owners>,
}

/// A move out of the layer, or a finished game's value.
pub(crate) enum Exit {
    Final(i32),
    /// A move that gains `gain` and leads to entry `rank` of lower layer `seeds`, the mover
    /// moving `again` or not ([`granary_rules::exit_value`]).
    Lower {
        seeds: u32,
        rank: u64,
        gain: i32,
        again: bool,
    },
}

impl Exit {
    #[inline]
    pub(crate) fn value(&self, lower: &Lower<'_>) -> i32 {
        match *self {
            Exit::Final(value) => value,
            Exit::Lower {
                seeds,
                rank,
                gain,
                again,
            } => granary_rules::exit_value(
                gain,
                again,
                i32::from(lower.layers[seeds as usize].value(rank)),
            ),
        }
    }
}
