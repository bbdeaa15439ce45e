//! The message processor on the official gallery and on the deliberate mistakes of issue 22.

use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
use serde_json::{Value, json};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(path)).unwrap()).unwrap()
}

fn basic() -> Value {
    read("tests/a2ui-v1/schemas/catalogs/basic/catalog.json")
}

fn processor(options: ProcessorOptions) -> Processor {
    let mut p = Processor::new(options);
    p.register_catalog(&basic()).unwrap();
    p
}

fn gallery() -> Vec<(String, Value)> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/a2ui-v1/gallery"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            (
                name,
                serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_gallery_example_processes_without_errors() {
    let files = gallery();
    assert_eq!(files.len(), 43);
    let mut problems = Vec::new();
    for (name, stream) in files {
        let mut p = processor(ProcessorOptions::default());
        for e in p.process_all(&stream) {
            problems.push(format!("{name}: {e}"));
        }
        assert!(p.surfaces().count() >= 1, "{name}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn create(components: Value) -> Value {
    json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC, "components": components}})
}

fn update(components: Value) -> Value {
    json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}})
}

/// Each deliberate mistake of the issue, with where it is reported.
#[test]
fn component_mistakes_are_located() {
    let cases = [
        (
            json!([{"id": "root", "component": "Txt", "text": "x"}]),
            false,
            "/createSurface/components/0/component",
            "unknown component type 'Txt'",
        ),
        (
            json!([{"id": "root", "component": "Text"}]),
            false,
            "/createSurface/components/0",
            "Text 'root' needs the property 'text'",
        ),
        (
            json!([{"id": "root", "component": "Text", "text": "x", "variant": "huge"}]),
            false,
            "/createSurface/components/0/variant",
            "Text.variant is \"huge\", not one of \"caption\", \"body\"",
        ),
        (
            json!([{"id": "root", "component": "Text", "text": "x", "colour": "red"}]),
            false,
            "/createSurface/components/0/colour",
            "unknown property 'colour' of Text",
        ),
        (
            json!([{"id": "root", "component": "Text", "text": 3}]),
            false,
            "/createSurface/components/0/text",
            "Text.text must be a string, a binding or a call, got a number",
        ),
        (
            json!([{"id": "root", "component": "Column", "children": ["a"]}, {"id": "a", "component": "Text", "text": "x"}, {"id": "a", "component": "Text", "text": "y"}]),
            false,
            "/createSurface/components/2/id",
            "duplicate component id 'a'",
        ),
        (
            json!([{"id": "root", "component": "Column", "children": ["nope"]}]),
            true,
            "/createSurface/components/0/children/0",
            "Dangling reference",
        ),
        (
            json!([{"id": "main", "component": "Text", "text": "x"}]),
            true,
            "",
            "Missing root component",
        ),
        (
            json!([{"id": "root", "component": "Text", "text": "x"}, {"id": "lost", "component": "Text", "text": "y"}]),
            true,
            "/createSurface/components/1",
            "component 'lost' is not reachable from 'root'",
        ),
        (
            json!([{"id": "root", "component": "Column", "children": ["root"]}]),
            false,
            "/createSurface/components/0/children/0",
            "Self-reference detected",
        ),
        (
            json!([{"id": "root", "component": "Column", "children": ["a"]}, {"id": "a", "component": "Card", "child": "root"}]),
            false,
            "/createSurface/components/0",
            "Circular component reference: root → a → root",
        ),
    ];
    for (components, strict, pointer, message) in cases {
        let mut p = processor(ProcessorOptions::default().with_strict(strict));
        let err = p.process(&create(components.clone())).unwrap_err();
        assert_eq!(err.location(), pointer, "{components}: {err}");
        assert!(err.message().contains(message), "{components}: {err}");
        // Nothing the message carried was applied.
        assert!(p.surface("s").is_none());
    }
}

#[test]
fn a_message_that_fails_changes_nothing() {
    let mut p = processor(ProcessorOptions::default().with_strict(true));
    p.process(&create(json!([
        {"id": "root", "component": "Column", "children": ["c1"]},
        {"id": "c1", "component": "Text", "text": "Valid"}
    ])))
    .unwrap();
    // The suite's batch_atomic_rollback_on_candidate_topology_cycle.
    let err = p
        .process(&update(json!([
            {"id": "c1", "component": "Column", "children": ["c2"]},
            {"id": "c2", "component": "Column", "children": ["c1"]}
        ])))
        .unwrap_err();
    assert!(
        err.message().starts_with("Circular component reference"),
        "{err}"
    );
    assert_eq!(err.message_index(), Some(1));
    let s = p.surface("s").unwrap();
    assert_eq!(s.component("c1").unwrap().component, "Text");
    assert!(s.component("c2").is_none());
    assert_eq!(
        a2ui_catalog_mcp::surfaces::agent_error_message(&err)["error"]["code"],
        "VALIDATION_FAILED"
    );
    // A whole-component upsert: the old properties do not survive.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 1}})).unwrap();
    p.process(&update(
        json!([{"id": "c1", "component": "Text", "text": {"path": "/n"}, "variant": "caption"}]),
    ))
    .unwrap();
    p.process(&update(
        json!([{"id": "c1", "component": "Text", "text": "plain"}]),
    ))
    .unwrap();
    let c1 = p.surface("s").unwrap().component("c1").unwrap();
    assert!(c1.props.get("variant").is_none());
    assert!(c1.compiled("text").is_none());
}

