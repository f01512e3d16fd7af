//! Games chosen through the API itself (no browser), for the page to play and review: one
//! with moves that lose seeds, and an Oware game from above its tables into them.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// `request` answered by `app` directly (no browser): its JSON, which must come with 200.
pub async fn call(app: &axum::Router, request: Request<Body>) -> Value {
    let uri = request.uri().to_string();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    body
}

/// `GET uri` answered by `app` directly: its JSON, which must come with 200.
pub async fn get_json(app: &axum::Router, uri: &str) -> Value {
    let request = Request::get(uri).body(Body::empty()).unwrap();
    call(app, request).await
}

/// `/api/v1/show` of `options` (a query string) after `moves` from the start: its position.
pub async fn shown_after(app: &axum::Router, options: &str, moves: &[String]) -> String {
    let shown = get_json(
        app,
        &format!("/api/v1/show?{options}&moves={}", moves.join(",")),
    )
    .await;
    shown["position"].as_str().unwrap().to_string()
}

/// A game of `options` chosen through the API's query from the start: at even plies a best move,
/// at odd plies the move of least value (the lowest pit of those), to its end or 40 moves.
pub async fn game_with_mistakes(app: &axum::Router, options: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < 40 {
        let shown = get_json(
            app,
            &format!("/api/v1/show?{options}&moves={}", moves.join(",")),
        )
        .await;
        if shown["over"] == true {
            break;
        }
        let position = shown["position"].as_str().unwrap().replace(' ', "%20");
        let answer = get_json(app, &format!("/api/v1/query?{options}&position={position}")).await;
        let listed = answer["moves"].as_array().unwrap();
        let chosen = if moves.len().is_multiple_of(2) {
            answer["best"][0].as_u64().unwrap()
        } else {
            listed
                .iter()
                .min_by_key(|m| (m["value"].as_i64().unwrap(), m["move"].as_u64().unwrap()))
                .unwrap()["move"]
                .as_u64()
                .unwrap()
        };
        moves.push(chosen.to_string());
    }
    moves
}

/// The start of the Oware game reviewed from above its tables ([`OWARE_TABLES`]).
pub const OWARE_START: &str = "2,0,1,1/0,2,1,1 0-0 S";
/// Seeds on the board the Oware tables of the review test cover.
pub const OWARE_TABLES: u32 = 6;

/// A game of `options` (Oware from [`OWARE_START`]) chosen through the API's show: each move the
/// one that leaves the fewest seeds on the board (the lowest pit of those), until two moves have
/// been played within the tables, the game ends, or 40 moves.
pub async fn game_into_tables(app: &axum::Router, options: &str) -> Vec<String> {
    let seeds = |shown: &Value| -> u64 {
        shown["pits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum()
    };
    let mut moves: Vec<String> = Vec::new();
    let mut within = 0;
    while moves.len() < 40 && within < 2 {
        let at = |moves: &[String]| format!("/api/v1/show?{options}&moves={}", moves.join(","));
        let shown = get_json(app, &at(&moves)).await;
        if shown["over"] == true {
            break;
        }
        if seeds(&shown) <= u64::from(OWARE_TABLES) {
            within += 1;
        }
        let mut best: Option<(u64, String)> = None;
        for pit in shown["legal_moves"].as_array().unwrap() {
            let mut next = moves.clone();
            next.push(pit.to_string());
            let left = seeds(&get_json(app, &at(&next)).await);
            if best.as_ref().is_none_or(|(b, _)| left < *b) {
                best = Some((left, pit.to_string()));
            }
        }
        moves.push(best.unwrap().1);
    }
    moves
}
