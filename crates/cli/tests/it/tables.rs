//! Tables end to end through the `granary` binary: build, query, verify, info; determinism,
//! resume, and every kind of bad file refused with a named error and exit code 2.

use crate::common::*;
use std::path::Path;

#[test]
fn awari_test_position_of_romein_and_bal() {
    // keesverstoep/Awari (the public Romein & Bal databases), Awari-Python/README.md: value 0,
    // moves -1 -1 -2 -2 -2 0.
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["oware", "--rules", "awari"], 16, 2);
    let out = ok(&[
        "query",
        "oware",
        "--rules",
        "awari",
        "1,1,1,1,1,2/4,2,3,0,0,0",
        "--dir",
        dir.path().to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], 0);
    let values: Vec<i64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [-1, -1, -2, -2, -2, 0]);
    assert_eq!(v["best"], serde_json::json!([6]));
    assert_eq!(v["result"], "draw");
    assert_eq!(v["final"], serde_json::json!([8, 8]));
    assert!(!v["pv"].as_array().unwrap().is_empty());
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tbl"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn same_bytes_for_any_thread_count_and_after_resume() {
    for game in [
        &["oware", "--pits", "5"][..],
        &["kalah", "--pits", "5", "--rules", "standard"][..],
    ] {
        let one = tempfile::tempdir().unwrap();
        let two = tempfile::tempdir().unwrap();
        build(one.path(), game, 12, 1);
        build(two.path(), game, 12, 2);
        let sub = |d: &tempfile::TempDir| {
            std::fs::read_dir(d.path())
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path()
        };
        let (a, b) = (files(&sub(&one)), files(&sub(&two)));
        assert_eq!(a.len(), 13);
        assert!(a == b, "{game:?}: tables differ between 1 and 2 threads");
        // Resume: remove the top layers, leave a half-written temporary file, build again.
        std::fs::remove_file(sub(&two).join("layer-012.tbl")).unwrap();
        std::fs::remove_file(sub(&two).join("layer-011.tbl")).unwrap();
        std::fs::write(sub(&two).join("layer-011.tbl.tmp"), b"half").unwrap();
        build(two.path(), game, 12, 2);
        let resumed: Vec<_> = files(&sub(&two))
            .into_iter()
            .filter(|(n, _)| n.ends_with(".tbl"))
            .collect();
        assert!(resumed == a, "{game:?}: resumed build differs");
    }
}

