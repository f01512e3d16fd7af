//! Oware and Bao on the page: the moves listed against the library and the first clicked; Bao's
//! proven start; and the game selector's choice of a rule set whose tables are present.

use fantoccini::{Client, Locator};
use serde_json::json;

use crate::common::{chromedriver, mancala, on_page};
use crate::page::{buttons, moved, position, ready, screenshot, text, until};
use crate::play::{kalah_or_oware_click, listed};

#[test]
fn oware_and_bao_play_a_click_and_the_game_selector_finds_tables() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    // Oware(4) awari, tables to 8 seeds.
    let oware = mancala(
        granary::GameName::Oware,
        4,
        "awari",
        "2,0,1,1/0,2,1,1 0-0 S",
    );
    granary::build(&tablebase, oware.kind(), 8, Some(2), None, &()).unwrap();
    let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
    on_page(&driver, &state, async |client, addr| {
        // Oware: the best listed move.
        let position = granary::format_position(&oware.position, 4);
        let url = format!(
            "http://{addr}/?game=oware&pits=4&rules=awari&position={}",
            position.replace(' ', "%20")
        );
        client.goto(&url).await.unwrap();
        ready(client).await;
        screenshot(client, "oware.png").await;
        kalah_or_oware_click(client, &tablebase, &oware).await;
        // Bao la kujifunza.
        client
            .goto(&format!("http://{addr}/?game=bao&rules=kujifunza"))
            .await
            .unwrap();
        ready(client).await;
        screenshot(client, "bao.png").await;
        bao_start_and_a_click(client).await;
        the_game_selector_finds_tables(client, &tablebase).await;
    });
}

/// Sorted.
fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// Bao la kujifunza's start: the proven result, the engine's list of every legal move; its
/// first clicked, the position after it with its own list, proven nothing.
async fn bao_start_and_a_click(client: &Client) {
    assert!(text(client, "status").await.contains("South to move"));
    assert!(
        text(client, "proven")
            .await
            .contains("South wins, first move A3R")
    );
    let legend = client.find(Locator::Id("legend")).await.unwrap();
    assert!(!legend.is_displayed().await.unwrap());
    let board = text(client, "board").await;
    for row in [
        "North's back row",
        "North's front row",
        "South's front row",
        "South's back row",
    ] {
        assert!(board.contains(row), "{board}");
    }
    let (rules, start) = granary::Setup {
        rules: Some("kujifunza".into()),
        ..granary::Setup::default()
    }
    .bao(None)
    .unwrap();
    let shown = granary::bao::show(&rules, start, &[] as &[&str]).unwrap();
    let list = buttons(client, "#moves button[data-move]").await;
    let names: Vec<String> = list.iter().map(|(m, _)| m.clone()).collect();
    assert_eq!(sorted(names), sorted(shown.legal_moves.clone()));
    let first = list[0].0.clone();
    let before = position(client).await.unwrap();
    assert_eq!(before, shown.position);
    client
        .find(Locator::Css(&format!("#moves button[data-move='{first}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    moved(client, Some(Some(&before))).await;
    let after = granary::bao::show(&rules, start, &[first.as_str()]).unwrap();
    assert_eq!(position(client).await.unwrap(), after.position);
    assert!(text(client, "status").await.contains("North to move"));
    assert_eq!(text(client, "proven").await, "", "proven only at the start");
    let names: Vec<String> = buttons(client, "#moves button[data-move]")
        .await
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert_eq!(sorted(names), sorted(after.legal_moves.clone()));
    let last = client.find(Locator::Css(".pit.last")).await.unwrap();
    assert_eq!(
        last.attr("data-pit").await.unwrap().as_deref(),
        Some(&first[..2])
    );
}

/// The game selector (from pickers of 6 pits and 4 seeds): Oware's default rule set (abapa) has
/// no tables here, and its only tables are awari's of 4 pits to 8 seeds: the page shows
/// Oware(4,1) awari and says so.
async fn the_game_selector_finds_tables(client: &Client, tablebase: &granary::Tablebase) {
    let pickers =
        "return ['game', 'pits', 'seeds'].map((id) => document.getElementById(id).value);";
    assert_eq!(
        client.execute(pickers, vec![]).await.unwrap(),
        json!(["bao", "6", "4"])
    );
    client
        .find(Locator::Id("game"))
        .await
        .unwrap()
        .select_by_value("oware")
        .await
        .unwrap();
    until(
        client,
        "return [document.body.dataset.ready, new URLSearchParams(location.search).get('rules')];",
        |v| v[0] == "1" && v[1] == "awari",
    )
    .await;
    let pickers = client
        .execute(
            "return ['rules', 'pits', 'seeds'].map((id) => document.getElementById(id).value);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(pickers, json!(["awari", "4", "1"]));
    let note = text(client, "note").await;
    assert!(note.contains("awari"), "{note}");
    let status = client.find(Locator::Id("status")).await.unwrap();
    assert_ne!(
        status.attr("class").await.unwrap().as_deref(),
        Some("error"),
        "{}",
        status.text().await.unwrap()
    );
    let oware_start = mancala(
        granary::GameName::Oware,
        4,
        "awari",
        "1,1,1,1/1,1,1,1 0-0 S",
    );
    assert_eq!(
        buttons(client, "#moves button[data-move]").await,
        listed(&tablebase.query_or_search(&oware_start).unwrap())
    );
}
