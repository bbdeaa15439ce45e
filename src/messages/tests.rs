use super::*;
use crate::catalog::{ArgSchema, Args, Catalog};
use crate::env::Environment;
use crate::error::ErrorCode;
use crate::{MCP_CATALOG_ID, limits::Limits};
use serde_json::Value;
use serde_json::json;

const OTHER: &str = "https://example.com/other.json";

fn env() -> Environment {
    let mut env = Environment::new();
    env.add_catalog(Catalog::new(OTHER).with_function(
        "upper",
        ArgSchema::new().required("value"),
        |args: &Args<'_>| Ok(args.value_or_null("value").clone()),
    ));
    env
}

/// `(index, pointer, code)` of every problem.
fn located(report: &Report) -> Vec<(Option<usize>, String, ErrorCode)> {
    report
        .problems()
        .iter()
        .map(|p| (p.message_index(), p.location().to_owned(), p.code()))
        .collect()
}

fn create(id: &str, catalog: &str) -> Value {
    json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": catalog}})
}

fn update(id: &str, components: Value) -> Value {
    json!({"version": "v1.0", "updateComponents": {"surfaceId": id, "components": components}})
}

#[test]
fn a_correct_stream_has_no_problem() {
    let env = env();
    let report = check_messages(
        &env,
        &[
            create("a", MCP_CATALOG_ID),
            create("b", OTHER),
            update(
                "a",
                json!([
                    {"id": "root", "component": "Column", "children": {"componentId": "row", "path": "/rows"}},
                    {"id": "row", "component": "Text", "text": {"@call": "split", "args": {"value": {"@path": "name"}, "separator": ","}}},
                    {"id": "go", "component": "Button", "child": "row", "checks": [{"condition": {"@path": "/ok"}, "message": "no"}],
                     "action": {"event": {"name": "go", "context": {"who": {"@path": "/user"}}}}}
                ]),
            ),
            // The surface's default catalog is `OTHER`: `upper` without a catalogId is found.
            update(
                "b",
                json!([{"id": "root", "component": "Text", "text": {"@call": "upper", "args": {"value": "x"}}}]),
            ),
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "a", "path": "/rows", "value": [{"@path": "data, not a binding"}]}}),
            json!({"version": "v1.0", "functionCallId": "c1", "callFunction": {"@call": "split", "args": {"value": "a b", "separator": " "}}}),
            json!({"version": "v1.0", "deleteSurface": {"surfaceId": "a"}}),
            create("a", MCP_CATALOG_ID),
        ],
    );
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.message_count(), 8);
}

