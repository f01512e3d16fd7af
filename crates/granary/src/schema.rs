//! JSON Schemas (the `schema` feature) of what the library writes as plain strings where only a
//! few words can appear: a side, a result. The types the library serializes derive
//! `schemars::JsonSchema` under the same feature, their fields pointing here where a string is
//! one of these words; the server's API description is generated from them.

use schemars::{Schema, SchemaGenerator, json_schema};

use crate::mark::Mark;
use crate::outcome::GameResult;

/// A side as JSON names it: `south` or `north`.
#[must_use]
pub fn side(_: &mut SchemaGenerator) -> Schema {
    let names = [granary_rules::Side::South, granary_rules::Side::North].map(|s| s.name());
    json_schema!({ "type": "string", "enum": names })
}

/// A side, or `null`.
#[must_use]
pub fn side_or_null(_: &mut SchemaGenerator) -> Schema {
    let names = [granary_rules::Side::South, granary_rules::Side::North].map(|s| s.name());
    json_schema!({ "enum": [names[0], names[1], null] })
}

/// A result for the player to move: `win`, `draw` or `loss`.
#[must_use]
pub fn result(_: &mut SchemaGenerator) -> Schema {
    let names = [GameResult::Win, GameResult::Draw, GameResult::Loss].map(GameResult::name);
    json_schema!({ "type": "string", "enum": names })
}

/// The mark a review gives an exact ply ([`crate::review::Exact::mark`]): `??`, `?` or `null`.
#[must_use]
pub fn review_mark(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "enum": [Mark::Blunder.text(), Mark::Mistake.text(), null] })
}
