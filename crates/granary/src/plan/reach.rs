//! What is answered of a Kalah or Oware position given the tables present: one rule for every
//! front end (`Tablebase::query_within`, the server, Python's `Tablebase.query`, the OpenSpiel
//! bot).
//!
//! A position the tables present hold is read from them. A Kalah position above them is
//! searched exactly over them (nothing is built) when the cost model ([`CostModel`]) estimates
//! the search at no more than the time limit the caller sets, the search within the range the
//! model was measured on. Anything else is beyond what is answered, with a sentence that says
//! why and names no file or command: an Oware position above its tables (its positions repeat,
//! and the search is for games that do not, so Oware is answered from tables alone), a Kalah
//! search beyond the measured range (its estimate is no time to expect, whatever the limit), or
//! one estimated longer than the limit.

use granary_rules::Game;
use granary_tables::TableKind;

use super::{CostModel, measured_range};
use crate::units::human_seconds;

/// The longest search (estimated) a query of a position beyond the tables starts when its
/// caller sets no other limit, seconds.
pub const DEFAULT_SEARCH_SECONDS: f64 = 60.0;

/// The most seeds on the board a search answers: its values must fit a signed byte. Checked
/// by [`search_answers`] alone.
pub const SEARCH_MAX_SEEDS: u32 = 127;

/// How a position is answered ([`reach`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Reach {
    /// The tables present hold it.
    Tables,
    /// An exact search over layers `0..=horizon` present (`None`: no tables), estimated at
    /// `seconds`.
    Search { horizon: Option<u32>, seconds: f64 },
    /// Neither, within the limit.
    Beyond(Beyond),
}

/// Why a position is beyond what is answered, in a clause that names no file and no command
/// (`it has 48 seeds on the board, ...`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Beyond {
    /// More seeds than a search's values hold ([`SEARCH_MAX_SEEDS`]).
    #[error("it has {seeds} seeds on the board, more than the {SEARCH_MAX_SEEDS} a search answers")]
    TooManySeeds { seeds: u32 },
    /// Oware above its tables.
    #[error(
        "it has {seeds} seeds on the board, {}, and oware is answered from tables alone",
        present_tables(tables, *present)
    )]
    Oware {
        tables: String,
        seeds: u32,
        present: Option<u32>,
    },
    /// Kalah, whose search lies beyond the range the cost model was measured on
    /// ([`super::within_measured_range`]): its estimate is no time to expect, whatever the limit.
    #[error(
        "it has {seeds} seeds on the board, {}, and the search lies beyond the measured range of \
         the cost model ({}): no time is promised",
        present_tables(tables, *present),
        measured_range()
    )]
    Unmeasured {
        tables: String,
        seeds: u32,
        present: Option<u32>,
    },
    /// Kalah, whose search the cost model estimates at more than the limit.
    #[error(
        "it has {seeds} seeds on the board, {}, and the search would take about {} where {} is allowed",
        present_tables(tables, *present),
        human_seconds(*seconds),
        human_seconds(*limit)
    )]
    TooLong {
        tables: String,
        seeds: u32,
        present: Option<u32>,
        seconds: f64,
        limit: f64,
    },
}

/// `the tables of kalah-4-standard-owner present go up to 12 seeds`, or that there are none.
fn present_tables(tables: &str, present: Option<u32>) -> String {
    match present {
        Some(p) => format!("the tables of {tables} present go up to {p} seeds"),
        None => format!("no tables of {tables} are present"),
    }
}

/// Whether positions of `game` above its tables are searched (Kalah) rather than answered from
/// tables alone (Oware: its positions repeat, and the search is for games that do not): the
/// rule [`reach`] follows, for a front end that says which tables answer a game.
#[must_use]
pub fn searched_above_tables(game: Game) -> bool {
    matches!(game, Game::Kalah { .. })
}

/// Whether a search answers a position of `seeds` seeds on the board: at most
/// [`SEARCH_MAX_SEEDS`], the one check of that limit ([`reach`], [`crate::plan::advice`], a
/// solve's plan).
///
/// # Errors
/// [`Beyond::TooManySeeds`] above the limit.
pub fn search_answers(seeds: u32) -> Result<(), Beyond> {
    if seeds > SEARCH_MAX_SEEDS {
        Err(Beyond::TooManySeeds { seeds })
    } else {
        Ok(())
    }
}

