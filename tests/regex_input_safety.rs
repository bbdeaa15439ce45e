//! Issue 34, item 3: regular expressions inside the budgets. The review's attacks, each a few
//! kilobytes built here: distinct heavy patterns from the data under a template (thrashing
//! the pattern cache), a payload of many heavy literal patterns, TextFields with heavy checks.
//!
//! Each runs in a child process of its own (`support/peak.rs`), which asserts that the peak of
//! its resident memory stays under 64 MiB; the work is bounded by counting the patterns the
//! process compiles (`regex::compilations`, feature `internals`) and by the `LIMIT_EXCEEDED`
//! the budgets answer, never by a clock.

#[path = "support/peak.rs"]
mod peak;

use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog};
use a2ui_catalog_mcp::regex::{Pattern, compilations};
use a2ui_catalog_mcp::surfaces::{NodeState, Processor, ProcessorOptions, ResolveLimits};
use a2ui_catalog_mcp::{Environment, ErrorCode};
use serde_json::{Value, json};

/// A pattern of 11 bytes whose compiled program and first search cache take over 256 KiB
/// (a negated class repeated: a UTF-8 automaton per repetition), distinct for each `i`.
fn heavy(i: usize) -> String {
    let c = char::from_u32(0x4E00 + i as u32).unwrap();
    format!("[^{c}]{{400}}")
}

fn env() -> Environment {
    Environment::new()
        .with_catalog(BasicCatalog::new().build())
        .with_default_catalog(BASIC_CATALOG_ID)
}

/// How many `LIMIT_EXCEEDED` a rendered answer holds.
fn limits_reached(out: &Value) -> usize {
    out.to_string().matches("LIMIT_EXCEEDED").count()
}

/// Renders one message as `a2ui-mcp render` does: processed, then every tree resolved.
fn render(message: Value) -> Value {
    let mut p = Processor::with_environment(env(), ProcessorOptions::default());
    p.process(&message).unwrap();
    p.render_json(&[], ResolveLimits::default())
}

/// Processes one message with live trees (`ProcessorOptions::live`): how many instances
/// failed with `LIMIT_EXCEEDED`.
fn process_live(message: Value) -> usize {
    let options = ProcessorOptions::default().with_live(ResolveLimits::default());
    let mut p = Processor::with_environment(env(), options);
    p.process(&message).unwrap();
    let live = p.surface("s").unwrap().live().unwrap();
    live.instances()
        .into_iter()
        .filter(|&id| {
            matches!(live.node(id).unwrap().state(),
                Some(NodeState::Failed(why)) if why.contains("LIMIT_EXCEEDED"))
        })
        .count()
}

/// 257 distinct patterns from the data under a template of 4 × 257 rows.
fn data_patterns_under_a_template() -> Value {
    let rows: Vec<Value> = (0..4 * 257).map(|i| json!({"p": heavy(i % 257)})).collect();
    json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
    "catalogId": BASIC_CATALOG_ID, "dataModel": {"rows": rows},
    "components": [
        {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
        {"id": "row", "component": "CheckBox", "label": "x",
         "value": {"call": "regex", "args": {"value": "abc", "pattern": {"path": "p"}}}}
    ]}})
}

/// Runs one attack: returns its peak, after checking what it answered and how many patterns it
/// compiled.
fn attack(name: &str) -> u64 {
    let size = Pattern::new(&heavy(0)).unwrap().memory_usage();
    assert!(size > 256 << 10, "a heavy pattern takes {size} bytes");
    match name {
        // 257 distinct patterns from the data under a template of 4 × 257 rows: one more than
        // the cache's 256 entries, so that each row missed it and compiled its pattern again,
        // and the cache held 256 heavy programs.
        "data-patterns-under-a-template" => {
            let message = data_patterns_under_a_template();
            let before = compilations();
            let (out, peak) = peak::peak_of(|| render(message));
            let compiled = compilations() - before;
            let reached = limits_reached(&out);
            eprintln!("{name}: {compiled} compilations, {reached} LIMIT_EXCEEDED");
            // The message's budget pays for about 16 MiB of programs; the other rows are
            // refused without compiling.
            assert!(compiled <= 64, "{compiled} compilations");
            assert!(reached > 900, "{reached} rows refused");
            peak
        }
        // The same message, its trees kept live.
        "data-patterns-live" => {
            let message = data_patterns_under_a_template();
            let before = compilations();
            let (reached, peak) = peak::peak_of(|| process_live(message));
            let compiled = compilations() - before;
            eprintln!("{name}: {compiled} compilations, {reached} LIMIT_EXCEEDED");
            assert!(compiled <= 64, "{compiled} compilations");
            assert!(reached > 900, "{reached} rows refused");
            peak
        }
        // 1 000 regexCapture calls of distinct heavy literal patterns: the payload held a
        // program for each.
        "literal-patterns" => {
            let calls: Vec<Value> = (0..1_000)
                .map(|i| json!({"@call": "regexCapture", "args": {"value": "abc", "pattern": heavy(i)}}))
                .collect();
            let payload = Value::Array(calls);
            let before = compilations();
            let (result, peak) = peak::peak_of(|| {
                let compiled = Environment::new().compile(&payload).unwrap();
                compiled.eval(&mut json!({}))
            });
            let compiled = compilations() - before;
            eprintln!("{name}: {compiled} compilations");
            // Each literal once when the payload is compiled; the evaluation compiles again
            // what the cache no longer holds, within its budget.
            let err = result.unwrap_err();
            assert_eq!(err.code(), ErrorCode::LimitExceeded, "{err}");
            assert!(err.message().contains("Limits::max_eval_"), "{err}");
            assert_eq!(err.function(), Some("regexCapture"));
            assert!(err.location().starts_with('/'), "{}", err.location());
            assert!(compiled <= 1_000 + 64, "{compiled} compilations");
            peak
        }
        // 400 TextFields, each with a check of its own heavy pattern: 144 more than the cache
        // held, each compiled again at each evaluation.
        "text-field-checks" => {
            let fields: Vec<String> = (0..400).map(|i| format!("f{i}")).collect();
            let mut components =
                vec![json!({"id": "root", "component": "Column", "children": fields})];
            components.extend(fields.iter().enumerate().map(|(i, id)| {
                json!({"id": id, "component": "TextField", "label": "x", "value": {"path": "/v"},
                       "checks": [{"condition": {"call": "regex", "args": {"value": {"path": "/v"}, "pattern": heavy(i)}},
                                   "message": "no"}]})
            }));
            let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
                "catalogId": BASIC_CATALOG_ID, "dataModel": {"v": "abc"},
                "components": components}});
            let before = compilations();
            let (out, peak) = peak::peak_of(|| render(message));
            let compiled = compilations() - before;
            let reached = limits_reached(&out);
            eprintln!("{name}: {compiled} compilations, {reached} LIMIT_EXCEEDED");
            // Each pattern once when the message is processed; rendering compiles again what
            // the cache no longer holds, within the message's budget, and refuses the rest.
            assert!(compiled <= 400 + 64, "{compiled} compilations");
            assert!(reached > 300, "{reached} checks refused");
            peak
        }
        other => panic!("no attack {other}"),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn regular_expressions_are_bounded_in_memory_and_work() {
    peak::each_in_a_child(
        "regular_expressions_are_bounded_in_memory_and_work",
        &[
            "data-patterns-under-a-template",
            "data-patterns-live",
            "literal-patterns",
            "text-field-checks",
        ],
        attack,
    );
}
