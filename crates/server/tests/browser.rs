//! The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`,
//! installed by `.ci/run`). In Kalah (a Kalah(6) position searched beyond small tables), Oware
//! and Bao it checks the listed moves against the library, clicks the best listed move and checks
//! the new state (the move played and highlighted, the side to move flipped, the list updated);
//! in Kalah also the board and its legal moves drawn while the search waits for a slot, a step of
//! the principal variation, the keys for undo and best move, the position box (a mistyped
//! position keeps its text and says what is wrong), and a phone's width; the game selector's
//! choice of a rule set whose tables are present. In Kalah(3,3) the address holding the game: a
//! game chosen through the API with moves that lose seeds, played by clicks (its moves in the
//! address, back and forward a move each, undo), opened by a link with its moves; the review
//! pane's rows, summaries and chart (a point a ply, South's value, the mistakes marked) equal to
//! the API's review, a click on a marked ply or a row showing the position before it; a pasted
//! text that is no record answered in a line. In Oware from above its tables, the plies beyond
//! them with the engine's estimates in words and as hollow points on a dashed line, never a
//! value or a mark. Granary plays a side: perfectly within the tables (said so), the engine's
//! move beyond them (labelled an estimate), the game going on.
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
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// chromedriver on its own port, with a browser profile of its own; killed when dropped.
struct Driver {
    child: Child,
    port: u16,
    profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// chromedriver started on a free port; `None` (the test says `NOT RUN`) where it is not
/// installed, a failure when `CI` is set.
fn chromedriver() -> Option<Driver> {
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
        return None;
    }
    let port = free_port();
    let mut child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Ready once it says it listens; the rest of its output drained so that it never blocks.
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
    let ready = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|line| line.contains("started successfully"));
    assert!(ready, "chromedriver ended without saying it listens");
    std::thread::spawn(move || lines.for_each(drop));
    Some(Driver {
        child,
        port,
        profile: tempfile::tempdir().unwrap(),
    })
}

/// A headless Chromium driven by `driver` (listening: [`chromedriver`] waits for it), at a
/// desktop width.
async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-quic", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                     format!("--user-data-dir={}", driver.profile.path().display()),
                     "--window-size=1100,1000"],
        }),
    );
    let webdriver = format!("http://127.0.0.1:{}", driver.port);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&webdriver)
        .await
        .unwrap_or_else(|e| panic!("chromedriver: {e}"))
}

