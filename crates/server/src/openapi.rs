//! The API's description: OpenAPI 3.1, `crates/server/openapi.json`, embedded in the binary and
//! served as written at `GET /api/v1/openapi.json` (`application/json`).
//!
//! The contract: the description names every route of [`crate::api_routes`] with its method,
//! and no other (the page at `/` is not part of the API); for each endpoint, the query
//! parameters it reads (each one [`crate::params::KNOWN`] accepts, with the values the
//! catalogue allows), its request bodies, its answer's schema, and every status it answers
//! with, errors being [`crate::error::ApiError`]'s `{"error": "..."}`. The server's tests check
//! it against the router both ways and against the answers themselves, so a route, parameter
//! or field added to one and not the other fails them.

use axum::http::header;
use axum::response::IntoResponse;

use crate::route::Route;

/// The description, as served.
pub const DESCRIPTION: &str = include_str!("../openapi.json");

/// The description's route ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![Route::get("/api/v1/openapi.json", description)]
}

async fn description() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DESCRIPTION)
}
