//! A record reviewed through the one entry point that every front end (the CLI, the API,
//! Python) takes ([`crate::Tablebase::review_record`]): the review, the game in full, and the
//! review written back into the record ([`RecordReview`]).

use serde::Serialize;

use super::{Described, GameRecord};

/// A record reviewed: the review, the game in full, and the record written back with the
/// review in its comments. In JSON the review's fields, `setup` (the game in full) and
/// `record` (the record written back).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordReview {
    #[serde(flatten)]
    pub review: crate::Review,
    pub setup: Described,
    pub record: String,
}

impl crate::Tablebase {
    /// Reviews `record`'s moves ([`crate::Tablebase::review_game`], searches estimated at up
    /// to `limit` seconds, the engine's estimates beyond within `estimate`, each ply told to
    /// `watch`) and writes the review back into it.
    ///
    /// # Errors
    /// As [`crate::Tablebase::review_game`].
    pub fn review_record(
        &self,
        record: &GameRecord,
        limit: f64,
        estimate: Option<crate::estimate::Budget>,
        watch: &dyn crate::review::Watch,
    ) -> Result<RecordReview, crate::ReviewError> {
        let review =
            self.review_game(&record.game, &record.game_moves(), limit, estimate, watch)?;
        Ok(RecordReview {
            setup: record.described(),
            record: record.with_review(&review).to_string(),
            review,
        })
    }
}
