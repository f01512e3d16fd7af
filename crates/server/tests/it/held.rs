//! Table queries answered, right, while reviews hold every search slot and queue behind it: a
//! load test that holds its load by a search left unfinished (the start's, which every review
//! begins with), not by timing; then the search ends and so does every review, the library's.

use std::time::Duration;

use axum::http::{StatusCode, header};
use serde_json::{Value, json};

use crate::jobs::{Server, setup, tables};

/// The moves of the games reviewed while the start's search is held.
const HELD_MOVES: [usize; 10] = [1, 4, 2, 3, 1, 2, 4, 3, 2, 1];

#[test]
fn table_queries_are_answered_while_reviews_hold_every_search_slot_and_the_reviews_then_end_right()
{
    let server = Server::new(8);
    let game = setup().mancala(granary::GameName::Kalah, None).unwrap();
    let present = server.state.tablebase.complete_up_to(game.kind());
    // Every review below begins at the start, whose search is held here: the one search slot is
    // taken by the first review, waiting for it, and the others queue behind it.
    let granary_server::search::Plan::Start(leader) = server.state.solved.plan(&game, present, 1.0)
    else {
        panic!("no search of the start yet");
    };
    let locations: Vec<String> = (7..=10)
        .map(|n| {
            let body = json!({ "game": "kalah", "pits": 4, "rules": "standard",
                               "moves": &HELD_MOVES[..n] });
            let (headers, status, report) = server.review(&body, true);
            assert_eq!(status, StatusCode::ACCEPTED, "{report}");
            headers[header::LOCATION].to_str().unwrap().to_string()
        })
        .collect();
    let waited = std::time::Instant::now();
    while leader.waiters() < 2 {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "no review waited for the start"
        );
        std::thread::yield_now();
    }
    asked_by_two_clients(&server);
    for location in &locations {
        let (_, report) = server.get(location);
        assert!(
            matches!(report["state"].as_str(), Some("queued" | "running")),
            "{report}"
        );
    }
    // The start's search ends; so does every review, each the library's.
    server
        .state
        .solved
        .run(&server.state.tablebase, &game, leader);
    each_review_is_the_librarys(&server, &locations);
}

/// Positions the tables hold (Kalah(4,1): 8 seeds), two plies deep, with the library's answers.
fn small_positions() -> Vec<(String, granary::Query)> {
    let tablebase = granary::Tablebase::new(tables().path());
    let small = granary::Setup {
        seeds: Some(1),
        ..setup()
    };
    let query = |position: &str| {
        let game = small.mancala(granary::GameName::Kalah, Some(position));
        tablebase.query(&game.unwrap()).unwrap()
    };
    let start = small.mancala(granary::GameName::Kalah, None).unwrap();
    let mut positions = vec![granary::format_position(&start.position, 4)];
    let mut frontier = positions.clone();
    for _ in 0..2 {
        let next: Vec<String> = frontier
            .iter()
            .flat_map(|position| query(position).moves.into_iter().map(|m| m.position))
            .collect();
        positions.extend(next.iter().cloned());
        frontier = next;
    }
    positions.sort();
    positions.dedup();
    assert!(positions.len() > 10, "{positions:?}");
    positions
        .into_iter()
        .map(|p| {
            let answer = query(&p);
            (p, answer)
        })
        .collect()
}

/// Two clients ask every one of [`small_positions`] (while the reviews hold the search slot):
/// each answered at once, the library's values.
fn asked_by_two_clients(server: &Server) {
    let positions = small_positions();
    std::thread::scope(|s| {
        for client in 0..2 {
            let positions = &positions;
            s.spawn(move || {
                for (position, library) in positions.iter().skip(client) {
                    let asked = serde_urlencoded::to_string([("position", position)]).unwrap();
                    let (status, answer) = server.get(&format!(
                        "/api/v1/query?game=kalah&pits=4&rules=standard&seeds=1&{asked}"
                    ));
                    assert_eq!(status, StatusCode::OK, "{answer}");
                    assert_eq!(answer["value"], library.value, "{position}");
                    let values: Vec<&Value> = answer["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| &m["value"])
                        .collect();
                    let library: Vec<i32> = library.moves.iter().map(|m| m.value).collect();
                    assert_eq!(values, library, "{position}");
                }
            });
        }
    });
}

/// The reviews at `locations` (of the first 7 to 10 of [`HELD_MOVES`]) followed to their end:
/// each result the library's review.
fn each_review_is_the_librarys(server: &Server, locations: &[String]) {
    let tablebase = granary::Tablebase::new(tables().path());
    for (location, n) in locations.iter().zip(7..=10) {
        let done = server.follow(location, |r| r["state"] == "done");
        let moves: Vec<granary::game::GameMove> = HELD_MOVES[..n]
            .iter()
            .map(|&pit| granary::game::GameMove::Pit(pit))
            .collect();
        let record =
            granary::GameRecord::new(granary::GameName::Kalah, &setup(), None, &moves).unwrap();
        let library = tablebase
            .review_record(&record, f64::INFINITY, None, &())
            .unwrap();
        assert_eq!(
            done.last().unwrap()["result"],
            serde_json::to_value(library).unwrap()
        );
    }
}
