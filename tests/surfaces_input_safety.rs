//! Bad input against the live resolution (`ProcessorOptions::live`): long streams, long
//! templates, many components and deep component chains. Bounds are counts, never a stopwatch:
//! what each message reports, what the trees hold, and that every walk finishes without
//! recursion (a recursive walk over the 100 000-deep chain below would overflow the stack).

use a2ui_catalog_mcp::surfaces::{NodeState, Processor, ProcessorOptions, ResolveLimits};
use serde_json::{Value, json};

fn live(limits: ResolveLimits) -> Processor {
    Processor::new(
        ProcessorOptions::default()
            .accept_unregistered_catalogs(true)
            .live(limits),
    )
}

fn create(p: &mut Processor, id: &str, model: Value, components: Value) {
    p.process(
        &json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": "c",
        "dataModel": model, "components": components}}),
    )
    .unwrap();
}

/// A stream of 1 000 000 small messages finishes, and each reports what it reached alone: one
/// property of one row (a write of an equal value, nothing), whatever came before. The work per
/// message is bounded by what is reported, so the stream is linear in its length.
#[test]
fn a_million_small_messages_each_report_what_they_reach() {
    let mut p = live(ResolveLimits::default());
    let rows: Vec<Value> = (0..100).map(|i| json!({"name": format!("r{i}")})).collect();
    create(
        &mut p,
        "s",
        json!({"rows": rows}),
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Text", "text": {"path": "name"}}
        ]),
    );
    p.take_changes();
    let mut updates = 0usize;
    let messages = 1_000_000;
    let mut message =
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "", "value": ""}});
    for i in 0..messages {
        message["updateDataModel"]["path"] = json!(format!("/rows/{}/name", i % 100));
        message["updateDataModel"]["value"] = json!(format!("v{}", i % 7));
        p.process(&message).unwrap();
        let changes = p.take_changes();
        let reported: usize = changes
            .surfaces
            .values()
            .map(|c| c.updated.len() + c.created.len() + c.removed.len())
            .sum();
        assert!(reported <= 1, "message {i} reported {reported} changes");
        updates += reported;
    }
    assert_eq!(p.message_count(), messages + 1);
    // Row i % 100 gets v(i % 7): the same value again only when both repeat.
    assert!(updates > messages / 2, "{updates}");
    assert_eq!(p.surface("s").unwrap().live().unwrap().len(), 101);
}

/// A template over 1 000 000 items is bounded by the host's limit: its instance is `failed`
/// with `LIMIT_EXCEEDED` and no row is made; under a limit that admits it, rows are made.
#[test]
fn a_template_over_a_million_items_is_bounded_by_the_host_limit() {
    let items: Vec<Value> = (0..1_000_000).map(|i| json!(i)).collect();
    let mut limits = ResolveLimits::default();
    limits.max_template_items = 1_000;
    let mut p = live(limits);
    create(
        &mut p,
        "s",
        json!({"items": items}),
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "item", "path": "/items"}},
            {"id": "item", "component": "Text", "text": {"path": ""}}
        ]),
    );
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(live.len(), 1);
    let root = live.node(live.root().unwrap()).unwrap();
    match root.state() {
        Some(NodeState::Failed(why)) => assert!(why.starts_with("LIMIT_EXCEEDED"), "{why}"),
        other => panic!("expected a failed list, got {other:?}"),
    }
    assert_eq!(p.take_changes().surfaces["s"].created.len(), 1);
    // The list shrinks under the limit: its rows are made, the list reported changed.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/items", "value": [1, 2, 3]}}))
        .unwrap();
    let changes = p.take_changes();
    assert_eq!(changes.surfaces["s"].created.len(), 3);
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(live.len(), 4);
    assert_eq!(live.node(live.root().unwrap()).unwrap().state(), None);
}

/// 100 000 components: a surface at the component limit builds its live tree (at the node
/// limit, each instance made once), and one more component is `LIMIT_EXCEEDED`, changing
/// nothing.
#[test]
fn a_hundred_thousand_components() {
    let n = 100_000;
    let mut components = vec![json!({"id": "root", "component": "Column",
        "children": (1..n).map(|i| format!("t{i}")).collect::<Vec<_>>()})];
    components.extend(
        (1..n).map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": {"path": "/x"}})),
    );
    let mut p = live(ResolveLimits::default());
    create(&mut p, "s", json!({"x": "a"}), Value::Array(components));
    assert_eq!(p.surface("s").unwrap().live().unwrap().len(), n);
    p.take_changes();
    // One write reaches every Text.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/x", "value": "b"}}))
        .unwrap();
    assert_eq!(p.take_changes().surfaces["s"].updated.len(), n - 1);
    let err = p
        .process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "extra", "component": "Text", "text": "x"}]}}),
        )
        .unwrap_err();
    assert_eq!(err.to_agent_message()["error"]["code"], "LIMIT_EXCEEDED");
    assert!(p.take_changes().is_empty());
}

/// A chain of 100 000 components, each the child of the one before: built, replaced and
/// dropped with explicit work lists (a recursive walk would overflow the stack).
#[test]
fn a_hundred_thousand_deep_chain_is_built_and_dropped_without_recursion() {
    let n = 100_000;
    let components: Vec<Value> = (0..n)
        .map(|i| {
            let id = if i == 0 {
                "root".to_string()
            } else {
                format!("c{i}")
            };
            if i + 1 < n {
                json!({"id": id, "component": "Card", "child": format!("c{}", i + 1)})
            } else {
                json!({"id": id, "component": "Text", "text": {"path": "/leaf"}})
            }
        })
        .collect();
    let mut p = live(ResolveLimits::default());
    create(&mut p, "s", json!({"leaf": "x"}), Value::Array(components));
    assert_eq!(p.surface("s").unwrap().live().unwrap().len(), n);
    p.take_changes();
    // The root becomes a Text: the whole chain under it is dropped.
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Text", "text": "flat"}]}}),
    )
    .unwrap();
    let changes = p.take_changes();
    assert_eq!(changes.surfaces["s"].removed.len(), n);
    assert_eq!(changes.surfaces["s"].created.len(), 1);
    p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}))
        .unwrap();
    assert_eq!(p.take_changes().surfaces_deleted, ["s"]);
}

/// A stream that defines 50 000 pending children one message at a time: each message finds
/// the placeholders of its component without walking the tree (a walk per message would make
/// the stream quadratic: 1.25e9 visits, which this test would not finish), and reports one
/// placeholder replaced.
#[test]
fn children_defined_one_message_each_stay_linear() {
    let n = 50_000;
    let mut p = live(ResolveLimits::default());
    create(
        &mut p,
        "s",
        json!({}),
        json!([{"id": "root", "component": "Column",
            "children": (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>()}]),
    );
    assert_eq!(p.surface("s").unwrap().live().unwrap().len(), n + 1);
    p.take_changes();
    for i in 0..n {
        p.process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": format!("c{i}"), "component": "Text", "text": "x"}]}}),
        )
        .unwrap();
        let changes = p.take_changes();
        let c = &changes.surfaces["s"];
        assert_eq!(
            (c.created.len(), c.removed.len(), c.updated.len()),
            (1, 1, 1)
        );
    }
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(live.len(), n + 1);
    assert!(
        live.instances()
            .iter()
            .all(|id| live.node(*id).unwrap().state().is_none())
    );
}
