//! What a solve says each root move is worth, against every move's exact value: a move given
//! exactly has that value, a bound holds, and no bound is written as a value (the report's
//! JSON carries `value` or `upper`, never both).

use granary::{GameName, Settings, Setup, Tablebase, Worth};

#[test]
fn every_bound_holds_and_every_value_is_exact() {
    let dir = tempfile::tempdir().unwrap();
    let tablebase = Tablebase::new(dir.path());
    let cases: [(GameName, usize, u32, &str, Option<&str>); 7] = [
        (GameName::Kalah, 4, 3, "empty", None),
        (GameName::Kalah, 4, 3, "standard", None),
        (GameName::Kalah, 3, 4, "standard", None),
        (GameName::Kalah, 6, 2, "empty", None),
        (
            GameName::Kalah,
            5,
            2,
            "standard",
            Some("3,0,2,1,4/0,2,2,1,0 3-5 N"),
        ),
        (GameName::Oware, 4, 2, "awari", None),
        (GameName::Oware, 3, 3, "abapa", Some("2,0,3/1,2,0 4-6 S")),
    ];
    let mut bounds = 0;
    for (name, pits, seeds, rules, position) in cases {
        let game = Setup {
            pits: Some(pits),
            seeds: Some(seeds),
            rules: Some(rules.into()),
            ..Setup::default()
        }
        .mancala(name, position)
        .unwrap();
        let some = granary::solve(&tablebase, &game, &Settings::default(), &()).unwrap();
        let all = granary::solve(
            &tablebase,
            &game,
            &Settings {
                all_moves: true,
                ..Settings::default()
            },
            &(),
        )
        .unwrap();
        let label = format!("{} {}", some.variant, some.position);
        assert_eq!(some.value, all.value, "{label}");
        assert_eq!(some.moves.len(), all.moves.len(), "{label}");
        for (m, exact) in some.moves.iter().zip(&all.moves) {
            assert_eq!(m.pit, exact.pit, "{label}");
            let Worth::Exact(truth) = exact.worth else {
                panic!("{label}: --all-moves gave move {} as a bound", exact.pit);
            };
            assert!(
                m.worth.admits(truth),
                "{label} move {}: {:?}, truly {truth}",
                m.pit,
                m.worth
            );
            let json = serde_json::to_value(m).unwrap();
            match m.worth {
                Worth::Exact(v) => {
                    assert_eq!(json, serde_json::json!({"move": m.pit, "value": v}));
                }
                Worth::AtMost(u) => {
                    bounds += 1;
                    assert_eq!(json, serde_json::json!({"move": m.pit, "upper": u}));
                }
            }
        }
        // The best moves are exact, at the position's value.
        for pit in &some.best {
            let m = some.moves.iter().find(|m| m.pit == *pit).unwrap();
            assert_eq!(m.worth, Worth::Exact(some.value), "{label}");
        }
        assert!(!some.best.is_empty(), "{label}");
    }
    assert!(bounds > 0, "no case had a bound to check");
}