#[test]
fn bad_messages_are_located_errors() {
    let mut p = processor(ProcessorOptions::default());
    p.process(&create(
        json!([{"id": "root", "component": "Text", "text": "x"}]),
    ))
    .unwrap();
    let bad = [
        (
            json!({"version": "v1.0", "createSurface": {"surfaceId": "t", "catalogId": BASIC}, "deleteSurface": {"surfaceId": "s"}}),
            "",
        ),
        (
            json!({"version": "v1.0", "createSurface": {"surfaceId": 12345}}),
            "/createSurface/surfaceId",
        ),
        (json!({}), ""),
        (
            json!({"version": "v1.0", "updateDataModel": {"value": 1}}),
            "/updateDataModel",
        ),
        (
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/__proto__/x", "value": 1}}),
            "/updateDataModel/path",
        ),
    ];
    for (message, pointer) in bad {
        let err = p.process(&message).unwrap_err();
        assert_eq!(err.location(), pointer, "{message}: {err}");
    }
    assert!(p.surface("t").is_none());
    assert_eq!(p.surface("s").unwrap().data_model(), &json!({}));
    p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}))
        .unwrap();
    let err = p
        .process(&update(
            json!([{"id": "root", "component": "Text", "text": "y"}]),
        ))
        .unwrap_err();
    assert_eq!(err.category().as_str(), "IntegrityError");
    assert!(
        err.message()
            .starts_with("Surface not found: 's' was deleted"),
        "{err}"
    );
}

#[test]
fn component_count_is_bounded_and_deep_values_do_not_recurse() {
    let mut p = processor(ProcessorOptions::default().with_max_components(1000));
    let many: Vec<Value> = (0..1001)
        .map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": "x"}))
        .collect();
    let err = p.process(&create(Value::Array(many))).unwrap_err();
    assert_eq!(err.category().as_str(), "RecursionError");
    assert!(p.surface("s").is_none());
    // 100 000 components, the default limit: accepted, in linear time, once the host lets its
    // surfaces hold more than the default 64 MiB (they take about 107 MB here).
    let mut p = processor(ProcessorOptions::default().with_max_held_bytes(256 << 20));
    let mut children = Vec::new();
    let mut many = Vec::new();
    for i in 0..99_999 {
        children.push(json!(format!("t{i}")));
        many.push(json!({"id": format!("t{i}"), "component": "Text", "text": "x"}));
    }
    many.push(json!({"id": "root", "component": "Column", "children": children}));
    let start = std::time::Instant::now();
    p.process(&create(Value::Array(many))).unwrap();
    assert_eq!(p.surface("s").unwrap().component_count(), 100_000);
    assert!(start.elapsed().as_secs() < 30);
    // A chain 5 000 deep (a Card in a Card…): no recursion in the graph walks.
    let mut p = processor(ProcessorOptions::default().with_strict(true));
    let mut chain = vec![json!({"id": "root", "component": "Card", "child": "c0"})];
    for i in 0..5000 {
        chain.push(
            json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)}),
        );
    }
    chain.push(json!({"id": "c5000", "component": "Text", "text": "end"}));
    p.process(&create(Value::Array(chain))).unwrap();
}

