//! The `granary` binary as a user runs it: outputs, JSON fields, errors and exit codes.

mod common;

use common::*;

#[test]
fn show_json_fields() {
    let v = json(&["show", "kalah", "--moves", "3", "--json"]);
    assert_eq!(v["to_move"], "south");
    assert_eq!(
        v["pits"],
        serde_json::json!([4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4])
    );
    assert_eq!(v["stores"], serde_json::json!([1, 0]));
    assert_eq!(v["legal_moves"], serde_json::json!([1, 2, 4, 5, 6]));
    assert_eq!(v["over"], false);
    let v = json(&[
        "show", "oware", "--pits", "4", "--seeds", "3", "--moves", "1,1", "--json",
    ]);
    assert_eq!(v["to_move"], "south");
    assert_eq!(v["pits"], serde_json::json!([0, 4, 4, 4, 0, 4, 4, 4]));
}

#[test]
fn show_reports_the_end_and_final_score() {
    let pos = "0,0,0,0,0,1/2,3,0,0,0,0 10-12 S";
    let v = json(&["show", "kalah", "--position", pos, "--moves", "6", "--json"]);
    assert_eq!(
        (v["over"].clone(), v["final"].clone()),
        (true.into(), serde_json::json!([11, 17]))
    );
    let v = json(&[
        "show",
        "kalah",
        "--sweep",
        "emptied",
        "--position",
        pos,
        "--moves",
        "6",
        "--json",
    ]);
    assert_eq!(v["final"], serde_json::json!([16, 12]));
    assert_eq!(v["legal_moves"], serde_json::json!([]));
    let text = granary(&["show", "kalah", "--position", pos, "--moves", "6"]);
    assert!(
        String::from_utf8(text.stdout)
            .unwrap()
            .contains("final score South 11 - North 17, North wins by 6")
    );
}

#[test]
fn perft_json_and_divide() {
    assert_eq!(
        json(&["perft", "kalah", "--depth", "4", "--json"]),
        serde_json::json!({"depth": 4, "nodes": 942})
    );
    let v = json(&["perft", "oware", "--depth", "3", "--divide", "--json"]);
    let parts: u64 = v["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!((v["nodes"].as_u64().unwrap(), parts), (190, 190));
    let text = String::from_utf8(granary(&["perft", "kalah", "--depth", "3"]).stdout).unwrap();
    assert!(
        text.contains("depth 1: 6\ndepth 2: 35\ndepth 3: 185"),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    assert!(
        error(&["show", "kalah", "--moves", "3,3"])
            .contains("moves: move 2 (pit 3): pit 3 is empty")
    );
    assert!(
        error(&["show", "kalah", "--moves", "1,x"]).contains("move 2: 'x' is not a pit number")
    );
    assert!(error(&["show", "kalah", "--moves", "0"]).contains("pit 0 does not exist"));
    let starving = error(&["show", "oware", "--position", "1,0,1/0,0,0", "--moves", "1"]);
    assert!(
        starving.contains("pit 1 is not a legal move here (legal: 3)"),
        "{starving}"
    );
    assert!(
        error(&["show", "oware", "--position", "1,0,0/0,0,0", "--moves", "1"])
            .contains("the game is over")
    );
    assert!(
        error(&["show", "kalah", "--position", "1,2,3/4,5"])
            .contains("South has 3 pits and North 2")
    );
    assert!(
        error(&["show", "kalah", "--position", "1,-2,3/4,5,6"]).contains("South's pit 2 is '-2'")
    );
    assert!(
        error(&["show", "kalah", "--pits", "4", "--position", "1,2,3/4,5,6"])
            .contains("position has 3 pits a side but pits is 4")
    );
    assert!(error(&["show", "kalah", "--position", "200,2,3/4,5,60"]).contains("at most 255"));
    assert!(error(&["show", "kalah", "--seeds", "30"]).contains("360 seeds"));
    assert!(
        error(&["show", "kalah", "--pits", "0"])
            .contains("pits 0 is out of range: a side has 1 to 8 pits")
    );
    assert!(
        error(&["show", "oware", "--rules", "empty"])
            .contains("rules: 'empty' is not a oware rule set")
    );
    assert!(
        error(&["show", "oware", "--sweep", "owner"])
            .contains("sweep is a kalah option; oware has none")
    );
    assert!(error(&["show", "chess"]).contains("chess"));
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    let build = |memory: &str| {
        error(&[
            "build",
            "kalah",
            "--max-seeds",
            "2",
            "--dir",
            dir,
            "--memory",
            memory,
        ])
    };
    assert!(build("12x").contains("`12x` is not a size"));
    assert!(build("99999999999T").contains("not a size"));
    assert!(build("100K").contains("at least 1M"));
    assert!(
        std::fs::read_dir(d.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn variants_lists_every_option_with_its_default() {
    let v = json(&["variants", "--json"]);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["options"]["rules"]["default"], "empty");
    assert_eq!(games[2]["options"]["nyumba"]["default"], "emptied");
    assert_eq!(
        games[2]["options"]["rules"]["values"],
        serde_json::json!(["kiswahili", "kujifunza", "malawi"])
    );
    assert_eq!(
        games[0]["options"]["sweep"]["values"],
        serde_json::json!(["owner", "emptied"])
    );
    assert_eq!(
        games[1]["options"]["rules"]["values"],
        serde_json::json!(["abapa", "awari"])
    );
}

#[test]
fn counts_are_refused_in_words() {
    for args in [
        &["solve", "kalah", "--seeds", "-3"][..],
        &["solve", "kalah", "--seeds=-3"],
        &["show", "kalah", "--pits=-1"],
        &["build", "kalah", "--max-seeds", "-2"],
    ] {
        let err = error(args);
        assert!(
            err.contains("is negative: give a count, 0 or more"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("tip") && !err.contains("4294967295"), "{err}");
    }
    let err = error(&["show", "kalah", "--seeds", "x"]);
    assert!(err.contains("`x` is not a count"), "{err}");
    let err = error(&["show", "kalah", "--seeds", "99999999999"]);
    assert!(err.contains("far too large"), "{err}");
}

#[test]
fn info_and_verify_word_a_missing_directory_alike_and_info_says_when_it_is_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("missing");
    let missing = missing.to_str().unwrap();
    let info = error(&["info", "--dir", missing]);
    let verify = error(&["verify", "--dir", missing]);
    assert_eq!(info, verify);
    assert!(info.contains("no such table directory"), "{info}");
    let empty = tmp.path().to_str().unwrap();
    let out = ok(&["info", "--dir", empty]);
    assert!(out.contains("no tables in"), "{out}");
}
