//! A small terminal A2UI renderer.
//!
//! Given a stream (`cargo run --example tui --features rmcp,basic-catalog -- STREAM.json`), it
//! draws what the stream builds: any official example of `tests/a2ui-v1/gallery/`, through the
//! crate's `surfaces::Processor` with the basic catalog registered (`stream.rs`), every surface
//! drawn as text (`draw.rs`). Tab moves between inputs, typing writes a text field's bound path,
//! Enter or Space presses a button (its `action` message is printed) or toggles a check box or a
//! picker's option, Left and Right move sliders, pickers and tabs, Esc closes a modal and quits.
//!
//! ```sh
//! cargo run --example tui --features rmcp,basic-catalog -- tests/a2ui-v1/gallery/09_login-form.json
//! cargo run --example tui --features rmcp,basic-catalog -- tests/a2ui-v1/gallery/09_login-form.json \
//!     --script '<Tab>ada@example.com<Tab>secret123<Tab><Enter>' --width 60   # headless
//! ```
//!
//! `--locale` and `--time-zone` set the basic catalog's (default `en-US`, `UTC`).
//!
//! Values and taps that call MCP tools run through the processor's tool runs, made by a host
//! on a thread of its own (`tools.rs`): the demo servers of `examples/mcp_chains` in this
//! process, or the servers given with `--mcp 'COMMAND ARGS…'` and `--mcp-url URL` (feature
//! `connect`; read-only tools only, no one answers a consent dialog); `--call TOOL[=JSON]`
//! calls a tool first and draws the surface its result carries. Without a stream, it draws
//! `examples/tui/search.json`: a field bound to `/query`, a Search button running the guide's
//! text chain, the results in a List, the issue count from a tool call.
//!
//! ```sh
//! cargo run --example tui --features rmcp,basic-catalog -- --script '<Tab>rust<Tab><Enter>'
//! cargo run --example tui --features connect,basic-catalog -- STREAM.json --mcp 'npx -y @modelcontextprotocol/server-filesystem .'
//! ```
//!
//! With `--reactive`, it runs the reactive demo below instead, built on the layer under the
//! processor, `a2ui_catalog_mcp::reactive`.
//! It reads a surface (`examples/tui/surface.json`: text, a text field, a button, a list whose
//! properties are dynamic values), compiles every property once, binds it in
//! `reactive::Bindings`, and redraws only when a bound value changed. The search field is
//! two-way bound to `/query`; Enter runs the guide's text chain (`callMcpTool` → `split` →
//! `regexCapture` → `transformData` → `updateDataModel /results`) against an rmcp server running
//! in this process; the list shows `/results`, marked while the search is in flight, and typing
//! again supersedes a search in flight. The issue count is a value that needs a tool call.
//!
//! ```sh
//! cargo run --example tui --features rmcp,basic-catalog -- --reactive                       # interactive (Esc quits)
//! cargo run --example tui --features rmcp,basic-catalog -- --reactive --script 'rust<Enter>'  # headless: prints the screen
//! ```
//!
//! `--script` types the keys (characters, `<Enter>`, `<Backspace>`, `<Wait>` to wait for the
//! runs in flight), waits for every run, then prints the screen and how many evaluations each
//! step made. `--surface FILE` reads another surface.

mod app;
mod draw;
mod host;
// Its accessors serve the tests (tests/tui_gallery.rs).
#[allow(dead_code)]
mod stream;
mod tools;

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::reactive::TrackedModel;
use app::{App, Key};
use serde_json::{Value, json};
use std::error::Error;
use std::sync::Arc;

