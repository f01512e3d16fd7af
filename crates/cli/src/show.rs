//! `granary show`: a Kalah or Oware position after moves, drawn or as JSON.

use crate::args::ShowArgs;
use crate::draw;
use crate::error::CliResult;

pub fn run(args: &ShowArgs) -> CliResult {
    let game = args.variant.mancala()?;
    let moves = granary::game::parse_pits(&args.moves)?;
    let shown = granary::show::show(&game, &moves)?;
    if args.json {
        println!("{}", serde_json::to_string(&shown)?);
        return Ok(());
    }
    let pos = &shown.pos;
    println!("{}", shown.variant);
    println!("position {}", shown.position);
    println!();
    print!("{}", draw::board(pos, shown.pits_a_side));
    println!();
    match (shown.end, shown.final_stores) {
        (Some(end), Some([s, n])) => {
            let verdict = match s.cmp(&n) {
                std::cmp::Ordering::Greater => format!("South wins by {}", s - n),
                std::cmp::Ordering::Less => format!("North wins by {}", n - s),
                std::cmp::Ordering::Equal => "a draw".to_string(),
            };
            println!("game over ({end}): final score South {s} - North {n}, {verdict}");
        }
        _ => {
            let list: Vec<String> = shown.legal_moves.iter().map(ToString::to_string).collect();
            println!("{} to move; legal moves: {}", pos.to_move, list.join(" "));
        }
    }
    Ok(())
}
