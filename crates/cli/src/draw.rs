//! A board drawn for a person: North's row on top from right to left, stores at the ends.
//!
//! ```text
//!         N6  N5  N4  N3  N2  N1
//!        [ 4][ 4][ 4][ 4][ 4][ 4]
//!   N  0                          0  S
//!        [ 4][ 4][ 4][ 4][ 4][ 4]
//!         S1  S2  S3  S4  S5  S6
//! ```

use std::fmt::Write;

use granary::{Position, Side};

/// The drawing of a position with `m` pits a side, ending in a newline.
pub fn board(pos: &Position, m: usize) -> String {
    let row = |pits: Vec<u8>| pits.iter().map(|p| format!("[{p:>2}]")).collect::<String>();
    let labels = |side: char, order: Vec<usize>| {
        order
            .iter()
            .map(|i| format!(" {side}{i:<2}"))
            .collect::<String>()
    };
    let mut north = pos.pits_of(Side::North, m);
    north.reverse();
    let [south_store, north_store] = pos.absolute_stores();
    let mut out = String::new();
    let pad = "       ";
    let _ = writeln!(
        out,
        "{pad}{}",
        labels(Side::North.letter(), (1..=m).rev().collect()).trim_end()
    );
    let _ = writeln!(out, "{pad}{}", row(north));
    let _ = writeln!(
        out,
        "  {}{north_store:>3} {:width$} {south_store:<3}{}",
        Side::North.letter(),
        "",
        Side::South.letter(),
        width = 4 * m
    );
    let _ = writeln!(out, "{pad}{}", row(pos.pits_of(Side::South, m)));
    let _ = writeln!(
        out,
        "{pad}{}",
        labels(Side::South.letter(), (1..=m).collect()).trim_end()
    );
    out
}

/// The side a name in the library's data names (`south`, `north`: [`Side::name`]), shown as
/// `South` or `North`.
pub fn side_named(name: &str) -> Side {
    if name == Side::North.name() {
        Side::North
    } else {
        Side::South
    }
}