#[test]
fn bad_files_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    build(dir.path(), &["oware", "--pits", "4"], 8, 2);
    let layer = dir.path().join("oware-4-abapa").join("layer-008.tbl");
    let pristine = std::fs::read(&layer).unwrap();
    // No estimate (`--time 0`): a position the tables do not answer is an error.
    let query = [
        "query",
        "oware",
        "4,2,0,0/1,1,0,0",
        "--dir",
        d,
        "--time",
        "0",
    ];
    let good = ok(&query);
    assert!(good.contains("value"), "{good}");

    // A flipped data byte: opening reads the header only, so the data checksum is checked by
    // `query --verify` and by `verify`.
    let mut bytes = pristine.clone();
    bytes[100] ^= 1;
    std::fs::write(&layer, &bytes).unwrap();
    let mut verified = query.to_vec();
    verified.push("--verify");
    assert!(error(&verified).contains("layer-008.tbl: data checksum mismatch"));
    let out = granary(&["verify", "--dir", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("layer-008.tbl: data checksum mismatch"));
    std::fs::write(&layer, &pristine).unwrap();
    assert_eq!(ok(&verified), good);
    // Truncated, short of a header, empty.
    std::fs::write(&layer, &pristine[..pristine.len() - 10]).unwrap();
    assert!(error(&query).contains("layer-008.tbl: file is"));
    std::fs::write(&layer, &pristine[..20]).unwrap();
    assert!(error(&query).contains("layer-008.tbl: 20 bytes, shorter than a table header"));
    std::fs::write(&layer, b"").unwrap();
    assert!(error(&query).contains("layer-008.tbl: 0 bytes"));
    // A directory where the file should be.
    std::fs::remove_file(&layer).unwrap();
    std::fs::create_dir(&layer).unwrap();
    assert!(error(&query).contains("a directory or special file"));
    std::fs::remove_dir(&layer).unwrap();
    // Another format version (header re-sealed): named, with what to do.
    let mut bytes = pristine.clone();
    bytes[8] = 9;
    let header_crc = crc32(&bytes[..60]);
    bytes[60..64].copy_from_slice(&header_crc.to_le_bytes());
    std::fs::write(&layer, &bytes).unwrap();
    let err = error(&query);
    assert!(
        err.contains("table format version 9, this granary reads versions 1 to 3: delete"),
        "{err}"
    );
    // Not a table at all.
    std::fs::write(
        &layer,
        b"#!/bin/sh\necho hello, this is not a granary table at all, sorry\n",
    )
    .unwrap();
    assert!(error(&query).contains("not a granary table"));
    // A corrupt header.
    let mut bytes = pristine.clone();
    bytes[16] ^= 0xff;
    std::fs::write(&layer, &bytes).unwrap();
    assert!(error(&query).contains("header checksum mismatch"));
    // Another layer's file under this name: the header says so.
    let other = std::fs::read(dir.path().join("oware-4-abapa").join("layer-007.tbl")).unwrap();
    std::fs::write(&layer, &other).unwrap();
    assert!(error(&query).contains("table is for"));
    // A foreign variant's table under this name (awari tables in the abapa directory).
    let foreign = tempfile::tempdir().unwrap();
    build(
        foreign.path(),
        &["oware", "--pits", "4", "--rules", "awari"],
        8,
        2,
    );
    std::fs::copy(
        foreign.path().join("oware-4-awari").join("layer-008.tbl"),
        &layer,
    )
    .unwrap();
    assert!(error(&query).contains("table is for"));
    // A missing layer: the tables present, and the build that answers the position.
    std::fs::remove_file(&layer).unwrap();
    let err = error(&query);
    assert!(
        err.contains("the tables of oware-4-abapa present go up to 7 seeds")
            && err.contains("`granary build oware --pits 4 --rules abapa --max-seeds 8`"),
        "{err}"
    );
    // Read from the tables alone, the missing file is named.
    let mut alone = query.to_vec();
    alone.extend_from_slice(&["--search-seconds", "0"]);
    assert!(error(&alone).contains("layer-008.tbl: table not built"));

    std::fs::write(&layer, &pristine).unwrap();
    assert_eq!(ok(&query), good);
}

#[test]
fn verify_finds_a_wrong_value_with_a_valid_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    build(dir.path(), &["kalah", "--pits", "3"], 6, 2);
    let out = ok(&["verify", "--dir", d]);
    assert!(out.contains("all 7 table files are good"), "{out}");
    // Change one value and re-seal the file so that only the re-check against children sees it.
    let layer = dir.path().join("kalah-3-empty-owner").join("layer-006.tbl");
    let mut bytes = std::fs::read(&layer).unwrap();
    let old = bytes[64 + 5] as i8;
    bytes[64 + 5] = (if old > 0 { old - 1 } else { old + 1 }) as u8;
    let crc = crc32(&bytes[64..]);
    bytes[28..32].copy_from_slice(&crc.to_le_bytes());
    let header_crc = crc32(&bytes[..60]);
    bytes[60..64].copy_from_slice(&header_crc.to_le_bytes());
    std::fs::write(&layer, &bytes).unwrap();
    let out = granary(&["verify", "--dir", d, "--sample", "1000000"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("BAD") && text.contains("layer-006.tbl") && text.contains("entry 5 ="),
        "{text}"
    );
    let info = ok(&["info", "--dir", d, "--histogram"]);
    assert!(
        info.contains("kalah-3-empty-owner") && info.contains("values"),
        "{info}"
    );
}

