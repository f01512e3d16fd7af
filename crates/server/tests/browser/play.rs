//! Playing on the page: the moves listed against the library, the best listed move clicked and
//! the position after it checked (the move played and highlighted, the side to move flipped,
//! the list updated). In Kalah (a Kalah(6) position searched beyond small tables) also the board
//! and its legal moves drawn while the search waits for a slot, a step of the principal
//! variation, the keys for undo and best move, the position box (a mistyped position keeps its
//! text and says what is wrong), and a phone's width.

use fantoccini::{Client, Locator};

use crate::common::{chromedriver, mancala, on_page};
use crate::page::{buttons, moved, position, press, ready, screenshot, snapshot, text, until};

/// The moves as the page lists them: best first (by value, then pit).
pub fn listed(query: &granary::Query) -> Vec<(String, String)> {
    let mut moves: Vec<&granary::MoveValue> = query.moves.iter().collect();
    moves.sort_by_key(|m| (-m.value, m.pit));
    moves
        .iter()
        .map(|m| (m.pit.to_string(), m.value.to_string()))
        .collect()
}

pub fn sorted(mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.sort();
    v
}

fn side_word(side: &str) -> &'static str {
    if side == "south" { "South" } else { "North" }
}

/// Checks the page against the library's answer for `game`, clicks the best listed move, and
/// checks the position after it; returns that position.
pub async fn kalah_or_oware_click(
    client: &Client,
    tablebase: &granary::Tablebase,
    game: &granary::Mancala,
) -> granary::Mancala {
    let answer = tablebase.query_or_search(game).unwrap();
    let list = buttons(client, "#moves button[data-move]").await;
    assert_eq!(list, listed(&answer));
    assert_eq!(
        sorted(buttons(client, "#board button[data-move]").await),
        sorted(listed(&answer))
    );
    let mover = side_word(answer.to_move);
    assert!(
        text(client, "status")
            .await
            .contains(&format!("{mover} to move")),
        "{}",
        text(client, "status").await
    );
    let best = &list[0].0;
    let played = answer
        .moves
        .iter()
        .find(|m| m.pit.to_string() == *best)
        .unwrap();
    assert_eq!(
        played.value, answer.value,
        "the first listed move is a best move"
    );
    let before = position(client).await.unwrap();
    client
        .find(Locator::Css(&format!("#moves button[data-move='{best}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    moved(client, Some(Some(&before))).await;
    assert_eq!(position(client).await.unwrap(), played.position);
    let after = granary::Mancala {
        position: granary::show::show(game, &[played.pit]).unwrap().pos,
        ..*game
    };
    let next = tablebase.query_or_search(&after).unwrap();
    assert_ne!(
        next.to_move, answer.to_move,
        "the chosen positions flip the side to move"
    );
    assert!(
        text(client, "status")
            .await
            .contains(&format!("{} to move", side_word(next.to_move))),
        "{}",
        text(client, "status").await
    );
    assert_eq!(
        buttons(client, "#moves button[data-move]").await,
        listed(&next)
    );
    // The move played is highlighted and named.
    let name = format!("{}{best}", &mover[..1]);
    let last = client.find(Locator::Css(".pit.last")).await.unwrap();
    assert_eq!(
        last.attr("data-pit").await.unwrap().as_deref(),
        Some(&*name)
    );
    assert!(text(client, "last").await.contains(&name));
    after
}

#[test]
fn kalah_is_drawn_at_once_and_played_by_a_click_a_step_a_key_and_a_typed_position() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    // Kalah(6,4) empty capture, mid-game: 22 seeds on the board, tables to 12 (searched).
    let kalah = mancala(
        granary::GameName::Kalah,
        6,
        "empty",
        "3,0,5,2,1,1/2,4,0,1,3,0 14-12 S",
    );
    granary::build(&tablebase, kalah.kind(), 12, Some(2), None, &()).unwrap();
    // One search at a time, so that holding its slot holds every search.
    let mut config = granary_server::Config::new(dir.path().to_path_buf());
    config.max_searches = 1;
    let state = granary_server::state(&config);
    on_page(&driver, &state, async |client, addr| {
        let start = granary::format_position(&kalah.position, 6);
        let url = format!(
            "http://{addr}/?game=kalah&pits=6&rules=empty&position={}",
            start.replace(' ', "%20")
        );
        drawn_while_the_values_wait(client, &state, &url, &kalah).await;
        screenshot(client, "kalah.png").await;
        let after = kalah_or_oware_click(client, &tablebase, &kalah).await;
        let here = a_step_of_the_principal_variation(client, &tablebase, &after).await;
        let after = granary::format_position(&after.position, 6);
        keys_undo_and_play_the_best(client, &start, &here, &after).await;
        a_typed_position_is_checked(client).await;
        the_page_fits_a_phone(client, &url).await;
    });
}

/// While every search slot is held, the page at `url` (`kalah`) draws the board and the legal
/// moves at once (no values yet), and fills in the values once the search has run.
async fn drawn_while_the_values_wait(
    client: &Client,
    state: &granary_server::State,
    url: &str,
    kalah: &granary::Mancala,
) {
    let held = state.searches.try_slot().expect("a free search slot");
    client.goto(url).await.unwrap();
    until(client, "return document.body.dataset.board;", |v| v == "1").await;
    assert!(!snapshot(client).await.0, "the values cannot be in yet");
    let legal: Vec<(String, String)> = granary::show::show(kalah, &[])
        .unwrap()
        .legal_moves
        .iter()
        .map(|m| (m.to_string(), String::new()))
        .collect();
    assert_eq!(
        sorted(buttons(client, "#board button[data-move]").await),
        legal
    );
    assert!(buttons(client, "#moves button[data-move]").await.is_empty());
    let status = text(client, "status").await;
    assert!(status.contains("South to move"), "{status}");
    assert!(
        !text(client, "verdict").await.is_empty(),
        "the page says it is finding the values"
    );
    drop(held);
    ready(client).await;
}

/// The second step of the principal variation clicked, from `after`: the page shows the
/// position two plies on. Returns the position before the click.
async fn a_step_of_the_principal_variation(
    client: &Client,
    tablebase: &granary::Tablebase,
    after: &granary::Mancala,
) -> String {
    let answer = tablebase.query_or_search(after).unwrap();
    let steps = client
        .find_all(Locator::Css("#pv button[data-step]"))
        .await
        .unwrap();
    assert_eq!(steps.len(), answer.pv.len());
    let mut at = *after;
    for &pit in &answer.pv[..2] {
        at.position = granary::show::show(&at, &[pit]).unwrap().pos;
    }
    let here = position(client).await.unwrap();
    steps[1].click().await.unwrap();
    moved(client, Some(Some(&here))).await;
    assert_eq!(
        position(client).await.unwrap(),
        granary::format_position(&at.position, 6)
    );
    here
}

/// The keys, after a step of the principal variation from `here`: `u` undoes the step,
/// Backspace the move before it (back to `start`), `b` plays the best move (to `after`).
async fn keys_undo_and_play_the_best(client: &Client, start: &str, here: &str, after: &str) {
    let there = position(client).await.unwrap();
    press(client, "u").await;
    moved(client, Some(Some(&there))).await;
    assert_eq!(position(client).await.unwrap(), here, "u undoes the jump");
    press(client, "Backspace").await;
    moved(client, Some(Some(here))).await;
    assert_eq!(
        position(client).await.unwrap(),
        start,
        "Backspace undoes the move"
    );
    press(client, "b").await;
    moved(client, Some(Some(start))).await;
    assert_eq!(
        position(client).await.unwrap(),
        after,
        "b plays the best move"
    );
}

/// A mistyped position: the text stays as typed, the address and the board stay, and the
/// status says in one line what is wrong. Typed right, the page shows it.
async fn a_typed_position_is_checked(client: &Client) {
    let mistyped = "1,0,0,2,0,3/0,1,1,0,2 20-18 N";
    let input = client.find(Locator::Id("position-text")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(mistyped).await.unwrap();
    let here = position(client).await.unwrap();
    client
        .find(Locator::Id("go"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let class = "return document.getElementById('status').className;";
    until(client, class, |v| v == "error").await;
    let error = text(client, "status").await;
    assert!(
        error.contains("same number") && !error.contains('\n'),
        "{error}"
    );
    assert_eq!(
        input.prop("value").await.unwrap().as_deref(),
        Some(mistyped)
    );
    assert_eq!(position(client).await.unwrap(), here);

    let typed = "1,0,0,2,0,3/0,1,1,0,2,0 20-18 N";
    let input = client.find(Locator::Id("position-text")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(typed).await.unwrap();
    let here = position(client).await.unwrap();
    client
        .find(Locator::Id("go"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    moved(client, Some(Some(&here))).await;
    assert_eq!(position(client).await.unwrap(), typed);
    assert!(text(client, "status").await.contains("North to move"));
}

/// A phone's width: nothing of the page at `url` sticks out.
async fn the_page_fits_a_phone(client: &Client, url: &str) {
    client.set_window_size(380, 800).await.unwrap();
    client.goto(url).await.unwrap();
    ready(client).await;
    let wide = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        wide[0].as_u64().unwrap() <= wide[1].as_u64().unwrap(),
        "at 380 px: {wide}"
    );
    client.set_window_size(1100, 1000).await.unwrap();
}
