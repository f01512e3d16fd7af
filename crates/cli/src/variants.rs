//! `granary variants`: every game, rule option and default.

use serde_json::json;

use granary_bao::{NyumbaRule, Start, TakasiaRule, TaxRule};
use granary_rules::{Capture, OwareRules, Sweep};

use crate::args::VariantsArgs;
use crate::error::CliResult;

const GAMES: [(&str, &str); 3] = [
    (
        "kalah",
        "Kalah(m,n): sowing through your store, another move there, capture from an own empty pit",
    ),
    (
        "oware",
        "Oware(m,n): no stores on the path, origin skipped, capture of 2s and 3s going back",
    ),
    (
        "bao",
        "Bao: 4x8 pits, 64 seeds, relay sowing, captures sown from a kichwa, nyumba, takasia",
    ),
];

/// Every game's rule options: `(game, flag, values with the default first)`.
fn options() -> [(&'static str, &'static str, Vec<&'static str>); 7] {
    [
        (
            "kalah",
            "--rules",
            Capture::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "kalah",
            "--sweep",
            Sweep::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "oware",
            "--rules",
            OwareRules::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "bao",
            "--rules",
            Start::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "bao",
            "--nyumba",
            NyumbaRule::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "bao",
            "--takasia",
            TakasiaRule::ALL.iter().map(|v| v.name()).collect(),
        ),
        (
            "bao",
            "--tax",
            TaxRule::ALL.iter().map(|v| v.name()).collect(),
        ),
    ]
}

pub fn run(args: &VariantsArgs) -> CliResult {
    if args.json {
        let games: Vec<_> = GAMES
            .iter()
            .map(|(game, about)| {
                let options: serde_json::Map<_, _> = options()
                    .iter()
                    .filter(|(g, _, _)| g == game)
                    .map(|(_, flag, values)| {
                        let key = flag.trim_start_matches('-').to_string();
                        (key, json!({"values": values, "default": values[0]}))
                    })
                    .collect();
                if *game == "bao" {
                    json!({"game": game, "about": about, "options": options})
                } else {
                    json!({"game": game, "about": about, "pits": {"min": 1, "max": 8, "default": 6},
                           "seeds": {"default": 4}, "options": options})
                }
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "games": games }))?
        );
        return Ok(());
    }
    for (game, about) in GAMES {
        println!("{game}: {about}");
        if game != "bao" {
            println!("  --pits 1..8 (default 6)  --seeds N (default 4; at most 255 seeds in all)");
        }
        for (_, flag, values) in options().iter().filter(|(g, _, _)| *g == game) {
            println!("  {flag} {} (default {})", values.join("|"), values[0]);
        }
    }
    Ok(())
}
