//! The terminal renderer of `examples/tui` on the official gallery, headless: every example is
//! drawn at a fixed width and compared with its reviewed snapshot in `tests/snapshots/tui/`
//! (`A2UI_UPDATE_SNAPSHOTS=1` rewrites them); keys typed into the login form write its model
//! and its button sends its action.

#[path = "../examples/tui/draw.rs"]
mod draw;
#[path = "../examples/tui/stream.rs"]
#[allow(dead_code)]
mod stream;
#[path = "../examples/tui/tools.rs"]
#[allow(dead_code)]
mod tools;

use a2ui_catalog_mcp::surfaces::{Node, ResolveLimits};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use stream::{Key, StreamApp, parse_script};

/// The snapshots' width: a terminal's usual 80 columns.
const WIDTH: usize = 80;

fn gallery() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/a2ui-v1/gallery")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn app(path: &Path) -> StreamApp {
    let stream: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    StreamApp::new(&stream, "en-US", "UTC")
        .unwrap()
        .with_clock(|| "2026-12-04T18:00:00Z".into())
}

/// Compares `screen` with the snapshot `name`, or writes it when asked to.
fn snapshot(name: &str, screen: &str, failures: &mut Vec<String>) {
    let path = Path::new("tests/snapshots/tui").join(format!("{name}.txt"));
    if std::env::var_os("A2UI_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, screen).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == screen => {}
        Ok(expected) => failures.push(format!(
            "{name}: the screen differs from {}\n--- expected\n{expected}--- drawn\n{screen}",
            path.display()
        )),
        Err(e) => failures.push(format!(
            "{name}: no snapshot at {} ({e}); A2UI_UPDATE_SNAPSHOTS=1 writes it\n{screen}",
            path.display()
        )),
    }
}

/// Every Text of the resolved trees shows on the screen (its first word, markdown marks
/// aside), unless it is under a tab that is not selected or in a closed modal.
fn assert_texts_shown(app: &StreamApp, name: &str, screen: &str) {
    for surface in app.processor().surfaces() {
        let tree = surface.resolve(ResolveLimits::default());
        let by_key: std::collections::HashMap<String, &Node> =
            tree.nodes.iter().map(|n| (n.key(), n)).collect();
        for node in &tree.nodes {
            if node.component_type.as_deref() != Some("Text") {
                continue;
            }
            // Hidden: an ancestor hangs from a tab other than the first, or a modal's content.
            let mut hidden = false;
            let mut at = node;
            while let (Some(parent), Some(slot)) = (&at.parent, &at.slot) {
                hidden |= (slot.starts_with("tabs[") && !slot.starts_with("tabs[0]"))
                    || slot == "content";
                match by_key.get(parent) {
                    Some(p) => at = p,
                    None => break,
                }
            }
            let text = draw::show(node.props.get("text"));
            let word: String = text
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| matches!(c, '#' | '*' | '_' | '`' | '[' | '-')))
                .find(|w| !w.is_empty())
                .unwrap_or("")
                .chars()
                .take(6)
                .collect();
            assert!(
                hidden || screen.contains(&word),
                "{name}: the text {text:?} of {} does not show\n{screen}",
                node.key()
            );
        }
    }
}

