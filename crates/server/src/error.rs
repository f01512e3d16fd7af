//! The error answer of the JSON API: [`ApiError`], a status and a one-line message, written as
//! `{"error": "..."}` (503 with `Retry-After`), and its conversions from the library's errors:
//! 400 for bad input, 422 for a position beyond the server's tables or limits, 500 otherwise.
//! Shared by [`crate::api`] and [`crate::search`], and naming neither.

use std::time::Duration;

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use granary::{SolveError, TableError};
use serde_json::json;

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
        let body = Json(json!({ "error": self.message }));
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            let after = self.retry_after.unwrap_or(1).max(1).to_string();
            (self.status, [(header::RETRY_AFTER, after)], body).into_response()
        } else {
            (self.status, body).into_response()
        }
    }
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
