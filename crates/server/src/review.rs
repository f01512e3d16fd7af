//! `POST /api/v1/review`: a game reviewed move by move against perfect play
//! ([`granary::Review`]), as a job ([`crate::jobs`]).
//!
//! The body is a JSON object (`game`, the options and `position` as query takes them, and
//! `moves`, an array of pits or Bao's moves) or, as `text/plain`, a game record
//! (`docs/notation.md`); at most [`MAX_PLIES`] moves in a body of at most [`MAX_BODY`] bytes.
//! The answer is the review with `setup` (the game in full: every option, the start, the moves)
//! and `record` (the game as a record, the review in its comments). Each position is answered
//! as query answers it: from the tables, or (Kalah) searched where the cost model expects at
//! most the server's search limit; a ply beyond that is `estimated`, with the engine's
//! estimates ([`crate::Config::review_estimate`] a ply) in fields of their own (`estimate`,
//! `estimated_best`, `estimate_played`, `estimated_loss`; never `value` or `loss`, never
//! marked) and its reason, or with no estimate `beyond`, with its reason.
//!
//! - 200 with the review: reviewed before (kept), or done within the request limit;
//! - 202 with `Location: /api/v1/jobs/{id}` and the job's report: still running (at once, with
//!   `Prefer: respond-async`, RFC 7240); the same game asked again joins its job;
//! - 503 with `Retry-After`: the server holds as many jobs as it takes;
//! - 400 for a body or a move that is wrong; the review's own failure has its status.
//!
//! The body is read by [`ReviewBody`] (a JSON body into [`ReviewRequest`], [`crate::params`]),
//! `Prefer` by [`RespondAsync`], and the answer is a [`ReviewAnswer`]; each describes itself in
//! the API's description ([`crate::openapi`]).

use std::sync::Arc;

use aide::generate::GenContext;
use aide::openapi::{Operation, Parameter, ParameterData, ParameterSchemaOrContent, RequestBody};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request, State as Shared};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use granary::game::GameMove;
use granary::plan::Reach;
use granary::record::RecordReview;
use granary::{AnyGame, GameName, GameRecord, Setup};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::State;
use crate::error::{ApiError, Failure};
use crate::jobs::{JobResult, JobState, PoolOf, Report, Started};
use crate::params;
use crate::route::{self, Doc, Route};

/// Most moves a review takes.
pub const MAX_PLIES: usize = 1000;
/// Largest review body, bytes; a larger one is 413.
pub const MAX_BODY: usize = 64 * 1024;

/// The review's route ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![
        Route::post(
            "/api/v1/review",
            review,
            Doc {
                id: "review",
                summary: "A game reviewed move by move against perfect play.",
                description: "Each position of the game answered as `query` answers it; a ply \
                              whose position is beyond what the server answers exactly is \
                              `estimated`: the engine's estimates of the position and of the \
                              move played (`estimate`, `estimated_best`, `estimate_played`, \
                              `estimated_loss`; never `value` or `loss`, and never marked), \
                              searched for a fraction of a second a ply, with its `reason` \
                              (`beyond`, with its reason and no number, where the server gives \
                              no estimates; every ply of Bao). At most 1,000 moves, in a body \
                              of at most 64 KiB. The review runs as a job: the answer is 200 \
                              with the review when it is kept from an earlier review or done \
                              within the request limit, else 202 with the job's report and \
                              `Location: /api/v1/jobs/{id}` to follow it. With `Prefer: \
                              respond-async` the answer is 202 at once unless the review is \
                              kept. The same game asked again while its job runs joins that \
                              job.",
                answer: "The game reviewed.",
                failures: &[
                    Failure::BAD_REQUEST,
                    Failure::TOO_LARGE,
                    Failure::BEYOND,
                    Failure::INTERNAL,
                    Failure::UNAVAILABLE,
                ],
            },
        )
        .body_limit(MAX_BODY),
    ]
}

/// The game of the body, its job (or kept answer), and the answer: the review, or the job to
/// follow.
async fn review(
    Shared(state): Shared<Arc<State>>,
    RespondAsync(at_once): RespondAsync,
    ReviewBody(record): ReviewBody,
) -> Result<ReviewAnswer, ApiError> {
    let total = record.moves().len();
    let (started, new) = state.jobs.start(record.to_string(), total)?;
    let job = match started {
        Started::Kept(review) => return Ok(ReviewAnswer::Done(review)),
        Started::Job(job) => job,
    };
    if new {
        let pool = pool_of(&state, &record);
        crate::jobs::launch(&state, Arc::clone(&job), record, pool);
    }
    if at_once {
        // 202 whatever the job's state by now: a review not kept before the request is a job
        // when asked at once, however fast it runs.
        return Ok(ReviewAnswer::Running(job.report()));
    }
    let report = job
        .finished_by(tokio::time::Instant::now() + state.timeout)
        .await;
    match (report.state, report.result.clone()) {
        (JobState::Done, Some(JobResult::Review(review))) => Ok(ReviewAnswer::Done(review)),
        (JobState::Failed, _) => Err(ApiError::new(
            StatusCode::from_u16(report.status.unwrap_or(500))
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            report.error.unwrap_or_default(),
        )),
        _ => Ok(ReviewAnswer::Running(report)),
    }
}

/// A review's answer: the review (200), or its job still running (202, with `Location`).
#[derive(Debug)]
pub enum ReviewAnswer {
    Done(Arc<RecordReview>),
    Running(Report),
}

impl IntoResponse for ReviewAnswer {
    fn into_response(self) -> Response {
        match self {
            ReviewAnswer::Done(review) => Json(review).into_response(),
            ReviewAnswer::Running(report) => crate::jobs::accepted(report),
        }
    }
}

