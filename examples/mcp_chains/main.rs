//! The README's main example: real MCP, end to end. Two MCP servers built with rmcp run in this
//! process (in-memory transport, no network); an rmcp client connects to each. First the
//! guide's flow on a surface: a Button tapped, its chain's tool call made by the host, the
//! result drawn in a List (`surface` below). Then the guide's
//! payloads are compiled once and evaluated against a data model, their tool calls routed to the
//! server that has the tool. It prints the data model, the A2UI messages forwarded to the
//! renderer and the MCP Apps the host received.
//!
//! The host has the policy most hosts want: read-only tools (by the annotations of its own
//! servers, which it trusts) from anywhere, any other tool only from a user's action, and then
//! with the user's consent. A keystroke in the search box that would close an issue is refused
//! before anything is asked or sent; the user's tap on "Close" asks, and the user says yes once
//! and no once. The example prints each answer and the audit log of every call.
//!
//! Run with `cargo run --example mcp_chains --features rmcp`.

mod server;

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{
    AuditEvent, ClientRouter, ConsentForDestructive, McpAppResource, McpHost, MessageSink,
    ReadOnlyUnlessUserAction, ToolClient, ToolPolicyExt,
};
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits, RunOutcome};
use a2ui_catalog_mcp::{Environment, JsonPointer, MCP_CATALOG_ID, Origin};
use serde_json::{Value, json};
use server::{DemoServer, Role, connect};
use std::error::Error;
use std::sync::{Arc, Mutex, PoisonError};

/// The chains the example runs: `[{"name", "what", "payload"}]` (the first three are the guide's).
const CHAINS: &str = include_str!("../payloads/mcp-chains.json");
const BASIC_CATALOG: &str = "https://a2ui.org/specification/v1_0/basic_catalog.json";

/// The renderer's message processor, reduced to a log of what it received.
#[derive(Default)]
struct Renderer {
    messages: Mutex<Vec<Value>>,
}

impl MessageSink for Renderer {
    fn process(&self, messages: Vec<Value>) {
        self.messages
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(messages);
    }

    fn has_surface(&self, surface_id: &str) -> bool {
        self.messages
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|m| {
                m.pointer("/createSurface/surfaceId")
                    .and_then(Value::as_str)
                    == Some(surface_id)
            })
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let github = connect(DemoServer::new(Role::GitHub)).await?;
    let search = connect(DemoServer::new(Role::Search)).await?;

    // Payloads name tools, not servers: the router lists each server's tools once and routes.
    let router = ClientRouter::new()
        .with_client(github.clone() as Arc<dyn ToolClient>)
        .with_client(search.clone() as Arc<dyn ToolClient>);
    let renderer = Arc::new(Renderer::default());
    let apps: Arc<Mutex<Vec<McpAppResource>>> = Arc::default();
    let app_log = apps.clone();
    let audit: Arc<Mutex<Vec<AuditEvent>>> = Arc::default();
    let audit_log = audit.clone();
    // Destructive tools need a tap and then the user's consent. A real host shows a dialog with
    // the tool and its arguments and awaits the answer; this one prints the question and answers
    // with the `confirm` argument the example's surface sends.
    let consent = ConsentForDestructive::new(|call| {
        let server = call.server.unwrap_or("?");
        let yes = call.arguments["confirm"] == true;
        println!(
            "  consent? {} {} on {server} ({}): the user says {}",
            call.name,
            call.arguments,
            call.origin,
            if yes { "yes" } else { "no" }
        );
        Box::pin(std::future::ready(yes))
    });
    // Both demo servers are the host's own: their annotations are trusted.
    let policy = ReadOnlyUnlessUserAction::trusting_every_server().and(consent);
    let host = McpHost::with_router(Arc::new(router))
        .with_policy(policy)
        .with_audit(move |event: &AuditEvent| {
            audit_log
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(event.clone());
        })
        .with_sink(renderer.clone())
        .with_app_callback(move |app| {
            app_log
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(app.clone());
        })
        // Sent as `_meta` with every tools/call: the catalogs this renderer supports.
        .with_meta(json!({"a2ui": {"clientCapabilities": {
            "v1.0": {"supportedCatalogIds": [BASIC_CATALOG, MCP_CATALOG_ID]}}}}));

    let env = Environment::new();
    let model = SharedModel::new(json!({"repository": server::REPOSITORY, "query": "a2ui mcp"}));
    let chains: Vec<Value> = serde_json::from_str(CHAINS)?;
    println!("chains:");
    for chain in &chains {
        let payload = env.compile(&chain["payload"])?;
        payload
            .eval_async(&model, &JsonPointer::root(), &host)
            .await?;
        println!(
            "  ok  {:<10} {}",
            text(&chain["name"]),
            text(&chain["what"])
        );
    }

    surface(&host).await?;

    // A surface that closes an issue. Typed into (a binding re-evaluated on a keystroke) it is
    // refused before anything is asked or sent; tapped (a user action) it asks the user.
    println!("\na destructive call:");
    let close = env.compile(
        &json!({"@call": "callMcpTool", "args": {"name": "close_issue",
        "arguments": {"repository": {"@path": "/repository"}, "number": 9,
                      "confirm": {"@path": "/confirm"}},
        "targetDataPath": "/closed"}}),
    )?;
    let root = JsonPointer::root();
    for (what, origin, confirm) in [
        ("keystroke", Origin::Binding, true),
        ("tap, declined", Origin::Action, false),
        ("tap, confirmed", Origin::Action, true),
    ] {
        model.lock()["confirm"] = json!(confirm);
        match close.eval_async_from(&model, &root, &host, origin).await {
            Ok(_) => println!("  {what}: close_issue ran"),
            Err(e) => println!("  {what}: refused ({:?}): {e}", e.denial()),
        }
    }

