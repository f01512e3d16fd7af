//! What the engine's examples share: the table kinds they name, and the move of the fixed-depth
//! estimate that played beyond the tables before the engine, their baseline.

use granary_rules::pits::COMPILED_PITS;
use granary_rules::{Capture, Game, OwareRules, Position, Rules, Sweep, exit_value};
use granary_search::Solver;
use granary_tables::TableKind;

/// The move of the fixed-depth estimate at `depth`: each legal move worth its
/// gain and the estimate of its child at `depth - 1`; the first best (lowest lane).
pub fn estimate_move<R: Rules>(
    solver: &Solver<'_, R>,
    rules: &R,
    pos: &Position,
    depth: u32,
) -> usize {
    let mut nodes = 0;
    let options: Vec<(usize, i32)> = rules
        .legal_moves(pos)
        .iter()
        .map(|lane| {
            let child = rules.play(pos, lane);
            let (gain, again) = pos.move_gain(&child);
            let v = solver.estimate(&child, depth.max(1) - 1, &mut nodes);
            (lane, exit_value(gain, again, v))
        })
        .collect();
    let value = options.iter().map(|&(_, v)| v).max().expect("a move");
    options
        .iter()
        .find(|&&(_, v)| v == value)
        .expect("a best move")
        .0
}

/// The game named `awari`, `abapa`, `kalah-empty` or `kalah-standard`.
pub fn game(name: &str) -> Game {
    match name {
        "awari" => Game::Oware {
            rules: OwareRules::Awari,
        },
        "abapa" => Game::Oware {
            rules: OwareRules::Abapa,
        },
        "kalah-empty" => Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        "kalah-standard" => Game::Kalah {
            capture: Capture::Standard,
            sweep: Sweep::Owner,
        },
        _ => panic!("GAME: awari, abapa, kalah-empty or kalah-standard, not {name}"),
    }
}

/// The 6-pit table kind of the game named `name` ([`game`]).
pub fn table_kind(name: &str) -> TableKind {
    TableKind::new(game(name), COMPILED_PITS).expect("6 pits")
}
