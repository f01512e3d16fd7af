//! `granary show|perft|solve|play bao`: Bao's own commands, with its own moves (`A6R`).

use std::io::BufRead;
use std::time::{Duration, Instant};

use granary_bao::engine::Engine;
use granary_bao::notation::{draw, format_position, parse_position};
use granary_bao::perft::{divide, perft};
use granary_bao::prove::{Proof, Prover};
use granary_bao::{BaoRules, Move, MoveText, Moves, Position, generate};
use granary_rules::Side;
use serde_json::json;

use crate::args::{GameArgs, PerftArgs, PlayArgs, ShowArgs, SolveArgs, VariantArgs};
use crate::error::{CliError, CliResult};

/// The rule set from `--rules`, `--nyumba`, `--takasia`, `--tax`; Kalah/Oware flags refused.
pub fn rules(game: &GameArgs) -> Result<BaoRules, CliError> {
    if game.pits.is_some() || game.sweep.is_some() {
        return Err(CliError(
            "--pits and --sweep are kalah/oware options; bao has a 4x8 board".into(),
        ));
    }
    let mut rules = BaoRules::new(match &game.rules {
        Some(s) => s.parse().map_err(|e| CliError(format!("--rules {e}")))?,
        None => granary_bao::Start::Kiswahili,
    });
    if let Some(s) = &game.nyumba {
        rules.nyumba = s.parse().map_err(|e| CliError(format!("--nyumba {e}")))?;
    }
    if let Some(s) = &game.takasia {
        rules.takasia = s.parse().map_err(|e| CliError(format!("--takasia {e}")))?;
    }
    if let Some(s) = &game.tax {
        rules.tax = s.parse().map_err(|e| CliError(format!("--tax {e}")))?;
    }
    if !rules.has_nyumba() && (game.nyumba.is_some() || game.tax.is_some()) {
        return Err(CliError(
            "--nyumba and --tax are options of bao kiswahili/malawi; bao kujifunza has no nyumba"
                .into(),
        ));
    }
    Ok(rules)
}

/// The rules and the position to start from (`--position`, else the start).
fn resolve(variant: &VariantArgs) -> Result<(BaoRules, Position), CliError> {
    if variant.seeds != 4 {
        return Err(CliError(
            "--seeds is a kalah/oware option; bao's start is set by --rules".into(),
        ));
    }
    let rules = rules(&variant.game)?;
    let pos = match &variant.position {
        Some(text) => parse_position(text, &rules)?,
        None => Position::start(&rules),
    };
    Ok((rules, pos))
}

/// The legal move written `text` in `pos`, or an error naming it and listing the legal ones.
fn find_move(rules: &BaoRules, pos: &Position, text: &str) -> Result<(Move, Position), String> {
    let parsed: MoveText = text
        .parse()
        .map_err(|e: granary_bao::moves::MoveSyntaxError| e.to_string())?;
    let north = pos.to_move == Side::North;
    let moves = generate(rules, pos);
    if parsed.north != north {
        return Err(format!(
            "{text} is a pit of {}; {} is to move (pits {})",
            if parsed.north { "North" } else { "South" },
            pos.to_move,
            if north { "a1..b8" } else { "A1..B8" }
        ));
    }
    if let Some(found) = moves.legal.iter().find(|(m, _)| *m == parsed.mv) {
        return Ok(*found);
    }
    if moves.endless.contains(&parsed.mv) {
        return Err(format!(
            "{text} never ends (an endless move), so it is not legal"
        ));
    }
    Err(format!(
        "{text} is not legal here; legal: {}",
        list(&moves, north)
    ))
}

fn list(moves: &Moves, north: bool) -> String {
    let texts: Vec<String> = moves.legal.iter().map(|(m, _)| m.text(north)).collect();
    if texts.is_empty() {
        "none".into()
    } else {
        texts.join(" ")
    }
}

/// Why the game is over for the player to move, if it is.
fn game_over(pos: &Position, moves: &Moves) -> Option<&'static str> {
    if pos.front_seeds(pos.to_move) == 0 {
        Some("front row empty")
    } else if moves.legal.is_empty() && !moves.endless.is_empty() {
        Some("every move is endless")
    } else if moves.legal.is_empty() {
        Some("no legal move")
    } else {
        None
    }
}

fn stage(pos: &Position) -> String {
    let hand = pos.hands[usize::from(pos.to_move == Side::North)];
    if hand > 0 {
        format!("namua, {hand} in hand")
    } else {
        "mtaji".into()
    }
}

