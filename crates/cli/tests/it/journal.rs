//! `granary solve kalah --journal`: a solve killed (`kill -9`) at several points and resumed
//! gives the same answer as one run through, for about the same work; a finished journal
//! answers with no tables; its records re-check from scratch; foreign and damaged journals are
//! refused.

use crate::common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// Kalah(6,4) empty capture over 18-seed tables, one thread (the same nodes every run): about
/// 2e7 nodes, a few seconds.
/// Every search of at least `min_nodes` nodes is recorded.
fn solve_args<'a>(dir: &'a str, journal: &'a str, min_nodes: &'a str) -> Vec<&'a str> {
    vec![
        "solve",
        "kalah",
        "--rules",
        "empty",
        "--table-seeds",
        "18",
        "--threads",
        "1",
        "--dir",
        dir,
        "--journal",
        journal,
        "--journal-min-nodes",
        min_nodes,
        "--progress-every",
        "0.02",
        "--json",
    ]
}

fn moves(report: &serde_json::Value) -> &serde_json::Value {
    &report["moves"]
}

#[test]
fn a_killed_solve_resumes_to_the_same_answer_for_about_the_same_work() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    let dir = dir.to_str().unwrap();
    let whole = tmp.path().join("whole.journal");
    let whole = whole.to_str().unwrap();
    // Build the tables first, so that every timed run below only searches.
    json(&[
        "solve",
        "kalah",
        "--rules",
        "empty",
        "--seeds",
        "2",
        "--table-seeds",
        "18",
        "--dir",
        dir,
        "--json",
    ]);
    let once = json(&solve_args(dir, whole, "4096"));
    assert_eq!(
        once["value"], 10,
        "Kalah(6,4) empty is +10 (docs/results.md)"
    );
    let nodes_once = once["nodes"].as_u64().unwrap();
    let records_once = once["journal"]["records"].as_u64().unwrap();

    // The same solve killed at several points of its work, each run resuming from the journal:
    // a run is killed once it has added a fifth of the uninterrupted run's records.
    let resumed = tmp.path().join("resumed.journal");
    let resumed = resumed.to_str().unwrap();
    let mut kills = 0;
    for _ in 0..3 {
        let before = std::fs::metadata(resumed).map_or(0, |m| m.len());
        let mut child = command(&solve_args(dir, resumed, "4096"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let target = before + records_once / 5 * 32;
        while child.try_wait().unwrap().is_none() {
            if std::fs::metadata(resumed).map_or(0, |m| m.len()) >= target {
                child.kill().unwrap(); // SIGKILL
                kills += 1;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        child.wait().unwrap();
    }
    assert_eq!(kills, 3, "every run was killed before it ended");
    let last = json(&solve_args(dir, resumed, "4096"));
    assert_eq!(last["value"], once["value"]);
    assert_eq!(moves(&last), moves(&once));
    let journal = &last["journal"];
    assert_eq!(journal["runs"], 4, "{journal}");
    assert!(journal["loaded"].as_u64().unwrap() > 0, "{journal}");
    // The work of all runs together: each killed run's last progress record (every 0.02 s) and
    // the last run's count.
    let total = journal["earlier_nodes"].as_u64().unwrap() + last["nodes"].as_u64().unwrap();
    let ratio = total as f64 / nodes_once as f64;
    eprintln!(
        "{kills} kills: {total} nodes in all against {nodes_once} uninterrupted ({ratio:.3}x)"
    );
    assert!(
        ratio <= 1.2,
        "resumed runs did {ratio:.3}x the work of one run"
    );

    // A finished journal answers at once, with no tables (an empty directory).
    let empty = tmp.path().join("none");
    let answer = json(&solve_args(empty.to_str().unwrap(), resumed, "4096"));
    assert_eq!(answer["value"], once["value"]);
    assert_eq!(moves(&answer), moves(&once));
    assert_eq!(answer["pv"], last["pv"]);
    assert_eq!(answer["journal"]["answered"], true);
    assert_eq!(answer["tables"], "none");
    assert!(!empty.join("kalah-6-empty-owner").exists());

    // Records re-proved from scratch hold.
    let mut recheck = solve_args(dir, resumed, "4096");
    recheck.extend(["--recheck", "25", "--recheck-seed", "7"]);
    let checked = json(&recheck);
    let checked = checked.as_array().unwrap();
    assert_eq!(checked.len(), 25);
    assert!(checked.iter().all(|c| c["holds"] == true), "{checked:?}");
    let seeds: Vec<u64> = checked
        .iter()
        .map(|c| c["seeds"].as_u64().unwrap())
        .collect();
    assert!(seeds.is_sorted(), "deepest first: {seeds:?}");
}

#[test]
fn a_wrong_record_fails_the_recheck() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    let dir = dir.to_str().unwrap();
    let path = tmp.path().join("j");
    let journal = path.to_str().unwrap();
    // Kalah(6,2) over 10-seed tables, every search recorded.
    let mut args = solve_args(dir, journal, "1");
    args.extend(["--seeds", "2"]);
    args[5] = "10";
    json(&args);
    // Lower every exact record by two (the same parity, a false value): re-written records
    // with good checksums but false claims (a journal from a broken solver).
    let bytes = std::fs::read(&path).unwrap();
    let mut out = bytes[..128].to_vec();
    let mut changed = 0;
    for rec in bytes[128..].chunks_exact(32) {
        let mut r = rec.to_vec();
        if r[0] == 1 && r[1] == r[2] && r[1] as i8 > -20 {
            r[1] = (r[1] as i8 - 2) as u8;
            r[2] = r[1];
            let crc = crc32(&r[..28]);
            r[28..].copy_from_slice(&crc.to_le_bytes());
            changed += 1;
        }
        out.extend_from_slice(&r);
    }
    assert!(changed > 0);
    std::fs::write(&path, out).unwrap();
    let mut recheck = args.clone();
    recheck.extend(["--recheck", "1000"]);
    // The checks are printed (a JSON list here), then the command fails with one line.
    let out = granary(&recheck);
    assert_eq!(out.status.code(), Some(2));
    let checked: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        checked
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["holds"] == false)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("do not hold"), "{err}");
}

