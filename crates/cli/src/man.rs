//! `granary man`: the man page (roff), written from the argument definitions.

use clap::CommandFactory;

use crate::args::Cli;
use crate::error::CliResult;

pub fn run() -> CliResult {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    std::io::Write::write_all(&mut std::io::stdout().lock(), &page)?;
    Ok(())
}
