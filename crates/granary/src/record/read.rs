//! A record's text read: tags, then moves, comments anywhere; every fault at its line and
//! column.

use super::error::{RecordError, RecordErrorKind};
use super::replay::Replay;
use super::{GameRecord, Mark, RecordMove, Tag};
use crate::error::InputError;
use crate::game::{AnyGame, GameName, Setup};

/// A place in the text: line and column, from 1.
type At = (usize, usize);

fn fault(at: At, kind: RecordErrorKind) -> RecordError {
    RecordError {
        line: at.0,
        column: at.1,
        kind,
    }
}

fn syntax(at: At, message: impl Into<String>) -> RecordError {
    fault(at, RecordErrorKind::Syntax(message.into()))
}

/// The text, a character at a time, knowing its line and column.
struct Cursor {
    chars: Vec<char>,
    next: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn new(text: &str) -> Cursor {
        Cursor {
            chars: text.chars().collect(),
            next: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.next).copied()
    }

    fn here(&self) -> At {
        (self.line, self.column)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.next += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Skips spaces and tabs within a line.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }
}

/// A tag as read: its name, value, and where the value starts.
struct TagRead {
    tag: Tag,
    value: String,
    at: At,
}

/// `[Name "value"]`, the cursor on the `[`.
fn tag(c: &mut Cursor) -> Result<TagRead, RecordError> {
    let open = c.here();
    c.bump();
    c.skip_blanks();
    let name_at = c.here();
    let mut name = String::new();
    while let Some(ch) = c
        .peek()
        .filter(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
    {
        name.push(ch);
        c.bump();
    }
    if name.is_empty() {
        return Err(syntax(
            open,
            "a tag is [Name \"value\"], e.g. [Game \"kalah\"]",
        ));
    }
    let tag = Tag::named(&name).ok_or_else(|| fault(name_at, RecordErrorKind::UnknownTag(name)))?;
    let name = tag.name();
    let before = c.here();
    c.skip_blanks();
    if c.here() == before || c.peek() != Some('"') {
        return Err(syntax(
            c.here(),
            format!("tag {name}: expected a space and '\"' before its value"),
        ));
    }
    c.bump();
    let at = c.here();
    let mut value = String::new();
    loop {
        match c.peek() {
            Some('"') => {
                c.bump();
                break;
            }
            Some('\\') => {
                c.bump();
                match c.peek() {
                    Some(e @ ('"' | '\\')) => {
                        value.push(e);
                        c.bump();
                    }
                    _ => value.push('\\'),
                }
            }
            Some(ch) if !ch.is_control() => {
                value.push(ch);
                c.bump();
            }
            _ => {
                return Err(syntax(
                    c.here(),
                    format!("tag {name}: its value is not closed with '\"' on its line"),
                ));
            }
        }
    }
    c.skip_blanks();
    if c.peek() != Some(']') {
        return Err(syntax(c.here(), format!("tag {name}: expected ']'")));
    }
    c.bump();
    Ok(TagRead { tag, value, at })
}

/// `{text}`, the cursor on the `{`.
fn comment(c: &mut Cursor) -> Result<String, RecordError> {
    let open = c.here();
    c.bump();
    let mut text = String::new();
    loop {
        match c.bump() {
            Some('}') => return Ok(text),
            Some('\\') => match c.peek() {
                Some(e @ ('}' | '\\')) => {
                    text.push(e);
                    c.bump();
                }
                _ => text.push('\\'),
            },
            Some(ch) => text.push(ch),
            None => return Err(syntax(open, "a comment opened here is not closed with '}'")),
        }
    }
}

/// A word: a move with its mark.
fn word(c: &mut Cursor) -> String {
    let mut word = String::new();
    while let Some(ch) = c
        .peek()
        .filter(|ch| !ch.is_whitespace() && !matches!(ch, '{' | '}' | '[' | ']' | '"'))
    {
        word.push(ch);
        c.bump();
    }
    word
}

/// A word split into the move and its mark.
fn split_mark(word: &str) -> (&str, Option<Mark>) {
    for mark in [
        Mark::Brilliant,
        Mark::Blunder,
        Mark::Interesting,
        Mark::Dubious,
        Mark::Good,
        Mark::Mistake,
    ] {
        if let Some(mv) = word.strip_suffix(mark.text()) {
            return (mv, Some(mark));
        }
    }
    (word, None)
}

/// The game the tags name; faults at the tag to blame (`end`: where the tags end, for a
/// missing Game tag).
fn resolve(tags: &[TagRead], end: At) -> Result<AnyGame, RecordError> {
    let find = |t: Tag| tags.iter().find(|r| r.tag == t);
    let game_tag = find(Tag::Game).ok_or_else(|| fault(end, RecordErrorKind::NoGame))?;
    let blame = |tag: &TagRead, source: InputError| {
        fault(
            tag.at,
            RecordErrorKind::Value {
                tag: tag.tag.name(),
                source,
            },
        )
    };
    let game: GameName = game_tag.value.parse().map_err(|e| blame(game_tag, e))?;
    let number = |t: Tag| -> Result<Option<u32>, RecordError> {
        find(t)
            .map(|r| {
                r.value.trim().parse::<u32>().map_err(|_| {
                    blame(
                        r,
                        InputError::Value(format!("'{}' is not a whole number", r.value)),
                    )
                })
            })
            .transpose()
    };
    let text = |t: Tag| find(t).map(|r| r.value.clone());
    let setup = Setup {
        pits: number(Tag::Pits)?.map(|p| p as usize),
        seeds: number(Tag::Seeds)?,
        rules: text(Tag::Rules),
        sweep: text(Tag::Sweep),
        nyumba: text(Tag::Nyumba),
        takasia: text(Tag::Takasia),
        tax: text(Tag::Tax),
    };
    let position = find(Tag::Position).map(|r| r.value.as_str());
    setup.any(game, position).map_err(|e| {
        let to_blame = culprit(&e, tags).unwrap_or(game_tag);
        blame(to_blame, e)
    })
}

/// The tag whose value an error of the game's setup is about, as the error says: the option
/// it names, the position, the pits or seeds, the first of the options the game does not have;
/// none (the Game tag is blamed) where the game itself is at fault.
fn culprit<'t>(err: &InputError, tags: &'t [TagRead]) -> Option<&'t TagRead> {
    use granary_rules::VariantError;
    let named = |t: Tag| tags.iter().find(|r| r.tag == t);
    match err {
        InputError::Option { option, .. } => Tag::named(option).and_then(named),
        InputError::Position(_) | InputError::BaoPosition(_) | InputError::Counts(_) => {
            named(Tag::Position)
        }
        InputError::Pits(_) | InputError::Variant(VariantError::Pits(_)) => named(Tag::Pits),
        InputError::Variant(VariantError::Seeds { .. }) => named(Tag::Seeds),
        InputError::NotForGame(not) => tags
            .iter()
            .find(|r| not.options().iter().any(|o| Tag::named(o) == Some(r.tag))),
        InputError::Game(_) | InputError::Move { .. } | InputError::Value(_) => None,
    }
}

