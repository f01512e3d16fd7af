//! The error answer of the JSON API: [`ApiError`], a status and a one-line message, written as
//! `{"error": "..."}` (503 with `Retry-After`), and its conversions from the library's errors:
//! 400 for bad input, 422 for a position beyond the server's tables or limits, 500 otherwise.
//! Shared by [`crate::api`] and [`crate::search`], and naming neither. [`Failure`] names, for
//! the API's description, each status an endpoint answers with and what it means.

use std::time::Duration;

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use granary::{SolveError, TableError};
use schemars::JsonSchema;
use serde::Serialize;

/// An error's body, as every error answer writes it.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "Error")]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// One line naming what is wrong.
    pub error: String,
}

/// A status an endpoint answers with, besides its answer, and what it means there: each one
/// `{"error": "..."}` ([`ErrorBody`]).
#[derive(Clone, Copy, Debug)]
pub struct Failure {
    pub status: StatusCode,
    pub means: &'static str,
}

impl Failure {
    /// 400.
    pub const BAD_REQUEST: Failure = Failure {
        status: StatusCode::BAD_REQUEST,
        means: "The request is wrong: a parameter unknown, given twice, too long or not valid \
                for the game, a position that does not parse, a move that cannot be played \
                (naming its ply and move).",
    };
    /// 404, of a job.
    pub const NO_JOB: Failure = Failure {
        status: StatusCode::NOT_FOUND,
        means: "No such job: never started, or finished and forgotten.",
    };
    /// 413.
    pub const TOO_LARGE: Failure = Failure {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        means: "The body is larger than 64 KiB.",
    };
    /// 422, of a position.
    pub const BEYOND: Failure = Failure {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        means: "The position is beyond what this server answers (Oware beyond its tables, Kalah \
                beyond the search limit), in a plain sentence that names no file.",
    };
    /// 422, of a game over.
    pub const GAME_OVER: Failure = Failure {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        means: "The player to move has no legal move: the game is over.",
    };
    /// 500.
    pub const INTERNAL: Failure = Failure {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        means: "The server's tables are damaged, or its work failed.",
    };
    /// 503, with `Retry-After`.
    pub const UNAVAILABLE: Failure = Failure {
        status: StatusCode::SERVICE_UNAVAILABLE,
        means: "A full queue, an answer later than the server's timeout, or a search still \
                running (its answer is kept): ask again after `Retry-After`.",
    };
}

/// An error answer.
#[derive(Clone, Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before asking again (503 only; 1 unless set).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// The message with the server's table directory taken out of its paths: a client sees
    /// `kalah-6-empty-owner/layer-048.tbl`, never where the server keeps its files.
    pub(crate) fn within(mut self, root: &std::path::Path) -> ApiError {
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
        let body = Json(ErrorBody {
            error: self.message,
        });
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            let after = self.retry_after.unwrap_or(1).max(1).to_string();
            (self.status, [(header::RETRY_AFTER, after)], body).into_response()
        } else {
            (self.status, body).into_response()
        }
    }
}

/// The statuses an endpoint fails with are its route's ([`crate::route::Doc::failures`]).
impl aide::OperationOutput for ApiError {
    type Inner = ErrorBody;
}

/// The status of the library's `err`: 400 for bad input, 422 for a position beyond the server's
/// tables or limits, 500 otherwise.
fn status_of(err: &granary::Error) -> StatusCode {
    match err {
        granary::Error::Input(_) | granary::Error::Solve(SolveError::TooManySeeds { .. }) => {
            StatusCode::BAD_REQUEST
        }
        granary::Error::Solve(SolveError::NeedsTables(_) | SolveError::Plan(_))
        | granary::Error::Table(TableError::Missing { .. })
        | granary::Error::Solve(SolveError::Table(TableError::Missing { .. })) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<granary::Error> for ApiError {
    fn from(err: granary::Error) -> ApiError {
        ApiError::new(status_of(&err), err.to_string())
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

impl From<granary::ReviewError> for ApiError {
    /// A move that cannot be played is 400; a position that cannot be answered has its cause's
    /// status; tables that contradict themselves are 500. The message names the ply and the move.
    fn from(err: granary::ReviewError) -> ApiError {
        let status = match &err {
            granary::ReviewError::Illegal { .. } | granary::ReviewError::IllegalBao { .. } => {
                StatusCode::BAD_REQUEST
            }
            granary::ReviewError::Answer { source, .. } => status_of(source),
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, err.to_string())
    }
}

/// 503: the answer outlasts `limit`.
pub(crate) fn late(limit: Duration) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the answer takes longer than {} s", limit.as_secs_f64()),
    )
}

/// 500, with `message`.
pub(crate) fn internal(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_table_directory_are_taken_out() {
        let root = std::path::Path::new("/srv/granary-tables");
        let err = ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "cannot read /srv/granary-tables/kalah-6-empty-owner/layer-048.tbl in \
             /srv/granary-tables",
        )
        .within(root);
        assert_eq!(
            err.message,
            "cannot read kalah-6-empty-owner/layer-048.tbl in the table directory"
        );
    }

    #[test]
    fn only_503_carries_retry_after_of_at_least_one_second() {
        let mut busy = late(Duration::from_secs(2));
        busy.retry_after = Some(0);
        let response = busy.into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        let response = ApiError::bad("no").into_response();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert!(response.headers().get(header::RETRY_AFTER).is_none());
        assert_eq!(internal("x").status, StatusCode::INTERNAL_SERVER_ERROR);
    }
}
