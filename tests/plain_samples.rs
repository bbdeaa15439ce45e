//! The sample surfaces of `examples/surfaces/` in the plain spelling (`examples/surfaces/plain/`,
//! `{"path": …}` and `{"call": …}` as the A2UI specification writes them), checked against the
//! MCP catalog and the basic catalog of `tests/data/basic-catalog.json`: read with the plain
//! spelling they check exactly as the `@` copies do; read with the `@` spelling every dynamic
//! value is one warning, and nothing is an error.

use a2ui_catalog_mcp::messages::{self, Report};
use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, Spelling};

const SAMPLES: [&str; 3] = [
    "restaurant-finder.jsonl",
    "booking-form.json",
    "mcp-order-summary.json",
];

fn env(spelling: Spelling) -> Environment {
    Environment::new()
        .with_catalog(Catalog::from_schema_str(include_str!("data/basic-catalog.json")).unwrap())
        .with_spelling(spelling)
}

fn sample(name: &str) -> String {
    let path = format!("{}/examples/surfaces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `(index, pointer, code, function)` of every problem.
fn located(report: &Report) -> Vec<(Option<usize>, String, ErrorCode, Option<String>)> {
    report
        .problems()
        .iter()
        .map(|p| {
            (
                p.message_index(),
                p.location().to_owned(),
                p.code(),
                p.function().map(str::to_owned),
            )
        })
        .collect()
}

/// How many bindings and calls a sample in the `@` spelling has.
fn dynamic_values(text: &str) -> usize {
    text.matches("\"@path\"").count() + text.matches("\"@call\"").count()
}

#[test]
fn the_plain_copies_are_the_samples_respelled() {
    for name in SAMPLES {
        for dir in ["", "broken/"] {
            let at = sample(&format!("{dir}{name}"));
            let plain = sample(&format!("plain/{dir}{name}"));
            assert!(!plain.contains("\"@path\"") && !plain.contains("\"@call\""));
            let respelled = at
                .replace("\"@path\":", "\"path\":")
                .replace("\"@call\":", "\"call\":");
            if (dir, name) == ("broken/", "restaurant-finder.jsonl") {
                // The binding with an extra key is a literal in the plain spelling: the copy has
                // a path that does not parse instead.
                let respelled = respelled.replace(
                    r#"{"path": "id", "fallback": "none"}"#,
                    r#"{"path": "id~"}"#,
                );
                assert_eq!(plain, respelled, "{dir}{name}");
            } else {
                assert_eq!(plain, respelled, "{dir}{name}");
            }
        }
    }
}

#[test]
fn read_with_the_plain_spelling_they_have_no_false_error_and_no_warning() {
    let env = env(Spelling::Plain);
    for name in SAMPLES {
        let report = messages::check_stream(&env, &sample(&format!("plain/{name}")));
        assert!(report.is_clean(), "{name}:\n{report}");
        assert!(report.warnings().is_empty(), "{name}:\n{report}");
        // The `@` copies read the same in a plain environment.
        let report = messages::check_stream(&env, &sample(name));
        assert!(
            report.is_clean() && report.warnings().is_empty(),
            "{name}:\n{report}"
        );
    }
}

/// The samples as earlier versions' messages: the environment's spelling applies to them.
fn as_v0_10(text: &str) -> String {
    text.replace("\"version\": \"v1.0\"", "\"version\": \"v0.10\"")
        .replace("\"version\":\"v1.0\"", "\"version\":\"v0.10\"")
}

#[test]
fn read_with_the_at_spelling_v1_is_read_in_both_and_earlier_versions_warn() {
    let env = env(Spelling::At);
    for name in SAMPLES {
        // v1.0 messages are read in both spellings: the plain copies are clean, unwarned.
        let report = messages::check_stream(&env, &sample(&format!("plain/{name}")));
        assert!(report.is_clean(), "{name}:\n{report}");
        assert!(report.warnings().is_empty(), "{name}:\n{report}");
        // Earlier versions are read in the environment's spelling: each plain dynamic value
        // is one warning, with the `@` form to write.
        let report = messages::check_stream(&env, &as_v0_10(&sample(&format!("plain/{name}"))));
        assert!(report.is_clean(), "{name}:\n{report}");
        assert_eq!(
            report.warnings().len(),
            dynamic_values(&sample(name)),
            "{name}:\n{report}"
        );
        for warning in report.warnings() {
            let suggestion = warning.suggestion().unwrap();
            assert!(
                suggestion.starts_with("{\"@path\": ") || suggestion.starts_with("{\"@call\": "),
                "{suggestion}"
            );
        }
    }
    // Every value of the order summary, the agent-initiated callFunction included.
    let report = messages::check_stream(&env, &as_v0_10(&sample("plain/mcp-order-summary.json")));
    assert!(
        report
            .warnings()
            .iter()
            .any(|w| w.message_index() == Some(3) && w.location() == "/callFunction")
    );
}

#[test]
fn every_deliberate_mistake_is_found_in_the_plain_spelling_too() {
    for name in SAMPLES {
        let at = messages::check_stream(&env(Spelling::At), &sample(&format!("broken/{name}")));
        let plain = messages::check_stream(
            &env(Spelling::Plain),
            &sample(&format!("plain/broken/{name}")),
        );
        let mut expected = located(&at);
        if name == "restaurant-finder.jsonl" {
            let swapped = expected
                .iter_mut()
                .find(|p| p.1.ends_with("/context/restaurantId"))
                .unwrap();
            swapped.2 = ErrorCode::DataError;
        }
        assert_eq!(located(&plain), expected, "{name}:\n{plain}");
        assert!(plain.warnings().is_empty(), "{name}:\n{plain}");
        let messages: Vec<&str> = plain.problems().iter().map(|p| p.message()).collect();
        let at_messages: Vec<&str> = at.problems().iter().map(|p| p.message()).collect();
        for (m, a) in messages.iter().zip(&at_messages) {
            if !m.contains("id~") {
                assert_eq!(m, a);
            }
        }
    }
}
