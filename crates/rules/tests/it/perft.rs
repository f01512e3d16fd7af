//! Perft counts of `data/perft/*.csv`: every row against the packed engine, and the rows small
//! enough against the plain reference implementation, which establishes them independently.

use granary_rules::notation::parse_position;
use granary_rules::perft::perft;
use granary_rules::reference::{RefPosition, Reference};
use granary_rules::{Game, Variant};

/// Rows up to this many nodes are also counted by the (slow) reference implementation.
const REFERENCE_LIMIT: u64 = 300_000;

/// Rows of more nodes are the deep ones: Oware's (about 1e9 nodes, 25 s on 2 cores) are counted
/// by a slow test (`--ignored`).
const DEEP: u64 = 30_000_000;

struct Row {
    line: String,
    variant: Variant,
    position: Option<String>,
    depth: u32,
    nodes: u64,
}

fn rows(file: &str) -> Vec<Row> {
    let path = format!("{}/../../data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game,pits,seeds,rules,sweep,position,depth,nodes")
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            // The position field itself holds commas: the columns around it are fixed.
            let (head, tail) = (&f[..5], &f[f.len() - 2..]);
            let position = f[5..f.len() - 2].join(",");
            let game = match head[0] {
                "kalah" => Game::Kalah {
                    capture: head[3].parse().unwrap(),
                    sweep: head[4].parse().unwrap(),
                },
                "oware" => Game::Oware {
                    rules: head[3].parse().unwrap(),
                },
                other => panic!("unknown game {other}"),
            };
            Row {
                line: line.to_string(),
                variant: Variant::new(game, head[1].parse().unwrap(), head[2].parse().unwrap())
                    .unwrap(),
                position: (position != "-").then_some(position),
                depth: tail[0].parse().unwrap(),
                nodes: tail[1].parse().unwrap(),
            }
        })
        .collect()
}

/// Checks the rows of `file` that are `deep` (more than [`DEEP`] nodes) or not.
fn check(file: &str, deep: bool) {
    let rows = rows(file);
    assert!(rows.len() > 50, "{file} has too few rows");
    let mut by_reference = 0;
    let mut checked = 0;
    for row in rows.iter().filter(|row| (row.nodes > DEEP) == deep) {
        checked += 1;
        let m = row.variant.pits;
        let pos = match &row.position {
            Some(text) => parse_position(text, Some(m)).unwrap().0,
            None => row.variant.start(),
        };
        assert_eq!(
            perft(&row.variant.engine(), &pos, row.depth),
            row.nodes,
            "packed: {}",
            row.line
        );
        if row.nodes <= REFERENCE_LIMIT {
            let reference = Reference::new(row.variant.game, m);
            let pits: Vec<u32> = pos.absolute_pits(m).into_iter().map(u32::from).collect();
            let ref_pos = RefPosition {
                pits: [pits[..m].to_vec(), pits[m..].to_vec()],
                stores: pos.absolute_stores().map(u32::from),
                to_move: pos.to_move,
            };
            assert_eq!(
                reference.perft(&ref_pos, row.depth),
                row.nodes,
                "reference: {}",
                row.line
            );
            by_reference += 1;
        }
    }
    assert!(checked > 0, "{file}: no row with deep = {deep}");
    assert!(
        deep || by_reference * 2 > rows.len(),
        "{file}: most rows must be checked by the reference"
    );
}

/// Kalah's deep rows take a few seconds: all of them run here.
#[test]
fn kalah_perft() {
    check("kalah.csv", false);
    check("kalah.csv", true);
}

#[test]
fn oware_perft() {
    check("oware.csv", false);
}

#[test]
#[ignore = "slow (about 25 s on 2 cores): .ci/run runs it, or cargo test -- --ignored"]
fn oware_perft_deep() {
    check("oware.csv", true);
}
