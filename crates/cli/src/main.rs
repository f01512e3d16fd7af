//! `granary`: perfect play for mancala games from the command line.
//!
//! A thin shell over the `granary` library: `main` parses arguments, runs the command, maps the
//! library's events to progress bars and lines, prints text or JSON, and prints an error once,
//! with exit code 2 (130 for a command the user stopped with Ctrl-C).

mod args;
mod bao;
mod build;
mod calibrate;
mod completions;
mod compress;
mod draw;
mod error;
mod info;
mod man;
mod perft;
mod play;
mod progress;
mod prompt;
mod query;
mod review;
mod serve;
mod show;
mod solve;
mod variants;
mod verify;
mod whole_file;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::args::{Cli, Command};

/// A usage error of clap's, folded into one line.
fn usage_error(err: &clap::Error) -> String {
    let text = err.render().to_string();
    text.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:")
        })
        .map(|l| l.trim_start_matches("error: "))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // A bare `granary`: the help as `--help` gives it, on stderr, as a usage error.
            let _ = err.print();
            return ExitCode::from(2);
        }
        Err(err) => {
            eprintln!("granary: error: {}", usage_error(&err));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Variants(args) => variants::run(&args),
        Command::Show(args) if args.variant.is_bao() => bao::show(&args),
        Command::Show(args) => show::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Build(args) => build::run(&args),
        Command::Query(args) => query::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Compress(args) => compress::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Solve(args) if args.variant.is_bao() => bao::solve(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Play(args) if args.variant.is_bao() => bao::play(&args),
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Man => man::run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", err.line());
            err.exit_code()
        }
    }
}
