//! Bad input against the live resolution (`ProcessorOptions::live`): long streams, long
//! templates, many components and deep component chains. Bounds are counts, never a stopwatch:
//! what each message reports, what the trees hold, and that every walk finishes without
//! recursion (a recursive walk over the 100 000-deep chain below would overflow the stack).

#[path = "support/peak.rs"]
mod peak;
use a2ui_catalog_mcp::surfaces::{NodeState, Processor, ProcessorOptions, ResolveLimits};
use serde_json::{Value, json};

/// A processor keeping live trees within `limits`, whose surfaces may hold 256 MiB (the streams
/// of these tests build surfaces of up to 100 000 components or a million rows on purpose;
/// `what_surfaces_hold_is_bounded_for_the_whole_stream` tests the default).
fn live(limits: ResolveLimits) -> Processor {
    Processor::new(
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_max_held_bytes(256 << 20)
            .with_live(limits),
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
    // 100 000 live instances take more than the default byte limit: the host raises it.
    let mut limits = ResolveLimits::default();
    limits.max_bytes = 64 << 20;
    let mut p = live(limits);
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
    assert_eq!(
        a2ui_catalog_mcp::surfaces::agent_error_message(&err)["error"]["code"],
        "LIMIT_EXCEEDED"
    );
    assert!(p.take_changes().is_empty());
}

/// The component limit holds for the processor, not per surface: surfaces of 60 000
/// components each cannot add up past 100 000; and surfaces past `max_surfaces` are refused
/// until one is deleted.
#[test]
fn surfaces_and_their_components_are_bounded_together() {
    let mut p = Processor::new(
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_max_held_bytes(256 << 20)
            .with_max_surfaces(3),
    );
    let texts = |n: usize| {
        let mut components = vec![json!({"id": "root", "component": "Column",
            "children": (1..n).map(|i| format!("t{i}")).collect::<Vec<_>>()})];
        components.extend(
            (1..n).map(|i| json!({"id": format!("t{i}"), "component": "Text", "text": "x"})),
        );
        Value::Array(components)
    };
    create(&mut p, "a", json!({}), texts(60_000));
    let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "b", "catalogId": "c",
        "components": texts(60_000)}});
    let err = p.process(&message).unwrap_err();
    assert_eq!(
        a2ui_catalog_mcp::surfaces::agent_error_message(&err)["error"]["code"],
        "LIMIT_EXCEEDED"
    );
    assert!(
        err.message().contains("120000 with the other surfaces"),
        "{err}"
    );
    assert!(p.surface("b").is_none());
    // Deleting the first makes room.
    p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "a"}}))
        .unwrap();
    p.process(&message).unwrap();

    for id in ["c", "d"] {
        create(&mut p, id, json!({}), texts(2));
    }
    let err = p
        .process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "e", "catalogId": "c"}}))
        .unwrap_err();
    assert_eq!(
        a2ui_catalog_mcp::surfaces::agent_error_message(&err)["error"]["code"],
        "LIMIT_EXCEEDED"
    );
    assert_eq!(err.location(), "/createSurface/surfaceId");
    assert!(p.surface("e").is_none());
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
    let mut limits = ResolveLimits::default();
    limits.max_bytes = 64 << 20;
    let mut p = live(limits);
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

/// A `createSurface` message of surface `id` with `model` and `components`.
fn surface_message(id: &str, model: Value, components: Value) -> Value {
    json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": "c",
        "dataModel": model, "components": components}})
}

