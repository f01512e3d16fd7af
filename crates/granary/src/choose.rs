//! A move to play in any Kalah or Oware position, for a program that plays
//! ([`Tablebase::choose`]; the OpenSpiel bot is one).
//!
//! Where the one rule of what is answered ([`crate::plan::reach`]) answers the position, the
//! moves are perfect: read from the tables, or proved best by an exact search over them within
//! the caller's time limit, and [`Choice::value`] is the position's exact value. Elsewhere
//! (Oware above its tables, whose positions repeat and are not searched exactly; a Kalah search
//! estimated longer than the limit or beyond the cost model's measured range) the move is the
//! engine's ([`Tablebase::estimate_with`], within the caller's [`Budget`]): good play, not
//! perfect. [`Choice::perfect`] says which; there `value` is `None` and
//! [`Choice::estimate`] holds the engine's estimate, never written as a value.

use granary_rules::Rules;
use granary_rules::notation::format_position;
use serde::Serialize;

use crate::error::Error;
use crate::estimate::{Budget, EstimatedValue};
use crate::game::Mancala;
use crate::plan::{Reach, default_hash_mib};
use crate::tablebase::Tablebase;

/// The moves to play in a position, best first as found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The pits (1 to m from the mover's first) of the best moves found: every move proved
    /// best, or the engine's one best move.
    pub best: Vec<usize>,
    /// The position after each of `best`, in the same order.
    pub after: Vec<String>,
    /// The exact value of the position for the player to move when `perfect`; `None` (in JSON
    /// absent) for the engine's moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// The engine's estimate of the position, with its depth, time and nodes, for the engine's
    /// moves (`source` `estimate`); `None` (in JSON absent) when `perfect`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<EstimatedValue>,
    /// Whether the best moves are proved best (tables, or an exact search).
    pub perfect: bool,
    /// Where the moves come from.
    pub source: ChoiceSource,
}

/// Where a [`Choice`] comes from. In JSON and text `tables`, `search` or `estimate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChoiceSource {
    /// Read from the tables.
    Tables,
    /// An exact search over the tables present.
    Search,
    /// The engine's search over the tables present: good play, not perfect.
    Estimate,
}

impl std::fmt::Display for ChoiceSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ChoiceSource::Tables => "tables",
            ChoiceSource::Search => "search",
            ChoiceSource::Estimate => "estimate",
        })
    }
}

impl Tablebase {
    /// The best moves of `game`'s position: perfect where [`Tablebase::reach`] with a limit of
    /// `limit` seconds answers it (`f64::INFINITY`: every Kalah search within the cost model's
    /// measured range), else the engine's best move over the tables present within `budget`
    /// ([`Tablebase::estimate_with`]). A finished game has no move: `best` is empty.
    ///
    /// # Errors
    /// Damaged tables, a saved cost model that cannot be read, a failed search, no memory for
    /// the engine's hash table.
    pub fn choose(&self, game: &Mancala, limit: f64, budget: Budget) -> Result<Choice, Error> {
        let kind = game.kind();
        let pos = &game.position;
        let rules = kind.engine();
        let after = |best: &[usize]| -> Vec<String> {
            best.iter()
                .map(|&pit| format_position(&rules.play(pos, pit - 1), kind.pits))
                .collect()
        };
        match self.reach(game, limit)? {
            Reach::Tables => {
                let q = self.query(game)?;
                Ok(Choice {
                    after: after(&q.best),
                    best: q.best,
                    value: Some(q.value),
                    estimate: None,
                    perfect: true,
                    source: ChoiceSource::Tables,
                })
            }
            Reach::Search { horizon, seconds } => {
                let s =
                    self.searched(game, horizon, default_hash_mib(Some(seconds)), None, false)?;
                let best: Vec<usize> = s
                    .moves
                    .iter()
                    .filter(|r| r.worth == crate::Worth::Exact(s.value))
                    .map(|r| r.lane + 1)
                    .collect();
                Ok(Choice {
                    after: after(&best),
                    best,
                    value: Some(s.value),
                    estimate: None,
                    perfect: true,
                    source: ChoiceSource::Search,
                })
            }
            Reach::Beyond(_) => {
                let e = self.estimate_with(game, budget, None)?;
                let best: Vec<usize> = e.best.into_iter().collect();
                Ok(Choice {
                    after: after(&best),
                    best,
                    value: None,
                    estimate: Some(e.estimate),
                    perfect: false,
                    source: ChoiceSource::Estimate,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ChoiceSource;

    #[test]
    fn a_source_reads_the_same_in_text_and_json() {
        for (source, word) in [
            (ChoiceSource::Tables, "tables"),
            (ChoiceSource::Search, "search"),
            (ChoiceSource::Estimate, "estimate"),
        ] {
            assert_eq!(source.to_string(), word);
            assert_eq!(serde_json::to_value(source).unwrap(), word);
        }
    }
}
