//! `granary query`: perfect play in a position from the tables.

use granary_rules::Rules;
use granary_rules::notation::format_position;
use granary_tables::probe::{move_value, position_value, principal_variation};
use granary_tables::{TableKind, TableSet};
use serde_json::json;

use crate::args::QueryArgs;
use crate::error::{CliError, CliResult};

/// The longest principal variation printed.
const PV_LIMIT: usize = 400;

/// A number of seeds that may be a half (an endless game's odd seed split evenly).
fn half_units(x2: i64) -> serde_json::Value {
    if x2 % 2 == 0 {
        json!(x2 / 2)
    } else {
        json!(x2 as f64 / 2.0)
    }
}

pub fn run(args: &QueryArgs) -> CliResult {
    let game = args.game.game()?;
    let (pos, pits) = args.game.position(&args.position)?;
    let kind = TableKind { game, pits };
    let set = TableSet::new(&args.dir.resolve(), kind);
    let engine = kind.engine();
    let seeds = pos.board.seeds(pits);
    let limit = granary_index::MAX_LAYER_SEEDS;
    if seeds > limit {
        return Err(CliError(format!(
            "this position has {seeds} seeds on the board; tables hold at most {limit}: use `granary solve`"
        )));
    }
    if let Err(err) = set.layer(seeds) {
        return Err(CliError(format!(
            "{err}; this position has {seeds} seeds on the board: build with `granary build {} --pits {pits}{} --max-seeds {seeds}`",
            game.name(),
            match game {
                granary_rules::Game::Kalah { capture, sweep } =>
                    format!(" --rules {} --sweep {}", capture.name(), sweep.name()),
                granary_rules::Game::Oware { rules } => format!(" --rules {}", rules.name()),
            }
        )));
    }
    let value = position_value(&set, &engine, &pos)?;
    let mut moves = Vec::new();
    for lane in engine.legal_moves(&pos).iter() {
        moves.push((lane + 1, move_value(&set, &engine, &pos, lane)?));
    }
    if let Some(best) = moves.iter().map(|m| m.1).max()
        && best != value
    {
        return Err(CliError(format!(
            "tables are inconsistent: the position is worth {value} but its best move {best}; run `granary verify`"
        )));
    }
    let best: Vec<usize> = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
    let (pv, cycle) = principal_variation(&set, &engine, pos, PV_LIMIT)?;
    let pv: Vec<usize> = pv.iter().map(|l| l + 1).collect();

    // Final stores: the mover takes (n + value) / 2 of the n seeds on the board.
    let n = i64::from(seeds);
    let v = i64::from(value);
    let [mover, opponent] = pos.stores.map(i64::from);
    let finals2 = pos.absolute([2 * mover + n + v, 2 * opponent + n - v]);
    let margin = 2 * (mover - opponent) + 2 * v; // twice the mover's final lead
    let result = match margin.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    if args.json {
        let out = json!({
            "position": format_position(&pos, pits),
            "to_move": pos.to_move.name(),
            "seeds_on_board": seeds,
            "value": value,
            "final": [half_units(finals2[0]), half_units(finals2[1])],
            "result": result,
            "moves": moves.iter().map(|(m, v)| json!({"move": m, "value": v})).collect::<Vec<_>>(),
            "best": best,
            "pv": pv,
            "pv_end": if cycle { "cycle" } else { "game over" },
        });
        println!("{out}");
        return Ok(());
    }
    println!("{} {}", kind.name(), format_position(&pos, pits));
    println!(
        "value {value:+} for {} ({seeds} seeds on the board)",
        pos.to_move
    );
    println!(
        "final score South {} - North {}: {} for {}",
        half_units(finals2[0]),
        half_units(finals2[1]),
        result,
        pos.to_move
    );
    let list: Vec<String> = moves.iter().map(|(m, v)| format!("{m}:{v:+}")).collect();
    println!("moves {}", list.join(" "));
    println!(
        "best {}",
        best.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let pv_text: Vec<String> = pv.iter().map(ToString::to_string).collect();
    println!(
        "pv {}{}",
        pv_text.join(" "),
        if cycle {
            " (then the position repeats: endless play)"
        } else {
            ""
        }
    );
    Ok(())
}