#[test]
fn every_problem_is_located_and_none_hides_another() {
    let env = env();
    let report = check_messages(
        &env,
        &[
            json!({"surfaceUpdate": {}}),
            json!([1]),
            create("a", MCP_CATALOG_ID),
            update(
                "a",
                json!([
                    {"id": "t", "component": "Text", "text": {"@call": "nope", "args": {}}},
                    {"id": "u", "component": "Text", "text": {"@call": "split", "args": {"value": "x", "separator": ",", "extra": 1}},
                     "label": {"@path": "/a", "x": 1}},
                    {"component": "Text"},
                    {"id": "v", "component": {"Text": {}}},
                    "just text"
                ]),
            ),
            update(
                "never",
                json!([{"id": "root", "component": "Text", "text": {"@call": "nope"}}]),
            ),
            json!({"version": "v1.0", "updateDataModel": {"value": 1}}),
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "a", "path": "no-slash"}}),
            json!({"version": "v1.0", "deleteSurface": {"surfaceId": 7}}),
            json!({"version": "v2.0", "createSurface": {"surfaceId": "a", "catalogId": "https://nowhere"}}),
            json!({"version": "v1.0", "callFunction": {"call": "split", "args": {}}}),
            json!({"version": "v1.0", "functionCallId": "c", "callFunction": {"@call": "split", "callableFrom": "clientOnly", "args": {"value": 1}}}),
            json!({"createSurface": {"surfaceId": "z"}, "deleteSurface": {"surfaceId": "z"}}),
        ],
    );
    let expected = [
        (Some(0), "/surfaceUpdate", ErrorCode::ValidationFailed),
        (Some(1), "", ErrorCode::ValidationFailed),
        (
            Some(3),
            "/updateComponents/components/0/text",
            ErrorCode::ExpressionError,
        ),
        (
            Some(3),
            "/updateComponents/components/1/text/args/extra",
            ErrorCode::ValidationFailed,
        ),
        (
            Some(3),
            "/updateComponents/components/1/label",
            ErrorCode::ValidationFailed,
        ),
        (
            Some(3),
            "/updateComponents/components/2",
            ErrorCode::ValidationFailed,
        ),
        (
            Some(3),
            "/updateComponents/components/3/component",
            ErrorCode::ValidationFailed,
        ),
        (
            Some(3),
            "/updateComponents/components/4",
            ErrorCode::ValidationFailed,
        ),
        (
            Some(4),
            "/updateComponents/surfaceId",
            ErrorCode::ValidationFailed,
        ),
        // The calls relying on the unknown surface's catalog are not reported (see below).
        (Some(5), "/updateDataModel", ErrorCode::ValidationFailed),
        (Some(6), "/updateDataModel/path", ErrorCode::DataError),
        (Some(6), "/updateDataModel", ErrorCode::ValidationFailed),
        (
            Some(7),
            "/deleteSurface/surfaceId",
            ErrorCode::ValidationFailed,
        ),
        (Some(8), "/version", ErrorCode::ValidationFailed),
        (Some(8), "/createSurface/catalogId", ErrorCode::CatalogError),
        (
            Some(8),
            "/createSurface/surfaceId",
            ErrorCode::ValidationFailed,
        ),
        // A plain call in the `@` spelling: a literal, and a warning (below).
        (Some(9), "/callFunction", ErrorCode::ValidationFailed),
        (
            Some(10),
            "/callFunction/callableFrom",
            ErrorCode::ValidationFailed,
        ),
        (Some(10), "/callFunction", ErrorCode::ValidationFailed),
        (Some(11), "", ErrorCode::ValidationFailed),
    ];
    // Message 9 is v1.0, whose values are read in both spellings: its plain call is a call
    // (missing its arguments), not a literal to warn about.
    let mut expected = expected.to_vec();
    expected.insert(16, (Some(9), "/callFunction", ErrorCode::ValidationFailed));
    expected.insert(16, (Some(9), "/callFunction", ErrorCode::ValidationFailed));
    let expected: Vec<_> = expected
        .iter()
        .map(|(i, p, c)| (*i, (*p).to_owned(), *c))
        .collect();
    assert_eq!(located(&report), expected, "{report}");
    let messages: Vec<&str> = report
        .problems()
        .iter()
        .map(crate::Error::message)
        .collect();
    assert!(messages[2].contains("Unrecognized function 'nope'"));
    assert!(messages[17].contains("requires the argument"));
    assert!(messages[20].contains("requires the argument 'separator'"));
    assert_eq!(report.problems()[2].function(), Some("nope"));
    assert!(report.warnings().is_empty(), "{report}");
}

