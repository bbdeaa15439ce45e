//! Surfaces run the MCP catalog: a tap, a keystroke or a bound property calls a tool through the
//! processor, the host makes the call, and the result lands in the surface's own data model,
//! reported by `take_changes`. Against the scripted server (`testing`); the same flows against
//! real servers are in the CLI's tests and the examples.

#![cfg(feature = "testing")]

use a2ui_catalog_mcp::surfaces::{
    InstanceId, Processor, ProcessorOptions, ResolveLimits, RunOutcome, ToolRun,
};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{ErrorCode, JsonPointer, MCP_CATALOG_ID};
use serde_json::{Value, json};

fn live() -> ProcessorOptions {
    ProcessorOptions::default()
        .with_accept_unregistered_catalogs(true)
        .with_live(ResolveLimits::default())
}

/// A call of the MCP catalog.
fn mcp(function: &str, args: Value) -> Value {
    json!({"@call": function, "catalogId": MCP_CATALOG_ID, "args": args})
}

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

fn surface(p: &mut Processor, data: Value, components: Value) {
    p.process(
        &json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
        "dataModel": data, "components": components}}),
    )
    .unwrap();
}

fn node_of(p: &Processor, key: &str) -> InstanceId {
    let live = p.surface("s").unwrap().live().unwrap();
    live.instances()
        .into_iter()
        .find(|&id| live.node(id).unwrap().key() == key)
        .unwrap_or_else(|| panic!("no node {key}"))
}

fn model(p: &Processor) -> &Value {
    p.surface("s").unwrap().data_model()
}

fn tap(p: &mut Processor, component: &str) -> ToolRun {
    let done = p
        .activate("s", component, &JsonPointer::root(), "2026-12-07T10:00:00Z")
        .unwrap();
    assert!(done.errors.is_empty(), "{:?}", done.errors);
    let id = done.run.expect("the tap stops at a tool call");
    let mut runs = p.take_tool_runs();
    assert_eq!(runs.len(), 1);
    let run = runs.remove(0);
    assert_eq!(run.id(), id);
    run
}

/// The guide's json chain: list → transformData → updateDataModel.
fn json_chain() -> Value {
    mcp(
        "updateDataModel",
        json!({"updates": mcp("transformData", json!({
            "jmespath": "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}",
            "data": mcp("callMcpTool", json!({"name": "list_issues", "arguments": {"repository": {"@path": "/repository"}}}))
        }))}),
    )
}

/// The guide's text chain: text → split → regexCapture → transformData → updateDataModel.
fn text_chain() -> Value {
    mcp(
        "updateDataModel",
        json!({"updates": mcp("transformData", json!({
            "jmespath": "{\"/results\": [?@ != null].{title: [0], url: [1]}}",
            "data": mcp("regexCapture", json!({"pattern": "^Title: (.*)\nURL: (.*)",
                "value": mcp("split", json!({"separator": "\n\n",
                    "value": mcp("transformData", json!({"jmespath": "text",
                        "data": mcp("callMcpTool", json!({"name": "search", "arguments": {"query": {"@path": "/query"}}}))}))}))}))
        }))}),
    )
}

/// A Button whose action runs `call`, and a List drawing `/{list}` with a Text per row.
fn button_and_list(call: Value, list: &str, field: &str) -> Value {
    json!([
        {"id": "root", "component": "Column", "children": ["button", "list"]},
        {"id": "button", "component": "Button", "child": "label", "action": {"functionCall": call}},
        {"id": "label", "component": "Text", "text": "Go"},
        {"id": "list", "component": "List", "children": {"componentId": "row", "path": format!("/{list}")}},
        {"id": "row", "component": "Text", "text": {"@path": field}}
    ])
}

