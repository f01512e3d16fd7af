//! `granary verify`: every table file under the directory, checked; bad files named.

use crate::args::VerifyArgs;
use crate::error::{CliError, CliResult};

pub fn run(args: &VerifyArgs) -> CliResult {
    let tablebase = args.dir.existing_tablebase()?;
    let checks = tablebase.verify(args.sample, args.memory, |check| match &check.result {
        Ok(c) => println!(
            "ok   {} ({} entries, {} re-checked)",
            check.path.display(),
            c.entries,
            c.sampled
        ),
        // A layer read through a bad one below it is named first.
        Err(err) if err.path().is_some_and(|p| p != check.path) => {
            println!(
                "BAD  {}: a layer it reads is bad: {err}",
                check.path.display()
            );
        }
        Err(err) => println!("BAD  {err}"),
    })?;
    if checks.is_empty() {
        return Err(CliError::Failed(format!(
            "{}: no table files",
            tablebase.root().display()
        )));
    }
    let bad = checks.iter().filter(|c| c.result.is_err()).count();
    if bad > 0 {
        return Err(CliError::Failed(format!(
            "{bad} of {} table files are bad",
            checks.len()
        )));
    }
    println!("all {} table files are good", checks.len());
    Ok(())
}
