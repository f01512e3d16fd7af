//! The `granary` binary as a user runs it: outputs, JSON fields, errors and exit codes.

use crate::common::*;

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
    // Every command that names tables by their game says so in the same words.
    let tables = tempfile::tempdir().unwrap();
    let tables = tables.path().to_str().unwrap();
    for args in [
        &[
            "build",
            "kalah",
            "--pits",
            "9",
            "--max-seeds",
            "2",
            "--dir",
            tables,
        ][..],
        &["compress", "oware", "--pits", "9", "--dir", tables],
        &["show", "oware", "--pits", "9"],
    ] {
        assert_eq!(
            error(args).trim_end(),
            "granary: error: pits 9 is out of range: a side has 1 to 8 pits",
            "{args:?}"
        );
    }
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

/// A fresh clone's first `granary info` (and `serve`, the same directory rule): the built-in
/// default directory is created, where a directory named with `--dir` must exist.
#[test]
fn the_default_directory_is_created_where_a_named_one_must_exist() {
    let tmp = tempfile::tempdir().unwrap();
    let out = command(&["info"]).current_dir(tmp.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("no tables in"), "{stdout}");
    assert!(tmp.path().join("data/tables").is_dir());
    let named = tmp.path().join("named");
    let err = error(&["info", "--dir", named.to_str().unwrap()]);
    assert!(err.contains("no such table directory"), "{err}");
    assert!(!named.exists());
}

/// Every root move of a solve without `--all-moves` against the same solve with it: an exact
/// move its value, a bound (`upper`, never `value`) no less than the true value; small Kalah and
/// Oware positions, and the text output's marks explained.
#[test]
fn solve_reports_bounds_as_bounds_and_each_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let cases: [&[&str]; 6] = [
        &["kalah", "--pits", "4", "--seeds", "3"],
        &[
            "kalah", "--pits", "4", "--seeds", "3", "--rules", "standard",
        ],
        &["kalah", "--pits", "3", "--seeds", "4"],
        &[
            "kalah",
            "--pits",
            "5",
            "--seeds",
            "2",
            "--position",
            "3,0,2,1,4/0,2,2,1,0 3-5 N",
        ],
        &["oware", "--pits", "4", "--seeds", "2", "--rules", "awari"],
        &[
            "oware",
            "--pits",
            "3",
            "--seeds",
            "3",
            "--position",
            "2,0,3/1,2,0 4-6 S",
        ],
    ];
    let mut bounds = 0;
    for case in cases {
        let mut args = vec!["solve"];
        args.extend_from_slice(case);
        args.extend_from_slice(&["--dir", dir, "--json"]);
        let some = json(&args);
        args.push("--all-moves");
        let all = json(&args);
        assert_eq!(some["value"], all["value"], "{case:?}");
        let truth: Vec<(u64, i64)> = all["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                assert!(m.get("upper").is_none(), "{case:?}: {m}");
                (m["move"].as_u64().unwrap(), m["value"].as_i64().unwrap())
            })
            .collect();
        let moves = some["moves"].as_array().unwrap();
        assert_eq!(moves.len(), truth.len(), "{case:?}");
        for (m, &(pit, value)) in moves.iter().zip(&truth) {
            assert_eq!(m["move"].as_u64().unwrap(), pit, "{case:?}");
            assert!(m.get("exact").is_none(), "{case:?}: {m}");
            match (m.get("value"), m.get("upper")) {
                (Some(v), None) => assert_eq!(v.as_i64().unwrap(), value, "{case:?}: {m}"),
                (None, Some(u)) => {
                    bounds += 1;
                    assert!(value <= u.as_i64().unwrap(), "{case:?}: {m}, truly {value}");
                }
                _ => panic!("{case:?}: a move has a value or a bound, not both: {m}"),
            }
        }
        // The best moves are the exact moves of the position's value.
        for pit in some["best"].as_array().unwrap() {
            let m = moves.iter().find(|m| &m["move"] == pit).unwrap();
            assert_eq!(m["value"], some["value"], "{case:?}");
        }
    }
    assert!(bounds > 0, "no case had a bound");
    // Text: the marks are explained under the moves, once, where a move is a bound.
    let text = ok(&[
        "solve", "kalah", "--pits", "4", "--seeds", "3", "--dir", dir,
    ]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("moves ")).unwrap();
    assert!(lines[at].contains(":<=+"), "{text}");
    assert!(
        lines[at + 1].starts_with("(<=+N: the move is worth at most +N"),
        "{text}"
    );
    let exact = ok(&[
        "solve",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--dir",
        dir,
        "--all-moves",
    ]);
    assert!(!exact.contains("<="), "{exact}");
    let help = ok(&["solve", "--help"]);
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("`3:<=+10` says move 3 is worth at most +10"),
        "{help}"
    );
}

