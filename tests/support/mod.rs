//! What the rmcp tests share: the example's chains, run through any router against the demo
//! servers (the Rust ones of the example, or the Python one), and what they must produce.

// Each test binary uses a part of this module.
#![allow(dead_code)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod npm_server;
pub mod python_env;

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{McpAppResource, McpHost, MessageSink, ToolRouter};
use a2ui_catalog_mcp::{Environment, Error, JsonPointer, MCP_CATALOG_ID};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The example's chains: `[{"name", "what", "payload"}]`.
pub const CHAINS: &str = include_str!("../../examples/payloads/mcp-chains.json");
pub const BASIC_CATALOG: &str = "https://a2ui.org/specification/v1_0/basic_catalog.json";
/// How long one test may talk to its servers.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The renderer's message processor: records what it receives.
#[derive(Default)]
pub struct Renderer {
    pub messages: Mutex<Vec<Value>>,
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

/// What a run of the chains left behind.
pub struct Outcome {
    pub model: Value,
    pub messages: Vec<Value>,
    pub apps: Vec<McpAppResource>,
}

/// The `_meta` the host sends with every call: the renderer's catalogs.
pub fn client_meta() -> Value {
    json!({"a2ui": {"clientCapabilities": {
        "v1.0": {"supportedCatalogIds": [BASIC_CATALOG, MCP_CATALOG_ID]}}}})
}

/// The model the chains start from.
pub fn initial_model() -> Value {
    json!({"repository": "a2ui/a2ui", "query": "a2ui mcp"})
}

/// A host on `router` that records messages and apps.
pub fn host(
    router: Arc<dyn ToolRouter>,
) -> (McpHost, Arc<Renderer>, Arc<Mutex<Vec<McpAppResource>>>) {
    let renderer = Arc::new(Renderer::default());
    let apps: Arc<Mutex<Vec<McpAppResource>>> = Arc::default();
    let log = apps.clone();
    let host = McpHost::with_router(router)
        .with_sink(renderer.clone())
        .with_app_callback(move |app| {
            log.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(app.clone())
        })
        .with_meta(client_meta());
    (host, renderer, apps)
}

/// Compiles and evaluates one payload against `model`.
pub async fn eval(
    host: &McpHost,
    model: &SharedModel<Value>,
    payload: &Value,
) -> Result<Value, Error> {
    let compiled = Environment::new().compile(payload)?;
    compiled.eval_async(model, &JsonPointer::root(), host).await
}

/// Runs every chain of the example, in order, through `router`.
pub async fn run_chains(router: Arc<dyn ToolRouter>) -> Outcome {
    let (host, renderer, apps) = host(router);
    let model = SharedModel::new(initial_model());
    let chains: Vec<Value> = serde_json::from_str(CHAINS).expect("the chains are JSON");
    for chain in &chains {
        if let Err(e) = eval(&host, &model, &chain["payload"]).await {
            panic!("chain '{}' failed: {e:#}", chain["name"]);
        }
    }
    drop(host);
    let messages = renderer
        .messages
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let apps = apps.lock().unwrap_or_else(PoisonError::into_inner).clone();
    Outcome {
        model: model.into_inner(),
        messages,
        apps,
    }
}

/// The layout of the issue board, as both servers send it.
pub fn board_layout() -> Vec<Value> {
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "issues", "catalogId": BASIC_CATALOG}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "issues", "components": [
            {"id": "root", "component": "Column", "children": ["title", "summary"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": {"@path": "/board/title"}},
            {"id": "summary", "component": "Text", "text": {"@path": "/board/summary"}}
        ]}}),
    ]
}

/// Checks what the chains must produce, whichever server answered.
pub fn check_outcome(outcome: &Outcome) {
    let model = &outcome.model;
    let issues = json!([
        {"number": 12, "title": "Render McpApp in native hosts", "state": "open"},
        {"number": 9, "title": "Cache UI resources by URI", "state": "closed"},
        {"number": 7, "title": "Real MCP end to end", "state": "open"}
    ]);

    // targetDataPath: the response object.
    let response = &model["issueResponse"];
    assert_eq!(response["toolName"], "list_issues");
    assert_eq!(response["toolInput"], json!({"repository": "a2ui/a2ui"}));
    assert_eq!(response["json"], issues);
    let text: Value =
        serde_json::from_str(response["text"].as_str().expect("text")).expect("JSON text");
    assert_eq!(text, issues);
    assert_eq!(
        response["toolResult"]["content"][0]["text"], response["text"],
        "toolResult is the raw CallToolResult"
    );

    // The guide's two chains.
    assert_eq!(
        model["issues"],
        json!([{"number": "12", "title": "Render McpApp in native hosts"},
               {"number": "7", "title": "Real MCP end to end"}])
    );
    assert_eq!(
        model["results"],
        json!([
            {"title": "A2UI: Agent-to-User Interface", "url": "https://a2ui.org/"},
            {"title": "Model Context Protocol", "url": "https://modelcontextprotocol.io/"},
            {"title": "Call MCP Tools from A2UI", "url": "https://a2ui.org/guides/mcp-tools/"}
        ])
    );

    // structuredContent, the A2UI surface, the MCP App.
    assert_eq!(model["stats"], json!({"open": 2, "closed": 1, "total": 3}));
    assert_eq!(model["boardStatus"], "2 open issues in a2ui/a2ui");
    assert_eq!(
        model["dashboard"],
        json!({"resourceUri": "ui://issue-dashboard",
               "csp": {"resourceDomains": ["https://cdn.example.com"]},
               "status": "Opened the issue dashboard for a2ui/a2ui"})
    );

    // The layout from the tool's resource first, then the data embedded in the result, which
    // carries the catalogs the host sent in _meta.
    let mut expected = board_layout();
    expected.push(json!({"version": "v1.0", "updateDataModel": {
        "surfaceId": "issues", "path": "/board",
        "value": {"title": "a2ui/a2ui: 2 open issues",
                  "summary": "#12 Render McpApp in native hosts · #7 Real MCP end to end",
                  "rendererCatalogs": [BASIC_CATALOG, MCP_CATALOG_ID]}}}));
    assert_eq!(outcome.messages, expected);

    assert_eq!(outcome.apps.len(), 1, "one MCP App");
    let app = &outcome.apps[0];
    assert_eq!(app.tool_name, "open_dashboard");
    assert_eq!(app.uri, "ui://issue-dashboard");
    assert!(app.html.starts_with("<!doctype html>") && app.html.contains("Issue dashboard"));
    assert_eq!(
        app.csp,
        Some(json!({"resourceDomains": ["https://cdn.example.com"]}))
    );
    assert_eq!(app.permissions, None);
}

/// Runs `test` on a current-thread runtime, bounded by [`TIMEOUT`].
pub fn run<F: std::future::Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        tokio::time::timeout(TIMEOUT, test)
            .await
            .expect("the test finished in time")
    });
}