#[test]
fn the_plain_spelling_is_read_when_the_environment_reads_it() {
    let mut env = env();
    let stream = [
        create("a", MCP_CATALOG_ID),
        update(
            "a",
            json!([
                {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
                {"id": "row", "component": "Text", "text": {"call": "split", "args": {"value": {"path": "name"}}}},
                {"id": "n", "component": "Text", "text": {"call": "@index", "args": {"offset": 1}}},
                {"id": "b", "component": "Button", "child": "row", "action": {"event": {"name": "go", "context": {"who": {"path": "/user"}}}}}
            ]),
        ),
        json!({"version": "v1.0", "functionCallId": "c", "callFunction": {"call": "split", "args": {"value": "a"}}}),
        json!({"version": "v1.0", "functionCallId": "d", "callFunction": {"call": "split", "args": {}, "extra": 1}}),
    ];
    // v1.0 messages are read in both spellings whatever the environment's; the environment's
    // spelling applies to the earlier versions.
    let stream = stream.map(|mut m| {
        m["version"] = json!("v0.10");
        m
    });
    // The `@` spelling: the plain values are literals, each warned about once; the malformed
    // callFunction is a problem.
    let report = check_messages(&env, &stream);
    let at: Vec<(usize, &str)> = report
        .warnings()
        .iter()
        .filter(|w| w.code() == crate::WarningCode::OtherSpelling)
        .map(|w| (w.message_index().unwrap(), w.location()))
        .collect();
    assert_eq!(
        at,
        [
            (1, "/updateComponents/components/1/text"),
            (1, "/updateComponents/components/1/text/args/value"),
            (1, "/updateComponents/components/2/text"),
            (1, "/updateComponents/components/3/action/event/context/who"),
            (2, "/callFunction"),
        ]
    );
    assert_eq!(report.problems().len(), 1, "{report}");
    assert!(
        report.problems()[0]
            .message()
            .contains("plain spelling, read only as")
    );
    assert!(
        report
            .to_string()
            // and two components not reachable from root (n and b)
            .ends_with("4 messages, 1 problem, 7 warnings")
    );
    // The plain spelling: calls and bindings, checked as such; no spelling warning.
    env = env.with_spelling(crate::Spelling::Plain);
    let report = check_messages(&env, &stream);
    assert!(
        report
            .warnings()
            .iter()
            .all(|w| w.code() == crate::WarningCode::UnreachableComponent),
        "{report}"
    );
    let located: Vec<(Option<usize>, &str)> = report
        .problems()
        .iter()
        .map(|p| (p.message_index(), p.location()))
        .collect();
    assert_eq!(
        located,
        [
            (Some(1), "/updateComponents/components/1/text"),
            (Some(2), "/callFunction"),
            (Some(3), "/callFunction"),
        ],
        "{report}"
    );
}

#[test]
fn calls_relying_on_an_unknown_catalog_are_reported_once() {
    let env = env();
    let text = json!({"@call": "upper", "args": {"value": "x"}});
    let explicit = json!({"@call": "upper", "catalogId": OTHER, "args": {}});
    let report = check_messages(
        &env,
        &[
            create("a", "https://nowhere"),
            update(
                "a",
                json!([{"id": "root", "component": "Text", "text": text, "label": {"@path": "/x", "y": 1}}]),
            ),
            update(
                "b",
                json!([{"id": "t", "component": "Text", "text": text, "label": explicit}]),
            ),
        ],
    );
    assert_eq!(
        located(&report),
        [
            (
                Some(0),
                "/createSurface/catalogId".to_owned(),
                ErrorCode::CatalogError
            ),
            (
                Some(1),
                "/updateComponents/components/0/label".to_owned(),
                ErrorCode::ValidationFailed
            ),
            (
                Some(2),
                "/updateComponents/surfaceId".to_owned(),
                ErrorCode::ValidationFailed
            ),
            // A call that names its catalog is checked in full.
            (
                Some(2),
                "/updateComponents/components/0/label".to_owned(),
                ErrorCode::ValidationFailed
            ),
        ],
        "{report}"
    );
}

#[test]
fn create_surface_rules_by_version() {
    let env = env();
    let report = check_messages(
        &env,
        &[
            json!({"version": "v0.9", "createSurface": {"surfaceId": "a"}}),
            json!({"createSurface": {"surfaceId": "b"}}),
            json!({"version": "v1.0", "createSurface": {"surfaceId": "c", "components": [
                {"id": "root", "component": "Text", "text": {"@call": "upper", "args": {"value": "x"}}}
            ]}}),
        ],
    );
    // v1.0 may omit catalogId: the surface then has no default catalog (the processor's rule),
    // so a component that names none is a CATALOG_ERROR (its call, naming none either, is what
    // that says).
    assert_eq!(
        located(&report),
        [
            (
                Some(0),
                "/createSurface".to_owned(),
                ErrorCode::ValidationFailed
            ),
            (
                Some(1),
                "/createSurface".to_owned(),
                ErrorCode::ValidationFailed
            ),
            (
                Some(2),
                "/createSurface/components/0".to_owned(),
                ErrorCode::CatalogError
            ),
        ]
    );
}

#[test]
fn streams_as_arrays_lines_and_broken_text() {
    let env = env();
    let line = |v: &Value| v.to_string();
    let lines = [
        line(&create("a", MCP_CATALOG_ID)),
        "{not json".to_owned(),
        line(&update(
            "a",
            json!([{"id": "root", "component": "Text", "text": "hi"}]),
        )),
    ]
    .join("\n");
    let report = check_stream(&env, &lines);
    assert_eq!(report.message_count(), 3);
    assert_eq!(
        located(&report),
        [(Some(1), String::new(), ErrorCode::ValidationFailed)]
    );
    let array = format!(
        "[{}, {}]",
        line(&create("a", MCP_CATALOG_ID)),
        line(&update("b", json!([])))
    );
    let report = check_stream(&env, &array);
    assert_eq!(
        located(&report),
        [(
            Some(1),
            "/updateComponents/surfaceId".to_owned(),
            ErrorCode::ValidationFailed
        )]
    );
    let report = check_stream(
        &env,
        &format!("[{}, {{", line(&create("a", MCP_CATALOG_ID))),
    );
    assert_eq!(
        located(&report),
        [(None, String::new(), ErrorCode::ValidationFailed)]
    );
    assert!(
        report
            .to_string()
            .starts_with("stream at /: VALIDATION_FAILED: the stream cannot be read further")
    );
    assert!(report.to_string().ends_with("1 message, 1 problem"));
}

#[test]
fn large_and_deep_messages_are_limit_exceeded() {
    let env = env();
    let deep = format!(
        r#"{{"version": "v1.0", "updateComponents": {{"surfaceId": "a", "components": [{{"id": "x", "component": "Text", "text": {}1{}}}]}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    // 128 levels inside the component: within the message's limit (128 + 4), past the payload's.
    let inside_limit = format!(
        r#"{{"version": "v1.0", "updateComponents": {{"surfaceId": "a", "components": [{{"id": "x", "component": "Text", "text": {}1{}}}]}}}}"#,
        "[".repeat(128),
        "]".repeat(128)
    );
    let stream = [
        create("a", MCP_CATALOG_ID).to_string(),
        deep,
        inside_limit,
        create("b", MCP_CATALOG_ID).to_string(),
    ]
    .join("\n");
    let mut checker = StreamChecker::new(&env)
        .with_options(StreamOptions::default().with_max_message_bytes(1000));
    checker.check_stream(&stream);
    checker.check_text(&format!("\"{}\"", "x".repeat(2000)));
    let report = checker.finish();
    // The processor's depth check (the component's values) reports it at the component.
    let inner = "/updateComponents/components/0".to_owned();
    assert_eq!(
        located(&report),
        [
            (Some(1), String::new(), ErrorCode::LimitExceeded),
            (Some(2), inner, ErrorCode::LimitExceeded),
            (Some(4), String::new(), ErrorCode::LimitExceeded),
        ]
    );
    assert!(
        report.problems()[2]
            .message()
            .contains("more than the limit of 1000")
    );
}

#[test]
fn a_smaller_depth_limit_is_followed() {
    let env = env().with_limits(Limits {
        max_depth: 8,
        ..Limits::default()
    });
    let text = format!(
        r#"{{"version": "v1.0", "createSurface": {{"surfaceId": "a", "components": [{{"id": "x", "component": "Text", "text": {}1{}}}]}}}}"#,
        "[".repeat(20),
        "]".repeat(20)
    );
    let report = check_stream(&env, &text);
    assert_eq!(
        located(&report),
        [(Some(0), String::new(), ErrorCode::LimitExceeded)]
    );
}

/// Issue 36, item 4: a surface reads one spelling, as the processor does. Written with `@`
/// first, its plain-shaped objects are literals, each warned about at its location; another
/// surface written plain reads them as bindings; a plain surface given `@` values reads them,
/// warned once.
#[test]
fn a_surface_reads_its_values_in_one_spelling() {
    let env = Environment::new();
    let update = |id: &str, components: Value| json!({"version": "v1.0", "updateComponents": {"surfaceId": id, "components": components}});
    let report = check_messages(
        &env,
        &[
            create("s", MCP_CATALOG_ID),
            update(
                "s",
                json!([{"id": "root", "component": "Text", "text": {"@path": "/a"}}]),
            ),
            // Plain envelope keys beside `@` values: one consistent style, no warning.
            update(
                "s",
                json!([{"id": "b", "component": "Text", "text": {"@path": "/b"}, "checks": []}]),
            ),
            update(
                "s",
                json!([{"id": "c", "component": "Text", "text": {"label": {"path": "/c"}}}]),
            ),
            update(
                "s",
                json!([{"id": "d", "component": "Text", "text": {"path": "/d"}}]),
            ),
            create("p", MCP_CATALOG_ID),
            update(
                "p",
                json!([{"id": "root", "component": "Text", "text": {"path": "/a"}}]),
            ),
            update(
                "p",
                json!([{"id": "e", "component": "Text", "text": {"@path": "/e"}}]),
            ),
            update(
                "p",
                json!([{"id": "f", "component": "Text", "text": {"@path": "/f"}}]),
            ),
        ],
    );
    assert!(report.problems().is_empty(), "{report}");
    let warnings: Vec<(usize, &str)> = report
        .warnings()
        .iter()
        .filter(|w| w.code() == crate::error::WarningCode::OtherSpelling)
        .map(|w| (w.message_index().unwrap(), w.location()))
        .collect();
    assert_eq!(
        warnings,
        [
            (3, "/updateComponents/components/0/text/label"),
            (4, "/updateComponents/components/0/text"),
            (7, "/updateComponents/components/0/text"),
        ]
    );
    assert!(
        report.warnings()[0]
            .message()
            .contains("literal object in the '@' spelling")
    );
    assert!(
        report.warnings()[2]
            .message()
            .contains("surface 'p' reads its values in the plain spelling")
    );
}

#[test]
fn checking_an_agent_call_does_not_run_it() {
    use crate::origin::{Access, AllowedCallers};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    let mut catalog =
        Catalog::new(OTHER).with_function("launch", ArgSchema::new(), move |_: &Args<'_>| {
            counted.fetch_add(1, Ordering::SeqCst);
            Ok(Value::Null)
        });
    catalog
        .set_access(
            "launch",
            Access::new(AllowedCallers::RendererOrAgent, false),
        )
        .unwrap();
    let mut env = Environment::new();
    env.add_catalog(catalog);
    check_messages(
        &env,
        &[
            json!({"version": "v1.0", "functionCallId": "c", "callFunction": {"call": "launch", "catalogId": OTHER}}),
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "d", "callFunction": {"call": "launch", "catalogId": OTHER}}}),
        ],
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_v1_call_renderer_function_is_checked_at_its_nested_call() {
    let mut catalog =
        Catalog::new(OTHER)
            .with_function("launch", ArgSchema::new(), |_: &Args<'_>| Ok(Value::Null));
    catalog
        .set_access(
            "launch",
            crate::origin::Access::new(crate::origin::AllowedCallers::RendererOrAgent, false),
        )
        .unwrap();
    let mut env = Environment::new();
    env.add_catalog(catalog);
    let good = check_messages(
        &env,
        &[
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "d", "callFunction": {"call": "launch", "catalogId": OTHER}}}),
        ],
    );
    assert!(good.problems().is_empty(), "{:?}", good.problems());
    let bad = check_messages(
        &env,
        &[
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "d", "callFunction": {"call": "nope", "catalogId": OTHER}}}),
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "e"}}),
            json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "f", "callFunction": 3}}),
        ],
    );
    let located: Vec<(usize, &str)> = bad
        .problems()
        .iter()
        .map(|p| (p.message_index().unwrap(), p.location()))
        .collect();
    assert_eq!(
        located,
        [
            (0, "/callRendererFunction/callFunction"),
            (1, "/callRendererFunction"),
            (2, "/callRendererFunction/callFunction")
        ]
    );
}

/// `"1.0"` and `"v1.0"` name one version: a stream that writes both is read whole, with one
/// warning at the first message of the other spelling.
#[test]
fn a_stream_mixing_1_0_and_v1_0_is_warned_once() {
    let env = env();
    let mut create = create("a", MCP_CATALOG_ID);
    create["version"] = json!("1.0");
    let report = check_messages(
        &env,
        &[
            create,
            update(
                "a",
                json!([{"id": "root", "component": "Text", "text": "x"}]),
            ),
            update(
                "a",
                json!([{"id": "root", "component": "Text", "text": "y"}]),
            ),
        ],
    );
    assert!(report.problems().is_empty(), "{:?}", report.problems());
    let warnings: Vec<(usize, &str)> = report
        .warnings()
        .iter()
        .map(|w| (w.message_index().unwrap(), w.location()))
        .collect();
    assert_eq!(warnings, [(1, "/version")]);
    assert!(
        report.warnings()[0].message().contains("\"1.0\""),
        "{}",
        report.warnings()[0]
    );
}
