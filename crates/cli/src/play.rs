//! `granary play kalah|oware`: a person against granary in the terminal, on a board of any
//! size: perfect play wherever the library's one rule of what is exact answers the position
//! ([`granary::plan::reach`]), and elsewhere the engine's moves, labelled as estimates
//! ([`granary::Tablebase::estimate_with`]).
//!
//! Tables: where the planner fits tables for the whole game on this machine (and, for Kalah,
//! its search within the cost model's measured range), they are prepared as a solve prepares
//! them, built where missing. Where it does not (Oware(6,4) needs a terabyte; Kalah(6,6)'s
//! search lies beyond the measured range), nothing is built: the engine plays over the tables
//! present, and every position they or a search over them answer is played perfectly.
//! `--table-seeds N` asks for tables up to N seeds (built where missing) whatever the game:
//! for Oware, perfect play up to N seeds on the board, the engine above.

use std::io::BufRead;
use std::time::Duration;

use granary::estimate::{Budget, Estimate};
use granary::plan::{DEFAULT_SEARCH_SECONDS, PlanError, Reach};
use granary::solve::Prepared;
use granary::{
    ExactMove, Mancala, Oracle, Position, Record, Side, SolveError, Status, TableChoice, Tablebase,
    Variant,
};

use crate::args::PlayArgs;
use crate::draw;
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;
use crate::prompt::ask;

const HELP: &str = "type a pit number to sow it, `hint` for every move's value (or, beyond the exact reach, the engine's estimates), `undo` to take back your last move, `quit` to stop";

/// The longest time a move the engine is given, seconds.
const MAX_TIME: f64 = 3600.0;

