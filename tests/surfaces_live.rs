//! The live resolution (`ProcessorOptions::live`): after every message of every gallery example
//! and of hand-made streams, the live tree reads as `Surface::resolve` resolves; changes report
//! what a message, a write or a refresh reached, and only that.

use a2ui_catalog_mcp::stream::messages_of;
use a2ui_catalog_mcp::surfaces::{InstanceId, Processor, ProcessorOptions, ResolveLimits};
use a2ui_catalog_mcp::{JsonPointer, MCP_CATALOG_ID};
use serde_json::{Value, json};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn live() -> ProcessorOptions {
    ProcessorOptions::default()
        .with_accept_unregistered_catalogs(true)
        .with_live(ResolveLimits::default())
}

/// Every surface's live tree equals its resolution.
fn assert_same(p: &Processor, at: &str) {
    for surface in p.surfaces() {
        let want = surface.resolve(ResolveLimits::default());
        let got = surface.live().expect("live").to_tree();
        assert_eq!(got, want, "{at}: surface {}", surface.id());
    }
}

#[test]
fn every_gallery_example_resolves_live_as_whole() {
    let basic: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/a2ui-v1/schemas/catalogs/basic/catalog.json"))
            .unwrap(),
    )
    .unwrap();
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/a2ui-v1/gallery"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 40);
    for file in files {
        let stream: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut p = Processor::new(live());
        p.register_catalog(&basic).unwrap();
        for (i, (_, message)) in messages_of(&stream).into_iter().enumerate() {
            let _ = p.process(message);
            assert_same(&p, &format!("{} message {i}", file.display()));
        }
        let changes = p.take_changes();
        for surface in p.surfaces() {
            let created = changes
                .surfaces
                .get(surface.id())
                .map_or(0, |c| c.created.len());
            assert_eq!(
                created,
                surface.live().unwrap().len(),
                "{}: every instance of a new surface is reported created",
                file.display()
            );
        }
    }
}

fn stream(p: &mut Processor, messages: &[Value]) {
    for m in messages {
        p.process(m).unwrap();
    }
}

fn rows_surface(n: usize) -> Vec<Value> {
    let rows: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("r{i}"), "n": i}))
        .collect();
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["title", "list"]},
            {"id": "title", "component": "Text", "text": {"path": "/title"}},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Row", "children": ["name", "count"]},
            {"id": "name", "component": "Text", "text": {"path": "name"}},
            {"id": "count", "component": "Text", "text": {"call": "transformData", "catalogId": MCP_CATALOG_ID, "args": {"data": {"n": {"path": "n"}, "t": {"path": "/title"}}, "jmespath": "join(' of ', [to_string(n), t])"}}},
            {"id": "all", "component": "Text", "text": {"path": "/rows"}}
        ]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/", "value": {"title": "T", "rows": rows}}}),
    ]
}

fn node_of(p: &Processor, key: &str) -> InstanceId {
    let live = p.surface("s").unwrap().live().unwrap();
    live.instances()
        .into_iter()
        .find(|&id| live.node(id).unwrap().key() == key)
        .unwrap_or_else(|| panic!("no node {key}"))
}

#[test]
fn a_one_row_edit_reaches_that_row_alone() {
    let mut p = Processor::new(live());
    stream(&mut p, &rows_surface(50));
    assert_same(&p, "built");
    let first = p.take_changes();
    assert_eq!(first.surfaces_created, ["s"]);
    // root, title, list, 50 rows of three.
    assert_eq!(first.surfaces["s"].created.len(), 3 + 150);
    let name7 = node_of(&p, "name@/rows/7");
    let before = p.surface("s").unwrap().live().unwrap().instances();
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows/7/name", "value": "x"}}))
        .unwrap();
    let changes = p.take_changes();
    assert_eq!(
        changes.surfaces["s"].updated,
        [(name7, vec!["text".to_string()])]
    );
    assert!(changes.surfaces["s"].created.is_empty() && changes.surfaces["s"].removed.is_empty());
    assert_eq!(p.surface("s").unwrap().live().unwrap().instances(), before);
    assert_same(&p, "one row edited");
    // The same value again: nothing changed.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows/7/name", "value": "x"}}))
        .unwrap();
    assert!(p.take_changes().is_empty());
}

#[test]
fn the_title_reaches_every_row_that_reads_it() {
    let mut p = Processor::new(live());
    stream(&mut p, &rows_surface(5));
    p.take_changes();
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/title", "value": "U"}}))
        .unwrap();
    let changes = p.take_changes();
    // The title and the five computed counts.
    assert_eq!(changes.surfaces["s"].updated.len(), 6);
    assert_same(&p, "title");
}

