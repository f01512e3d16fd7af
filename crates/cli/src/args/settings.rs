//! What the command-line flags mean to the library: a [`Setup`] and the game's name, the
//! position to start from, the table directory, a solve's [`granary::Settings`], the side a
//! person plays, and sizes such as `--memory 4G`.

use granary::{Setup, Side, TableChoice};

use super::{DirArgs, GameArgs, GameName, PlayArgs, RuleArgs, TableArgs, VariantArgs};
use crate::error::CliError;

impl DirArgs {
    /// The tables: `--dir`, else `$GRANARY_TABLES`, else `data/tables`.
    pub fn tablebase(&self) -> granary::Tablebase {
        granary::Tablebase::new(
            self.dir
                .clone()
                .unwrap_or_else(granary::tablebase::default_dir),
        )
    }

    /// The tables of a directory that must exist (commands that read what is there: `info`,
    /// `verify`, `serve`); a missing one is the library's one-line error for each
    /// ([`granary::Tablebase::existing`]).
    pub fn existing_tablebase(&self) -> Result<granary::Tablebase, crate::error::CliError> {
        granary::Tablebase::existing(self.tablebase().root())
            .map_err(|e| crate::error::CliError::Failed(e.to_string()))
    }

    /// As [`DirArgs::existing_tablebase`], but the built-in default directory
    /// ([`granary::tablebase::BUILT_IN_DIR`], neither `--dir` nor `$GRANARY_TABLES` given) is
    /// created when missing: a fresh clone's first `granary serve` or `info` works. A directory
    /// the user named must exist.
    pub fn tablebase_creating_default(&self) -> Result<granary::Tablebase, crate::error::CliError> {
        let root = self.tablebase().root().to_path_buf();
        if self.dir.is_none() && root == std::path::Path::new(granary::tablebase::BUILT_IN_DIR) {
            std::fs::create_dir_all(&root).map_err(|e| {
                crate::error::CliError::Failed(format!("{}: cannot create it: {e}", root.display()))
            })?;
        }
        self.existing_tablebase()
    }
}

impl TableArgs {
    /// The library's settings for these flags.
    pub fn settings(&self, threads: Option<usize>, all_moves: bool) -> granary::Settings {
        granary::Settings {
            tables: match (self.no_tables, self.table_seeds) {
                (true, _) => TableChoice::None,
                (false, Some(n)) => TableChoice::Seeds(n),
                (false, None) => TableChoice::Auto,
            },
            hash_mib: self.hash,
            threads,
            all_moves,
            verify: self.verify,
            journal: None,
            tick_seconds: None,
            in_memory: self.tables_in_memory,
            cost_model: None,
        }
    }
}

/// A count (pits, seeds): digits; a negative number or garbage is refused in words, not with
/// clap's tip to write `-- -3` or the range of the integer type.
pub fn parse_count<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    let t = text.trim();
    if t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) && t.len() > 1 {
        return Err(format!("{t} is negative: give a count, 0 or more"));
    }
    let n: u64 = t
        .parse()
        .map_err(|_| format!("`{t}` is not a count: give digits, e.g. 4"))?;
    T::try_from(n).map_err(|_| format!("{n} is far too large"))
}

/// A size in bytes: digits, then optionally `K`, `M`, `G` or `T` (powers of 1024; a trailing
/// `B` or `iB` is allowed).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    let digits = upper.trim_end_matches("IB").trim_end_matches('B');
    let (number, shift) = match digits.chars().last() {
        Some('K') => (&digits[..digits.len() - 1], 10),
        Some('M') => (&digits[..digits.len() - 1], 20),
        Some('G') => (&digits[..digits.len() - 1], 30),
        Some('T') => (&digits[..digits.len() - 1], 40),
        _ => (digits, 0),
    };
    let bad = || format!("`{text}` is not a size: digits and a unit, e.g. 64M or 4G");
    let n: u64 = number.trim().parse().map_err(|_| bad())?;
    let bytes = n.checked_mul(1 << shift).ok_or_else(bad)?;
    if bytes < 1 << 20 {
        return Err(format!("`{text}`: give at least 1M of memory"));
    }
    Ok(bytes)
}

/// A memory size as [`parse_size`] reads it, or `0` for none.
pub fn parse_size_or_none(text: &str) -> Result<u64, String> {
    if text.trim() == "0" {
        return Ok(0);
    }
    parse_size(text)
}

impl RuleArgs {
    /// What the user wrote, for the library to check.
    pub fn setup(&self, seeds: Option<u32>) -> Setup {
        Setup {
            pits: self.pits,
            seeds,
            rules: self.rules.clone(),
            sweep: self.sweep.clone(),
            nyumba: self.nyumba.clone(),
            takasia: self.takasia.clone(),
            tax: self.tax.clone(),
        }
    }
}

impl GameName {
    /// The library's name of the game.
    pub fn library(self) -> granary::GameName {
        match self {
            GameName::Kalah => granary::GameName::Kalah,
            GameName::Oware => granary::GameName::Oware,
            GameName::Bao => granary::GameName::Bao,
        }
    }
}

impl GameArgs {
    /// What the user wrote, for the library to check.
    pub fn setup(&self, seeds: Option<u32>) -> Setup {
        self.options.setup(seeds)
    }

    /// The library's name of the game.
    pub fn name(&self) -> granary::GameName {
        self.game.library()
    }

    /// The two-row game (Kalah or Oware) for a `position`, which must be given.
    pub fn mancala(&self, position: &str) -> Result<granary::Mancala, CliError> {
        Ok(self.setup(None).mancala(self.name(), Some(position))?)
    }

    /// The table kind of a two-row game (`--pits`, default 6), checked as every front end's is
    /// ([`Setup::table_kind`]).
    pub fn kind(&self) -> Result<granary::TableKind, CliError> {
        Ok(self.setup(None).table_kind(self.name())?)
    }
}

impl VariantArgs {
    /// The two-row game and the position to start from.
    pub fn mancala(&self) -> Result<granary::Mancala, CliError> {
        Ok(self
            .game
            .setup(self.start.seeds)
            .mancala(self.game.name(), self.start.position.as_deref())?)
    }

    /// Bao's rules and the position to start from.
    pub fn bao(&self) -> Result<(granary::BaoRules, granary::BaoPosition), CliError> {
        Ok(self
            .game
            .setup(self.start.seeds)
            .bao(self.start.position.as_deref())?)
    }

    /// Whether the game is Bao.
    pub fn is_bao(&self) -> bool {
        self.game.game == GameName::Bao
    }
}

impl PlayArgs {
    /// The side the person plays, from `--side`.
    pub fn human(&self) -> Result<Side, CliError> {
        let given = self.side.as_str();
        [Side::South, Side::North]
            .into_iter()
            .find(|side| {
                given == side.name() || given.to_ascii_uppercase() == side.letter().to_string()
            })
            .ok_or_else(|| CliError::Failed(format!("--side '{given}': use south or north")))
    }
}
