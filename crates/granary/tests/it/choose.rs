//! `Tablebase::choose`, a move to play anywhere: the tables' best moves where they hold the
//! position, a solve's where a Kalah search is allowed, and elsewhere the engine's move, with
//! its estimate and no value, said not to be perfect play.

use granary::estimate::Budget;
use granary::{ChoiceSource, GameName, Setup, Tablebase};

/// A node budget: the same engine move on every run.
const NODES: Budget = Budget::Nodes(20_000);

fn game(
    name: GameName,
    rules: &str,
    pits: usize,
    seeds: u32,
    position: Option<&str>,
) -> granary::Mancala {
    Setup {
        pits: Some(pits),
        seeds: Some(seeds),
        rules: Some(rules.into()),
        ..Setup::default()
    }
    .mancala(name, position)
    .unwrap()
}

#[test]
fn perfect_where_the_rule_answers_and_said_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    // Oware(4,2) awari with tables to 6 seeds.
    let start = game(GameName::Oware, "awari", 4, 2, None);
    granary::build(&tb, start.kind(), 6, Some(2), None, &()).unwrap();
    let above = tb.choose(&start, f64::INFINITY, NODES).unwrap();
    assert_eq!(
        (above.perfect, above.source),
        (false, ChoiceSource::Estimate)
    );
    assert!(!above.best.is_empty() && above.best.iter().all(|p| (1..=4).contains(p)));
    assert_eq!(above.after.len(), above.best.len());
    assert_eq!(above.value, None);
    assert!(above.estimate.is_some());
    let inside = game(
        GameName::Oware,
        "awari",
        4,
        2,
        Some("2,0,1,1/0,1,0,1 5-5 S"),
    );
    let read = tb.choose(&inside, 0.0, NODES).unwrap();
    let q = tb.query(&inside).unwrap();
    assert_eq!((read.perfect, read.source), (true, ChoiceSource::Tables));
    assert_eq!(
        (read.best.clone(), read.value),
        (q.best.clone(), Some(q.value))
    );
    assert_eq!(read.estimate, None);
    let after: Vec<String> = q
        .moves
        .iter()
        .filter(|m| q.best.contains(&m.pit))
        .map(|m| m.position.clone())
        .collect();
    assert_eq!(read.after, after);
    // Kalah(4,3) over tables to 6: searched exactly when allowed, its best moves the solve's;
    // estimated when not.
    let kalah = game(GameName::Kalah, "standard", 4, 3, None);
    granary::build(&tb, kalah.kind(), 6, Some(2), None, &()).unwrap();
    let searched = tb.choose(&kalah, f64::INFINITY, NODES).unwrap();
    assert_eq!(
        (searched.perfect, searched.source),
        (true, ChoiceSource::Search)
    );
    let solved = granary::solve(&tb, &kalah, &granary::Settings::default(), &()).unwrap();
    assert_eq!(searched.value, Some(solved.value));
    assert!(!searched.best.is_empty());
    let all = granary::solve(
        &tb,
        &kalah,
        &granary::Settings {
            all_moves: true,
            ..granary::Settings::default()
        },
        &(),
    )
    .unwrap();
    for pit in &searched.best {
        let m = all.moves.iter().find(|m| m.pit == *pit).unwrap();
        assert_eq!(m.worth, granary::Worth::Exact(all.value), "move {pit}");
    }
    let estimated = tb.choose(&kalah, 0.0, NODES).unwrap();
    assert_eq!(
        (estimated.perfect, estimated.source),
        (false, ChoiceSource::Estimate)
    );
    assert_eq!(estimated.value, None);
}

#[test]
fn beyond_the_exact_reach_the_engine_moves_with_an_estimate_and_no_value() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    // Oware(6,4) awari with no tables: beyond the exact reach whatever the limit.
    let start = game(GameName::Oware, "awari", 6, 4, None);
    let legal = granary::show::show(&start, &[]).unwrap().legal_moves;
    let choice = tb.choose(&start, f64::INFINITY, NODES).unwrap();
    assert_eq!(
        (choice.perfect, choice.source, choice.value),
        (false, ChoiceSource::Estimate, None)
    );
    assert_eq!(choice.best.len(), 1, "the engine's one best move");
    assert!(legal.contains(&choice.best[0]), "{:?}", choice.best);
    assert_eq!(choice.after.len(), 1);
    let estimate = choice.estimate.unwrap();
    assert!(estimate.depth >= 1 && estimate.nodes > 0, "{estimate:?}");
    assert!(estimate.value.unsigned_abs() <= 48, "{estimate:?}");
    // A node budget gives the same move and estimate on every run.
    let again = tb.choose(&start, f64::INFINITY, NODES).unwrap();
    assert_eq!(again.best, choice.best);
    let again = again.estimate.unwrap();
    assert_eq!(
        (again.value, again.depth, again.nodes),
        (estimate.value, estimate.depth, estimate.nodes)
    );
    // In JSON: `estimate` with its depth and nodes, and no `value` anywhere at the top.
    let json = serde_json::to_value(&choice).unwrap();
    assert!(json.get("value").is_none(), "{json}");
    assert_eq!(json["source"], "estimate");
    assert_eq!(json["estimate"]["depth"], estimate.depth);
    assert_eq!(json["estimate"]["nodes"], estimate.nodes);
}