/// How a position of `seeds` seeds of `kind` is answered with layers `0..=present` present,
/// searching only where the search lies within the cost model's measured range and is
/// estimated (by `model`, on `cores` cores) at no more than `limit` seconds (`f64::INFINITY`:
/// any search within that range).
#[must_use]
pub fn reach(
    kind: TableKind,
    seeds: u32,
    present: Option<u32>,
    limit: f64,
    model: &CostModel,
    cores: usize,
) -> Reach {
    if present.is_some_and(|p| p >= seeds) {
        return Reach::Tables;
    }
    let tables = kind.name();
    if !searched_above_tables(kind.game) {
        return Reach::Beyond(Beyond::Oware {
            tables,
            seeds,
            present,
        });
    }
    if let Err(why) = search_answers(seeds) {
        return Reach::Beyond(why);
    }
    let estimate = model.search(kind, seeds, present.unwrap_or(0), cores);
    let Some(seconds) = estimate.expected() else {
        return Reach::Beyond(Beyond::Unmeasured {
            tables,
            seeds,
            present,
        });
    };
    // A NaN estimate is beyond any limit.
    if seconds <= limit {
        Reach::Search {
            horizon: present,
            seconds,
        }
    } else {
        Reach::Beyond(Beyond::TooLong {
            tables,
            seeds,
            present,
            seconds,
            limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use granary_rules::{Capture, OwareRules, Sweep};

    use super::*;

    fn kalah(pits: usize) -> TableKind {
        TableKind {
            game: Game::Kalah {
                capture: Capture::Standard,
                sweep: Sweep::Owner,
            },
            pits,
        }
    }

    #[test]
    fn tables_then_a_search_within_the_limit_then_beyond() {
        let model = CostModel::default();
        let k = kalah(6);
        assert_eq!(reach(k, 20, Some(20), 0.0, &model, 2), Reach::Tables);
        // The limit is the cost model's estimate: just above it searches, just below refuses.
        let estimate = model.search_seconds(k, 48, 20, 2);
        assert!(estimate > 0.0);
        assert_eq!(
            reach(k, 48, Some(20), estimate, &model, 2),
            Reach::Search {
                horizon: Some(20),
                seconds: estimate
            }
        );
        let Reach::Beyond(why) = reach(k, 48, Some(20), estimate * 0.99, &model, 2) else {
            panic!("beyond the limit");
        };
        assert!(
            why.to_string().starts_with(
                "it has 48 seeds on the board, the tables of kalah-6-standard-owner present go \
                 up to 20 seeds, and the search would take about"
            ),
            "{why}"
        );
        // No limit: any Kalah search within the measured range.
        assert!(matches!(
            reach(k, 60, None, f64::INFINITY, &model, 2),
            Reach::Search { horizon: None, .. }
        ));
    }

    #[test]
    fn a_search_beyond_the_measured_range_is_beyond_whatever_the_limit() {
        let model = CostModel::default();
        let k = kalah(6);
        for present in [None, Some(32)] {
            assert_eq!(
                reach(k, 72, present, f64::INFINITY, &model, 2),
                Reach::Beyond(Beyond::Unmeasured {
                    tables: k.name(),
                    seeds: 72,
                    present
                })
            );
        }
        let Reach::Beyond(why) = reach(k, 72, Some(32), 0.0, &model, 2) else {
            panic!("beyond the measured range");
        };
        assert_eq!(
            why.to_string(),
            "it has 72 seeds on the board, the tables of kalah-6-standard-owner present go up to \
             32 seeds, and the search lies beyond the measured range of the cost model (measured \
             up to 60 seeds on 6 pits, with 24-seed tables): no time is promised"
        );
    }

    #[test]
    fn no_search_of_more_seeds_than_a_value_holds_whatever_the_limit() {
        let model = CostModel::default();
        let k = kalah(8);
        // 127 seeds a search holds, beyond the measured range; 128 it does not.
        assert!(matches!(
            reach(k, 127, Some(40), f64::INFINITY, &model, 2),
            Reach::Beyond(Beyond::Unmeasured { seeds: 127, .. })
        ));
        assert_eq!(
            reach(k, 128, Some(40), f64::INFINITY, &model, 2),
            Reach::Beyond(Beyond::TooManySeeds { seeds: 128 })
        );
        assert_eq!(search_answers(SEARCH_MAX_SEEDS), Ok(()));
        assert_eq!(
            search_answers(SEARCH_MAX_SEEDS + 1)
                .unwrap_err()
                .to_string(),
            "it has 128 seeds on the board, more than the 127 a search answers"
        );
    }

    #[test]
    fn kalah_is_searched_above_its_tables_and_oware_is_not() {
        assert!(searched_above_tables(kalah(6).game));
        for &rules in OwareRules::ALL {
            assert!(!searched_above_tables(Game::Oware { rules }));
        }
    }

    #[test]
    fn oware_above_its_tables_is_beyond_whatever_the_limit() {
        let oware = TableKind {
            game: Game::Oware {
                rules: OwareRules::Awari,
            },
            pits: 6,
        };
        let model = CostModel::default();
        assert_eq!(reach(oware, 16, Some(16), 0.0, &model, 2), Reach::Tables);
        let Reach::Beyond(why) = reach(oware, 17, Some(16), f64::INFINITY, &model, 2) else {
            panic!("oware is not searched");
        };
        assert_eq!(
            why.to_string(),
            "it has 17 seeds on the board, the tables of oware-6-awari present go up to 16 \
             seeds, and oware is answered from tables alone"
        );
        let Reach::Beyond(why) = reach(oware, 3, None, f64::INFINITY, &model, 2) else {
            panic!("oware is not searched");
        };
        assert!(
            why.to_string()
                .contains("no tables of oware-6-awari are present"),
            "{why}"
        );
    }
}
