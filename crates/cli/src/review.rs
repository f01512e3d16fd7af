//! `granary review`: a game's moves against perfect play, a row a move and a summary a side
//! ([`granary::Review`]); the game from the command line or a record (`--record`), and the
//! review written back as a record (`--record-out`).

use std::io::Read;
use std::path::Path;

use granary::GameRecord;
use granary::game::GameMove;
use granary::review::{Review, Verdict};

use crate::args::ReviewArgs;
use crate::error::{CliError, CliResult};

/// `-`: standard input or output.
fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

pub fn run(args: &ReviewArgs) -> CliResult {
    let to_stdout = args.record_out.as_deref().is_some_and(is_std);
    if to_stdout && args.json {
        return Err(CliError(
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
        (None, None) => return Err(CliError("give a game and --moves, or --record".into())),
    };
    let review = args.dir.tablebase().review_game(
        record.game(),
        &record.game_moves(),
        args.search_seconds,
    )?;
    if let Some(path) = &args.record_out {
        let text = record.with_review(&review).to_string();
        if to_stdout {
            print!("{text}");
        } else {
            write_whole(path, &text)?;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
    } else if !to_stdout {
        print!("{}", table(&review));
    }
    Ok(())
}

/// The record at `path` (`-`: standard input), read and checked.
fn read_record(path: &Path) -> Result<GameRecord, CliError> {
    let (name, text) = if is_std(path) {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError(format!("--record -: cannot read standard input: {e}")))?;
        ("standard input".to_string(), text)
    } else {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError(format!("--record {}: {e}", path.display())))?;
        (path.display().to_string(), text)
    };
    GameRecord::read(&text).map_err(|e| CliError(format!("{name}: {e}")))
}

/// Writes `text` to `path` whole or not at all: into a file beside it, then renamed over it.
fn write_whole(path: &Path, text: &str) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError(format!("--record-out {}: {e}", path.display()));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            fail(e)
        })
}

/// The review as a person reads it: a row a move (`?` where it gave seeds away, `??` where it
/// changed the result), the reasons of the rows without a value, and each side's summary.
fn table(review: &Review) -> String {
    let mut out = match &review.tables {
        Some(tables) => format!(
            "{tables}: values are the mover's net seeds of those on the board, under perfect play\n"
        ),
        None => "no tables for this game: no exact values\n".to_string(),
    };
    out += "ply  side   move  value  played  best         loss\n";
    let mut reasons: Vec<&str> = Vec::new();
    for ply in &review.plies {
        let head = format!(
            "{:>3}  {:<5}  {:>4}",
            ply.ply,
            ply.side.name(),
            ply.mv.to_string()
        );
        match &ply.verdict {
            Verdict::Exact(e) => {
                let best: Vec<String> = e.best.iter().map(ToString::to_string).collect();
                let mark = match (e.changed, e.loss > 0) {
                    (true, _) => format!("  ?? {} to {}", e.result, e.result_after),
                    (false, true) => "  ?".to_string(),
                    (false, false) => String::new(),
                };
                out += &format!(
                    "{head}  {:>+5}  {:>+6}  {:<11}  {:>4}{mark}\n",
                    e.value,
                    e.played,
                    best.join(","),
                    e.loss
                );
            }
            Verdict::Beyond { reason } => {
                if !reasons.contains(&reason.as_str()) {
                    reasons.push(reason);
                }
                out += &format!("{head}  beyond: no exact value\n");
            }
        }
    }
    for reason in reasons {
        out += &format!("beyond: {reason}\n");
    }
    for (name, side) in ["south", "north"].iter().zip(&review.sides) {
        out += &format!("{name}: {side}\n");
    }
    out
}
