//! `granary`: perfect play for mancala games from the command line.
//!
//! `main` only parses arguments, runs the command and prints an error once, with exit code 2.

mod args;
mod draw;
mod error;
mod perft;
mod show;
mod variants;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants(args) => variants::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Perft(args) => perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("granary: error: {err}");
            ExitCode::from(2)
        }
    }
}