#[test]
fn a_tap_runs_the_guides_json_chain_into_a_list() {
    let issues = json!([{"number": 1, "title": "Crash", "state": "open"},
        {"number": 2, "title": "Old", "state": "closed"}, {"number": 3, "title": "Docs", "state": "open"}]);
    let server = ScriptedServer::from_json(
        &json!({"results": {"list_issues": [text_result(&issues.to_string())]}}),
    )
    .unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"repository": "a2ui/a2ui"}),
        button_and_list(json_chain(), "issues", "title"),
    );
    p.take_changes();

    let run = tap(&mut p, "button");
    assert_eq!(run.tool(), "list_issues");
    assert_eq!(run.arguments(), &json!({"repository": "a2ui/a2ui"}));
    assert_eq!(run.component_id(), "button");
    assert_eq!(run.origin(), a2ui_catalog_mcp::Origin::Action);
    assert_eq!(run.instance(), Some(node_of(&p, "button@/")));
    // Nothing is written until the answer comes back.
    assert!(model(&p).get("issues").is_none());

    let done = block_on(run.execute(&host));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    assert_eq!(
        model(&p)["issues"],
        json!([{"number": "1", "title": "Crash"}, {"number": "3", "title": "Docs"}])
    );
    // The List drew its two rows, reported as changes.
    let changes = p.take_changes();
    let list = node_of(&p, "list@/");
    assert_eq!(changes.surfaces["s"].created.len(), 2);
    assert_eq!(
        changes.surfaces["s"].updated,
        [(list, vec!["children".to_string()])]
    );
    let live = p.surface("s").unwrap().live().unwrap();
    let rows = live.node(list).unwrap().children();
    assert_eq!(
        live.node(rows[1]).unwrap().prop("text"),
        Some(json!("Docs"))
    );
    assert_eq!(server.tool_calls().len(), 1);
}

#[test]
fn a_tap_runs_the_guides_text_chain() {
    let text = "Title: A2UI\nURL: https://a2ui.org\n\nTitle: MCP\nURL: https://modelcontextprotocol.io\n\nnoise";
    let server =
        ScriptedServer::from_json(&json!({"results": {"search": [text_result(text)]}})).unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"query": "a2ui mcp"}),
        button_and_list(text_chain(), "results", "url"),
    );
    p.take_changes();
    let run = tap(&mut p, "button");
    assert_eq!(run.arguments(), &json!({"query": "a2ui mcp"}));
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    assert_eq!(
        model(&p)["results"],
        json!([{"title": "A2UI", "url": "https://a2ui.org"}, {"title": "MCP", "url": "https://modelcontextprotocol.io"}])
    );
    let changes = p.take_changes();
    assert_eq!(changes.surfaces["s"].created.len(), 2);
    let live = p.surface("s").unwrap().live().unwrap();
    let rows = live.node(node_of(&p, "list@/")).unwrap().children();
    assert_eq!(
        live.node(rows[0]).unwrap().prop("text"),
        Some(json!("https://a2ui.org"))
    );
}

#[test]
fn a_tap_with_a_target_data_path_writes_the_surface_and_what_reads_it_is_reported() {
    let server = ScriptedServer::from_json(
        &json!({"results": {"list_directory": [text_result("[FILE] a.md")]}}),
    )
    .unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Column", "children": ["button", "shown"]},
            {"id": "button", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "list_directory", "arguments": {"path": "/docs"}, "targetDataPath": "/listing"}))}},
            {"id": "label", "component": "Text", "text": "List"},
            {"id": "shown", "component": "Text", "text": {"@path": "/listing/text"}}
        ]),
    );
    p.take_changes();
    let run = tap(&mut p, "button");
    assert_eq!(run.target(), Some(&JsonPointer::parse("/listing").unwrap()));
    let done = block_on(run.execute(&server.host()));
    let RunOutcome::Done(value) = p.finish_tool_run(done) else {
        panic!("not done")
    };
    assert_eq!(value["text"], "[FILE] a.md");
    assert_eq!(model(&p)["listing"]["toolName"], "list_directory");
    let shown = node_of(&p, "shown@/");
    assert_eq!(
        p.take_changes().surfaces["s"].updated,
        [(shown, vec!["text".to_string()])]
    );
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(
        live.node(shown).unwrap().prop("text"),
        Some(json!("[FILE] a.md"))
    );
}

