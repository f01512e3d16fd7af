//! Perfect play in a Kalah or Oware position, read from complete tables.

use granary_rules::notation::format_position;
use granary_rules::{Position, Rules};
use granary_tables::TableSet;
use granary_tables::probe::{move_value, position_value, principal_variation};
use serde::Serialize;

use crate::error::{Error, SolveError};
use crate::game::Mancala;
use crate::outcome::{PV_LIMIT, Seeds, final_stores, result_word};
use crate::tablebase::{Tablebase, build_command};

/// A legal move and its value for the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
pub struct Query {
    /// The tables' kind, e.g. `oware-6-awari`.
    pub tables: String,
    pub position: String,
    pub to_move: &'static str,
    pub seeds_on_board: u32,
    /// The net score of the seeds on the board for the player to move.
    pub value: i32,
    /// Final stores `[south, north]` under perfect play.
    #[serde(rename = "final")]
    pub final_stores: [Seeds; 2],
    /// `win`, `draw` or `loss` for the player to move.
    pub result: &'static str,
    pub moves: Vec<MoveValue>,
    /// The pits of the best moves.
    pub best: Vec<usize>,
    /// Best moves (pits) to the end of the game or into a repetition.
    pub pv: Vec<usize>,
    /// `game over` or `cycle` (endless play).
    pub pv_end: &'static str,
    /// Where the answer comes from: `tables`, or `search` (Kalah positions the tables do not
    /// cover, searched over the tables present).
    pub source: &'static str,
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
        if cycle { "cycle" } else { "game over" },
        "tables",
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
        pv_end: &'static str,
        source: &'static str,
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

/// Seeds beyond the tables present that [`Tablebase::query_or_search`] still searches.
pub const SEARCH_MARGIN: u32 = 10;

impl Tablebase {
    /// [`Tablebase::query`] where the tables cover the position; otherwise, for a Kalah position
    /// of at most [`SEARCH_MARGIN`] seeds more than the tables present (or `SEARCH_MARGIN` + 8
    /// with none), an exact search over the tables present (nothing is built). The answer says
    /// which (`source`).
    ///
    /// # Errors
    /// As [`Tablebase::query`] when the position is not covered and too large to search; a
    /// failed search (its tables damaged).
    pub fn query_or_search(&self, game: &Mancala) -> Result<Query, Error> {
        let kind = game.kind();
        let pos = &game.position;
        let seeds = pos.board.seeds(kind.pits);
        let present = self.complete_up_to(kind);
        let limit = present.map_or(SEARCH_MARGIN + 8, |p| p + SEARCH_MARGIN);
        let searchable = matches!(kind.game, granary_rules::Game::Kalah { .. }) && seeds <= limit;
        if present.is_some_and(|p| p >= seeds) || !searchable {
            return Ok(self.query(game)?);
        }
        self.search(game, present, crate::plan::DEFAULT_HASH_MIB, Some(1))
    }

    /// An exact search of `game`'s position over layers `0..=horizon` present (none: no
    /// tables; nothing is built), every move exact, with a hash table of `hash_mib` MiB on
    /// `threads` threads (default: one a core): the answer as the tables would give it,
    /// `source` `search`.
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
        let kind = game.kind();
        let pos = &game.position;
        let seeds = pos.board.seeds(kind.pits);
        let settings = crate::solve::Settings {
            tables: horizon.map_or(crate::TableChoice::None, crate::TableChoice::Seeds),
            hash_mib: Some(hash_mib),
            threads,
            all_moves: true,
            in_memory: Some(false),
            ..crate::solve::Settings::default()
        };
        let prepared = crate::solve::prepare(self, game.variant, seeds, &settings, &())?;
        let solution = crate::solve::Oracle::new(&prepared)?.solve(pos, true, &())?;
        let rules = kind.engine();
        let moves = solution
            .moves
            .iter()
            .map(|r| MoveValue {
                pit: r.lane + 1,
                value: r.value,
                position: format_position(&rules.play(pos, r.lane), kind.pits),
            })
            .collect();
        Ok(Query::new(
            kind,
            pos,
            solution.value,
            moves,
            &solution.pv,
            "game over",
            "search",
        ))
    }

    /// What the tables say of `game`'s position: its value, every move's, a principal variation.
    ///
    /// # Errors
    /// The position's layer (or one below it) missing or bad, naming the build command; more
    /// seeds than tables hold.
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
                "this position has {seeds} seeds on the board; tables hold at most {limit}: use `granary solve`"
            )));
        }
        let set = self.tables(kind);
        match set.layer(seeds) {
            Err(err @ granary_tables::TableError::Missing { .. }) => {
                return Err(SolveError::NeedsTables(format!(
                    "{err}; this position has {seeds} seeds on the board: build with `{}`",
                    build_command(kind, seeds)
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
