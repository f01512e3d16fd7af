//! A build killed (`kill -9`) in the middle of a layer, after a checkpoint, resumes from the
//! checkpoint when run again and writes the same bytes as a build never stopped: the layer
//! in one block (work bytes in memory) and in several (work bytes in a mapped scratch file).

mod common;

use common::*;
use std::path::Path;
use std::process::Stdio;

/// The phase a checkpoint at `path` resumes at, once one is there (bytes 12..16).
fn next_phase(path: &Path) -> Option<u32> {
    let bytes = std::fs::read(path).ok()?;
    Some(u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?))
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
            .arg("--quiet")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Killed once a checkpoint after the first pass and at least one phase is there.
        let stopped_before = loop {
            if let Some(next) = next_phase(&resume).filter(|&t| t < 15) {
                child.kill().unwrap();
                child.wait().unwrap();
                break next;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "the build ended before it could be stopped ({memory:?})"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        };
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