#[test]
fn build_and_query_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert!(error(&["build", "kalah", "--max-seeds", "65", "--dir", d]).contains("--max-seeds 65"));
    assert!(
        error(&[
            "build",
            "kalah",
            "--max-seeds",
            "3",
            "--threads",
            "0",
            "--dir",
            d
        ])
        .contains("--threads")
    );
    // The tables alone (a search would answer this small position above no tables).
    assert!(
        error(&[
            "query",
            "kalah",
            "1,2,3/4,5,6",
            "--dir",
            d,
            "--search-seconds",
            "0",
            "--time",
            "0"
        ])
        .contains("granary build kalah --pits 3")
    );
    assert!(error(&["verify", "--dir", d]).contains("no table files"));
    for bad in ["0", "-1", "inf", "soon"] {
        let args = [
            "build",
            "oware",
            "--max-seeds",
            "3",
            "--progress-every",
            bad,
        ];
        assert!(error(&args).contains("--progress-every"), "{bad}");
    }
}

/// A build logged to a file (stderr not a terminal, so no bar) says when each phase of a layer
/// built by phases starts, at most one line every `--progress-every` seconds: none where the
/// layer takes less than the default minute.
#[test]
fn a_logged_build_says_which_phase_it_is_in() {
    let phases = |extra: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let mut args = vec!["build", "oware", "--rules", "awari", "--max-seeds", "10"];
        args.extend_from_slice(&["--dir", d]);
        args.extend_from_slice(extra);
        let out = granary(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stderr)
            .unwrap()
            .lines()
            .filter(|l| l.contains(": phase "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let every = phases(&["--progress-every", "0.000000001"]);
    // Layer 10 by phases 10 down to 1, a line each: a phase takes more than the nanosecond
    // asked for (its scan alone is a parallel pass).
    let layer_10: Vec<_> = every
        .iter()
        .filter(|l| l.starts_with("oware-6-awari layer 10: phase "))
        .collect();
    assert_eq!(layer_10.len(), 10, "{every:?}");
    assert!(layer_10[0].starts_with("oware-6-awari layer 10: phase 10 at "));
    assert!(layer_10[9].starts_with("oware-6-awari layer 10: phase 1 at "));
    assert!(every.iter().all(|l| l.ends_with(" s")), "{every:?}");
    assert_eq!(phases(&[]), Vec::<String>::new());
    assert_eq!(
        phases(&["--quiet", "--progress-every", "0.000000001"]),
        Vec::<String>::new()
    );
}

#[test]
fn solve_small_games_and_play_against_perfect_play() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Kalah(4,3): search with tables built on the fly; the value matches the family table's.
    let out = ok(&[
        "solve",
        "kalah",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--dir",
        d,
        "--all-moves",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let best = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .max()
        .unwrap();
    assert_eq!(v["value"].as_i64().unwrap(), best);
    let family = ok(&[
        "solve",
        "kalah",
        "--family",
        "4..4x3..3",
        "--dir",
        d,
        "--json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&family).unwrap();
    assert_eq!(rows[0]["value"], v["value"]);
    // Oware(3,2): from complete tables; agrees with a query of the same tables.
    let out = ok(&[
        "solve", "oware", "--pits", "3", "--seeds", "2", "--dir", d, "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let q = ok(&["query", "oware", "2,2,2/2,2,2", "--dir", d, "--json"]);
    let q: serde_json::Value = serde_json::from_str(&q).unwrap();
    assert_eq!(v["value"], q["value"]);
    // A person: bad input is answered, hint and undo work, and the game can be left.
    let out = with_input(
        &["play", "kalah", "--pits", "3", "--seeds", "2", "--dir", d],
        "x\n9\nhint\n2\nundo\n1\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("'x' is not a pit number"), "{text}");
    assert!(text.contains("pit 9 does not exist"), "{text}");
    assert!(text.contains("move values for you: 1:"), "{text}");
    assert!(text.contains("granary plays"), "{text}");
}
