//! `granary review`: a game's moves against perfect play, a row a move and a summary a side
//! ([`granary::Review`]); the game from the command line or a record (`--record`), reviewed by
//! the library's one entry point ([`granary::Tablebase::review_record`], as the API and Python
//! review), and the review written back as a record (`--record-out`). A ply beyond the exact
//! reach has the engine's estimates (`--time` a ply, or `--nodes`), written as estimates and
//! never marked. `--json` prints the library's answer: the review, `setup` and `record`.
//!
//! - `shown`: what shows while the review runs (the bar, the table's rows, Ctrl-C);
//! - `table`: the text table's header, rows and summary.

mod shown;
mod table;

use std::io::{IsTerminal, Read};
use std::path::Path;
use std::time::Duration;

use granary::estimate::Budget;
use granary::game::{AnyGame, GameMove};
use granary::{Cancel, GameRecord};

use crate::args::ReviewArgs;
use crate::error::{CliError, CliResult};
use crate::whole_file::write_whole;
use shown::{Shown, bar};
use table::header;

/// `-`: standard input or output.
fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reviews the game; the text table's rows are printed as their plies are answered, under a
/// bar on a terminal, and Ctrl-C stops the review ([`CliError::Interrupted`], the plies done
/// printed, nothing written to `--record-out`, no JSON).
pub fn run(args: &ReviewArgs) -> CliResult {
    let to_stdout = args.record_out.as_deref().is_some_and(is_std);
    if to_stdout && args.json {
        return Err(CliError::Failed(
            "--record-out - and --json both print to stdout: choose one".into(),
        ));
    }
    let record = match (&args.record, args.game) {
        (Some(path), _) => read_record(path)?,
        (None, Some(game)) => {
            let game = game.library();
            let moves: Vec<GameMove> = if game == granary::GameName::Bao {
                args.moves
                    .iter()
                    .map(|m| GameMove::Bao(m.trim().to_string()))
                    .collect()
            } else {
                granary::game::parse_pits(&args.moves)?
                    .into_iter()
                    .map(GameMove::Pit)
                    .collect()
            };
            GameRecord::new(
                game,
                &args.options.setup(args.start.seeds),
                args.start.position.as_deref(),
                &moves,
            )?
        }
        (None, None) => {
            return Err(CliError::Failed(
                "give a game and --moves, or --record".into(),
            ));
        }
    };
    let estimate = budget(args.time, args.nodes)?;
    let plies = record.moves().len();
    let bar = (!args.json && std::io::stderr().is_terminal()).then(|| bar(plies));
    let table = (!args.json && !to_stdout).then(|| header(tables(record.game()).as_deref()));
    let shown = Shown::new(std::io::stdout(), table, bar);
    on_interrupt(shown.cancel.clone())?;
    let reviewed =
        args.dir
            .tablebase()
            .review_record(&record, args.search_seconds, estimate, &shown);
    let reviewed = shown.finish(reviewed)?;
    if let Some(path) = &args.record_out {
        if to_stdout {
            print!("{}", reviewed.record);
        } else {
            write_whole("--record-out", path, &reviewed.record)?;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&reviewed)?);
    }
    shown.summary(&reviewed.review)
}

/// The engine's budget a ply beyond the exact reach: `nodes` where given, else `time` seconds
/// (0: none, such a ply has no number).
fn budget(time: f64, nodes: Option<u64>) -> Result<Option<Budget>, CliError> {
    if let Some(nodes) = nodes {
        return Ok(Some(Budget::Nodes(nodes)));
    }
    if time == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(time)
        .map(|time| Some(Budget::Time(time)))
        .map_err(|_| CliError::Failed(format!("--time {time}: too long a time a ply")))
}

/// On Ctrl-C (SIGINT), `cancel` is set: the review stops within a subtree of its search. A
/// second Ctrl-C ends the process at once, with exit code 130.
fn on_interrupt(cancel: Cancel) -> CliResult {
    ctrlc::set_handler(move || {
        if cancel.is_cancelled() {
            std::process::exit(130);
        }
        cancel.cancel();
    })
    .map_err(|e| CliError::Failed(format!("cannot catch Ctrl-C: {e}")))
}

/// The tables' kind a review of `game` names ([`granary::Review::tables`]): none for Bao,
/// which has no tables.
fn tables(game: &AnyGame) -> Option<String> {
    match game {
        AnyGame::Mancala(mancala) => Some(mancala.kind().name()),
        AnyGame::Bao(..) => None,
    }
}

/// The record at `path` (`-`: standard input), read and checked.
fn read_record(path: &Path) -> Result<GameRecord, CliError> {
    let (name, text) = if is_std(path) {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| {
            CliError::Failed(format!("--record -: cannot read standard input: {e}"))
        })?;
        ("standard input".to_string(), text)
    } else {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::Failed(format!("--record {}: {e}", path.display())))?;
        (path.display().to_string(), text)
    };
    GameRecord::read(&text).map_err(|e| CliError::Failed(format!("{name}: {e}")))
}
