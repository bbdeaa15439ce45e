//! Message streams: the sample surfaces of `examples/surfaces/` (restaurant finder, booking form,
//! MCP order summary) checked against the MCP catalog and the basic catalog declared in
//! `tests/data/basic-catalog.json`, their broken copies, and streams that are too large, too
//! deep or too long.

use a2ui_catalog_mcp::messages::{self, Report};
use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, MCP_CATALOG_ID, MissingCatalog};
use serde_json::json;
use std::time::Instant;

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn env() -> Environment {
    let mut env = Environment::new();
    env.add_catalog(Catalog::from_schema_str(include_str!("data/basic-catalog.json")).unwrap());
    env
}

fn sample(name: &str) -> String {
    let path = format!("{}/examples/surfaces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `(index, pointer, code, function)` of every problem.
fn located(report: &Report) -> Vec<(usize, String, ErrorCode, Option<String>)> {
    report
        .problems()
        .iter()
        .map(|p| {
            (
                p.message_index().expect("a message's problem"),
                p.location().to_owned(),
                p.code(),
                p.function().map(str::to_owned),
            )
        })
        .collect()
}

fn expect(
    list: &[(usize, &str, ErrorCode, Option<&str>)],
) -> Vec<(usize, String, ErrorCode, Option<String>)> {
    list.iter()
        .map(|(i, p, c, f)| (*i, (*p).to_owned(), *c, f.map(str::to_owned)))
        .collect()
}

#[test]
fn the_samples_have_no_false_error() {
    let env = env();
    for (name, count) in [
        ("restaurant-finder.jsonl", 3),
        ("booking-form.json", 2),
        ("mcp-order-summary.json", 4),
    ] {
        let report = messages::check_stream(&env, &sample(name));
        assert!(report.is_clean(), "{name}:\n{report}");
        assert_eq!(report.message_count(), count, "{name}");
    }
}

#[test]
fn the_samples_call_both_catalogs() {
    let order = sample("mcp-order-summary.json");
    assert!(order.contains("\"@call\": \"formatCurrency\""));
    assert!(order.contains("\"@call\": \"callMcpTool\""));
    assert!(order.contains(MCP_CATALOG_ID) && order.contains(BASIC));
    assert!(
        sample("restaurant-finder.jsonl")
            .contains(r#""children": {"componentId": "card", "path": "/restaurants"}"#)
    );
    assert!(sample("booking-form.json").contains("\"checks\""));
    // Without the basic catalog, the surfaces that name it are reported, once each.
    let report = messages::check_stream(&Environment::new(), &sample("booking-form.json"));
    assert_eq!(
        located(&report),
        expect(&[(0, "/createSurface/catalogId", ErrorCode::CatalogError, None)]),
        "{report}"
    );
}

#[test]
fn every_deliberate_mistake_of_the_restaurant_finder_is_found() {
    let report = messages::check_stream(&env(), &sample("broken/restaurant-finder.jsonl"));
    assert_eq!(
        located(&report),
        expect(&[
            (1, "/beginRendering", ErrorCode::ValidationFailed, None),
            (
                2,
                "/updateComponents/components/1/text",
                ErrorCode::ValidationFailed,
                Some("formatString")
            ),
            (
                2,
                "/updateComponents/components/2/text",
                ErrorCode::ValidationFailed,
                Some("pluralize")
            ),
            (
                2,
                "/updateComponents/components/9/action/event/context/restaurantId",
                ErrorCode::ValidationFailed,
                None
            ),
            (
                3,
                "/updateDataModel/surfaceId",
                ErrorCode::ValidationFailed,
                None
            ),
        ]),
        "{report}"
    );
    let messages: Vec<&str> = report.problems().iter().map(|p| p.message()).collect();
    assert!(messages[0].contains("it is a v0.8 message"));
    assert!(messages[1].contains("returns string") && messages[1].contains("'number'"));
    assert!(messages[2].contains("requires the argument 'other'"));
    assert!(messages[4].contains("never created"));
}

// The mistakes include literal arguments that only the JSON Schema check finds.
#[cfg(feature = "json-schema")]
#[test]
fn every_deliberate_mistake_of_the_booking_form_is_found() {
    let report = messages::check_stream(&env(), &sample("broken/booking-form.json"));
    let checks = |i: usize, rest: &str| format!("/createSurface/components/{i}/checks/{rest}");
    let (c2, c3, c4, c5, c8) = (
        checks(2, "1/condition"),
        checks(3, "0/condition"),
        checks(4, "0/condition/args/pattern"),
        checks(5, "0/condition/args/min"),
        checks(8, "0/condition/args/values"),
    );
    assert_eq!(
        located(&report),
        expect(&[
            (0, &c2, ErrorCode::ValidationFailed, Some("length")),
            (0, &c3, ErrorCode::ExpressionError, Some("emial")),
            (0, &c4, ErrorCode::ExpressionError, Some("regex")),
            (0, &c5, ErrorCode::ExpressionError, Some("numeric")),
            (0, &c8, ErrorCode::ExpressionError, Some("and")),
            (
                1,
                "/updateComponents/components/0/checks/0/condition/args/max",
                ErrorCode::ExpressionError,
                Some("length")
            ),
            (2, "/updateComponents", ErrorCode::ValidationFailed, None),
        ]),
        "{report}"
    );
    let messages: Vec<&str> = report.problems().iter().map(|p| p.message()).collect();
    assert!(
        messages[0].contains("\"min\" is a required property; or \"max\" is a required property")
    );
    assert!(messages[3].contains("\"1\" is not of type \"number\""));
    assert!(messages[4].contains("less than 2 items"));
    assert!(messages[5].contains("-5 is less than the minimum of 0"));
}

// The mistakes include literal arguments that only the JSON Schema check finds.
#[cfg(feature = "json-schema")]
#[test]
fn every_deliberate_mistake_of_the_order_summary_is_found() {
    let report = messages::check_stream(&env(), &sample("broken/mcp-order-summary.json"));
    let lines = "/updateComponents/components/13/action/functionCall/args/updates/~1order~1lines";
    let data_args = format!("{lines}/args/data/args/args");
    assert_eq!(
        located(&report),
        expect(&[
            (
                1,
                "/updateComponents/components/6/text/args/decimals",
                ErrorCode::ExpressionError,
                Some("formatCurrency")
            ),
            (
                1,
                "/updateComponents/components/7/text",
                ErrorCode::ValidationFailed,
                Some("formatCurrency")
            ),
            (
                1,
                "/updateComponents/components/8/text",
                ErrorCode::ExpressionError,
                Some("regexCapture")
            ),
            (
                1,
                "/updateComponents/components/11/action/functionCall",
                ErrorCode::ExpressionError,
                Some("callMcpTool")
            ),
            (
                1,
                &data_args,
                ErrorCode::ValidationFailed,
                Some("callMcpTool")
            ),
            (1, lines, ErrorCode::ExpressionError, Some("transformData")),
            (3, "/callFunction", ErrorCode::ValidationFailed, None),
            (
                3,
                "/callFunction/args/url",
                ErrorCode::ExpressionError,
                Some("openUrl")
            ),
        ]),
        "{report}"
    );
    let messages: Vec<&str> = report.problems().iter().map(|p| p.message()).collect();
    assert!(messages[3].contains(&format!(
        "Unrecognized function 'callMcpTool' in catalog '{BASIC}'"
    )));
    assert!(messages[5].contains("in JMESPath expression: json.lines[].{name: title"));
    assert!(messages[7].contains("\"receipt page\" is not a \"uri\""));
}

#[path = "support/long_stream.rs"]
mod long_stream;
use long_stream::long_stream;

#[test]
fn ten_thousand_messages_check_quickly() {
    let env = env();
    let stream = long_stream(10_000);
    let start = Instant::now();
    let report = messages::check_stream(&env, &stream);
    let elapsed = start.elapsed();
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.message_count(), 10_000);
    // The figure is measured by `benches/messages.rs` in release; this bound only catches a
    // blow-up (debug builds are several times slower).
    let bound = if cfg!(debug_assertions) { 20.0 } else { 1.0 };
    assert!(
        elapsed.as_secs_f64() < bound,
        "10 000 messages took {elapsed:?}"
    );
}

// The mistakes include literal arguments that only the JSON Schema check finds.
#[cfg(feature = "json-schema")]
#[test]
fn a_hundred_megabyte_message_is_limit_exceeded_and_the_others_are_read() {
    let env = env();
    let huge = format!(
        r#"{{"version": "v1.0", "updateDataModel": {{"surfaceId": "s", "value": "{}"}}}}"#,
        "x".repeat(100 << 20)
    );
    let stream = format!(
        "{}\n{huge}\n{}\n",
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": {"@call": "formatNumber", "args": {"value": 1, "decimals": "2"}}}]}}),
    );
    drop(huge);
    let report = messages::check_stream(&env, &stream);
    assert_eq!(
        located(&report),
        expect(&[
            (1, "", ErrorCode::LimitExceeded, None),
            (
                2,
                "/updateComponents/components/0/text/args/decimals",
                ErrorCode::ExpressionError,
                Some("formatNumber")
            ),
        ]),
        "{report}"
    );
    // The same in an array, and with a smaller limit.
    let array = format!("[{}]", stream.trim_end().replace('\n', ","));
    let mut checker = messages::StreamChecker::new(&env)
        .with_options(messages::StreamOptions::default().with_max_message_bytes(1 << 20));
    checker.check_stream(&array);
    let report = checker.finish();
    assert_eq!(report.problems()[0].code(), ErrorCode::LimitExceeded);
    assert_eq!(report.problems().len(), 2);
}

#[test]
fn deep_nesting_is_limit_exceeded_never_a_crash() {
    let env = env();
    for depth in [129, 200, 100_000] {
        let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let stream = format!(
            "{}\n{}\n{}\n",
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
            format_args!(
                r#"{{"version": "v1.0", "updateComponents": {{"surfaceId": "s", "components": [{{"id": "x", "component": "Text", "text": {deep}}}]}}}}"#
            ),
            json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}),
        );
        let report = messages::check_stream(&env, &stream);
        assert_eq!(report.message_count(), 3);
        assert_eq!(report.problems().len(), 1, "{report}");
        assert_eq!(report.problems()[0].message_index(), Some(1));
        assert_eq!(report.problems()[0].code(), ErrorCode::LimitExceeded);
    }
    // Already parsed (a value the host hands over): the compiler's depth limit applies.
    let mut deep = json!(1);
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let report = messages::check_messages(
        &env,
        &[
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [{"id": "x", "component": "Text", "text": deep}]}}),
        ],
    );
    assert_eq!(report.problems().len(), 1, "{report}");
    assert_eq!(report.problems()[0].code(), ErrorCode::LimitExceeded);
}

