//! Query strings and JSON bodies read with serde into each endpoint's request struct (every one
//! `#[serde(deny_unknown_fields)]`, from which the endpoint makes the library's
//! [`granary::Setup`]); every fault is a one-line message naming the parameter at fault, for a
//! 400.
//!
//! What a request may hold: a query string of at most [`MAX_QUERY`] bytes, each value at most
//! [`MAX_VALUE`]; each parameter one that the endpoint takes (the struct's fields), given once;
//! an empty value (in a JSON body, `null`) counts as not given; a number written as a number or
//! as a string. The extractor [`Params`] reads a query string, [`body`] a JSON body's object.
//!
//! Each request struct's schema (`schemars::JsonSchema`) describes the endpoint's parameters in
//! the API's description ([`crate::openapi`]): its games' options with the values, defaults and
//! ranges of the catalogue ([`granary::game::catalogue`]), filled in by [`two_row`], [`any_game`]
//! or [`bao`].

use aide::generate::GenContext;
use aide::openapi::Operation;
use aide::operation::{ParamLocation, add_parameters, parameters_from_schema};
use axum::extract::{FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use granary::GameName;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde::Deserialize as _;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Value, json};

use crate::error::ApiError;

/// Longest query string accepted, bytes.
pub const MAX_QUERY: usize = 4096;
/// Longest single parameter, bytes.
pub const MAX_VALUE: usize = 1024;

/// The parameters the games' endpoints take, together (each endpoint takes those of its
/// request struct and refuses the rest; the API's description names, for each endpoint, the
/// ones it takes).
pub const KNOWN: [&str; 11] = [
    "game", "pits", "seeds", "rules", "sweep", "nyumba", "takasia", "tax", "position", "moves",
    "ms",
];

/// A query string read into `T`; a fault is a 400 naming the parameter.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parse(parts.uri.query(), &endpoint(parts))
            .map(Params)
            .map_err(ApiError::bad)
    }
}

/// Its parameters: `T`'s fields, as [`inputs`] describes them.
impl<T: JsonSchema> aide::OperationInput for Params<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let params = parameters_from_schema(ctx, inputs::<T>(), ParamLocation::Query);
        add_parameters(ctx, operation, params);
    }
}

/// The schema of `T` as a request reads it (a field that may be left out is not required), with
/// every subschema in place: a request's parameters or body.
#[must_use]
pub fn inputs<T: JsonSchema>() -> Schema {
    let mut schema = SchemaSettings::draft2020_12()
        .for_deserialize()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        // A field that may be left out has its type's default, `null`: not a value to send.
        for property in object
            .get_mut("properties")
            .and_then(Value::as_object_mut)
            .into_iter()
            .flat_map(|p| p.values_mut())
            .filter_map(Value::as_object_mut)
        {
            if property.get("default") == Some(&Value::Null) {
                property.remove("default");
            }
        }
    }
    schema
}

/// The endpoint's name in messages: its route under `/api/v1/` (`query`, `jobs/{id}`).
fn endpoint(parts: &Parts) -> String {
    let path = parts
        .extensions
        .get::<MatchedPath>()
        .map_or(parts.uri.path(), MatchedPath::as_str);
    path.trim_start_matches("/api/v1/").to_string()
}

/// Reads a raw query string into `T`: URL-decoded, each parameter one of `T`'s fields and given
/// once, bounded; empty values left out.
///
/// # Errors
/// A message naming the parameter at fault.
pub fn parse<T: DeserializeOwned>(raw: Option<&str>, endpoint: &str) -> Result<T, String> {
    let raw = raw.unwrap_or("");
    if raw.len() > MAX_QUERY {
        return Err(format!(
            "the query string is {} bytes; at most {MAX_QUERY}",
            raw.len()
        ));
    }
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
        .map_err(|e| format!("the query string is not URL-encoded pairs: {e}"))?;
    let takes = fields::<T>();
    for (i, (key, value)) in pairs.iter().enumerate() {
        taken(key, takes, endpoint)?;
        if pairs[..i].iter().any(|(k, _)| k == key) {
            return Err(format!("parameter '{key}' is given twice"));
        }
        bounded(key, value)?;
    }
    let given = pairs.into_iter().filter(|(_, v)| !v.is_empty());
    read(de::value::MapDeserializer::<_, de::value::Error>::new(
        given,
    ))
}