impl aide::OperationOutput for ReviewAnswer {
    type Inner = RecordReview;

    fn inferred_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, aide::openapi::Response)> {
        let running = crate::jobs::accepted_response(
            ctx,
            "The review runs as a job: follow it at `Location`.",
        );
        vec![
            (
                Some(200),
                route::json_response::<RecordReview>(ctx, "The game reviewed."),
            ),
            (Some(202), running),
        ]
    }
}

/// Whether the request asks for the answer at once (`Prefer: respond-async`, RFC 7240).
#[derive(Debug)]
pub struct RespondAsync(pub bool);

impl<S: Send + Sync> FromRequestParts<S> for RespondAsync {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(RespondAsync(respond_async(&parts.headers)))
    }
}

fn respond_async(headers: &HeaderMap) -> bool {
    headers
        .get_all("prefer")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("respond-async"))
}

impl aide::OperationInput for RespondAsync {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let prefer = Parameter::Header {
            parameter_data: ParameterData {
                name: "Prefer".into(),
                description: Some(
                    "`respond-async`: answer 202 with the job at once instead of waiting up to \
                     the request limit."
                        .into(),
                ),
                required: false,
                format: ParameterSchemaOrContent::Schema(aide::openapi::SchemaObject {
                    json_schema: ctx.schema.subschema_for::<String>(),
                    example: None,
                    external_docs: None,
                }),
                extensions: Default::default(),
                deprecated: None,
                example: None,
                examples: Default::default(),
                explode: None,
            },
            style: aide::openapi::HeaderStyle::Simple,
        };
        aide::operation::add_parameters(ctx, operation, [prefer]);
    }
}

/// A review's JSON body: the game (`game`, the options and `position` as query takes them,
/// numbers as numbers or strings, `null` as not given) and the moves played.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::any_game, transform = moves_required)]
pub struct ReviewRequest {
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
    /// The moves played, in order: pits (Kalah, Oware), moves written out such as `A6R` (Bao).
    #[serde(default, deserialize_with = "params::json_moves")]
    #[schemars(with = "Vec<GameMove>")]
    pub moves: Option<Vec<String>>,
}

/// `moves` is required, at most [`MAX_PLIES`] of them.
fn moves_required(schema: &mut schemars::Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(required)) = object.get_mut("required") {
        required.push("moves".into());
    }
    if let Some(Value::Object(moves)) = object
        .get_mut("properties")
        .and_then(|p| p.get_mut("moves"))
    {
        moves.insert("maxItems".into(), MAX_PLIES.into());
    }
}

/// The game a review's body gives: a record (`text/plain`), else a JSON object.
#[derive(Debug)]
pub struct ReviewBody(pub GameRecord);

impl<S: Send + Sync> FromRequest<S> for ReviewBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let headers = request.headers().clone();
        let body = Bytes::from_request(request, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    e.status(),
                    format!("the body is larger than {} KiB", MAX_BODY / 1024),
                )
            } else {
                ApiError::new(e.status(), e.body_text())
            }
        })?;
        record_of(&headers, &body).map(ReviewBody)
    }
}

impl aide::OperationInput for ReviewBody {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let json = route::media(params::inputs::<ReviewRequest>());
        let text = route::media(schemars::json_schema!({
            "type": "string",
            "description": "A game record, as docs/notation.md's \"Game records\" writes it: tags \
                            such as `[Game \"kalah\"]`, then the moves."
        }));
        aide::operation::set_body(
            ctx,
            operation,
            RequestBody {
                description: Some(
                    "The game: a JSON object, or a game record as `text/plain`.".into(),
                ),
                content: [
                    ("application/json".into(), json),
                    ("text/plain".into(), text),
                ]
                .into_iter()
                .collect(),
                required: true,
                extensions: Default::default(),
            },
        );
    }
}

/// Where a review of `record` runs: a game whose start reads the tables reads them at every
/// ply (seeds on the board never grow), small work; a Kalah game that starts above its tables
/// may search, and a game that starts beyond the exact reach is estimated by the engine, among
/// the searches.
fn pool_of(state: &State, record: &GameRecord) -> PoolOf {
    match record.game() {
        AnyGame::Mancala(mancala) => {
            let present = state.tablebase.complete_up_to(mancala.kind());
            match state.solved.reach(mancala, present) {
                Reach::Tables => PoolOf::Small,
                Reach::Beyond(_) if state.review_estimate.is_some() => PoolOf::Searches,
                _ if record.game().name() == GameName::Kalah => PoolOf::Searches,
                _ => PoolOf::Small,
            }
        }
        AnyGame::Bao(..) => PoolOf::Small,
    }
}

/// The game a review's body gives: a record (`text/plain`), else a JSON object.
fn record_of(headers: &HeaderMap, body: &[u8]) -> Result<GameRecord, ApiError> {
    let plain = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/plain"));
    let record = if plain {
        let text =
            std::str::from_utf8(body).map_err(|_| ApiError::bad("the record is not UTF-8 text"))?;
        GameRecord::read(text).map_err(|e| ApiError::bad(format!("record: {e}")))?
    } else {
        json_record(body)?
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

/// The game of a JSON review body ([`ReviewRequest`]).
fn json_record(body: &[u8]) -> Result<GameRecord, ApiError> {
    let body: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    let Value::Object(object) = body else {
        return Err(ApiError::bad("the body is not a JSON object"));
    };
    let asked: ReviewRequest = params::body(object, "review").map_err(ApiError::bad)?;
    let moves = asked
        .moves
        .ok_or_else(|| ApiError::bad("'moves' is missing: an array of pits"))?;
    if moves.len() > MAX_PLIES {
        return Err(too_long(moves.len()));
    }
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
        asked.position.as_deref(),
        &moves,
    )?)
}
