//! `granary query`: perfect play in a position from the tables, or for a Kalah position above
//! them a search over them, as the library's rule of what is answered beyond the tables says
//! ([`granary::plan::reach`]).

use granary::{PvEnd, Source};

use crate::args::QueryArgs;
use crate::draw;
use crate::error::CliResult;

pub fn run(args: &QueryArgs) -> CliResult {
    let game = args.game.mancala(&args.position)?;
    let tablebase = args.dir.tablebase();
    let q = if args.verify || args.search_seconds == 0.0 {
        tablebase.query_checked(&game, args.verify)?
    } else {
        tablebase.query_within(&game, args.search_seconds)?
    };
    if args.json {
        println!("{}", serde_json::to_string(&q)?);
        return Ok(());
    }
    let join = |v: &[usize]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let source = match q.source {
        Source::Search => " (searched over the tables: the position is above them)",
        Source::Tables => "",
    };
    println!("{} {}{source}", q.tables, q.position);
    println!(
        "value {:+} for {} ({} seeds on the board)",
        q.value,
        draw::side_title(q.to_move),
        q.seeds_on_board
    );
    println!(
        "final score South {} - North {}: {} for {}",
        q.final_stores[0],
        q.final_stores[1],
        q.result,
        draw::side_title(q.to_move)
    );
    let list: Vec<String> = q
        .moves
        .iter()
        .map(|m| format!("{}:{:+}", m.pit, m.value))
        .collect();
    println!("moves {}", list.join(" "));
    println!("best {}", join(&q.best));
    println!(
        "pv {}{}",
        join(&q.pv),
        match q.pv_end {
            PvEnd::Cycle => " (then the position repeats: endless play)",
            PvEnd::GameOver => "",
        }
    );
    Ok(())
}