/// The streams of issue 34's first item, each a few kilobytes that made `render` take
/// gigabytes: what resolving the trees may hold is bounded for the whole processor.
fn resolution_attack(name: &str) -> Vec<Value> {
    let zeros = |n: usize| Value::Array(vec![json!(0); n]);
    match name {
        // A list of 4 000 items whose row holds a list of 4 000 items: 16 M instances, cut at
        // the node limit, but the work queue behind the cut held them all.
        "nested-templates" => vec![surface_message(
            "s",
            json!({"a": zeros(4_000)}),
            json!([
                {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/a"}},
                {"id": "row", "component": "List", "children": {"componentId": "cell", "path": "/a"}},
                {"id": "cell", "component": "Text", "text": "x"}
            ]),
        )],
        // Three levels of 300 children naming one component each: 27 M instances.
        "dag" => vec![surface_message(
            "s",
            json!({}),
            json!([
                {"id": "root", "component": "Column", "children": vec!["a"; 300]},
                {"id": "a", "component": "Column", "children": vec!["b"; 300]},
                {"id": "b", "component": "Column", "children": vec!["c"; 300]},
                {"id": "c", "component": "Text", "text": "x"}
            ]),
        )],
        // 10 000 rows of 9 Texts bound to one 50 KB string: a copy per node.
        "shared-string" => {
            let texts: Vec<String> = (0..9).map(|i| format!("t{i}")).collect();
            let mut components = vec![
                json!({"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}}),
                json!({"id": "row", "component": "Column", "children": texts}),
            ];
            components.extend(
                texts
                    .iter()
                    .map(|t| json!({"id": t, "component": "Text", "text": {"path": "/s"}})),
            );
            vec![surface_message(
                "s",
                json!({"s": "x".repeat(50_000), "rows": zeros(10_000)}),
                Value::Array(components),
            )]
        }
        // A 30 KB component id under a 10 000-row template: its id and its parent key per node.
        "long-id" => {
            let id = "r".repeat(30_000);
            vec![surface_message(
                "s",
                json!({"rows": zeros(10_000)}),
                json!([
                    {"id": "root", "component": "List", "children": {"componentId": id, "path": "/rows"}},
                    {"id": id, "component": "Column", "children": ["t"]},
                    {"id": "t", "component": "Text", "text": "x"}
                ]),
            )]
        }
        // 40 surfaces of 100 000 nodes each: every tree at once.
        "surfaces" => (0..40)
            .map(|i| {
                surface_message(
                    &format!("s{i}"),
                    json!({}),
                    json!([
                        {"id": "root", "component": "Column", "children": vec!["a"; 100]},
                        {"id": "a", "component": "Column", "children": vec!["t"; 999]},
                        {"id": "t", "component": "Text", "text": "x"}
                    ]),
                )
            })
            .collect(),
        other => panic!("no attack {other}"),
    }
}

/// A writer that counts what it is given, and keeps nothing.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const RESOLUTION_ATTACKS: [&str; 5] = [
    "nested-templates",
    "dag",
    "shared-string",
    "long-id",
    "surfaces",
];

/// Each stream processed and rendered as `a2ui-mcp render` does (`render_json`): the trees are
/// cut and marked `LIMIT_EXCEEDED`, and the whole of it stays under 64 MiB.
#[cfg(target_os = "linux")]
#[test]
fn rendering_is_bounded_for_the_whole_processor() {
    peak::each_in_a_child(
        "rendering_is_bounded_for_the_whole_processor",
        &RESOLUTION_ATTACKS,
        |name| {
            let stream = resolution_attack(name);
            let (out, peak) = peak::peak_of(|| {
                let mut p = Processor::new(
                    ProcessorOptions::default().with_accept_unregistered_catalogs(true),
                );
                let errors: Vec<_> = stream.iter().filter_map(|m| p.process(m).err()).collect();
                assert!(errors.is_empty(), "{errors:?}");
                let out = p.render_json(&errors, ResolveLimits::default());
                // What the CLI does: it writes the answer out.
                let mut text = Counted(0);
                serde_json::to_writer(&mut text, &out).unwrap();
                (text.0, out)
            });
            let surfaces = out.1["surfaces"].as_object().unwrap();
            let nodes: usize = surfaces
                .values()
                .map(|s| s["nodes"].as_array().unwrap().len())
                .sum();
            let cut: Vec<&str> = surfaces
                .values()
                .filter_map(|s| s["truncated"].as_str())
                .collect();
            eprintln!(
                "{name}: {nodes} nodes, {} bytes of text, cut: {cut:?}",
                out.0
            );
            assert!(
                cut.iter().all(|w| w.starts_with("LIMIT_EXCEEDED")),
                "{cut:?}"
            );
            assert!(!cut.is_empty() && nodes > 100, "{name}: {nodes} nodes");
            peak
        },
    );
}

/// The same streams through a processor that keeps its trees live: the live trees of every
/// surface together are bounded, a long string bound by many instances is not copied by each,
/// and the whole stays under 64 MiB.
#[cfg(target_os = "linux")]
#[test]
fn live_trees_are_bounded_for_the_whole_processor() {
    peak::each_in_a_child(
        "live_trees_are_bounded_for_the_whole_processor",
        &RESOLUTION_ATTACKS,
        |name| {
            let stream = resolution_attack(name);
            let (p, peak) = peak::peak_of(|| {
                let mut p = live(ResolveLimits::default());
                for m in &stream {
                    p.process(m).unwrap();
                }
                p.take_changes();
                // What a renderer drawing whole trees reads: each node's copies are charged
                // to the tree's limits (a bound long string was copied by every node).
                for s in p.surfaces() {
                    let tree = s.live().unwrap().to_tree();
                    assert!(tree.nodes.len() <= ResolveLimits::default().max_nodes);
                }
                p
            });
            let nodes: usize = p.surfaces().map(|s| s.live().unwrap().len()).sum();
            let cut: Vec<&str> = p
                .surfaces()
                .filter_map(|s| s.live().unwrap().truncated())
                .collect();
            eprintln!("{name}: {nodes} live nodes, cut: {:?}", cut.first());
            assert!(nodes <= ResolveLimits::default().max_nodes, "{nodes}");
            assert!(
                cut.iter().all(|w| w.starts_with("LIMIT_EXCEEDED")),
                "{cut:?}"
            );
            // The long id is one shared name in a live tree: its 20 001 instances fit.
            let fits = name == "long-id";
            assert!(
                cut.is_empty() == fits && nodes > 100,
                "{name}: {nodes} nodes"
            );
            peak
        },
    );
}

/// The benchmark's stream, 10 000 rows of a Row and two bound Texts, fits the default limits
/// live; resolved whole (each node a copy of its strings and values, about 750 bytes here)
/// it takes a host's larger byte limit.
#[test]
fn the_benchmark_stream_and_the_default_limits() {
    let rows: Vec<Value> = (0..10_000)
        .map(|i| json!({"name": format!("r{i}"), "n": i}))
        .collect();
    let components = json!([
        {"id": "root", "component": "Column", "children": ["title", "list"]},
        {"id": "title", "component": "Text", "text": "Rows"},
        {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
        {"id": "row", "component": "Row", "children": ["name", "count"]},
        {"id": "name", "component": "Text", "text": {"path": "name"}},
        {"id": "count", "component": "Text", "text": {"path": "n"}}
    ]);
    let mut p = live(ResolveLimits::default());
    create(&mut p, "s", json!({"rows": rows}), components);
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!((live.len(), live.truncated()), (30_003, None));
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    assert!(tree.truncated.unwrap().starts_with("LIMIT_EXCEEDED"));
    assert!(tree.nodes.len() > 20_000, "{}", tree.nodes.len());
    let mut limits = ResolveLimits::default();
    limits.max_bytes = 32 << 20;
    let tree = p.surface("s").unwrap().resolve(limits);
    assert_eq!((tree.nodes.len(), tree.truncated), (30_003, None));
}

/// The streams and payloads of issue 34's second item: what evaluation copies and makes is
/// charged to one budget per evaluation, and in a surface to one budget per message.
#[cfg(all(target_os = "linux", feature = "basic-catalog"))]
fn evaluation_attack(name: &str) -> u64 {
    use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog};
    use a2ui_catalog_mcp::{Environment, ErrorCode};
    let env = Environment::new()
        .with_catalog(BasicCatalog::new().build())
        .with_default_catalog(BASIC_CATALOG_ID);
    let limit = |result: Result<Value, a2ui_catalog_mcp::Error>| {
        let err = result.unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded, "{name}: {err}");
        assert!(err.message().contains("Limits::max_eval_bytes"), "{err}");
    };
    match name {
        // 10 000 rows, each a formatString of 4 000 `${/b}` over a 1 000-byte /b: 4 MB a row,
        // 40 GB for the message when each row had a budget of its own.
        "format-rows" | "format-rows-live" => {
            let template = "${/b}".repeat(4_000);
            let stream = json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
            "catalogId": BASIC_CATALOG_ID,
            "dataModel": {"b": "x".repeat(1_000), "rows": vec![0; 10_000]},
            "components": [
                {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
                {"id": "row", "component": "Text", "text": {"call": "formatString", "args": {"value": template}}}
            ]}});
            let is_live = name.ends_with("live");
            let (failed, peak) = peak::peak_of(|| {
                let options = ProcessorOptions::default();
                let options = if is_live {
                    options.with_live(ResolveLimits::default())
                } else {
                    options
                };
                let mut p = Processor::with_environment(env.clone(), options);
                p.process(&stream).unwrap();
                let states: Vec<Option<NodeState>> = if is_live {
                    let live = p.surface("s").unwrap().live().unwrap();
                    live.instances()
                        .into_iter()
                        .map(|id| live.node(id).unwrap().state())
                        .collect()
                } else {
                    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
                    tree.nodes.into_iter().map(|n| n.state).collect()
                };
                states
                    .iter()
                    .filter(|s| matches!(s, Some(NodeState::Failed(why)) if why.contains("Limits::max_eval_")))
                    .count()
            });
            // A few rows fit the message's budget; the rest are failed, not made.
            assert!(failed > 9_000, "{name}: {failed} rows failed");
            peak
        }
        // 40 formatString calls of a template from the data: 48 MB each when each call was
        // bounded by max_output_bytes alone.
        "format-from-data" => {
            let call = json!({"@call": "formatString", "args": {"value": {"@path": "/t"}}});
            let payload = env.compile(&Value::Array(vec![call; 40])).unwrap();
            let mut model = json!({"t": "${/s}".repeat(4_000), "s": "x".repeat(12_000)});
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            limit(result);
            peak
        }
        // 3 000 bindings of a 55 KB string: 165 MB of copies.
        "binding-copies" => {
            let payload = env
                .compile(&Value::Array(vec![json!({"@path": "/s"}); 3_000]))
                .unwrap();
            let mut model = json!({"s": "x".repeat(55_000)});
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            limit(result);
            peak
        }
        other => panic!("no attack {other}"),
    }
}

