//! The page at `/`: plain HTML, CSS and two small scripts (the page's, its review pane's),
//! embedded in the binary (no CDN).

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::State;

const INDEX: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/app.js");
const REVIEW: &str = include_str!("../static/review.js");
const STYLE: &str = include_str!("../static/style.css");

pub fn routes() -> Router<Arc<State>> {
    Router::new()
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }),
        )
        .route("/app.js", get(|| script(SCRIPT)))
        .route("/review.js", get(|| script(REVIEW)))
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        )
}

async fn script(text: &'static str) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
}
