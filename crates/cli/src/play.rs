//! `granary play`: a person against perfect play in the terminal.

use std::io::{BufRead, Write};

use granary_rules::notation::format_position;
use granary_rules::{Engine, Game, Position, Record, Side, Status};
use granary_search::Solver;
use granary_search::solver::RootMove;
use granary_tables::{TableKind, TableSet};

use crate::args::GameName;
use crate::args::PlayArgs;
use crate::draw;
use crate::error::{CliError, CliResult};
use crate::solve::{
    OWARE_TABLE_BUDGET, default_kalah_tables, ensure_tables, from_tables, table_positions,
};

/// Where perfect play comes from: search over tables (Kalah) or tables alone (Oware).
enum Oracle<'t> {
    Search(Solver<'t, granary_rules::Kalah>),
    Tables(&'t TableSet, Engine),
}

impl Oracle<'_> {
    /// Every legal move's exact value for the player to move.
    fn values(&self, pos: &Position) -> Result<Vec<RootMove>, CliError> {
        match self {
            Oracle::Search(solver) => Ok(solver.solve(pos, true).moves),
            Oracle::Tables(set, engine) => Ok(from_tables(set, engine, pos)?.moves),
        }
    }
}

/// Prints `prompt: ` and reads the player's line; `None` at the end of the input.
pub fn ask(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    prompt: &str,
) -> Result<Option<String>, CliError> {
    print!("{prompt}: ");
    std::io::stdout().flush()?;
    match lines.next() {
        Some(line) => Ok(Some(line?)),
        None => {
            println!();
            Ok(None)
        }
    }
}

const HELP: &str = "type a pit number to sow it, `hint` for every move's value, `undo` to take back your last move, `quit` to stop";

pub fn run(args: &PlayArgs) -> CliResult {
    if args.variant.game.game == GameName::Bao {
        return crate::bao::play(args);
    }
    let human = args.human()?;
    if args.time.is_some() {
        return Err(CliError(
            "--time is a bao option; kalah and oware are played perfectly".into(),
        ));
    }
    let (variant, start) = args.variant.resolve()?;
    let m = variant.pits;
    let kind = TableKind {
        game: variant.game,
        pits: m,
    };
    let seeds = start.board.seeds(m);
    let root = args.dir.resolve();
    let set;
    let oracle = match variant.game {
        Game::Kalah { capture, sweep } => {
            let horizon = args
                .table_seeds
                .unwrap_or_else(|| default_kalah_tables(kind, seeds))
                .min(seeds);
            set = ensure_tables(&root, None, kind, horizon, false)?;
            Oracle::Search(Solver::new(
                granary_rules::Kalah::new(m, capture, sweep),
                Some((&set, horizon)),
                args.hash,
            )?)
        }
        Game::Oware { .. } => {
            if table_positions(kind, seeds) > OWARE_TABLE_BUDGET
                && TableSet::new(&root, kind)
                    .complete_up_to()
                    .is_none_or(|n| n < seeds)
            {
                return Err(CliError(format!(
                    "perfect Oware play needs tables up to {seeds} seeds: build them with `granary build oware --pits {m} --max-seeds {seeds}`"
                )));
            }
            set = ensure_tables(&root, None, kind, seeds, false)?;
            Oracle::Tables(&set, kind.engine())
        }
    };
    // Moves are checked and played with the rules of play (Oware's majority and repetition end it).
    let engine = variant.engine();
    let mut record = Record::new(&engine, start);
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
                (std::cmp::Ordering::Equal, _) => "a draw".to_string(),
                (std::cmp::Ordering::Greater, Side::South)
                | (std::cmp::Ordering::Less, Side::North) => "you win".to_string(),
                _ => "granary wins".to_string(),
            };
            println!(
                "game over ({}): South {s} - North {n}, {verdict}",
                end.name()
            );
            return Ok(());
        }
        if pos.to_move != human {
            let values = oracle.values(&pos)?;
            let best = values
                .iter()
                .max_by_key(|r| (r.value, std::cmp::Reverse(r.lane)))
                .expect("a legal move");
            println!(
                "granary plays {} (worth {:+} to it)",
                best.lane + 1,
                best.value
            );
            record
                .play(best.lane + 1)
                .map_err(|e| CliError(format!("internal: {e}")))?;
            continue;
        }
        let prompt = format!("{} to move ({})", pos.to_move, format_position(&pos, m));
        let Some(line) = ask(&mut lines, &prompt)? else {
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "hint" | "h" => {
                let values = oracle.values(&pos)?;
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
