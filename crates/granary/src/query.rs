//! Perfect play in a Kalah or Oware position, read from complete tables, or searched over them
//! where the one rule of what is answered beyond the tables allows ([`crate::plan::reach`]).

use std::fmt;

use granary_rules::notation::format_position;
use granary_rules::{Position, Rules};
use granary_tables::TableSet;
use granary_tables::probe::{move_value, position_value, principal_variation};
use serde::Serialize;

use crate::error::{Error, SolveError};
use crate::game::Mancala;
use crate::machine::Machine;
use crate::outcome::{PV_LIMIT, Seeds, final_stores, result_word};
use crate::plan::{CostModel, DEFAULT_SEARCH_SECONDS, Reach, advice, default_hash_mib, reach};
use crate::tablebase::Tablebase;

/// A legal move and its value for the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MoveValue {
    /// The pit, 1 to m from the mover's first pit.
    #[serde(rename = "move")]
    pub pit: usize,
    pub value: i32,
    /// The position after the move.
    pub position: String,
}

/// What the tables say of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Query {
    /// The tables' kind, e.g. `oware-6-awari`.
    pub tables: String,
    pub position: String,
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::side"))]
    pub to_move: &'static str,
    pub seeds_on_board: u32,
    /// The net score of the seeds on the board for the player to move.
    pub value: i32,
    /// Final stores `[south, north]` under perfect play.
    #[serde(rename = "final")]
    pub final_stores: [Seeds; 2],
    /// `win`, `draw` or `loss` for the player to move.
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::result"))]
    pub result: &'static str,
    pub moves: Vec<MoveValue>,
    /// The pits of the best moves.
    pub best: Vec<usize>,
    /// Best moves (pits) to the end of the game or into a repetition.
    pub pv: Vec<usize>,
    /// How `pv` ends: the game over, or a repetition (endless play).
    pub pv_end: PvEnd,
    /// Where the answer comes from: the tables, or a search over them.
    pub source: Source,
}

/// Where a query's answer comes from. In JSON and text `tables` or `search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Read from the tables.
    Tables,
    /// An exact search over the tables present (a Kalah position the tables do not cover).
    Search,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Tables => "tables",
            Source::Search => "search",
        })
    }
}

/// How a principal variation ends. In JSON and text `game over` or `cycle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PvEnd {
    /// The game is over.
    #[serde(rename = "game over")]
    GameOver,
    /// The position repeats: perfect play goes on for ever.
    #[serde(rename = "cycle")]
    Cycle,
}

impl fmt::Display for PvEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PvEnd::GameOver => "game over",
            PvEnd::Cycle => "cycle",
        })
    }
}

/// Reads everything about `pos` from `set` (whose layers up to its seeds must be present).
///
/// # Errors
/// A missing or bad layer, or tables that contradict themselves.
pub fn query<R: Rules>(set: &TableSet, rules: &R, pos: &Position) -> Result<Query, SolveError> {
    let pits = rules.pits();
    let value = position_value(set, rules, pos)?;
    let mut moves = Vec::new();
    for lane in rules.legal_moves(pos).iter() {
        moves.push(MoveValue {
            pit: lane + 1,
            value: move_value(set, rules, pos, lane)?,
            position: format_position(&rules.play(pos, lane), pits),
        });
    }
    if let Some(best) = moves.iter().map(|m| m.value).max()
        && best != value
    {
        return Err(SolveError::Inconsistent { value, best });
    }
    let (pv, cycle) = principal_variation(set, rules, *pos, PV_LIMIT)?;
    Ok(Query::new(
        set.kind(),
        pos,
        value,
        moves,
        &pv,
        if cycle { PvEnd::Cycle } else { PvEnd::GameOver },
        Source::Tables,
    ))
}

impl Query {
    /// The answer for `pos` of `kind`: `value`, the moves' values, a principal variation of
    /// lanes; the rest is derived.
    fn new(
        kind: granary_tables::TableKind,
        pos: &Position,
        value: i32,
        moves: Vec<MoveValue>,
        pv: &[usize],
        pv_end: PvEnd,
        source: Source,
    ) -> Query {
        let pits = kind.pits;
        let final_stores = final_stores(pos, pits, value);
        Query {
            tables: kind.name(),
            position: format_position(pos, pits),
            to_move: pos.to_move.name(),
            seeds_on_board: pos.board.seeds(pits),
            value,
            final_stores,
            result: result_word(pos, final_stores),
            best: moves
                .iter()
                .filter(|m| m.value == value)
                .map(|m| m.pit)
                .collect(),
            moves,
            pv: pv.iter().map(|l| l + 1).collect(),
            pv_end,
            source,
        }
    }
}

impl Tablebase {
    /// [`Tablebase::query_within`] with searches estimated at up to
    /// [`DEFAULT_SEARCH_SECONDS`].
    ///
    /// # Errors
    /// As [`Tablebase::query_within`].
    pub fn query_or_search(&self, game: &Mancala) -> Result<Query, Error> {
        self.query_within(game, DEFAULT_SEARCH_SECONDS)
    }

