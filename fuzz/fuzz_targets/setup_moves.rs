//! What a user types for a game: option values, a position and a move list, for all three
//! games, through the library as the command line and the server use it. Errors, never panics.
#![no_main]

use granary::{GameName, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Fields separated by '|': game, pits, seeds, rules, sweep, nyumba, takasia, tax, position,
    // moves (comma-separated).
    let f: Vec<&str> = text.split('|').collect();
    let field = |i: usize| f.get(i).copied().filter(|s| !s.is_empty());
    let Some(game) = field(0).and_then(|g| g.parse::<GameName>().ok()) else {
        return;
    };
    let setup = Setup {
        pits: field(1).and_then(|p| p.parse().ok()),
        seeds: field(2).and_then(|s| s.parse().ok()),
        rules: field(3).map(String::from),
        sweep: field(4).map(String::from),
        nyumba: field(5).map(String::from),
        takasia: field(6).map(String::from),
        tax: field(7).map(String::from),
    };
    let position = field(8);
    let moves: Vec<&str> = field(9).map(|m| m.split(',').collect()).unwrap_or_default();
    if game == GameName::Bao {
        if let Ok((rules, pos)) = setup.bao(position) {
            let _ = granary::bao::show(&rules, pos, &moves);
        }
    } else if let Ok(mancala) = setup.mancala(game, position)
        && let Ok(pits) = granary::game::parse_pits(&moves)
    {
        let _ = granary::show::show(&mancala, &pits);
    }
});