/// Reads a JSON body's object into `T`: each member one of `T`'s fields, each string bounded.
///
/// # Errors
/// A message naming the member at fault.
pub fn body<T: DeserializeOwned>(
    object: serde_json::Map<String, Value>,
    endpoint: &str,
) -> Result<T, String> {
    let takes = fields::<T>();
    for (key, value) in &object {
        taken(key, takes, endpoint)?;
        if let Value::String(text) = value {
            bounded(key, text)?;
        }
    }
    read(Value::Object(object))
}

/// `T` from `input`, a fault naming the field where it lies.
fn read<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(input: D) -> Result<T, String> {
    serde_path_to_error::deserialize(input).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.inner().to_string()
        } else {
            format!("parameter '{path}': {}", e.inner())
        }
    })
}

/// Whether `endpoint`, taking `takes`, takes `key`: a message naming it if not.
fn taken(key: &str, takes: &[&str], endpoint: &str) -> Result<(), String> {
    if takes.contains(&key) {
        return Ok(());
    }
    let key: String = key.chars().take(40).collect();
    let list = match takes.split_last() {
        Some((last, [])) => format!("'{last}'"),
        Some((last, rest)) => format!("'{}' and '{last}'", rest.join("', '")),
        None => "nothing".to_string(),
    };
    Err(if KNOWN.contains(&key.as_str()) {
        format!("{endpoint} takes no '{key}'; it takes only {list}")
    } else {
        format!("unknown parameter '{key}'; {endpoint} takes only {list}")
    })
}

fn bounded(key: &str, value: &str) -> Result<(), String> {
    if value.len() > MAX_VALUE {
        return Err(format!(
            "parameter '{key}' is {} bytes; at most {MAX_VALUE}",
            value.len()
        ));
    }
    Ok(())
}

/// The fields `T` reads, as its derived `Deserialize` names them (to its deserializer).
fn fields<T: DeserializeOwned>() -> &'static [&'static str] {
    /// A deserializer that hears a struct's field names, and gives nothing.
    struct Names<'a>(&'a mut &'static [&'static str]);

    impl<'de> Deserializer<'de> for Names<'_> {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("fields heard"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }

    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(Names(&mut names));
    names
}

/// An option's value (`deserialize_with`): a string, or a number written as text; empty or
/// `null`: not given.
///
/// # Errors
/// Any other value.
pub fn text<'de, D: Deserializer<'de>>(input: D) -> Result<Option<String>, D::Error> {
    struct Text;

    impl Visitor<'_> for Text {
        type Value = Option<String>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string or a number")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()).filter(|v| !v.is_empty()))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }

    input.deserialize_any(Text)
}

/// A whole-number option (`deserialize_with`): a number, or one written as a string (trimmed);
/// empty or `null`: not given.
///
/// # Errors
/// Anything else, or a number out of `T`'s range: `'x' is not a whole number`.
pub fn whole<'de, D, T>(input: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: std::str::FromStr,
{
    text(input)?
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| de::Error::custom(format!("'{v}' is not a whole number")))
        })
        .transpose()
}

/// Moves written as a string (`deserialize_with`): split at commas, each trimmed; empty: not
/// given.
///
/// # Errors
/// Not a string.
pub fn moves<'de, D: Deserializer<'de>>(input: D) -> Result<Option<Vec<String>>, D::Error> {
    Ok(text(input)?.map(|s| split_moves(&s)))
}