#[test]
fn foreign_and_damaged_journals_are_refused_and_a_torn_record_is_dropped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    let dir = dir.to_str().unwrap();
    let path = tmp.path().join("j");
    let journal = path.to_str().unwrap();
    let small = |extra: &[&'static str]| {
        let mut a = solve_args(dir, journal, "1");
        a.extend(["--seeds", "2"]);
        a[5] = "10";
        a.extend(extra);
        a
    };
    let first = json(&small(&[]));
    // Another game's journal.
    let err = error(&small(&["--pits", "5"]));
    assert!(err.contains("a journal of Kalah(6,2)"), "{err}");
    // A torn last record (a kill in mid-write) is dropped and the solve goes on.
    let len = std::fs::metadata(&path).unwrap().len();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    std::fs::write(&path, &bytes).unwrap();
    let again = json(&small(&[]));
    assert_eq!(again["value"], first["value"]);
    assert_eq!(again["journal"]["answered"], true);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        len,
        "torn tail cut"
    );
    // A damaged record before the last.
    bytes.truncate(len as usize);
    bytes[128 + 4] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let err = error(&small(&[]));
    assert!(err.contains("damaged record at byte 128"), "{err}");
    // Not a journal at all.
    std::fs::write(&path, b"hello").unwrap();
    let err = error(&small(&[]));
    assert!(err.contains("not a granary solve journal"), "{err}");
    // Oware keeps no journal.
    let mut oware = small(&[]);
    oware[1] = "oware";
    oware.drain(2..6);
    let err = error(&oware);
    assert!(
        err.contains("journal: oware is solved from its tables"),
        "{err}"
    );
    assert!(Path::new(journal).exists());
}
