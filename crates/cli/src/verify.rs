//! `granary verify`: every table file under the directory, checked; bad files named.

use granary_tables::TableSet;
use granary_tables::verify::{kind_of, verify_layer};

use crate::args::VerifyArgs;
use crate::error::{CliError, CliResult};

/// Every `*.tbl` file under `root`, sorted.
pub fn table_files(root: &std::path::Path) -> Result<Vec<std::path::PathBuf>, CliError> {
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(root).map_err(|e| CliError(format!("{}: {e}", root.display())))?;
    for dir in entries.flatten().filter(|e| e.path().is_dir()) {
        for file in std::fs::read_dir(dir.path())?.flatten() {
            if file.path().extension().is_some_and(|x| x == "tbl") {
                files.push(file.path());
            }
        }
    }
    files.sort();
    Ok(files)
}

pub fn run(args: &VerifyArgs) -> CliResult {
    let root = args.dir.resolve();
    let files = table_files(&root)?;
    let mut bad = 0;
    for path in &files {
        let checked = kind_of(path).and_then(|(kind, seeds)| {
            let set = TableSet::new(&root, kind);
            if set.layer_path(seeds) != *path {
                return Err(granary_tables::TableError::Mismatch {
                    path: path.clone(),
                    expected: format!("the file name {}", set.layer_path(seeds).display()),
                    found: format!("{} layer {seeds}", kind.name()),
                });
            }
            verify_layer(&set, seeds, args.sample)
        });
        match checked {
            Ok(check) => println!(
                "ok   {} ({} entries, {} re-checked)",
                path.display(),
                check.entries,
                check.sampled
            ),
            Err(err) => {
                bad += 1;
                println!("BAD  {err}");
            }
        }
    }
    if files.is_empty() {
        return Err(CliError(format!("{}: no table files", root.display())));
    }
    if bad > 0 {
        return Err(CliError(format!(
            "{bad} of {} table files are bad",
            files.len()
        )));
    }
    println!("all {} table files are good", files.len());
    Ok(())
}
