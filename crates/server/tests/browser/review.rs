//! The review pane, in Kalah(3,3): a game with moves that lose seeds reviewed on the page, its
//! rows, summaries and chart (a point a ply, South's value, each move marked as the library marks
//! it) equal to the API's review; a click on a marked ply or a row showing the position before
//! it; a pasted text that is no record answered in a line, and the record the API wrote back
//! reviewed again.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, header};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::address::KALAH33;
use crate::common::{chromedriver, kalah33_tables, on_page};
use crate::games::{call, game_with_mistakes, shown_after};
use crate::page::{
    address_moves, attr, buttons, click_and_move, data, moved, position, ready, review_by, text,
};

/// The attributes of an exact ply's row.
pub const EXACT: [&str; 6] = [
    "data-ply",
    "data-answer",
    "data-value",
    "data-played",
    "data-loss",
    "data-changed",
];

#[test]
fn the_review_pane_draws_the_apis_review_and_shows_a_ply_clicked() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Kalah(3,3) standard: 18 seeds, tables to 18, every ply exact.
    kalah33_tables(&granary::Tablebase::new(dir.path()));
    let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
    let app = granary_server::app(Arc::clone(&state));
    on_page(&driver, &state, async |client, addr| {
        let moves = game_with_mistakes(&app, KALAH33).await;
        let review = api_review(&app, &moves).await;
        let end = shown_after(&app, KALAH33, &moves).await;
        let link = format!("http://{addr}/?{KALAH33}&moves={}", moves.join(","));
        client.goto(&link).await.unwrap();
        ready(client).await;
        let error = review_by(client, "review-game").await;
        assert!(!error, "{}", text(client, "review-status").await);
        rows_and_sides_are_the_apis(client, &review).await;
        the_chart_is_the_apis(client, &review).await;
        a_ply_clicked_shows_the_position_before_it(client, &review, &moves, &end).await;
        a_pasted_record_is_reviewed(client, &review, &moves, &end).await;
    });
}

/// The API's review of `moves` (Kalah(3,3)), asked of `app` itself: a ply a move, one at least
/// that loses seeds, and so marked.
async fn api_review(app: &axum::Router, moves: &[String]) -> Value {
    let pits: Vec<u64> = moves.iter().map(|m| m.parse().unwrap()).collect();
    let body = json!({
        "game": "kalah", "rules": "standard", "pits": 3, "seeds": 3, "moves": pits,
    });
    let request = Request::post("/api/v1/review")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let review = call(app, request).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len());
    assert!(
        plies.iter().any(|p| p["loss"].as_i64().unwrap() > 0),
        "{review}"
    );
    assert!(
        plies.iter().any(|p| p["mark"].is_string()),
        "no ply marked: {review}"
    );
    review
}

/// The table's rows (a ply each: its figures, its loss and its mark) and each side's summary
/// are the API's.
async fn rows_and_sides_are_the_apis(client: &Client, review: &Value) {
    let plies = review["plies"].as_array().unwrap();
    let rows = data(client, "#review-rows tr[data-ply]", &EXACT).await;
    assert_eq!(rows.len(), plies.len());
    for (row, ply) in rows.iter().zip(plies) {
        assert_eq!(row["data-ply"], attr(&ply["ply"]));
        assert_eq!(row["data-answer"], ply["answer"]);
        for key in ["value", "played", "loss", "changed"] {
            assert_eq!(
                row[format!("data-{key}")],
                attr(&ply[key]),
                "ply {}: {key}",
                ply["ply"]
            );
        }
    }
    let cells = client
        .execute(
            "return [...document.querySelectorAll('#review-rows tr[data-ply]')] \
             .map((tr) => [tr.querySelector('td.lost').textContent, \
                           tr.querySelector('td.mark').textContent]);",
            vec![],
        )
        .await
        .unwrap();
    let api: Vec<Value> = plies
        .iter()
        .map(|p| json!([p["loss"].to_string(), p["mark"].as_str().unwrap_or("")]))
        .collect();
    assert_eq!(cells, json!(api));
    let sides = data(
        client,
        "#review-sides [data-side]",
        &["data-side", "data-played", "data-lost"],
    )
    .await;
    assert_eq!(sides.len(), 2);
    for (i, side) in sides.iter().enumerate() {
        assert_eq!(side["data-side"], ["south", "north"][i]);
        assert_eq!(side["data-played"], attr(&review["sides"][i]["played"]));
        assert_eq!(side["data-lost"], attr(&review["sides"][i]["lost"]));
    }
}

