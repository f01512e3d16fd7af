//! `granary info`: what is built, sizes, and value counts.

use std::collections::BTreeMap;

use granary_tables::TableSet;
use granary_tables::verify::kind_of;

use crate::args::InfoArgs;
use crate::error::CliResult;
use crate::verify::table_files;

pub fn run(args: &InfoArgs) -> CliResult {
    let root = args.dir.resolve();
    let mut by_kind: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    for path in table_files(&root)? {
        let name = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        by_kind.entry(name).or_default().push(path);
    }
    for (name, files) in by_kind {
        println!("{name}");
        println!("  layer      positions        bytes        wins       draws      losses");
        for path in files {
            match kind_of(&path).map(|(kind, seeds)| (TableSet::new(&root, kind), seeds)) {
                Ok((set, seeds)) => match set.layer(seeds) {
                    Ok(layer) => {
                        let mut histogram = [0u64; 256];
                        for &b in layer.data() {
                            histogram[usize::from(b)] += 1;
                        }
                        let count = |keep: fn(i8) -> bool| -> u64 {
                            (0..256)
                                .filter(|&b| keep(b as u8 as i8))
                                .map(|b| histogram[b])
                                .sum()
                        };
                        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                        println!(
                            "  {seeds:>5} {:>14} {bytes:>12} {:>11} {:>11} {:>11}",
                            layer.index().size(),
                            count(|v| v > 0),
                            count(|v| v == 0),
                            count(|v| v < 0)
                        );
                        if args.histogram {
                            let cells: Vec<String> = (-128i32..128)
                                .filter(|&v| histogram[usize::from(v as i8 as u8)] > 0)
                                .map(|v| format!("{v:+}:{}", histogram[usize::from(v as i8 as u8)]))
                                .collect();
                            println!("        values {}", cells.join(" "));
                        }
                    }
                    Err(err) => println!("  BAD {err}"),
                },
                Err(err) => println!("  BAD {err}"),
            }
        }
    }
    Ok(())
}
