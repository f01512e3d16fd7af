//! `granary compress` end to end: layers rewritten as compressed blocks (table format versions 3
//! and 2) read back the same for every entry, for two block sizes; sets mixing versions answer
//! queries the same; `verify` passes on good compressed files and names a damaged one; a
//! compressed Kalah set solves to the same value.

use crate::common::*;
use std::path::Path;

use granary_tables::{Layer, TableKind, TableSet};

/// `out` is a command that failed with exit code 2, its last line an error naming `file` as a
/// damaged compressed table, and no panic.
fn ends_naming_a_damaged_file(out: &std::process::Output, file: &str) {
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("granary: error: ")
            && last.contains(file)
            && last.contains("damaged compressed table"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Copies the table directory `from` to `to` (one level of kind directories).
fn copy_tables(from: &Path, to: &Path) {
    for kind in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(kind.file_name());
        std::fs::create_dir_all(&dest).unwrap();
        for file in std::fs::read_dir(kind.path()).unwrap().flatten() {
            if file.path().extension().is_some_and(|x| x == "tbl") {
                std::fs::copy(file.path(), dest.join(file.file_name())).unwrap();
            }
        }
    }
}

/// The one kind of tables under `dir`.
fn kind_in(dir: &Path) -> TableKind {
    let kind_dir = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    granary_tables::verify::kind_of(&kind_dir.join("layer-000.tbl"))
        .unwrap()
        .0
}

/// Awari layers `0..=max` built, and a copy of them compressed as `granary compress` does by
/// default (don't-cares filled).
fn awari_plain_and_filled(max: u32) -> (tempfile::TempDir, tempfile::TempDir) {
    let game = ["oware", "--rules", "awari"];
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, max, 2);
    let packed = tempfile::tempdir().unwrap();
    copy_tables(plain.path(), packed.path());
    compress(packed.path(), &game, &[]);
    (plain, packed)
}

/// Every entry of every layer `0..=max` of `a` and `b` is the same; the layers of `b` are
/// compressed where `compressed` says.
fn same_values(a: &Path, b: &Path, max: u32, compressed: impl Fn(u32) -> bool) {
    let kind = kind_in(a);
    let (a, b) = (TableSet::new(a, kind), TableSet::new(b, kind));
    for n in 0..=max {
        let (x, y): (&Layer, &Layer) = (a.layer(n).unwrap(), b.layer(n).unwrap());
        assert!(!x.is_compressed());
        assert_eq!(y.is_compressed(), compressed(n), "layer {n}");
        assert_eq!(x.len(), y.len());
        // Every entry in order, and a spread of single lookups (each decodes its block up to
        // the entry: one by one over a whole large layer of large blocks would take hours).
        let plain = x.raw().unwrap();
        y.for_each_chunk(|first, entries| {
            let first = first as usize;
            assert!(
                entries == &plain[first..first + entries.len()],
                "layer {n} entries {first}.."
            );
        })
        .unwrap();
        for i in (0..x.len()).step_by(97).chain([x.len() - 1]) {
            assert_eq!(x.value(i), y.value(i), "layer {n} entry {i}");
        }
        y.verify_checksum().unwrap();
    }
}

