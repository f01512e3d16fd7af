//! `granary query`: perfect play in a position from the tables, or for a Kalah position above
//! them a search over them, as the library's rule of what is answered beyond the tables says
//! ([`granary::plan::reach`]); beyond that, the engine's estimate, labelled as one
//! ([`granary::Tablebase::estimate`]).

use granary::plan::Reach;
use granary::{Estimate, PvEnd, Source};

use crate::args::QueryArgs;
use crate::draw;
use crate::error::CliResult;

pub fn run(args: &QueryArgs) -> CliResult {
    let game = args.game.mancala(&args.position)?;
    let tablebase = args.dir.tablebase();
    if !args.verify
        && args.time > 0.0
        && let Reach::Beyond(why) = tablebase.reach(&game, args.search_seconds)?
    {
        let time = std::time::Duration::from_secs_f64(args.time);
        let estimate = tablebase.estimate(&game, time, None)?;
        if args.json {
            println!("{}", serde_json::to_string(&estimate)?);
        } else {
            print!("{}", estimated(&estimate, &why.to_string()));
        }
        return Ok(());
    }
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
        draw::side_named(q.to_move),
        q.seeds_on_board
    );
    println!(
        "final score South {} - North {}: {} for {}",
        q.final_stores[0],
        q.final_stores[1],
        q.result,
        draw::side_named(q.to_move)
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

/// An estimate as text: why the position is beyond the exact answers, the estimate with its
/// depth and time, each move's estimate (`<=` a bound), the best move and the engine's line.
fn estimated(e: &Estimate, why: &str) -> String {
    let join = |v: &[usize]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let moves: Vec<String> = e.moves.iter().map(ToString::to_string).collect();
    let side = draw::side_named(e.to_move);
    format!(
        "{} {} (no exact value: {why})\n{side} to move, {} seeds on the board: {}\nmoves {}\n\
         best {}\nline {}\n",
        e.tables,
        e.position,
        e.seeds_on_board,
        e.estimate,
        moves.join(" "),
        e.best.map_or_else(|| "none".into(), |p| p.to_string()),
        join(&e.pv),
    )
}
