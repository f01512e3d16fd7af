//! A game record: the text a person writes by hand and a program keeps ([`GameRecord`]).
//!
//! ```text
//! [Game "kalah"]                      tags: the game, its options, a start position,
//! [Rules "standard"]                  and who played where and when; each at most once,
//! [South "Ada"]                       names in any case
//! {a comment before the first move}
//!
//! S3 S6 N1? {a comment on N1} N4 S2   the moves in order, each with an optional mark
//! ```
//!
//! The grammar (`docs/notation.md`, "Game records", says the same for people):
//!
//! ```text
//! record  = { tag | comment } { move | comment }
//! tag     = "[" NAME space "\"" VALUE "\"" "]"      VALUE one line; \" and \\ escaped
//! comment = "{" TEXT "}"                            any text; \} and \\ escaped
//! move    = [ "S" | "N" ] PIT [ mark ]              Kalah, Oware: the pit, 1 to m
//!         | BAO-MOVE [ mark ]                       Bao: A6R, b2L, A3Ls
//! mark    = "!" | "?" | "!!" | "??" | "!?" | "?!"
//! ```
//!
//! Tokens are separated by white space; a comment may follow a move without it. A comment
//! belongs to the move before it, or to the game when no move comes before it.
//!
//! **Extra turns.** The moves are the plies in the order played, whatever the side: a Kalah
//! player whose last seed falls into their own store moves again, and their two moves stand
//! one after the other (`S3 S6`). A move may name its side (`S3`, `N1`); it is then checked
//! against the side to move, which catches a record that missed an extra turn. Without the
//! letter the side to move is meant. Records are written with it.
//!
//! A record is checked whole when it is read: every tag known and every option one the game
//! has, every move legal where it stands (the rules of play: Oware's majority and repetition
//! end a game, and a move after the end is refused). Anything else is refused with one line
//! that names the line and the column ([`RecordError`]). It reads what it writes.
//!
//! - `read`: the text to a record ([`GameRecord::read`]);
//! - `write`: a record to its text (`Display`), and a review written back into its comments
//!   ([`GameRecord::with_review`]);
//! - `replay`: moves checked one after the other, for any game ([`MoveFault`]: why one cannot
//!   be played);
//! - `reviewed`: a record reviewed through the one entry point every front end takes
//!   ([`crate::Tablebase::review_record`], [`RecordReview`]);
//! - `error`: why a text is not a record ([`RecordError`]).

mod error;
mod read;
mod replay;
mod reviewed;
mod write;

use granary_rules::Side;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

pub use crate::mark::Mark;
pub use error::{RecordError, RecordErrorKind};
pub use replay::MoveFault;
pub use reviewed::RecordReview;

use crate::error::InputError;
use crate::game::{AnyGame, GameMove, GameName, Setup};
use replay::Replay;

/// A tag's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    /// `kalah`, `oware` or `bao`: every record has it.
    Game,
    Pits,
    Seeds,
    Rules,
    Sweep,
    Nyumba,
    Takasia,
    Tax,
    /// The start position in the game's notation; the game's start when absent.
    Position,
    Event,
    Site,
    Date,
    Round,
    /// Who played South.
    South,
    /// Who played North.
    North,
    Annotator,
}

impl Tag {
    /// Every tag, in the order a record written from options lists them.
    pub const ALL: [Tag; 16] = [
        Tag::Game,
        Tag::Pits,
        Tag::Seeds,
        Tag::Rules,
        Tag::Sweep,
        Tag::Nyumba,
        Tag::Takasia,
        Tag::Tax,
        Tag::Position,
        Tag::Event,
        Tag::Site,
        Tag::Date,
        Tag::Round,
        Tag::South,
        Tag::North,
        Tag::Annotator,
    ];

    /// The name as written.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Tag::Game => "Game",
            Tag::Pits => "Pits",
            Tag::Seeds => "Seeds",
            Tag::Rules => "Rules",
            Tag::Sweep => "Sweep",
            Tag::Nyumba => "Nyumba",
            Tag::Takasia => "Takasia",
            Tag::Tax => "Tax",
            Tag::Position => "Position",
            Tag::Event => "Event",
            Tag::Site => "Site",
            Tag::Date => "Date",
            Tag::Round => "Round",
            Tag::South => "South",
            Tag::North => "North",
            Tag::Annotator => "Annotator",
        }
    }

    /// The tag named `name`, in any case.
    #[must_use]
    pub fn named(name: &str) -> Option<Tag> {
        Tag::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// Whether the tag says what game is played (the game, an option, the start), rather than
    /// who played it where.
    #[must_use]
    pub const fn is_game(self) -> bool {
        matches!(
            self,
            Tag::Game
                | Tag::Pits
                | Tag::Seeds
                | Tag::Rules
                | Tag::Sweep
                | Tag::Nyumba
                | Tag::Takasia
                | Tag::Tax
                | Tag::Position
        )
    }
}

/// One move of a record: who played it, the move, and what is written beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    side: Side,
    mv: GameMove,
    /// The move's mark, if any.
    pub mark: Option<Mark>,
    /// The comments after the move, in order, each as written between the braces.
    pub comments: Vec<String>,
}

impl RecordMove {
    /// Who played the move.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The move.
    #[must_use]
    pub fn mv(&self) -> &GameMove {
        &self.mv
    }
}

