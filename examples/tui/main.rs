//! A small terminal A2UI renderer built on `a2ui_catalog_mcp::reactive`.
//!
//! It reads a surface (`examples/tui/surface.json`: text, a text field, a button, a list whose
//! properties are dynamic values), compiles every property once, binds it in
//! `reactive::Bindings`, and redraws only when a bound value changed. The search field is
//! two-way bound to `/query`; Enter runs the guide's text chain (`callMcpTool` → `split` →
//! `regexCapture` → `transformData` → `updateDataModel /results`) against an rmcp server running
//! in this process; the list shows `/results`, marked while the search is in flight, and typing
//! again supersedes a search in flight. The issue count is a value that needs a tool call.
//!
//! ```sh
//! cargo run --example tui --features rmcp                       # interactive (Esc quits)
//! cargo run --example tui --features rmcp -- --script 'rust<Enter>'  # headless: prints the screen
//! ```
//!
//! `--script` types the keys (characters, `<Enter>`, `<Backspace>`, `<Wait>` to wait for the
//! runs in flight), waits for every run, then prints the screen and how many evaluations each
//! step made. `--surface FILE` reads another surface.

mod app;
mod host;

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::reactive::TrackedModel;
use app::{App, Key};
use serde_json::{Value, json};
use std::error::Error;
use std::sync::Arc;

struct Options {
    surface: String,
    script: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        surface: concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tui/surface.json").into(),
        script: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--surface" => options.surface = args.next().ok_or("--surface needs a file")?,
            "--script" => options.script = Some(args.next().ok_or("--script needs keys")?),
            "--headless" => options.script = Some("rust<Enter>".into()),
            other => {
                return Err(format!(
                    "unknown argument {other} (try --script 'rust<Enter>')"
                ));
            }
        }
    }
    Ok(options)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let options = options()?;
    let surface: Value = serde_json::from_str(&std::fs::read_to_string(&options.surface)?)?;
    let model = Arc::new(SharedModel::new(TrackedModel::new(json!({}))));
    let mut app = App::new(&surface, model, Arc::new(host::demo_host().await?))?;
    match options.script {
        Some(script) => headless(&mut app, &script).await,
        None => interactive(&mut app).await,
    }
}

/// Types the script's keys, then prints the screen.
async fn headless(app: &mut App, script: &str) -> Result<(), Box<dyn Error>> {
    app.settle().await;
    let mut evaluations = app.evaluations();
    println!("initial render: {evaluations} evaluations");
    for key in app::parse_script(script)? {
        match key {
            Some(key) => app.key(key)?,
            None => app.settle().await,
        }
        let now = app.evaluations();
        let what = key.map_or("<Wait>".to_string(), |k| format!("{k:?}"));
        println!("{what:<12} {} evaluations", now - evaluations);
        evaluations = now;
    }
    app.settle().await;
    println!(
        "(runs done)  {} evaluations",
        app.evaluations() - evaluations
    );
    let query = a2ui_catalog_mcp::JsonPointer::parse("/query")?;
    println!(
        "keys reading /query: {}",
        app.keys_reading(&query).join(", ")
    );
    let results = app.model().lock().get()["results"]
        .as_array()
        .map_or(0, Vec::len);
    println!("/results holds {results} items\n");
    println!("{}", app.screen(80, 20));
    Ok(())
}

/// The interactive loop: keys from the terminal, results from the runs, a redraw when
/// something changed.
async fn interactive(app: &mut App) -> Result<(), Box<dyn Error>> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    let (keys, mut typed) = tokio::sync::mpsc::unbounded_channel();
    // Reading the terminal blocks: a thread of its own feeds the loop.
    std::thread::spawn(move || {
        while let Ok(event) = event::read() {
            if keys.send(event).is_err() {
                break;
            }
        }
    });
    let mut terminal = ratatui::init();
    let result = async {
        loop {
            if app.take_dirty() {
                terminal.draw(|frame| app.draw(frame))?;
            }
            enum Next {
                Key(Event),
                Done,
            }
            let next = tokio::select! {
                Some(event) = typed.recv() => Next::Key(event),
                true = app.next(), if app.busy() => Next::Done,
                else => break,
            };
            let Next::Key(Event::Key(key)) = next else {
                continue;
            };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                KeyCode::Esc => break,
                KeyCode::Char('c') if ctrl => break,
                KeyCode::Char(c) => app.key(Key::Char(c))?,
                KeyCode::Backspace => app.key(Key::Backspace)?,
                KeyCode::Enter => app.key(Key::Enter)?,
                _ => {}
            }
        }
        Ok::<(), Box<dyn Error>>(())
    }
    .await;
    ratatui::restore();
    result
}
