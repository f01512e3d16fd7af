//! Granary plays a side: perfectly within the tables (said so), the engine's move beyond them
//! (labelled an estimate), the game going on; and once a query that becomes a job is answered.

use std::net::SocketAddr;

use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::common::{chromedriver, kalah33_tables, made_up_answer, on_page, searching_server};
use crate::page::{address_moves, click_and_move, position, ready, to_move, until};

/// What granary said of its last move, once it has made `count` moves (its `data-count`) and
/// the page has drawn the position after them: `[ready, count, text, data-move, data-perfect,
/// data-error]`.
async fn granary_moved(client: &Client, count: u64) -> Value {
    until(
        client,
        "const g = document.getElementById('granary-said'); \
         return [document.body.dataset.ready, Number(g.dataset.count), g.textContent, \
                 g.dataset.move, g.dataset.perfect, g.dataset.error];",
        |v| v[0] == "1" && (v[1].as_u64() >= Some(count) || v[5] == "1"),
    )
    .await
}

/// Chooses the side granary plays ("" for nobody).
async fn granary_plays(client: &Client, side: &str) {
    client
        .find(Locator::Id("plays"))
        .await
        .unwrap()
        .select_by_value(side)
        .await
        .unwrap();
}

#[test]
fn granary_plays_a_side_perfectly_within_the_tables_and_by_the_engine_beyond_them() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    // Kalah(3,3) standard: 18 seeds, tables to 18, every position exact. Oware(4,3) has no
    // tables: every position is beyond the exact reach.
    let kalah = kalah33_tables(&tablebase);
    let best = tablebase.query(&kalah).unwrap().best;
    let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
    on_page(&driver, &state, async |client, addr| {
        perfectly_within_the_tables(client, addr, &best).await;
        by_the_engine_beyond_them(client, addr).await;
    });
}

/// Kalah(3,3): granary takes South, who is to move, and plays a best move of the start (`best`)
/// at once, said perfect, moving on (an extra turn included) until North is to move. The
/// person plays North's first listed moves until South is to move; granary answers, perfect.
async fn perfectly_within_the_tables(client: &Client, addr: SocketAddr, best: &[usize]) {
    client
        .goto(&format!(
            "http://{addr}/?game=kalah&rules=standard&pits=3&seeds=3"
        ))
        .await
        .unwrap();
    ready(client).await;
    let start = position(client).await.unwrap();
    granary_plays(client, "south").await;
    let said = granary_moved(client, 1).await;
    assert_eq!(said[5], "0", "{said}");
    let text = said[2].as_str().unwrap();
    assert!(
        text.starts_with("granary plays S") && text.contains(": perfect play ("),
        "{text}"
    );
    assert_eq!(said[4], "1", "{said}");
    // Its first move is a best move of the start; its last is the one it names.
    let moves = address_moves(client).await;
    let first: usize = moves.split(',').next().unwrap().parse().unwrap();
    assert!(best.contains(&first), "{first} is not among {best:?}");
    assert_eq!(moves.rsplit(',').next(), said[3].as_str(), "{said}");
    assert_ne!(position(client).await.unwrap(), start);
    assert_eq!(to_move(client).await, "north");
    let count = said[1].as_u64().unwrap();
    let before = address_moves(client).await;
    loop {
        click_and_move(client, "#moves button[data-move]").await;
        if granary_moved(client, 0).await[1].as_u64() > Some(count) {
            break;
        }
        assert_eq!(to_move(client).await, "north", "North moves again");
    }
    let said = granary_moved(client, count + 1).await;
    assert!(said[1].as_u64() > Some(count), "{said}");
    assert_eq!(said[4], "1", "{said}");
    let after = address_moves(client).await;
    assert!(
        after.split(',').count() >= before.split(',').count() + 2,
        "{before} then {after}"
    );
}

