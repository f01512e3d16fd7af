//! The page at `/`: plain HTML, CSS and the page's scripts, ES modules each of one concept
//! ([`SCRIPTS`]), embedded in the binary (no CDN).

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::routing::get;

use crate::State;

const INDEX: &str = include_str!("../static/index.html");
const STYLE: &str = include_str!("../static/style.css");

/// The page's scripts: each module's path and text. `main.js` starts the page and imports the
/// others, each of which imports what it uses.
pub const SCRIPTS: &[(&str, &str)] = &[
    ("/main.js", include_str!("../static/main.js")),
    ("/address.js", include_str!("../static/address.js")),
    ("/api.js", include_str!("../static/api.js")),
    ("/catalogue.js", include_str!("../static/catalogue.js")),
    ("/dom.js", include_str!("../static/dom.js")),
    ("/board.js", include_str!("../static/board.js")),
    ("/play.js", include_str!("../static/play.js")),
    ("/review.js", include_str!("../static/review.js")),
    ("/chart.js", include_str!("../static/chart.js")),
];

/// The page, its style sheet and its scripts (as `text/javascript`, as modules must be served).
pub fn routes() -> Router<Arc<State>> {
    let page = Router::new()
        .route(
            "/",
            get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        );
    SCRIPTS.iter().fold(page, |page, &(path, text)| {
        page.route(
            path,
            get(move || async move {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    text,
                )
            }),
        )
    })
}