#[test]
fn every_gallery_example_draws_as_its_reviewed_snapshot() {
    let files = gallery();
    assert_eq!(files.len(), 43);
    let mut failures = Vec::new();
    for path in &files {
        let app = app(path);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(app.errors().is_empty(), "{name}: {:?}", app.errors());
        let screen = app.screen(WIDTH);
        // Drawn in full: no line wider than the screen, no value that failed, no child that
        // is not defined.
        for line in screen.lines() {
            assert!(draw::cells(line) <= WIDTH, "{name}: {line:?}");
        }
        assert!(!screen.contains('⚠'), "{name}:\n{screen}");
        assert!(!screen.contains("not defined yet"), "{name}:\n{screen}");
        assert_texts_shown(&app, &name, &screen);
        snapshot(&name, &screen, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tabs_and_modals_draw_what_the_user_opened() {
    let mut failures = Vec::new();
    let mut recipe = app(Path::new("tests/a2ui-v1/gallery/24_recipe-card.json"));
    // The tabs are the first input: Right selects the second tab.
    for key in parse_script("<Tab><Right>").unwrap() {
        recipe.key(key);
    }
    snapshot(
        "24_recipe-card.second-tab",
        &recipe.screen(WIDTH),
        &mut failures,
    );
    let mut modal = app(Path::new("tests/a2ui-v1/gallery/36_modal.json"));
    for key in parse_script("<Tab><Enter>").unwrap() {
        modal.key(key);
    }
    assert!(modal.modal_open());
    snapshot("36_modal.open", &modal.screen(WIDTH), &mut failures);
    modal.key(Key::Esc);
    assert!(!modal.modal_open());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn typing_writes_the_bound_model_and_the_button_sends_its_action() {
    let mut login = app(Path::new("tests/a2ui-v1/gallery/09_login-form.json"));
    let surface = "gallery-login-form";
    let model = |app: &StreamApp| {
        app.processor()
            .surface(surface)
            .unwrap()
            .data_model()
            .clone()
    };
    // The button's checks fail while the form is empty: pressing it sends nothing.
    for key in parse_script("<Tab><Tab><Tab><Enter>").unwrap() {
        login.key(key);
    }
    assert_eq!(
        login.focus(),
        Some(&(surface.to_owned(), "login_btn@/".to_owned()))
    );
    assert!(
        login.log()[0].starts_with("login_btn is disabled: "),
        "{:?}",
        login.log()
    );
    for key in
        parse_script("<BackTab><BackTab>ada@example.com<Tab>secret12x<Backspace>3<Tab><Enter>")
            .unwrap()
    {
        login.key(key);
    }
    assert_eq!(
        model(&login),
        json!({"email": "ada@example.com", "password": "secret123"})
    );
    let screen = login.screen(WIDTH);
    assert!(screen.contains("Email: [ada@example.com "), "{screen}");
    assert!(screen.contains("Password: [•••••••••"), "{screen}");
    assert!(!screen.contains("(disabled)"), "{screen}");
    let sent = login.log().last().unwrap();
    let message: Value =
        serde_json::from_str(sent.strip_prefix("with data model ").unwrap()).unwrap();
    assert_eq!(message["surfaces"][surface]["email"], "ada@example.com");
    let action = &login.log()[login.log().len() - 2];
    let action: Value = serde_json::from_str(action.strip_prefix("sent ").unwrap()).unwrap();
    assert_eq!(action["action"]["sourceComponentId"], "login_btn");
    assert_eq!(action["action"]["surfaceId"], surface);
    assert_eq!(action["action"]["timestamp"], "2026-12-04T18:00:00Z");
}

#[test]
fn inputs_of_every_kind_write_their_paths() {
    // A check box, a picker (multiple selection), a slider and a date, all bound, one of them
    // relative to a template item.
    let stream = json!([
        {"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "dataModel": {"rows": [{"done": false}], "tags": ["a"], "volume": 5, "when": ""}}},
        {"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Column", "children": ["list", "tags", "volume", "when"]},
            {"id": "list", "component": "List", "children": {"componentId": "row", "path": "/rows"}},
            {"id": "row", "component": "CheckBox", "label": "Done", "value": {"path": "done"}},
            {"id": "tags", "component": "ChoicePicker", "label": "Tags", "variant": "multipleSelection",
                "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "b"}], "value": {"path": "/tags"}},
            {"id": "volume", "component": "Slider", "label": "Volume", "min": 0, "max": 10, "value": {"path": "/volume"}},
            {"id": "when", "component": "DateTimeInput", "label": "When", "enableDate": true, "value": {"path": "/when"}}
        ]}}
    ]);
    let mut app = StreamApp::new(&stream, "en-US", "UTC").unwrap();
    app.set_width(40);
    assert!(app.errors().is_empty(), "{:?}", app.errors());
    let keys = "<Tab><Space><Tab><Right><Enter><Left><Enter><Tab><Right><Right><Tab>2026-12-04";
    for key in parse_script(keys).unwrap() {
        app.key(key);
    }
    assert_eq!(
        app.processor().surface("s").unwrap().data_model(),
        &json!({"rows": [{"done": true}], "tags": ["b"], "volume": 7, "when": "2026-12-04"})
    );
    let screen = app.screen(40);
    for expected in [
        "[x] Done",
        "›[ ] A",
        " [x] B",
        "Volume: ├",
        "┤ 7",
        "When: [2026-12-04",
    ] {
        assert!(screen.contains(expected), "{expected}\n{screen}");
    }
}

#[test]
fn bad_streams_draw_what_they_can_without_hanging() {
    let basic = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";
    // 20 000 columns, then 20 000 cards, each the child of the one before: drawn down to the
    // depth limit, or until the cards leave no room, quickly.
    for kind in ["Column", "Card"] {
        let n = 20_000;
        let mut components: Vec<Value> = (0..n)
            .map(|i| {
                let id = if i == 0 {
                    "root".to_owned()
                } else {
                    format!("c{i}")
                };
                let child = format!("c{}", i + 1);
                match kind {
                    "Card" => json!({"id": id, "component": "Card", "child": child}),
                    _ => json!({"id": id, "component": "Column", "children": [child]}),
                }
            })
            .collect();
        components.push(json!({"id": format!("c{n}"), "component": "Text", "text": "bottom"}));
        let deep = json!([
            {"version": "v1.0", "createSurface": {"surfaceId": "deep", "catalogId": basic}},
            {"version": "v1.0", "updateComponents": {"surfaceId": "deep", "components": components}}
        ]);
        let started = std::time::Instant::now();
        let app = StreamApp::new(&deep, "en-US", "UTC").unwrap();
        assert!(app.errors().is_empty(), "{:?}", app.errors());
        let screen = app.screen(WIDTH);
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        let mark = match kind {
            "Card" => "│ …    │".to_owned(),
            _ => format!(
                "… nested deeper than {} levels: not drawn",
                draw::MAX_DRAW_DEPTH
            ),
        };
        assert!(screen.contains(&mark), "{kind}\n{screen}");
        assert!(!screen.contains("bottom"));
        for line in screen.lines() {
            assert!(draw::cells(line) <= WIDTH, "{line:?}");
        }
    }

    // A child not sent yet, a refused message, wrong value types and a narrow screen.
    let odd = json!([
        {"version": "v1.0", "createSurface": {"surfaceId": "odd", "catalogId": basic,
            "dataModel": {"n": {"deep": [1, 2]}, "v": "x"}}},
        {"version": "v1.0", "updateComponents": {"surfaceId": "odd", "components": [
            {"id": "root", "component": "Row", "children": ["later", "text", "slider", "pick", "tabs"]},
            {"id": "text", "component": "Text", "text": {"path": "/n"}},
            {"id": "slider", "component": "Slider", "value": {"path": "/v"}, "min": 5, "max": 1},
            {"id": "pick", "component": "ChoicePicker", "options": [], "value": {"path": "/v"}},
            {"id": "tabs", "component": "Tabs", "tabs": []}
        ]}},
        {"version": "v1.0", "updateComponents": {"surfaceId": "odd", "components": [
            {"id": "text", "component": "Txt"}
        ]}}
    ]);
    let mut app = StreamApp::new(&odd, "en-US", "UTC").unwrap();
    assert_eq!(app.errors().len(), 1);
    for width in [1, 5, 20, 80] {
        let screen = app.screen(width);
        assert!(
            screen.contains("… later (not defined yet)") || width < 80,
            "{screen}"
        );
        for line in screen.lines() {
            assert!(draw::cells(line) <= width.max(1), "{width}: {line:?}");
        }
    }
    assert!(
        app.screen(80)
            .contains("! message 2 at /updateComponents/components/0/component")
    );
    for key in
        parse_script("<Tab><Left><Right><Enter><Tab><Right><Enter><Tab><Left>x<Esc>").unwrap()
    {
        app.key(key);
    }
}

/// The terminal renderer's own demo stream (`examples/tui/search.json`) with its tool calls
/// made by a host on the worker's thread (here the scripted server): the bound issue count
/// runs when the stream arrives, typing a query and pressing Search runs the guide's text
/// chain through the processor's tool runs, and the List draws the results.
#[cfg(feature = "testing")]
#[test]
fn the_demo_stream_calls_its_tools_through_the_processor() {
    use a2ui_catalog_mcp::testing::ScriptedServer;
    let server = ScriptedServer::from_json(&json!({"results": {
        "issue_stats": [{"content": [], "structuredContent": {"repository": "a2ui/a2ui", "open": 2}}],
        "tavily-search": [{"content": [{"type": "text", "text": "Title: A2UI\nURL: https://a2ui.org/\n\nTitle: MCP\nURL: https://modelcontextprotocol.io/"}]}]
    }}))
    .unwrap();
    let worker = tools::ToolWorker::start(Box::new(move |sink| {
        Box::pin(async move {
            Ok(
                a2ui_catalog_mcp::mcp::McpHost::new(std::sync::Arc::new(server))
                    .with_sink(sink)
                    .into(),
            )
        })
    }))
    .unwrap();
    let mut app = app(Path::new("examples/tui/search.json")).with_tools(worker);
    app.settle();
    for key in parse_script("<Tab>rust<Tab><Enter>").unwrap() {
        app.key(key);
        app.settle();
    }
    let screen = app.screen(WIDTH);
    assert!(screen.contains("a2ui/a2ui: 2 open issues"), "{screen}");
    assert!(screen.contains("Results: 2"), "{screen}");
    assert!(
        screen.contains("https://modelcontextprotocol.io/"),
        "{screen}"
    );
    assert_eq!(
        app.processor().surface("search").unwrap().data_model()["query"],
        "rust"
    );
}

/// The terminal renderer on a real server: `--call` asks a Python MCP SDK server for its
/// surface (`tests/python/a2ui_counter_server.py`, over stdio), which is drawn.
#[cfg(feature = "connect")]
#[test]
fn a_real_servers_surface_is_drawn() {
    #[path = "support/python_env.rs"]
    mod python_env;
    use a2ui_catalog_mcp::connect::{ConnectOptions, Connections, ServerSpec};
    let Some(python) = python_env::interpreter() else {
        return;
    };
    let server = ServerSpec::command(format!(
        "'{}' tests/python/a2ui_counter_server.py",
        python.display()
    ));
    let worker = tools::ToolWorker::start(Box::new(move |sink| {
        Box::pin(async move {
            let connections = Connections::connect(&[server], &ConnectOptions::new())
                .await
                .map_err(|e| e.to_string())?;
            let connections = std::sync::Arc::new(connections);
            let servers = connections.clone();
            Ok(tools::Hosted {
                host: a2ui_catalog_mcp::mcp::McpHost::with_router(connections).with_sink(sink),
                action_server: Box::new(move |name: &str| {
                    servers
                        .server_named(name)
                        .map(|s| s.clone() as std::sync::Arc<dyn a2ui_catalog_mcp::mcp::ToolClient>)
                }),
            })
        })
    }))
    .unwrap();
    let mut app = StreamApp::new(&json!([]), "en-US", "UTC")
        .unwrap()
        .with_tools(worker);
    app.call("show_counter", json!({"start": 5}));
    app.settle();
    let screen = app.screen(WIDTH);
    assert!(
        screen.contains("── counter") && screen.contains("[ +1 ]"),
        "{screen}"
    );
    assert_eq!(
        app.processor().surface("counter").unwrap().data_model()["count"],
        5
    );
    // Its button's action goes back to the server's a2ui_action; the answer updates it.
    for key in parse_script("<Tab><Enter>").unwrap() {
        app.key(key);
        app.settle();
    }
    let counter = app.processor().surface("counter").unwrap().data_model();
    assert_eq!(
        (&counter["count"], &counter["last"]),
        (&json!(6), &json!("increment from button"))
    );
}