/// The chart: a point a ply (all exact here), South's value after each; each marker's class is
/// its ply's mark (`??` a blunder, `?` a mistake, none a plain point).
async fn the_chart_is_the_apis(client: &Client, review: &Value) {
    let plies = review["plies"].as_array().unwrap();
    let lines = data(client, "#review-chart polyline", &["points", "data-points"]).await;
    let points: usize = lines
        .iter()
        .map(|l| l["points"].as_str().unwrap().split_whitespace().count())
        .sum();
    assert_eq!(points, plies.len(), "{lines:?}");
    let names = [
        "data-ply",
        "data-value",
        "data-loss",
        "data-changed",
        "class",
    ];
    let markers = data(client, "#review-chart [data-ply]", &names).await;
    assert_eq!(markers.len(), plies.len());
    for (marker, ply) in markers.iter().zip(plies) {
        let played = ply["played"].as_i64().unwrap();
        let south = if ply["side"] == "south" {
            played
        } else {
            -played
        };
        assert_eq!(
            marker["data-value"],
            json!(south.to_string()),
            "ply {}",
            ply["ply"]
        );
        assert_eq!(marker["data-loss"], attr(&ply["loss"]));
        assert_eq!(marker["data-changed"], attr(&ply["changed"]));
        let class = marker["class"].as_str().unwrap();
        let expected = match ply["mark"].as_str() {
            Some("??") => "blunder",
            Some("?") => "mistake",
            _ => "point",
        };
        assert!(
            class.split(' ').any(|c| c == expected),
            "ply {}: {class}",
            ply["ply"]
        );
    }
}

/// A click on a marked ply shows the position before it, its moves valued as usual, its row
/// the one the board stands at; back to the whole game (`end`), then the first ply clicked from
/// its row: the start.
async fn a_ply_clicked_shows_the_position_before_it(
    client: &Client,
    review: &Value,
    moves: &[String],
    end: &str,
) {
    let plies = review["plies"].as_array().unwrap();
    let marked = plies
        .iter()
        .find(|p| p["mark"] == "??")
        .or_else(|| plies.iter().find(|p| p["mark"] == "?"))
        .expect("a marked ply");
    let k = usize::try_from(marked["ply"].as_u64().unwrap()).unwrap();
    click_and_move(client, &format!("#review-chart [data-ply='{k}']")).await;
    let before = marked["position"].as_str().unwrap();
    assert_eq!(position(client).await.unwrap(), before);
    assert_eq!(address_moves(client).await, moves[..k - 1].join(","));
    let listed = buttons(client, "#moves button[data-move]").await;
    assert_eq!(
        listed[0].1,
        marked["value"].to_string(),
        "the best listed is the ply's value"
    );
    let played = listed.iter().find(|(m, _)| *m == moves[k - 1]).unwrap();
    assert_eq!(played.1, marked["played"].to_string());
    let now = data(client, "#review-rows tr.now", &["data-ply"]).await;
    assert_eq!(now, vec![json!({ "data-ply": k.to_string() })]);
    client.back().await.unwrap();
    moved(client, Some(Some(before))).await;
    assert_eq!(position(client).await.unwrap(), end);
    click_and_move(client, "#review-rows tr[data-ply='1'] button").await;
    assert_eq!(
        position(client).await.unwrap(),
        plies[0]["position"].as_str().unwrap()
    );
    assert_eq!(address_moves(client).await, "");
}

/// A pasted text that is no game record: the pane says what is wrong, in a line. The record the
/// API wrote back, pasted: the address holds its game and every move, the board its end, and the
/// rows are the API's figures again.
async fn a_pasted_record_is_reviewed(client: &Client, review: &Value, moves: &[String], end: &str) {
    let record = client.find(Locator::Id("record-text")).await.unwrap();
    record.send_keys("[Game \"nonesuch\"] S1").await.unwrap();
    assert!(review_by(client, "review-paste").await);
    let error = text(client, "review-status").await;
    assert!(!error.is_empty() && !error.contains('\n'), "{error}");

    record.clear().await.unwrap();
    record
        .send_keys(review["record"].as_str().unwrap())
        .await
        .unwrap();
    let error = review_by(client, "review-paste").await;
    assert!(!error, "{}", text(client, "review-status").await);
    assert_eq!(address_moves(client).await, moves.join(","));
    assert_eq!(position(client).await.unwrap(), end);
    let again = data(
        client,
        "#review-rows tr[data-ply]",
        &["data-ply", "data-loss"],
    )
    .await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(again.len(), plies.len());
    for (row, ply) in again.iter().zip(plies) {
        assert_eq!(row["data-loss"], attr(&ply["loss"]), "ply {}", ply["ply"]);
    }
}
