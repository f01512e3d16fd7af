//! Game records: what is written reads back the same over random games of every variant (with
//! random marks, comments and tags), and a hand-written record reads as meant. Bad records:
//! `record_errors.rs`.

use granary::bao::generate;
use granary::game::GameMove;
use granary::record::{GameRecord, Mark, Tag};
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
