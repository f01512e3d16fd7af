//! The part of JSON Schema (2020-12, as OpenAPI 3.1 has it) that the description's schemas
//! use, checked against answers: [`validate`] checks the keywords in [`KEYWORDS`], and
//! [`keywords`] finds any other, so that no schema says more than the test checks.

use serde_json::{Value, json};

/// The schema keywords [`validate`] checks.
const KEYWORDS: [&str; 14] = [
    "$ref",
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "oneOf",
    "allOf",
];
/// The annotations it leaves alone.
const ANNOTATIONS: [&str; 3] = ["description", "title", "default"];

/// The value `$ref` points to in `doc`.
pub(super) fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    doc.pointer(reference.strip_prefix('#')?)
}

/// An array of strings, as strings.
pub(super) fn strings(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(String::from))
        .collect()
}

/// Keywords outside those [`validate`] checks, under `schema`.
pub(super) fn keywords(schema: &Value, at: &str, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else {
        out.push(format!("{at}: a schema that is not an object"));
        return;
    };
    for (k, v) in map {
        if ANNOTATIONS.contains(&k.as_str()) {
            continue;
        }
        if !KEYWORDS.contains(&k.as_str()) {
            out.push(format!(
                "{at}: schema keyword '{k}' is not checked by this test"
            ));
            continue;
        }
        match k.as_str() {
            "items" => keywords(v, &format!("{at}/items"), out),
            "additionalProperties" if !v.is_boolean() => {
                keywords(v, &format!("{at}/additionalProperties"), out);
            }
            "properties" => {
                for (name, s) in v.as_object().into_iter().flatten() {
                    keywords(s, &format!("{at}/properties/{name}"), out);
                }
            }
            "oneOf" | "allOf" => {
                for (i, s) in v.as_array().into_iter().flatten().enumerate() {
                    keywords(s, &format!("{at}/{k}/{i}"), out);
                }
            }
            _ => {}
        }
    }
}

/// Whether `value` matches `schema`, as far as the keywords in [`KEYWORDS`] go: the mismatches.
pub(super) fn validate(
    doc: &Value,
    schema: &Value,
    value: &Value,
    at: &str,
    out: &mut Vec<String>,
) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        match resolve(doc, r) {
            Some(target) => validate(doc, target, value, at, out),
            None => out.push(format!("{at}: $ref {r} does not resolve")),
        }
    }
    if let Some(t) = schema.get("type") {
        let types = strings(t).or_else(|| t.as_str().map(|t| vec![t.to_string()]));
        let fits = |t: &str| match t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => false,
        };
        if !types.unwrap_or_default().iter().any(|t| fits(t)) {
            out.push(format!("{at}: {value} is not of type {t}"));
            return;
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        out.push(format!("{at}: {value} is not one of {}", json!(allowed)));
    }
    if let Some(c) = schema.get("const")
        && c != value
    {
        out.push(format!("{at}: {value} is not {c}"));
    }
    if let Some(n) = value.as_f64() {
        if schema
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            out.push(format!("{at}: {n} is below the minimum"));
        }
        if schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            out.push(format!("{at}: {n} is above the maximum"));
        }
    }
    if let Some(items) = value.as_array() {
        let len = items.len() as u64;
        if schema
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
        {
            out.push(format!("{at}: {len} items, fewer than the minimum"));
        }
        if schema
            .get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len > m)
        {
            out.push(format!("{at}: {len} items, more than the maximum"));
        }
        if let Some(item) = schema.get("items") {
            for (i, v) in items.iter().enumerate() {
                validate(doc, item, v, &format!("{at}/{i}"), out);
            }
        }
    }
    if let Some(object) = value.as_object() {
        for name in schema["required"].as_array().into_iter().flatten() {
            if !object.contains_key(name.as_str().unwrap_or("")) {
                out.push(format!(
                    "{at}: '{}' is missing",
                    name.as_str().unwrap_or("")
                ));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (k, v) in object {
            let at = format!("{at}/{k}");
            match (
                properties.and_then(|p| p.get(k)),
                schema.get("additionalProperties"),
            ) {
                (Some(s), _) => validate(doc, s, v, &at, out),
                (None, Some(Value::Bool(false))) => {
                    out.push(format!("{at}: not a property the description names"));
                }
                (None, Some(s)) if s.is_object() => validate(doc, s, v, &at, out),
                _ => {}
            }
        }
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for s in all {
            validate(doc, s, value, at, out);
        }
    }
    if let Some(any) = schema.get("oneOf").and_then(Value::as_array) {
        let fitting = any
            .iter()
            .filter(|s| {
                let mut misfits = Vec::new();
                validate(doc, s, value, at, &mut misfits);
                misfits.is_empty()
            })
            .count();
        if fitting != 1 {
            out.push(format!(
                "{at}: {value} fits {fitting} of oneOf's schemas, not one"
            ));
        }
    }
}
