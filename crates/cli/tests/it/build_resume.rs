//! A build killed (`kill -9`) in the middle of a layer, after a checkpoint, resumes from the
//! checkpoint when run again and writes the same bytes as a build never stopped: the layer
//! in one block (work bytes in memory) and in several (work bytes in a mapped scratch file).
//! A damaged checkpoint is refused with a line saying so, and the layer starts over, to the
//! same bytes.

use crate::common::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::OnceLock;

const GAME: [&str; 3] = ["oware", "--rules", "awari"];

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

/// The files of awari layers 0..=15 as a build never stopped writes them (name and bytes), built
/// once for all the tests of this file.
fn never_stopped() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let plain = tempfile::tempdir().unwrap();
        build(plain.path(), &GAME, 15, 2);
        let kind = plain.path().join("oware-6-awari");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&kind)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                assert!(entry.file_type().unwrap().is_file(), "{entry:?}");
                let name = entry.file_name().into_string().unwrap();
                (name, std::fs::read(entry.path()).unwrap())
            })
            .collect();
        files.sort();
        files
    })
}

/// Awari layer 15 as a build never stopped writes it.
fn layer_15() -> &'static [u8] {
    never_stopped()
        .iter()
        .find(|(name, _)| name == "layer-015.tbl")
        .map(|(_, bytes)| bytes.as_slice())
        .expect("layer 15 is built")
}

/// A fresh table directory holding what a build of awari to 14 seeds writes: the files of
/// [`never_stopped`] but layer 15's.
fn lower_layers() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let kind = dir.path().join("oware-6-awari");
    std::fs::create_dir(&kind).unwrap();
    for (name, bytes) in never_stopped() {
        if name != "layer-015.tbl" {
            std::fs::write(kind.join(name), bytes).unwrap();
        }
    }
    dir
}

/// A build of awari layer 15 over lower layers built in a fresh directory, a checkpoint after
/// every phase (in `memory` if given), killed once it reports a checkpoint after a phase.
struct Stopped {
    dir: tempfile::TempDir,
    /// The command that built it, to run again.
    args: Vec<String>,
    /// The phase its last reported checkpoint resumes at.
    before: u32,
}

impl Stopped {
    fn new(memory: Option<&str>) -> Stopped {
        let dir = lower_layers();
        let mut args: Vec<String> = ["build"]
            .iter()
            .chain(&GAME)
            .map(|a| a.to_string())
            .collect();
        args.extend(["--max-seeds", "15", "--dir", dir.path().to_str().unwrap()].map(String::from));
        args.extend(["--checkpoint-every", "0"].map(String::from));
        if let Some(m) = memory {
            args.extend(["--memory", m].map(String::from));
        }
        let mut child = command(&args.iter().map(String::as_str).collect::<Vec<_>>())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let before = kill_after_a_phase(&mut child);
        let stopped = Stopped { dir, args, before };
        assert!(
            !stopped.layer().exists(),
            "killed before the layer was finished"
        );
        assert!(stopped.resume().exists());
        stopped
    }

    fn layer(&self) -> PathBuf {
        self.dir.path().join("oware-6-awari/layer-015.tbl")
    }

    fn resume(&self) -> PathBuf {
        self.dir
            .path()
            .join("oware-6-awari/layer-015.tbl.work/r0-0.resume")
    }

    /// The same command run again, to its end: its stderr.
    fn rerun(&self) -> String {
        let out = granary(&self.args.iter().map(String::as_str).collect::<Vec<_>>());
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    }
}

#[test]
fn a_layer_killed_after_a_checkpoint_resumes_from_it_to_the_same_bytes() {
    let expected = layer_15();
    // No budget: one block. 2 MiB: blocks of 1.5 Mi positions (5 for layer 15).
    for memory in [None, Some("2M")] {
        let stopped = Stopped::new(memory);
        let err = stopped.rerun();
        let resumed_at: u32 = err
            .split("resumed from its checkpoint at phase ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("the layer was built again from the start: {err}"));
        assert!(
            resumed_at <= stopped.before,
            "{resumed_at} > {}",
            stopped.before
        );
        assert!(
            std::fs::read(stopped.layer()).unwrap() == expected,
            "{memory:?}: other bytes after resuming at phase {resumed_at}"
        );
        assert!(
            !stopped.resume().exists(),
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
    let expected = layer_15();
    let stopped = Stopped::new(None);
    flip_a_byte(&stopped.resume());
    let err = stopped.rerun();
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
        std::fs::read(stopped.layer()).unwrap() == expected,
        "other bytes after starting over"
    );
}

#[test]
fn a_build_without_checkpoints_saves_none_and_writes_the_same_bytes() {
    let expected = layer_15();
    let dir = lower_layers();
    let path = dir.path().to_str().unwrap();
    let layer = dir.path().join("oware-6-awari/layer-015.tbl");
    for (flag, saves) in [("--checkpoint-every=0", true), ("--no-checkpoints", false)] {
        let mut args = vec!["build"];
        args.extend(GAME);
        args.extend(["--max-seeds", "15", "--dir", path, flag]);
        let out = granary(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(err.contains("checkpoint saved"), saves, "{flag}: {err}");
        assert!(
            std::fs::read(&layer).unwrap() == expected,
            "{flag}: other bytes"
        );
        std::fs::remove_file(&layer).unwrap();
    }
    let out = granary(&[
        "build",
        "oware",
        "--max-seeds",
        "3",
        "--dir",
        path,
        "--no-checkpoints",
        "--checkpoint-every",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
