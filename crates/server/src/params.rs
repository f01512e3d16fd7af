//! Query strings (and the options of a JSON body, checked alike): parsed, bounded, and turned
//! into the library's [`Setup`]; every fault is a message for a 400.

use granary::{GameName, Setup};

/// Longest query string accepted, bytes.
pub const MAX_QUERY: usize = 4096;
/// Longest single parameter, bytes.
pub const MAX_VALUE: usize = 1024;

/// The parameters an endpoint may be given (each endpoint reads those of its game and refuses
/// or leaves the rest; the API's description names, for each endpoint, the ones it reads).
pub const KNOWN: [&str; 11] = [
    "game", "pits", "seeds", "rules", "sweep", "nyumba", "takasia", "tax", "position", "moves",
    "ms",
];

/// A request's parameters, checked.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Parses a raw query string: URL-decoded, each parameter known and given once, bounded.
    ///
    /// # Errors
    /// A message naming the parameter at fault.
    pub fn parse(raw: Option<&str>) -> Result<Params, String> {
        let raw = raw.unwrap_or("");
        if raw.len() > MAX_QUERY {
            return Err(format!(
                "the query string is {} bytes; at most {MAX_QUERY}",
                raw.len()
            ));
        }
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
            .map_err(|e| format!("the query string is not URL-encoded pairs: {e}"))?;
        Params::checked(pairs)
    }

    /// Parses a JSON body's options: each value a string or a number (`null` counts as not
    /// given), checked as a query string's parameters are.
    ///
    /// # Errors
    /// A message naming the parameter at fault.
    pub fn from_json(body: &serde_json::Map<String, serde_json::Value>) -> Result<Params, String> {
        let mut pairs = Vec::with_capacity(body.len());
        for (key, value) in body {
            let text = match value {
                serde_json::Value::Null => continue,
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => {
                    return Err(format!(
                        "'{}' is not a string or a number",
                        key.chars().take(40).collect::<String>()
                    ));
                }
            };
            pairs.push((key.clone(), text));
        }
        Params::checked(pairs)
    }

    /// `pairs`, each parameter known and given once, bounded.
    fn checked(pairs: Vec<(String, String)>) -> Result<Params, String> {
        for (i, (key, value)) in pairs.iter().enumerate() {
            if !KNOWN.contains(&key.as_str()) {
                return Err(format!(
                    "unknown parameter '{}'; known: {}",
                    key.chars().take(40).collect::<String>(),
                    KNOWN.join(", ")
                ));
            }
            if pairs[..i].iter().any(|(k, _)| k == key) {
                return Err(format!("parameter '{key}' is given twice"));
            }
            if value.len() > MAX_VALUE {
                return Err(format!(
                    "parameter '{key}' is {} bytes; at most {MAX_VALUE}",
                    value.len()
                ));
            }
        }
        Ok(Params { pairs })
    }

    /// A parameter's value, if given (an empty value counts as not given).
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// A whole-number parameter.
    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, String> {
        self.get(key)
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|_| format!("parameter '{key}': '{v}' is not a whole number"))
            })
            .transpose()
    }

    /// The game (`game=`, required).
    ///
    /// # Errors
    /// Missing or unknown.
    pub fn game(&self) -> Result<GameName, String> {
        self.get("game")
            .ok_or_else(|| "parameter 'game' is missing: kalah, oware or bao".to_string())?
            .parse()
            .map_err(|e: granary::InputError| e.to_string())
    }

    /// The game's options as the library takes them.
    ///
    /// # Errors
    /// A number that is not one.
    pub fn setup(&self) -> Result<Setup, String> {
        let text = |k: &str| self.get(k).map(String::from);
        Ok(Setup {
            pits: self.number("pits")?,
            seeds: self.number("seeds")?,
            rules: text("rules"),
            sweep: text("sweep"),
            nyumba: text("nyumba"),
            takasia: text("takasia"),
            tax: text("tax"),
        })
    }

    /// `moves=` split at commas (none if absent).
    #[must_use]
    pub fn moves(&self) -> Vec<String> {
        self.get("moves").map(split_moves).unwrap_or_default()
    }

    /// A JSON body's moves: an array of pit numbers, or a string of them split at commas (none
    /// if `null`); each still to be read as a pit ([`granary::game::parse_pits`]).
    ///
    /// # Errors
    /// Any other JSON value, or an element that is neither a number nor a string.
    pub fn json_moves(moves: &serde_json::Value) -> Result<Vec<String>, String> {
        use serde_json::Value;
        match moves {
            Value::Null => Ok(Vec::new()),
            Value::String(s) if s.is_empty() => Ok(Vec::new()),
            Value::String(s) => Ok(split_moves(s)),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Number(n) => Ok(n.to_string()),
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(format!("move {}: {item} is not a pit number", i + 1)),
                })
                .collect(),
            _ => Err("'moves' is not an array of pit numbers".to_string()),
        }
    }

    /// `ms=`: the engine's time, 1 to 5,000 ms, default 1,000.
    ///
    /// # Errors
    /// Out of range or not a number.
    pub fn millis(&self) -> Result<u64, String> {
        match self.number::<u64>("ms")? {
            None => Ok(1000),
            Some(ms) if (1..=5000).contains(&ms) => Ok(ms),
            Some(ms) => Err(format!("parameter 'ms': {ms} is out of range 1..=5000")),
        }
    }
}

/// Moves written as a string: split at commas, each trimmed.
fn split_moves(moves: &str) -> Vec<String> {
    moves.split(',').map(|s| s.trim().to_string()).collect()
}
