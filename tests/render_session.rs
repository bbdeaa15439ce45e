//! `a2ui-mcp render … --click/--type/--call`: a user's session on a surface, its tool calls made
//! through the processor's tool runs. Against the scripted server (`--server`, no network), the
//! official filesystem server (npm, over stdio, `support::npm_server`) and a Python MCP SDK server
//! that returns a surface and takes its actions back (`tests/python/a2ui_counter_server.py`,
//! `support::python_env`).
#![cfg(feature = "cli")]

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::cli::{cli, stdout_json, write_json};

const MCP: &str = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";
const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// A call of the MCP catalog.
fn mcp(function: &str, args: Value) -> Value {
    json!({"@call": function, "catalogId": MCP, "args": args})
}

fn stream(surface: &str, data: Value, components: Value) -> Value {
    json!([{"version": "v1.0", "createSurface": {"surfaceId": surface, "catalogId": BASIC,
        "dataModel": data, "components": components}}])
}

/// The node of `component` (its first instance) in a surface of the output.
fn node<'a>(out: &'a Value, surface: &str, component: &str) -> &'a Value {
    out["surfaces"][surface]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["componentId"] == component)
        .unwrap_or_else(|| panic!("no node {component}"))
}

fn text(result: &str) -> Value {
    json!({"content": [{"type": "text", "text": result}]})
}

/// A directory input, a Button running the guide's text chain on `list_directory` into
/// `/entries`, a List of the entries, and a Text whose bound value runs the json chain's call on
/// `directory_tree` (it re-runs when the directory is typed).
fn files_surface(dir: &str) -> Value {
    let list = mcp(
        "updateDataModel",
        json!({"updates": mcp("transformData", json!({
        "jmespath": "{\"/entries\": [?@ != null].{kind: [0], name: [1]}}",
        "data": mcp("regexCapture", json!({"pattern": "^\\[(FILE|DIR)\\] (.*)$",
            "value": mcp("split", json!({"separator": "\n",
                "value": mcp("transformData", json!({"jmespath": "text",
                    "data": mcp("callMcpTool", json!({"name": "list_directory", "arguments": {"path": {"@path": "/dir"}}}))}))}))}))}))}),
    );
    let tree = mcp(
        "transformData",
        json!({"jmespath": "join(', ', json[].name)",
        "data": mcp("callMcpTool", json!({"name": "directory_tree", "arguments": {"path": {"@path": "/dir"}}}))}),
    );
    let mkdir = mcp(
        "callMcpTool",
        json!({"name": "create_directory",
        "arguments": {"path": {"@call": "formatString", "catalogId": BASIC, "args": {"value": "${/dir}/made"}}},
        "targetDataPath": "/made"}),
    );
    stream(
        "files",
        json!({"dir": dir}),
        json!([
            {"id": "root", "component": "Column", "children": ["dir", "list", "mkdir", "tree", "entries"]},
            {"id": "dir", "component": "TextField", "label": "Directory", "value": {"@path": "/dir"}},
            {"id": "list", "component": "Button", "child": "list-label", "action": {"functionCall": list}},
            {"id": "list-label", "component": "Text", "text": "List"},
            {"id": "mkdir", "component": "Button", "child": "mkdir-label", "action": {"functionCall": mkdir}},
            {"id": "mkdir-label", "component": "Text", "text": "Make a directory"},
            {"id": "tree", "component": "Text", "text": tree},
            {"id": "entries", "component": "List", "children": {"componentId": "entry", "path": "/entries"}},
            {"id": "entry", "component": "Text", "text": {"@path": "name"}}
        ]),
    )
}