#[cfg(all(target_os = "linux", feature = "basic-catalog"))]
#[test]
fn evaluation_is_bounded_per_evaluation_and_per_message() {
    peak::each_in_a_child(
        "evaluation_is_bounded_per_evaluation_and_per_message",
        &[
            "format-rows",
            "format-rows-live",
            "format-from-data",
            "binding-copies",
        ],
        evaluation_attack,
    );
}

/// A component of 50 000 unknown properties, and a strict message of 40 000 dangling
/// children: every problem is reported, in one pass each (judging the component again per
/// property, or scanning the problems found so far per child, was quadratic: minutes here).
#[test]
fn per_property_and_strict_checks_are_linear_in_the_message() {
    let mut p = Processor::new(ProcessorOptions::default().with_strict(true));
    p.register_catalog(&json!({"catalogId": "my", "components": {
        "Text": {"properties": {"component": {"const": "Text"}, "text": {"type": "string"},
            "variant": {"enum": ["h1", "body"]}}, "required": ["component", "text"]},
        "Column": {"properties": {"component": {"const": "Column"},
            "children": {"type": "array", "items": {"type": "string"}}}, "required": ["component"]}}}))
    .unwrap();
    let n = 50_000;
    let mut text = serde_json::Map::new();
    text.insert("id".into(), json!("root"));
    text.insert("component".into(), json!("Text"));
    text.insert("text".into(), json!("x"));
    text.insert("variant".into(), json!("huge"));
    for i in 0..n {
        text.insert(format!("p{i}"), json!(i));
    }
    let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my",
        "components": [Value::Object(text)]}});
    let found = p.component_problems(&message);
    // Each unknown property, and the bad variant in its place among them (it comes before).
    assert_eq!(found.len(), n + 1);
    assert_eq!(found[0].location(), "/createSurface/components/0/variant");
    assert_eq!(found[1].location(), "/createSurface/components/0/p0");
    assert!(
        found[n]
            .message()
            .starts_with("unknown property 'p49999' of Text")
    );

    let children: Vec<String> = (0..40_000).map(|i| format!("c{i}")).collect();
    let message = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "my",
        "components": [{"id": "root", "component": "Column", "children": children}]}});
    let found = p.component_problems(&message);
    assert_eq!(found.len(), 40_000);
    assert_eq!(
        found[39_999].location(),
        "/createSurface/components/0/children/39999"
    );
}