/// Oware(4,3) with no tables, the engine's time 50 ms a move: granary takes South and plays the
/// engine's best move, said to be an estimate, never perfect; the person answers and granary
/// plays South again (Oware has no extra turn); with nobody chosen, nobody answers.
async fn by_the_engine_beyond_them(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!(
            "http://{addr}/?game=oware&rules=awari&pits=4&seeds=3"
        ))
        .await
        .unwrap();
    ready(client).await;
    let ms = client.find(Locator::Id("ms")).await.unwrap();
    ms.clear().await.unwrap();
    ms.send_keys("50").await.unwrap();
    let start = position(client).await.unwrap();
    let count = granary_moved(client, 0).await[1].as_u64().unwrap();
    granary_plays(client, "south").await;
    let said = granary_moved(client, count + 1).await;
    assert_eq!(said[5], "0", "{said}");
    let text = said[2].as_str().unwrap();
    assert!(
        text.starts_with("granary plays S")
            && text.contains(": estimate ")
            && text.contains(" for south (depth ")
            && (text.contains("; not proved)") || text.contains("; every leaf exact)"))
            && text.contains("no exact value here ("),
        "{text}"
    );
    assert!(!text.contains("perfect"), "{text}");
    assert_eq!(said[4], "0", "{said}");
    assert_ne!(position(client).await.unwrap(), start);
    assert_eq!(address_moves(client).await, said[3].as_str().unwrap());
    assert_eq!(to_move(client).await, "north");
    let before = position(client).await.unwrap();
    click_and_move(client, "#moves button[data-move]").await;
    let said = granary_moved(client, count + 2).await;
    assert!(said[1].as_u64() >= Some(count + 2), "{said}");
    assert_ne!(position(client).await.unwrap(), before);
    assert_eq!(address_moves(client).await.split(',').count(), 3);
    granary_plays(client, "").await;
    click_and_move(client, "#moves button[data-move]").await;
    assert_eq!(address_moves(client).await.split(',').count(), 4);
    assert_eq!(granary_moved(client, 0).await[1].as_u64(), Some(count + 2));
}

#[test]
fn granary_waits_for_a_query_that_becomes_a_job_and_plays_its_answer() {
    let Some(driver) = chromedriver() else {
        return;
    };
    // No tables, every Kalah(6,4) position searched however long, a short request limit: the
    // searches of the start and of the position after South's 1 are held by the test (no
    // search runs), so the page's queries become jobs it follows until the test answers them.
    let dir = tempfile::tempdir().unwrap();
    let (state, start) = searching_server(dir.path());
    let after = granary::Mancala {
        position: granary::show::show(&start, &[1]).unwrap().pos,
        ..start
    };
    let granary::plan::Reach::Search { seconds, .. } = state.solved.reach(&start, None) else {
        panic!("the start is searched");
    };
    let held = |game: &granary::Mancala| match state.solved.plan(game, None, seconds) {
        granary_server::search::Plan::Start(leader) => leader,
        _ => panic!("no search of {} yet", game.position.to_move.name()),
    };
    let (first, second) = (held(&start), held(&after));
    on_page(&driver, &state, async |client, addr| {
        client
            .goto(&format!("http://{addr}/?game=kalah"))
            .await
            .unwrap();
        let verdict = "return document.getElementById('verdict').textContent;";
        let waits = |v: &Value| v.as_str().is_some_and(|t| t.contains("s so far"));
        until(client, verdict, waits).await;
        // Granary takes South while the page waits: it moves once the answer comes, the
        // made-up answer's first best move, said perfect and searched.
        granary_plays(client, "south").await;
        state.solved.finish(first, Ok(made_up_answer(&start)));
        let said = until(
            client,
            "const g = document.getElementById('granary-said'); \
             return [Number(g.dataset.count), g.textContent, g.dataset.perfect];",
            |v| v[0].as_u64() == Some(1),
        )
        .await;
        let text = said[1].as_str().unwrap();
        assert!(
            text.starts_with("granary plays S1: perfect play (draw for south")
                && text.contains("searched beyond the tables"),
            "{text}"
        );
        assert_eq!(address_moves(client).await, "1");
        // The position after it is a job too, followed, then drawn; North (the person) to move.
        until(client, verdict, waits).await;
        state.solved.finish(second, Ok(made_up_answer(&after)));
        ready(client).await;
        assert_eq!(to_move(client).await, "north");
        assert_eq!(granary_moved(client, 1).await[1].as_u64(), Some(1));
    });
}
