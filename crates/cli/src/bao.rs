//! `granary show|solve|play bao`: Bao's commands, with its own moves (`A6R`).

use std::io::BufRead;
use std::time::Duration;

use granary::Side;
use granary::bao::{BaoSolution, PNS_NODES, Player, draw, format_position, game_over, stage};

use crate::args::{PlayArgs, ShowArgs, SolveArgs};
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;
use crate::prompt::ask;

pub fn show(args: &ShowArgs) -> CliResult {
    let (rules, pos) = args.variant.bao()?;
    let shown = granary::bao::show(&rules, pos, &args.moves)?;
    if args.json {
        println!("{}", serde_json::to_string(&shown)?);
        return Ok(());
    }
    let pos = &shown.pos;
    let north = pos.to_move == Side::North;
    println!("{}", shown.rules);
    println!("position {}", shown.position);
    println!();
    print!("{}", draw(pos));
    println!();
    match shown.end {
        Some(why) => println!(
            "game over: {} to move has {why}; {} wins",
            pos.to_move,
            pos.to_move.other()
        ),
        None => {
            println!(
                "{} to move ({}); legal moves: {}",
                pos.to_move,
                stage(pos),
                granary::bao::list(&shown.moves, north)
            );
            if !shown.endless_moves.is_empty() {
                println!("endless, so illegal: {}", shown.endless_moves.join(" "));
            }
        }
    }
    Ok(())
}

fn print_solution(s: &BaoSolution) {
    println!("{}", s.rules);
    println!("position {}", s.position);
    let side = crate::draw::side_named(s.to_move);
    let best = s.best.clone().unwrap_or_default();
    match (s.value, s.plies) {
        ("win", Some(k)) => {
            println!("{side} to move wins within {k} moves (plies); winning move {best}");
        }
        ("loss", Some(k)) => {
            println!("{side} to move loses within {k} moves (plies) whatever it plays");
        }
        ("win", None) => println!("{side} to move wins; winning move {best}"),
        ("loss", None) => println!("{side} to move loses whatever it plays"),
        _ => match (s.depth, s.budget) {
            (Some(d), _) => println!("no forced win or loss within {d} moves (plies)"),
            (_, b) => println!("not decided within {} tree nodes", b.unwrap_or(0)),
        },
    }
    if !s.pv.is_empty() {
        let what = if s.search == "pns" && s.value == "unknown" {
            "most-proving line"
        } else {
            "pv"
        };
        println!("{what} {}", s.pv.join(" "));
    }
    let (what, unit) = if s.search == "pns" {
        ("proof-number search", "tree nodes")
    } else {
        ("search", "nodes")
    };
    println!(
        "{what} {:.2} s, {} {unit} ({:.3} M nodes/s)",
        s.seconds,
        s.nodes,
        s.nodes as f64 / s.seconds.max(1e-9) / 1e6
    );
}

pub fn solve(args: &SolveArgs) -> CliResult {
    if args.family.is_some() || args.tables.table_seeds.is_some() || args.all_moves {
        return Err(CliError::Failed(
            "--family, --table-seeds and --all-moves are kalah/oware options; bao takes --depth"
                .into(),
        ));
    }
    let (rules, pos) = args.variant.bao()?;
    let solution = match (args.depth, args.pns) {
        (Some(_), Some(_)) => {
            return Err(CliError::Failed(
                "--pns and --depth: choose one search".into(),
            ));
        }
        (Some(depth), None) => granary::bao::prove(&rules, &pos, depth, &Terminal::new(args.json)),
        (None, budget) => granary::bao::prove_pns(&rules, &pos, budget.unwrap_or(PNS_NODES)),
    };
    if args.json {
        println!("{}", serde_json::to_string(&solution)?);
    } else {
        print_solution(&solution);
    }
    Ok(())
}

const HELP: &str = "type a move like A6R (pit, then L or R where there is a choice, then s to stop in the nyumba), `moves` to list them, `hint` for the engine's view of every move, `undo`, `quit`";

pub fn play(args: &PlayArgs) -> CliResult {
    let human = args.human()?;
    let seconds = args.time.unwrap_or(1.0);
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(CliError::Failed(format!(
            "--time {seconds}: give seconds a move, more than 0 and at most 3600"
        )));
    }
    let time = Duration::from_secs_f64(seconds);
    let (rules, start) = args.variant.bao()?;
    let mut player = Player::new(&rules);
    let mut history = vec![start];
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "{}: you play {human}, granary thinks {seconds} s a move. {HELP}.",
        rules.describe()
    );
    loop {
        let pos = *history.last().expect("the start");
        let moves = granary::bao::generate(&rules, &pos);
        let north = pos.to_move == Side::North;
        println!();
        print!("{}", draw(&pos));
        if let Some(why) = game_over(&pos, &moves) {
            let verdict = if pos.to_move == human {
                "granary wins"
            } else {
                "you win"
            };
            println!("game over: {} to move has {why}; {verdict}", pos.to_move);
            return Ok(());
        }
        if pos.to_move != human {
            let (choice, child) = player.choose(&pos, time).ok_or_else(|| {
                CliError::Failed("internal: no legal move in a game in play".into())
            })?;
            println!(
                "granary plays {} (depth {}, score {:+.2} seeds)",
                choice.text, choice.depth, choice.score
            );
            history.push(child);
            continue;
        }
        let prompt = format!("{} to move ({})", pos.to_move, stage(&pos));
        let Some(line) = ask(&mut lines, &prompt)? else {
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "moves" | "m" => println!("legal moves: {}", granary::bao::list(&moves, north)),
            "position" | "p" => println!("{}", format_position(&pos)),
            "hint" | "h" => {
                let view: Vec<String> = player
                    .hint(&pos)
                    .iter()
                    .map(|(m, s)| format!("{m}:{s:+.2}"))
                    .collect();
                println!(
                    "engine's view of your moves (3 plies, seeds): {}",
                    view.join(" ")
                );
            }
            "undo" | "u" => {
                // Back to the previous position where it was your move.
                if history.len() == 1 {
                    println!("nothing to undo");
                }
                while history.len() > 1 {
                    history.pop();
                    if history.last().is_some_and(|p| p.to_move == human) {
                        break;
                    }
                }
            }
            text => match granary::bao::find_move(&rules, &pos, text) {
                Ok((_, child)) => history.push(child),
                Err(e) => println!("{e}"),
            },
        }
    }
}