/// A bound property that calls a tool runs against the surface's own model: its
/// `targetDataPath` write lands there and is reported; the write does not run it again.
#[test]
fn a_bound_property_calls_its_tool_into_the_surface() {
    let server =
        ScriptedServer::from_json(&json!({"results": {"greet": [text_result("hello Ada")]}}))
            .unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"who": "Ada"}),
        json!([
            {"id": "root", "component": "Column", "children": ["greeting", "copy"]},
            {"id": "greeting", "component": "Text", "text": mcp("transformData", json!({"jmespath": "text",
                "data": mcp("callMcpTool", json!({"name": "greet", "arguments": {"who": {"@path": "/who"}}, "targetDataPath": "/greeting"}))}))},
            {"id": "copy", "component": "Text", "text": {"@path": "/greeting/text"}}
        ]),
    );
    p.take_changes();
    let greeting = node_of(&p, "greeting@/");
    let mut runs = p.take_tool_runs();
    assert_eq!(runs.len(), 1);
    let run = runs.remove(0);
    assert_eq!((run.instance(), run.prop()), (Some(greeting), Some("text")));
    assert_eq!(run.origin(), a2ui_catalog_mcp::Origin::Binding);
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(v) if v == "hello Ada"));
    assert_eq!(model(&p)["greeting"]["text"], "hello Ada");
    let copy = node_of(&p, "copy@/");
    assert_eq!(
        p.take_changes().surfaces["s"].updated,
        [
            (greeting, vec!["text".to_string()]),
            (copy, vec!["text".to_string()])
        ]
    );
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(
        live.node(greeting).unwrap().prop("text"),
        Some(json!("hello Ada"))
    );
    assert_eq!(
        live.node(copy).unwrap().prop("text"),
        Some(json!("hello Ada"))
    );
    assert!(
        p.take_tool_runs().is_empty(),
        "its own write did not run it again"
    );
    assert_eq!(server.tool_calls().len(), 1);
}

/// Before its first tool answer a bound value is read-only: drawing never writes.
#[test]
fn a_bound_value_cannot_write_before_its_tool_answers() {
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Text", "text": [mcp("updateDataModel", json!({"updates": {"/x": 1}})),
                mcp("callMcpTool", json!({"name": "t"}))]}
        ]),
    );
    assert!(model(&p).get("x").is_none());
    assert!(p.take_tool_runs().is_empty());
    let live = p.surface("s").unwrap().live().unwrap();
    let state = live.node(live.root().unwrap()).unwrap().state();
    assert!(
        matches!(&state, Some(a2ui_catalog_mcp::surfaces::NodeState::Failed(why)) if why.contains("read-only")),
        "{state:?}"
    );
}

