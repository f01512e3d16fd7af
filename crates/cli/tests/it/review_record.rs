//! `granary review` of a record (`--record`, a file or stdin) and the review written back
//! (`--record-out`): a record reviews as its moves do; the review written back reads again,
//! the player's tags, comments and (where a ply has no exact value, as in Bao) marks kept; the
//! JSON is the library's answer, as the API's: the review, `setup` and `record`.

use crate::common::*;

/// Kalah(4,3) empty capture, tables to 24 seeds (the whole game), and a game with mistakes.
const GAME: [&str; 5] = ["kalah", "--pits", "4", "--seeds", "3"];
const MOVES: &str = "1,2,3,4,1,2,3,4";

/// The same game as moves and as a record (a file, or standard input) reviews the same; the
/// review written back (`--record-out`) is a record that reviews the same again, with each
/// move's figures in its comments; a bad record is one line naming its line and column.
#[test]
fn a_record_reviews_as_its_moves_and_is_written_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), &GAME[..3], 24, 2);
    let mut args = vec!["review"];
    args.extend(GAME);
    args.extend(["--moves", MOVES, "--dir", dir, "--json"]);
    let by_moves = json(&args);
    let record = tmp.path().join("game.txt");
    std::fs::write(
        &record,
        "[Game \"kalah\"] [Pits \"4\"] [Seeds \"3\"] [South \"Ada\"]\n\
         {a game with mistakes}\n1 2 3 4 1 2 {a comment} 3 4\n",
    )
    .unwrap();
    let path = record.to_str().unwrap();
    let by_record = json(&["review", "--record", path, "--dir", dir, "--json"]);
    assert_eq!(without_record(&by_record), without_record(&by_moves));
    // Standard input.
    let text = std::fs::read(&record).unwrap();
    let mut child = command(&["review", "--record", "-", "--dir", dir, "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let by_stdin: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(by_stdin, by_record);
    // Written back: the player's tag and comments kept, each move's figures and marks added.
    let out = tmp.path().join("reviewed.txt");
    let out_path = out.to_str().unwrap();
    ok(&[
        "review",
        "--record",
        path,
        "--dir",
        dir,
        "--record-out",
        out_path,
    ]);
    let written = std::fs::read_to_string(&out).unwrap();
    // Written whole through a temporary file beside it, which is gone.
    let mut names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with("kalah-"))
        .collect();
    names.sort();
    assert_eq!(names, ["game.txt", "reviewed.txt"]);
    assert!(written.contains("[South \"Ada\"]"), "{written}");
    assert!(written.contains("{a game with mistakes}"), "{written}");
    assert!(
        written.contains("N2? {a comment} {review: value "),
        "{written}"
    );
    let mut rest = written.as_str();
    for ply in by_moves["plies"].as_array().unwrap() {
        let mark = ply["mark"].as_str().unwrap_or("");
        let side = if ply["side"] == "south" { "S" } else { "N" };
        // The move, then (after any comments of the player) the review's comment.
        let mv = format!("{side}{}{mark} {{", ply["move"]);
        let figures = format!(
            "{{review: value {:+}, played {:+}, loss {}",
            ply["value"].as_i64().unwrap(),
            ply["played"].as_i64().unwrap(),
            ply["loss"]
        );
        let at = rest.find(&mv).unwrap_or_else(|| panic!("{mv}\n{written}"));
        rest = &rest[at + mv.len() - 1..];
        assert!(
            rest.starts_with(&figures) || rest.starts_with("{a comment} "),
            "{rest}"
        );
        let at = rest
            .find(&figures)
            .unwrap_or_else(|| panic!("{figures}\n{written}"));
        rest = &rest[at + figures.len()..];
    }
    let again = json(&["review", "--record", out_path, "--dir", dir, "--json"]);
    assert_eq!(without_record(&again), without_record(&by_moves));
    assert_eq!(again["record"], written.as_str());
    // The JSON's record is the record written back.
    assert_eq!(by_record["record"], written.as_str());
    // `-`: the record on standard output, instead of the table.
    let stdout = ok(&[
        "review",
        "--record",
        path,
        "--dir",
        dir,
        "--record-out",
        "-",
    ]);
    assert_eq!(stdout, written);
    // A bad record: one line, its line and column, exit 2; nothing written.
    std::fs::write(&record, "[Game \"kalah\"] [Pits \"4\"]\n1 2\n9\n").unwrap();
    let bad = tmp.path().join("never.txt");
    assert_eq!(
        error(&[
            "review",
            "--record",
            path,
            "--dir",
            dir,
            "--record-out",
            bad.to_str().unwrap()
        ])
        .trim_end(),
        format!(
            "granary: error: {path}: line 3, column 1: ply 3, '9': pit 9 does not exist: pits \
             are numbered 1 to 4"
        )
    );
    assert!(!bad.exists());
    assert!(error(&["review", "kalah", "--record", path]).contains("cannot be used with"));
}

/// The JSON without its `record`: what a game reviews to, whoever wrote its record.
fn without_record(review: &serde_json::Value) -> serde_json::Value {
    let mut review = review.clone();
    review.as_object_mut().unwrap().remove("record");
    review
}

/// `--json` is the library's answer, as the API's: the review's fields, `setup` (the game in
/// full) and `record` (the review written back into the game's record).
#[test]
fn the_json_has_the_setup_and_the_record_as_the_api_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), &GAME[..3], 24, 2);
    let mut args = vec!["review"];
    args.extend(GAME);
    args.extend(["--moves", MOVES, "--dir", dir, "--json"]);
    let review = json(&args);
    let mut keys: Vec<&str> = review
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["plies", "record", "setup", "sides", "tables"]);
    let setup = &review["setup"];
    assert_eq!(
        setup,
        &serde_json::json!({
            "game": "kalah",
            "pits": 4,
            "seeds": 3,
            "rules": "empty",
            "sweep": "owner",
            "position": "3,3,3,3/3,3,3,3 0-0 S",
            "moves": [1, 2, 3, 4, 1, 2, 3, 4],
        })
    );
    let record = review["record"].as_str().unwrap();
    assert!(record.starts_with("[Game \"kalah\"]\n"), "{record}");
    assert!(record.contains("S1?? {review: value +8"), "{record}");
    // The same record as `--record-out -` prints.
    args.pop();
    args.extend(["--record-out", "-"]);
    assert_eq!(ok(&args), record);
}

/// A Bao record's moves have no exact value: the player's marks and comments are written back
/// as they were, beside the review's comments.
#[test]
fn a_bao_record_written_back_keeps_the_players_marks() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let record = tmp.path().join("bao.txt");
    std::fs::write(&record, "[Game \"bao\"]\nA6R? {mine} a6L??\n").unwrap();
    let out = tmp.path().join("reviewed.txt");
    let (path, out_path) = (record.to_str().unwrap(), out.to_str().unwrap());
    let args = ["review", "--record", path, "--dir", dir];
    ok(&[&args[..], &["--record-out", out_path]].concat());
    let written = std::fs::read_to_string(&out).unwrap();
    let beyond = "{review: no exact value: bao has no endgame tables, so no exact value}";
    assert!(
        written.ends_with(&format!("\nA6R? {{mine}} {beyond}\na6L?? {beyond}\n")),
        "{written}"
    );
    let review = json(&[&args[..], &["--json"]].concat());
    assert_eq!(review["record"], written.as_str());
    assert_eq!(review["setup"]["moves"], serde_json::json!(["A6R", "a6L"]));
}
