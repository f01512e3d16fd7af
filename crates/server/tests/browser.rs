//! The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
//! installed by `.ci/run`). In Kalah (a Kalah(6) position searched beyond small tables), Oware
//! and Bao it checks the listed moves against the library, clicks the best listed move and checks
//! the new state (the move played and highlighted, the side to move flipped, the list updated);
//! in Kalah also the board and its legal moves drawn while the search waits for a slot, a step of
//! the principal variation, the keys for undo and best move, the position box (a mistyped
//! position keeps its text and says what is wrong), and a phone's width; the game selector's
//! choice of a rule set whose tables are present.
//!
//! Behind the crate's `browser` feature, as it needs chromedriver and Chromium (a plain
//! `cargo test` neither compiles nor links its WebDriver client): `.ci/run` installs them and runs
//! it (`cargo test --profile ci -p granary-server --features browser --test browser`); run that
//! way without chromedriver it says `NOT RUN`, and fails when `CI` is set.
//!
//! With `GRANARY_SCREENSHOTS=DIR` it saves `kalah.png`, `oware.png` and `bao.png` there, at a
//! desktop width (`docs/screenshots/` holds them:
//! `GRANARY_SCREENSHOTS=$PWD/docs/screenshots cargo test --profile ci -p granary-server --features browser --test browser`).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn mancala(game: granary::GameName, pits: usize, rules: &str, position: &str) -> granary::Mancala {
    granary::Setup {
        pits: Some(pits),
        rules: Some(rules.into()),
        ..granary::Setup::default()
    }
    .mancala(game, Some(position))
    .unwrap()
}

/// Whether the page has drawn what its address says, and the address's `position`, read at once.
async fn snapshot(client: &Client) -> (bool, Option<String>) {
    let v = client
        .execute(
            "return [document.body.dataset.ready, new URLSearchParams(location.search).get('position')];",
            vec![],
        )
        .await
        .unwrap();
    (v[0] == "1", v[1].as_str().map(String::from))
}

