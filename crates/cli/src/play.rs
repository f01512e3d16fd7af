//! `granary play kalah|oware`: a person against perfect play in the terminal.

use std::io::BufRead;

use granary::{Oracle, Record, Side, Status};

use crate::args::PlayArgs;
use crate::draw;
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;
use crate::prompt::ask;

const HELP: &str = "type a pit number to sow it, `hint` for every move's value, `undo` to take back your last move, `quit` to stop";

pub fn run(args: &PlayArgs) -> CliResult {
    let human = args.human()?;
    if args.time.is_some() {
        return Err(CliError::Failed(
            "--time is a bao option; kalah and oware are played perfectly".into(),
        ));
    }
    let game = args.variant.mancala()?;
    let variant = game.variant;
    let m = variant.pits;
    let tablebase = args.dir.tablebase();
    let settings = args.tables.settings(None, true);
    let seeds = game.position.board.seeds(m);
    let prepared = granary::prepare(&tablebase, variant, seeds, &settings, &Terminal::new(false))?;
    let oracle = Oracle::new(&prepared)?;
    // Moves are checked and played with the rules of play (Oware's majority and repetition end it).
    let engine = variant.engine();
    let mut record = Record::new(&engine, game.position);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{variant}: you play {human}. {HELP}.");
    loop {
        let pos = *record.current();
        println!();
        print!("{}", draw::board(&pos, m));
        if let Status::Over {
            end,
            stores: [s, n],
        } = record.status()
        {
            let verdict = match (s.cmp(&n), human) {
                (std::cmp::Ordering::Equal, _) => "a draw",
                (std::cmp::Ordering::Greater, Side::South)
                | (std::cmp::Ordering::Less, Side::North) => "you win",
                _ => "granary wins",
            };
            println!(
                "game over ({}): South {s} - North {n}, {verdict}",
                end.name()
            );
            return Ok(());
        }
        if pos.to_move != human {
            let values = oracle.move_values(&pos)?;
            let best = values
                .iter()
                .max_by_key(|r| (r.value, std::cmp::Reverse(r.lane)))
                .ok_or_else(|| {
                    CliError::Failed("internal: no legal move in a game in play".into())
                })?;
            println!(
                "granary plays {} (worth {:+} to it)",
                best.lane + 1,
                best.value
            );
            record
                .play(best.lane + 1)
                .map_err(|e| CliError::Failed(format!("internal: {e}")))?;
            continue;
        }
        let prompt = format!(
            "{} to move ({})",
            pos.to_move,
            granary::format_position(&pos, m)
        );
        let Some(line) = ask(&mut lines, &prompt)? else {
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "hint" | "h" => {
                let values = oracle.move_values(&pos)?;
                let text: Vec<String> = values
                    .iter()
                    .map(|r| format!("{}:{:+}", r.lane + 1, r.value))
                    .collect();
                println!("move values for you: {}", text.join(" "));
            }
            "undo" | "u" => {
                // Back to the previous position where it was your move.
                let mut undone = false;
                while record.undo() {
                    undone = true;
                    if record.current().to_move == human {
                        break;
                    }
                }
                if !undone {
                    println!("nothing to undo");
                }
            }
            text => match text.parse::<usize>() {
                Ok(pit) => {
                    if let Err(e) = record.play(pit) {
                        println!("{e}; {HELP}");
                    }
                }
                Err(_) => println!("'{text}' is not a pit number; {HELP}"),
            },
        }
    }
}
