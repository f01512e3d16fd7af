//! The inputs each endpoint names (query parameters, or a JSON body's fields) against the
//! server's and the catalogue's: known names, each named once and every known one somewhere,
//! the options' values, defaults and ranges the catalogue's.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{assert_none, deref, document, job_path, operations, strings};

/// What an operation takes: its query parameters, or its JSON body's fields.
pub(super) struct Inputs {
    /// Name, schema, required.
    pub(super) fields: Vec<(String, Value, bool)>,
    /// Whether they travel in a JSON body.
    pub(super) body: bool,
}

impl Inputs {
    pub(super) fn of(doc: &Value, op: &Value) -> Inputs {
        if let Some(body) = op.get("requestBody") {
            let schema = deref(
                doc,
                &deref(doc, body)["content"]["application/json"]["schema"],
            );
            let required: Vec<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let fields = schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, s)| {
                    (
                        k.clone(),
                        deref(doc, s).clone(),
                        required.contains(&k.as_str()),
                    )
                })
                .collect();
            return Inputs { fields, body: true };
        }
        let fields = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| deref(doc, p))
            .filter(|p| p["in"] == "query")
            .map(|p| {
                let name = p["name"].as_str().unwrap_or("").to_string();
                (
                    name,
                    deref(doc, &p["schema"]).clone(),
                    p["required"] == true,
                )
            })
            .collect();
        Inputs {
            fields,
            body: false,
        }
    }

    pub(super) fn names(&self) -> BTreeSet<&str> {
        self.fields.iter().map(|(n, _, _)| n.as_str()).collect()
    }

    pub(super) fn schema(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, _)| s)
    }

    /// The games it takes: its `game`'s values, else every game.
    pub(super) fn games(&self) -> Vec<String> {
        match self.schema("game").and_then(|s| strings(&s["enum"])) {
            Some(games) => games,
            None => catalogue_games(),
        }
    }
}

fn catalogue_games() -> Vec<String> {
    granary::game::catalogue()
        .iter()
        .map(|g| g.game.name().to_string())
        .collect()
}

/// The inputs named against the server's: each a query parameter (or, for a body, a field)
/// that `params::KNOWN` accepts, named once; every known one named by some endpoint; the
/// options' values, defaults and ranges the catalogue's, for the games the endpoint takes.
pub(super) fn parameter_problems(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let known = granary_server::params::KNOWN;
    let mut named_anywhere = BTreeSet::new();
    let catalogue = granary::game::catalogue();
    for (path, method, op) in operations(doc) {
        if job_path(&path) {
            continue;
        }
        let at = format!("{method} {path}");
        for p in op["parameters"].as_array().into_iter().flatten() {
            let p = deref(doc, p);
            if p["in"] != "query" && !(p["in"] == "header" && p["name"] == "Prefer") {
                out.push(format!("{at}: parameter {} is not in the query", p["name"]));
            }
        }
        let inputs = Inputs::of(doc, op);
        for (name, _, _) in &inputs.fields {
            if !known.contains(&name.as_str()) {
                out.push(format!(
                    "{at}: '{name}' is not a parameter the server knows"
                ));
            }
            if inputs.fields.iter().filter(|(n, _, _)| n == name).count() > 1 {
                out.push(format!("{at}: '{name}' is named twice"));
            }
            named_anywhere.insert(name.clone());
        }
        let games = inputs.games();
        for game in &games {
            if !catalogue_games().contains(game) {
                out.push(format!("{at}: game '{game}' is not in the catalogue"));
            }
        }
        let taking: Vec<_> = catalogue
            .iter()
            .filter(|g| games.iter().any(|n| n == g.game.name()))
            .collect();
        for (name, schema, _) in &inputs.fields {
            let name = name.as_str();
            let (values, defaults): (Vec<&str>, Vec<&str>) = match name {
                "game" | "position" | "moves" | "ms" => continue,
                "pits" | "seeds" => {
                    let ranges: Vec<_> = taking
                        .iter()
                        .filter_map(|g| if name == "pits" { g.pits } else { g.seeds })
                        .collect();
                    let Some(range) = ranges.first() else {
                        out.push(format!(
                            "{at}: '{name}' is named, but none of its games has it"
                        ));
                        continue;
                    };
                    let bound = |key: &str, want: Option<u32>| {
                        let have = schema[key].as_u64();
                        (want.is_some() && have != want.map(u64::from))
                            .then(|| format!("{at}: '{name}' {key} {have:?}, not {want:?}"))
                    };
                    out.extend(bound("minimum", range.min));
                    out.extend(bound("maximum", range.max));
                    out.extend(bound("default", Some(range.default)));
                    continue;
                }
                _ => {
                    let (mut values, mut defaults) = (Vec::new(), Vec::new());
                    for option in taking.iter().filter_map(|g| g.options.get(name)) {
                        for value in &option.values {
                            if !values.contains(value) {
                                values.push(*value);
                            }
                        }
                        defaults.push(option.default);
                    }
                    (values, defaults)
                }
            };
            if values.is_empty() {
                out.push(format!(
                    "{at}: '{name}' is named, but none of its games has it"
                ));
                continue;
            }
            let listed = strings(&schema["enum"]).unwrap_or_default();
            if listed != values {
                out.push(format!(
                    "{at}: '{name}' lists {listed:?}, the catalogue {values:?}"
                ));
            }
            if let Some(default) = schema.get("default")
                && (defaults.len() != 1 || default != defaults[0])
            {
                out.push(format!(
                    "{at}: '{name}' default {default}, the catalogue {defaults:?}"
                ));
            }
        }
        if inputs.body {
            let max = inputs.schema("moves").and_then(|s| s["maxItems"].as_u64());
            if max != Some(granary_server::review::MAX_PLIES as u64) {
                out.push(format!(
                    "{at}: moves at most {max:?}, the server {}",
                    granary_server::review::MAX_PLIES
                ));
            }
        }
    }
    for name in known {
        if !named_anywhere.contains(name) {
            out.push(format!(
                "'{name}' is known to the server but named by no endpoint"
            ));
        }
    }
    out
}

#[test]
fn parameters_are_the_known_ones_with_the_catalogues_values() {
    assert_none(&parameter_problems(&document()));
}