/// The value of `script` (a JSON value) once `done` holds of it, within 30 s.
async fn until(
    client: &Client,
    script: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let v = client.execute(script, vec![]).await.unwrap();
        if done(&v) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never: {script} (last {v})"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the page has drawn what its address says.
async fn ready(client: &Client) {
    moved(client, None).await;
}

/// Waits until the page's position is no longer `before` (if given) and the page has drawn it.
async fn moved(client: &Client, before: Option<Option<&str>>) {
    let started = Instant::now();
    loop {
        let (done, now) = snapshot(client).await;
        if done && before.is_none_or(|b| now.as_deref() != b) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the page never got ready"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The `position` in the page's address.
async fn position(client: &Client) -> Option<String> {
    snapshot(client).await.1
}

/// `(data-move, data-value)` of the buttons under `css`, in page order.
async fn buttons(client: &Client, css: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for button in client.find_all(Locator::Css(css)).await.unwrap() {
        out.push((
            button.attr("data-move").await.unwrap().unwrap(),
            button.attr("data-value").await.unwrap().unwrap_or_default(),
        ));
    }
    out
}

async fn text(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// The moves as the page lists them: best first (by value, then pit).
fn listed(query: &granary::Query) -> Vec<(String, String)> {
    let mut moves: Vec<&granary::MoveValue> = query.moves.iter().collect();
    moves.sort_by_key(|m| (-m.value, m.pit));
    moves
        .iter()
        .map(|m| (m.pit.to_string(), m.value.to_string()))
        .collect()
}

fn sorted(mut v: Vec<(String, String)>) -> Vec<(String, String)> {
    v.sort();
    v
}

fn side_word(side: &str) -> &'static str {
    if side == "south" { "South" } else { "North" }
}

/// Checks the page against the library's answer for `game`, clicks the best listed move, and
/// checks the position after it; returns that position.
async fn kalah_or_oware_click(
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

async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("GRANARY_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(&path, client.screenshot().await.unwrap()).unwrap();
        eprintln!("saved {}", path.display());
    }
}

#[test]
fn the_page_lists_moves_and_plays_a_click_in_every_game() {
    if Command::new("chromedriver")
        .arg("--version")
        .output()
        .is_err()
    {
        // CI installs it (.ci/run) and must run the test; elsewhere say plainly it did not run.
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is not installed, and CI is set: the browser test must run"
        );
        eprintln!(
            "NOT RUN: chromedriver is not installed (apt-get install chromium chromium-driver)"
        );
        return;
    }
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
    // Oware(4) awari, tables to 8 seeds.
    let oware = mancala(
        granary::GameName::Oware,
        4,
        "awari",
        "2,0,1,1/0,2,1,1 0-0 S",
    );
    granary::build(&tablebase, oware.kind(), 8, Some(2), None, &()).unwrap();

    let port = free_port();
    let _driver = Driver(
        Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // One search at a time, so that holding its slot holds every search.
        let mut config = granary_server::Config::new(dir.path().to_path_buf());
        config.max_searches = 1;
        let state = granary_server::state(&config);
        let app = granary_server::app(std::sync::Arc::clone(&state));
        tokio::spawn(async move { axum::serve(listener, app).await });

        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-quic", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                         format!("--user-data-dir={}", profile.path().display()),
                         "--window-size=1100,1000"],
            }),
        );
        let webdriver = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let client = loop {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => break client,
                Err(e) if started.elapsed() > Duration::from_secs(30) => {
                    panic!("chromedriver: {e}")
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };

        // Kalah: the best listed move, then a step of the principal variation, undo by key,
        // the best move by key, and a position typed in.
        let url = format!(
            "http://{addr}/?game=kalah&pits=6&rules=empty&position={}",
            granary::format_position(&kalah.position, 6).replace(' ', "%20")
        );
        // While every search slot is held, the page draws the board and the legal moves at once
        // (no values yet), and fills in the values once the search has run.
        let held = state.searches.try_slot().expect("a free search slot");
        client.goto(&url).await.unwrap();
        until(&client, "return document.body.dataset.board;", |v| v == "1").await;
        assert!(!snapshot(&client).await.0, "the values cannot be in yet");
        let legal: Vec<(String, String)> = granary::show::show(&kalah, &[])
            .unwrap()
            .legal_moves
            .iter()
            .map(|m| (m.to_string(), String::new()))
            .collect();
        assert_eq!(sorted(buttons(&client, "#board button[data-move]").await), legal);
        assert!(buttons(&client, "#moves button[data-move]").await.is_empty());
        assert!(text(&client, "status").await.contains("South to move"), "{}", text(&client, "status").await);
        assert!(!text(&client, "verdict").await.is_empty(), "the page says it is finding the values");
        drop(held);
        ready(&client).await;
        screenshot(&client, "kalah.png").await;
        let start = granary::format_position(&kalah.position, 6);
        let after = kalah_or_oware_click(&client, &tablebase, &kalah).await;
        let answer = tablebase.query_or_search(&after).unwrap();

        let steps = client.find_all(Locator::Css("#pv button[data-step]")).await.unwrap();
        assert_eq!(steps.len(), answer.pv.len());
        let mut at = after;
        for &pit in &answer.pv[..2] {
            at.position = granary::show::show(&at, &[pit]).unwrap().pos;
        }
        let here = position(&client).await.unwrap();
        steps[1].click().await.unwrap();
        moved(&client, Some(Some(&here))).await;
        assert_eq!(position(&client).await.unwrap(), granary::format_position(&at.position, 6));

        let press = |key: &'static str| {
            let client = client.clone();
            async move {
                client
                    .execute(
                        "document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));",
                        vec![json!(key)],
                    )
                    .await
                    .unwrap();
            }
        };
        let there = position(&client).await.unwrap();
        press("u").await;
        moved(&client, Some(Some(&there))).await;
        assert_eq!(position(&client).await.unwrap(), here, "u undoes the jump");
        press("Backspace").await;
        moved(&client, Some(Some(&here))).await;
        assert_eq!(position(&client).await.unwrap(), start, "Backspace undoes the move");
        press("b").await;
        moved(&client, Some(Some(&start))).await;
        assert_eq!(position(&client).await.unwrap(), granary::format_position(&after.position, 6), "b plays the best move");

        // A mistyped position: the text stays as typed, the address and the board stay, and
        // the status says in one line what is wrong.
        let mistyped = "1,0,0,2,0,3/0,1,1,0,2 20-18 N";
        let input = client.find(Locator::Id("position-text")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(mistyped).await.unwrap();
        let here = position(&client).await.unwrap();
        client.find(Locator::Id("go")).await.unwrap().click().await.unwrap();
        until(&client, "return document.getElementById('status').className;", |v| v == "error").await;
        let error = text(&client, "status").await;
        assert!(error.contains("same number") && !error.contains('\n'), "{error}");
        assert_eq!(input.prop("value").await.unwrap().as_deref(), Some(mistyped));
        assert_eq!(position(&client).await.unwrap(), here);

        let typed = "1,0,0,2,0,3/0,1,1,0,2,0 20-18 N";
        let input = client.find(Locator::Id("position-text")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(typed).await.unwrap();
        let here = position(&client).await.unwrap();
        client.find(Locator::Id("go")).await.unwrap().click().await.unwrap();
        moved(&client, Some(Some(&here))).await;
        assert_eq!(position(&client).await.unwrap(), typed);
        assert!(text(&client, "status").await.contains("North to move"));

        // A phone's width: nothing sticks out of the page.
        client.set_window_size(380, 800).await.unwrap();
        client.goto(&url).await.unwrap();
        ready(&client).await;
        let wide = client
            .execute("return [document.documentElement.scrollWidth, window.innerWidth];", vec![])
            .await
            .unwrap();
        assert!(wide[0].as_u64().unwrap() <= wide[1].as_u64().unwrap(), "at 380 px: {wide}");
        client.set_window_size(1100, 1000).await.unwrap();

        // The game selector: Oware's default rule set (abapa) has no tables here, and its only
        // tables are awari's of 4 pits to 8 seeds: the page shows Oware(4,1) awari and says so.
        client.find(Locator::Id("game")).await.unwrap().select_by_value("oware").await.unwrap();
        until(
            &client,
            "return [document.body.dataset.ready, new URLSearchParams(location.search).get('rules')];",
            |v| v[0] == "1" && v[1] == "awari",
        )
        .await;
        let pickers = client
            .execute("return ['rules', 'pits', 'seeds'].map((id) => document.getElementById(id).value);", vec![])
            .await
            .unwrap();
        assert_eq!(pickers, json!(["awari", "4", "1"]));
        assert!(text(&client, "note").await.contains("awari"), "{}", text(&client, "note").await);
        let status = client.find(Locator::Id("status")).await.unwrap();
        assert_ne!(status.attr("class").await.unwrap().as_deref(), Some("error"), "{}", status.text().await.unwrap());
        let oware_start = mancala(granary::GameName::Oware, 4, "awari", "1,1,1,1/1,1,1,1 0-0 S");
        assert_eq!(
            buttons(&client, "#moves button[data-move]").await,
            listed(&tablebase.query_or_search(&oware_start).unwrap())
        );

        // Oware: the best listed move.
        client
            .goto(&format!(
                "http://{addr}/?game=oware&pits=4&rules=awari&position={}",
                granary::format_position(&oware.position, 4).replace(' ', "%20")
            ))
            .await
            .unwrap();
        ready(&client).await;
        screenshot(&client, "oware.png").await;
        kalah_or_oware_click(&client, &tablebase, &oware).await;

        // Bao la kujifunza: its start, the proven result, the engine's list; click the first.
        client.goto(&format!("http://{addr}/?game=bao&rules=kujifunza")).await.unwrap();
        ready(&client).await;
        screenshot(&client, "bao.png").await;
        assert!(text(&client, "status").await.contains("South to move"));
        assert!(text(&client, "proven").await.contains("South wins, first move A3R"));
        assert!(!client.find(Locator::Id("legend")).await.unwrap().is_displayed().await.unwrap());
        let board = text(&client, "board").await;
        for row in ["North's back row", "North's front row", "South's front row", "South's back row"] {
            assert!(board.contains(row), "{board}");
        }
        let (rules, start) = granary::Setup {
            rules: Some("kujifunza".into()),
            ..granary::Setup::default()
        }
        .bao(None)
        .unwrap();
        let shown = granary::bao::show(&rules, start, &[] as &[&str]).unwrap();
        let list = buttons(&client, "#moves button[data-move]").await;
        let mut names: Vec<String> = list.iter().map(|(m, _)| m.clone()).collect();
        let mut legal = shown.legal_moves.clone();
        names.sort();
        legal.sort();
        assert_eq!(names, legal);
        let first = list[0].0.clone();
        client
            .find(Locator::Css(&format!("#moves button[data-move='{first}']")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        moved(&client, Some(None)).await;
        let after = granary::bao::show(&rules, start, &[first.as_str()]).unwrap();
        assert_eq!(position(&client).await.unwrap(), after.position);
        assert!(text(&client, "status").await.contains("North to move"));
        assert_eq!(text(&client, "proven").await, "", "proven only at the start");
        let mut names: Vec<String> = buttons(&client, "#moves button[data-move]")
            .await
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        let mut legal = after.legal_moves.clone();
        names.sort();
        legal.sort();
        assert_eq!(names, legal);
        let last = client.find(Locator::Css(".pit.last")).await.unwrap();
        assert_eq!(last.attr("data-pit").await.unwrap().as_deref(), Some(&first[..2]));
        client.close().await.unwrap();
    });
}