pub fn run(args: &PlayArgs) -> CliResult {
    let human = args.human()?;
    let budget = budget(args.time)?;
    let game = args.variant.mancala()?;
    let variant = game.variant;
    let m = variant.pits;
    let tablebase = args.dir.tablebase();
    let prepared = tables(&tablebase, &game, args)?;
    let player = Player {
        tablebase: &tablebase,
        variant,
        oracle: prepared.as_ref().map(Oracle::new).transpose()?,
        budget,
    };
    // Moves are checked and played with the rules of play (Oware's majority and repetition end it).
    let engine = variant.engine();
    let mut record = Record::new(&engine, game.position);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{variant}: you play {human}. {HELP}.");
    // Whether the last position answered was exact: the start's, then each one granary answers.
    let mut exact = match player.reach(&game.position)? {
        Reach::Beyond(why) => {
            println!(
                "beyond the exact reach: granary plays the engine's moves, {budget} a move, \
                 estimates not proved ({why}); it plays perfectly from the first position within \
                 the exact reach"
            );
            false
        }
        _ => {
            println!("granary plays perfectly from its tables");
            true
        }
    };
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
            let answer = player.answer(&pos)?;
            exact = switched(exact, &answer);
            let pit = match &answer {
                Answer::Exact(values) => {
                    let best = values
                        .iter()
                        .max_by_key(|r| (r.value, std::cmp::Reverse(r.lane)))
                        .ok_or_else(no_move)?;
                    println!(
                        "granary plays {} (value {:+}, perfect)",
                        best.lane + 1,
                        best.value
                    );
                    best.lane + 1
                }
                Answer::Estimated(e) => {
                    let pit = e.best.ok_or_else(no_move)?;
                    println!("granary plays {pit}: {}", e.estimate);
                    pit
                }
            };
            record
                .play(pit)
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
                let answer = player.answer(&pos)?;
                exact = switched(exact, &answer);
                match answer {
                    Answer::Exact(values) => {
                        let text: Vec<String> = values
                            .iter()
                            .map(|r| format!("{}:{:+}", r.lane + 1, r.value))
                            .collect();
                        println!("move values for you: {}", text.join(" "));
                    }
                    Answer::Estimated(e) => {
                        let text: Vec<String> = e.moves.iter().map(ToString::to_string).collect();
                        println!(
                            "the engine's estimates for you (~ its estimate, <= at most): {}; {}",
                            text.join(" "),
                            e.estimate
                        );
                    }
                }
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

/// The engine's budget a move from `--time` (seconds, more than 0 and at most an hour).
fn budget(time: Option<f64>) -> Result<Budget, CliError> {
    let Some(seconds) = time else {
        return Ok(Budget::default());
    };
    if !(seconds > 0.0 && seconds <= MAX_TIME) {
        return Err(CliError::Failed(format!(
            "--time {seconds}: give seconds a move, more than 0 and at most {MAX_TIME}"
        )));
    }
    Ok(Budget::Time(Duration::from_secs_f64(seconds)))
}

fn no_move() -> CliError {
    CliError::Failed("internal: no legal move in a game in play".into())
}

/// The tables the game is played with, prepared (built where missing) where the planner fits
/// them for the whole game (Kalah: with its search within the cost model's measured range) or
/// the user asked for them (`--table-seeds`, `--no-tables`); else `None`, saying on stderr why
/// nothing is built: the engine then plays over the tables present.
///
/// # Errors
/// Tables the user asked for that do not fit, a failed build, a cost model that cannot be read.
fn tables(
    tablebase: &Tablebase,
    game: &Mancala,
    args: &PlayArgs,
) -> Result<Option<Prepared>, CliError> {
    let variant = game.variant;
    let settings = args.tables.settings(None, true);
    let asked = settings.tables != TableChoice::Auto;
    let seeds = game.position.board.seeds(variant.pits);
    // Oware reads its tables up to the seeds the plan is for: those the user asks for, the
    // engine above them.
    let seeds = match settings.tables {
        TableChoice::Seeds(n) if !granary::plan::searched_above_tables(variant.game) => {
            n.min(seeds)
        }
        _ => seeds,
    };
    let why = match granary::plan(tablebase, variant, seeds, &settings) {
        Ok(plan) if asked || plan.search_measured != Some(false) => {
            let prepared =
                granary::prepare(tablebase, variant, seeds, &settings, &Terminal::new(false))?;
            return Ok(Some(prepared));
        }
        Ok(_) => format!(
            "a search of the whole game lies beyond the measured range of the cost model ({})",
            granary::plan::measured_range()
        ),
        Err(SolveError::Plan(e)) if !asked && !matches!(e, PlanError::OwareWithoutTables) => {
            e.to_string()
        }
        Err(e @ SolveError::TooManySeeds { .. }) if !asked => e.to_string(),
        Err(e) => return Err(e.into()),
    };
    let kind = game.kind();
    let present = match tablebase.complete_up_to(kind) {
        Some(p) => format!("{} layers 0..={p}", kind.name()),
        None => format!("no tables of {}", kind.name()),
    };
    eprintln!("tables: none built ({why}); the engine plays over the tables present ({present})");
    Ok(None)
}

/// How granary answers a position: every move's exact value, or the engine's estimate.
enum Answer {
    Exact(Vec<ExactMove>),
    Estimated(Box<Estimate>),
}

/// Says so when `answer` is exact where the one before was not; whether it is exact.
fn switched(exact: bool, answer: &Answer) -> bool {
    let now = matches!(answer, Answer::Exact(_));
    if now && !exact {
        println!("within the exact reach now: granary plays perfectly from here");
    }
    now
}

/// What answers the positions of a game: the one rule of what is exact, the prepared tables'
/// oracle where there is one, the engine elsewhere.
struct Player<'t> {
    tablebase: &'t Tablebase,
    variant: Variant,
    oracle: Option<Oracle<'t>>,
    budget: Budget,
}

impl Player<'_> {
    fn game(&self, pos: &Position) -> Mancala {
        Mancala {
            variant: self.variant,
            position: *pos,
        }
    }

    /// How `pos` is answered ([`granary::plan::reach`], searches estimated at up to
    /// [`DEFAULT_SEARCH_SECONDS`]).
    fn reach(&self, pos: &Position) -> Result<Reach, CliError> {
        Ok(self
            .tablebase
            .reach(&self.game(pos), DEFAULT_SEARCH_SECONDS)?)
    }

    /// `pos` answered: exactly where the rule answers it (the oracle's, else a query's), else
    /// the engine's estimate within the budget.
    fn answer(&self, pos: &Position) -> Result<Answer, CliError> {
        let game = self.game(pos);
        Ok(match self.reach(pos)? {
            Reach::Beyond(_) => Answer::Estimated(Box::new(self.tablebase.estimate_with(
                &game,
                self.budget,
                None,
            )?)),
            reach => Answer::Exact(match &self.oracle {
                Some(oracle) => oracle.move_values(pos)?,
                None => self
                    .tablebase
                    .query_reached(&game, reach)?
                    .moves
                    .iter()
                    .map(|m| ExactMove {
                        lane: m.pit - 1,
                        value: m.value,
                    })
                    .collect(),
            }),
        })
    }
}