/// Typing re-runs the bound search; an older call that answers after a newer one started
/// writes nothing: latest call wins, across keystrokes.
#[test]
fn a_keystroke_reruns_the_bound_search_and_the_latest_call_wins() {
    let server = ScriptedServer::from_json(&json!({"results": {"search": [
        text_result("[\"ru-1\"]"), text_result("[\"rust-1\", \"rust-2\"]")]}}))
    .unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"query": ""}),
        json!([
            {"id": "root", "component": "Column", "children": ["field", "status", "list"]},
            {"id": "field", "component": "TextField", "label": "Search", "value": {"@path": "/query"}},
            {"id": "status", "component": "Text", "text": mcp("transformData", json!({"jmespath": "toolInput.q",
                "data": mcp("callMcpTool", json!({"name": "search", "arguments": {"q": {"@path": "/query"}}, "targetDataPath": "/found"}))}))},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/found/json"}},
            {"id": "row", "component": "Text", "text": {"@path": ""}}
        ]),
    );
    let _initial = p.take_tool_runs();
    p.take_changes();
    let field = node_of(&p, "field@/");
    p.write("s", field, "value", json!("ru")).unwrap();
    let ru = p.take_tool_runs().remove(0);
    p.write("s", field, "value", json!("rust")).unwrap();
    let rust = p.take_tool_runs().remove(0);
    assert_eq!(ru.arguments(), &json!({"q": "ru"}));
    assert_eq!(rust.arguments(), &json!({"q": "rust"}));
    assert_eq!(
        p.pending_tool_runs(),
        1,
        "the older run was dropped when the newer started"
    );
    let (ru, rust) = (block_on(ru.execute(&host)), block_on(rust.execute(&host)));
    assert!(matches!(p.finish_tool_run(rust), RunOutcome::Done(v) if v == "rust"));
    assert!(matches!(p.finish_tool_run(ru), RunOutcome::Ignored));
    assert_eq!(model(&p)["found"]["json"], json!(["rust-1", "rust-2"]));
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(
        live.node(node_of(&p, "list@/")).unwrap().children().len(),
        2
    );
    assert_eq!(
        live.node(node_of(&p, "status@/")).unwrap().prop("text"),
        Some(json!("rust"))
    );
}

/// Two taps to the same `targetDataPath`: the older result, handed back last, writes nothing
/// and the rest of its payload does not run.
#[test]
fn the_latest_tap_wins_per_target_data_path() {
    let server = ScriptedServer::from_json(
        &json!({"results": {"roll": [text_result("1"), text_result("2")]}}),
    )
    .unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"functionCall": mcp("updateDataModel",
                json!({"updates": {"/after": mcp("callMcpTool", json!({"name": "roll", "targetDataPath": "/roll"}))}}))}}
        ]),
    );
    let first = tap(&mut p, "root");
    let second = tap(&mut p, "root");
    let (first, second) = (
        block_on(first.execute(&host)),
        block_on(second.execute(&host)),
    );
    assert!(matches!(p.finish_tool_run(second), RunOutcome::Done(_)));
    assert!(matches!(p.finish_tool_run(first), RunOutcome::Ignored));
    assert_eq!(model(&p)["roll"]["text"], "2");
    assert_eq!(model(&p)["after"]["text"], "2");
}

/// While a run waits, the processor takes messages, writes and other taps; the result lands in
/// the model as it is then.
#[test]
fn the_processor_is_free_while_a_run_is_pending() {
    let server =
        ScriptedServer::from_json(&json!({"results": {"list_directory": [text_result("a.md")]}}))
            .unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"kept": 1}),
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "list_directory", "targetDataPath": "/listing"}))}}
        ]),
    );
    let run = tap(&mut p, "root");
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/agent", "value": true}})).unwrap();
    p.write_path("s", &JsonPointer::root(), "/typed", json!("x"))
        .unwrap();
    p.process(
        &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
        {"id": "extra", "component": "Text", "text": "added"}]}}),
    )
    .unwrap();
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    let m = model(&p);
    assert_eq!(
        (&m["kept"], &m["agent"], &m["typed"], &m["listing"]["text"]),
        (&json!(1), &json!(true), &json!("x"), &json!("a.md"))
    );
}

/// A result that carries A2UI messages: they reach the same processor, and the surface they
/// create remembers the tool and its server.
#[test]
fn messages_a_result_carries_reach_the_processor_with_their_provenance() {
    let messages = json!([{"version": "v1.0", "createSurface": {"surfaceId": "board", "catalogId": "c",
        "components": [{"id": "root", "component": "Text", "text": "hi"}]}}]);
    let server = ScriptedServer::from_json(&json!({"name": "boards", "results": {"open_board": [{"content": [
        {"type": "resource", "resource": {"uri": "a2ui://board", "mimeType": "application/a2ui+json",
            "text": messages.to_string()}}]}]}})).unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "open_board"}))}}
        ]),
    );
    let run = tap(&mut p, "root");
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    let board = p.surface("board").expect("the tool's surface");
    let source = board.source().unwrap();
    assert_eq!(
        (source.tool.as_str(), source.server.as_deref()),
        ("open_board", Some("boards"))
    );
    assert!(
        p.take_changes()
            .surfaces_created
            .contains(&"board".to_string())
    );
    // Not forwarded to the host's sink as well: the processor is the only writer.
    assert!(server.messages().is_empty());
}

