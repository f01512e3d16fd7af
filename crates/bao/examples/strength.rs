//! The engine's strength report: games against a random player and a 1-ply greedy player,
//! colours alternating. `cargo run --release -p granary-bao --example strength -- [games] [ms]`
//! (defaults: 100 games each, 20 ms a move) for Bao la kiswahili and Bao la kujifunza.

use std::time::{Duration, Instant};

use granary_bao::engine::{Engine, greedy};
use granary_bao::{BaoRules, Move, Position, Start, legal_moves};
use granary_rules::Side;

#[path = "../tests/it/common/rng.rs"]
mod rng;

use rng::Rng;

#[derive(Clone, Copy, PartialEq)]
enum Opponent {
    Random,
    Greedy,
}

/// Plays one game; true if the engine wins. Games have no draws; 1,000 moves count as a loss.
fn game(
    rules: &BaoRules,
    opponent: Opponent,
    engine_side: Side,
    seed: u64,
    time: Duration,
) -> (bool, usize) {
    let mut rng = Rng::for_game(seed);
    let mut engine = Engine::new(rules);
    let mut pos = Position::start(rules);
    for ply in 0..1000 {
        let moves = legal_moves(rules, &pos);
        if moves.is_empty() {
            return (pos.to_move != engine_side, ply);
        }
        let mv: Move = if pos.to_move == engine_side {
            engine.choose(&pos, Some(time), 64).map(|c| c.mv).unwrap()
        } else {
            match opponent {
                Opponent::Random => moves[rng.below(moves.len())].0,
                Opponent::Greedy => greedy(rules, &pos).unwrap(),
            }
        };
        pos = moves.iter().find(|(m, _)| *m == mv).unwrap().1;
    }
    (false, 1000)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let time = Duration::from_millis(ms);
    for start in [Start::Kiswahili, Start::Kujifunza] {
        let rules = BaoRules::new(start);
        for (name, opponent) in [("random", Opponent::Random), ("greedy", Opponent::Greedy)] {
            let started = Instant::now();
            let mut wins = 0;
            let mut plies = 0;
            for g in 0..games {
                let side = if g % 2 == 0 { Side::South } else { Side::North };
                let (won, n) = game(&rules, opponent, side, g, time);
                wins += u64::from(won);
                plies += n;
            }
            println!(
                "{}: engine ({ms} ms a move) vs {name}: {wins} wins, {} losses of {games} games (half as South), {:.0} moves a game, {:.0} s",
                rules.describe(),
                games - wins,
                plies as f64 / games as f64,
                started.elapsed().as_secs_f64()
            );
        }
    }
}