/// A catalog that is not registered, and a call that names none where there is no default, are
/// told apart by `Error::missing_catalog`, not by their words.
#[test]
fn a_missing_catalog_is_matched_by_its_accessor() {
    let report = messages::check_stream(
        &Environment::new(),
        &[
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "elsewhere"}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Text", "text": {"@call": "split", "catalogId": "other", "args": {"value": "a", "separator": ","}}}]}}),
        ]
        .map(|m| m.to_string())
        .join("\n"),
    );
    let missing: Vec<Option<&MissingCatalog>> = report
        .problems()
        .iter()
        .map(|p| p.missing_catalog())
        .collect();
    assert_eq!(
        missing,
        [
            Some(&MissingCatalog::NotRegistered("elsewhere".into())),
            Some(&MissingCatalog::NotRegistered("other".into())),
        ],
        "{report}"
    );
}

/// A catalog document with component schemas (as `check --catalog` applies them) for the
/// basic catalog's id: a Text and a Column.
fn basic_document() -> serde_json::Value {
    json!({"catalogId": BASIC, "components": {
        "Text": {"properties": {"component": {"const": "Text"}, "text": {}}, "required": ["component", "text"]},
        "Column": {"properties": {"component": {"const": "Column"},
            "children": {"type": "array", "items": {"type": "string"}}}, "required": ["component"]}}})
}

