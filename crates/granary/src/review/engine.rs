//! The engine's estimates of the plies beyond what is answered exactly ([`Estimator`]): one
//! search of the position before the move with every root move scored in full
//! ([`granary_search::Settings::all_moves`]), so that the best move's estimate and the played
//! move's come from the same tree and the estimated loss is never negative.

use granary_rules::Position;
use granary_search::solver::Worth;
use granary_search::{Engine, Evaluation, Settings};
use granary_tables::{TableKind, TableSet};

use super::PlyEstimate;
use crate::Cancel;
use crate::error::Error;
use crate::estimate::{Budget, EstimatedValue};

/// The engine a review estimates its plies beyond the exact reach with, over the complete
/// layers present, within a budget a ply. Its hash table is kept from ply to ply (consecutive
/// positions share their subtrees), so a review's estimates depend on its plies before, and
/// with a node budget are the same on every run of the same review.
#[derive(Debug)]
pub(super) struct Estimator<'t> {
    engine: Engine<'t, granary_rules::Engine, Evaluation>,
    budget: Budget,
}

impl<'t> Estimator<'t> {
    /// An estimator for `kind`'s positions over layers `0..=K` of `tables` (`present`: `K`,
    /// none if no layer is complete), within `budget` a ply, stopped by `cancel` (if given).
    ///
    /// # Errors
    /// A missing or bad layer, or no memory for the engine's hash table.
    pub(super) fn new(
        kind: TableKind,
        tables: &'t TableSet,
        present: Option<u32>,
        budget: Budget,
        cancel: Option<&Cancel>,
    ) -> Result<Estimator<'t>, Error> {
        let settings = Settings {
            all_moves: true,
            ..Settings::default()
        };
        let engine = crate::estimate::engine(kind, tables, present, settings, cancel)?;
        Ok(Estimator { engine, budget })
    }

    /// The error of a table read that failed in one of this engine's searches, if one did:
    /// the estimates since are unreliable.
    pub(super) fn tables_failed(&self) -> Option<crate::Error> {
        self.engine
            .tables_failed()
            .map(|err| crate::SolveError::from(err).into())
    }

    /// The engine's estimates of `pos` and of playing `pit` (1 to m) there, `reason` saying
    /// why there is no exact value; `None` if `pit` is not a legal move of `pos`.
    pub(super) fn estimate(
        &self,
        pos: &Position,
        pit: usize,
        reason: String,
    ) -> Option<PlyEstimate> {
        let a = self.engine.analyse(pos, self.budget.limits());
        let estimate_of = |lane: usize| {
            a.moves
                .iter()
                .find(|m| m.lane == lane)
                .map(|m| match m.worth {
                    Worth::Exact(v) | Worth::AtMost(v) => v,
                })
        };
        let played = estimate_of(pit.checked_sub(1)?)?;
        let estimated_best = a
            .moves
            .iter()
            .filter(|m| m.worth == Worth::Exact(a.value))
            .map(|m| m.lane + 1)
            .collect();
        Some(PlyEstimate {
            estimate: EstimatedValue::of(&a),
            estimated_best,
            estimate_played: played,
            estimated_loss: a.value - played,
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::game::{GameName, Setup};

    #[test]
    fn the_cancel_stops_the_engine_at_its_first_depth() {
        let dir = tempfile::tempdir().unwrap();
        let game = Setup::default().mancala(GameName::Oware, None).unwrap();
        let kind = game.kind();
        let tables = TableSet::new(dir.path(), kind);
        let cancel = Cancel::new();
        cancel.cancel();
        // An hour a ply: only the cancel ends this search before it is exact.
        let hour = Budget::Time(Duration::from_secs(3600));
        let estimator = Estimator::new(kind, &tables, None, hour, Some(&cancel)).unwrap();
        let e = estimator.estimate(&game.position, 3, "why".into()).unwrap();
        assert_eq!(e.estimate.depth, 1, "{e:?}");
        assert_eq!(e.estimated_loss, e.estimate.value - e.estimate_played);
        assert!(
            e.estimated_loss >= 0 && !e.estimated_best.is_empty(),
            "{e:?}"
        );
        assert!(
            estimator
                .estimate(&game.position, 7, "why".into())
                .is_none()
        );
    }
}
