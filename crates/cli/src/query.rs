//! `granary query`: perfect play in a position from the tables.

use crate::args::QueryArgs;
use crate::draw;
use crate::error::CliResult;

pub fn run(args: &QueryArgs) -> CliResult {
    let game = args.game.mancala(&args.position)?;
    let q = args.dir.tablebase().query_checked(&game, args.verify)?;
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
    println!("{} {}", q.tables, q.position);
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
        if q.pv_end == "cycle" {
            " (then the position repeats: endless play)"
        } else {
            ""
        }
    );
    Ok(())
}