    println!("\ndata model (long strings shortened):");
    if let Value::Object(members) = &*model.lock() {
        for (key, value) in members {
            outline(&format!("/{key}"), value, 1);
        }
    }

    println!("\nA2UI messages forwarded to the renderer:");
    let messages = renderer
        .messages
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for (i, message) in messages.iter().enumerate() {
        outline(&format!("#{}", i + 1), message, 1);
    }

    println!("\nMCP Apps received:");
    for app in apps.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        let csp = app.csp.as_ref().map_or("none".into(), Value::to_string);
        println!(
            "  {} from {} ({} bytes of HTML, csp {csp})",
            app.uri,
            app.tool_name,
            app.html.len()
        );
        for line in app.html.lines() {
            println!("    | {line}");
        }
    }

    println!("\naudit log:");
    for event in audit.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        println!("  {}", shorten_line(&event.to_string()));
    }

    // Close the connections: the host holds the clients through the router.
    drop(host);
    for client in [github, search] {
        if let Ok(client) = Arc::try_unwrap(client) {
            client.cancel().await?;
        }
    }
    Ok(())
}

/// The guide's flow on a surface: the processor reads a stream (a Button whose action is the
/// guide's json chain, a List of `/issues`), the user taps the Button, the chain stops at its
/// tool call and the host makes it, the result resumes into the surface's own model, and the
/// List draws a row per open issue.
async fn surface(host: &McpHost) -> Result<(), Box<dyn Error>> {
    let mut processor = Processor::new(
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_live(ResolveLimits::default()),
    );
    let call = |function: &str, args: Value| json!({"@call": function, "catalogId": MCP_CATALOG_ID, "args": args});
    let chain = call(
        "updateDataModel",
        json!({"updates": call("transformData", json!({
        "jmespath": "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}",
        "data": call("callMcpTool", json!({"name": "list_issues",
            "arguments": {"repository": {"@path": "/repository"}}}))}))}),
    );
    processor
        .process(&json!({"version": "1.0", "createSurface": {"surfaceId": "issues", "catalogId": BASIC_CATALOG,
            "dataModel": {"repository": server::REPOSITORY},
            "components": [
                {"id": "root", "component": "Column", "children": ["load", "list"]},
                {"id": "load", "component": "Button", "child": "label", "action": {"functionCall": chain}},
                {"id": "label", "component": "Text", "text": "Load open issues"},
                {"id": "list", "component": "List", "children": {"componentId": "issue", "path": "/issues"}},
                {"id": "issue", "component": "Text", "text": {"@path": "title"}}
            ]}}))
        .map_err(|e| e.to_string())?;
    processor.take_changes();
    println!(
        "
a surface: tap \"Load open issues\""
    );
    let tap = processor.activate(
        "issues",
        "load",
        &JsonPointer::root(),
        "2026-12-07T10:00:00Z",
    )?;
    // The processor stays free while the host makes the calls (here, one after the other).
    if tap.run.is_some() {
        for run in processor.take_tool_runs() {
            println!(
                "  the tap calls {} {} ({})",
                run.tool(),
                run.arguments(),
                run.origin()
            );
            let done = run.execute(host).await;
            match processor.finish_tool_run(done) {
                RunOutcome::Failed { error, .. } => println!("  failed: {error}"),
                _ => println!("  its result resumed the chain in the surface's model"),
            }
        }
    }
    let changes = processor.take_changes();
    println!(
        "  changes: {} instances created",
        changes
            .surfaces
            .get("issues")
            .map_or(0, |c| c.created.len())
    );
    let live = processor
        .surface("issues")
        .and_then(|s| s.live())
        .ok_or("no live tree")?;
    let root = live
        .node(live.root().ok_or("no root")?)
        .ok_or("no root node")?;
    let list = live.node(root.children()[1]).ok_or("no list")?;
    println!("  the List draws:");
    for row in list.children() {
        if let Some(text) = live.node(row).and_then(|n| n.prop("text")) {
            println!("    - {}", text.as_str().unwrap_or_default());
        }
    }
    Ok(())
}

/// A line cut to the terminal's width.
fn shorten_line(line: &str) -> String {
    const MAX_CHARS: usize = 150;
    if line.chars().count() <= MAX_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(MAX_CHARS).collect();
    format!("{cut}…")
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Prints `v` under `label`: on one line when it fits, else one line per member. Tool output is
/// the server's, so the walk stops at a fixed depth.
fn outline(label: &str, v: &Value, depth: usize) {
    const WIDTH: usize = 100;
    let indent = "  ".repeat(depth);
    let line = shorten(v, 0).to_string();
    let members: Vec<(String, &Value)> = match v {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        _ => Vec::new(),
    };
    if indent.len() + label.len() + line.len() + 2 <= WIDTH || members.is_empty() || depth > 8 {
        println!("{indent}{label}: {line}");
        return;
    }
    println!("{indent}{label}:");
    for (key, member) in members {
        outline(&key, member, depth + 1);
    }
}

/// A copy of `v` with long strings cut.
fn shorten(v: &Value, depth: usize) -> Value {
    const MAX_CHARS: usize = 64;
    if depth > 32 {
        return Value::String("…".into());
    }
    match v {
        Value::String(s) if s.chars().count() > MAX_CHARS => {
            let cut: String = s.chars().take(MAX_CHARS).collect();
            Value::String(format!("{cut}…"))
        }
        Value::Array(items) => items.iter().map(|i| shorten(i, depth + 1)).collect(),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, i)| (k.clone(), shorten(i, depth + 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}
