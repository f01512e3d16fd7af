//! What a review is given and tells as it goes ([`Watch`]): a review with searches is long
//! work, which a front end shows ply by ply, may stop, and may feed with answers it keeps.

use crate::Cancel;
use crate::game::Mancala;
use crate::query::Query;

use super::Ply;

/// A review's companion ([`crate::Tablebase::review`]). Every method has a default that does
/// nothing; `()` watches nothing. The methods are called on the reviewing thread, in the
/// game's order, and should return quickly.
pub trait Watch {
    /// The request that stops the review: it is looked at before each ply, and the review's
    /// searches heed it ([`Cancel`]); the review then ends with
    /// [`super::ReviewError::Cancelled`].
    fn cancel(&self) -> Option<&Cancel> {
        None
    }

    /// The answer kept for `game`'s position from earlier work, if any. Answers are exact, so
    /// a kept one stands for the position's own answer, whatever the tables present or the
    /// search limit: the review neither reads nor searches that position.
    fn known(&self, game: &Mancala) -> Option<Query> {
        let _ = game;
        None
    }

    /// `answer`, for `game`'s position, was found by a search: worth keeping for
    /// [`Watch::known`].
    fn searched(&self, game: &Mancala, answer: &Query) {
        let _ = (game, answer);
    }

    /// `ply` is reviewed, of `total` plies in the game; the plies come in order, each once.
    fn ply(&self, ply: &Ply, total: usize) {
        let _ = (ply, total);
    }
}

/// Watches nothing.
impl Watch for () {}
