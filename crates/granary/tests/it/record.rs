//! Game records: what is written reads back the same over random games of every variant (with
//! random marks, comments and tags), a hand-written record reads as meant, and each bad record
//! is refused with one line naming its line and column (the tag to blame is the one the error
//! is about).

use granary::bao::generate;
use granary::game::GameMove;
use granary::record::{GameRecord, Mark, MoveFault, RecordErrorKind, Tag};
use granary::{AnyGame, GameName, Record, Setup, Side, Status};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// Pieces of text a person may write: braces, quotes, backslashes, line breaks and letters
/// beyond ASCII.
static PIECES: [&str; 14] = [
    "a", "good", " ", "}", "{", "\\", "\"", "]", "[", "é", "ñandú", "S3", "\n", "\t",
];

/// Text of up to 5 pieces (`one_line`: none of the control characters).
fn text(one_line: bool) -> impl Strategy<Value = String> {
    vec(select(&PIECES[..]), 0..6).prop_map(move |pieces| {
        pieces
            .into_iter()
            .filter(|p| !one_line || !p.chars().any(char::is_control))
            .collect()
    })
}

/// Options of a variant of `game`, each given or left to its default.
fn setup(game: GameName) -> BoxedStrategy<Setup> {
    match game {
        GameName::Kalah | GameName::Oware => {
            let rules = if game == GameName::Kalah {
                vec!["empty", "standard"]
            } else {
                vec!["abapa", "awari"]
            };
            (
                option::of(1..=6usize),
                option::of(1..=4u32),
                option::of(select(rules)),
                option::of(select(vec!["owner", "emptied"])),
            )
                .prop_map(move |(pits, seeds, rules, sweep)| Setup {
                    pits,
                    seeds,
                    rules: rules.map(String::from),
                    sweep: sweep.filter(|_| game == GameName::Kalah).map(String::from),
                    ..Setup::default()
                })
                .boxed()
        }
        GameName::Bao => (
            select(vec!["kiswahili", "kujifunza", "malawi"]),
            option::of(select(vec!["kiba", "off"])),
            option::of(select(vec!["emptied", "below6", "namua"])),
            option::of(select(vec!["last-resort", "always"])),
        )
            .prop_map(|(rules, takasia, nyumba, tax)| {
                // Kujifunza has no nyumba, and so no nyumba options.
                let nyumba_options = rules != "kujifunza";
                Setup {
                    rules: Some(rules.into()),
                    takasia: takasia.map(String::from),
                    nyumba: nyumba.filter(|_| nyumba_options).map(String::from),
                    tax: tax.filter(|_| nyumba_options).map(String::from),
                    ..Setup::default()
                }
            })
            .boxed(),
    }
}

/// Legal moves of a game of `any` from its start, up to the end: `choose(n)` picks one of the
/// `n` legal moves at each ply (`None`: the game stops there).
pub fn play_choices(
    any: &AnyGame,
    mut choose: impl FnMut(usize) -> Option<usize>,
) -> Vec<GameMove> {
    let mut moves = Vec::new();
    match any {
        AnyGame::Mancala(m) => {
            let engine = m.variant.engine();
            let mut record = Record::new(&engine, m.position);
            while record.status() == Status::Ongoing {
                let legal: Vec<usize> = (1..=m.variant.pits)
                    .filter(|&p| record.clone().play(p).is_ok())
                    .collect();
                let Some(i) = choose(legal.len()) else { break };
                record.play(legal[i]).unwrap();
                moves.push(GameMove::Pit(legal[i]));
            }
        }
        AnyGame::Bao(rules, start) => {
            let mut pos = *start;
            loop {
                let legal = generate(rules, &pos);
                if legal.legal.is_empty() || pos.front_seeds(pos.to_move) == 0 {
                    break;
                }
                let Some(i) = choose(legal.legal.len()) else {
                    break;
                };
                let (mv, child) = legal.legal[i];
                moves.push(GameMove::Bao(mv.text(pos.to_move == Side::North)));
                pos = child;
            }
        }
    }
    moves
}

/// The moves `choices` pick from `any`'s start: each choice taken modulo the legal moves, the
/// game as long as the choices or to its end.
pub fn chosen_moves(any: &AnyGame, choices: &[Index]) -> Vec<GameMove> {
    let mut choices = choices.iter();
    play_choices(any, |n| choices.next().map(|c| c.index(n)))
}

/// A record as drawn: a variant, perhaps a start some moves in, the moves, tags, comments, and
/// each move's mark and comments. Every choice shrinks to a simpler record: fewer moves, the
/// first legal moves, fewer tags, marks and comments.
#[derive(Clone, Debug)]
struct Drawn {
    game: GameName,
    setup: Setup,
    /// The moves to the start position, if it is not the game's start.
    lead: Option<Vec<Index>>,
    moves: Vec<Index>,
    tags: Vec<(Tag, String)>,
    comments: Vec<String>,
    /// Each move's mark and comments, in order (those past the last move unused).
    notes: Vec<(Option<Mark>, Vec<String>)>,
}

