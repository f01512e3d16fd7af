//! The game selector (`/api/v1/tables`): a variant whose tables are present, or the command that
//! builds them.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{bad, get, get_from};

#[test]
fn the_game_selector_gets_a_variant_with_tables_or_the_command_to_build() {
    // Oware's default rule set (abapa) has no tables here; awari's go to 16 seeds at 6 pits: the
    // variant shown is awari with one seed a pit (12 on the board), which they answer.
    let (status, v) = get("/api/v1/tables?game=oware");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["show"],
        json!({"rules": "awari", "pits": 6, "seeds": 1}),
        "{v}"
    );
    assert_eq!(v["build"], Value::Null);
    let note = v["note"].as_str().unwrap();
    assert!(
        note.contains("oware abapa with 6 pits and 4 seeds a pit")
            && note.contains("showing oware awari with 6 pits and 1 seed a pit"),
        "{note}"
    );
    assert!(
        v["present"].as_array().unwrap().contains(
            &json!({"name": "oware-6-awari", "rules": "awari", "pits": 6, "complete_up_to": 16})
        ),
        "{v}"
    );
    let (status, q) = get("/api/v1/query?game=oware&rules=awari&pits=6&seeds=1");
    assert_eq!(
        (status, q["source"].clone()),
        (StatusCode::OK, json!("tables")),
        "{q}"
    );
    // Asked for what the tables answer: as asked, nothing to say.
    let (_, v) = get("/api/v1/tables?game=oware&rules=awari&seeds=1");
    assert_eq!(
        v["show"],
        json!({"rules": "awari", "pits": 6, "seeds": 1}),
        "{v}"
    );
    assert_eq!(v["note"], Value::Null);
    // Kalah at 4 pits: standard capture has the tables there.
    let (_, v) = get("/api/v1/tables?game=kalah&pits=4");
    assert_eq!(
        v["show"],
        json!({"rules": "standard", "pits": 4, "seeds": 4}),
        "{v}"
    );
    // Kalah at 6 pits, none present: searched as asked.
    let (_, v) = get("/api/v1/tables?game=kalah");
    assert_eq!(
        v["show"],
        json!({"rules": "empty", "pits": 6, "seeds": 4}),
        "{v}"
    );
    assert_eq!(v["note"], Value::Null);
    // No Oware tables at all: the variant asked, and the command that builds its tables.
    let dir = tempfile::tempdir().unwrap();
    let app = granary_server::router(&granary_server::Config::new(dir.path().to_path_buf()));
    let (_, (status, v)) = get_from(&app, "/api/v1/tables?game=oware&pits=4&seeds=3");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["show"],
        json!({"rules": "abapa", "pits": 4, "seeds": 3}),
        "{v}"
    );
    let command = "granary build oware --pits 4 --rules abapa --max-seeds 24";
    assert_eq!(v["build"], command);
    assert!(v["note"].as_str().unwrap().contains(command), "{v}");
    // Oware(6,4) needs tables of 48 seeds, beyond any disk here: no build is advised.
    let (_, (status, v)) = get_from(&app, "/api/v1/tables?game=oware&pits=6&seeds=4");
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["build"], Value::Null, "{v}");
    let note = v["note"].as_str().unwrap();
    assert!(
        !note.contains("granary build") && note.contains("more than this machine holds"),
        "{v}"
    );
    bad("/api/v1/tables?game=bao", "bao has no tables");
    bad("/api/v1/tables?game=oware&rules=fast", "'fast'");
    bad("/api/v1/tables?game=oware&moves=1", "takes only");
    bad("/api/v1/tables?game=oware&pits=9", "9 is out of range");
    // The library's words, as the command line and Python say them.
    for (uri, pits) in [
        ("/api/v1/tables?game=kalah&pits=0", 0),
        ("/api/v1/query?game=oware&pits=9", 9),
    ] {
        let (status, body) = get(uri);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(
            body["error"],
            format!("pits {pits} is out of range: a side has 1 to 8 pits"),
            "{uri}"
        );
    }
}
