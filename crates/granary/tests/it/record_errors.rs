//! Bad game records: each refused with one line naming its line and column; an illegal move
//! typed, with the rules' or Bao's error as its source; the tag blamed for a game the tags
//! cannot name is the one the error is about.

use granary::Side;
use granary::record::{GameRecord, MoveFault, RecordErrorKind, Tag};

/// Each bad record: the line and column, and the message, one line each.
#[test]
fn bad_records_are_refused_with_line_and_column() {
    let cases: [(&str, &str); 16] = [
        (
            "",
            "line 1, column 1: no Game tag: a record starts with [Game \"kalah\"], [Game \"oware\"] or [Game \"bao\"]",
        ),
        (
            "[Game \"kalah\"]\n[Opening \"x\"]",
            "line 2, column 2: unknown tag 'Opening'; known: Game, Pits, Seeds, Rules, Sweep, Nyumba, Takasia, Tax, Position, Event, Site, Date, Round, South, North, Annotator",
        ),
        (
            "[Game \"kalah\"] [game \"oware\"]",
            "line 1, column 23: tag Game is given twice",
        ),
        (
            "[Game \"chess\"]",
            "line 1, column 8: tag Game: unknown game 'chess': use kalah, oware or bao",
        ),
        (
            "[Game \"kalah\"]\n[Rules \"fast\"]",
            "line 2, column 9: tag Rules: rules: 'fast' is not a kalah capture rule: use empty or standard",
        ),
        (
            "[Game \"oware\"]\n[Sweep \"owner\"]",
            "line 2, column 9: tag Sweep: sweep is a kalah option; oware has none",
        ),
        (
            "[Game \"kalah\"] [Pits \"six\"]",
            "line 1, column 23: tag Pits: 'six' is not a whole number",
        ),
        (
            "[Game \"kalah\"] [Pits \"4\"]\n[Position \"1,2,3/4,5,6\"]",
            "line 2, column 12: tag Position: position has 3 pits a side but pits is 4",
        ),
        (
            "[Game \"kalah\"] [Seeds \"30\"]",
            "line 1, column 24: tag Seeds: seeds 30 with 6 pits a side makes 360 seeds; the packed encoding holds at most 255",
        ),
        (
            "[Game \"kalah\"]\nS3 [Event \"x\"]",
            "line 2, column 4: a tag after the first move; tags come before the moves",
        ),
        (
            "[Game \"kalah\"]\nS3 S7",
            "line 2, column 4: ply 2, 'S7': pit 7 does not exist: pits are numbered 1 to 6",
        ),
        (
            "[Game \"kalah\"]\nS3 N1",
            "line 2, column 4: ply 2, 'N1': it is a move of North, but South is to move",
        ),
        (
            "[Game \"kalah\"] [Pits \"1\"] [Seeds \"1\"]\n1 1",
            "line 2, column 3: ply 2, '1': the game is over (finished): no move follows",
        ),
        (
            "[Game \"kalah\"]\n3.",
            "line 2, column 1: ply 1, '3.': '3.' is not a move: a move is a pit number, after the side if given (3, S3, N1)",
        ),
        (
            "[Game \"kalah\"]\nS3 {open\n\n",
            "line 2, column 4: a comment opened here is not closed with '}'",
        ),
        (
            "[Game \"kalah\n\"]",
            "line 1, column 13: tag Game: its value is not closed with '\"' on its line",
        ),
    ];
    for (text, expected) in cases {
        let err = GameRecord::read(text).unwrap_err();
        assert_eq!(err.to_string(), expected, "{text:?}");
        assert!(!expected.contains('\n'));
    }
    // An illegal move is typed: its ply, its text, and the rules' error as its source.
    let err =
        GameRecord::read("[Game \"oware\"] [Pits \"2\"] [Seeds \"1\"]\nS1 N1 S1").unwrap_err();
    assert!(
        matches!(
            &err.kind,
            RecordErrorKind::Move {
                ply: 3,
                text,
                source: MoveFault::Illegal(granary::MoveError::EmptyPit(1)),
            } if text == "S1"
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "line 2, column 7: ply 3, 'S1': pit 1 is empty"
    );
    // A Bao move: Bao's own error as the source.
    let err = GameRecord::read("[Game \"bao\"] [Rules \"kujifunza\"]\nA6R Z9").unwrap_err();
    assert!(
        matches!(
            &err.kind,
            RecordErrorKind::Move {
                ply: 2,
                source: MoveFault::Bao(granary::bao::BaoMoveError::Syntax(_)),
                ..
            }
        ),
        "{err}"
    );
    let err = GameRecord::read("[Game \"bao\"] [Rules \"kujifunza\"]\nA6R A6R").unwrap_err();
    assert!(
        matches!(
            &err.kind,
            RecordErrorKind::Move {
                source: MoveFault::Bao(granary::bao::BaoMoveError::WrongSide {
                    given: Side::South,
                    to_move: Side::North,
                    ..
                }),
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "line 2, column 5: ply 2, 'A6R': A6R is a pit of South; North is to move (pits a1..b8)"
    );
}

/// The tag blamed for a game the tags cannot name is the one the error is about, whatever
/// other tags its message names.
#[test]
fn the_tag_blamed_is_the_one_the_error_is_about() {
    let cases: [(&str, Tag, &str); 4] = [
        // The message names pits too, and Pits comes first: Seeds is at fault.
        (
            "[Game \"kalah\"] [Pits \"6\"] [Seeds \"30\"]",
            Tag::Seeds,
            "line 1, column 35: tag Seeds: seeds 30 with 6 pits a side makes 360 seeds; the packed encoding holds at most 255",
        ),
        (
            "[Game \"oware\"] [Pits \"4\"] [Sweep \"owner\"]",
            Tag::Sweep,
            "line 1, column 35: tag Sweep: sweep is a kalah option; oware has none",
        ),
        (
            "[Game \"bao\"] [Event \"seeds\"] [Seeds \"4\"]",
            Tag::Seeds,
            "line 1, column 38: tag Seeds: seeds is a kalah/oware option; bao's start is set by its rules",
        ),
        (
            "[Game \"kalah\"] [Event \"nyumba\"] [Takasia \"kiba\"]",
            Tag::Takasia,
            "line 1, column 43: tag Takasia: nyumba, takasia and tax are bao options",
        ),
    ];
    for (text, tag, message) in cases {
        let err = GameRecord::read(text).unwrap_err();
        assert!(
            matches!(&err.kind, RecordErrorKind::Value { tag: t, .. } if *t == tag.name()),
            "{text}: {err}"
        );
        assert_eq!(err.to_string(), message, "{text}");
    }
}
