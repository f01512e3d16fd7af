//! `granary play kalah|oware`: perfect play where the exact reach answers, the engine's moves
//! (labelled as estimates, never as values) beyond it, and the switch from one to the other, a
//! person's moves scripted on stdin. The engine's budget is a time, so these tests check labels
//! and that a game plays on, never a move or a time.

use crate::common::{error, with_input};

/// `granary play args` with `input` on stdin, which must succeed: its stdout and stderr.
fn play(args: &[&str], input: &str) -> (String, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = with_input(&all, input);
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(out.status.success(), "{args:?}: {stderr}");
    (stdout, stderr)
}

/// The lines of `text` that say what granary plays.
fn moves(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.contains("granary plays "))
        .map(|l| &l[l.find("granary plays ").unwrap()..])
        .filter(|l| {
            !l.starts_with("granary plays perfectly") && !l.starts_with("granary plays the")
        })
        .collect()
}

#[test]
fn beyond_the_exact_reach_the_engine_plays_on_with_its_moves_labelled_as_estimates() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Oware(6,4) needs a terabyte of tables, Kalah(6,6)'s search lies beyond the measured
    // range: nothing is built, and granary (South, first) plays the engine's moves. Oware with
    // no tables stays beyond the exact reach to the end; Kalah(6,6) is played a move or two,
    // which keeps it beyond (72 seeds and about as many after).
    for (game, input, least) in [
        (
            &["oware", "--rules", "awari"][..],
            "hint\n1\n2\n3\n4\n5\n6\nquit\n",
            3,
        ),
        (&["kalah", "--seeds", "6"][..], "hint\n1\nquit\n", 1),
    ] {
        let mut args = game.to_vec();
        args.extend_from_slice(&["--side", "north", "--time", "0.05", "--dir", d]);
        let (out, err) = play(&args, input);
        assert!(err.contains("tables: none built ("), "{game:?}: {err}");
        assert!(
            out.contains(
                "beyond the exact reach: granary plays the engine's moves, 0.05 s a move, \
                 estimates not proved ("
            ),
            "{game:?}: {out}"
        );
        assert!(
            out.contains("the engine's estimates for you (~ its estimate, <= at most): "),
            "{game:?}: {out}"
        );
        // The game plays on: granary answers each of the person's legal moves.
        let played = moves(&out);
        assert!(played.len() >= least, "{game:?}: {out}");
        for line in &played {
            assert!(
                line.contains(": estimate ")
                    && !line.contains("value")
                    && !line.contains("perfect"),
                "{game:?}: {line}"
            );
        }
        assert!(!out.contains("move values"), "{game:?}: {out}");
        assert!(
            !out.contains("within the exact reach now"),
            "{game:?}: {out}"
        );
        // No table was built.
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "{game:?}");
    }
}

#[test]
fn play_turns_perfect_once_a_position_is_within_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Oware(4,2) with tables to 6 seeds, from 7 seeds on the board: the engine's estimates
    // first; the person's move 4 captures 2, and granary plays perfectly from there.
    let (out, _) = play(
        &[
            "oware",
            "--pits",
            "4",
            "--seeds",
            "2",
            "--rules",
            "awari",
            "--position",
            "0,0,0,1/1,2,1,2 5-4 S",
            "--table-seeds",
            "6",
            "--time",
            "0.05",
            "--dir",
            d,
        ],
        "hint\n4\nhint\nquit\n",
    );
    let beyond = out
        .find("beyond the exact reach: granary plays the engine's moves")
        .unwrap_or_else(|| panic!("{out}"));
    let estimates = out
        .find("the engine's estimates for you")
        .unwrap_or_else(|| panic!("{out}"));
    let switch = out
        .find("within the exact reach now: granary plays perfectly from here")
        .unwrap_or_else(|| panic!("{out}"));
    let values = out
        .find("move values for you: ")
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        beyond < estimates && estimates < switch && switch < values,
        "{out}"
    );
    let played = moves(&out);
    assert_eq!(played.len(), 1, "{out}");
    assert!(
        played[0].starts_with("granary plays ") && played[0].ends_with(", perfect)"),
        "{out}"
    );
    assert!(played[0].contains("(value "), "{out}");
}

#[test]
fn within_the_exact_reach_granary_plays_perfectly_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (out, err) = play(
        &[
            "kalah", "--pits", "3", "--seeds", "2", "--side", "north", "--dir", d,
        ],
        "hint\n1\nquit\n",
    );
    assert!(err.starts_with("tables: kalah-3-empty-owner"), "{err}");
    assert!(
        out.contains("granary plays perfectly from its tables"),
        "{out}"
    );
    assert!(out.contains("move values for you: "), "{out}");
    let played = moves(&out);
    assert!(!played.is_empty(), "{out}");
    for line in played {
        assert!(
            line.contains("(value ") && line.ends_with(", perfect)"),
            "{line}"
        );
    }
    assert!(!out.contains("beyond the exact reach: "), "{out}");
    assert!(!out.contains("the engine's estimates for you"), "{out}");
}

#[test]
fn a_time_a_move_that_is_not_one_is_refused_in_words() {
    for (time, said) in [("0", "0"), ("nan", "NaN"), ("3601", "3601")] {
        let err = error(&["play", "kalah", "--pits", "3", "--time", time]);
        assert!(
            err.contains(&format!("--time {said}: give seconds a move")),
            "{time}: {err}"
        );
    }
}
