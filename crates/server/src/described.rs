//! A Kalah or Oware position's answer as the API writes it ([`PositionAnswer`]): exact
//! ([`QueryAnswer`]: the library's query, with what each move leads to under perfect play
//! (final stores, result, margin) and the principal variation step by step), or beyond what is
//! answered exactly, the engine's estimate ([`EstimateAnswer`]), whose fields never share a
//! name with an exact value's. `GET /api/v1/query` answers it ([`crate::query`]), and a query's
//! job holds the exact one once done ([`crate::jobs`]).

use granary::Estimate;
use granary::outcome::{final_stores, result_word};
use granary::{Mancala, MoveValue, PvEnd, Query, Seeds, Side, Source};
use schemars::JsonSchema;
use serde::Serialize;

/// `GET /api/v1/query`'s answer: exact (with `value`), or the engine's estimate (with
/// `estimate`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PositionAnswer {
    Exact(QueryAnswer),
    Estimate(EstimateAnswer),
}

/// A position beyond what the server answers exactly: the engine's estimate, labelled as one
/// (`estimate`, with its depth and time; no `value`), and why there is no exact answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EstimateAnswer {
    #[serde(flatten)]
    pub estimate: Estimate,
    /// Why the position has no exact answer here, in a plain clause.
    pub beyond: String,
}

/// `GET /api/v1/query`'s answer: the library's query, with what each move leads to under
/// perfect play, the position's `margin`, and the principal variation step by step.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QueryAnswer {
    /// The tables' kind, e.g. `oware-6-awari`.
    pub tables: String,
    pub position: String,
    #[schemars(schema_with = "granary::schema::side")]
    pub to_move: &'static str,
    pub seeds_on_board: u32,
    /// The net score of the seeds on the board for the player to move.
    pub value: i32,
    /// Final stores `[south, north]` under perfect play.
    #[serde(rename = "final")]
    pub final_stores: [Seeds; 2],
    /// For the player to move, under perfect play.
    #[schemars(schema_with = "granary::schema::result")]
    pub result: &'static str,
    /// The mover's final store less the opponent's.
    pub margin: Seeds,
    pub moves: Vec<QueryMove>,
    /// The pits of the best moves.
    pub best: Vec<usize>,
    /// Best moves (pits) to the end of the game or into a repetition.
    pub pv: Vec<usize>,
    pub pv_end: PvEnd,
    pub pv_steps: Vec<PvStep>,
    pub source: Source,
}

/// A legal move, its value, and what it leads to under perfect play.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QueryMove {
    #[serde(flatten)]
    pub value: MoveValue,
    /// The final stores `[south, north]`.
    #[serde(rename = "final")]
    pub final_stores: [Seeds; 2],
    /// For the player to move before it.
    #[schemars(schema_with = "granary::schema::result")]
    pub result: &'static str,
    /// The mover's final store less the opponent's.
    pub margin: Seeds,
}

/// A move of the principal variation, the side that plays it and the position after it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PvStep {
    #[serde(rename = "move")]
    pub pit: usize,
    #[schemars(schema_with = "granary::schema::side")]
    pub side: &'static str,
    pub position: String,
}

/// `query` answered, with what each move leads to under perfect play: `final` (the final
/// stores `[south, north]`), `result` (`win`, `draw` or `loss` for the player to move) and
/// `margin` (the mover's final store less the opponent's); `margin` for the position too;
/// `pv_steps`, the principal variation's moves with the side that plays each and the position
/// after it.
#[must_use]
pub fn described(game: &Mancala, query: &Query) -> QueryAnswer {
    let pos = &game.position;
    let pits = game.kind().pits;
    let margin = |f: [Seeds; 2]| {
        Seeds(if pos.to_move == Side::South {
            f[0].0 - f[1].0
        } else {
            f[1].0 - f[0].0
        })
    };
    let moves = query
        .moves
        .iter()
        .map(|mv| {
            let finals = final_stores(pos, pits, mv.value);
            QueryMove {
                value: mv.clone(),
                final_stores: finals,
                result: result_word(pos, finals),
                margin: margin(finals),
            }
        })
        .collect();
    let mut pv_steps = Vec::new();
    let mut at = *game;
    for &pit in &query.pv {
        let Ok(after) = granary::show::show(&at, &[pit]) else {
            break;
        };
        pv_steps.push(PvStep {
            pit,
            side: at.position.to_move.name(),
            position: after.position,
        });
        at.position = after.pos;
    }
    QueryAnswer {
        tables: query.tables.clone(),
        position: query.position.clone(),
        to_move: query.to_move,
        seeds_on_board: query.seeds_on_board,
        value: query.value,
        final_stores: query.final_stores,
        result: query.result,
        margin: margin(query.final_stores),
        moves,
        best: query.best.clone(),
        pv: query.pv.clone(),
        pv_end: query.pv_end,
        pv_steps,
        source: query.source,
    }
}