#[test]
fn a_result_handed_back_twice_or_to_another_processor_changes_nothing() {
    let server =
        ScriptedServer::from_json(&json!({"results": {"t": [text_result("1"), text_result("2")]}}))
            .unwrap();
    let host = server.host();
    let components = json!([{"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
        mcp("callMcpTool", json!({"name": "t", "targetDataPath": "/out"}))}}]);
    let mut p = Processor::new(live());
    surface(&mut p, json!({}), components.clone());
    let mut other = Processor::new(live());
    surface(&mut other, json!({}), components);
    let run = tap(&mut p, "root");
    let other_run = tap(&mut other, "root");
    let (once, twice) = (block_on(run.execute(&host)), block_on(run.execute(&host)));
    assert!(matches!(p.finish_tool_run(once), RunOutcome::Done(_)));
    p.take_changes();
    assert!(matches!(p.finish_tool_run(twice), RunOutcome::Ignored));
    assert_eq!(model(&p)["out"]["text"], "1");
    assert!(p.take_changes().is_empty());
    // A result of another processor's run is not pending here.
    let foreign = block_on(other_run.execute(&host));
    assert!(matches!(p.finish_tool_run(foreign), RunOutcome::Ignored));
    assert_eq!(model(&p)["out"]["text"], "1");
}

#[test]
fn a_surface_deleted_while_its_run_is_pending_drops_the_run() {
    let server = ScriptedServer::from_json(&json!({"results": {"t": [text_result("1")]}})).unwrap();
    let mut p = Processor::new(live());
    let components = json!([{"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
        mcp("callMcpTool", json!({"name": "t", "targetDataPath": "/out"}))}}]);
    surface(&mut p, json!({}), components.clone());
    let run = tap(&mut p, "root");
    p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}))
        .unwrap();
    assert_eq!(p.pending_tool_runs(), 0);
    // The same id again: a new surface, not the one the run came from.
    surface(&mut p, json!({}), components);
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Ignored));
    assert!(model(&p).get("out").is_none());
}

/// A row removed while its button's run waits: the run is dropped.
#[test]
fn a_run_whose_instance_is_gone_is_dropped() {
    let server = ScriptedServer::from_json(&json!({"results": {"t": [text_result("1")]}})).unwrap();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"rows": [{"n": 1}, {"n": 2}]}),
        json!([
            {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "t", "targetDataPath": "picked"}))}}
        ]),
    );
    let done = p
        .activate("s", "row", &JsonPointer::parse("/rows/1").unwrap(), "t")
        .unwrap();
    let run = p.take_tool_runs().remove(0);
    assert_eq!(Some(run.id()), done.run);
    assert_eq!(
        run.target(),
        Some(&JsonPointer::parse("/rows/1/picked").unwrap())
    );
    p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/rows", "value": [{"n": 1}]}})).unwrap();
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Ignored));
    assert_eq!(model(&p)["rows"], json!([{"n": 1}]));
}

/// A result nested past the depth limit, or a target that would pad an array past the
/// evaluation's budget: a located error, the model unchanged.
#[test]
fn a_result_past_the_limits_fails_and_writes_nothing() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let server = ScriptedServer::from_json(
        &json!({"results": {"deep": [text_result(&deep)], "t": [text_result("1")]}}),
    )
    .unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({"rows": []}),
        json!([
            {"id": "root", "component": "Column", "children": ["deep", "far"]},
            {"id": "deep", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "deep", "targetDataPath": "/deep"}))}},
            {"id": "far", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "t", "targetDataPath": "/rows/100000000"}))}}
        ]),
    );
    let before = model(&p).clone();
    for button in ["deep", "far"] {
        let run = tap(&mut p, button);
        let done = block_on(run.execute(&host));
        match p.finish_tool_run(done) {
            RunOutcome::Failed {
                component_id,
                error,
                ..
            } => {
                assert_eq!(component_id, button);
                assert_eq!(error.code(), ErrorCode::LimitExceeded, "{error}");
            }
            other => panic!("{button}: {other:?}"),
        }
        assert_eq!(model(&p), &before);
    }
}