#[test]
fn a_typed_directory_and_a_tap_run_the_chains_on_a_scripted_server() {
    let work = temp_dir("scripted");
    let file = write_json(&work, "stream.json", &files_surface("/start"));
    let server = write_json(
        &work,
        "server.json",
        &json!({
        "tools": [{"name": "list_directory", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
                  {"name": "directory_tree", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}],
        "results": {
            "list_directory": [text("[FILE] a.md\n[DIR] src")],
            "directory_tree": [text("[{\"name\": \"start\"}]"), text("[{\"name\": \"a.md\"}, {\"name\": \"src\"}]")]
        }}),
    );
    let out = stdout_json(&cli(&[
        "render",
        &file,
        "--server",
        &server,
        "--type",
        "dir=/docs",
        "--click",
        "files:list",
    ]));
    let files = &out["surfaces"]["files"];
    assert_eq!(
        files["dataModel"]["entries"],
        json!([{"kind": "FILE", "name": "a.md"}, {"kind": "DIR", "name": "src"}])
    );
    // The bound value ran when the stream arrived, and again after the keystroke.
    assert_eq!(node(&out, "files", "tree")["props"]["text"], "a.md, src");
    let rows: Vec<&Value> = files["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["componentId"] == "entry")
        .collect();
    assert_eq!(
        rows.iter()
            .map(|n| n["props"]["text"].clone())
            .collect::<Vec<_>>(),
        [json!("a.md"), json!("src")]
    );
    assert_eq!(out["forAgent"], json!([]));
}

#[test]
fn a_destructive_tool_from_a_tap_runs_only_with_allow_tool() {
    let work = temp_dir("destructive");
    let file = write_json(&work, "stream.json", &files_surface("/start"));
    let server = write_json(
        &work,
        "server.json",
        &json!({
        "tools": [{"name": "create_directory", "inputSchema": {"type": "object"}},
                  {"name": "directory_tree", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}],
        "results": {"create_directory": [text("Successfully created directory /start/made")],
                    "directory_tree": [text("[]")]}}),
    );
    let audit = work.join("audit.jsonl");
    let refused = stdout_json(&cli(&[
        "render", &file, "--server", &server, "--click", "mkdir",
    ]));
    let steps = refused["steps"]
        .as_array()
        .expect("the refusal is reported");
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["component"], "mkdir");
    assert!(
        steps[0]["error"].as_str().unwrap().contains("not allowed"),
        "{steps:?}"
    );
    assert!(
        refused["surfaces"]["files"]["dataModel"]
            .get("made")
            .is_none()
    );
    let allowed = stdout_json(&cli(&[
        "render",
        &file,
        "--server",
        &server,
        "--click",
        "mkdir",
        "--allow-tool",
        "create_directory",
        "--audit",
        audit.to_str().unwrap(),
    ]));
    assert!(allowed.get("steps").is_none(), "{allowed}");
    let made = &allowed["surfaces"]["files"]["dataModel"]["made"];
    assert_eq!(made["toolInput"], json!({"path": "/start/made"}));
}

#[test]
fn an_event_action_with_no_server_for_it_goes_to_the_agent() {
    let work = temp_dir("event");
    let file = write_json(
        &work,
        "stream.json",
        &stream(
            "s",
            json!({"n": 3}),
            json!([
                {"id": "root", "component": "Button", "child": "label", "action": {"event": {"name": "go", "context": {"n": {"@path": "/n"}}}}},
                {"id": "label", "component": "Text", "text": "Go"}
            ]),
        ),
    );
    let out = stdout_json(&cli(&["render", &file, "--click", "root"]));
    let sent = &out["forAgent"][0]["action"];
    assert_eq!(
        (
            &sent["name"],
            &sent["surfaceId"],
            &sent["sourceComponentId"],
            &sent["context"]
        ),
        (&json!("go"), &json!("s"), &json!("root"), &json!({"n": 3}))
    );
}

/// Each bad step is an error naming it, and the command fails.
#[test]
fn bad_steps_are_errors_naming_the_step() {
    let work = temp_dir("bad");
    let file = write_json(
        &work,
        "stream.json",
        &json!([
            {"version": "v1.0", "createSurface": {"surfaceId": "a", "catalogId": BASIC, "dataModel": {"rows": [{"n": 1}]},
                "components": [{"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
                               {"id": "row", "component": "Text", "text": {"@path": "n"}}]}},
            {"version": "v1.0", "createSurface": {"surfaceId": "b", "catalogId": BASIC,
                "components": [{"id": "root", "component": "Text", "text": "x"}]}}
        ]),
    );
    for (args, says) in [
        (
            vec!["--click", "root"],
            "--click root: there are several surfaces (a, b)",
        ),
        (
            vec!["--click", "a:row"],
            "--click a:row: component 'row' has no action",
        ),
        (
            vec!["--type", "a:row=hi"],
            "--type a:row=hi: component 'row' has no bound input",
        ),
        (
            vec!["--click", "a:row@/rows/5"],
            "--click a:row@/rows/5: component 'row' has no instance at '/rows/5' (its rows: '/rows/0')",
        ),
        (
            vec!["--click", "c:root"],
            "--click c:root: there is no surface 'c'",
        ),
        (
            vec!["--type", "a:row"],
            "--type 'a:row' needs [SURFACE:]COMPONENT[@DATAPATH]=TEXT",
        ),
        (
            vec!["--call", "t={"],
            "--call 't={': the arguments are not JSON",
        ),
    ] {
        let mut all = vec!["render", file.as_str()];
        all.extend(args);
        let out = cli(&all);
        assert_eq!(out.status.code(), Some(1), "{all:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{all:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

/// The official filesystem server: a keystroke, a tap running the text chain, a bound value on
/// `directory_tree`, a refused and an allowed destructive call.
#[test]
fn the_filesystem_server_from_a_surface() {
    let Some(entry) = support::npm_server::entry() else {
        return;
    };
    let dir = temp_dir("fs");
    std::fs::write(dir.join("notes.txt"), "first\n").unwrap();
    std::fs::create_dir(dir.join("photos")).unwrap();
    let work = temp_dir("fs-work");
    let file = write_json(&work, "stream.json", &files_surface("/nowhere"));
    let command = format!("node '{}' '{}'", entry.display(), dir.display());
    let dir_text = dir.to_str().unwrap().to_owned();
    let typed = format!("dir={dir_text}");
    let out = stdout_json(&cli(&[
        "render", &file, "--mcp", &command, "--type", &typed, "--click", "list", "--click", "mkdir",
    ]));
    let files = &out["surfaces"]["files"];
    let mut entries = files["dataModel"]["entries"]
        .as_array()
        .expect("entries")
        .clone();
    entries.sort_by_key(|e| e["name"].as_str().unwrap_or_default().to_owned());
    assert_eq!(
        Value::from(entries),
        json!([{"kind": "FILE", "name": "notes.txt"}, {"kind": "DIR", "name": "photos"}])
    );
    // The bound value failed on the first directory (outside the server's), then ran on the typed one.
    let tree = node(&out, "files", "tree")["props"]["text"]
        .as_str()
        .expect("the tree's names")
        .to_owned();
    assert!(
        tree.contains("notes.txt") && tree.contains("photos"),
        "{tree}"
    );
    // create_directory is not read-only: refused from a tap without --allow-tool.
    let steps = out["steps"].as_array().expect("the refusal");
    assert!(
        steps
            .iter()
            .any(|s| s["component"] == "mkdir"
                && s["error"].as_str().unwrap().contains("not allowed")),
        "{steps:?}"
    );
    assert!(!dir.join("made").exists());
    let out = stdout_json(&cli(&[
        "render",
        &file,
        "--mcp",
        &command,
        "--type",
        &typed,
        "--click",
        "mkdir",
        "--allow-tool",
        "create_directory",
    ]));
    assert!(dir.join("made").is_dir());
    assert_eq!(
        out["surfaces"]["files"]["dataModel"]["made"]["toolName"],
        "create_directory"
    );
}

/// A2UI over MCP both ways, with a Python SDK server: `--call` shows its surface, a tap on it
/// goes back to its `a2ui_action` tool, whose answer updates the surface.
#[test]
fn a2ui_over_mcp_both_ways() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let server = format!(
        "'{}' '{}'",
        python.display(),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/python/a2ui_counter_server.py")
            .display()
    );
    let out = stdout_json(&cli(&[
        "render",
        "tests/data/empty-stream.json",
        "--mcp",
        &server,
        "--call",
        "show_counter={\"start\": 41}",
        "--click",
        "counter:button",
        "--click",
        "counter:button",
    ]));
    let counter = &out["surfaces"]["counter"];
    assert_eq!(
        counter["dataModel"],
        json!({"count": 43, "last": "increment from button"})
    );
    assert_eq!(node(&out, "counter", "value")["props"]["text"], 43);
    assert_eq!(out["forAgent"], json!([]), "the server took the actions");
    assert!(
        out.get("steps").is_none_or(|s| s
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("error").is_none())),
        "{out}"
    );
}

/// Bound values whose tool calls write what the other reads would call tools forever: the
/// session stops after its rounds, saying why. A surface with many bound tool values is one
/// round: its runs, bounded by the processor, all complete.
#[test]
fn bound_values_that_feed_each_other_stop_and_many_values_are_one_round() {
    let work = temp_dir("rounds");
    let server = write_json(
        &work,
        "server.json",
        &json!({
        "tools": [{"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}],
        "results": {"t": [text("same")]}}),
    );
    let feeds = |reads: &str, writes: &str| {
        mcp(
            "transformData",
            json!({"jmespath": "text",
        "data": mcp("callMcpTool", json!({"name": "t", "arguments": {"x": {"@path": reads}}, "targetDataPath": writes}))}),
        )
    };
    let looping = write_json(
        &work,
        "loop.json",
        &stream(
            "s",
            json!({}),
            json!([
                {"id": "root", "component": "Column", "children": ["a", "b"]},
                {"id": "a", "component": "Text", "text": feeds("/b/text", "/a")},
                {"id": "b", "component": "Text", "text": feeds("/a/text", "/b")}
            ]),
        ),
    );
    let out = cli(&["render", &looping, "--server", &server]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the stream: its tool calls did not settle after 100 rounds"),
        "{stderr}"
    );

    let rows: Vec<Value> = (0..3_000).map(|i| json!({"i": i})).collect();
    let many = write_json(
        &work,
        "many.json",
        &stream(
            "s",
            json!({"rows": rows}),
            json!([
                {"id": "root", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
                {"id": "row", "component": "Text", "text": mcp("transformData", json!({"jmespath": "text",
                    "data": mcp("callMcpTool", json!({"name": "t", "arguments": {"i": {"@path": "i"}}}))}))}
            ]),
        ),
    );
    let out = stdout_json(&cli(&["render", &many, "--server", &server]));
    let texts = out["surfaces"]["s"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["props"]["text"] == "same")
        .count();
    assert_eq!(texts, 3_000);
}

/// A fresh directory for one case.
fn temp_dir(name: &str) -> PathBuf {
    support::cli::temp_dir("render-session", name)
}
