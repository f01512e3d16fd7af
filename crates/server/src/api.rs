//! The JSON API, version 1. Every answer is JSON; every error is `{"error": "..."}` with 400
//! (the request is wrong), 404 (no such path), 422 (the position is beyond what the server
//! answers: a plain sentence, never a file or a build), 503 (queue full, too slow; with
//! `Retry-After`) or 500 (the server's tables are damaged).
//!
//! - `GET /api/v1/variants`: games, options, defaults, the tables present, and the tables built
//!   in the background for reviews ([`crate::prepare`]);
//! - `GET /api/v1/query`: see [`crate::query`];
//! - `POST /api/v1/review` and `/api/v1/jobs/{id}`: see [`crate::review`] and [`crate::jobs`];
//! - `GET /api/v1/show?game=&position=&moves=`: the position after moves, as data;
//! - `GET /api/v1/bao/move` and `/api/v1/bao/hint`: see [`crate::bao`].
//!
//! Each endpoint reads its parameters into its request struct ([`crate::params`]) and answers
//! with a typed answer; both describe it in the API's description ([`crate::openapi`]).

use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use axum::http::{StatusCode, Uri};
use granary::game::GameInfo;
use granary::tablebase::KindSummary;
use granary::{GameName, Setup};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::State;
use crate::error::{ApiError, Failure};
use crate::params::{self, Params};
use crate::pool::Pool;
use crate::route::{Doc, Route};

pub(crate) type Answer<T> = Result<Json<T>, ApiError>;

/// Runs `work` in `pool` once it has a free slot, within the timeout (queueing included); 503 if
/// the queue is full or the time runs out.
pub(crate) async fn blocking<T: Send + 'static>(
    state: &Arc<State>,
    pool: &Pool,
    work: impl FnOnce(&State) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let shared = Arc::clone(state);
    pool.run(state.timeout, move || work(&shared))
        .await?
        .map_err(|e| e.within(state.tablebase.root()))
}

/// [`blocking`], the answer as JSON.
pub(crate) async fn blocking_json<T: Send + 'static>(
    state: &Arc<State>,
    pool: &Pool,
    work: impl FnOnce(&State) -> Result<T, ApiError> + Send + 'static,
) -> Answer<T> {
    blocking(state, pool, work).await.map(Json)
}

/// What an endpoint whose positions are never beyond its answers fails with: a request that is
/// wrong, damaged tables, a full queue or a late answer.
pub(crate) const FAILURES: &[Failure] = &[
    Failure::BAD_REQUEST,
    Failure::INTERNAL,
    Failure::UNAVAILABLE,
];

/// The API's routes ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![
        Route::get(
            "/api/v1/variants",
            variants,
            Doc {
                id: "variants",
                summary: "Games, their options and defaults, the tables present, and those being \
                          built for reviews.",
                description: "Takes no parameters; answered at once.",
                answer: "The catalogue and the table directory's kinds.",
                failures: &[Failure::INTERNAL],
            },
        ),
        Route::get(
            "/api/v1/show",
            show,
            Doc {
                id: "show",
                summary: "The position after moves, as data.",
                description: "From the game's start, or from `position`, after `moves`.",
                answer: "Where the game stands.",
                failures: FAILURES,
            },
        ),
    ]
}

/// Any other path.
pub async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(200).collect();
    ApiError::new(StatusCode::NOT_FOUND, format!("no such path: {path}"))
}

/// `GET /api/v1/variants`'s answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Variants {
    /// Every game, its options and defaults.
    pub games: Vec<GameInfo>,
    /// The kinds of tables in the table directory.
    pub tables: Vec<KindSummary>,
    /// The tables `granary serve` builds in the background for reviews of Kalah(6,4) (both
    /// capture rules, up to `seeds`), and how far; `null` where it builds none.
    pub preparing: Option<crate::prepare::Status>,
}

async fn variants(Shared(state): Shared<Arc<State>>) -> Answer<Variants> {
    let tables = state
        .tablebase
        .present()
        .map_err(|e| ApiError::from(e).within(state.tablebase.root()))?;
    Ok(Json(Variants {
        games: granary::game::catalogue(),
        tables,
        preparing: state.preparing.status(),
    }))
}

/// `GET /api/v1/show`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::any_game)]
pub struct ShowParams {
    #[serde(default, deserialize_with = "params::text")]
    pub game: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub rules: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub sweep: Option<String>,
    #[serde(default, deserialize_with = "params::whole")]
    pub pits: Option<usize>,
    #[serde(default, deserialize_with = "params::whole")]
    pub seeds: Option<u32>,
    #[serde(default, deserialize_with = "params::text")]
    pub nyumba: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub takasia: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub tax: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    #[schemars(with = "String")]
    pub position: Option<String>,
    #[serde(default, deserialize_with = "params::moves")]
    #[schemars(with = "String")]
    pub moves: Option<Vec<String>>,
}

/// `GET /api/v1/show`'s answer: a Kalah or Oware position, or a Bao one.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AfterMoves {
    TwoRow(granary::show::Shown),
    Bao(granary::bao::BaoShown),
}

async fn show(
    Shared(state): Shared<Arc<State>>,
    Params(asked): Params<ShowParams>,
) -> Answer<AfterMoves> {
    let game = params::game(asked.game.as_deref()).map_err(ApiError::bad)?;
    let setup = Setup {
        pits: asked.pits,
        seeds: asked.seeds,
        rules: asked.rules,
        sweep: asked.sweep,
        nyumba: asked.nyumba,
        takasia: asked.takasia,
        tax: asked.tax,
    };
    let moves = asked.moves.unwrap_or_default();
    let position = asked.position;
    // Off the async runtime, within the limits. Kalah and Oware moves are small work (never
    // behind a search); Bao's move generation follows relay sowings to their end (endless ones
    // are detected), which can take long: among the searches, so that it never holds up the
    // small work.
    let pool = if game == GameName::Bao {
        &state.searches
    } else {
        &state.small
    };
    blocking_json(&state, pool, move |_| {
        Ok(if game == GameName::Bao {
            let (rules, pos) = setup.bao(position.as_deref())?;
            AfterMoves::Bao(granary::bao::show(&rules, pos, &moves)?)
        } else {
            let mancala = setup.mancala(game, position.as_deref())?;
            let pits = granary::game::parse_pits(&moves)?;
            AfterMoves::TwoRow(granary::show::show(&mancala, &pits)?)
        })
    })
    .await
}
