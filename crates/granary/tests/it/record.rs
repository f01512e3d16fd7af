//! Game records: what is written reads back the same over random games of every variant (with
//! random marks, comments and tags), a hand-written record reads as meant, each bad record is
//! refused with one line naming its line and column, and a review written back reads again.

use granary::bao::generate;
use granary::game::GameMove;
use granary::record::{GameRecord, Mark, RecordErrorKind, Tag};
use granary::{AnyGame, GameName, Record, Setup, Side, Status, Tablebase};
use proptest::prelude::*;

/// A small generator of choices from one seed (the games are drawn from it, so a failing seed
/// replays).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Text of any characters a person may write: braces, quotes, backslashes, line breaks
    /// (`one_line`: none of those control characters) and letters beyond ASCII.
    fn text(&mut self, one_line: bool) -> String {
        const PIECES: [&str; 14] = [
            "a", "good", " ", "}", "{", "\\", "\"", "]", "[", "é", "ñandú", "S3", "\n", "\t",
        ];
        let n = self.below(6);
        (0..n)
            .map(|_| *self.pick(&PIECES))
            .filter(|p| !one_line || !p.chars().any(char::is_control))
            .collect()
    }
}

/// Options of a random variant of `game`, some given and some left to their defaults.
fn random_setup(d: &mut Draw, game: GameName) -> Setup {
    let mut setup = Setup::default();
    match game {
        GameName::Kalah | GameName::Oware => {
            if d.chance(2) {
                setup.pits = Some(1 + d.below(6));
            }
            if d.chance(2) {
                setup.seeds = Some(1 + d.below(4) as u32);
            }
            if d.chance(4) {
                setup.seeds = setup.seeds.or(Some(4));
                setup.pits = setup.pits.or(Some(6));
            }
            let rules: &[&str] = if game == GameName::Kalah {
                &["empty", "standard"]
            } else {
                &["abapa", "awari"]
            };
            if d.chance(2) {
                setup.rules = Some(d.pick(rules).to_string());
            }
            if game == GameName::Kalah && d.chance(2) {
                setup.sweep = Some(d.pick(&["owner", "emptied"]).to_string());
            }
        }
        GameName::Bao => {
            let rules = *d.pick(&["kiswahili", "kujifunza", "malawi"]);
            setup.rules = Some(rules.into());
            if d.chance(2) {
                setup.takasia = Some(d.pick(&["kiba", "off"]).to_string());
            }
            if rules != "kujifunza" && d.chance(2) {
                setup.nyumba = Some(d.pick(&["emptied", "below6", "namua"]).to_string());
            }
            if rules != "kujifunza" && d.chance(2) {
                setup.tax = Some(d.pick(&["last-resort", "always"]).to_string());
            }
        }
    }
    setup
}

/// Legal moves of a random game of `any` from its start, up to `limit` plies or the end.
fn random_moves(d: &mut Draw, any: &AnyGame, limit: usize) -> Vec<GameMove> {
    let mut moves = Vec::new();
    match any {
        AnyGame::Mancala(m) => {
            let engine = m.variant.engine();
            let mut record = Record::new(&engine, m.position);
            while moves.len() < limit && record.status() == Status::Ongoing {
                let legal: Vec<usize> = (1..=m.variant.pits)
                    .filter(|&p| record.clone().play(p).is_ok())
                    .collect();
                let pit = *d.pick(&legal);
                record.play(pit).unwrap();
                moves.push(GameMove::Pit(pit));
            }
        }
        AnyGame::Bao(rules, start) => {
            let mut pos = *start;
            while moves.len() < limit {
                let legal = generate(rules, &pos);
                if legal.legal.is_empty() || pos.front_seeds(pos.to_move) == 0 {
                    break;
                }
                let (mv, child) = *d.pick(&legal.legal);
                moves.push(GameMove::Bao(mv.text(pos.to_move == Side::North)));
                pos = child;
            }
        }
    }
    moves
}

