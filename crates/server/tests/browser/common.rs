//! What the browser tests share: chromedriver and headless Chromium, the application served on
//! a free port, a scenario run on a page over it ([`on_page`]), and the games and answers the
//! servers are set up with.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use serde_json::json;

/// chromedriver on its own port, with a browser profile of its own; killed when dropped.
pub struct Driver {
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
pub fn chromedriver() -> Option<Driver> {
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
async fn serve(state: &Arc<granary_server::State>) -> SocketAddr {
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

/// Runs `scenario` on the page of `state`'s application, served on a free port, in a headless
/// Chromium driven by `driver` (its address handed on), then closes the browser.
pub fn on_page(
    driver: &Driver,
    state: &Arc<granary_server::State>,
    scenario: impl AsyncFnOnce(&Client, SocketAddr),
) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let addr = serve(state).await;
        let client = browser(driver).await;
        scenario(&client, addr).await;
        client.close().await.unwrap();
    });
}

pub fn mancala(
    game: granary::GameName,
    pits: usize,
    rules: &str,
    position: &str,
) -> granary::Mancala {
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
pub fn searching_server(
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
pub fn kalah33_tables(tablebase: &granary::Tablebase) -> granary::Mancala {
    let kalah = mancala(granary::GameName::Kalah, 3, "standard", "3,3,3/3,3,3");
    granary::build(tablebase, kalah.kind(), 18, Some(2), None, &()).unwrap();
    kalah
}

/// An answer kept for `game`'s position, its values made up (every move worth 0): what the page
/// draws is what the server says, and a kept answer is the server's (no tables, no search).
pub fn made_up_answer(game: &granary::Mancala) -> Arc<granary::Query> {
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
