//! The JSON API, version 1. Every answer is JSON; every error is `{"error": "..."}` with 400
//! (the request is wrong), 404 (no such path), 422 (tables do not cover the position), 503 (queue
//! full or too slow; `Retry-After`) or 500 (the server's tables are damaged).
//!
//! - `GET /api/v1/variants`: games, options, defaults, and the tables present;
//! - `GET /api/v1/query?game=&rules=&pits=&position=`: value, final score, every move with its
//!   value and resulting position, principal variation (Kalah, Oware);
//! - `GET /api/v1/show?game=&position=&moves=`: the position after moves, as data;
//! - `GET /api/v1/bao/move?position=&ms=` (and Bao's options): the engine's move.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{RawQuery, State as Shared};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use granary::{GameName, SolveError, TableError};
use serde_json::{Value, json};

use crate::State;
use crate::params::Params;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// The message with the server's table directory taken out of its paths: a client sees
    /// `kalah-6-empty-owner/layer-048.tbl`, never where the server keeps its files.
    fn within(mut self, root: &std::path::Path) -> ApiError {
        let mut roots = vec![root.to_path_buf()];
        if let Ok(canonical) = root.canonicalize() {
            roots.push(canonical);
        }
        for r in roots {
            let r = r.display().to_string();
            if r.is_empty() {
                continue;
            }
            self.message = self
                .message
                .replace(&format!("{r}/"), "")
                .replace(&r, "the table directory");
        }
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Json(json!({ "error": self.message }));
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            (self.status, [(header::RETRY_AFTER, "1")], body).into_response()
        } else {
            (self.status, body).into_response()
        }
    }
}

impl From<granary::Error> for ApiError {
    fn from(err: granary::Error) -> ApiError {
        let status = match &err {
            granary::Error::Input(_) | granary::Error::Solve(SolveError::TooManySeeds { .. }) => {
                StatusCode::BAD_REQUEST
            }
            granary::Error::Solve(SolveError::NeedsTables(_) | SolveError::Plan(_))
            | granary::Error::Table(TableError::Missing { .. })
            | granary::Error::Solve(SolveError::Table(TableError::Missing { .. })) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, err.to_string())
    }
}

impl From<granary::InputError> for ApiError {
    fn from(err: granary::InputError) -> ApiError {
        ApiError::bad(err.to_string())
    }
}

impl From<SolveError> for ApiError {
    fn from(err: SolveError) -> ApiError {
        granary::Error::from(err).into()
    }
}

type Answer = Result<Json<Value>, ApiError>;

/// Runs `work` on the blocking pool once a search slot is free, within the timeout (queueing
/// included); 503 if the queue is full or the time runs out.
async fn blocking<T: serde::Serialize + Send + 'static>(
    state: &Arc<State>,
    work: impl FnOnce(&State) -> Result<T, ApiError> + Send + 'static,
) -> Answer {
    use std::sync::atomic::Ordering::SeqCst;
    let limit: Duration = state.timeout;
    let late = || {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the answer takes longer than {} s", limit.as_secs_f64()),
        )
    };
    let deadline = tokio::time::Instant::now() + limit;
    let permit = match Arc::clone(&state.searches).try_acquire_owned() {
        Ok(permit) => permit,
        Err(_) => {
            if state.waiting.fetch_add(1, SeqCst) >= state.max_queue {
                state.waiting.fetch_sub(1, SeqCst);
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many requests are waiting; try again shortly",
                ));
            }
            let acquired =
                tokio::time::timeout_at(deadline, Arc::clone(&state.searches).acquire_owned())
                    .await;
            state.waiting.fetch_sub(1, SeqCst);
            match acquired {
                Ok(Ok(permit)) => permit,
                Ok(Err(_)) => {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the server is shutting down",
                    ));
                }
                Err(_) => return Err(late()),
            }
        }
    };
    let shared = Arc::clone(state);
    let task = tokio::task::spawn_blocking(move || {
        // The slot is held until the work ends, even if the answer has timed out.
        let _permit = permit;
        work(&shared)
    });
    match tokio::time::timeout_at(deadline, task).await {
        Err(_) => Err(late()),
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error while answering",
        )),
        Ok(Ok(result)) => {
            let value = result.map_err(|e| e.within(state.tablebase.root()))?;
            serde_json::to_value(value)
                .map(Json)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
        }
    }
}

pub fn routes() -> Router<Arc<State>> {
    Router::new()
        .route("/api/v1/variants", get(variants))
        .route("/api/v1/query", get(query))
        .route("/api/v1/show", get(show))
        .route("/api/v1/bao/move", get(bao_move))
}

/// Any other path.
pub async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(200).collect();
    ApiError::new(StatusCode::NOT_FOUND, format!("no such path: {path}"))
}

async fn variants(Shared(state): Shared<Arc<State>>) -> Answer {
    let games = granary::game::catalogue();
    let tables = state
        .tablebase
        .present()
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(json!({ "games": games, "tables": tables })))
}

async fn query(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    let game = params.game().map_err(ApiError::bad)?;
    if game == GameName::Bao {
        return Err(ApiError::bad(
            "bao has no tables: use /api/v1/show for its moves and /api/v1/bao/move for the engine's",
        ));
    }
    if params.get("moves").is_some() || params.get("ms").is_some() {
        return Err(ApiError::bad("query takes no 'moves' or 'ms'"));
    }
    let setup = params.setup().map_err(ApiError::bad)?;
    let mancala = setup.mancala(game, params.get("position"))?;
    blocking(&state, move |s| {
        Ok(s.tablebase.query_or_search(&mancala)?)
    })
    .await
}

async fn show(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    let game = params.game().map_err(ApiError::bad)?;
    let setup = params.setup().map_err(ApiError::bad)?;
    let moves = params.moves();
    let position = params.get("position").map(String::from);
    // Bao's move generation follows relay sowings to their end (endless ones are detected, which
    // can take long): on the blocking pool, within the limits, like a search.
    blocking(&state, move |_| -> Result<Value, ApiError> {
        let value = if game == GameName::Bao {
            let (rules, pos) = setup.bao(position.as_deref())?;
            serde_json::to_value(granary::bao::show(&rules, pos, &moves)?)
        } else {
            let mancala = setup.mancala(game, position.as_deref())?;
            let pits = granary::game::parse_pits(&moves)?;
            serde_json::to_value(granary::show::show(&mancala, &pits)?)
        };
        value.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    })
    .await
}

async fn bao_move(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    if params.get("game").is_some_and(|g| g != "bao") {
        return Err(ApiError::bad("bao/move is for bao; leave 'game' out"));
    }
    let millis = params.millis().map_err(ApiError::bad)?;
    let (rules, pos) = params
        .setup()
        .map_err(ApiError::bad)?
        .bao(params.get("position"))?;
    blocking(&state, move |_| {
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
