//! What a move is worth as the library reports it ([`Worth`]): its exact value, or, for a move
//! a solve only proved no better than the best, an upper bound. In JSON a move carries
//! `"value"` only when it is exact, and `"upper"` when it is a bound, so that a bound is never
//! read as a value.

pub use granary_search::solver::Worth;

/// Writes a [`Worth`] as fields of the object it is flattened into (`#[serde(flatten,
/// serialize_with = "crate::worth::fields")]`): `"value": v` when exact, `"upper": u` when a
/// bound.
///
/// # Errors
/// The serializer's.
pub(crate) fn fields<S: serde::Serializer>(
    worth: &Worth,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(1))?;
    match *worth {
        Worth::Exact(v) => map.serialize_entry("value", &v)?,
        Worth::AtMost(u) => map.serialize_entry("upper", &u)?,
    }
    map.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Move {
        #[serde(rename = "move")]
        pit: usize,
        #[serde(flatten, serialize_with = "fields")]
        worth: Worth,
    }

    #[test]
    fn a_bound_is_never_written_as_a_value() {
        let json = |worth| serde_json::to_string(&Move { pit: 3, worth }).unwrap();
        assert_eq!(json(Worth::Exact(-2)), r#"{"move":3,"value":-2}"#);
        assert_eq!(json(Worth::AtMost(8)), r#"{"move":3,"upper":8}"#);
    }
}
