//! The address holds the game, in Kalah(3,3): a game chosen through the API, played by clicks
//! (its moves in the address, a history entry each), back and forward a move each, opened by a
//! link with its moves, and undone there.

use std::net::SocketAddr;
use std::sync::Arc;

use fantoccini::Client;

use crate::common::{chromedriver, kalah33_tables, on_page};
use crate::games::{game_with_mistakes, shown_after};
use crate::page::{address_moves, click_and_move, moved, position, press, ready};

/// The game's options, as its address writes them.
pub const KALAH33: &str = "game=kalah&rules=standard&pits=3&seeds=3";

#[test]
fn the_address_holds_the_game_played_by_clicks_and_opened_by_a_link() {
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
        assert!(moves.len() >= 4, "{moves:?}");
        let end = shown_after(&app, KALAH33, &moves).await;
        let one_back = shown_after(&app, KALAH33, &moves[..moves.len() - 1]).await;
        played_by_clicks(client, addr, &moves, &end).await;
        back_and_forward(client, &moves, &end, &one_back).await;
        a_link_and_undo(client, addr, &moves, &end, &one_back).await;
    });
}

/// The game played by clicks from the start, to `end`: the address holds the moves played,
/// written as the notation writes them.
async fn played_by_clicks(client: &Client, addr: SocketAddr, moves: &[String], end: &str) {
    client
        .goto(&format!("http://{addr}/?{KALAH33}"))
        .await
        .unwrap();
    ready(client).await;
    for (i, mv) in moves.iter().enumerate() {
        click_and_move(client, &format!("#board button[data-move='{mv}']")).await;
        assert_eq!(address_moves(client).await, moves[..=i].join(","));
    }
    assert_eq!(position(client).await.unwrap(), end);
    let search = client
        .execute("return location.search;", vec![])
        .await
        .unwrap();
    let written = format!("moves={}", moves.join(","));
    assert!(
        search.as_str().unwrap().contains(&written),
        "as written: {search}"
    );
}

/// The back button walks back one move (to `one_back`), forward replays it (to `end`).
async fn back_and_forward(client: &Client, moves: &[String], end: &str, one_back: &str) {
    client.back().await.unwrap();
    moved(client, Some(Some(end))).await;
    assert_eq!(
        address_moves(client).await,
        moves[..moves.len() - 1].join(",")
    );
    assert_eq!(position(client).await.unwrap(), one_back);
    client.forward().await.unwrap();
    moved(client, Some(Some(one_back))).await;
    assert_eq!(position(client).await.unwrap(), end);
}

/// A link with the moves opens the same position; undo there drops its last move.
async fn a_link_and_undo(
    client: &Client,
    addr: SocketAddr,
    moves: &[String],
    end: &str,
    one_back: &str,
) {
    let link = format!("http://{addr}/?{KALAH33}&moves={}", moves.join(","));
    client.goto(&link).await.unwrap();
    ready(client).await;
    assert_eq!(position(client).await.unwrap(), end);
    press(client, "u").await;
    moved(client, Some(Some(end))).await;
    assert_eq!(position(client).await.unwrap(), one_back);
    assert_eq!(
        address_moves(client).await,
        moves[..moves.len() - 1].join(",")
    );
}
