//! `granary variants`: every game, rule option and default.

use crate::args::VariantsArgs;
use crate::error::CliResult;

pub fn run(args: &VariantsArgs) -> CliResult {
    let games = granary::game::catalogue();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "games": games }))?
        );
        return Ok(());
    }
    for game in &games {
        println!("{}: {}", game.game, game.about);
        if let (Some(pits), Some(seeds)) = (game.pits, game.seeds) {
            println!(
                "  --pits {}..{} (default {})  --seeds N (default {}; at most 255 seeds in all)",
                pits.min.unwrap_or(1),
                pits.max.unwrap_or(8),
                pits.default,
                seeds.default
            );
        }
        for option in granary::game::options()
            .iter()
            .filter(|o| o.game == game.game)
        {
            println!(
                "  {} {} (default {})",
                option.flag,
                option.values.join("|"),
                option.default_value()
            );
        }
    }
    Ok(())
}
