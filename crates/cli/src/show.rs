//! `granary show`: a position after moves, drawn or as JSON.

use granary_rules::notation::format_position;
use granary_rules::{Record, Rules, Status};
use serde::Serialize;

use crate::args::GameName;
use crate::args::ShowArgs;
use crate::draw;
use crate::error::{CliError, CliResult};

/// `show --json`.
#[derive(Serialize)]
struct ShowJson {
    game: &'static str,
    variant: String,
    position: String,
    to_move: &'static str,
    pits: Vec<u8>,
    stores: [u8; 2],
    legal_moves: Vec<usize>,
    over: bool,
    /// `finished`, `majority` or `repetition` when over.
    end: Option<&'static str>,
    /// Final stores `[south, north]` when over.
    #[serde(rename = "final")]
    final_stores: Option<[u32; 2]>,
    moves_played: Vec<usize>,
}

/// Parses `--moves` entries as pit numbers, naming the first bad one.
pub fn parse_moves(moves: &[String]) -> Result<Vec<usize>, CliError> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.trim().parse::<usize>().map_err(|_| {
                CliError(format!(
                    "--moves: move {} is '{}', not a pit number",
                    i + 1,
                    m.trim()
                ))
            })
        })
        .collect()
}

pub fn run(args: &ShowArgs) -> CliResult {
    if args.variant.game.game == GameName::Bao {
        return crate::bao::show(args);
    }
    let (variant, start) = args.variant.resolve()?;
    let engine = variant.engine();
    let m = engine.pits();
    let mut record = Record::new(&engine, start);
    for (i, pit) in parse_moves(&args.moves)?.into_iter().enumerate() {
        record
            .play(pit)
            .map_err(|e| CliError(format!("--moves: move {} (pit {pit}): {e}", i + 1)))?;
    }
    let pos = *record.current();
    let legal: Vec<usize> = engine.legal_moves(&pos).iter().map(|l| l + 1).collect();
    let status = record.status();
    let (end, final_stores) = match status {
        Status::Ongoing => (None, None),
        Status::Over { end, stores } => (Some(end.name()), Some(stores)),
    };
    if args.json {
        let out = ShowJson {
            game: variant.game.name(),
            variant: variant.to_string(),
            position: format_position(&pos, m),
            to_move: pos.to_move.name(),
            pits: pos.absolute_pits(m),
            stores: pos.absolute_stores(),
            legal_moves: if status == Status::Ongoing {
                legal
            } else {
                Vec::new()
            },
            over: status != Status::Ongoing,
            end,
            final_stores,
            moves_played: record.pits_played(),
        };
        println!("{}", serde_json::to_string(&out)?);
        return Ok(());
    }
    println!("{variant}");
    println!("position {}", format_position(&pos, m));
    println!();
    print!("{}", draw::board(&pos, m));
    println!();
    match status {
        Status::Ongoing => {
            let list: Vec<String> = legal.iter().map(ToString::to_string).collect();
            println!("{} to move; legal moves: {}", pos.to_move, list.join(" "));
        }
        Status::Over {
            end,
            stores: [s, n],
        } => {
            let verdict = match s.cmp(&n) {
                std::cmp::Ordering::Greater => format!("South wins by {}", s - n),
                std::cmp::Ordering::Less => format!("North wins by {}", n - s),
                std::cmp::Ordering::Equal => "a draw".to_string(),
            };
            println!(
                "game over ({}): final score South {s} - North {n}, {verdict}",
                end.name()
            );
        }
    }
    Ok(())
}