#[test]
fn the_tree_resolves_templates_pending_children_and_failures() {
    use a2ui_catalog_mcp::surfaces::{NodeState, ResolveLimits};
    let mut p = processor(ProcessorOptions::default());
    p.process(
        &json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC,
        "dataModel": {"title": "Files", "rows": [{"name": "a"}, {"name": "b"}]}}}),
    )
    .unwrap();
    p.process(&update(json!([
        {"id": "root", "component": "Column", "children": ["title", "list", "later"]},
        {"id": "title", "component": "Text", "text": {"path": "/title"}},
        {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
        {"id": "row", "component": "Row", "children": ["name", "n"]},
        {"id": "name", "component": "Text", "text": {"path": "name"}},
        {"id": "n", "component": "Text", "text": {"call": "@index", "args": {"offset": 1}}},
        {"id": "bad", "component": "Text", "text": {"call": "formatString", "args": {"value": "${/title}"}}}
    ])))
    .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    let drawn: Vec<String> = tree
        .nodes
        .iter()
        .map(|n| {
            format!(
                "{} {} {} {}",
                n.key(),
                n.slot.as_deref().unwrap_or("-"),
                n.parent.as_deref().unwrap_or("-"),
                n.props
                    .get("text")
                    .map(Value::to_string)
                    .unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        drawn,
        [
            "root@/ - - ",
            "title@/ children[0] root@/ \"Files\"",
            "list@/ children[1] root@/ ",
            "later@/ children[2] root@/ ",
            "row@/rows/0 children[0] list@/ ",
            "row@/rows/1 children[1] list@/ ",
            "name@/rows/0 children[0] row@/rows/0 \"a\"",
            "n@/rows/0 children[1] row@/rows/0 1",
            "name@/rows/1 children[0] row@/rows/1 \"b\"",
            "n@/rows/1 children[1] row@/rows/1 2",
        ]
    );
    // A child not defined yet is pending.
    assert_eq!(tree.nodes[3].state, Some(NodeState::Pending));
    // Declared but not implemented (the basic catalog until it lands): failed, with its error.
    p.process(&update(json!([{"id": "later", "component": "Text", "text": {"call": "formatString", "args": {"value": "x"}}}])))
        .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    let later = tree
        .nodes
        .iter()
        .find(|n| n.component_id == "later")
        .unwrap();
    assert!(
        matches!(&later.state, Some(NodeState::Failed(why)) if why.contains("formatString")),
        "{later:?}"
    );
    // An item appended: the surviving items keep their data path (their identity).
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows/2", "value": {"name": "c"}}}))
        .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    let rows: Vec<String> = tree
        .nodes
        .iter()
        .filter(|n| n.component_id == "row")
        .map(Node::key)
        .collect();
    assert_eq!(rows, ["row@/rows/0", "row@/rows/1", "row@/rows/2"]);
    // A template over more items than the host allows: the list fails with LIMIT_EXCEEDED.
    let mut limits = ResolveLimits::default();
    limits.max_template_items = 2;
    let tree = p.surface("s").unwrap().resolve(limits);
    let list = tree
        .nodes
        .iter()
        .find(|n| n.component_id == "list")
        .unwrap();
    assert!(
        matches!(&list.state, Some(NodeState::Failed(why)) if why.starts_with("LIMIT_EXCEEDED"))
    );
    assert!(tree.nodes.iter().all(|n| n.component_id != "row"));
}

#[test]
fn a_template_over_a_million_items_is_bounded() {
    use a2ui_catalog_mcp::surfaces::{NodeState, ResolveLimits};
    // A million rows take 72 MB: more than the default `max_held_bytes`, which the host raises.
    let mut p = processor(ProcessorOptions::default().with_max_held_bytes(256 << 20));
    let rows = Value::Array(vec![Value::Null; 1_000_000]);
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC,
        "dataModel": {"rows": rows},
        "components": [
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Text", "text": "x"}
        ]}}))
        .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    assert_eq!(tree.nodes.len(), 1);
    assert!(
        matches!(&tree.nodes[0].state, Some(NodeState::Failed(why)) if why.contains("1000000 items"))
    );
}

use a2ui_catalog_mcp::surfaces::Node;

#[test]
fn a_long_stream_runs_in_linear_time() {
    // 200 000 messages here (a run of 1 100 000 takes about 35 s in a debug build).
    let mut p = processor(ProcessorOptions::default());
    p.process(&create(
        json!([{"id": "root", "component": "Text", "text": {"path": "/n"}}]),
    ))
    .unwrap();
    let run = |p: &mut Processor, n: usize| {
        let start = std::time::Instant::now();
        for i in 0..n {
            let message = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/n", "value": i}});
            p.process(&message).unwrap();
        }
        start.elapsed()
    };
    let small = run(&mut p, 20_000);
    let large = run(&mut p, 200_000);
    assert_eq!(p.message_count(), 220_001);
    assert_eq!(p.surface("s").unwrap().data_model(), &json!({"n": 199_999}));
    // Ten times the messages in well under a hundred times the time (a quadratic cost would
    // take about a hundred times).
    assert!(
        large < small * 40,
        "{small:?} for 20 000, {large:?} for 200 000"
    );
}

/// A surface a tool returned remembers the tool and its server (what `SameServerAsSource`
/// confines its calls to); one the agent sent has no source.
#[test]
fn surfaces_a_tool_returned_keep_their_source() {
    use a2ui_catalog_mcp::mcp::MessageSink;
    use a2ui_catalog_mcp::mcp::Provenance;
    use a2ui_catalog_mcp::surfaces::SharedProcessor;
    let shared = SharedProcessor::new(processor(ProcessorOptions::default()));
    let create = |id: &str| json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}});
    shared.process_from(
        vec![create("from-tool")],
        &Provenance::new("show_issues", Some("github".to_owned())),
    );
    shared.process(vec![create("from-agent")]);
    assert!(shared.take_errors().is_empty());
    shared.with(|p| {
        let source = p.surface("from-tool").unwrap().source().unwrap();
        assert_eq!(source.tool, "show_issues");
        assert_eq!(source.server.as_deref(), Some("github"));
        assert!(p.surface("from-agent").unwrap().source().is_none());
    });
}