    /// What the tables say of `game`'s position where they hold it; otherwise, as
    /// [`crate::plan::reach`] rules (a Kalah position whose search the cost model estimates at
    /// no more than `limit` seconds), an exact search over the tables present, nothing built.
    /// The answer says which ([`Query::source`]).
    ///
    /// # Errors
    /// A position beyond that rule (Oware above its tables, a longer Kalah search): why, and
    /// what answers it on this machine ([`crate::plan::advice`]); as [`Tablebase::query`]; a
    /// failed search (its tables damaged).
    pub fn query_within(&self, game: &Mancala, limit: f64) -> Result<Query, Error> {
        self.query_reached(game, self.reach(game, limit)?)
    }

    /// [`Tablebase::query_within`] of a position whose [`Tablebase::reach`] is `reach`, for a
    /// caller that asked it already (a review asks it of every ply).
    ///
    /// # Errors
    /// As [`Tablebase::query_within`].
    pub fn query_reached(&self, game: &Mancala, reach: Reach) -> Result<Query, Error> {
        self.query_searching(game, reach, None)
    }

    /// [`Tablebase::query_reached`], a search asked of `searcher` where one is given (a
    /// review's plies share one, and so its transposition table: each position's search starts
    /// from what the one before it found), else of a search of its own.
    ///
    /// # Errors
    /// As [`Tablebase::query_within`].
    pub(crate) fn query_searching(
        &self,
        game: &Mancala,
        reach: Reach,
        searcher: Option<&crate::solve::Oracle<'_>>,
    ) -> Result<Query, Error> {
        let kind = game.kind();
        let layer = self
            .tables(kind)
            .layer_path(game.position.board.seeds(kind.pits));
        match reach {
            Reach::Tables => Ok(self.query(game)?),
            // Something that is not a table file where the position's layer belongs: what is
            // wrong with it, not a search around it.
            _ if layer.exists() && !layer.is_file() => Ok(self.query(game)?),
            Reach::Search { .. } if let Some(oracle) = searcher => {
                let solution = oracle.solve(&game.position, true, &())?;
                Ok(searched_query(game, &solution))
            }
            Reach::Search { horizon, seconds } => {
                self.search(game, horizon, default_hash_mib(Some(seconds)), None)
            }
            Reach::Beyond(why) => Err(SolveError::NeedsTables(format!(
                "this position is beyond what a query answers: {why}; {}",
                self.advice(game)
            ))
            .into()),
        }
    }

    /// How `game`'s position is answered from this directory ([`crate::plan::reach`]), with
    /// searches estimated at up to `limit` seconds (`f64::INFINITY`: any) by the cost model
    /// `granary calibrate` saved (else the defaults) on this machine's cores.
    ///
    /// # Errors
    /// A saved cost model that cannot be read.
    pub fn reach(&self, game: &Mancala, limit: f64) -> Result<Reach, SolveError> {
        let mut reaches = self.reaches(game.variant, &[game.position], limit)?;
        Ok(reaches.remove(0))
    }

    /// [`Tablebase::reach`] of each of `positions` of `variant`, the cost model read and the
    /// tables present looked up once for all of them (a review's plies).
    ///
    /// # Errors
    /// As [`Tablebase::reach`].
    pub fn reaches(
        &self,
        variant: granary_rules::Variant,
        positions: &[Position],
        limit: f64,
    ) -> Result<Vec<Reach>, SolveError> {
        let kind = crate::table_kind(variant);
        let model = CostModel::load()?;
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let present = self.complete_up_to(kind);
        Ok(positions
            .iter()
            .map(|p| {
                reach(
                    kind,
                    p.board.seeds(kind.pits),
                    present,
                    limit,
                    &model,
                    cores,
                )
            })
            .collect())
    }

    /// What answers `game`'s position on this machine, given the tables present, in a clause
    /// ([`crate::plan::advice`]).
    #[must_use]
    pub fn advice(&self, game: &Mancala) -> String {
        advice(
            game,
            self.complete_up_to(game.kind()),
            &Machine::detect(self.root()),
            &CostModel::load().unwrap_or_default(),
        )
    }

    /// The `granary build` command of the tables `game`'s position needs, where this machine's
    /// free disk holds them ([`crate::plan::advised_build`]).
    #[must_use]
    pub fn advised_build(&self, game: &Mancala) -> Option<String> {
        crate::plan::advised_build(
            game,
            self.complete_up_to(game.kind()),
            &Machine::detect(self.root()),
            &CostModel::load().unwrap_or_default(),
        )
    }

