//! A move to play in any Kalah or Oware position, for a program that plays
//! ([`Tablebase::choose`]; the OpenSpiel bot is one).
//!
//! Where the one rule of what is answered ([`crate::plan::reach`]) answers the position, the
//! moves are perfect: read from the tables, or proved best by an exact search over them within
//! the caller's time limit. Elsewhere (Oware above its tables, whose positions repeat and are not
//! searched exactly; a Kalah search estimated longer than the limit) the moves are the best of a
//! search `depth` plies deep over the tables present, where a position the tables hold counts
//! its exact value and a position cut off counts half the difference between the seeds on each
//! side ([`granary_search::Solver::estimate`]): good play, not perfect, and [`Choice::perfect`]
//! says so.

use granary_rules::notation::format_position;
use granary_rules::{Rules, exit_value};
use serde::Serialize;

use crate::error::Error;
use crate::game::Mancala;
use crate::plan::{Reach, default_hash_mib};
use crate::tablebase::Tablebase;

/// The moves to play in a position, best first as found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The pits (1 to m from the mover's first) of the best moves found.
    pub best: Vec<usize>,
    /// The position after each of `best`, in the same order.
    pub after: Vec<String>,
    /// The value of the position for the player to move: exact when `perfect`, else the
    /// depth-limited estimate.
    pub value: i32,
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
    /// The depth-limited search: good play, not perfect.
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
    /// `limit` seconds answers it (`f64::INFINITY`: every Kalah position is searched exactly),
    /// else the best of a search `depth` plies deep (at least one) over the tables present. A
    /// finished game has no move: `best` is empty.
    ///
    /// # Errors
    /// Damaged tables, a saved cost model that cannot be read, a failed search.
    pub fn choose(&self, game: &Mancala, limit: f64, depth: u32) -> Result<Choice, Error> {
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
                    value: q.value,
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
                    value: s.value,
                    perfect: true,
                    source: ChoiceSource::Search,
                })
            }
            Reach::Beyond(_) => {
                let present = self.complete_up_to(kind);
                let set = self.tables(kind);
                let solver =
                    granary_search::Solver::new(rules.clone(), present.map(|p| (&*set, p)), 1)
                        .map_err(crate::SolveError::from)?;
                let mut nodes = 0;
                let options: Vec<(usize, i32)> = rules
                    .legal_moves(pos)
                    .iter()
                    .map(|lane| {
                        let child = rules.play(pos, lane);
                        let (gain, again) = pos.move_gain(&child);
                        let v = solver.estimate(&child, depth.max(1) - 1, &mut nodes);
                        (lane + 1, exit_value(gain, again, v))
                    })
                    .collect();
                let value = match options.iter().map(|&(_, v)| v).max() {
                    Some(v) => v,
                    // No move: the game is over, and its value is the terminal one.
                    None => solver.estimate(pos, 0, &mut nodes),
                };
                let best: Vec<usize> = options
                    .iter()
                    .filter(|&&(_, v)| v == value)
                    .map(|&(pit, _)| pit)
                    .collect();
                Ok(Choice {
                    after: after(&best),
                    best,
                    value,
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
