//! The one place JSON Schema validators are built (feature `json-schema`), so that the three
//! schemas the crate checks against are read alike: the literal arguments of a catalog
//! document's functions (at compile time), the argument schemas of an `McpApp`'s
//! `allowedFunctions`, and the `outputSchema` of an MCP tool. The options:
//!
//! - nothing is fetched: a `$ref` to a document the validator was not given fails, whatever
//!   `jsonschema`'s features (the schemas come from agents, servers and catalogs);
//! - `pattern` and `patternProperties` run on the linear-time `regex` engine, not a
//!   backtracking one, since the checked values are untrusted;
//! - `format` is asserted in every draft (`"email"`, `"date"`, `"uri"`, …): a value the schema
//!   says is a date must be one, where drafts 2019-09 and 2020-12 only annotate by default.

use jsonschema::{PatternOptions, Registry, ValidationError, ValidationOptions, Validator};
use serde_json::Value;

fn options<'i>() -> ValidationOptions<'i> {
    jsonschema::options()
        .offline()
        .with_pattern_options(PatternOptions::regex())
        .should_validate_formats(true)
}

/// The validator of a self-contained schema.
pub(crate) fn validator(schema: &Value) -> Result<Validator, ValidationError<'static>> {
    options().build(schema)
}

/// The validator of a catalog's argument schema, whose `$ref`s point into the documents of
/// `registry`. Its `"format": "uri"` is A2UI's since November 2026
/// (`^[A-Za-z][A-Za-z0-9+.-]*:\S*$`, the published common types), not RFC 3986's: the
/// catalog's values are what a renderer opens, and the published text is what agents are
/// told to write (an IRI such as `https://bücher.example` passes it).
pub(crate) fn validator_in<'r>(
    schema: &Value,
    registry: &'r Registry<'r>,
) -> Result<Validator, ValidationError<'static>> {
    options()
        .with_format("uri", |s: &str| {
            crate::json::uri_format_problem(s).is_none()
        })
        .with_registry(registry)
        .build(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_are_asserted_in_every_draft() {
        for draft in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2019-09/schema",
            "https://json-schema.org/draft/2020-12/schema",
        ] {
            let schema = json!({"$schema": draft, "type": "string", "format": "date"});
            let v = validator(&schema).unwrap();
            assert!(v.is_valid(&json!("2026-12-04")), "{draft}");
            assert!(!v.is_valid(&json!("the fourth")), "{draft}");
        }
    }

    #[test]
    fn a_catalog_uri_is_the_published_pattern() {
        let registry = Registry::new().prepare().unwrap();
        let v = validator_in(&json!({"type": "string", "format": "uri"}), &registry).unwrap();
        for ok in [
            "https://example.com",
            "mailto:a@b.c",
            "https://bücher.example",
            "x:",
        ] {
            assert!(v.is_valid(&json!(ok)), "{ok}");
        }
        for bad in ["example.com", "https://a b", "1http://x", "://x", ""] {
            assert!(!v.is_valid(&json!(bad)), "{bad}");
        }
    }

    #[test]
    fn nothing_is_fetched_and_patterns_are_linear() {
        let remote = json!({"$ref": "https://example.com/schema.json"});
        assert!(validator(&remote).is_err());
        // Look-around needs a backtracking engine: the linear one refuses the pattern.
        assert!(validator(&json!({"pattern": "(?=x)"})).is_err());
    }
}