/// Taps past `max_pending_runs`: each one more fails with `LIMIT_EXCEEDED`; nothing else moves.
#[test]
fn pending_runs_are_bounded() {
    let mut p = Processor::new(live().with_max_pending_runs(100));
    surface(
        &mut p,
        json!({"rows": (0..10_000).map(|i| json!({"i": i})).collect::<Vec<_>>()}),
        json!([
            {"id": "root", "component": "Column", "children": []},
            {"id": "row", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "t", "targetDataPath": "out"}))}}
        ]),
    );
    let mut refused = 0;
    for i in 0..10_000 {
        let path = JsonPointer::parse(&format!("/rows/{i}")).unwrap();
        let done = p.activate("s", "row", &path, "t").unwrap();
        if let Some(e) = done.errors.first() {
            assert_eq!(e.code(), ErrorCode::LimitExceeded);
            refused += 1;
        }
    }
    assert_eq!((p.pending_tool_runs(), refused), (100, 9_900));
    assert_eq!(p.take_tool_runs().len(), 100);
}

/// A chain whose second tool call the policy refuses: it fails at that call, with the
/// component, and the refused call sends and writes nothing.
#[test]
fn a_chain_whose_second_call_is_refused_fails_there() {
    let server = ScriptedServer::from_json(&json!({
        "tools": [{"name": "find", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
                  {"name": "delete", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}],
        "results": {"find": [text_result("{\"id\": 7}")], "delete": [text_result("deleted")]},
        "policy": {"denyDestructive": true}})).unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "delete", "targetDataPath": "/deleted", "arguments": {"id": mcp("transformData", json!({"jmespath": "json.id",
                    "data": mcp("callMcpTool", json!({"name": "find", "targetDataPath": "/found"}))}))}}))}}
        ]),
    );
    let first = tap(&mut p, "root");
    assert_eq!(first.tool(), "find");
    let done = block_on(first.execute(&host));
    let RunOutcome::Waiting(next) = p.finish_tool_run(done) else {
        panic!("waits for the second call")
    };
    let second = p.take_tool_runs().remove(0);
    assert_eq!(
        (second.id(), second.tool(), second.arguments()),
        (next, "delete", &json!({"id": 7}))
    );
    let done = block_on(second.execute(&host));
    assert!(done.error().is_some_and(|e| e.denial().is_some()));
    let RunOutcome::Failed {
        component_id,
        error,
        ..
    } = p.finish_tool_run(done)
    else {
        panic!("refused")
    };
    assert_eq!(component_id, "root");
    assert!(error.message().contains("not allowed"), "{error}");
    assert!(model(&p).get("deleted").is_none());
    assert_eq!(
        model(&p)["found"]["json"],
        json!({"id": 7}),
        "the first call's write stays"
    );
    assert_eq!(server.tool_calls().len(), 1);
}

