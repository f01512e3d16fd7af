//! `Tablebase::choose`, a move to play anywhere: the tables' best moves where they hold the
//! position, a solve's where a Kalah search is allowed, and elsewhere a depth-limited search
//! that says it is not perfect play.

use granary::{ChoiceSource, GameName, Setup, Tablebase};

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
    let above = tb.choose(&start, f64::INFINITY, 3).unwrap();
    assert_eq!(
        (above.perfect, above.source),
        (false, ChoiceSource::Estimate)
    );
    assert!(!above.best.is_empty() && above.best.iter().all(|p| (1..=4).contains(p)));
    assert_eq!(above.after.len(), above.best.len());
    let inside = game(
        GameName::Oware,
        "awari",
        4,
        2,
        Some("2,0,1,1/0,1,0,1 5-5 S"),
    );
    let read = tb.choose(&inside, 0.0, 3).unwrap();
    let q = tb.query(&inside).unwrap();
    assert_eq!((read.perfect, read.source), (true, ChoiceSource::Tables));
    assert_eq!((read.best.clone(), read.value), (q.best.clone(), q.value));
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
    let searched = tb.choose(&kalah, f64::INFINITY, 3).unwrap();
    assert_eq!(
        (searched.perfect, searched.source),
        (true, ChoiceSource::Search)
    );
    let solved = granary::solve(&tb, &kalah, &granary::Settings::default(), &()).unwrap();
    assert_eq!(searched.value, solved.value);
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
    let estimated = tb.choose(&kalah, 0.0, 3).unwrap();
    assert_eq!(
        (estimated.perfect, estimated.source),
        (false, ChoiceSource::Estimate)
    );
}