    /// An exact search of `game`'s position over layers `0..=horizon` present (none: no
    /// tables; nothing is built), every move exact, with a hash table of `hash_mib` MiB on
    /// `threads` threads (default: one a core): the answer as the tables would give it,
    /// [`Source::Search`].
    ///
    /// # Errors
    /// Tables missing or damaged, or a hash table that cannot be had.
    pub fn search(
        &self,
        game: &Mancala,
        horizon: Option<u32>,
        hash_mib: usize,
        threads: Option<usize>,
    ) -> Result<Query, Error> {
        let solution = self.searched(game, horizon, hash_mib, threads, true)?;
        Ok(searched_query(game, &solution))
    }

    /// A solve of `game`'s position over layers `0..=horizon` present (nothing is built), every
    /// move exact if `all_moves`, else the best exact and the others bounds.
    ///
    /// # Errors
    /// As [`Tablebase::search`].
    pub(crate) fn searched(
        &self,
        game: &Mancala,
        horizon: Option<u32>,
        hash_mib: usize,
        threads: Option<usize>,
        all_moves: bool,
    ) -> Result<granary_search::Solution, Error> {
        let seeds = game.position.board.seeds(game.variant.pits);
        let prepared =
            self.prepare_search(game.variant, seeds, horizon, hash_mib, threads, all_moves)?;
        Ok(crate::solve::Oracle::new(&prepared)?.solve(&game.position, all_moves, &())?)
    }

    /// The tables (layers `0..=horizon` present, nothing built) and the plan of searches of
    /// positions of up to `seeds` seeds of `variant`, for an [`crate::solve::Oracle`].
    ///
    /// # Errors
    /// As [`Tablebase::search`].
    pub(crate) fn prepare_search(
        &self,
        variant: granary_rules::Variant,
        seeds: u32,
        horizon: Option<u32>,
        hash_mib: usize,
        threads: Option<usize>,
        all_moves: bool,
    ) -> Result<crate::solve::Prepared, Error> {
        let settings = crate::solve::Settings {
            tables: horizon.map_or(crate::TableChoice::None, crate::TableChoice::Seeds),
            hash_mib: Some(hash_mib),
            threads,
            all_moves,
            in_memory: Some(false),
            ..crate::solve::Settings::default()
        };
        crate::solve::prepare(self, variant, seeds, &settings, &())
    }

    /// What the tables say of `game`'s position: its value, every move's, a principal variation.
    ///
    /// # Errors
    /// The position's layer (or one below it) missing or bad, or more seeds than tables hold:
    /// naming what answers it on this machine ([`crate::plan::advice`]).
    pub fn query(&self, game: &Mancala) -> Result<Query, SolveError> {
        self.query_checked(game, false)
    }

    /// [`Tablebase::query`], first checking the data checksums of the layers up to the
    /// position's (every byte read) if `verify`.
    ///
    /// # Errors
    /// As [`Tablebase::query`], or a layer whose data does not match its checksum.
    pub fn query_checked(&self, game: &Mancala, verify: bool) -> Result<Query, SolveError> {
        let kind = game.kind();
        let pos = &game.position;
        let seeds = pos.board.seeds(kind.pits);
        let limit = granary_index::MAX_LAYER_SEEDS;
        if seeds > limit {
            return Err(SolveError::NeedsTables(format!(
                "this position has {seeds} seeds on the board; tables hold at most {limit}: {}",
                self.advice(game)
            )));
        }
        let set = self.tables(kind);
        match set.layer(seeds) {
            Err(granary_tables::TableError::Missing { path }) => {
                // What to do is the advice, which fits this machine (not always a build).
                return Err(SolveError::NeedsTables(format!(
                    "{}: table not built; this position has {seeds} seeds on the board: {}",
                    path.display(),
                    self.advice(game)
                )));
            }
            Err(err) => return Err(err.into()),
            Ok(_) => {}
        }
        if verify {
            self.verify_checksums(kind, seeds)?;
        }
        query(&set, &kind.engine(), pos)
    }
}

/// The answer a search's `solution` (every move exact) gives for `game`'s position.
fn searched_query(game: &Mancala, solution: &granary_search::Solution) -> Query {
    let kind = game.kind();
    let pos = &game.position;
    let rules = kind.engine();
    let moves = crate::solve::exact_moves(solution)
        .iter()
        .map(|r| MoveValue {
            pit: r.lane + 1,
            value: r.value,
            position: format_position(&rules.play(pos, r.lane), kind.pits),
        })
        .collect();
    Query::new(
        kind,
        pos,
        solution.value,
        moves,
        &solution.pv,
        PvEnd::GameOver,
        Source::Search,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_and_ends_read_the_same_in_json_and_text() {
        for (source, word) in [(Source::Tables, "tables"), (Source::Search, "search")] {
            assert_eq!(source.to_string(), word);
            assert_eq!(
                serde_json::to_string(&source).unwrap(),
                format!("\"{word}\"")
            );
        }
        for (end, words) in [(PvEnd::GameOver, "game over"), (PvEnd::Cycle, "cycle")] {
            assert_eq!(end.to_string(), words);
            assert_eq!(serde_json::to_string(&end).unwrap(), format!("\"{words}\""));
        }
    }
}
