//! `granary review`: every ply's figures are what `granary query` answers for the position
//! before the move; the marks, the summaries and the JSON agree; beyond the tables a ply has the
//! engine's estimates, labelled and never marked, or no number; an illegal move is refused in
//! one line with exit code 2; a Bao game's plies have no value; the text is the header, the
//! rows, then the summaries. Records: `review_record.rs`.

use crate::common::*;

/// Kalah(4,3) empty capture, tables to 24 seeds (the whole game), and a game with mistakes: the
/// first move is the worst, then a mix.
const GAME: [&str; 5] = ["kalah", "--pits", "4", "--seeds", "3"];
const MOVES: &str = "1,2,3,4,1,2,3,4";

#[test]
fn every_ply_is_what_a_query_of_its_position_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), &GAME[..3], 24, 2);
    let mut args = GAME.to_vec();
    args.extend(["--moves", MOVES, "--dir", dir]);
    let mut review_args = vec!["review"];
    review_args.extend(&args);
    review_args.push("--json");
    let review = json(&review_args);
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 8);
    let mut lost = [0, 0];
    for ply in plies {
        let position = ply["position"].as_str().unwrap();
        let mut query_args = vec!["query"];
        query_args.extend(&GAME[..3]);
        query_args.extend([position, "--dir", dir, "--json"]);
        let q = json(&query_args);
        assert_eq!(ply["answer"], "exact", "{ply}");
        assert_eq!(ply["value"], q["value"], "{ply} {q}");
        assert_eq!(ply["best"], q["best"], "{ply} {q}");
        let pit = ply["move"].as_u64().unwrap();
        let played = q["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"].as_u64() == Some(pit))
            .unwrap()["value"]
            .as_i64()
            .unwrap();
        assert_eq!(ply["played"], played, "{ply} {q}");
        let loss = q["value"].as_i64().unwrap() - played;
        assert_eq!(ply["loss"], loss, "{ply}");
        lost[usize::from(ply["side"] == "north")] += loss;
    }
    assert_eq!(review["sides"][0]["lost"], lost[0]);
    assert_eq!(review["sides"][1]["lost"], lost[1]);
    // The first move (pit 1) turns South's win into a loss: marked `??` in the table.
    assert_eq!(plies[0]["changed"], true, "{}", plies[0]);
    review_args.pop();
    let text = ok(&review_args);
    let first = text.lines().nth(2).unwrap();
    assert!(first.contains("?? win to loss"), "{text}");
    assert_eq!(plies[0]["mark"], "??", "{}", plies[0]);
    // Each row's mark is its ply's in the JSON.
    let marked = text.lines().filter(|l| l.ends_with("  ?")).count();
    let mistakes = plies.iter().filter(|p| p["mark"] == "?").count();
    assert_eq!(marked, mistakes, "{text}");
    assert!(mistakes > 0, "{review}");
}

/// The text of a whole review, its rows printed as the plies are answered: the header, a row a
/// ply in order, then each side's summary; no bar where stderr is not a terminal.
#[test]
fn the_text_of_a_review_is_its_header_its_rows_then_the_summaries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), &GAME[..3], 24, 2);
    let mut args = vec!["review"];
    args.extend(GAME);
    args.extend(["--moves", MOVES, "--dir", dir]);
    let out = granary(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "\
kalah-4-empty-owner: values are the mover's net seeds of those on the board, under perfect play
ply  side   move  value  played  best         loss
  1  south     1     +8      -8  2              16  ?? win to loss
  2  north     2     +8      +8  2               0
  3  north     3     +7      +5  4               2  ?
  4  south     4     -4      -8  1               4  ?
  5  north     1     +9      +9  1               0
  6  north     2     +8      +6  3               2  ?
  7  south     3     -6      -6  3               0
  8  north     4     +7      +1  3               6  ?
south: 3 moves, 3 valued, 1 kept the value, 20 seeds lost; the result changed at ply 1
north: 5 moves, 5 valued, 2 kept the value, 10 seeds lost
"
    );
}