/// Streams that make the processor hold more and more, each message small next to what the
/// stream adds up to: past `max_held_bytes` (32 MiB) each further message is `LIMIT_EXCEEDED`
/// and changes nothing, and what the processor holds stays under 64 MiB (the stream is made
/// message by message, never held whole).
const HELD_ATTACKS: [&str; 4] = [
    // 200 updateDataModel messages of 1 MB each, at distinct paths.
    "model-writes",
    // 200 updateComponents each adding a Text of 1 MB.
    "big-components",
    // 1 000 surfaces with ids of 200 KB.
    "long-surface-ids",
    // 20 000 surfaces of 10 KB ids created and deleted: the ids of deleted surfaces are
    // remembered within 1 MiB.
    "deleted-ids",
];

fn held_attack(name: &str, i: usize) -> Option<Value> {
    let mega = || "x".repeat(1 << 20);
    Some(match name {
        "model-writes" if i < 200 => {
            json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": format!("/k{i}"), "value": mega()}})
        }
        "big-components" if i < 200 => {
            json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
                {"id": format!("t{i}"), "component": "Text", "text": mega()}]}})
        }
        "long-surface-ids" if i < 1_000 => {
            json!({"version": "v1.0", "createSurface": {"surfaceId": format!("{i}{}", "y".repeat(200 << 10)), "catalogId": "c"}})
        }
        "deleted-ids" if i < 40_000 => {
            let id = format!("{}{}", i / 2, "z".repeat(10 << 10));
            if i.is_multiple_of(2) {
                json!({"version": "v1.0", "createSurface": {"surfaceId": id, "catalogId": "c"}})
            } else {
                json!({"version": "v1.0", "deleteSurface": {"surfaceId": id}})
            }
        }
        _ => return None,
    })
}