impl GameRecord {
    /// Reads a record (the grammar in the module's documentation).
    ///
    /// # Errors
    /// The first fault, with its line and column ([`RecordError`]).
    pub fn read(text: &str) -> Result<GameRecord, RecordError> {
        let mut c = Cursor::new(text);
        let mut tags: Vec<TagRead> = Vec::new();
        let mut comments = Vec::new();
        loop {
            c.skip_space();
            match c.peek() {
                Some('[') => {
                    let read = tag(&mut c)?;
                    if tags.iter().any(|t| t.tag == read.tag) {
                        return Err(fault(read.at, RecordErrorKind::TagTwice(read.tag.name())));
                    }
                    tags.push(read);
                }
                Some('{') => comments.push(comment(&mut c)?),
                _ => break,
            }
        }
        let game = resolve(&tags, c.here())?;
        let mut engine = None;
        let mut replay = Replay::start(&game, &mut engine);
        let mut moves: Vec<RecordMove> = Vec::new();
        loop {
            c.skip_space();
            let at = c.here();
            match c.peek() {
                None => break,
                Some('[') => return Err(fault(at, RecordErrorKind::TagAfterMoves)),
                Some('{') => {
                    let text = comment(&mut c)?;
                    match moves.last_mut() {
                        Some(last) => last.comments.push(text),
                        None => comments.push(text),
                    }
                }
                Some(ch @ ('}' | ']' | '"')) => {
                    return Err(syntax(at, format!("'{ch}' where a move or a comment goes")));
                }
                Some(_) => {
                    let word = word(&mut c);
                    let (text, mark) = split_mark(&word);
                    let (side, mv) = replay.play(text).map_err(|source| {
                        fault(
                            at,
                            RecordErrorKind::Move {
                                ply: moves.len() + 1,
                                text: word.clone(),
                                source,
                            },
                        )
                    })?;
                    moves.push(RecordMove {
                        side,
                        mv,
                        mark,
                        comments: Vec::new(),
                    });
                }
            }
        }
        Ok(GameRecord {
            tags: tags.into_iter().map(|t| (t.tag, t.value)).collect(),
            game,
            comments,
            moves,
        })
    }
}
