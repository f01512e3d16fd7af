//! `granary review`: a game's moves against perfect play, a row a move and a summary a side
//! ([`granary::Review`]).

use granary::review::{Review, SideSummary, Verdict};

use crate::args::ReviewArgs;
use crate::error::CliResult;

pub fn run(args: &ReviewArgs) -> CliResult {
    let game = args.variant.mancala()?;
    let moves = granary::game::parse_pits(&args.moves)?;
    let review = args
        .dir
        .tablebase()
        .review(&game, &moves, args.search_seconds)?;
    if args.json {
        println!("{}", serde_json::to_string(&review)?);
    } else {
        print!("{}", table(&review));
    }
    Ok(())
}

/// The review as a person reads it: a row a move (`?` where it gave seeds away, `??` where it
/// changed the result), the reasons of the rows without a value, and each side's summary.
fn table(review: &Review) -> String {
    let mut out = format!(
        "{}: values are the mover's net seeds of those on the board, under perfect play\n",
        review.tables
    );
    out += "ply  side   move  value  played  best         loss\n";
    let mut reasons: Vec<&str> = Vec::new();
    for ply in &review.plies {
        let head = format!("{:>3}  {:<5}  {:>4}", ply.ply, ply.side, ply.pit);
        match &ply.verdict {
            Verdict::Exact(e) => {
                let best: Vec<String> = e.best.iter().map(ToString::to_string).collect();
                let mark = match (e.changed, e.loss > 0) {
                    (true, _) => format!("  ?? {} to {}", e.result, e.result_after),
                    (false, true) => "  ?".to_string(),
                    (false, false) => String::new(),
                };
                out += &format!(
                    "{head}  {:>+5}  {:>+6}  {:<11}  {:>4}{mark}\n",
                    e.value,
                    e.played,
                    best.join(","),
                    e.loss
                );
            }
            Verdict::Beyond { reason } => {
                if !reasons.contains(&reason.as_str()) {
                    reasons.push(reason);
                }
                out += &format!("{head}  beyond: no exact value\n");
            }
        }
    }
    for reason in reasons {
        out += &format!("beyond: {reason}\n");
    }
    for (name, side) in ["south", "north"].iter().zip(&review.sides) {
        out += &format!("{name}: {}\n", summary(side));
    }
    out
}

/// One side's summary in words.
fn summary(side: &SideSummary) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut text = format!(
        "{}, {} valued, {} kept the value, {} lost",
        plural(side.played, "move"),
        side.exact,
        side.kept,
        plural(usize::try_from(side.lost).unwrap_or(usize::MAX), "seed")
    );
    if let Some(ply) = side.first_change {
        text += &format!("; the result changed at ply {ply}");
    }
    text
}