#[cfg(target_os = "linux")]
#[test]
fn what_surfaces_hold_is_bounded_for_the_whole_stream() {
    peak::each_in_a_child(
        "what_surfaces_hold_is_bounded_for_the_whole_stream",
        &HELD_ATTACKS,
        |name| {
            let ((refused, last), peak) = peak::peak_of(|| {
                let mut p = Processor::new(
                    ProcessorOptions::default().with_accept_unregistered_catalogs(true),
                );
                create(
                    &mut p,
                    "s",
                    json!({}),
                    json!([{"id": "root", "component": "Text", "text": "x"}]),
                );
                let mut refused = 0;
                let mut last = None;
                let mut i = 0;
                while let Some(message) = held_attack(name, i) {
                    if let Err(e) = p.process(&message) {
                        assert_eq!(
                            a2ui_catalog_mcp::surfaces::agent_error_message(&e)["error"]["code"],
                            "LIMIT_EXCEEDED",
                            "{e}"
                        );
                        refused += 1;
                        last = Some(e);
                    }
                    i += 1;
                }
                (refused, last)
            });
            eprintln!("{name}: {refused} refused, the last: {last:?}");
            if name == "deleted-ids" {
                assert_eq!(refused, 0);
            } else {
                assert!(refused > 0, "{name}");
            }
            peak
        },
    );
}
