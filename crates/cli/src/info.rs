//! `granary info`: what is built, sizes, and value counts.

use std::collections::BTreeMap;

use crate::args::InfoArgs;
use crate::error::CliResult;

pub fn run(args: &InfoArgs) -> CliResult {
    let tablebase = args.dir.tablebase_creating_default()?;
    // Bottom up: a filled layer's values, counted, stay for the layers above that read them.
    let mut layers = tablebase.bottom_up(None)?;
    let mut by_dir: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    for path in layers.files().to_vec() {
        let name = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        by_dir.entry(name).or_default().push(path);
    }
    if by_dir.is_empty() {
        println!(
            "no tables in {}: build some with `granary build`",
            tablebase.root().display()
        );
    }
    let mut uncounted = false;
    for (name, files) in by_dir {
        println!("{name}");
        println!(
            "  layer      positions        bytes format bits/pos    crc32        wins       draws      losses"
        );
        for path in files {
            match layers.layer_stats(&path, args.histogram) {
                Ok(s) => {
                    let count = |keep: fn(i8) -> bool| {
                        s.count(keep)
                            .map_or_else(|| "-".to_string(), |n| n.to_string())
                    };
                    uncounted |= s.histogram.is_none();
                    println!(
                        "  {:>5} {:>14} {:>12} {:>6} {:>8.3} {:08x} {:>11} {:>11} {:>11}",
                        s.seeds,
                        s.positions,
                        s.bytes,
                        if s.filled {
                            format!("{}+fill", s.version)
                        } else {
                            s.version.to_string()
                        },
                        s.bits(),
                        s.crc32,
                        count(|v| v > 0),
                        count(|v| v == 0),
                        count(|v| v < 0)
                    );
                    if let Some(histogram) = s.histogram.as_ref().filter(|_| args.histogram) {
                        let cells: Vec<String> = (-128i32..128)
                            .map(|v| (v, histogram[usize::from(v as i8 as u8)]))
                            .filter(|&(_, n)| n > 0)
                            .map(|(v, n)| format!("{v:+}:{n}"))
                            .collect();
                        println!("        values {}", cells.join(" "));
                    }
                }
                Err(err) => println!("  BAD {err}"),
            }
        }
    }
    if uncounted {
        println!(
            "-: a layer with filled don't-cares (3+fill) has its values counted with --histogram only (each rebuilt from the layers below)"
        );
    }
    Ok(())
}