struct Options {
    surface: String,
    script: Option<String>,
    /// The reactive demo (`reactive::Bindings`) instead of a stream.
    reactive: bool,
    /// MCP servers to start (`--mcp 'COMMAND ARGS…'`, feature `connect`).
    mcp: Vec<String>,
    /// MCP servers over streamable HTTP (`--mcp-url URL`, feature `connect`).
    mcp_urls: Vec<String>,
    /// Tool calls to make first (`--call TOOL[=JSON]`), as a user's action.
    calls: Vec<(String, Value)>,
    /// A message stream to draw (the first argument that is not an option).
    stream: Option<String>,
    width: usize,
    locale: String,
    time_zone: String,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        surface: concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tui/surface.json").into(),
        script: None,
        reactive: false,
        mcp: Vec::new(),
        mcp_urls: Vec::new(),
        calls: Vec::new(),
        stream: None,
        width: 80,
        locale: "en-US".into(),
        time_zone: "UTC".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--surface" => {
                options.surface = args.next().ok_or("--surface needs a file")?;
                options.reactive = true;
            }
            "--reactive" => options.reactive = true,
            "--mcp" => options
                .mcp
                .push(args.next().ok_or("--mcp needs a command line")?),
            "--mcp-url" => options
                .mcp_urls
                .push(args.next().ok_or("--mcp-url needs a URL")?),
            "--call" => {
                let call = args.next().ok_or("--call needs TOOL[=JSON]")?;
                let (tool, arguments) = match call.split_once('=') {
                    Some((tool, json)) => (
                        tool.to_owned(),
                        serde_json::from_str(json).map_err(|e| format!("--call {call}: {e}"))?,
                    ),
                    None => (call.clone(), json!({})),
                };
                options.calls.push((tool, arguments));
            }
            "--script" => options.script = Some(args.next().ok_or("--script needs keys")?),
            "--headless" => {
                options.script = Some("rust<Enter>".into());
                options.reactive = true;
            }
            "--width" => {
                options.width = args
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|w| *w >= 20)
                    .ok_or("--width needs a number of columns, at least 20")?
            }
            "--locale" => options.locale = args.next().ok_or("--locale needs a BCP 47 tag")?,
            "--time-zone" => {
                options.time_zone = args.next().ok_or("--time-zone needs an IANA name")?
            }
            other if !other.starts_with("--") && options.stream.is_none() => {
                options.stream = Some(other.to_owned())
            }
            other => {
                return Err(format!(
                    "unknown argument {other} (try STREAM.json, or --script 'rust<Enter>')"
                ));
            }
        }
    }
    Ok(options)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let options = options()?;
    if !options.reactive {
        let path = options.stream.clone().unwrap_or_else(|| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tui/search.json").into()
        });
        return run_stream(&path, &options);
    }
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

/// Draws a message stream: headless with `--script` (the keys, then the screen), else in the
/// terminal.
fn run_stream(path: &str, options: &Options) -> Result<(), Box<dyn Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let stream = stream_value(&text).map_err(|e| format!("{path}: {e}"))?;
    let worker = tools::ToolWorker::start(make_host(options)?)?;
    let mut app = stream::StreamApp::new(&stream, &options.locale, &options.time_zone)?
        .with_clock(|| jiff::Timestamp::now().to_string())
        .with_tools(worker);
    app.set_width(options.width);
    for (tool, arguments) in &options.calls {
        app.call(tool, arguments.clone());
    }
    match &options.script {
        Some(script) => {
            // Headless: every tool call a key started answers before the next key.
            app.settle();
            for key in stream::parse_script(script)? {
                app.key(key);
                app.settle();
            }
            print!("{}", app.screen(options.width));
            Ok(())
        }
        None => interactive_stream(&mut app),
    }
}

/// The host the stream's tool calls go to: the servers given (`--mcp`, `--mcp-url`, with the
/// `connect` feature), or the demo servers of `examples/mcp_chains` in this process.
fn make_host(options: &Options) -> Result<tools::MakeHost, String> {
    if options.mcp.is_empty() && options.mcp_urls.is_empty() {
        return Ok(Box::new(|sink| {
            Box::pin(async move {
                host::demo_host()
                    .await
                    .map(|host| host.with_sink(sink).into())
                    .map_err(|e| e.to_string())
            })
        }));
    }
    #[cfg(feature = "connect")]
    {
        use a2ui_catalog_mcp::connect::{ConnectOptions, Connections, ServerSpec, Unattended};
        let specs: Vec<ServerSpec> = options
            .mcp
            .iter()
            .map(ServerSpec::command)
            .chain(options.mcp_urls.iter().map(ServerSpec::url))
            .collect();
        Ok(Box::new(move |sink| {
            Box::pin(async move {
                let connect = ConnectOptions::new();
                let connections = Connections::connect(&specs, &connect)
                    .await
                    .map_err(|e| e.to_string())?;
                let meta = connections.call_meta(&connect);
                // No one answers a consent dialog here: read-only tools only.
                let host =
                    a2ui_catalog_mcp::mcp::McpHost::with_router(Arc::new(connections.clone()))
                        .with_sink(sink)
                        .with_meta(meta)
                        .with_policy(Unattended::allowing(Vec::<String>::new()));
                // A surface's actions go back to the server it came from (A2UI over MCP).
                let action_server = move |name: &str| {
                    let server = connections.server_named(name)?;
                    server
                        .tools()
                        .iter()
                        .any(|t| t["name"] == "a2ui_action")
                        .then(|| server.clone() as Arc<dyn a2ui_catalog_mcp::mcp::ToolClient>)
                };
                Ok(tools::Hosted {
                    host,
                    action_server: Box::new(action_server),
                })
            })
        }))
    }
    #[cfg(not(feature = "connect"))]
    Err("--mcp and --mcp-url need the connect feature (cargo run --example tui --features connect,basic-catalog)".into())
}