/// `state`'s application served on a free port: its address.
async fn serve(state: &Arc<granary_server::State>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = granary_server::app(Arc::clone(state));
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
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

/// A server over `dir` (no tables) that searches every Kalah(6,4) position however long,
/// with a request limit of 2 s, and the start of Kalah(6,4).
fn searching_server(
    dir: &std::path::Path,
) -> (std::sync::Arc<granary_server::State>, granary::Mancala) {
    let mut config = granary_server::Config::new(dir.to_path_buf());
    config.search_seconds = f64::INFINITY;
    config.timeout = Duration::from_secs(2);
    let start = granary::Setup::default()
        .mancala(granary::GameName::Kalah, None)
        .unwrap();
    (granary_server::state(&config), start)
}

/// Kalah(3,3) standard, its tables to 18 seeds (every position of the game) built into
/// `tablebase`'s directory.
fn kalah33_tables(tablebase: &granary::Tablebase) -> granary::Mancala {
    let kalah = mancala(granary::GameName::Kalah, 3, "standard", "3,3,3/3,3,3");
    granary::build(tablebase, kalah.kind(), 18, Some(2), None, &()).unwrap();
    kalah
}

/// Whether the page has drawn what its address says, and the position it draws (its
/// `data-position`), read at once.
async fn snapshot(client: &Client) -> (bool, Option<String>) {
    let v = client
        .execute(
            "return [document.body.dataset.ready, document.body.dataset.position];",
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

/// The position the page draws.
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
    // Oware(4) awari, tables to 8 seeds.
    let oware = mancala(
        granary::GameName::Oware,
        4,
        "awari",
        "2,0,1,1/0,2,1,1 0-0 S",
    );
    granary::build(&tablebase, oware.kind(), 8, Some(2), None, &()).unwrap();

    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // One search at a time, so that holding its slot holds every search.
        let mut config = granary_server::Config::new(dir.path().to_path_buf());
        config.max_searches = 1;
        let state = granary_server::state(&config);
        let addr = serve(&state).await;
        let client = browser(&driver).await;

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
        let before = position(&client).await.unwrap();
        assert_eq!(before, shown.position);
        client
            .find(Locator::Css(&format!("#moves button[data-move='{first}']")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        moved(&client, Some(Some(&before))).await;
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

/// `request` answered by `app` directly (no browser): its JSON, which must come with 200.
async fn call(app: &axum::Router, request: axum::http::Request<axum::body::Body>) -> Value {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let uri = request.uri().to_string();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, axum::http::StatusCode::OK, "{uri}: {body}");
    body
}

async fn get_json(app: &axum::Router, uri: &str) -> Value {
    let request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .unwrap();
    call(app, request).await
}

/// `/api/v1/show` of `options` (a query string) after `moves` from the start: its position.
async fn shown_after(app: &axum::Router, options: &str, moves: &[String]) -> String {
    let shown = get_json(
        app,
        &format!("/api/v1/show?{options}&moves={}", moves.join(",")),
    )
    .await;
    shown["position"].as_str().unwrap().to_string()
}

/// A game of `options` chosen through the API's query from the start: at even plies a best move,
/// at odd plies the move of least value (the lowest pit of those), to its end or 40 moves.
async fn game_with_mistakes(app: &axum::Router, options: &str) -> Vec<String> {
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
const OWARE_START: &str = "2,0,1,1/0,2,1,1 0-0 S";
/// Seeds on the board the Oware tables of the review test cover.
const OWARE_TABLES: u32 = 6;

/// A game of `options` (Oware from [`OWARE_START`]) chosen through the API's show: each move the
/// one that leaves the fewest seeds on the board (the lowest pit of those), until two moves have
/// been played within the tables, the game ends, or 40 moves.
async fn game_into_tables(app: &axum::Router, options: &str) -> Vec<String> {
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

/// The page's address: its `moves` parameter (none: "").
async fn address_moves(client: &Client) -> String {
    let v = client
        .execute(
            "return new URLSearchParams(location.search).get('moves') || '';",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

/// Clicks `css` and waits for the page to draw a position other than the one it drew.
async fn click_and_move(client: &Client, css: &str) {
    let before = position(client).await.unwrap();
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    moved(client, Some(Some(&before))).await;
}

/// The review pane's answers and errors drawn so far (its `data-count`).
async fn reviews_drawn(client: &Client) -> u64 {
    let v = client
        .execute(
            "return Number(document.getElementById('review').dataset.count);",
            vec![],
        )
        .await
        .unwrap();
    v.as_u64().unwrap()
}

/// Clicks the element with the id `id`.
async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Clicks `button` (an id) of the review pane and waits for its next answer or error; whether
/// it was an error.
async fn review_by(client: &Client, button: &str) -> bool {
    let count = reviews_drawn(client).await;
    click(client, button).await;
    let v = until(
        client,
        "const r = document.getElementById('review'); \
         return [r.dataset.ready, Number(r.dataset.count), r.dataset.error];",
        |v| v[0] == "1" && v[1].as_u64() > Some(count),
    )
    .await;
    v[2] == "1"
}

/// Each attribute of `names` of every element under `css`, in page order (`null` if absent).
async fn data(client: &Client, css: &str, names: &[&str]) -> Vec<Value> {
    client
        .execute(
            "return [...document.querySelectorAll(arguments[0])].map((e) => \
             Object.fromEntries(arguments[1].map((n) => [n, e.getAttribute(n)])));",
            vec![json!(css), json!(names)],
        )
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// `v` (a JSON number or boolean) as the page writes it in an attribute.
fn attr(v: &Value) -> Value {
    match v {
        Value::Bool(b) => json!(if *b { "1" } else { "0" }),
        Value::Number(n) => json!(n.to_string()),
        _ => panic!("not a number or a boolean: {v}"),
    }
}

#[test]
fn the_address_holds_the_game_and_the_review_charts_it() {
    let Some(driver) = chromedriver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tablebase = granary::Tablebase::new(dir.path());
    // Kalah(3,3) standard: 18 seeds, tables to 18, every ply exact.
    kalah33_tables(&tablebase);
    // Oware(4) awari, tables to 6 seeds: a game from 8 seeds starts beyond them.
    let oware = mancala(granary::GameName::Oware, 4, "awari", OWARE_START);
    granary::build(&tablebase, oware.kind(), OWARE_TABLES, Some(2), None, &()).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
        let addr = serve(&state).await;
        let app = granary_server::app(Arc::clone(&state));
        let client = browser(&driver).await;
        let options = "game=kalah&rules=standard&pits=3&seeds=3";

        // The game, and its review answered by the API itself: it has a move that loses seeds.
        let moves = game_with_mistakes(&app, options).await;
        assert!(moves.len() >= 4, "{moves:?}");
        let pits: Vec<u64> = moves.iter().map(|m| m.parse().unwrap()).collect();
        let body = json!({
            "game": "kalah", "rules": "standard", "pits": 3, "seeds": 3, "moves": pits,
        });
        let request = axum::http::Request::post("/api/v1/review")
            .header(axum::http::header::CONTENT_TYPE, "application/json")
            .body(axum::body::Body::from(body.to_string()))
            .unwrap();
        let review = call(&app, request).await;
        let plies = review["plies"].as_array().unwrap().clone();
        assert_eq!(plies.len(), moves.len());
        assert!(
            plies.iter().any(|p| p["loss"].as_i64().unwrap() > 0),
            "{review}"
        );
        let n = moves.len();
        let end = shown_after(&app, options, &moves).await;

        // Played by clicks from the start: the address holds the moves, a history entry each.
        client
            .goto(&format!("http://{addr}/?{options}"))
            .await
            .unwrap();
        ready(&client).await;
        for (i, mv) in moves.iter().enumerate() {
            click_and_move(&client, &format!("#board button[data-move='{mv}']")).await;
            assert_eq!(address_moves(&client).await, moves[..=i].join(","));
        }
        assert_eq!(position(&client).await.unwrap(), end);
        let search = client
            .execute("return location.search;", vec![])
            .await
            .unwrap();
        let written = format!("moves={}", moves.join(","));
        assert!(
            search.as_str().unwrap().contains(&written),
            "as written: {search}"
        );
        // The back button walks back one move, forward replays it.
        client.back().await.unwrap();
        moved(&client, Some(Some(&end))).await;
        assert_eq!(address_moves(&client).await, moves[..n - 1].join(","));
        assert_eq!(
            position(&client).await.unwrap(),
            shown_after(&app, options, &moves[..n - 1]).await
        );
        let one_back = position(&client).await.unwrap();
        client.forward().await.unwrap();
        moved(&client, Some(Some(&one_back))).await;
        assert_eq!(position(&client).await.unwrap(), end);

        // A link with the moves opens the same position; undo there drops its last move.
        let link = format!("http://{addr}/?{options}&moves={}", moves.join(","));
        client.goto(&link).await.unwrap();
        ready(&client).await;
        assert_eq!(position(&client).await.unwrap(), end);
        client
            .execute(
                "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'u', bubbles: true}));",
                vec![],
            )
            .await
            .unwrap();
        moved(&client, Some(Some(&end))).await;
        assert_eq!(position(&client).await.unwrap(), one_back);
        assert_eq!(address_moves(&client).await, moves[..n - 1].join(","));

        // The review of the whole game: the page's figures are the API's.
        client.goto(&link).await.unwrap();
        ready(&client).await;
        assert!(
            !review_by(&client, "review-game").await,
            "{}",
            text(&client, "review-status").await
        );
        let names = [
            "data-ply",
            "data-answer",
            "data-value",
            "data-played",
            "data-loss",
            "data-changed",
        ];
        let rows = data(&client, "#review-rows tr[data-ply]", &names).await;
        assert_eq!(rows.len(), n);
        for (row, ply) in rows.iter().zip(&plies) {
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
        let losses = client
            .execute(
                "return [...document.querySelectorAll('#review-rows tr[data-ply] td.lost')] \
                 .map((td) => td.textContent);",
                vec![],
            )
            .await
            .unwrap();
        let api_losses: Vec<String> = plies.iter().map(|p| p["loss"].to_string()).collect();
        assert_eq!(losses, json!(api_losses));
        let sides = data(
            &client,
            "#review-sides [data-side]",
            &["data-side", "data-played", "data-lost"],
        )
        .await;
        for (i, side) in sides.iter().enumerate() {
            assert_eq!(side["data-side"], ["south", "north"][i]);
            assert_eq!(side["data-played"], attr(&review["sides"][i]["played"]));
            assert_eq!(side["data-lost"], attr(&review["sides"][i]["lost"]));
        }

        // The chart: a point a ply (all exact here), South's value after each; its markers.
        let lines = data(
            &client,
            "#review-chart polyline",
            &["points", "data-points"],
        )
        .await;
        let points: usize = lines
            .iter()
            .map(|l| l["points"].as_str().unwrap().split_whitespace().count())
            .sum();
        assert_eq!(points, n, "{lines:?}");
        let markers = data(
            &client,
            "#review-chart [data-ply]",
            &[
                "data-ply",
                "data-value",
                "data-loss",
                "data-changed",
                "class",
            ],
        )
        .await;
        assert_eq!(markers.len(), n);
        for (marker, ply) in markers.iter().zip(&plies) {
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
            let expected = if ply["changed"] == true {
                "blunder"
            } else if ply["loss"].as_i64().unwrap() > 0 {
                "mistake"
            } else {
                "point"
            };
            assert!(
                class.split(' ').any(|c| c == expected),
                "ply {}: {class}",
                ply["ply"]
            );
        }

        // A click on a marked ply shows the position before it, its moves valued as usual.
        let marked = plies
            .iter()
            .find(|p| p["changed"] == true)
            .or_else(|| plies.iter().find(|p| p["loss"].as_i64().unwrap() > 0))
            .unwrap();
        let k = usize::try_from(marked["ply"].as_u64().unwrap()).unwrap();
        click_and_move(&client, &format!("#review-chart [data-ply='{k}']")).await;
        assert_eq!(
            position(&client).await.unwrap(),
            marked["position"].as_str().unwrap()
        );
        assert_eq!(address_moves(&client).await, moves[..k - 1].join(","));
        let listed = buttons(&client, "#moves button[data-move]").await;
        assert_eq!(
            listed[0].1,
            marked["value"].to_string(),
            "the best listed is the ply's value"
        );
        let played = listed.iter().find(|(m, _)| *m == moves[k - 1]).unwrap();
        assert_eq!(played.1, marked["played"].to_string());
        let now = data(&client, "#review-rows tr.now", &["data-ply"]).await;
        assert_eq!(now, vec![json!({ "data-ply": k.to_string() })]);
        // Back to the whole game; then the first ply from its row: the start.
        client.back().await.unwrap();
        moved(&client, Some(Some(marked["position"].as_str().unwrap()))).await;
        assert_eq!(position(&client).await.unwrap(), end);
        click_and_move(&client, "#review-rows tr[data-ply='1'] button").await;
        assert_eq!(
            position(&client).await.unwrap(),
            plies[0]["position"].as_str().unwrap()
        );
        assert_eq!(address_moves(&client).await, "");

        // A pasted text that is no game record: the pane says what is wrong, in a line.
        let record = client.find(Locator::Id("record-text")).await.unwrap();
        record.send_keys("[Game \"nonesuch\"] S1").await.unwrap();
        assert!(review_by(&client, "review-paste").await);
        let error = text(&client, "review-status").await;
        assert!(!error.is_empty() && !error.contains('\n'), "{error}");

        // The record the API wrote back, pasted: the address holds its game and every move,
        // the board its end, and the rows are the API's figures again.
        record.clear().await.unwrap();
        record
            .send_keys(review["record"].as_str().unwrap())
            .await
            .unwrap();
        assert!(
            !review_by(&client, "review-paste").await,
            "{}",
            text(&client, "review-status").await
        );
        assert_eq!(address_moves(&client).await, moves.join(","));
        assert_eq!(position(&client).await.unwrap(), end);
        let again = data(
            &client,
            "#review-rows tr[data-ply]",
            &["data-ply", "data-loss"],
        )
        .await;
        assert_eq!(again.len(), n);
        for (row, ply) in again.iter().zip(&plies) {
            assert_eq!(row["data-loss"], attr(&ply["loss"]), "ply {}", ply["ply"]);
        }

        // Oware from above its tables: the plies beyond them have the engine's estimates, in
        // words, hollow points and a dashed line, never a value or a mark; the exact ones are
        // drawn as before.
        let options = format!(
            "game=oware&rules=awari&pits=4&position={}",
            OWARE_START.replace(' ', "%20")
        );
        let moves = game_into_tables(&app, &options).await;
        client
            .goto(&format!(
                "http://{addr}/?{options}&moves={}",
                moves.join(",")
            ))
            .await
            .unwrap();
        ready(&client).await;
        assert!(
            !review_by(&client, "review-game").await,
            "{}",
            text(&client, "review-status").await
        );
        let mut with_estimates = names.to_vec();
        with_estimates.extend(["data-estimate", "data-estimated-loss", "class"]);
        let rows = data(&client, "#review-rows tr[data-ply]", &with_estimates).await;
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
            assert!(
                row["data-estimated-loss"]
                    .as_str()
                    .unwrap()
                    .parse::<u32>()
                    .is_ok(),
                "{row}"
            );
            assert!(
                !row["class"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .any(|c| c == "mistake" || c == "blunder"),
                "{row}"
            );
            // Its cells: the ply, the side, the move, and the estimates in words with the
            // reason (no value, played, loss, mark).
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
        let count = |lines: &[Value]| -> usize {
            lines
                .iter()
                .map(|l| l["points"].as_str().unwrap().split_whitespace().count())
                .sum()
        };
        let solid = data(
            &client,
            "#review-chart polyline:not(.estimate)",
            &["points"],
        )
        .await;
        assert_eq!(count(&solid), exact);
        let dashed = data(&client, "#review-chart polyline.estimate", &["points"]).await;
        assert_eq!(count(&dashed), estimated);
        let exact_points = data(
            &client,
            "#review-chart circle[data-answer='exact']",
            &["class"],
        )
        .await;
        assert_eq!(exact_points.len(), exact);
        let hollow = data(
            &client,
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
        client.close().await.unwrap();
    });
}

/// An answer kept for `game`'s position, its values made up (every move worth 0): what the page
/// draws is what the server says, and a kept answer is the server's (no tables, no search).
fn made_up_answer(game: &granary::Mancala) -> Arc<granary::Query> {
    let shown = granary::show::show(game, &[]).unwrap();
    let moves: Vec<granary::MoveValue> = shown
        .legal_moves
        .iter()
        .map(|&pit| granary::MoveValue {
            pit,
            value: 0,
            position: granary::show::show(game, &[pit]).unwrap().position,
        })
        .collect();
    let stores = shown.stores.map(i64::from);
    let board = 48 - stores[0] - stores[1];
    Arc::new(granary::Query {
        tables: game.kind().name(),
        position: shown.position,
        to_move: shown.to_move,
        seeds_on_board: u32::try_from(board).unwrap(),
        value: 0,
        final_stores: [
            granary::Seeds(stores[0] + board / 2),
            granary::Seeds(stores[1] + board - board / 2),
        ],
        result: "draw",
        best: shown.legal_moves.clone(),
        moves,
        pv: Vec::new(),
        pv_end: granary::PvEnd::GameOver,
        source: granary::Source::Search,
    })
}

/// The review pane's job attributes: `[ready, done, total, job, rows drawn]`.
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
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let addr = serve(&state).await;
        let client = browser(&driver).await;

        // The game 3,6,2: its first ply kept, its second searched for hours.
        client
            .goto(&format!("http://{addr}/?game=kalah&moves=3,6,2"))
            .await
            .unwrap();
        ready(&client).await;
        click(&client, "review-game").await;
        // The first row and its progress arrive while the job runs on.
        let v = until(&client, REVIEW_JOB, |v| v[1] == 1 && v[4] == 1).await;
        assert_eq!(
            (&v[0], &v[2], &v[5]),
            (&json!("0"), &json!(3), &json!(false)),
            "{v}"
        );
        let job = v[3].as_str().unwrap().to_string();
        assert!(!job.is_empty(), "{v}");
        let progress = text(&client, "review-done").await;
        assert!(progress.starts_with("1 of 3 plies reviewed"), "{progress}");
        assert!(
            text(&client, "review-title")
                .await
                .contains("1 of 3 plies reviewed so far")
        );
        let drawn = data(&client, "#review-chart circle[data-ply]", &["data-ply"]).await;
        assert_eq!(drawn, vec![json!({ "data-ply": "1" })]);
        assert_eq!(state.searches.free(), 0, "the second ply is being searched");

        // Cancel: the job ends cancelled, its row kept, and its search slot is free.
        click(&client, "review-cancel").await;
        let v = until(&client, REVIEW_JOB, |v| v[0] == "1").await;
        assert_eq!(
            (&v[3], &v[4], &v[5]),
            (&json!(""), &json!(1), &json!(true)),
            "{v}"
        );
        let status = text(&client, "review-status").await;
        assert!(
            status.contains("cancelled") && status.contains("1 of 3"),
            "{status}"
        );
        let freed = tokio::time::timeout(Duration::from_secs(30), state.searches.queued_slot());
        assert!(
            freed
                .await
                .expect("the search slot was not freed")
                .is_some()
        );
        let report = state.jobs.get(&job).unwrap().report();
        assert_eq!(report.state, granary_server::jobs::JobState::Cancelled);

        // A game reviewed to its end, then opened again by its link: its review is kept, drawn
        // at once, and no job starts.
        client
            .goto(&format!("http://{addr}/?game=kalah&moves=4"))
            .await
            .unwrap();
        ready(&client).await;
        assert!(!review_by(&client, "review-game").await);
        let started = state.jobs.started();
        assert_eq!(state.jobs.kept_reviews(), 1);
        client
            .goto(&format!("http://{addr}/?game=kalah&moves=4"))
            .await
            .unwrap();
        ready(&client).await;
        assert!(!review_by(&client, "review-game").await);
        assert_eq!(state.jobs.started(), started, "a kept review starts no job");
        let rows = data(
            &client,
            "#review-rows tr[data-ply]",
            &["data-ply", "data-loss"],
        )
        .await;
        assert_eq!(rows, vec![json!({ "data-ply": "1", "data-loss": "0" })]);
        assert!(
            text(&client, "review-title")
                .await
                .starts_with("1 ply reviewed")
        );
        client.close().await.unwrap();
    });
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
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let addr = serve(&state).await;
        let client = browser(&driver).await;
        client
            .goto(&format!("http://{addr}/?game=kalah"))
            .await
            .unwrap();
        // The board is drawn, and the verdict says what the page waits for, and how long.
        let verdict = "return document.getElementById('verdict').textContent;";
        let waiting = until(&client, verdict, |v| {
            v.as_str().is_some_and(|t| t.contains("s so far"))
        })
        .await;
        let waiting = waiting.as_str().unwrap();
        assert!(
            waiting.starts_with("Waiting for a search of this position, about"),
            "{waiting}"
        );
        assert_eq!(state.jobs.active(), 1, "one job follows the search");
        assert!(buttons(&client, "#moves button").await.is_empty());

        // The search ends: the job holds its answer and the page draws it.
        state.solved.finish(leader, Ok(made_up_answer(&start)));
        ready(&client).await;
        let drawn = until(&client, verdict, |v| {
            v.as_str()
                .is_some_and(|t| t.starts_with("With perfect play"))
        })
        .await;
        assert!(
            drawn.as_str().unwrap().contains("it is a draw"),
            "the made-up answer: {drawn}"
        );
        let moves = buttons(&client, "#moves button").await;
        assert_eq!(moves.len(), 6, "{moves:?}");
        assert!(moves.iter().all(|(_, value)| value == "0"), "{moves:?}");
        assert_eq!(state.jobs.active(), 0);
        client.close().await.unwrap();
    });
}

#[test]
fn a_position_beyond_the_exact_reach_shows_the_engines_estimate_labelled_and_plays_on() {
    let Some(driver) = chromedriver() else {
        return;
    };
    // No tables: Kalah(6,6)'s start is beyond what the server answers exactly.
    let dir = tempfile::tempdir().unwrap();
    let config = granary_server::Config::new(dir.path().to_path_buf());
    let state = granary_server::state(&config);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let addr = serve(&state).await;
        let client = browser(&driver).await;
        client
            .goto(&format!("http://{addr}/?game=kalah&pits=6&seeds=6"))
            .await
            .unwrap();
        ready(&client).await;
        let verdict = text(&client, "verdict").await;
        assert!(
            verdict.starts_with("No exact value here (it has 72 seeds on the board")
                && verdict.contains("The engine's estimate: ")
                && verdict.contains(" for south (depth "),
            "{verdict}"
        );
        // Each legal move with the engine's estimate or bound, never a value; one is best.
        let moves = data(
            &client,
            "#moves button",
            &["data-move", "data-value", "data-estimate", "data-bound"],
        )
        .await;
        assert_eq!(moves.len(), 6, "{moves:?}");
        for m in &moves {
            assert_eq!(m["data-value"], "", "{m}");
            assert!(
                m["data-estimate"].as_str().unwrap().parse::<i32>().is_ok(),
                "{m}"
            );
            assert!(
                m["data-bound"] == "estimate" || m["data-bound"] == "at_most",
                "{m}"
            );
        }
        assert_eq!(
            client
                .find_all(Locator::Css("#moves button.best"))
                .await
                .unwrap()
                .len(),
            1
        );
        // The best move played: the board moves on, estimated again.
        let before = position(&client).await;
        click_and_move(&client, "#moves button.best").await;
        assert_ne!(position(&client).await, before);
        assert!(
            text(&client, "verdict")
                .await
                .contains("The engine's estimate: ")
        );
        client.close().await.unwrap();
    });
}

/// What granary said of its last move, once it has made `count` moves (its `data-count`) and
/// the page has drawn the position after them: `[text, data-move, data-perfect]`.
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

/// The side to move in the position the page draws (its notation's last word).
async fn to_move(client: &Client) -> String {
    let position = position(client).await.unwrap();
    match position.rsplit(' ').next() {
        Some("S") => "south".into(),
        Some("N") => "north".into(),
        other => panic!("no side in {position}: {other:?}"),
    }
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
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let state = granary_server::state(&granary_server::Config::new(dir.path().to_path_buf()));
        let addr = serve(&state).await;
        let client = browser(&driver).await;
        client
            .goto(&format!(
                "http://{addr}/?game=kalah&rules=standard&pits=3&seeds=3"
            ))
            .await
            .unwrap();
        ready(&client).await;
        let start = position(&client).await.unwrap();
        // Granary takes South, who is to move: it plays a best move at once, said perfect.
        client
            .find(Locator::Id("plays"))
            .await
            .unwrap()
            .select_by_value("south")
            .await
            .unwrap();
        let said = granary_moved(&client, 1).await;
        assert_eq!(said[5], "0", "{said}");
        let text = said[2].as_str().unwrap();
        assert!(
            text.starts_with("granary plays S") && text.contains(": perfect play ("),
            "{text}"
        );
        assert_eq!(said[4], "1", "{said}");
        // Its first move is a best move of the start; its last is the one it names.
        let best = tablebase.query(&kalah).unwrap().best;
        let moves = address_moves(&client).await;
        let first: usize = moves.split(',').next().unwrap().parse().unwrap();
        assert!(best.contains(&first), "{first} is not among {best:?}");
        assert_eq!(moves.rsplit(',').next(), said[3].as_str(), "{said}");
        assert_ne!(position(&client).await.unwrap(), start);
        // Granary moves on (an extra turn included) until North is to move.
        assert_eq!(to_move(&client).await, "north");
        // The person plays North's first listed moves (an extra turn included) until South is
        // to move; granary answers with South's, perfect.
        let count = said[1].as_u64().unwrap();
        let before = address_moves(&client).await;
        loop {
            click_and_move(&client, "#moves button[data-move]").await;
            if granary_moved(&client, 0).await[1].as_u64() > Some(count) {
                break;
            }
            assert_eq!(to_move(&client).await, "north", "North moves again");
        }
        let said = granary_moved(&client, count + 1).await;
        assert!(said[1].as_u64() > Some(count), "{said}");
        assert_eq!(said[4], "1", "{said}");
        let after = address_moves(&client).await;
        assert!(
            after.split(',').count() >= before.split(',').count() + 2,
            "{before} then {after}"
        );

        // Oware(4,3) with no tables, the engine's time 50 ms a move: granary takes South and
        // plays the engine's best move, said to be an estimate, never perfect.
        client
            .goto(&format!(
                "http://{addr}/?game=oware&rules=awari&pits=4&seeds=3"
            ))
            .await
            .unwrap();
        ready(&client).await;
        let ms = client.find(Locator::Id("ms")).await.unwrap();
        ms.clear().await.unwrap();
        ms.send_keys("50").await.unwrap();
        let start = position(&client).await.unwrap();
        let count = granary_moved(&client, 0).await[1].as_u64().unwrap();
        client
            .find(Locator::Id("plays"))
            .await
            .unwrap()
            .select_by_value("south")
            .await
            .unwrap();
        let said = granary_moved(&client, count + 1).await;
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
        assert_ne!(position(&client).await.unwrap(), start);
        assert_eq!(address_moves(&client).await, said[3].as_str().unwrap());
        assert_eq!(to_move(&client).await, "north");
        // The person answers; granary plays South again, the game going on (Oware has no
        // extra turn).
        let before = position(&client).await.unwrap();
        click_and_move(&client, "#moves button[data-move]").await;
        let said = granary_moved(&client, count + 2).await;
        assert!(said[1].as_u64() >= Some(count + 2), "{said}");
        assert_ne!(position(&client).await.unwrap(), before);
        assert_eq!(address_moves(&client).await.split(',').count(), 3);
        // Nobody: the person's move is answered by nobody.
        client
            .find(Locator::Id("plays"))
            .await
            .unwrap()
            .select_by_value("")
            .await
            .unwrap();
        click_and_move(&client, "#moves button[data-move]").await;
        assert_eq!(address_moves(&client).await.split(',').count(), 4);
        assert_eq!(granary_moved(&client, 0).await[1].as_u64(), Some(count + 2));
        client.close().await.unwrap();
    });
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
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let addr = serve(&state).await;
        let client = browser(&driver).await;
        client
            .goto(&format!("http://{addr}/?game=kalah"))
            .await
            .unwrap();
        let verdict = "return document.getElementById('verdict').textContent;";
        until(&client, verdict, |v| {
            v.as_str().is_some_and(|t| t.contains("s so far"))
        })
        .await;
        // Granary takes South while the page waits: it moves once the answer comes, the
        // made-up answer's first best move, said perfect and searched.
        client
            .find(Locator::Id("plays"))
            .await
            .unwrap()
            .select_by_value("south")
            .await
            .unwrap();
        state.solved.finish(first, Ok(made_up_answer(&start)));
        let said = until(
            &client,
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
        assert_eq!(address_moves(&client).await, "1");
        // The position after it is a job too, followed, then drawn; North (the person) to move.
        until(&client, verdict, |v| {
            v.as_str().is_some_and(|t| t.contains("s so far"))
        })
        .await;
        state.solved.finish(second, Ok(made_up_answer(&after)));
        ready(&client).await;
        assert_eq!(to_move(&client).await, "north");
        assert_eq!(granary_moved(&client, 1).await[1].as_u64(), Some(1));
        client.close().await.unwrap();
    });
}