#[test]
fn rows_keep_their_identity_by_position() {
    let mut p = Processor::new(live());
    stream(&mut p, &rows_surface(3));
    p.take_changes();
    let row0 = node_of(&p, "row@/rows/0");
    let row2 = node_of(&p, "row@/rows/2");
    let list = node_of(&p, "list@/");
    // Appended.
    p.write_path(
        "s",
        &JsonPointer::root(),
        "/rows/3",
        json!({"name": "d", "n": 3}),
    )
    .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].created.len(), 3);
    assert_eq!(
        c.surfaces["s"].updated,
        [(list, vec!["children".to_string()])]
    );
    assert_same(&p, "appended");
    // Replaced by a shorter list: the rows past its end dropped, the first kept.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows", "value": [{"name": "r0", "n": 0}, {"name": "z", "n": 1}]}}))
        .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].removed.len(), 6);
    assert!(c.surfaces["s"].removed.contains(&row2));
    assert_eq!(node_of(&p, "row@/rows/0"), row0);
    let changed: Vec<String> = c.surfaces["s"]
        .updated
        .iter()
        .map(|(id, props)| {
            format!(
                "{} {props:?}",
                p.surface("s")
                    .unwrap()
                    .live()
                    .unwrap()
                    .node(*id)
                    .unwrap()
                    .key()
            )
        })
        .collect();
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert!(changed.contains(&"list@/ [\"children\"]".to_string()));
    assert!(changed.contains(&"name@/rows/1 [\"text\"]".to_string()));
    assert_same(&p, "shortened");
    // A removal.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows/0", "value": null}}))
        .unwrap();
    assert_same(&p, "removed");
}

#[test]
fn components_sent_again_update_in_place_or_replace() {
    let mut p = Processor::new(live());
    stream(&mut p, &rows_surface(2));
    p.take_changes();
    let name0 = node_of(&p, "name@/rows/0");
    let list = node_of(&p, "list@/");
    // Same type: updated in place, every instance reported once.
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "name", "component": "Text", "text": "fixed"}]}}),
    )
    .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].updated.len(), 2);
    assert_eq!(c.surfaces["s"].updated[0].1, ["text"]);
    assert_eq!(node_of(&p, "name@/rows/0"), name0);
    assert_same(&p, "text fixed");
    // Another type: replaced, the parent's children changed.
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "row", "component": "Card", "child": "name"}]}}),
    )
    .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].removed.len(), 6);
    assert_eq!(c.surfaces["s"].created.len(), 4);
    assert_eq!(
        c.surfaces["s"].updated,
        [(list, vec!["children".to_string()])]
    );
    assert_same(&p, "row a card");
    // A pending child defined.
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "root", "component": "Column", "children": ["title", "list", "later"]}]}}),
    )
    .unwrap();
    assert_same(&p, "pending child");
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "later", "component": "Text", "text": "now"}]}}),
    )
    .unwrap();
    assert_same(&p, "pending child defined");
    // A bad message changes nothing, the live tree included.
    let before = p.surface("s").unwrap().live().unwrap().to_tree();
    p.take_changes();
    assert!(p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "later", "component": "Text", "child": "root", "text": "x"}, {"id": "root", "component": "Column", "children": ["later"]}]}}))
        .is_err());
    assert!(p.take_changes().is_empty());
    assert_eq!(p.surface("s").unwrap().live().unwrap().to_tree(), before);
}

#[test]
fn surfaces_created_and_deleted_are_reported() {
    let mut p = Processor::new(live());
    stream(&mut p, &rows_surface(1));
    p.take_changes();
    p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}))
        .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces_deleted, ["s"]);
    assert!(c.surfaces.is_empty());
}

#[test]
fn a_template_over_the_limit_fails_its_instance() {
    let mut limits = ResolveLimits::default();
    limits.max_template_items = 10;
    let mut p = Processor::new(
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_live(limits),
    );
    stream(&mut p, &rows_surface(11));
    let live = p.surface("s").unwrap().live().unwrap();
    let tree = live.to_tree();
    assert_eq!(tree, p.surface("s").unwrap().resolve(limits));
    let list = tree
        .nodes
        .iter()
        .find(|n| n.component_id == "list")
        .unwrap();
    assert!(
        matches!(&list.state, Some(a2ui_catalog_mcp::surfaces::NodeState::Failed(why)) if why.starts_with("LIMIT_EXCEEDED"))
    );
    assert_eq!(live.len(), 3);
}