/// A JSON body's moves (`deserialize_with`): an array of pit numbers or Bao's moves, or a
/// string of them split at commas (none if `null` or empty); each still to be read as a pit
/// ([`granary::game::parse_pits`]) or a Bao move.
///
/// # Errors
/// Any other JSON value, or an element that is neither a number nor a string.
pub fn json_moves<'de, D: Deserializer<'de>>(input: D) -> Result<Option<Vec<String>>, D::Error> {
    let moves = match Value::deserialize(input)? {
        Value::Null => Vec::new(),
        Value::String(s) if s.is_empty() => Vec::new(),
        Value::String(s) => split_moves(&s),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Number(n) => Ok(n.to_string()),
                Value::String(s) => Ok(s.clone()),
                _ => Err(de::Error::custom(format!(
                    "move {}: {item} is not a pit number",
                    i + 1
                ))),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(de::Error::custom("not an array of pit numbers")),
    };
    Ok(Some(moves))
}

/// Moves written as a string: split at commas, each trimmed.
fn split_moves(moves: &str) -> Vec<String> {
    moves.split(',').map(|s| s.trim().to_string()).collect()
}

/// The game (`game=`, required).
///
/// # Errors
/// Missing or unknown.
pub fn game(given: Option<&str>) -> Result<GameName, String> {
    given
        .ok_or_else(|| "parameter 'game' is missing: kalah, oware or bao".to_string())?
        .parse()
        .map_err(|e: granary::InputError| e.to_string())
}

/// The engine's time, `ms=`: 1 to 5,000 ms, default 1,000.
///
/// # Errors
/// Out of range.
pub fn millis(ms: Option<u64>) -> Result<u64, String> {
    match ms {
        None => Ok(MS_DEFAULT),
        Some(ms) if MS.contains(&ms) => Ok(ms),
        Some(ms) => Err(format!(
            "parameter 'ms': {ms} is out of range {}..={}",
            MS.start(),
            MS.end()
        )),
    }
}

/// The engine's times `ms=` may ask for, milliseconds.
pub const MS: std::ops::RangeInclusive<u64> = 1..=5000;
/// The engine's time when `ms=` is not given.
pub const MS_DEFAULT: u64 = 1000;

/// What each parameter is, in the API's description.
fn about(name: &str) -> Option<&'static str> {
    Some(match name {
        "game" => "The game.",
        "rules" => "The rule set (for Bao it sets the start).",
        "sweep" => {
            "Kalah only: who takes the seeds left on the board at the end, their owner or the \
             player who emptied a side."
        }
        "pits" => "Kalah and Oware: pits a side; with `position`, it must match the position's.",
        "seeds" => "Kalah and Oware: seeds a pit at the start.",
        "nyumba" => "Bao kiswahili and malawi only: when a player's nyumba stops being special.",
        "takasia" => {
            "Bao: whether a forced takasa that threatens one pit forbids the opponent to lift it."
        }
        "tax" => "Bao kiswahili and malawi only: when the nyumba may be taxed.",
        "position" => {
            "The position, in the game's notation (docs/notation.md), e.g. \
             `1,1,1,1,1,2/4,2,3,0,0,0 0-0 S`; the game's start if left out."
        }
        "moves" => {
            "Moves to play, comma-separated: pits (`3,1`) for Kalah and Oware, moves written out \
             (`A6R,a6L`) for Bao."
        }
        "ms" => "The engine's time, milliseconds.",
        _ => return None,
    })
}