#[test]
fn serve_refuses_a_missing_table_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nonexistent-dir");
    let missing = missing.to_str().unwrap();
    let err = error(&["serve", "--dir", missing, "--bind", "127.0.0.1:0"]);
    assert!(
        err.contains(&format!("{missing}: no such table directory")),
        "{err}"
    );
    // `--filled-memory 0` holds nothing, and any other size is at least 1M, as everywhere.
    let serve = |memory: &str| {
        error(&[
            "serve",
            "--dir",
            missing,
            "--bind",
            "127.0.0.1:0",
            "--filled-memory",
            memory,
        ])
    };
    assert!(serve("0").contains("no such table directory"));
    assert!(serve("100K").contains("at least 1M"));
}

/// `query --time 0` (no estimate) beyond the tables advises what this machine can do: the
/// search that answers a Kalah start, with its estimated time; never a build no disk holds.
#[test]
fn query_beyond_the_tables_advises_what_fits() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let no_estimate = ["--dir", dir, "--time", "0"];
    let kalah = error(
        &[
            &["query", "kalah", "4,4,4,4,4,4/4,4,4,4,4,4"],
            &no_estimate[..],
        ]
        .concat(),
    );
    assert!(
        kalah.contains(
            "`granary solve kalah --pits 6 --rules empty --sweep owner --position \
             \"4,4,4,4,4,4/4,4,4,4,4,4 0-0 S\" --all-moves"
        ),
        "{kalah}"
    );
    assert!(kalah.contains(" in all"), "{kalah}");
    assert!(!kalah.contains("granary build"), "{kalah}");
    // The Oware(6,4) start: its tables (1056.4 GB) are advised only to a disk that holds them.
    let oware = error(
        &[
            &["query", "oware", "4,4,4,4,4,4/4,4,4,4,4,4"],
            &no_estimate[..],
        ]
        .concat(),
    );
    assert!(
        oware.contains("oware-6-abapa tables up to 48 seeds need 1056.4 GB more on disk (")
            && oware.contains(" with the build's scratch files) and ")
            && oware.contains("is free: more than this machine holds")
            && !oware.contains("granary build")
            || oware.contains("--max-seeds 48` (1056.4 GB on disk"),
        "{oware}"
    );
    // A small Oware position: the build that answers it.
    let small = error(
        &[
            &["query", "oware", "--rules", "awari", "1,0,1/0,1,1"],
            &no_estimate[..],
        ]
        .concat(),
    );
    assert!(
        small
            .contains("build them with `granary build oware --pits 3 --rules awari --max-seeds 4`"),
        "{small}"
    );
}