/// Eight threads hand back a thousand results of taps to one `targetDataPath`, in scrambled
/// order: the value of the latest call started stays, and only it completes.
#[test]
fn results_handed_back_from_eight_threads_in_any_order_keep_the_latest() {
    use std::sync::{Arc, Mutex};
    let results: Vec<Value> = (0..1000).map(|i| text_result(&i.to_string())).collect();
    let server = ScriptedServer::from_json(&json!({"results": {"t": results}})).unwrap();
    let host = server.host();
    let mut p = Processor::new(live());
    surface(
        &mut p,
        json!({}),
        json!([
            {"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
                mcp("callMcpTool", json!({"name": "t", "targetDataPath": "/out"}))}}
        ]),
    );
    let runs: Vec<ToolRun> = (0..1000).map(|_| tap(&mut p, "root")).collect();
    // Made in the order they started: run i gets result i.
    let mut dones: Vec<_> = runs
        .iter()
        .map(|run| block_on(run.execute(&host)))
        .collect();
    // A fixed scramble (a linear congruential generator's Fisher–Yates).
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    for i in (1..dones.len()).rev() {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        dones.swap(i, (seed >> 33) as usize % (i + 1));
    }
    let p = Arc::new(Mutex::new(p));
    let mut chunks: Vec<Vec<_>> = (0..8).map(|_| Vec::new()).collect();
    for (i, done) in dones.into_iter().enumerate() {
        chunks[i % 8].push(done);
    }
    let threads: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let p = p.clone();
            std::thread::spawn(move || {
                chunk
                    .into_iter()
                    .map(|done| {
                        matches!(p.lock().unwrap().finish_tool_run(done), RunOutcome::Done(_))
                    })
                    .filter(|&done| done)
                    .count()
            })
        })
        .collect();
    let completed: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(completed, 1);
    let p = p.lock().unwrap();
    assert_eq!(model(&p)["out"]["text"], "999");
    assert_eq!(p.pending_tool_runs(), 0);
}

/// A tap compiles the action once; the component sent again with another action runs the new
/// one.
#[test]
fn a_component_sent_again_taps_its_new_action() {
    let mut p = Processor::new(live());
    let button = |tool: &str| {
        json!([{"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
            mcp("callMcpTool", json!({"name": tool}))}}])
    };
    surface(&mut p, json!({}), button("first"));
    assert_eq!(tap(&mut p, "root").tool(), "first");
    assert_eq!(tap(&mut p, "root").tool(), "first");
    p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": button("second")}}))
        .unwrap();
    assert_eq!(tap(&mut p, "root").tool(), "second");
}

/// Issue 34: a bound value's tool result is charged to the live trees' byte limit, as the
/// values the tree computes itself are; past it the property fails with `LIMIT_EXCEEDED`
/// instead of keeping the result.
#[test]
fn a_bound_tool_result_is_charged_to_the_live_trees() {
    let big = "x".repeat(512 << 10);
    let server = ScriptedServer::from_json(
        &json!({"results": {"greet": [text_result(&big), text_result("small")]}}),
    )
    .unwrap();
    let mut limits = ResolveLimits::default();
    limits.max_bytes = 256 << 10;
    let mut p = Processor::new(
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_live(limits),
    );
    let greeting = json!({"id": "greeting", "component": "Text", "text": mcp("transformData", json!({"jmespath": "text",
        "data": mcp("callMcpTool", json!({"name": "greet", "arguments": {}}))}))});
    surface(
        &mut p,
        json!({}),
        json!([{"id": "root", "component": "Column", "children": ["greeting"]}, greeting]),
    );
    let id = node_of(&p, "greeting@/");
    let run = p.take_tool_runs().remove(0);
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    let live = p.surface("s").unwrap().live().unwrap();
    assert_eq!(live.node(id).unwrap().prop("text"), Some(Value::Null));
    match live.node(id).unwrap().state() {
        Some(a2ui_catalog_mcp::surfaces::NodeState::Failed(why)) => {
            assert!(why.contains("LIMIT_EXCEEDED"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // A result that fits is kept, and the bytes of the refused one were never counted.
    p.process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [greeting]}}))
        .unwrap();
    let run = p.take_tool_runs().remove(0);
    let done = block_on(run.execute(&server.host()));
    assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
    let live = p.surface("s").unwrap().live().unwrap();
    let id = node_of(&p, "greeting@/");
    assert_eq!(live.node(id).unwrap().prop("text"), Some(json!("small")));
}
