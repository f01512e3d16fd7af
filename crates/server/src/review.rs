//! `POST /api/v1/review`: a game reviewed move by move against perfect play
//! ([`granary::Review`]), as a job ([`crate::jobs`]).
//!
//! The body is a JSON object (`game`, the options and `position` as query takes them, and
//! `moves`, an array of pits or Bao's moves) or, as `text/plain`, a game record
//! (`docs/notation.md`); at most [`MAX_PLIES`] moves in a body of at most [`MAX_BODY`] bytes.
//! The answer is the review with `setup` (the game in full: every option, the start, the moves)
//! and `record` (the game as a record, the review in its comments). Each position is answered
//! as query answers it: from the tables, or (Kalah) searched where the cost model expects at
//! most the server's search limit; a ply beyond that is `beyond`, with its reason.
//!
//! - 200 with the review: reviewed before (kept), or done within the request limit;
//! - 202 with `Location: /api/v1/jobs/{id}` and the job's report: still running (at once, with
//!   `Prefer: respond-async`, RFC 7240); the same game asked again joins its job;
//! - 503 with `Retry-After`: the server holds as many jobs as it takes;
//! - 400 for a body or a move that is wrong; the review's own failure has its status.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use granary::game::GameMove;
use granary::plan::Reach;
use granary::{AnyGame, GameName, GameRecord};
use serde_json::Value;

use crate::State;
use crate::error::ApiError;
use crate::jobs::{JobState, PoolOf, Started};
use crate::params::Params;
use crate::route::Route;

/// Most moves a review takes.
pub const MAX_PLIES: usize = 1000;
/// Largest review body, bytes; a larger one is 413.
pub const MAX_BODY: usize = 64 * 1024;

/// The review's route ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![Route::post("/api/v1/review", review).body_limit(MAX_BODY)]
}

/// The game of the body, its job (or kept answer), and the answer: the review, or the job to
/// follow.
async fn review(
    Shared(state): Shared<Arc<State>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let record = record_of(&headers, body)?;
    let at_once = headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("respond-async"));
    let total = record.moves().len();
    let (started, new) = state.jobs.start(record.to_string(), total)?;
    let job = match started {
        Started::Kept(review) => return Ok(Json(review).into_response()),
        Started::Job(job) => job,
    };
    if new {
        let pool = pool_of(&state, &record);
        crate::jobs::launch(&state, Arc::clone(&job), record, pool);
    }
    let report = if at_once {
        job.report()
    } else {
        job.finished_by(tokio::time::Instant::now() + state.timeout)
            .await
    };
    match report.state {
        JobState::Done => Ok(Json(report.result).into_response()),
        JobState::Failed => Err(ApiError::new(
            StatusCode::from_u16(report.status.unwrap_or(500))
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            report.error.unwrap_or_default(),
        )),
        _ => {
            let location = format!("/api/v1/jobs/{}", report.id);
            Ok((
                StatusCode::ACCEPTED,
                [(header::LOCATION, location)],
                Json(report),
            )
                .into_response())
        }
    }
}

/// Where a review of `record` runs: a game whose start reads the tables reads them at every
/// ply (seeds on the board never grow), small work; a Kalah game that starts above its tables
/// may search, among the searches.
fn pool_of(state: &State, record: &GameRecord) -> PoolOf {
    match record.game() {
        AnyGame::Mancala(mancala) => {
            let present = state.tablebase.complete_up_to(mancala.kind());
            match state.solved.reach(mancala, present) {
                Reach::Tables => PoolOf::Small,
                _ if record.game().name() == GameName::Kalah => PoolOf::Searches,
                _ => PoolOf::Small,
            }
        }
        AnyGame::Bao(..) => PoolOf::Small,
    }
}

/// The game a review's body gives: a record (`text/plain`), else a JSON object.
fn record_of(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<GameRecord, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                e.status(),
                format!("the body is larger than {} KiB", MAX_BODY / 1024),
            )
        } else {
            ApiError::new(e.status(), e.body_text())
        }
    })?;
    let plain = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/plain"));
    let record = if plain {
        let text = std::str::from_utf8(&body)
            .map_err(|_| ApiError::bad("the record is not UTF-8 text"))?;
        GameRecord::read(text).map_err(|e| ApiError::bad(format!("record: {e}")))?
    } else {
        json_record(&body)?
    };
    if record.moves().len() > MAX_PLIES {
        return Err(too_long(record.moves().len()));
    }
    Ok(record)
}

fn too_long(moves: usize) -> ApiError {
    ApiError::bad(format!(
        "the game has {moves} moves; a review takes at most {MAX_PLIES}"
    ))
}

/// The game of a JSON review body: `game`, the options and `position` as query takes them,
/// and `moves` (pits, or Bao's moves as written).
fn json_record(body: &[u8]) -> Result<GameRecord, ApiError> {
    let mut body: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    let object = body
        .as_object_mut()
        .ok_or_else(|| ApiError::bad("the body is not a JSON object"))?;
    let moves = object
        .remove("moves")
        .ok_or_else(|| ApiError::bad("'moves' is missing: an array of pits"))?;
    let moves = Params::json_moves(&moves).map_err(ApiError::bad)?;
    if moves.len() > MAX_PLIES {
        return Err(too_long(moves.len()));
    }
    let params = Params::from_json(object).map_err(ApiError::bad)?;
    let game = params.game().map_err(ApiError::bad)?;
    if params.get("ms").is_some() {
        return Err(ApiError::bad("review takes no 'ms'"));
    }
    let setup = params.setup().map_err(ApiError::bad)?;
    let moves: Vec<GameMove> = if game == GameName::Bao {
        moves.into_iter().map(GameMove::Bao).collect()
    } else {
        granary::game::parse_pits(&moves)?
            .into_iter()
            .map(GameMove::Pit)
            .collect()
    };
    Ok(GameRecord::new(
        game,
        &setup,
        params.get("position"),
        &moves,
    )?)
}