/// `query` answers a Kalah position above the tables by a search over them, as the library's
/// rule of what is answered beyond the tables says, with the value the tables give once they
/// hold it; `--search-seconds 0` keeps to the tables.
#[test]
fn query_searches_a_kalah_position_above_the_tables() {
    let game = ["kalah", "--pits", "4", "--rules", "standard"];
    let low = tempfile::tempdir().unwrap();
    build(low.path(), &game, 8, 2);
    let high = tempfile::tempdir().unwrap();
    build(high.path(), &game, 10, 2);
    let position = "2,0,3,1/1,2,0,1 5-3 N"; // 10 seeds on the board
    let query = |dir: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["query"];
        args.extend_from_slice(&game);
        args.extend_from_slice(&[position, "--dir", dir.to_str().unwrap(), "--json"]);
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let args = query(low.path(), &[]);
    let searched = json(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let args = query(high.path(), &[]);
    let read = json(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(searched["source"], "search", "{searched}");
    assert_eq!(read["source"], "tables", "{read}");
    for field in ["value", "moves", "best", "final_stores"] {
        assert_eq!(
            searched[field], read[field],
            "{field}: {searched} against {read}"
        );
    }
    let args = query(low.path(), &["--search-seconds", "0", "--time", "0"]);
    let refused = error(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(refused.contains("table not built"), "{refused}");
    let args = query(low.path(), &["--search-seconds=-1"]);
    let bad = error(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(bad.contains("not a number of seconds"), "{bad}");
}

/// `query` beyond what is answered exactly gives the engine's estimate, labelled as one: in
/// JSON an `estimate` (with its depth and time) and no `value`; in text the word `estimate`.
/// Where the engine's search met only exact leaves, its estimate is the tables' value.
#[test]
fn query_beyond_the_exact_reach_gives_the_engines_estimate_labelled_as_one() {
    let game = ["kalah", "--pits", "4", "--rules", "standard"];
    let low = tempfile::tempdir().unwrap();
    build(low.path(), &game, 8, 2);
    let high = tempfile::tempdir().unwrap();
    build(high.path(), &game, 10, 2);
    let position = "2,0,3,1/1,2,0,1 5-3 N"; // 10 seeds on the board
    let query = |dir: &std::path::Path, extra: &[&str]| -> Vec<String> {
        let mut args = vec!["query"];
        args.extend_from_slice(&game);
        args.extend_from_slice(&[position, "--dir", dir.to_str().unwrap()]);
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect()
    };
    let low_args = query(
        low.path(),
        &["--search-seconds", "0", "--time", "5", "--json"],
    );
    let estimated = json(&strs(&low_args));
    let high_args = query(high.path(), &["--json"]);
    let read = json(&strs(&high_args));
    assert!(estimated.get("value").is_none(), "{estimated}");
    let estimate = &estimated["estimate"];
    assert!(estimate["depth"].as_u64().unwrap() >= 1, "{estimated}");
    assert!(estimate["seconds"].as_f64().unwrap() >= 0.0, "{estimated}");
    let best = estimated["best"].as_u64().unwrap();
    let legal: Vec<u64> = read["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_u64().unwrap())
        .collect();
    assert!(legal.contains(&best), "{estimated}");
    if estimate["every_leaf_exact"] == true {
        assert_eq!(
            estimate["value"], read["value"],
            "{estimated} against {read}"
        );
        let values = read["best"].as_array().unwrap();
        assert!(
            values.contains(&serde_json::json!(best)),
            "{estimated} against {read}"
        );
    }
    let text_args = query(low.path(), &["--search-seconds", "0"]);
    let text = ok(&strs(&text_args));
    assert!(text.contains("no exact value: "), "{text}");
    assert!(text.contains(": estimate "), "{text}");
    assert!(!text.contains("\nvalue "), "{text}");
    let bad_args = query(low.path(), &["--time", "soon"]);
    let bad = error(&strs(&bad_args));
    assert!(bad.contains("not a number of seconds"), "{bad}");
}

/// `args` as the command-line helpers take them.
fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// `solve --dry-run` of Kalah(6,6), beyond the cost model's measured range: the tables it would
/// build, no search time, and the evidence of the repository's journal of the same solve.
#[test]
fn a_dry_run_beyond_the_measured_range_promises_no_time() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let run = |args: &[&str]| {
        let out = command(&[&["solve", "kalah", "--dry-run", "--dir", dir], args].concat())
            .current_dir(repo)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let unmeasured = "; no search time is promised: the search lies beyond the measured range of \
                      the cost model (measured up to 60 seeds on 6 pits, with 24-seed tables)";
    // Empty capture, from the repository's root: data/solves holds this solve's journal.
    let text = run(&["--seeds", "6"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("tables: kalah-6-empty-owner layers 0..="),
        "{text}"
    );
    assert!(lines[0].ends_with(unmeasured), "{text}");
    assert!(!lines[0].contains("search about"), "{text}");
    assert!(
        lines[1].starts_with(
            "evidence: a journal of this solve, data/solves/kalah-6-6-empty.journal: "
        ) && lines[1].ends_with("; no root move is bounded yet"),
        "{text}"
    );
    // Standard capture: no journal, so no evidence; still no time.
    let text = run(&["--seeds", "6", "--rules", "standard"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.trim_end().ends_with(unmeasured), "{text}");
    // The journal named, in JSON, over 28-seed tables (5.6 GB: they fit the memory of the
    // machines the tests run on, where the journal's 32 may not): no search time, and the
    // evidence.
    let v: serde_json::Value = serde_json::from_str(&run(&[
        "--seeds",
        "6",
        "--table-seeds",
        "28",
        "--journal",
        "data/solves/kalah-6-6-empty.journal",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["horizon"], 28);
    assert!(v["search_seconds"].is_null(), "{v}");
    assert_eq!(v["search_measured"], false);
    assert!(
        v["evidence"]["nodes"].as_u64().unwrap() > 30_000_000_000,
        "{v}"
    );
    assert_eq!(v["evidence"]["bounded_moves"], serde_json::json!([]));
    // Kalah(6,4), within the range: a time, and no journal looked for.
    let text = run(&["--seeds", "4"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains(", search about "), "{text}");
    assert!(!text.contains("promised"), "{text}");
}