/// A value that calls a tool is pending, its run handed to the host; the result becomes the
/// property's value and is reported; a run superseded by a later one (its dependency changed)
/// is ignored.
#[cfg(feature = "testing")]
#[test]
fn tool_results_are_reported_and_superseded_runs_ignored() {
    use a2ui_catalog_mcp::surfaces::{NodeState, RunOutcome};
    use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
    let server = ScriptedServer::from_json(&json!({"results": {"greet": [
        {"content": [{"type": "text", "text": "\"hello Ada\""}]},
        {"content": [{"type": "text", "text": "\"hello Lin\""}]}
    ]}}))
    .unwrap();
    let mut p = Processor::new(live());
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
        "dataModel": {"who": "Ada"},
        "components": [{"id": "root", "component": "Text", "text": {"call": "callMcpTool",
            "catalogId": MCP_CATALOG_ID, "args": {"name": "greet", "arguments": {"who": {"path": "/who"}}}}}]}}))
        .unwrap();
    p.take_changes();
    let root = node_of(&p, "root@/");
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(live.node(root).unwrap().state(), Some(NodeState::Pending));
    let runs = p.take_tool_runs();
    assert_eq!(runs.len(), 1);
    assert_eq!(
        (runs[0].instance(), runs[0].prop()),
        (Some(root), Some("text"))
    );
    let first = runs[0].clone();
    // The name changes before the first run completes: a second run supersedes it.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/who", "value": "Lin"}}))
        .unwrap();
    let second = p.take_tool_runs().remove(0);
    assert!(
        p.take_changes().is_empty(),
        "pending before and after: nothing to redraw"
    );
    let host = server.host();
    let a = block_on(first.execute(&host));
    let b = block_on(second.execute(&host));
    assert!(matches!(p.finish_tool_run(a), RunOutcome::Ignored));
    assert!(p.take_changes().is_empty());
    assert!(matches!(p.finish_tool_run(b), RunOutcome::Done(_)));
    let changes = p.take_changes();
    assert_eq!(
        changes.surfaces["s"].updated,
        [(root, vec!["text".to_string()])]
    );
    let live = p.surface("s").unwrap().live().unwrap();
    let node = live.node(root).unwrap();
    assert_eq!(node.state(), None);
    let value = node.prop("text").unwrap();
    assert_eq!(value["text"], json!("\"hello Lin\""));
    assert_eq!(value["toolInput"], json!({"who": "Lin"}));
    assert_eq!(server.tool_calls().len(), 2);
}

/// A value bound to the whole list is reported when a row changes (it reads that row), and a
/// template nested in a row follows its own array: edits, appends and removals inside one row
/// reach that row's nested rows alone; after each, the live tree reads as `resolve`.
#[test]
fn nested_templates_and_a_binding_to_the_whole_list() {
    let mut p = Processor::new(live());
    stream(
        &mut p,
        &[
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "dataModel": {"groups": [
                {"name": "a", "items": [{"t": "a0"}, {"t": "a1"}]},
                {"name": "b", "items": [{"t": "b0"}]}
            ]}}}),
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": "root", "component": "Column", "children": ["all", "groups"]},
                {"id": "all", "component": "Text", "text": {"path": "/groups"}},
                {"id": "groups", "component": "List", "children": {"componentId": "group", "path": "/groups"}},
                {"id": "group", "component": "Card", "child": "items"},
                {"id": "items", "component": "List", "children": {"componentId": "item", "path": "items"}},
                {"id": "item", "component": "Text", "text": {"path": "t"}}
            ]}}),
        ],
    );
    assert_same(&p, "built");
    p.take_changes();
    let all = node_of(&p, "all@/");
    let a1 = node_of(&p, "item@/groups/0/items/1");
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/groups/0/items/1/t", "value": "A1"}}))
        .unwrap();
    let c = p.take_changes();
    let mut updated = c.surfaces["s"].updated.clone();
    updated.sort();
    let mut want = vec![
        (all, vec!["text".to_string()]),
        (a1, vec!["text".to_string()]),
    ];
    want.sort();
    assert_eq!(updated, want);
    assert_same(&p, "nested edit");
    // Appended inside group 1: one item made, group 1's list changed.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/groups/1/items/1", "value": {"t": "b1"}}}))
        .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].created.len(), 1);
    assert_same(&p, "nested append");
    // Removed inside group 0.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/groups/0/items/0", "value": null}}))
        .unwrap();
    let c = p.take_changes();
    assert_eq!(c.surfaces["s"].removed.len(), 1);
    assert_same(&p, "nested removal");
    // The outer list replaced.
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/groups", "value": [{"name": "z", "items": []}]}}))
        .unwrap();
    assert_same(&p, "outer replaced");
}

