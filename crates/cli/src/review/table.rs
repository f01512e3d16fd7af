//! The text table of a review, as a person reads it: the header, a row a ply, then the
//! reasons of the plies without a value and each side's summary.

use granary::Side;
use granary::review::{Ply, Review, Verdict};

/// The review as a person reads it: the header, a row a ply, then the summary ([`summary`]);
/// what [`super::shown::Shown`] prints a piece at a time.
#[cfg(test)]
pub fn table(review: &Review) -> String {
    let mut out = header(review.tables.as_deref());
    for ply in &review.plies {
        out += &row(ply);
    }
    out + &summary(review)
}

/// The table's header: where values come from (the tables' kind, none for a game without
/// tables), and the columns.
pub fn header(tables: Option<&str>) -> String {
    let source = match tables {
        Some(tables) => format!(
            "{tables}: values are the mover's net seeds of those on the board, under perfect play\n"
        ),
        None => "no tables for this game: no exact values\n".to_string(),
    };
    source + "ply  side   move  value  played  best         loss\n"
}

/// A ply's row: its values and its mark ([`granary::review::Exact::mark`]: `??` with the
/// result before and after where it changed the result, `?` where it gave seeds away); the
/// engine's estimates in words where it has those instead (never marked); `beyond` where it
/// has neither.
pub fn row(ply: &Ply) -> String {
    let head = format!(
        "{:>3}  {:<5}  {:>4}",
        ply.ply,
        ply.side.name(),
        ply.mv.to_string()
    );
    match &ply.verdict {
        Verdict::Exact(e) => {
            let best: Vec<String> = e.best.iter().map(ToString::to_string).collect();
            let mut mark = e
                .mark()
                .map_or(String::new(), |mark| format!("  {}", mark.text()));
            if e.changed {
                mark += &format!(" {} to {}", e.result, e.result_after);
            }
            format!(
                "{head}  {:>+5}  {:>+6}  {:<11}  {:>4}{mark}\n",
                e.value,
                e.played,
                best.join(","),
                e.loss
            )
        }
        Verdict::Estimated(e) => format!("{head}  {e}\n"),
        Verdict::Beyond { .. } => format!("{head}  beyond: no exact value\n"),
    }
}

/// The table's end: the reasons of the rows without a value (estimated or not), each once, and
/// each side's summary.
pub fn summary(review: &Review) -> String {
    let mut reasons: Vec<&str> = Vec::new();
    for ply in &review.plies {
        if let Some(reason) = ply.verdict.reason()
            && !reasons.contains(&reason)
        {
            reasons.push(reason);
        }
    }
    let mut out = String::new();
    for reason in reasons {
        out += &format!("beyond: {reason}\n");
    }
    for (side, summary) in [Side::South, Side::North].iter().zip(&review.sides) {
        out += &format!("{}: {summary}\n", side.name());
    }
    out
}
