//! The page as a test reads and drives it: whether it has drawn what its address says, the
//! position and moves it draws, its lines of text and elements' attributes, its address, clicks
//! and keys, and its review pane's answers.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

/// Whether the page has drawn what its address says, and the position it draws (its
/// `data-position`), read at once.
pub async fn snapshot(client: &Client) -> (bool, Option<String>) {
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
pub async fn until(
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
pub async fn ready(client: &Client) {
    moved(client, None).await;
}

/// Waits until the page's position is no longer `before` (if given) and the page has drawn it.
pub async fn moved(client: &Client, before: Option<Option<&str>>) {
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
pub async fn position(client: &Client) -> Option<String> {
    snapshot(client).await.1
}

/// `(data-move, data-value)` of the buttons under `css`, in page order.
pub async fn buttons(client: &Client, css: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for button in client.find_all(Locator::Css(css)).await.unwrap() {
        out.push((
            button.attr("data-move").await.unwrap().unwrap(),
            button.attr("data-value").await.unwrap().unwrap_or_default(),
        ));
    }
    out
}

pub async fn text(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// The page's address: its `moves` parameter (none: "").
pub async fn address_moves(client: &Client) -> String {
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
pub async fn click_and_move(client: &Client, css: &str) {
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

/// Clicks the element with the id `id`.
pub async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Each attribute of `names` of every element under `css`, in page order (`null` if absent).
pub async fn data(client: &Client, css: &str, names: &[&str]) -> Vec<Value> {
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
pub fn attr(v: &Value) -> Value {
    match v {
        Value::Bool(b) => json!(if *b { "1" } else { "0" }),
        Value::Number(n) => json!(n.to_string()),
        _ => panic!("not a number or a boolean: {v}"),
    }
}

/// The side to move in the position the page draws (its notation's last word).
pub async fn to_move(client: &Client) -> String {
    let position = position(client).await.unwrap();
    match position.rsplit(' ').next() {
        Some("S") => "south".into(),
        Some("N") => "north".into(),
        other => panic!("no side in {position}: {other:?}"),
    }
}

/// The review pane's answers and errors drawn so far (its `data-count`).
pub async fn reviews_drawn(client: &Client) -> u64 {
    let v = client
        .execute(
            "return Number(document.getElementById('review').dataset.count);",
            vec![],
        )
        .await
        .unwrap();
    v.as_u64().unwrap()
}

/// Clicks `button` (an id) of the review pane and waits for its next answer or error; whether
/// it was an error.
pub async fn review_by(client: &Client, button: &str) -> bool {
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

/// Presses `key` on the page (a `keydown` the page hears, as a person's).
pub async fn press(client: &Client, key: &str) {
    client
        .execute(
            "document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));",
            vec![json!(key)],
        )
        .await
        .unwrap();
}

/// Saves a screenshot of the page as `name` under `GRANARY_SCREENSHOTS`, where it is set.
pub async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("GRANARY_SCREENSHOTS") {
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(&path, client.screenshot().await.unwrap()).unwrap();
        eprintln!("saved {}", path.display());
    }
}