/// JSON lines of `messages`.
fn lines(messages: impl IntoIterator<Item = serde_json::Value>) -> String {
    messages.into_iter().map(|m| m.to_string() + "\n").collect()
}

/// A fresh checker (`StreamChecker::fresh`, how `a2ui-mcp check` reads its documents once for
/// all its files) judges against the template's documents and strictness, and starts from no
/// surface: what one stream created is not there for the next, and the template sees nothing.
#[test]
fn a_fresh_checker_keeps_the_documents_and_none_of_the_stream() {
    let env = env();
    let mut template = messages::StreamChecker::new(&env).with_strict(true);
    template.add_catalog_document(&basic_document()).unwrap();
    let create =
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}});
    let update = json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": "x", "colour": 1}]}});
    let check = |messages: &[&serde_json::Value]| {
        let mut checker = template.fresh();
        for message in messages {
            checker.check_value(message);
        }
        checker.finish()
    };
    // The document's schemas: the unknown property is a problem.
    let first = check(&[&create, &update]);
    assert_eq!(first.problems().len(), 1, "{first}");
    assert_eq!(
        first.problems()[0].location(),
        "/updateComponents/components/0/colour"
    );
    // A second stream: the surface of the first is not there.
    let second = check(&[&update]);
    assert_eq!(second.message_count(), 1);
    let [never_created] = second.problems() else {
        panic!("one problem expected: {second}");
    };
    assert_eq!(
        (never_created.category(), never_created.message_index()),
        (a2ui_catalog_mcp::stream::Category::Integrity, Some(0))
    );
    assert_eq!(
        never_created.message(),
        "Surface not found: 's' was never created (no createSurface before this message)"
    );
    // The template itself judged nothing.
    let report = template.finish();
    assert_eq!((report.message_count(), report.problems().len()), (0, 0));
}

