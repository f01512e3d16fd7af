//! Beyond what the server answers exactly, the engine's estimates, labelled and never a value or
//! a mark: a Kalah position with the engine's estimate of each move, played on; and an Oware
//! game reviewed from above its tables, the plies beyond them with the engine's estimates in
//! words and as hollow points on a dashed line, the exact ones drawn as ever.

use std::sync::Arc;

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::common::{chromedriver, mancala, on_page};
use crate::games::{OWARE_START, OWARE_TABLES, game_into_tables};
use crate::page::{click_and_move, data, position, ready, review_by, text};
use crate::review::EXACT;

#[test]
fn a_position_beyond_the_exact_reach_shows_the_engines_estimate_labelled_and_plays_on() {
    let Some(driver) = chromedriver() else {
        return;
    };
    // No tables: Kalah(6,6)'s start is beyond what the server answers exactly.
    let dir = tempfile::tempdir().unwrap();
    let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
    on_page(&driver, &state, async |client, addr| {
        client
            .goto(&format!("http://{addr}/?game=kalah&pits=6&seeds=6"))
            .await
            .unwrap();
        ready(client).await;
        let verdict = text(client, "verdict").await;
        assert!(
            verdict.starts_with("No exact value here (it has 72 seeds on the board")
                && verdict.contains("The engine's estimate: ")
                && verdict.contains(" for south (depth "),
            "{verdict}"
        );
        // Each legal move with the engine's estimate or bound, never a value; one is best.
        let names = ["data-move", "data-value", "data-estimate", "data-bound"];
        let moves = data(client, "#moves button", &names).await;
        assert_eq!(moves.len(), 6, "{moves:?}");
        for m in &moves {
            assert_eq!(m["data-value"], "", "{m}");
            let estimate = m["data-estimate"].as_str().unwrap();
            assert!(estimate.parse::<i32>().is_ok(), "{m}");
            assert!(
                m["data-bound"] == "estimate" || m["data-bound"] == "at_most",
                "{m}"
            );
        }
        let best = client.find_all(Locator::Css("#moves button.best")).await;
        assert_eq!(best.unwrap().len(), 1);
        // The best move played: the board moves on, estimated again.
        let before = position(client).await;
        click_and_move(client, "#moves button.best").await;
        assert_ne!(position(client).await, before);
        let verdict = text(client, "verdict").await;
        assert!(verdict.contains("The engine's estimate: "), "{verdict}");
    });
}

#[test]
fn a_review_from_above_the_tables_has_the_engines_estimates_never_marked() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    // Oware(4) awari, tables to 6 seeds: a game from 8 seeds starts beyond them.
    let oware = mancala(granary::GameName::Oware, 4, "awari", OWARE_START);
    granary::build(&tablebase, oware.kind(), OWARE_TABLES, Some(2), None, &()).unwrap();
    let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
    let app = granary_server::app(Arc::clone(&state));
    on_page(&driver, &state, async |client, addr| {
        let options = format!(
            "game=oware&rules=awari&pits=4&position={}",
            OWARE_START.replace(' ', "%20")
        );
        let moves = game_into_tables(&app, &options).await;
        let link = format!("http://{addr}/?{options}&moves={}", moves.join(","));
        client.goto(&link).await.unwrap();
        ready(client).await;
        let error = review_by(client, "review-game").await;
        assert!(!error, "{}", text(client, "review-status").await);
        let (estimated, exact) = estimated_rows_are_words(client).await;
        the_chart_dashes_the_estimates(client, estimated, exact).await;
    });
}

/// The review's rows: some exact, some estimated; an estimated one has no value, played, loss
/// or mark, but the engine's estimates in words with the reason. Returns how many plies are
/// estimated, and how many exact.
async fn estimated_rows_are_words(client: &Client) -> (usize, usize) {
    let mut names = EXACT.to_vec();
    names.extend(["data-estimate", "data-estimated-loss", "class"]);
    let rows = data(client, "#review-rows tr[data-ply]", &names).await;
    let estimated = rows
        .iter()
        .filter(|r| r["data-answer"] == "estimated")
        .count();
    let exact = rows.iter().filter(|r| r["data-answer"] == "exact").count();
    assert!(estimated > 0 && exact > 0, "{rows:?}");
    assert_eq!(estimated + exact, rows.len(), "{rows:?}");
    for row in rows.iter().filter(|r| r["data-answer"] == "estimated") {
        assert_eq!(
            (&row["data-value"], &row["data-played"], &row["data-loss"]),
            (&Value::Null, &Value::Null, &Value::Null),
            "{row}"
        );
        let loss = row["data-estimated-loss"].as_str().unwrap();
        assert!(loss.parse::<u32>().is_ok(), "{row}");
        let class = row["class"].as_str().unwrap();
        assert!(
            !class.split(' ').any(|c| c == "mistake" || c == "blunder"),
            "{row}"
        );
        // Its cells: the ply, the side, the move, and the estimates in words with the reason
        // (no value, played, loss, mark).
        let ply = row["data-ply"].as_str().unwrap();
        let cells = client
            .execute(
                "return [...document.querySelector(arguments[0]).cells] \
                 .map((c) => c.textContent);",
                vec![json!(format!("#review-rows tr[data-ply='{ply}']"))],
            )
            .await
            .unwrap();
        assert_eq!(cells.as_array().unwrap().len(), 4, "{cells}");
        let words = cells[3].as_str().unwrap();
        assert!(
            words.starts_with("estimate: best ") && words.contains("; no exact value: "),
            "{cells}"
        );
    }
    (estimated, exact)
}

/// The chart: a solid line through the `exact` plies, a dashed one through the `estimated`
/// ones, whose markers are hollow points with no value.
async fn the_chart_dashes_the_estimates(client: &Client, estimated: usize, exact: usize) {
    let count = |lines: &[Value]| -> usize {
        lines
            .iter()
            .map(|l| l["points"].as_str().unwrap().split_whitespace().count())
            .sum()
    };
    let solid = "#review-chart polyline:not(.estimate)";
    assert_eq!(count(&data(client, solid, &["points"]).await), exact);
    let dashed = "#review-chart polyline.estimate";
    assert_eq!(count(&data(client, dashed, &["points"]).await), estimated);
    let exact_points = "#review-chart circle[data-answer='exact']";
    assert_eq!(data(client, exact_points, &["class"]).await.len(), exact);
    let hollow = data(
        client,
        "#review-chart circle[data-answer='estimated']",
        &["class", "data-value", "data-estimate"],
    )
    .await;
    assert_eq!(hollow.len(), estimated, "a hollow point a ply estimated");
    for point in &hollow {
        let class = point["class"].as_str().unwrap();
        assert!(class.split(' ').any(|c| c == "estimate"), "{point}");
        assert_eq!(point["data-value"], Value::Null, "{point}");
    }
}
