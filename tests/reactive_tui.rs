//! The terminal renderer of `examples/tui`, driven headless on ratatui's test backend: type a
//! query, press Enter, read the screen; count what a keystroke evaluates.

#[path = "../examples/tui/app.rs"]
mod app;
#[path = "../examples/tui/host.rs"]
mod host;

use a2ui_catalog_mcp::JsonPointer;
use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::reactive::TrackedModel;
use app::{App, Key};
use serde_json::{Value, json};
use std::sync::Arc;

const SURFACE: &str = include_str!("../examples/tui/surface.json");

async fn app() -> App {
    let surface: Value = serde_json::from_str(SURFACE).unwrap();
    let model = Arc::new(SharedModel::new(TrackedModel::new(json!({}))));
    let host = Arc::new(host::demo_host().await.unwrap());
    let mut app = App::new(&surface, model, host).unwrap();
    // The issue count is a value that needs a tool call: it arrives.
    app.settle().await;
    app
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.key(Key::Char(c)).unwrap();
    }
}

#[tokio::test]
async fn type_a_query_press_enter_and_read_the_results() {
    let mut app = app().await;
    let screen = app.screen(80, 20);
    assert!(screen.contains("a2ui/a2ui: 2 open issues"), "{screen}");
    assert!(
        screen.contains("Type a query, then press Enter"),
        "{screen}"
    );
    assert!(screen.contains("Results: 0"), "{screen}");

    typed(&mut app, "rust");
    let screen = app.screen(80, 20);
    assert!(screen.contains("│rust▏"), "{screen}");
    assert!(
        screen.contains(r#"Press Enter to search for "rust""#),
        "{screen}"
    );

    app.key(Key::Enter).unwrap();
    assert!(app.busy());
    // The search runs: the list says so until its result is written.
    let screen = app.screen(80, 20);
    assert!(screen.contains("Results: 0 (searching…)"), "{screen}");
    app.settle().await;
    assert!(!app.busy());
    let screen = app.screen(80, 20);
    assert!(!screen.contains("searching"), "{screen}");
    assert!(screen.contains("Results: 3"), "{screen}");
    assert!(
        screen.contains("A2UI: Agent-to-User Interface  https://a2ui.org/"),
        "{screen}"
    );
    assert!(
        screen.contains("Call MCP Tools from A2UI  https://a2ui.org/guides/mcp-tools/"),
        "{screen}"
    );
    assert_eq!(
        app.model().lock().get()["results"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[tokio::test]
async fn a_keystroke_evaluates_only_what_reads_the_query() {
    let mut app = app().await;
    typed(&mut app, "a2ui");
    app.key(Key::Enter).unwrap();
    app.settle().await;
    assert!(app.take_dirty());
    // What reads /query: the field's value and the hint. Nothing else is evaluated, though
    // the surface now has three rows of two fields, a title, a count and more.
    let query = JsonPointer::parse("/query").unwrap();
    let readers = app.keys_reading(&query);
    assert_eq!(readers, ["hint.text", "query.value"]);
    let before = app.evaluations();
    app.key(Key::Char('!')).unwrap();
    assert_eq!(app.evaluations() - before, readers.len() as u64);
    assert!(app.take_dirty());
    let before = app.evaluations();
    app.key(Key::Backspace).unwrap();
    assert_eq!(app.evaluations() - before, readers.len() as u64);
    // Redrawn once; nothing more to draw until the next change.
    assert!(app.take_dirty());
    assert!(!app.take_dirty());
}

#[tokio::test]
async fn typing_again_supersedes_a_search_in_flight() {
    let mut app = app().await;
    typed(&mut app, "ru");
    app.key(Key::Enter).unwrap();
    assert!(app.screen(80, 20).contains("(searching…)"));
    // Typed before the search's result came: the search is superseded, its result is never
    // written, and the list is no longer pending.
    typed(&mut app, "st");
    app.settle().await;
    let screen = app.screen(80, 20);
    assert!(screen.contains("Results: 0"), "{screen}");
    assert!(!screen.contains("searching"), "{screen}");
    assert_eq!(app.model().lock().get()["results"], json!([]));
    // Enter again: this one completes.
    app.key(Key::Enter).unwrap();
    app.settle().await;
    assert!(app.screen(80, 20).contains("Results: 3"));
}

#[test]
fn scripts_read_keys() {
    assert_eq!(
        app::parse_script("ab<Enter><Backspace><Wait>").unwrap(),
        [
            Some(Key::Char('a')),
            Some(Key::Char('b')),
            Some(Key::Enter),
            Some(Key::Backspace),
            None
        ]
    );
    assert!(app::parse_script("<Nope>").is_err());
    assert!(app::parse_script("<Enter").is_err());
}