pub fn show(args: &ShowArgs) -> CliResult {
    let (rules, mut pos) = resolve(&args.variant)?;
    let mut played = Vec::new();
    for (i, text) in args.moves.iter().enumerate() {
        let (mv, child) = find_move(&rules, &pos, text.trim())
            .map_err(|e| CliError(format!("--moves: move {}: {e}", i + 1)))?;
        played.push(mv.text(pos.to_move == Side::North));
        pos = child;
    }
    let moves = generate(&rules, &pos);
    let north = pos.to_move == Side::North;
    let over = game_over(&pos, &moves);
    let half = |s: usize| {
        let ring = pos.pits[s];
        let front: Vec<u8> = ring[..8].to_vec();
        let back: Vec<u8> = (0..8).map(|i| ring[15 - i]).collect();
        json!({"front": front, "back": back, "hand": pos.hands[s], "nyumba_owned": pos.nyumba[s]})
    };
    if args.json {
        let out = json!({
            "game": "bao",
            "rules": rules.describe(),
            "position": format_position(&pos),
            "to_move": pos.to_move.name(),
            "stage": if pos.in_namua(pos.to_move) { "namua" } else { "mtaji" },
            "south": half(0),
            "north": half(1),
            "takasia": pos.takasia.map(|p| granary_bao::board::pit_name(p, north)),
            "legal_moves": moves.legal.iter().map(|(m, _)| m.text(north)).collect::<Vec<_>>(),
            "endless_moves": moves.endless.iter().map(|m| m.text(north)).collect::<Vec<_>>(),
            "over": over.is_some(),
            "end": over,
            "winner": over.map(|_| pos.to_move.other().name()),
            "moves_played": played,
        });
        println!("{out}");
        return Ok(());
    }
    println!("{}", rules.describe());
    println!("position {}", format_position(&pos));
    println!();
    print!("{}", draw(&pos));
    println!();
    match over {
        Some(why) => println!(
            "game over: {} to move has {why}; {} wins",
            pos.to_move,
            pos.to_move.other()
        ),
        None => {
            println!(
                "{} to move ({}); legal moves: {}",
                pos.to_move,
                stage(&pos),
                list(&moves, north)
            );
            if !moves.endless.is_empty() {
                let e: Vec<String> = moves.endless.iter().map(|m| m.text(north)).collect();
                println!("endless, so illegal: {}", e.join(" "));
            }
        }
    }
    Ok(())
}

