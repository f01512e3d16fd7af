//! `granary show|perft|solve|play bao` as a user runs them.

use crate::common::*;

#[test]
fn show_the_start_and_after_moves() {
    let v = json(&["show", "bao", "--json"]);
    assert_eq!(
        v["legal_moves"],
        serde_json::json!(["A6R", "A6L", "A7R", "A7L"])
    );
    assert_eq!(v["stage"], "namua");
    assert_eq!(
        v["south"]["front"],
        serde_json::json!([0, 0, 0, 0, 6, 2, 2, 0])
    );
    assert_eq!(v["north"]["hand"], 22);
    let v = json(&["show", "bao", "--moves", "A6R,a6L", "--json"]);
    assert_eq!(v["moves_played"], serde_json::json!(["A6R", "a6L"]));
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["south"]["hand"], 21);
    let v = json(&["show", "bao", "--rules", "kujifunza", "--json"]);
    assert_eq!(v["legal_moves"].as_array().unwrap().len(), 16);
    assert_eq!(v["stage"], "mtaji");
    let text = String::from_utf8(granary(&["show", "bao"]).stdout).unwrap();
    assert!(
        text.contains("#6") && text.contains("legal moves: A6R A6L A7R A7L"),
        "{text}"
    );
}

#[test]
fn show_reports_a_lost_position() {
    // South's front row is empty: South, to move, has lost.
    let pos = "2,2,2,2,2,2,2,2/0,0,0,1,0,0,0,0/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2 0-0 S";
    let v = json(&["show", "bao", "--position", pos, "--json"]);
    assert_eq!(
        (v["over"].clone(), v["winner"].clone()),
        (true.into(), "north".into())
    );
    assert_eq!(v["end"], "front row empty");
}

#[test]
fn perft_and_divide() {
    let v = json(&["perft", "bao", "--depth", "4", "--json"]);
    assert_eq!(v["nodes"], 124);
    let v = json(&["perft", "bao", "--depth", "4", "--divide", "--json"]);
    let sum: u64 = v["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 124);
}

#[test]
fn solve_proves_a_win_and_a_loss() {
    // South sows A3 right onto A5, which faces North's last front seed: a win in one move.
    let win = "2,2,2,2,2,2,2,2/0,0,0,0,1,0,0,0/0,0,2,0,1,0,0,0/1,1,1,1,1,1,1,1 0-0 S";
    let v = json(&["solve", "bao", "--position", win, "--depth", "3", "--json"]);
    assert_eq!(
        (v["value"].clone(), v["plies"].clone(), v["best"].clone()),
        ("win".into(), 1.into(), "A3R".into())
    );
    assert_eq!(v["pv"], serde_json::json!(["A3R"]));
    // Nothing South could lift (single seeds only): no legal move, lost already.
    let lost = "2,2,2,2,2,2,2,2/0,0,0,0,1,0,0,0/1,0,1,0,1,0,0,0/1,1,1,1,1,1,1,1 0-0 S";
    let v = json(&["solve", "bao", "--position", lost, "--depth", "3", "--json"]);
    assert_eq!(
        (v["value"].clone(), v["plies"].clone()),
        ("loss".into(), 0.into())
    );
    // The same by proof-number search.
    let v = json(&["solve", "bao", "--position", win, "--pns", "1000", "--json"]);
    assert_eq!(
        (v["value"].clone(), v["best"].clone()),
        ("win".into(), "A3R".into())
    );
    // The start: nothing proven in 4 moves.
    let v = json(&["solve", "bao", "--depth", "4", "--json"]);
    assert_eq!(v["value"], "unknown");
    // Bao la kujifunza: the first player wins (Donkers & Uiterwijk 2002), by proof-number search.
    let v = json(&["solve", "bao", "--rules", "kujifunza", "--json"]);
    assert_eq!(
        (v["value"].clone(), v["best"].clone()),
        ("win".into(), "A3R".into())
    );
}

#[test]
fn bad_bao_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["show", "bao", "--moves", "A6X"], "moves: move 1"),
        (vec!["show", "bao", "--moves", "A6X"], "not a bao move"),
        (vec!["show", "bao", "--moves", "a6R"], "is a pit of North"),
        (
            vec!["show", "bao", "--moves", "A5R"],
            "not legal here; legal: A6R A6L A7R A7L",
        ),
        (vec!["show", "bao", "--rules", "zanzibar"], "bao rule set"),
        (
            vec!["show", "bao", "--nyumba", "never"],
            "nyumba: 'never' is not",
        ),
        (
            vec!["show", "bao", "--rules", "kujifunza", "--nyumba", "below6"],
            "no nyumba",
        ),
        (
            vec!["show", "bao", "--sweep", "owner"],
            "kalah/oware options",
        ),
        (
            vec!["show", "bao", "--seeds", "3"],
            "seeds is a kalah/oware option",
        ),
        (vec!["show", "kalah", "--takasia", "off"], "bao options"),
        (vec!["show", "bao", "--position", "1,2/3"], "rows"),
        (
            vec!["build", "bao", "--max-seeds", "3"],
            "no endgame tables",
        ),
        (
            vec!["solve", "kalah", "--depth", "3"],
            "--depth and --pns are bao options",
        ),
        (vec!["play", "bao", "--time", "0"], "--time 0"),
    ] {
        let err = error(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_person_plays_against_the_engine() {
    let out = with_input(
        &["play", "bao", "--time", "0.05"],
        "x\nA5R\nmoves\nhint\nA6R\nundo\nA7L\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("'x' is not a bao move"), "{text}");
    assert!(text.contains("A5R is not legal here"), "{text}");
    assert!(text.contains("legal moves: A6R A6L A7R A7L"), "{text}");
    assert!(text.contains("engine's view of your moves"), "{text}");
    assert_eq!(text.matches("granary plays").count(), 2, "{text}");
}
