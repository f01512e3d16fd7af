//! The cost model's JSON (`cost-model.json`, as `granary calibrate` saves it): any text is a
//! model or a named error, never a panic. A model that parses saves (as `CostModel::save`
//! writes it) to text that parses back to the same model, and plans with it are made or refused
//! with estimates that are numbers, never NaN.
#![no_main]

use std::path::Path;

use granary::Machine;
use granary::plan::{CostModel, TableChoice, plan_solve};
use granary_rules::{Capture, Game, OwareRules, Sweep};
use granary_tables::TableKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("cost-model.json");
    let Ok(model) = CostModel::parse(path, text) else {
        return;
    };
    let saved = serde_json::to_string_pretty(&model).expect("a model serialises") + "\n";
    let again = CostModel::parse(path, &saved).expect("a saved model parses");
    assert_eq!(again, model, "{text:?} saved as {saved:?}");
    let machine = Machine {
        memory: 24 << 30,
        available_memory: 20 << 30,
        free_disk: 100 << 30,
        cores: 2,
    };
    let kalah = TableKind {
        game: Game::Kalah {
            capture: Capture::Empty,
            sweep: Sweep::Owner,
        },
        pits: 6,
    };
    let oware = TableKind {
        game: Game::Oware {
            rules: OwareRules::Awari,
        },
        pits: 6,
    };
    let asks = [
        (kalah, 48, None, TableChoice::Auto),
        (kalah, 72, Some(20), TableChoice::Auto),
        (kalah, 36, None, TableChoice::Seeds(12)),
        (oware, 14, Some(8), TableChoice::Auto),
    ];
    for (kind, seeds, present, choice) in asks {
        if let Ok(plan) = plan_solve(kind, seeds, present, choice, None, &machine, &model) {
            assert!(plan.build_seconds >= 0.0, "{plan:?}");
            assert!(plan.search_seconds.is_none_or(|s| s >= 0.0), "{plan:?}");
            let _ = plan.describe();
        }
    }
    for n in [0, 10, 20] {
        assert!(model.build_seconds(kalah, 0, n, 2) >= 0.0);
        assert!(model.build_seconds(oware, 0, n, 16) >= 0.0);
    }
    assert!(model.copy_seconds(1 << 30) >= 0.0);
});