/// A request struct's schema (`#[schemars(transform = ...)]`) for the games `games`: each
/// option's values (the default where the games share one), each number's range and default,
/// as the catalogue has them; `game` one of `games`, required where there is a choice; each
/// parameter described.
fn for_games(schema: &mut Schema, games: &[GameName]) {
    let catalogue: Vec<_> = granary::game::catalogue()
        .into_iter()
        .filter(|g| games.contains(&g.game))
        .collect();
    let Some(properties) = schema
        .as_object_mut()
        .and_then(|s| s.get_mut("properties"))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        let fact = match name.as_str() {
            "ms" => Some(json!({
                "type": "integer",
                "minimum": MS.start(),
                "maximum": MS.end(),
                "default": MS_DEFAULT,
            })),
            "game" => Some(json!({ "type": "string", "enum": games.iter().map(|g| g.name()).collect::<Vec<_>>() })),
            "pits" | "seeds" => catalogue
                .iter()
                .find_map(|g| if name == "pits" { g.pits } else { g.seeds })
                .map(|range| {
                    let mut fact = json!({ "type": "integer", "minimum": range.min.unwrap_or(0), "default": range.default });
                    if let Some(max) = range.max {
                        fact["maximum"] = json!(max);
                    }
                    fact
                }),
            option => {
                let given: Vec<_> = catalogue.iter().filter_map(|g| g.options.get(option)).collect();
                let mut values: Vec<&str> = Vec::new();
                for value in given.iter().flat_map(|o| &o.values) {
                    if !values.contains(value) {
                        values.push(value);
                    }
                }
                (!values.is_empty()).then(|| {
                    let mut fact = json!({ "type": "string", "enum": values });
                    if let [one] = given.as_slice() {
                        fact["default"] = json!(one.default);
                    }
                    fact
                })
            }
        };
        if let Some(fact) = fact {
            *property = fact;
        }
        if let (Some(about), Some(property)) = (about(name), property.as_object_mut()) {
            property.insert("description".into(), json!(about));
        }
    }
    if games.len() > 1 {
        schema.insert("required".into(), json!(["game"]));
    }
}

/// The parameters of an endpoint of Kalah and Oware.
pub fn two_row(schema: &mut Schema) {
    for_games(schema, &[GameName::Kalah, GameName::Oware]);
}

/// The parameters of an endpoint of every game.
pub fn any_game(schema: &mut Schema) {
    for_games(schema, &GameName::ALL);
}

/// The parameters of an endpoint of Bao (`game` may be left out).
pub fn bao(schema: &mut Schema) {
    for_games(schema, &[GameName::Bao]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Asked {
        #[serde(default, deserialize_with = "text")]
        game: Option<String>,
        #[serde(default, deserialize_with = "whole")]
        pits: Option<usize>,
    }

    #[test]
    fn a_query_string_is_read_with_its_faults_named() {
        let asked: Asked = parse(Some("game=kalah&pits=4"), "query").unwrap();
        assert_eq!(
            (asked.game.as_deref(), asked.pits),
            (Some("kalah"), Some(4))
        );
        let asked: Asked = parse(Some("game=&pits="), "query").unwrap();
        assert_eq!((asked.game, asked.pits), (None, None));
        let fault = |raw| parse::<Asked>(Some(raw), "query").unwrap_err();
        assert_eq!(
            fault("pits=x"),
            "parameter 'pits': 'x' is not a whole number"
        );
        assert_eq!(fault("pits=1&pits=2"), "parameter 'pits' is given twice");
        assert_eq!(
            fault("moves=1"),
            "query takes no 'moves'; it takes only 'game' and 'pits'"
        );
        assert_eq!(
            fault("colour=red"),
            "unknown parameter 'colour'; query takes only 'game' and 'pits'"
        );
        assert!(fault(&format!("game={}", "x".repeat(MAX_VALUE + 1))).contains("at most 1024"));
    }

    #[test]
    fn a_json_body_takes_numbers_and_strings_and_null_is_not_given() {
        let object = |v: Value| v.as_object().unwrap().clone();
        let asked: Asked = body(object(json!({ "game": "oware", "pits": "5" })), "review").unwrap();
        assert_eq!(
            (asked.game.as_deref(), asked.pits),
            (Some("oware"), Some(5))
        );
        let asked: Asked = body(object(json!({ "game": null, "pits": 3 })), "review").unwrap();
        assert_eq!((asked.game, asked.pits), (None, Some(3)));
        let fault = body::<Asked>(object(json!({ "pits": -1 })), "review").unwrap_err();
        assert_eq!(fault, "parameter 'pits': '-1' is not a whole number");
        let fault = body::<Asked>(object(json!({ "game": true })), "review").unwrap_err();
        assert!(
            fault.starts_with("parameter 'game': invalid type"),
            "{fault}"
        );
    }
}