/// A random record of `game`: a random variant, perhaps a start after some moves, a random
/// game, marks, comments and tags.
fn random_record(seed: u64, game: GameName) -> GameRecord {
    let mut d = Draw(seed);
    let setup = random_setup(&mut d, game);
    let start = setup.any(game, None).unwrap();
    let position = if d.chance(3) {
        let n = 1 + d.below(6);
        let lead = random_moves(&mut d, &start, n);
        Some(replayed(&start, &lead).position_text())
    } else {
        None
    };
    let any = setup.any(game, position.as_deref()).unwrap();
    let n = d.below(40);
    let moves = random_moves(&mut d, &any, n);
    let mut record = GameRecord::new(game, &setup, position.as_deref(), &moves).unwrap();
    for _ in 0..d.below(3) {
        let tag = *d.pick(&[Tag::Event, Tag::Site, Tag::Date, Tag::South, Tag::North]);
        let value = d.text(true);
        record.set_tag(tag, &value).unwrap();
    }
    for _ in 0..d.below(3) {
        let text = d.text(false);
        record.comments.push(text);
    }
    for mv in record.moves_mut() {
        if d.chance(4) {
            mv.mark = Some(*d.pick(&Mark::ALL));
        }
        for _ in 0..usize::from(d.chance(4)) + usize::from(d.chance(8)) {
            mv.comments.push(d.text(false));
        }
    }
    record
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
    fn a_record_reads_what_it_writes(seed in any::<u64>(), game in 0..3usize) {
        let record = random_record(seed, GameName::ALL[game]);
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
    // An illegal move is typed: its ply and its text.
    let err =
        GameRecord::read("[Game \"oware\"] [Pits \"2\"] [Seeds \"1\"]\nS1 N1 S1").unwrap_err();
    assert!(
        matches!(&err.kind, RecordErrorKind::Move { ply: 3, text, .. } if text == "S1"),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "line 2, column 7: ply 3, 'S1': pit 1 is empty"
    );
}

/// A review written back into a record reads again, carries every ply's figures in its
/// comments and marks exactly the plies that lost seeds; a second review replaces the first.
#[test]
fn a_review_written_back_reads_again() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let setup = Setup {
        pits: Some(4),
        seeds: Some(2),
        rules: Some("awari".into()),
        ..Setup::default()
    };
    let any = setup.any(GameName::Oware, None).unwrap();
    let AnyGame::Mancala(game) = any else {
        panic!("oware")
    };
    granary::build(&tb, game.kind(), 16, Some(2), None, &()).unwrap();
    for seed in 0..20 {
        let mut d = Draw(seed);
        let moves = random_moves(&mut d, &any, 30);
        let mut record = GameRecord::new(GameName::Oware, &setup, None, &moves).unwrap();
        record.comments.push("kept".into());
        record.moves_mut()[0].comments.push("mine".into());
        record.moves_mut()[0].mark = Some(Mark::Mistake);
        let review = tb
            .review_game(record.game(), &record.game_moves(), 0.0, None, &())
            .unwrap();
        let reviewed = record.with_review(&review);
        let text = reviewed.to_string();
        let read = GameRecord::read(&text).unwrap();
        assert_eq!(read, reviewed);
        assert_eq!(read.comments[0], "kept");
        assert!(read.comments[1].starts_with("review: oware-4-awari tables; south: "));
        for (mv, ply) in read.moves().iter().zip(&review.plies) {
            let e = ply.exact().unwrap();
            let review_comment = mv.comments.last().unwrap();
            assert!(
                review_comment.starts_with(&format!(
                    "review: value {:+}, played {:+}, loss {}, best ",
                    e.value, e.played, e.loss
                )),
                "{review_comment}"
            );
            let mark = match (e.changed, e.loss > 0) {
                (true, _) => Some(Mark::Blunder),
                (false, true) => Some(Mark::Mistake),
                _ => None,
            };
            assert_eq!(mv.mark, mark, "ply {}", ply.ply);
        }
        assert_eq!(read.moves()[0].comments[0], "mine");
        // Reviewed again: the same record, no comment doubled.
        assert_eq!(read.with_review(&review), reviewed);
    }
}

/// A Bao game reviews move by move with no value anywhere, each ply saying why.
#[test]
fn a_bao_game_reviews_without_values() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::new(dir.path());
    let record = random_record(7, GameName::Bao);
    let review = tb
        .review_game(record.game(), &record.game_moves(), 10.0, None, &())
        .unwrap();
    assert_eq!(review.tables, None);
    assert_eq!(review.plies.len(), record.moves().len());
    for (ply, mv) in review.plies.iter().zip(record.moves()) {
        assert!(ply.exact().is_none());
        assert_eq!((&ply.mv, ply.side), (mv.mv(), mv.side()));
    }
    let json = serde_json::to_value(&review).unwrap();
    if let Some(first) = json["plies"].get(0) {
        assert_eq!(first["answer"], "beyond");
        assert!(first["move"].is_string());
        assert!(first.get("value").is_none());
    }
}
