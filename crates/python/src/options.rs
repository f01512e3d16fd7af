//! What every function takes from Python beside its own arguments: a game's name and options
//! ([`Options`], a dict with every key), the moves played (pit numbers, or Bao's moves written
//! out: [`MoveArg`]), a search limit in seconds ([`limit`]) and the engine's budget a move
//! ([`budget`]); each checked, a fault raised as `ValueError` in the library's words.

use granary::estimate::Budget;
use granary::game::GameMove;
use granary::record::Tag;
use granary::{GameName, GameRecord, Mancala, Setup};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::input;

/// A game's name and options, as given from Python (a dict with every key).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Options {
    pub(crate) game: String,
    pub(crate) pits: Option<usize>,
    pub(crate) seeds: Option<u32>,
    pub(crate) rules: Option<String>,
    pub(crate) sweep: Option<String>,
    pub(crate) nyumba: Option<String>,
    pub(crate) takasia: Option<String>,
    pub(crate) tax: Option<String>,
}

impl Options {
    pub(crate) fn name(&self) -> PyResult<GameName> {
        self.game.parse().map_err(|e: granary::InputError| input(e))
    }

    pub(crate) fn setup(&self) -> Setup {
        Setup {
            pits: self.pits,
            seeds: self.seeds,
            rules: self.rules.clone(),
            sweep: self.sweep.clone(),
            nyumba: self.nyumba.clone(),
            takasia: self.takasia.clone(),
            tax: self.tax.clone(),
        }
    }

    /// The kind of tables of the Kalah/Oware game with these options, checked as every front
    /// end's is ([`Setup::table_kind`]).
    pub(crate) fn table_kind(&self) -> Result<granary::TableKind, granary::InputError> {
        self.setup().table_kind(self.game.parse()?)
    }

    /// The Kalah/Oware game at `position` after `moves`.
    pub(crate) fn mancala(&self, position: Option<&str>, moves: &[usize]) -> PyResult<Mancala> {
        let start = self
            .setup()
            .mancala(self.name()?, position)
            .map_err(input)?;
        let shown = granary::show::show(&start, moves).map_err(input)?;
        Ok(Mancala {
            variant: start.variant,
            position: shown.pos,
        })
    }
}

/// A move from Python: a pit number (Kalah, Oware) or Bao's move text.
#[derive(FromPyObject)]
pub(crate) enum MoveArg {
    Pit(usize),
    Text(String),
}

impl Options {
    /// The record of `moves` played from `position` (or the start) in the game these options
    /// name, with `tags` (those that name no rule) and `comments` of the game.
    pub(crate) fn record(
        &self,
        position: Option<&str>,
        moves: Vec<MoveArg>,
        tags: Vec<(String, String)>,
        comments: Vec<String>,
    ) -> PyResult<GameRecord> {
        let game = self.name()?;
        let moves: Vec<GameMove> = moves
            .into_iter()
            .map(|m| match m {
                MoveArg::Pit(pit) if game != GameName::Bao => GameMove::Pit(pit),
                MoveArg::Pit(pit) => GameMove::Bao(pit.to_string()),
                MoveArg::Text(text) => GameMove::Bao(text),
            })
            .collect();
        let pits = moves
            .iter()
            .map(GameMove::pit)
            .collect::<Option<Vec<usize>>>();
        if game != GameName::Bao && pits.is_none() {
            return Err(PyValueError::new_err(
                "moves of kalah and oware are pit numbers",
            ));
        }
        let mut record = GameRecord::new(game, &self.setup(), position, &moves).map_err(input)?;
        for (name, value) in tags {
            let tag = Tag::named(&name)
                .ok_or_else(|| PyValueError::new_err(format!("unknown tag '{name}'")))?;
            record.set_tag(tag, &value).map_err(input)?;
        }
        record.comments = comments;
        Ok(record)
    }
}

/// A search limit from Python: seconds, 0 or more (`None`: no limit).
pub(crate) fn limit(search_seconds: Option<f64>) -> PyResult<f64> {
    match search_seconds {
        None => Ok(f64::INFINITY),
        Some(s) if s >= 0.0 && !s.is_nan() => Ok(s),
        Some(s) => Err(PyValueError::new_err(format!(
            "search_seconds: {s} is not a number of seconds, 0 or more (None: no limit)"
        ))),
    }
}

/// The longest time a move the engine is given, seconds.
pub(crate) const MAX_TIME: f64 = 3600.0;

/// The engine's budget from Python: `nodes` (at least 1) where given, else `time` seconds
/// (more than 0 and at most [`MAX_TIME`]); `None` when neither is given or `time` is 0.
pub(crate) fn budget(time: Option<f64>, nodes: Option<u64>) -> PyResult<Option<Budget>> {
    match (nodes, time) {
        (Some(0), _) => Err(PyValueError::new_err(
            "nodes: the engine needs a budget of at least 1 node",
        )),
        (Some(n), _) => Ok(Some(Budget::Nodes(n))),
        (None, None) => Ok(None),
        (None, Some(0.0)) => Ok(None),
        (None, Some(t)) if t > 0.0 && t <= MAX_TIME => {
            Ok(Some(Budget::Time(std::time::Duration::from_secs_f64(t))))
        }
        (None, Some(t)) => Err(PyValueError::new_err(format!(
            "time: {t} is not a time a move: give seconds, more than 0 and at most {MAX_TIME}"
        ))),
    }
}