/// Beyond the tables a ply has the engine's estimates, labelled as estimates in the JSON and
/// the text and never marked, within `--nodes` the same on every run; with `--time 0`, no
/// number at all.
#[test]
fn beyond_the_tables_a_ply_has_the_engines_estimates_or_no_number() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    // Oware(4,3) awari with tables to 20 seeds: the start (24 seeds) and the plies before a
    // capture are beyond; Oware is answered from tables alone.
    build(
        tmp.path(),
        &["oware", "--rules", "awari", "--pits", "4"],
        20,
        2,
    );
    let game = [
        "review", "oware", "--rules", "awari", "--pits", "4", "--seeds", "3", "--moves", "1,2",
        "--dir", dir,
    ];
    let with = |extra: &[&'static str]| {
        let mut args = game.to_vec();
        args.extend(extra);
        args
    };
    let review = json(&with(&["--time", "0", "--json"]));
    for ply in review["plies"].as_array().unwrap() {
        assert_eq!(ply["answer"], "beyond", "{ply}");
        assert!(
            ply["reason"].as_str().unwrap().contains("24 seeds"),
            "{ply}"
        );
        for key in ["value", "loss", "estimate", "estimated_loss"] {
            assert!(ply.get(key).is_none(), "{ply}");
        }
    }
    assert_eq!(review["sides"][0]["exact"], 0);
    assert_eq!(review["sides"][0]["estimated"], 0);
    // Estimated within a node budget: the engine's figures, in fields of their own.
    let nodes = with(&["--nodes", "20000", "--json"]);
    let review = json(&nodes);
    let plies = review["plies"].as_array().unwrap();
    for ply in plies {
        assert_eq!(ply["answer"], "estimated", "{ply}");
        assert!(
            ply["reason"].as_str().unwrap().contains("24 seeds"),
            "{ply}"
        );
        for key in ["value", "played", "loss", "best", "changed"] {
            assert!(ply.get(key).is_none(), "{ply}");
        }
        let value = ply["estimate"]["value"].as_i64().unwrap();
        let played = ply["estimate_played"].as_i64().unwrap();
        assert_eq!(
            ply["estimated_loss"].as_i64(),
            Some(value - played),
            "{ply}"
        );
        assert!(value >= played, "{ply}");
        assert!(ply["estimate"]["depth"].as_u64() >= Some(1), "{ply}");
        assert!(
            !ply["estimated_best"].as_array().unwrap().is_empty(),
            "{ply}"
        );
    }
    let side = &review["sides"][0];
    assert_eq!(
        (side["exact"].as_u64(), side["estimated"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(side["estimated_lost"], plies[0]["estimated_loss"]);
    // The same nodes, the same estimates (the time each took aside, and so the record, whose
    // comments say it).
    let timeless = |mut v: serde_json::Value| {
        for ply in v["plies"].as_array_mut().unwrap() {
            ply["estimate"]["seconds"] = 0.into();
        }
        v.as_object_mut().unwrap().remove("record");
        v
    };
    assert_eq!(timeless(json(&nodes)), timeless(review.clone()));
    // The text: a row of estimates a ply, unmarked, and the reason once.
    let text = ok(&with(&["--nodes", "20000"]));
    let rows: Vec<&str> = text.lines().skip(2).take(2).collect();
    for (row, ply) in rows.iter().zip(plies) {
        assert!(row.contains("  estimate: best "), "{text}");
        assert!(
            row.ends_with("; not proved)") || row.ends_with("; every leaf exact)"),
            "{text}"
        );
        assert!(!row.contains('?'), "{text}");
        let loss = ply["estimated_loss"].as_i64().unwrap();
        let words = if loss > 0 {
            format!("loses about {loss} (depth ")
        } else {
            "keeps the estimate (depth ".to_string()
        };
        assert!(row.contains(&words), "{row}");
    }
    assert_eq!(text.matches("beyond: ").count(), 1, "{text}");
    assert!(text.contains("1 estimated, about "), "{text}");
    // Written back as a record: the estimates in the comments, no mark.
    let written = ok(&with(&["--nodes", "20000", "--record-out", "-"]));
    assert!(written.contains("{review: estimate: best "), "{written}");
    assert!(!written.contains('?'), "{written}");
    // A time a ply, or nodes, not both.
    assert!(error(&with(&["--nodes", "5", "--time", "1"])).contains("cannot be used with"));
}

#[test]
fn an_illegal_move_is_refused_in_one_line_and_bao_has_no_values() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mut args = vec!["review"];
    args.extend(GAME);
    args.extend(["--moves", "2,9", "--dir", dir]);
    assert_eq!(
        error(&args).trim_end(),
        "granary: error: moves: move 2 (pit 9): pit 9 does not exist: pits are numbered 1 to 4"
    );
    let bao = json(&[
        "review", "bao", "--moves", "A6R,a6L", "--dir", dir, "--json",
    ]);
    assert_eq!(bao["tables"], serde_json::Value::Null);
    let plies = bao["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 2);
    for (ply, mv) in plies.iter().zip(["A6R", "a6L"]) {
        assert_eq!(
            (ply["answer"].as_str(), ply["move"].as_str()),
            (Some("beyond"), Some(mv))
        );
        assert!(ply.get("value").is_none(), "{ply}");
    }
    let text = ok(&["review", "bao", "--moves", "A6R", "--dir", dir]);
    assert!(
        text.starts_with("no tables for this game: no exact values\n"),
        "{text}"
    );
    assert!(
        text.contains("beyond: bao has no endgame tables, so no exact value"),
        "{text}"
    );
}