fn drawn() -> impl Strategy<Value = Drawn> {
    select(GameName::ALL.to_vec()).prop_flat_map(|game| {
        let tags = vec![Tag::Event, Tag::Site, Tag::Date, Tag::South, Tag::North];
        (
            setup(game),
            option::weighted(1.0 / 3.0, vec(any::<Index>(), 1..=6)),
            vec(any::<Index>(), 0..40),
            vec((select(tags), text(true)), 0..3),
            vec(text(false), 0..3),
            vec(
                (
                    option::weighted(0.25, select(Mark::ALL.to_vec())),
                    vec(text(false), 0..=2),
                ),
                0..40,
            ),
        )
            .prop_map(move |(setup, lead, moves, tags, comments, notes)| Drawn {
                game,
                setup,
                lead,
                moves,
                tags,
                comments,
                notes,
            })
    })
}

impl Drawn {
    /// The record drawn.
    fn record(&self) -> GameRecord {
        let start = self.setup.any(self.game, None).unwrap();
        let position = self
            .lead
            .as_ref()
            .map(|lead| replayed(&start, &chosen_moves(&start, lead)).position_text());
        let any = self.setup.any(self.game, position.as_deref()).unwrap();
        let moves = chosen_moves(&any, &self.moves);
        let mut record =
            GameRecord::new(self.game, &self.setup, position.as_deref(), &moves).unwrap();
        for (tag, value) in &self.tags {
            record.set_tag(*tag, value).unwrap();
        }
        record.comments.extend(self.comments.iter().cloned());
        for (mv, (mark, comments)) in record.moves_mut().iter_mut().zip(&self.notes) {
            mv.mark = *mark;
            mv.comments.extend(comments.iter().cloned());
        }
        record
    }
}

/// The game at the position `moves` reach from `game`'s start.
fn replayed(game: &AnyGame, moves: &[GameMove]) -> AnyGame {
    match *game {
        AnyGame::Mancala(mut m) => {
            let engine = m.variant.engine();
            let mut record = Record::new(&engine, m.position);
            for mv in moves {
                record.play(mv.pit().unwrap()).unwrap();
            }
            m.position = *record.current();
            AnyGame::Mancala(m)
        }
        AnyGame::Bao(rules, mut pos) => {
            for mv in moves {
                let GameMove::Bao(text) = mv else {
                    unreachable!("a bao game's moves are bao's")
                };
                pos = granary::bao::find_move(&rules, &pos, text).unwrap().1;
            }
            AnyGame::Bao(rules, pos)
        }
    }
}

fn cases() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300);
    ProptestConfig::with_cases(cases)
}

proptest! {
    #![proptest_config(cases())]

    /// Every variant's random record reads back as written, and writes the same text again.
    #[test]
    fn a_record_reads_what_it_writes(drawn in drawn()) {
        let record = drawn.record();
        let text = record.to_string();
        let read = GameRecord::read(&text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&read, &record, "{}", text);
        prop_assert_eq!(read.to_string(), text);
    }
}

#[test]
fn a_hand_written_record_reads_as_meant() {
    let text = "% not a comment\n";
    assert!(GameRecord::read(text).is_err());
    let text = "[game \"kalah\"]  [Pits \"4\"]\r\n[Seeds \"3\"] [Rules \"standard\"]\n\
                {Kalah(4,3), two\nlines}\n\n2 {South sows into its store}\nS4! 1 n2?? \
                {a \\} brace}\n";
    let record = GameRecord::read(text).unwrap();
    assert_eq!(record.tag(Tag::Game), Some("kalah"));
    assert_eq!(record.comments, vec!["Kalah(4,3), two\nlines".to_string()]);
    let moves: Vec<(Side, String, Option<Mark>)> = record
        .moves()
        .iter()
        .map(|m| (m.side(), m.mv().to_string(), m.mark))
        .collect();
    assert_eq!(
        moves,
        vec![
            (Side::South, "2".into(), None),
            (Side::South, "4".into(), Some(Mark::Good)),
            (Side::North, "1".into(), None),
            (Side::North, "2".into(), Some(Mark::Blunder)),
        ]
    );
    assert_eq!(record.moves()[3].comments, vec!["a } brace".to_string()]);
    // The same game as moves: the record is the game's.
    let setup = Setup {
        pits: Some(4),
        seeds: Some(3),
        rules: Some("standard".into()),
        ..Setup::default()
    };
    assert_eq!(*record.game(), setup.any(GameName::Kalah, None).unwrap());
    // Written in the canonical form: tags a line, the sides named, and read back the same.
    let written = record.to_string();
    assert!(
        written.starts_with("[Game \"kalah\"]\n[Pits \"4\"]\n[Seeds \"3\"]\n[Rules \"standard\"]\n{Kalah(4,3), two\nlines}\n\nS2 {South sows into its store} S4! N1 N2?? {a \\} brace}\n"),
        "{written}"
    );
    assert_eq!(GameRecord::read(&written).unwrap(), record);
    // Bao: its moves as its notation writes them, the case naming the side.
    let bao = GameRecord::read("[Game \"bao\"] [Rules \"kujifunza\"]\n").unwrap();
    let AnyGame::Bao(rules, start) = *bao.game() else {
        panic!("not bao")
    };
    let first = generate(&rules, &start).legal[0].0.text(false);
    let text = format!("[Game \"bao\"] [Rules \"kujifunza\"]\n{first}!?\n");
    let bao = GameRecord::read(&text).unwrap();
    assert_eq!(bao.moves()[0].mv(), &GameMove::Bao(first));
    assert_eq!(bao.moves()[0].mark, Some(Mark::Interesting));
}

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
