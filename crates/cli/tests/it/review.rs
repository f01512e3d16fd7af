//! `granary review`: every ply's figures are what `granary query` answers for the position
//! before the move; the marks, the summaries and the JSON agree; beyond the tables a ply has no
//! number; an illegal move and Bao are refused in one line with exit code 2.

use crate::common::*;

/// Kalah(4,3) empty capture, tables to 24 seeds (the whole game), and a game with mistakes: the
/// first move is the worst, then a mix.
const GAME: [&str; 5] = ["kalah", "--pits", "4", "--seeds", "3"];
const MOVES: &str = "1,2,3,4,1,2,3,4";

#[test]
fn every_ply_is_what_a_query_of_its_position_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), &GAME[..3], 24, 2);
    let mut args = GAME.to_vec();
    args.extend(["--moves", MOVES, "--dir", dir]);
    let mut review_args = vec!["review"];
    review_args.extend(&args);
    review_args.push("--json");
    let review = json(&review_args);
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 8);
    let mut lost = [0, 0];
    for ply in plies {
        let position = ply["position"].as_str().unwrap();
        let mut query_args = vec!["query"];
        query_args.extend(&GAME[..3]);
        query_args.extend([position, "--dir", dir, "--json"]);
        let q = json(&query_args);
        assert_eq!(ply["answer"], "exact", "{ply}");
        assert_eq!(ply["value"], q["value"], "{ply} {q}");
        assert_eq!(ply["best"], q["best"], "{ply} {q}");
        let pit = ply["move"].as_u64().unwrap();
        let played = q["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"].as_u64() == Some(pit))
            .unwrap()["value"]
            .as_i64()
            .unwrap();
        assert_eq!(ply["played"], played, "{ply} {q}");
        let loss = q["value"].as_i64().unwrap() - played;
        assert_eq!(ply["loss"], loss, "{ply}");
        lost[usize::from(ply["side"] == "north")] += loss;
    }
    assert_eq!(review["sides"][0]["lost"], lost[0]);
    assert_eq!(review["sides"][1]["lost"], lost[1]);
    // The first move (pit 1) turns South's win into a loss: marked `??` in the table.
    assert_eq!(plies[0]["changed"], true, "{}", plies[0]);
    review_args.pop();
    let text = ok(&review_args);
    let first = text.lines().nth(2).unwrap();
    assert!(first.contains("?? win to loss"), "{text}");
    let marked = text.lines().filter(|l| l.ends_with("  ?")).count();
    let lossy = plies
        .iter()
        .filter(|p| p["loss"].as_i64() > Some(0) && p["changed"] == false)
        .count();
    assert_eq!(marked, lossy, "{text}");
}

#[test]
fn beyond_the_tables_a_ply_has_no_number() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    // Oware(4,3) awari with tables to 20 seeds: the start (24 seeds) and the plies before a
    // capture are beyond; Oware is answered from tables alone.
    build(
        tmp.path(),
        &["oware", "--rules", "awari", "--pits", "4"],
        20,
        2,
    );
    let review = json(&[
        "review", "oware", "--rules", "awari", "--pits", "4", "--seeds", "3", "--moves", "1,2",
        "--dir", dir, "--json",
    ]);
    for ply in review["plies"].as_array().unwrap() {
        assert_eq!(ply["answer"], "beyond", "{ply}");
        assert!(
            ply["reason"].as_str().unwrap().contains("24 seeds"),
            "{ply}"
        );
        assert!(
            ply.get("value").is_none() && ply.get("loss").is_none(),
            "{ply}"
        );
    }
    assert_eq!(review["sides"][0]["exact"], 0);
}

#[test]
fn an_illegal_move_and_bao_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mut args = vec!["review"];
    args.extend(GAME);
    args.extend(["--moves", "2,9", "--dir", dir]);
    assert_eq!(
        error(&args).trim_end(),
        "granary: error: ply 2: move 9 cannot be played: pit 9 does not exist: pits are \
         numbered 1 to 4"
    );
    assert_eq!(
        error(&["review", "bao", "--moves", "1", "--dir", dir]).trim_end(),
        "granary: error: bao has no endgame tables, so no exact values to query or review; its \
         commands are show, perft, solve and play"
    );
}
