//! Long answers followed as jobs on the page: a review that shows its plies as they come and is
//! cancelled, a review kept and drawn again at once by its link, and a query whose search
//! outlasts the request followed to its answer.

use std::net::SocketAddr;
use std::time::Duration;

use fantoccini::Client;
use serde_json::json;

use crate::common::{chromedriver, made_up_answer, on_page, searching_server};
use crate::page::{buttons, click, data, ready, review_by, text, until};

/// The review pane's job attributes: `[ready, done, total, job, rows drawn, progress hidden]`.
const REVIEW_JOB: &str = "const r = document.getElementById('review'); \
    return [r.dataset.ready, Number(r.dataset.done || -1), Number(r.dataset.total || -1), \
    r.dataset.job || '', document.querySelectorAll('#review-rows tr[data-ply]').length, \
    document.getElementById('review-progress').hidden];";

#[test]
fn a_long_review_shows_its_plies_as_they_come_and_is_cancelled_and_a_link_reopens_one_kept() {
    let Some(driver) = chromedriver() else {
        return;
    };
    // No tables, and every Kalah(6,4) position searched however long: a position not kept is
    // searched for hours, so the review of a game waits at its first such ply until cancelled.
    let dir = tempfile::tempdir().unwrap();
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.search_seconds = f64::INFINITY;
    config.max_searches = 1;
    let state = granary_server::state(&config);
    let start = granary::Setup::default()
        .mancala(granary::GameName::Kalah, None)
        .unwrap();
    let after = |moves: &[usize]| {
        let mut game = start;
        game.position = granary::show::show(&start, moves).unwrap().pos;
        game
    };
    // Kept: the start (the review's first ply), and the positions the board shows.
    for game in [start, after(&[3, 6, 2]), after(&[4])] {
        state.solved.keep(&game, made_up_answer(&game));
    }
    on_page(&driver, &state, async |client, addr| {
        followed_and_cancelled(client, addr, &state).await;
        a_kept_review_is_drawn_at_once(client, addr, &state).await;
    });
}

/// The game 3,6,2: its first ply kept, its second searched for hours. The first row and its
/// progress arrive while the job runs on; cancelled, the job ends, its row kept, and its search
/// slot is free.
async fn followed_and_cancelled(client: &Client, addr: SocketAddr, state: &granary_server::State) {
    client
        .goto(&format!("http://{addr}/?game=kalah&moves=3,6,2"))
        .await
        .unwrap();
    ready(client).await;
    click(client, "review-game").await;
    let v = until(client, REVIEW_JOB, |v| v[1] == 1 && v[4] == 1).await;
    assert_eq!(
        (&v[0], &v[2], &v[5]),
        (&json!("0"), &json!(3), &json!(false)),
        "{v}"
    );
    let job = v[3].as_str().unwrap().to_string();
    assert!(!job.is_empty(), "{v}");
    let progress = text(client, "review-done").await;
    assert!(progress.starts_with("1 of 3 plies reviewed"), "{progress}");
    let title = text(client, "review-title").await;
    assert!(title.contains("1 of 3 plies reviewed so far"), "{title}");
    let drawn = data(client, "#review-chart circle[data-ply]", &["data-ply"]).await;
    assert_eq!(drawn, vec![json!({ "data-ply": "1" })]);
    assert_eq!(state.searches.free(), 0, "the second ply is being searched");

    click(client, "review-cancel").await;
    let v = until(client, REVIEW_JOB, |v| v[0] == "1").await;
    assert_eq!(
        (&v[3], &v[4], &v[5]),
        (&json!(""), &json!(1), &json!(true)),
        "{v}"
    );
    let status = text(client, "review-status").await;
    assert!(
        status.contains("cancelled") && status.contains("1 of 3"),
        "{status}"
    );
    let freed = tokio::time::timeout(Duration::from_secs(30), state.searches.queued_slot());
    let slot = freed.await.expect("the search slot was not freed");
    assert!(slot.is_some());
    let report = state.jobs.get(&job).unwrap().report();
    assert_eq!(report.state, granary_server::jobs::JobState::Cancelled);
}

/// A game reviewed to its end, then opened again by its link: its review is kept, drawn at once,
/// and no job starts.
async fn a_kept_review_is_drawn_at_once(
    client: &Client,
    addr: SocketAddr,
    state: &granary_server::State,
) {
    let link = format!("http://{addr}/?game=kalah&moves=4");
    client.goto(&link).await.unwrap();
    ready(client).await;
    assert!(!review_by(client, "review-game").await);
    let started = state.jobs.started();
    assert_eq!(state.jobs.kept_reviews(), 1);
    client.goto(&link).await.unwrap();
    ready(client).await;
    assert!(!review_by(client, "review-game").await);
    assert_eq!(state.jobs.started(), started, "a kept review starts no job");
    let rows = data(
        client,
        "#review-rows tr[data-ply]",
        &["data-ply", "data-loss"],
    )
    .await;
    assert_eq!(rows, vec![json!({ "data-ply": "1", "data-loss": "0" })]);
    let title = text(client, "review-title").await;
    assert!(title.starts_with("1 ply reviewed"), "{title}");
}

#[test]
fn a_query_whose_search_outlasts_the_request_is_followed_as_a_job_to_its_answer() {
    let Some(driver) = chromedriver() else {
        return;
    };
    // No tables, every Kalah(6,4) position searched however long, a short request limit, and
    // the search of the start held by the test (no search runs): the page's query of the start
    // outlasts its request and is answered with a job, which the page follows until the test
    // ends the search with its answer.
    let dir = tempfile::tempdir().unwrap();
    let (state, start) = searching_server(dir.path());
    let granary::plan::Reach::Search { seconds, .. } = state.solved.reach(&start, None) else {
        panic!("the start is searched");
    };
    let granary_server::search::Plan::Start(leader) = state.solved.plan(&start, None, seconds)
    else {
        panic!("no search of the start yet");
    };
    on_page(&driver, &state, async |client, addr| {
        client
            .goto(&format!("http://{addr}/?game=kalah"))
            .await
            .unwrap();
        // The board is drawn, and the verdict says what the page waits for, and how long.
        let verdict = "return document.getElementById('verdict').textContent;";
        let waiting = until(client, verdict, |v| {
            v.as_str().is_some_and(|t| t.contains("s so far"))
        })
        .await;
        let waiting = waiting.as_str().unwrap();
        assert!(
            waiting.starts_with("Waiting for a search of this position, about"),
            "{waiting}"
        );
        assert_eq!(state.jobs.active(), 1, "one job follows the search");
        assert!(buttons(client, "#moves button").await.is_empty());

        // The search ends: the job holds its answer and the page draws it.
        state.solved.finish(leader, Ok(made_up_answer(&start)));
        ready(client).await;
        let drawn = until(client, verdict, |v| {
            v.as_str()
                .is_some_and(|t| t.starts_with("With perfect play"))
        })
        .await;
        assert!(
            drawn.as_str().unwrap().contains("it is a draw"),
            "the made-up answer: {drawn}"
        );
        let moves = buttons(client, "#moves button").await;
        assert_eq!(moves.len(), 6, "{moves:?}");
        assert!(moves.iter().all(|(_, value)| value == "0"), "{moves:?}");
        assert_eq!(state.jobs.active(), 0);
    });
}