fn compress(dir: &Path, game: &[&str], extra: &[&str]) -> String {
    let mut args = vec!["compress"];
    args.extend_from_slice(game);
    args.extend_from_slice(&["--dir", dir.to_str().unwrap()]);
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn awari_and_kalah_compressed_read_the_same_in_both_formats_and_block_sizes() {
    for (game, max) in [
        (&["oware", "--rules", "awari"][..], 14),
        (&["kalah", "--rules", "standard"][..], 11),
    ] {
        let plain = tempfile::tempdir().unwrap();
        build(plain.path(), game, max, 2);
        // Format 3 as the game's default (don't-cares filled for oware, stored for kalah), then
        // each choice named.
        for (format, block, extra) in [
            ("3", "256", &[][..]),
            ("3", "64K", &["--dont-cares", "filled"][..]),
            ("3", "1K", &["--dont-cares", "stored"][..]),
            ("2", "4K", &[][..]),
            ("2", "64K", &[][..]),
        ] {
            let packed = tempfile::tempdir().unwrap();
            copy_tables(plain.path(), packed.path());
            let mut args = vec!["--format", format, "--block-size", block];
            args.extend_from_slice(extra);
            let out = compress(packed.path(), game, &args);
            assert_eq!(out.lines().count(), max as usize + 2, "{out}");
            assert!(out.contains(&format!("layer {max:>3}: ")), "{out}");
            assert!(out.contains("bits a position"), "{out}");
            same_values(plain.path(), packed.path(), max, |_| true);
            // What the header says: the format, and whether don't-cares are filled.
            let kind = kind_in(packed.path());
            let set = TableSet::new(packed.path(), kind);
            let header = *set.layer(max).unwrap().header();
            let filled = extra.contains(&"filled")
                || (format == "3" && extra.is_empty() && game[0] == "oware");
            assert_eq!(header.version.get().to_string(), format);
            assert_eq!(header.codec == 3, filled, "{game:?} {extra:?}");
            if filled {
                // Its values are rebuilt from the layers below: it opens only with them.
                let err = Layer::open(&set.layer_path(max), kind, max).unwrap_err();
                assert!(
                    err.to_string().contains("rebuilt from the layers below"),
                    "{err}"
                );
            }
            // Again: every layer is in that format already, and left as it was.
            let mut again = vec!["--format", format];
            again.extend_from_slice(extra);
            let again = compress(packed.path(), game, &again);
            assert_eq!(
                again.matches("in this format already").count(),
                max as usize + 1,
                "{again}"
            );
            same_values(plain.path(), packed.path(), max, |_| true);
            if filled {
                // Filled layers rewritten with every value stored: the same values again.
                let out = compress(packed.path(), game, &["--dont-cares", "stored"]);
                assert!(!out.contains("already"), "{out}");
                same_values(plain.path(), packed.path(), max, |_| true);
                let set = TableSet::new(packed.path(), kind);
                assert_eq!(set.layer(max).unwrap().header().codec, 2);
            }
            // `verify` reads compressed files as it reads plain ones.
            let verified = ok(&["verify", "--dir", packed.path().to_str().unwrap()]);
            assert!(verified.contains(&format!("all {} table files are good", max + 1)));
            // Version 2 layers are rewritten as version 3 by a compress without --format.
            if format == "2" {
                let out = compress(packed.path(), game, &[]);
                assert!(!out.contains("already"), "{out}");
                same_values(plain.path(), packed.path(), max, |_| true);
                let kind = kind_in(packed.path());
                let set = TableSet::new(packed.path(), kind);
                assert_eq!(set.layer(max).unwrap().header().version.get(), 3);
            }
        }
    }
}

/// A filled layer read in a window gives the value inside it and a true bound outside it
/// (alpha-beta's fail-soft contract), with every layer below read the same way (none rebuilt
/// whole), for awari and for Kalah, whose moves into the store give most of its don't-cares.
#[test]
fn a_filled_layer_read_in_a_window_gives_the_value_or_a_true_bound() {
    use granary_tables::probe::UNBOUNDED;
    for (game, max) in [
        (&["oware", "--rules", "awari"][..], 11),
        (&["kalah", "--rules", "standard"][..], 9),
    ] {
        let plain = tempfile::tempdir().unwrap();
        build(plain.path(), game, max, 2);
        let filled = tempfile::tempdir().unwrap();
        copy_tables(plain.path(), filled.path());
        compress(
            filled.path(),
            game,
            &["--dont-cares", "filled", "--block-size", "64"],
        );
        let kind = kind_in(plain.path());
        let plain = TableSet::new(plain.path(), kind);
        let filled = TableSet::new(filled.path(), kind).with_filled_whole_entries(0);
        for n in 0..=max {
            let exact = plain.layer(n).unwrap();
            assert!(filled.layer(n).unwrap().rebuilds_values(), "layer {n}");
            let step = (exact.len() / 500).max(1) as usize;
            for rank in (0..exact.len()).step_by(step) {
                let board = exact.index().unrank(rank);
                let v = i32::from(exact.value(rank));
                assert_eq!(
                    filled.probe(board).unwrap(),
                    Some(v as i8),
                    "layer {n} {rank}"
                );
                let bounds = [-UNBOUNDED, v - 3, v - 2, v - 1, v, v + 1, v + 2, UNBOUNDED];
                for (i, &alpha) in bounds.iter().enumerate() {
                    for &beta in &bounds[i + 1..] {
                        let r = filled.probe_within(board, alpha, beta).unwrap().unwrap();
                        let r = i32::from(r);
                        let what =
                            format!("layer {n} rank {rank} value {v} ({alpha}, {beta}): {r}");
                        if r <= alpha {
                            assert!(v <= r, "not an upper bound: {what}");
                        } else if r >= beta {
                            assert!(v >= r, "not a lower bound: {what}");
                        } else {
                            assert_eq!(r, v, "{what}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_set_mixing_plain_and_compressed_layers_answers_the_same() {
    let game = ["oware", "--rules", "awari"];
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, 12, 2);
    let mixed = tempfile::tempdir().unwrap();
    copy_tables(plain.path(), mixed.path());
    // Odd layers compressed (1 and 7 in version 2, 3 and 9 in version 3, 5 and 11 in version 3
    // with don't-cares filled), even ones plain.
    let kind = kind_in(plain.path());
    let set = TableSet::new(mixed.path(), kind);
    for n in (1..=12).step_by(2) {
        let layer = Layer::open(&set.layer_path(n), kind, n).unwrap();
        let options = granary_tables::CompressOptions {
            block_entries: 1 << 12,
            ..if n % 6 == 1 {
                granary_tables::CompressOptions::zstd(1)
            } else {
                granary_tables::CompressOptions::default()
            }
        };
        let path = set.layer_path(n);
        if n % 6 == 5 {
            granary_tables::compress_filled(&set, &layer, &path, options).unwrap();
        } else {
            granary_tables::compress_layer(&layer, &path, options).unwrap();
        }
    }
    same_values(plain.path(), mixed.path(), 12, |n| n % 2 == 1);
    for position in [
        "2,0,1,1,0,3/0,2,1,1,0,1 0-0 S",
        "1,1,1,1,1,2/1,1,0,0,0,2 3-5 N",
        "0,0,0,0,0,1/1,0,0,0,0,0",
        "3,0,2,0,1,0/0,4,0,1,0,1 10-12 S",
    ] {
        let query = |dir: &Path| {
            ok(&[
                "query",
                "oware",
                "--rules",
                "awari",
                position,
                "--dir",
                dir.to_str().unwrap(),
                "--json",
            ])
        };
        assert_eq!(query(plain.path()), query(mixed.path()), "{position}");
    }
    // `verify` passes on both versions together, and `info` lists them.
    let verified = ok(&["verify", "--dir", mixed.path().to_str().unwrap()]);
    assert!(
        verified.contains("all 13 table files are good"),
        "{verified}"
    );
    let info = ok(&["info", "--dir", mixed.path().to_str().unwrap()]);
    // Filled layers (5 and 11) are named, their values left uncounted unless asked for.
    assert_eq!(info.matches(" 3+fill ").count(), 2, "{info}");
    // Every layer's CRC, whatever its format, is the CRC-32 of the version 1 file's entries.
    let kind = kind_in(plain.path());
    let plain_set = TableSet::new(plain.path(), kind);
    for n in 0..=12u32 {
        let bytes = std::fs::read(plain_set.layer_path(n)).unwrap();
        let crc = format!(
            "{:08x}",
            crc32fast::hash(&bytes[granary_tables::format::HEADER_LEN..])
        );
        let row = info
            .lines()
            .find(|line| line.split_whitespace().next() == Some(&n.to_string()))
            .unwrap_or_else(|| panic!("layer {n}: {info}"));
        assert_eq!(row.split_whitespace().nth(5), Some(crc.as_str()), "{row}");
    }
    assert!(info.contains("counted with --histogram only"), "{info}");
    let counted = ok(&[
        "info",
        "--dir",
        mixed.path().to_str().unwrap(),
        "--histogram",
    ]);
    assert!(
        !counted.contains("counted with --histogram only"),
        "{counted}"
    );
    assert_eq!(counted.matches("values ").count(), 13, "{counted}");
}

#[test]
fn verify_names_a_compressed_file_with_a_flipped_byte_and_query_a_damaged_one() {
    let game = ["kalah", "--pits", "4"];
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &game, 10, 2);
    compress(dir.path(), &game, &["--block-size", "1K"]);
    let root = dir.path().to_str().unwrap();
    ok(&["verify", "--dir", root]);
    let layer = dir.path().join("kalah-4-empty-owner/layer-010.tbl");
    let good = std::fs::read(&layer).unwrap();
    // A byte in the middle of the last block's frame.
    let mut bytes = good.clone();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x08;
    std::fs::write(&layer, &bytes).unwrap();
    let out = granary(&["verify", "--dir", root]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("BAD") && stdout.contains("layer-010.tbl"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 11 table files are bad"));
    // Truncated: a query through it is a one-line error naming the file.
    std::fs::write(&layer, &good[..good.len() / 2]).unwrap();
    let err = error(&[
        "query",
        "kalah",
        "--pits",
        "4",
        "1,2,1,2/1,1,1,1",
        "--dir",
        root,
    ]);
    assert!(err.contains("layer-010.tbl"), "{err}");
    // A damaged block index.
    let mut bytes = good.clone();
    bytes[70] ^= 1;
    std::fs::write(&layer, &bytes).unwrap();
    let err = error(&[
        "query",
        "kalah",
        "--pits",
        "4",
        "1,2,1,2/1,1,1,1",
        "--dir",
        root,
    ]);
    assert!(err.contains("block index checksum mismatch"), "{err}");
}

#[test]
fn compress_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let err = error(&["compress", "kalah", "--dir", root]);
    assert!(err.contains("table not built"), "{err}");
    let err = error(&["compress", "kalah", "--dir", "/nonexistent/granary"]);
    assert!(err.contains("no such table directory"), "{err}");
    for size in ["3000", "32", "128K", "32M", "big"] {
        let err = error(&["compress", "kalah", "--dir", root, "--block-size", size]);
        assert!(err.contains("block size"), "{size}: {err}");
    }
    // Each format its own block sizes; a zstd level only for format 2.
    let err = error(&[
        "compress",
        "kalah",
        "--dir",
        root,
        "--format",
        "2",
        "--block-size",
        "512",
    ]);
    assert!(err.contains("format 2 takes blocks of 1024 to"), "{err}");
    let err = error(&["compress", "kalah", "--dir", root, "--level", "3"]);
    assert!(
        err.contains("--level is the zstd level of format 2"),
        "{err}"
    );
    let err = error(&["compress", "kalah", "--dir", root, "--format", "1"]);
    assert!(err.contains("--format"), "{err}");
    let err = error(&[
        "compress",
        "oware",
        "--dir",
        root,
        "--format",
        "2",
        "--dont-cares",
        "filled",
    ]);
    assert!(
        err.contains("--dont-cares is a choice of format 3"),
        "{err}"
    );
}

#[test]
fn a_filled_layer_over_a_damaged_or_missing_layer_below_is_a_one_line_error_naming_it() {
    let game = ["oware", "--rules", "awari"];
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &game, 8, 2);
    compress(dir.path(), &game, &[]);
    let root = dir.path().to_str().unwrap();
    // A position of layer 6, whose values are rebuilt from layers 0..=5.
    let query = [
        "query",
        "oware",
        "--rules",
        "awari",
        "1,0,1,0,1,0/0,1,0,1,0,1 0-0 S",
        "--dir",
        root,
    ];
    ok(&query);
    let lower = dir.path().join("oware-6-awari/layer-004.tbl");
    let good = std::fs::read(&lower).unwrap();
    std::fs::write(&lower, &good[..good.len() / 2]).unwrap();
    let err = error(&query);
    assert!(
        err.contains("layer-004.tbl") && err.contains("damaged compressed table"),
        "{err}"
    );
    // Missing: `verify` names it for every filled layer above it.
    std::fs::remove_file(&lower).unwrap();
    let out = granary(&["verify", "--dir", root]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.matches("layer-004.tbl: table not built").count(),
        4,
        "layers 5 to 8: {stdout}"
    );
    // Each line names the layer checked first, then the one it reads.
    for n in 5..=8 {
        let line = format!("BAD  {root}/oware-6-awari/layer-00{n}.tbl: a layer it reads is bad: ");
        assert!(stdout.contains(&line), "{line}: {stdout}");
    }
}

/// Flips a byte of the filled layer `n` under `dir`, the byte `at(length, k)` for the first `k`
/// (of 64) whose flip leaves every block decoding but to other values (a lookup cannot tell;
/// only the data checksum can), and leaves the file so.
fn change_values(dir: &Path, n: u32, at: impl Fn(usize, usize) -> usize) {
    let path = TableSet::new(dir, kind_in(dir)).layer_path(n);
    let values = || {
        let set = TableSet::new(dir, kind_in(dir)).with_filled_whole_entries(0);
        let layer = set.layer(n).unwrap();
        let mut values = vec![0u8; layer.index().size() as usize];
        layer.read_range(0, &mut values).ok().map(|()| values)
    };
    let (good, good_values) = (std::fs::read(&path).unwrap(), values().unwrap());
    let damaged = (0..64)
        .map(|k| {
            let mut bytes = good.clone();
            bytes[at(good.len(), k)] ^= 0x10;
            bytes
        })
        .find(|bytes| {
            std::fs::write(&path, bytes).unwrap();
            values().is_some_and(|v| v != good_values)
        })
        .expect("a byte whose flip still decodes, to other values");
    std::fs::write(&path, &damaged).unwrap();
}

/// `verify` keeps the checked values of filled layers for the layers above within `--memory`:
/// with the smallest layers only (at most 1 Mi entries, what any set keeps) or with every layer,
/// awari's layer 12 (1.3 M entries) decoded whole on rayon's threads, it passes the good set and
/// names a layer whose values a damaged block changed.
#[test]
fn verify_keeps_filled_layers_in_memory_within_its_budget_and_still_finds_a_damaged_one() {
    let game = ["oware", "--rules", "awari"];
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &game, 12, 2);
    compress(dir.path(), &game, &[]);
    let root = dir.path().to_str().unwrap();
    let set = TableSet::new(dir.path(), kind_in(dir.path()));
    assert_eq!(set.layer(12).unwrap().header().codec, 3);
    let verify = |memory: &str| granary(&["verify", "--dir", root, "--memory", memory]);
    for memory in ["1M", "1G"] {
        let out = verify(memory);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("all 13 table files are good"), "{stdout}");
    }
    // A query of layer 12 that checks the checksums of the layers it reads first.
    let query = [
        "query",
        "oware",
        "--rules",
        "awari",
        "1,1,1,1,1,1/1,1,1,1,1,1 0-0 S",
        "--dir",
        root,
        "--verify",
    ];
    ok(&query);
    // A byte of a block in the middle of layer 12 flipped.
    change_values(dir.path(), 12, |len, k| len / 2 + k);
    for memory in ["1M", "1G"] {
        let out = verify(memory);
        assert_eq!(out.status.code(), Some(2), "{memory}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let bad: Vec<&str> = stdout.lines().filter(|l| l.starts_with("BAD")).collect();
        assert_eq!(bad.len(), 1, "{memory}: {stdout}");
        assert!(bad[0].contains("layer-012.tbl"), "{stdout}");
    }
    let err = error(&query);
    assert!(err.contains("layer-012.tbl"), "{err}");
}

/// A server's tables hold filled layers' values from the bottom up within their memory
/// (`Tablebase::hold_filled`): the lowest layers that fit, each checked, every entry of every
/// layer then read as version 1 reads it; a damaged layer is named and not held.
#[test]
fn filled_layers_hold_their_values_from_the_bottom_up_within_the_memory() {
    let (plain, packed) = awari_plain_and_filled(10);
    let kind = kind_in(plain.path());
    let size = |n: u32| {
        TableSet::new(plain.path(), kind)
            .layer(n)
            .unwrap()
            .index()
            .size()
    };
    // Memory for layers 0..=7 and not 8.
    let memory: u64 = (0..=7).map(size).sum::<u64>() + size(8) - 1;
    let tablebase = granary::Tablebase::new(packed.path());
    assert_eq!(tablebase.hold_filled(memory).unwrap(), memory - size(8) + 1);
    let set = tablebase.tables(kind);
    for n in 0..=10 {
        assert!(set.layer(n).unwrap().rebuilds_values(), "layer {n}");
        assert_eq!(set.layer(n).unwrap().holds_values(), n <= 7, "layer {n}");
    }
    same_values(plain.path(), packed.path(), 10, |_| true);
    let v1 = TableSet::new(plain.path(), kind);
    for n in 0..=10 {
        let (x, y) = (v1.layer(n).unwrap(), set.layer(n).unwrap());
        for rank in (0..x.index().size()).step_by(7) {
            assert_eq!(x.try_value(rank).unwrap(), y.try_value(rank).unwrap());
        }
    }
    // Read bottom up, a layer's values are held when they are counted, and only then.
    let tablebase = granary::Tablebase::new(packed.path());
    let mut files = tablebase.bottom_up(Some(u64::MAX)).unwrap();
    for count in [false, true] {
        for path in files.files().to_vec() {
            let stats = files.layer_stats(&path, count).unwrap();
            assert_eq!(stats.histogram.is_some(), count);
            let (set, n) = files.open(&path, false).unwrap();
            assert_eq!(set.layer(n).unwrap().holds_values(), count, "layer {n}");
        }
    }
    // Layer 5's values changed by a byte of its last block flipped: named, nothing above held.
    change_values(packed.path(), 5, |len, k| len - 1 - k);
    let tablebase = granary::Tablebase::new(packed.path());
    let err = tablebase.hold_filled(u64::MAX).unwrap_err().to_string();
    assert!(
        err.contains("layer-005.tbl") && err.contains("data checksum"),
        "{err}"
    );
    let set = tablebase.tables(kind);
    assert!((0..=4).all(|n| set.layer(n).unwrap().holds_values()));
    assert!((5..=10).all(|n| !set.layer(n).unwrap().holds_values()));
}

#[test]
fn a_compressed_kalah_set_solves_to_the_same_value() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_str().unwrap();
    let solve = |in_memory: &str| {
        json(&[
            "solve",
            "kalah",
            "--pits",
            "4",
            "--seeds",
            "3",
            "--table-seeds",
            "10",
            "--tables-in-memory",
            in_memory,
            "--all-moves",
            "--dir",
            root,
            "--json",
        ])
    };
    let plain = solve("false");
    assert_eq!(plain["value"], 8, "{plain}"); // South wins Kalah(4,3) by 8 (docs/results.md)
    compress(
        dir.path(),
        &["kalah", "--pits", "4"],
        &["--block-size", "1K"],
    );
    for in_memory in ["false", "true"] {
        let packed = solve(in_memory);
        assert_eq!(packed["value"], plain["value"], "{packed}");
        assert_eq!(packed["moves"], plain["moves"], "{packed}");
        assert_eq!(packed["pv"], plain["pv"], "{packed}");
    }
}

/// Awari's compressed layers are filled (version 3): the builder holds their values, rebuilt
/// bottom up, layer 12 among them (1.34 M entries, more than a set rebuilds whole on first read).
#[test]
fn a_build_over_compressed_lower_layers_gives_the_same_bytes() {
    let game = ["oware", "--rules", "awari"];
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, 14, 2);
    let mixed = tempfile::tempdir().unwrap();
    build(mixed.path(), &game, 12, 2);
    compress(mixed.path(), &game, &["--block-size", "1K"]);
    let kind = kind_in(mixed.path());
    assert!(
        TableSet::new(mixed.path(), kind)
            .layer(12)
            .unwrap()
            .rebuilds_values()
    );
    build(mixed.path(), &game, 14, 2);
    for n in [13, 14] {
        let name = format!("oware-6-awari/layer-{n:03}.tbl");
        let (a, b) = (
            std::fs::read(plain.path().join(&name)).unwrap(),
            std::fs::read(mixed.path().join(&name)).unwrap(),
        );
        assert!(a == b, "layer {n} differs");
    }
    same_values(plain.path(), mixed.path(), 14, |n| n <= 12);
}

#[test]
fn a_damaged_block_of_a_lower_layer_stops_a_build_and_a_solve_with_one_line() {
    // Kalah(4) layers 0..=10 compressed in 1 KiB blocks, a byte of layer 10's last block
    // flipped (its index intact): a build of layer 11 and a solve over layers 0..=10 read it
    // whole first, and each ends with one line naming the file, exit code 2, no panic.
    let game = ["kalah", "--pits", "4", "--rules", "standard"];
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &game, 10, 2);
    compress(dir.path(), &game, &["--block-size", "1K"]);
    let layer = dir.path().join("kalah-4-standard-owner/layer-010.tbl");
    let mut bytes = std::fs::read(&layer).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x08;
    std::fs::write(&layer, &bytes).unwrap();
    let root = dir.path().to_str().unwrap();
    let mut args = vec!["build"];
    args.extend_from_slice(&game);
    args.extend_from_slice(&["--max-seeds", "11", "--dir", root, "--quiet"]);
    let err = error(&args);
    assert!(
        err.contains("layer-010.tbl") && err.contains("damaged compressed table"),
        "{err}"
    );
    assert!(
        !dir.path()
            .join("kalah-4-standard-owner/layer-011.tbl")
            .exists()
    );
    let mut args = vec!["solve"];
    args.extend_from_slice(&game);
    args.extend_from_slice(&["--seeds", "3", "--table-seeds", "10", "--dir", root]);
    // The solve says which tables it plans on first, then the error.
    let out = granary(&args);
    ends_naming_a_damaged_file(&out, "layer-010.tbl");
}

/// `build --compress`: every layer compressed as it is built, in a budget small enough that the
/// lower layers are read in tiles; uncompressed layers already there are compressed too; the
/// values are those of a plain build.
#[test]
fn a_build_that_compresses_as_it_goes_gives_the_plain_values() {
    let game = ["oware", "--rules", "awari"];
    let plain = tempfile::tempdir().unwrap();
    build(plain.path(), &game, 13, 2);
    let packed = tempfile::tempdir().unwrap();
    // Layers 0..=9 plain first, as an earlier build without --compress leaves them.
    build(packed.path(), &game, 9, 2);
    let dir = packed.path().to_str().unwrap();
    let out = stderr_of(&[
        "build",
        "oware",
        "--rules",
        "awari",
        "--max-seeds",
        "13",
        "--dir",
        dir,
        "--memory",
        "1M",
        "--compress",
    ]);
    assert!(
        out.contains("layer  9: kept; compressed "),
        "the plain layers are compressed: {out}"
    );
    assert!(
        out.contains("lower layers read in ") && out.contains(" tiles"),
        "{out}"
    );
    assert!(out.contains("layer 13: "), "{out}");
    // Each layer's line gives what the builder wrote and, where the kernel counts it (Linux),
    // the disk traffic of the whole process, page-cache write-back included.
    assert!(
        out.contains("bytes written to the file and checkpoints"),
        "{out}"
    );
    if cfg!(target_os = "linux") {
        assert!(out.contains("; the disk, a position: "), "{out}");
    }
    same_values(plain.path(), packed.path(), 13, |_| true);
    let again = stderr_of(&[
        "build",
        "oware",
        "--rules",
        "awari",
        "--max-seeds",
        "13",
        "--dir",
        dir,
        "--compress",
    ]);
    assert!(
        !again.contains("compressed "),
        "nothing left to compress: {again}"
    );
    // A damaged block of a lower layer read in tiles: one line naming the file, exit code 2,
    // no layer 14.
    let layer = packed.path().join("oware-6-awari/layer-013.tbl");
    let mut bytes = std::fs::read(&layer).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x08;
    std::fs::write(&layer, &bytes).unwrap();
    let err = error(&[
        "build",
        "oware",
        "--rules",
        "awari",
        "--max-seeds",
        "14",
        "--dir",
        dir,
        "--memory",
        "1M",
        "--quiet",
    ]);
    assert!(
        err.contains("layer-013.tbl") && err.contains("damaged compressed table"),
        "{err}"
    );
    assert!(!packed.path().join("oware-6-awari/layer-014.tbl").exists());
}

/// What a command that succeeds writes to standard error (a build's layer lines).
fn stderr_of(args: &[&str]) -> String {
    let out = granary(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {err}");
    err
}

/// A solve over awari tables with filled don't-cares reads them in place (no copy rebuilt in
/// memory) and answers as over the plain tables; over a layer whose blocks are damaged, it ends
/// with one line naming the file, never a panic.
#[test]
fn a_filled_awari_set_solves_as_the_plain_one_and_names_a_damaged_layer() {
    let (plain, packed) = awari_plain_and_filled(10);
    let solve = |dir: &Path| {
        granary(&[
            "solve",
            "oware",
            "--rules",
            "awari",
            "--position",
            "2,0,1,1,0,3/0,2,1,1,0,1 0-0 S",
            "--table-seeds",
            "10",
            "--all-moves",
            "--dir",
            dir.to_str().unwrap(),
            "--json",
        ])
    };
    let answer = |dir: &Path| {
        let out = solve(dir);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (a, b) = (answer(plain.path()), answer(packed.path()));
    for field in ["value", "moves", "pv"] {
        assert_eq!(a[field], b[field], "{field}: {a} against {b}");
    }
    // Every block of layer 7 overwritten with ones. A small layer is rebuilt whole on its first
    // read (a lookup into a large one would decode whatever codes the ones make), which finds
    // blocks whose codes do not end where they do; the rebuilds of layers 8 to 10 read it.
    let path = packed.path().join("oware-6-awari/layer-007.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let (header, _) = granary_tables::layer::read_header(&path).unwrap();
    let shape =
        granary_tables::coded::Shape::new(header.entries.get(), 7, header.block_entries.get());
    bytes[shape.data_at as usize..].fill(0xff);
    std::fs::write(&path, &bytes).unwrap();
    let out = solve(packed.path());
    ends_naming_a_damaged_file(&out, "layer-007.tbl");
}
