//! `granary completions SHELL`: the completion script of a shell, written from the argument
//! definitions.

use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs};
use crate::error::CliResult;

pub fn run(args: &CompletionsArgs) -> CliResult {
    // Written to a buffer first: the generator panics on a failed write, a closed pipe included.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "granary", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(())
}