pub fn perft_cmd(args: &PerftArgs) -> CliResult {
    let (rules, pos) = resolve(&args.variant)?;
    let north = pos.to_move == Side::North;
    let started = Instant::now();
    let split = args.divide.then(|| divide(&rules, &pos, args.depth));
    let nodes: u64 = match &split {
        Some(split) => split.iter().map(|(_, n)| n).sum(),
        None => perft(&rules, &pos, args.depth),
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut out = json!({"depth": args.depth, "nodes": nodes});
        if let Some(split) = split {
            out["divide"] = split
                .iter()
                .map(|(m, n)| json!({"move": m.text(north), "nodes": n}))
                .collect();
        }
        println!("{out}");
        return Ok(());
    }
    println!("{}, from {}", rules.describe(), format_position(&pos));
    if let Some(split) = split {
        for (m, n) in split {
            println!("{}: {n}", m.text(north));
        }
    } else {
        for depth in 1..args.depth {
            println!("depth {depth}: {}", perft(&rules, &pos, depth));
        }
    }
    println!("depth {}: {nodes}", args.depth);
    eprintln!(
        "{seconds:.3} s, {:.3} M leaf nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

pub fn solve(args: &SolveArgs) -> CliResult {
    if args.family.is_some() || args.table_seeds.is_some() || args.all_moves {
        return Err(CliError(
            "--family, --table-seeds and --all-moves are kalah/oware options; bao takes --depth"
                .into(),
        ));
    }
    let (rules, pos) = resolve(&args.variant)?;
    let Some(depth) = args.depth else {
        return solve_pns(args, &rules, &pos, args.pns.unwrap_or(PNS_NODES));
    };
    if args.pns.is_some() {
        return Err(CliError("--pns and --depth: choose one search".into()));
    }
    let north = pos.to_move == Side::North;
    let started = Instant::now();
    let mut prover = Prover::new(&rules);
    let quiet = args.json;
    let proof = prover.prove(&pos, depth, |d, p| {
        if !quiet {
            eprintln!(
                "depth {d}: {} ({:.1} s)",
                describe(p),
                started.elapsed().as_secs_f64()
            );
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let pv = prover.principal_variation(&pos);
    let pv_text: Vec<String> = pv
        .iter()
        .map(|(m, p)| m.text(p.to_move == Side::North))
        .collect();
    let best = match proof {
        Proof::Win(_) => pv.first().map(|(m, _)| m.text(north)),
        _ => None,
    };
    if args.json {
        let (value, plies) = match proof {
            Proof::Win(k) => ("win", Some(k)),
            Proof::Loss(k) => ("loss", Some(k)),
            Proof::Unknown => ("unknown", None),
        };
        println!(
            "{}",
            json!({"game": "bao", "rules": rules.describe(), "position": format_position(&pos),
                   "to_move": pos.to_move.name(), "depth": depth, "value": value, "plies": plies,
                   "best": best, "pv": pv_text, "nodes": prover.nodes, "seconds": seconds})
        );
        return Ok(());
    }
    println!("{}", rules.describe());
    println!("position {}", format_position(&pos));
    match proof {
        Proof::Win(k) => println!(
            "{} to move wins within {k} moves (plies); winning move {}",
            pos.to_move,
            best.unwrap_or_default()
        ),
        Proof::Loss(k) => println!(
            "{} to move loses within {k} moves (plies) whatever it plays",
            pos.to_move
        ),
        Proof::Unknown => println!("no forced win or loss within {depth} moves (plies)"),
    }
    if !pv_text.is_empty() {
        println!("pv {}", pv_text.join(" "));
    }
    print_rate("search", "nodes", prover.nodes, seconds);
    Ok(())
}

/// The closing line of a search: `{what} 1.23 s, 456 {unit} (0.370 M nodes/s)`.
fn print_rate(what: &str, unit: &str, nodes: u64, seconds: f64) {
    println!(
        "{what} {seconds:.2} s, {nodes} {unit} ({:.3} M nodes/s)",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}

/// Tree nodes of the default proof-number search (about 150 MB).
const PNS_NODES: usize = 2_000_000;

/// `solve bao [--pns N]`.
fn solve_pns(args: &SolveArgs, rules: &BaoRules, pos: &Position, budget: usize) -> CliResult {
    let started = Instant::now();
    let result = granary_bao::pns::search(rules, pos, budget);
    let seconds = started.elapsed().as_secs_f64();
    let north = pos.to_move == Side::North;
    let line: Vec<String> = result
        .line
        .iter()
        .map(|(m, p)| m.text(p.to_move == Side::North))
        .collect();
    let value = match result.verdict {
        granary_bao::pns::Verdict::Win => "win",
        granary_bao::pns::Verdict::Loss => "loss",
        granary_bao::pns::Verdict::Unknown => "unknown",
    };
    let best = result.best.map(|m| m.text(north));
    if args.json {
        println!(
            "{}",
            json!({"game": "bao", "rules": rules.describe(), "position": format_position(pos),
                   "to_move": pos.to_move.name(), "search": "pns", "budget": budget,
                   "value": value, "best": best, "pv": line, "nodes": result.nodes,
                   "seconds": seconds})
        );
        return Ok(());
    }
    println!("{}", rules.describe());
    println!("position {}", format_position(pos));
    match result.verdict {
        granary_bao::pns::Verdict::Win => println!(
            "{} to move wins; winning move {}",
            pos.to_move,
            best.unwrap_or_default()
        ),
        granary_bao::pns::Verdict::Loss => {
            println!("{} to move loses whatever it plays", pos.to_move)
        }
        granary_bao::pns::Verdict::Unknown => {
            println!("not decided within {budget} tree nodes");
        }
    }
    if !line.is_empty() {
        let what = if result.verdict == granary_bao::pns::Verdict::Unknown {
            "most-proving line"
        } else {
            "pv"
        };
        println!("{what} {}", line.join(" "));
    }
    print_rate(
        "proof-number search",
        "tree nodes",
        result.nodes as u64,
        seconds,
    );
    Ok(())
}

fn describe(p: Proof) -> String {
    match p {
        Proof::Win(k) => format!("win in {k}"),
        Proof::Loss(k) => format!("loss in {k}"),
        Proof::Unknown => "not proven".into(),
    }
}

const HELP: &str = "type a move like A6R (pit, then L or R where there is a choice, then s to stop in the nyumba), `moves` to list them, `hint` for the engine's view of every move, `undo`, `quit`";

pub fn play(args: &PlayArgs) -> CliResult {
    let human = args.human()?;
    let seconds = args.time.unwrap_or(1.0);
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(CliError(format!(
            "--time {seconds}: give seconds a move, more than 0 and at most 3600"
        )));
    }
    let time = Duration::from_secs_f64(seconds);
    let (rules, start) = resolve(&args.variant)?;
    let mut engine = Engine::new(&rules);
    let mut history = vec![start];
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "{}: you play {human}, granary thinks {seconds} s a move. {HELP}.",
        rules.describe()
    );
    loop {
        let pos = *history.last().expect("the start");
        let moves = generate(&rules, &pos);
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
            let choice = engine.choose(&pos, Some(time), 64).expect("a legal move");
            println!(
                "granary plays {} (depth {}, score {:+.2} seeds)",
                choice.mv.text(north),
                choice.depth,
                f64::from(choice.score) / 100.0
            );
            let child = moves
                .legal
                .iter()
                .find(|(m, _)| *m == choice.mv)
                .expect("legal")
                .1;
            history.push(child);
            continue;
        }
        let prompt = format!("{} to move ({})", pos.to_move, stage(&pos));
        let Some(line) = crate::play::ask(&mut lines, &prompt)? else {
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "moves" | "m" => println!("legal moves: {}", list(&moves, north)),
            "hint" | "h" => {
                let mut view = Vec::new();
                for (mv, child) in &moves.legal {
                    let score = -engine.alphabeta(
                        child,
                        2,
                        -granary_bao::engine::WIN - 1,
                        granary_bao::engine::WIN + 1,
                        1,
                    );
                    view.push(format!(
                        "{}:{:+.2}",
                        mv.text(north),
                        f64::from(score) / 100.0
                    ));
                }
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
            text => match find_move(&rules, &pos, text) {
                Ok((_, child)) => history.push(child),
                Err(e) => println!("{e}"),
            },
        }
    }
}