/// Random edits (a small generator, fixed seeds): row fields set, rows appended and removed,
/// lists replaced, nested lists edited, components sent again with other types or children;
/// after each, the live tree reads as `resolve`, and every instance reported created is in the
/// tree or reported removed.
#[test]
fn random_edits_keep_the_live_tree_equal_to_resolve() {
    for seed in 1..=40u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut p = Processor::new(live());
        stream(&mut p, &rows_surface(3));
        p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "row", "component": "Row", "children": ["name", "count", "tags"]},
            {"id": "tags", "component": "List", "children": {"componentId": "tag", "path": "tags"}},
            {"id": "tag", "component": "Text", "text": {"path": ""}}
        ]}}))
        .unwrap();
        p.take_changes();
        for step in 0..60 {
            let before = snapshot(&p);
            let len = p.surface("s").unwrap().data_model()["rows"]
                .as_array()
                .map_or(0, Vec::len) as u64;
            let row = next(len.max(1));
            let message = match next(9) {
                0 => json!({"path": format!("/rows/{row}/name"), "value": format!("n{}", next(3))}),
                1 => {
                    json!({"path": format!("/rows/{len}"), "value": {"name": "new", "n": step, "tags": ["t"]}})
                }
                2 => json!({"path": format!("/rows/{row}"), "value": null}),
                3 => {
                    json!({"path": "/rows", "value": (0..next(5)).map(|i| json!({"name": format!("r{i}"), "n": i})).collect::<Vec<_>>()})
                }
                4 => {
                    json!({"path": format!("/rows/{row}/tags"), "value": (0..next(4)).map(|i| json!(format!("t{i}"))).collect::<Vec<_>>()})
                }
                5 => json!({"path": format!("/rows/{row}/tags/{}", next(3)), "value": "x"}),
                6 => json!({"path": "/title", "value": format!("T{}", next(3))}),
                7 => {
                    let kind = ["Row", "Column", "Card"][next(3) as usize];
                    let children = if kind == "Card" {
                        json!({"child": "name"})
                    } else {
                        json!({"children": ["tags", "name"]})
                    };
                    let mut def = json!({"id": "row", "component": kind});
                    def.as_object_mut()
                        .unwrap()
                        .extend(children.as_object().unwrap().clone());
                    p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [def]}}))
                        .unwrap();
                    json!(null)
                }
                _ => {
                    let text = if next(2) == 0 {
                        json!({"path": "name"})
                    } else {
                        json!("lit")
                    };
                    p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                        {"id": "name", "component": "Text", "text": text}]}}))
                        .unwrap();
                    json!(null)
                }
            };
            if !message.is_null() {
                let mut body = message;
                body["surfaceId"] = json!("s");
                // Some edits do not apply (a path under a removed row): atomic, nothing changed.
                let _ = p.process(&json!({"version": "v1.0", "updateDataModel": body}));
            }
            assert_same(&p, &format!("seed {seed} step {step}"));
            let changes = p.take_changes();
            let live = p.surface("s").unwrap().live().unwrap();
            // Every property whose resolved value changed on an instance that stayed is
            // reported, and every instance that appeared or went.
            let after = snapshot(&p);
            let empty = Default::default();
            let c = changes.surfaces.get("s").unwrap_or(&empty);
            for (id, node) in &after {
                let Some(old) = before.get(id) else {
                    assert!(
                        c.created.contains(id),
                        "seed {seed} step {step}: {id} appeared unreported"
                    );
                    continue;
                };
                let reported: Vec<&String> = c
                    .updated
                    .iter()
                    .filter(|(u, _)| u == id)
                    .flat_map(|(_, p)| p)
                    .collect();
                for (prop, value) in &node.props {
                    if old.props.get(prop) != Some(value) {
                        assert!(
                            reported.contains(&prop),
                            "seed {seed} step {step}: {} {prop} changed unreported",
                            node.key()
                        );
                    }
                }
            }
            for id in before.keys() {
                if !after.contains_key(id) {
                    assert!(
                        c.removed.contains(id),
                        "seed {seed} step {step}: {id} went unreported"
                    );
                }
            }
            if let Some(c) = changes.surfaces.get("s") {
                for id in &c.created {
                    assert!(
                        live.node(*id).is_some(),
                        "seed {seed} step {step}: created {id} not in the tree"
                    );
                }
                for id in &c.removed {
                    assert!(
                        live.node(*id).is_none(),
                        "seed {seed} step {step}: removed {id} still in the tree"
                    );
                }
            }
        }
    }
}

/// The live tree's nodes by instance.
fn snapshot(
    p: &Processor,
) -> std::collections::HashMap<InstanceId, a2ui_catalog_mcp::surfaces::Node> {
    let live = p.surface("s").unwrap().live().unwrap();
    live.instances()
        .into_iter()
        .map(|id| (id, live.node(id).unwrap().to_node()))
        .collect()
}