/// A game as a record: its tags, the game they name, comments, and the moves, every one legal.
///
/// The tags and the moves are checked when a record is made ([`GameRecord::read`],
/// [`GameRecord::new`]) and cannot be changed into something illegal after; marks, comments
/// and the tags that name no rule ([`GameRecord::set_tag`]) can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    tags: Vec<(Tag, String)>,
    game: AnyGame,
    /// The comments before the first move, each as written between the braces.
    pub comments: Vec<String>,
    moves: Vec<RecordMove>,
}

impl GameRecord {
    /// The record of `moves` played in `game` (named with `setup`'s options, at its start or
    /// the written `position`): tags for the game and every option given, no comments.
    ///
    /// # Errors
    /// Options or a position the game cannot hold, as [`Setup::any`]; the first move that
    /// cannot be played ([`InputError::Move`]).
    pub fn new(
        game: GameName,
        setup: &Setup,
        position: Option<&str>,
        moves: &[GameMove],
    ) -> Result<GameRecord, InputError> {
        let any = setup.any(game, position)?;
        let mut tags = vec![(Tag::Game, game.name().to_string())];
        let options = [
            (Tag::Pits, setup.pits.map(|p| p.to_string())),
            (Tag::Seeds, setup.seeds.map(|s| s.to_string())),
            (Tag::Rules, setup.rules.clone()),
            (Tag::Sweep, setup.sweep.clone()),
            (Tag::Nyumba, setup.nyumba.clone()),
            (Tag::Takasia, setup.takasia.clone()),
            (Tag::Tax, setup.tax.clone()),
            (Tag::Position, position.map(|_| any.position_text())),
        ];
        tags.extend(
            options
                .into_iter()
                .filter_map(|(tag, value)| value.map(|v| (tag, v))),
        );
        let mut engine = None;
        let mut replay = Replay::start(&any, &mut engine);
        let mut played = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let (side, mv) = replay
                .play(&mv.to_string())
                .map_err(|fault| InputError::Move {
                    number: i + 1,
                    pit: mv.pit(),
                    reason: fault.to_string(),
                })?;
            played.push(RecordMove {
                side,
                mv,
                mark: None,
                comments: Vec::new(),
            });
        }
        Ok(GameRecord {
            tags,
            game: any,
            comments: Vec::new(),
            moves: played,
        })
    }

    /// The game the tags name, at the position the moves start from.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The tags in the order written.
    #[must_use]
    pub fn tags(&self) -> &[(Tag, String)] {
        &self.tags
    }

    /// The value of `tag`, if given.
    #[must_use]
    pub fn tag(&self, tag: Tag) -> Option<&str> {
        self.tags
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag that names no rule (`Event`, `South`, ...), replacing its value or adding it
    /// at the end.
    ///
    /// # Errors
    /// A tag that names the game, an option or the start (fixed when the record is made), or
    /// a value that is not one line of text.
    pub fn set_tag(&mut self, tag: Tag, value: &str) -> Result<(), InputError> {
        if tag.is_game() {
            return Err(InputError::Value(format!(
                "tag {} names the game; a record's game is fixed when it is made",
                tag.name()
            )));
        }
        if value.chars().any(char::is_control) {
            return Err(InputError::Value(format!(
                "tag {}: a value is one line of text",
                tag.name()
            )));
        }
        match self.tags.iter_mut().find(|(t, _)| *t == tag) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((tag, value.to_string())),
        }
        Ok(())
    }

    /// The moves in order.
    #[must_use]
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// The moves, their marks and comments open to change.
    pub fn moves_mut(&mut self) -> &mut [RecordMove] {
        &mut self.moves
    }

    /// The moves alone, as a review takes them.
    #[must_use]
    pub fn game_moves(&self) -> Vec<GameMove> {
        self.moves.iter().map(|m| m.mv.clone()).collect()
    }
}

/// A game named in full, as the JSON front ends take one: the game, every option written out,
/// the start position and the moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Described {
    pub game: GameName,
    #[serde(flatten)]
    pub setup: Setup,
    pub position: String,
    pub moves: Vec<GameMove>,
}

impl GameRecord {
    /// The game, its options (every one written out), start and moves.
    #[must_use]
    pub fn described(&self) -> Described {
        Described {
            game: self.game.name(),
            setup: self.game.setup(),
            position: self.game.position_text(),
            moves: self.game_moves(),
        }
    }
}

/// The tags as a JSON object, in the record's order.
struct Tags<'a>(&'a [(Tag, String)]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (tag, value) in self.0 {
            map.serialize_entry(tag.name(), value)?;
        }
        map.end()
    }
}

impl Serialize for RecordMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("RecordMove", 4)?;
        m.serialize_field("side", self.side.name())?;
        m.serialize_field("move", &self.mv)?;
        m.serialize_field("mark", &self.mark)?;
        m.serialize_field("comments", &self.comments)?;
        m.end()
    }
}

/// In JSON: `game` ([`Described`]: the game in full), `tags` (an object in the record's
/// order), `comments`, `moves` (each `side`, `move`, `mark` or null, `comments`) and `text`
/// (the record written out).
impl Serialize for GameRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("GameRecord", 5)?;
        m.serialize_field("game", &self.described())?;
        m.serialize_field("tags", &Tags(&self.tags))?;
        m.serialize_field("comments", &self.comments)?;
        m.serialize_field("moves", &self.moves)?;
        m.serialize_field("text", &self.to_string())?;
        m.end()
    }
}
