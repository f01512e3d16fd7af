//! Bao's engine over the API: its move in a position, and every legal move with its evaluation.
//!
//! - `GET /api/v1/bao/move?position=&ms=` (and Bao's options): the engine's move, searched for
//!   `ms` milliseconds;
//! - `GET /api/v1/bao/hint?position=` (and Bao's options): every legal move with the engine's
//!   evaluation, best first, and at a start position the result a proof search proves, if any
//!   (proved once a rule set, [`crate::State::start_proofs`]).
//!
//! Both run among the searches ([`crate::State::searches`]); `game`, if given, must be `bao`.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State as Shared;
use axum::http::StatusCode;
use granary::Setup;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::State;
use crate::api::{Answer, FAILURES, blocking_json};
use crate::error::{ApiError, Failure};
use crate::params::{self, Params};
use crate::route::{Doc, Route};

/// Bao's routes ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![
        Route::get(
            "/api/v1/bao/move",
            bao_move,
            Doc {
                id: "baoMove",
                summary: "The Bao engine's move.",
                description: "The engine's move in the position, searched for `ms` milliseconds.",
                answer: "The engine's move.",
                failures: &[
                    Failure::BAD_REQUEST,
                    Failure::GAME_OVER,
                    Failure::INTERNAL,
                    Failure::UNAVAILABLE,
                ],
            },
        ),
        Route::get(
            "/api/v1/bao/hint",
            bao_hint,
            Doc {
                id: "baoHint",
                summary: "Every legal Bao move with the engine's evaluation, best first.",
                description: "Each move's 3-ply score for the mover, in seeds; at a start \
                              position, what a proof-number search proves of it, if anything.",
                answer: "The moves, best first.",
                failures: FAILURES,
            },
        ),
    ]
}

/// `GET /api/v1/bao/move`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::bao)]
pub struct MoveParams {
    #[serde(default, deserialize_with = "params::text")]
    pub game: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub rules: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub nyumba: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub takasia: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub tax: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    #[schemars(with = "String")]
    pub position: Option<String>,
    #[serde(default, deserialize_with = "params::whole")]
    pub ms: Option<u64>,
}

/// Bao's rule set and position as `setup` names them, for `endpoint`, whose `game` is Bao or
/// left out.
fn bao_game(
    endpoint: &str,
    game: Option<&str>,
    setup: &Setup,
    position: Option<&str>,
) -> Result<(granary::BaoRules, granary::BaoPosition), ApiError> {
    if game.is_some_and(|g| g != "bao") {
        return Err(ApiError::bad(format!(
            "{endpoint} is for bao; leave 'game' out"
        )));
    }
    Ok(setup.bao(position)?)
}

/// Bao's options as the library takes them.
fn bao_setup(
    rules: Option<String>,
    nyumba: Option<String>,
    takasia: Option<String>,
    tax: Option<String>,
) -> Setup {
    Setup {
        rules,
        nyumba,
        takasia,
        tax,
        ..Setup::default()
    }
}

async fn bao_move(
    Shared(state): Shared<Arc<State>>,
    Params(asked): Params<MoveParams>,
) -> Answer<granary::bao::EngineMove> {
    let setup = bao_setup(asked.rules, asked.nyumba, asked.takasia, asked.tax);
    let millis = params::millis(asked.ms).map_err(ApiError::bad)?;
    let (rules, pos) = bao_game(
        "bao/move",
        asked.game.as_deref(),
        &setup,
        asked.position.as_deref(),
    )?;
    blocking_json(&state, &state.searches, move |_| {
        let mut player = granary::bao::Player::new(&rules);
        player
            .choose(&pos, Duration::from_millis(millis))
            .map(|(mv, _)| mv)
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "the player to move has no legal move: the game is over",
                )
            })
    })
    .await
}

/// Tree nodes the proof of a start position may use (Bao la kujifunza's takes under 9,000).
pub const START_PROOF_NODES: usize = 200_000;

/// `GET /api/v1/bao/hint`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::bao)]
pub struct HintParams {
    #[serde(default, deserialize_with = "params::text")]
    pub game: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub rules: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub nyumba: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub takasia: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub tax: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    #[schemars(with = "String")]
    pub position: Option<String>,
}

/// `GET /api/v1/bao/hint`'s answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Hint {
    /// The rule set described.
    pub rules: String,
    pub position: String,
    #[schemars(schema_with = "granary::schema::side")]
    pub to_move: &'static str,
    /// Every legal move, best first.
    pub moves: Vec<HintMove>,
    /// At a start position, what a proof-number search proves of it; `null` if nothing.
    pub proven: Option<Proof>,
}

/// A legal Bao move and its evaluation.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HintMove {
    #[serde(rename = "move")]
    pub text: String,
    /// The engine's 3-ply score for the mover, in seeds.
    pub score: f64,
}

/// What a proof-number search proves of a start position.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Proof {
    #[schemars(schema_with = "granary::schema::side")]
    pub winner: &'static str,
    /// The winning move, if the player to move wins.
    #[serde(rename = "move")]
    pub best: Option<String>,
    pub nodes: u64,
    pub how: String,
}

async fn bao_hint(
    Shared(state): Shared<Arc<State>>,
    Params(asked): Params<HintParams>,
) -> Answer<Hint> {
    let setup = bao_setup(asked.rules, asked.nyumba, asked.takasia, asked.tax);
    let (rules, pos) = bao_game(
        "bao/hint",
        asked.game.as_deref(),
        &setup,
        asked.position.as_deref(),
    )?;
    let start = granary::BaoPosition::start(&rules);
    blocking_json(&state, &state.searches, move |s| {
        let mut player = granary::bao::Player::new(&rules);
        let mut moves: Vec<(String, f64)> = player.hint(&pos);
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        let at_start = granary::bao::format_position(&pos) == granary::bao::format_position(&start);
        let proven = if at_start {
            s.start_proofs
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .entry(rules.describe())
                .or_insert_with(|| start_proof(&rules, &start))
                .clone()
        } else {
            None
        };
        Ok(Hint {
            rules: rules.describe(),
            position: granary::bao::format_position(&pos),
            to_move: pos.to_move.name(),
            moves: moves
                .into_iter()
                .map(|(text, score)| HintMove { text, score })
                .collect(),
            proven,
        })
    })
    .await
}

/// What a proof-number search proves of a start position, once per rule set: `None` if it
/// proves nothing within [`START_PROOF_NODES`].
fn start_proof(rules: &granary::BaoRules, start: &granary::BaoPosition) -> Option<Proof> {
    let proof = granary::bao::prove_pns(rules, start, START_PROOF_NODES);
    let mover = start.to_move;
    let winner = match proof.value {
        "win" => mover,
        "loss" => mover.other(),
        _ => return None,
    };
    let start_name = rules.start.name();
    let published = if start_name == "kujifunza" {
        "; the published result of Donkers & Uiterwijk, Programming Bao (2002)"
    } else {
        ""
    };
    Some(Proof {
        winner: winner.name(),
        best: proof.best,
        nodes: proof.nodes,
        how: format!(
            "proved by proof-number search over every reply ({} tree nodes), as \
             `granary solve bao --rules {start_name}` proves it{published}",
            proof.nodes
        ),
    })
}
