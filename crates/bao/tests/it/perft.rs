//! Perft counts of `data/perft/bao.csv` (every rule set and option, the start and the KIBA
//! diagrams' positions), against the engine. Regenerate with `scripts/perft-table.sh`.
//! The rows of up to 200,000 nodes are also counted by the plain implementation of
//! `tests/it/common/reference.rs` (`tests/it/reference_vs_engine.rs`), which establishes them
//! independently; the rules themselves are pinned by `tests/it/kiba.rs`.

use granary_bao::notation::parse_position;
use granary_bao::perft::{divide, perft};
use granary_bao::{BaoRules, Position};

#[test]
fn bao_perft() {
    let path = format!("{}/../../data/perft/bao.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("rules,nyumba,takasia,tax,position,depth,nodes")
    );
    let mut rows = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        // The position field holds commas itself: the columns around it are fixed.
        let (head, tail) = (&f[..4], &f[f.len() - 2..]);
        let position = f[4..f.len() - 2].join(",");
        let mut rules = BaoRules::new(head[0].parse().unwrap());
        if head[1] != "-" {
            rules.nyumba = head[1].parse().unwrap();
            rules.tax = head[3].parse().unwrap();
        }
        rules.takasia = head[2].parse().unwrap();
        let pos = if position == "-" {
            Position::start(&rules)
        } else {
            parse_position(&position, &rules).unwrap()
        };
        let depth: u32 = tail[0].parse().unwrap();
        let nodes: u64 = tail[1].parse().unwrap();
        assert_eq!(perft(&rules, &pos, depth), nodes, "{line}");
        rows += 1;
    }
    assert!(rows >= 100, "bao.csv has {rows} rows");
}

#[test]
fn divide_sums_to_perft() {
    let rules = BaoRules::default();
    let start = Position::start(&rules);
    let split = divide(&rules, &start, 8);
    assert_eq!(split.len(), 4);
    assert_eq!(
        split.iter().map(|(_, n)| n).sum::<u64>(),
        perft(&rules, &start, 8)
    );
}
