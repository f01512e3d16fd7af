//! What the command-line tests share: running the `granary` binary as a user does (no table
//! directory or cost model from the environment), its outputs checked, and a CRC-32 written out
//! independently of the crate the files use.

#![allow(dead_code)] // each test file uses some of these

use std::process::{Command, Output};

/// Runs `granary` with `args`, with no `$GRANARY_TABLES` and the default cost model.
pub fn granary(args: &[&str]) -> Output {
    command(args).output().expect("runs")
}

/// The command `granary args`, not yet run, in the same environment as [`granary`].
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_granary"));
    c.args(args).env_remove("GRANARY_TABLES").env(
        "GRANARY_COST_MODEL",
        "/nonexistent/granary-tests/cost-model.json",
    );
    c
}

/// Runs `granary` with `args` as [`granary`] does, with `input` on its standard input.
pub fn with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("the input written");
    child.wait_with_output().expect("runs")
}

/// A command that succeeds: its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = granary(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A command that succeeds with one JSON value on standard output.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("one JSON value")
}

/// A failing command: exit code 2, nothing on stdout, one line on stderr, which is returned.
pub fn error(args: &[&str]) -> String {
    let out = granary(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    err
}

/// CRC-32 (IEEE), bit by bit.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// `granary build GAME --max-seeds MAX --dir DIR --threads THREADS --quiet`, which must succeed.
pub fn build(dir: &std::path::Path, game: &[&str], max: u32, threads: u32) {
    let dir = dir.to_str().unwrap();
    let (max, threads) = (max.to_string(), threads.to_string());
    let mut args = vec!["build"];
    args.extend_from_slice(game);
    args.extend_from_slice(&[
        "--max-seeds",
        &max,
        "--dir",
        dir,
        "--threads",
        &threads,
        "--quiet",
    ]);
    ok(&args);
}