/// Issue 34, item 4, in the judge: one message of 30 000 components, each with a problem the
/// checker finds (a call of an unknown function) and one the component schemas find (an
/// unknown property), and one message of 40 000 dangling children in strict mode. Every problem
/// is reported once each, and the problems are matched against one another by lookups: scanning
/// the message's problems per problem was quadratic (20 000 components took 8.5 s in release,
/// 9e8 comparisons here, which this test would not finish).
#[test]
fn a_message_of_many_problems_is_judged_in_one_pass() {
    let env = env();
    let documents = [basic_document()];
    let n = 30_000;
    let components: Vec<serde_json::Value> = (0..n)
        .map(|i| json!({"id": format!("c{i}"), "component": "Text", "text": {"call": "nope"}, "colour": 1}))
        .collect();
    let stream = lines([
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}}),
    ]);
    let report = messages::check_stream_with(&env, &documents, false, &stream).unwrap();
    assert_eq!(report.problems().len(), 2 * n);
    let last = &report.problems()[2 * n - 1];
    assert_eq!(
        (last.message_index(), last.location()),
        (Some(1), "/updateComponents/components/29999/colour")
    );

    let children: Vec<String> = (0..40_000).map(|i| format!("c{i}")).collect();
    let stream = lines([
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": children}]}}),
    ]);
    let report = messages::check_stream_with(&env, &documents, true, &stream).unwrap();
    // Each dangling child at its place in the message, then once more at the end of the stream.
    let at_message = report
        .problems()
        .iter()
        .filter(|p| {
            p.location()
                .starts_with("/updateComponents/components/0/children/")
        })
        .count();
    assert!(at_message >= 40_000, "{}", report.problems().len());
}

/// Issue 34, item 4, in the judge: `check --strict` of 20 000 empty `updateComponents` of a
/// surface of 5 000 components. Each message is judged by what it changes: walking the surface
/// per message was quadratic (8 000 such messages took 14 s; 1e8 visits here).
#[test]
fn strict_checks_of_many_updates_stay_linear() {
    let env = env();
    let documents = [basic_document()];
    let n = 5_000;
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>()})];
    components
        .extend((0..n).map(|i| json!({"id": format!("c{i}"), "component": "Text", "text": "x"})));
    let updates = 20_000;
    let stream = lines(
        [
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}}),
        ]
        .into_iter()
        .chain((0..updates).map(|_| {
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": []}})
        })),
    );
    let report = messages::check_stream_with(&env, &documents, true, &stream).unwrap();
    assert_eq!(report.message_count(), updates + 2);
    assert!(report.is_clean(), "{}", report.problems()[0]);
}

/// The one judge in the mode that lists every problem: a refused `createSurface` leaves its
/// surface for the next messages (no cascade of "never created"), an update of a surface never
/// created still has each of its components judged, on a surface whose catalog is not known,
/// and every problem of every value is reported once, at its pointer, with the compiler's code
/// and function.
#[test]
fn refused_messages_are_judged_whole_without_a_cascade() {
    let n = 3_000;
    let components: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            json!({"id": format!("c{i}"), "component": "Text",
            "text": {"call": "split", "catalogId": MCP_CATALOG_ID, "args": {"extra": 1}}})
        })
        .collect();
    let stream = lines([
        json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC,
            "components": [{"id": "root", "component": "Text", "text": {"call": "nope"}}]}}),
        json!({"version": "1.0", "updateComponents": {"surfaceId": "s",
            "components": [{"id": "root", "component": "Text", "text": "x"}]}}),
        json!({"version": "1.0", "updateComponents": {"surfaceId": "ghost", "components": components}}),
    ]);
    let report = messages::check_stream(&env(), &stream);
    let problems = report.problems();
    // One for the refused surface, none for its next message, then the ghost and three a
    // component (two arguments missing, one not known).
    assert_eq!(problems.len(), 1 + 1 + 3 * n, "{}", problems[0]);
    assert_eq!(
        (problems[0].message_index(), problems[0].location()),
        (Some(0), "/createSurface/components/0/text")
    );
    assert_eq!(
        (problems[1].message_index(), problems[1].location()),
        (Some(2), "/updateComponents/surfaceId")
    );
    assert!(problems[1].message().contains("never created"));
    for (i, chunk) in problems[2..].chunks(3).enumerate() {
        for p in chunk {
            assert_eq!(p.message_index(), Some(2));
            assert!(
                p.location()
                    .starts_with(&format!("/updateComponents/components/{i}/text")),
                "{p}"
            );
            assert_eq!(p.function(), Some("split"), "{p}");
        }
    }
}
