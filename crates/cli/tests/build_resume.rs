//! A build killed (`kill -9`) in the middle of a layer, after a checkpoint, resumes from the
//! checkpoint when run again and writes the same bytes as a build never stopped: the layer
//! in one block (work bytes in memory) and in several (work bytes in a mapped scratch file).
//! A damaged checkpoint is refused with a line saying so, and the layer starts over, to the
//! same bytes.

mod common;

use common::*;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

/// The phase of a build's "checkpoint saved" line (`layer 15: checkpoint saved, a rerun
/// resumes at phase 12`).
fn saved_before(line: &str) -> Option<u32> {
    line.split("checkpoint saved, a rerun resumes at phase ")
        .nth(1)?
        .trim()
        .parse()
        .ok()
}

/// Kills `child` (a build of layer 15 with a checkpoint after every phase) as soon as it
/// reports a checkpoint saved after at least one phase; the phase it resumes at.
fn kill_after_a_phase(child: &mut Child) -> u32 {
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = Vec::new();
    for line in stderr.lines() {
        let line = line.unwrap();
        if let Some(next) = saved_before(&line).filter(|&t| t < 15) {
            child.kill().unwrap();
            child.wait().unwrap();
            return next;
        }
        seen.push(line);
    }
    panic!(
        "the build ended before it reported a checkpoint after a phase: {}",
        seen.join("\n")
    );
}

#[test]
fn a_layer_killed_after_a_checkpoint_resumes_from_it_to_the_same_bytes() {
    let game = ["oware", "--rules", "awari"];
    let max = 15;
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, max, 2);
    let expected = std::fs::read(plain.path().join("oware-6-awari/layer-015.tbl")).unwrap();
    // No budget: one block. 2 MiB: blocks of 1 Mi positions (8 for layer 15).
    for memory in [None, Some("2M")] {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), &game, max - 1, 2);
        let layer = dir.path().join("oware-6-awari/layer-015.tbl");
        let resume = dir
            .path()
            .join("oware-6-awari/layer-015.tbl.work/r0-0.resume");
        let root = dir.path().to_str().unwrap();
        let mut args = vec!["build"];
        args.extend_from_slice(&game);
        args.extend_from_slice(&[
            "--max-seeds",
            "15",
            "--dir",
            root,
            "--checkpoint-every",
            "0",
        ]);
        if let Some(m) = memory {
            args.extend_from_slice(&["--memory", m]);
        }
        let mut child = command(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Killed once a checkpoint after the first pass and at least one phase is saved.
        let stopped_before = kill_after_a_phase(&mut child);
        assert!(!layer.exists(), "killed before the layer was finished");
        assert!(resume.exists());
        let out = granary(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        let resumed_at: u32 = err
            .split("resumed from its checkpoint at phase ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("the layer was built again from the start: {err}"));
        assert!(
            resumed_at <= stopped_before,
            "{resumed_at} > {stopped_before}"
        );
        assert!(
            std::fs::read(&layer).unwrap() == expected,
            "{memory:?}: other bytes after resuming at phase {resumed_at}"
        );
        assert!(
            !resume.exists(),
            "the checkpoint is removed with the layer finished"
        );
    }
}

/// Damages the checkpoint at `path`: its last byte (a value) changed.
fn flip_a_byte(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_checkpoint_is_refused_and_the_layer_starts_over_to_the_same_bytes() {
    let game = ["oware", "--rules", "awari"];
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, 15, 2);
    let expected = std::fs::read(plain.path().join("oware-6-awari/layer-015.tbl")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &game, 14, 2);
    let layer = dir.path().join("oware-6-awari/layer-015.tbl");
    let resume = dir
        .path()
        .join("oware-6-awari/layer-015.tbl.work/r0-0.resume");
    let root = dir.path().to_str().unwrap();
    let mut args = vec!["build"];
    args.extend_from_slice(&game);
    args.extend_from_slice(&[
        "--max-seeds",
        "15",
        "--dir",
        root,
        "--checkpoint-every",
        "0",
    ]);
    let mut child = command(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    kill_after_a_phase(&mut child);
    assert!(!layer.exists(), "killed before the layer was finished");
    flip_a_byte(&resume);
    let out = granary(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let refusals: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("checkpoint refused"))
        .collect();
    assert_eq!(
        refusals.len(),
        1,
        "one line says the checkpoint is refused: {err}"
    );
    assert!(
        refusals[0].contains("r0-0.resume") && refusals[0].contains("checksum"),
        "the line names the file and what is wrong: {}",
        refusals[0]
    );
    assert!(
        !err.contains("resumed from its checkpoint"),
        "a damaged checkpoint was resumed from: {err}"
    );
    assert!(
        std::fs::read(&layer).unwrap() == expected,
        "other bytes after starting over"
    );
}