/// A stream file: one JSON value (an array, `{"messages"}`, the gallery's form), or JSON lines.
fn stream_value(text: &str) -> Result<Value, String> {
    let depth = a2ui_catalog_mcp::Limits::default().max_depth + 8;
    match a2ui_catalog_mcp::json::from_str_limited(text, depth) {
        Ok(value) => Ok(value),
        Err(whole) => text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| a2ui_catalog_mcp::json::from_str_limited(l, depth))
            .collect::<Result<Vec<Value>, _>>()
            .map(Value::Array)
            .map_err(|_| whole.message().to_owned()),
    }
}

/// The terminal loop of a stream: draw, read a key, act.
fn interactive_stream(app: &mut stream::StreamApp) -> Result<(), Box<dyn Error>> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    use stream::Key;
    let mut terminal = ratatui::init();
    let mut scroll = 0usize;
    let result = (|| {
        loop {
            terminal.draw(|frame| {
                let area = frame.area();
                app.set_width(usize::from(area.width));
                scroll = draw_stream(frame, app, scroll);
            })?;
            // Tool answers redraw as they come; a key is read once one is there.
            let mut answered = false;
            while !event::poll(std::time::Duration::from_millis(50))? {
                if app.poll_tools(None) {
                    answered = true;
                    break;
                }
            }
            if answered {
                continue;
            }
            let Event::Key(key) = event::read()? else {
                continue;
            };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            let open = app.modal_open();
            let key = match key.code {
                KeyCode::Char('c') if ctrl => break,
                KeyCode::Esc if !open => break,
                KeyCode::Esc => Key::Esc,
                KeyCode::Char(c) => Key::Char(c),
                KeyCode::Backspace => Key::Backspace,
                KeyCode::Enter => Key::Enter,
                KeyCode::Tab => Key::Tab,
                KeyCode::BackTab => Key::BackTab,
                KeyCode::Left => Key::Left,
                KeyCode::Right => Key::Right,
                KeyCode::Up => Key::Up,
                KeyCode::Down => Key::Down,
                _ => continue,
            };
            app.key(key);
        }
        Ok::<(), Box<dyn Error>>(())
    })();
    ratatui::restore();
    result
}

/// Draws the frame, the focused input reversed, scrolled so that it shows; returns the scroll.
fn draw_stream(frame: &mut ratatui::Frame, app: &stream::StreamApp, scroll: usize) -> usize {
    use ratatui::style::{Modifier, Style};
    use ratatui::text::{Line, Span};
    use ratatui::widgets::Paragraph;
    let area = frame.area();
    let drawn = app.frame(usize::from(area.width));
    let focused: Vec<(usize, usize, usize)> = app
        .focus()
        .and_then(|(s, k)| drawn.inputs.iter().find(|f| &f.surface == s && &f.key == k))
        .map(|f| f.regions.clone())
        .unwrap_or_default();
    let height = usize::from(area.height).max(1);
    let mut scroll = scroll;
    if let Some(&(line, _, _)) = focused.first() {
        if line < scroll {
            scroll = line;
        } else if line >= scroll + height {
            scroll = line + 1 - height;
        }
    }
    let lines: Vec<Line> = drawn
        .lines
        .iter()
        .enumerate()
        .skip(scroll)
        .take(height)
        .map(|(i, text)| match focused.iter().find(|(l, _, _)| *l == i) {
            None => Line::raw(text.clone()),
            Some(&(_, col, width)) => {
                let (before, rest) = split_at_cells(text, col);
                let (inside, after) = split_at_cells(&rest, width);
                Line::from(vec![
                    Span::raw(before),
                    Span::styled(inside, Style::new().add_modifier(Modifier::REVERSED)),
                    Span::raw(after),
                ])
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
    scroll
}

/// `text` cut after `cells` terminal cells.
fn split_at_cells(text: &str, cells: usize) -> (String, String) {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = draw::cells(c.encode_utf8(&mut [0; 4]));
        if used + w > cells {
            return (text[..i].to_owned(), text[i..].to_owned());
        }
        used += w;
    }
    (text.to_owned(), String::new())
}
