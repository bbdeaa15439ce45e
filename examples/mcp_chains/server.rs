//! The example's MCP servers, built with rmcp: a "GitHub" server (issues, their counts, an A2UI
//! issue board, an MCP App dashboard, and `close_issue`, the one destructive tool) and a
//! "search" server (Tavily-style plain text). Every tool carries MCP annotations: the
//! destructive one says `destructiveHint: true`, the others `readOnlyHint: true`. The Python
//! server in `tests/python/` exposes the same tools with the same data, except `close_issue`
//! (the example's host refuses it anyway) and the annotations.
//!
//! Tool and resource definitions and results are written as the JSON they are on the wire (with
//! the crate's `mcp::protocol` helpers for the A2UI parts) and read into rmcp's types.

use a2ui_catalog_mcp::Limits;
use a2ui_catalog_mcp::mcp::protocol::{
    self, MCP_APP_MIME_TYPE, ResourceOptions, ToolOptions, ToolResultOptions,
};
use rmcp::ServerHandler;
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    InitializeResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ServerCapabilities, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::service::{RoleClient, RunningService};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::error::Error;
use std::sync::Arc;

/// The repository the issues belong to.
pub const REPOSITORY: &str = "a2ui/a2ui";
/// The A2UI layout of the issue board.
pub const BOARD_URI: &str = "a2ui://issue-board";
/// The MCP App of the issue dashboard.
pub const DASHBOARD_URI: &str = "ui://issue-dashboard";
const VERSION: &str = "v1.0";
const BASIC_CATALOG: &str = "https://a2ui.org/specification/v1_0/basic_catalog.json";

/// The repository's issues: number, title, state.
const ISSUES: [(u32, &str, &str); 3] = [
    (12, "Render McpApp in native hosts", "open"),
    (9, "Cache UI resources by URI", "closed"),
    (7, "Real MCP end to end", "open"),
];

/// The search engine's records: title, URL, content.
const PAGES: [(&str, &str, &str); 3] = [
    (
        "A2UI: Agent-to-User Interface",
        "https://a2ui.org/",
        "A protocol for agents to describe user interfaces as JSON.",
    ),
    (
        "Model Context Protocol",
        "https://modelcontextprotocol.io/",
        "An open protocol that connects AI applications to tools and data.",
    ),
    (
        "Call MCP Tools from A2UI",
        "https://a2ui.org/guides/mcp-tools/",
        "Surfaces call MCP tools without a round-trip to the agent.",
    ),
];

/// The dashboard app's HTML.
const DASHBOARD_HTML: &str = "<!doctype html>\n<html><head><title>Issues</title></head>\n<body><h1>Issue dashboard</h1><div id=\"chart\"></div></body></html>\n";

/// Which tools a server has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `list_issues`, `issue_stats`, `show_issue_board`, `open_dashboard`, `close_issue`.
    GitHub,
    /// `tavily-search`.
    Search,
}

/// One in-memory MCP server.
#[derive(Debug, Clone)]
pub struct DemoServer {
    role: Role,
}

impl DemoServer {
    /// A server with `role`'s tools.
    pub fn new(role: Role) -> DemoServer {
        DemoServer { role }
    }

    /// The `tools/list` entries, as JSON.
    pub fn tool_definitions(&self) -> Vec<Value> {
        let repository_schema = json!({
            "type": "object",
            "properties": {"repository": {"type": "string", "description": "owner/name"}},
            "required": ["repository"]
        });
        let with_repository = |description: &str| {
            ToolOptions::new()
                .with_description(description)
                .with_input_schema(repository_schema.clone())
        };
        let tools = match self.role {
            Role::Search => vec![protocol::tool(
                "tavily-search",
                &ToolOptions::new()
                    .with_description(
                        "Searches the web; returns Title/URL/Content records as text.",
                    )
                    .with_input_schema(json!({
                        "type": "object",
                        "properties": {"query": {"type": "string"}},
                        "required": ["query"]
                    })),
            )],
            Role::GitHub => {
                let mut dashboard = protocol::tool(
                    "open_dashboard",
                    &with_repository("Opens the issue dashboard (an MCP App)."),
                );
                dashboard["_meta"] = json!({"ui": {"resourceUri": DASHBOARD_URI}});
                vec![
                    protocol::tool(
                        "list_issues",
                        &with_repository("Lists a repository's issues as JSON text."),
                    ),
                    protocol::tool(
                        "issue_stats",
                        &with_repository("Counts a repository's issues (structured content)."),
                    ),
                    protocol::tool(
                        "show_issue_board",
                        &with_repository("Shows the open issues on an A2UI board.")
                            .with_resource_uri(BOARD_URI),
                    ),
                    dashboard,
                    protocol::tool(
                        "close_issue",
                        &ToolOptions::new()
                            .with_description("Closes an issue.")
                            .with_input_schema(json!({
                                "type": "object",
                                "properties": {"repository": {"type": "string"},
                                               "number": {"type": "integer"}},
                                "required": ["repository", "number"]
                            })),
                    ),
                ]
            }
        };
        tools.into_iter().map(annotate).collect()
    }

    fn resource_definitions(&self) -> Vec<Value> {
        if self.role != Role::GitHub {
            return Vec::new();
        }
        vec![
            protocol::resource(
                BOARD_URI,
                "Issue board",
                &ResourceOptions::new().with_description("The issue board's layout."),
            ),
            json!({"uri": DASHBOARD_URI, "name": "Issue dashboard", "mimeType": MCP_APP_MIME_TYPE}),
        ]
    }

    /// A tool call's `CallToolResult`, as JSON. `meta` is the request's `_meta`.
    pub fn call(&self, name: &str, arguments: &Value, meta: &Value) -> Result<Value, String> {
        let arg = |key: &str| arguments.get(key).and_then(Value::as_str).unwrap_or("");
        if !self.tool_definitions().iter().any(|t| t["name"] == name) {
            return Err(format!("Unknown tool: {name}"));
        }
        if name == "tavily-search" {
            return Ok(text_result(&search(arg("query"))));
        }
        let repository = arg("repository");
        if repository != REPOSITORY {
            return Ok(json!({
                "content": [{"type": "text", "text": format!("unknown repository '{repository}'")}],
                "isError": true
            }));
        }
        let open: Vec<_> = ISSUES.iter().filter(|i| i.2 == "open").collect();
        Ok(match name {
            "close_issue" => {
                let number = arguments.get("number").and_then(Value::as_u64);
                match ISSUES.iter().find(|i| Some(u64::from(i.0)) == number) {
                    Some((n, ..)) => text_result(&format!("Closed issue #{n}")),
                    None => json!({"content": [{"type": "text", "text": "no such issue"}],
                                   "isError": true}),
                }
            }
            "list_issues" => {
                let issues: Vec<Value> = ISSUES
                    .iter()
                    .map(|(number, title, state)| {
                        json!({"number": number, "title": title, "state": state})
                    })
                    .collect();
                text_result(&Value::Array(issues).to_string())
            }
            "issue_stats" => {
                let stats = json!({"repository": repository, "open": open.len(),
                                   "closed": ISSUES.len() - open.len(), "total": ISSUES.len()});
                json!({"content": [{"type": "text", "text": stats.to_string()}],
                       "structuredContent": stats})
            }
            "show_issue_board" => {
                // The renderer's catalogs come in the call's _meta (a2ui.clientCapabilities).
                let catalogs = protocol::renderer_capabilities(&json!({"_meta": meta}))
                    .and_then(|caps| caps.get(VERSION))
                    .and_then(|caps| caps.get("supportedCatalogIds"))
                    .cloned()
                    .unwrap_or_else(|| json!([]));
                let summary: Vec<String> = open
                    .iter()
                    .map(|(n, title, _)| format!("#{n} {title}"))
                    .collect();
                let data = json!({"version": VERSION, "updateDataModel": {
                    "surfaceId": "issues", "path": "/board",
                    "value": {"title": format!("{repository}: {} open issues", open.len()),
                              "summary": summary.join(" · "),
                              "rendererCatalogs": catalogs}}});
                protocol::tool_result(
                    &[data],
                    &ToolResultOptions::new()
                        .with_uri("a2ui://issue-board/data")
                        .with_text(format!("{} open issues in {repository}", open.len())),
                    &Limits::default(),
                )
                .map_err(|e| e.to_string())?
            }
            _ => text_result(&format!("Opened the issue dashboard for {repository}")),
        })
    }

    /// A `resources/read` result, as JSON.
    pub fn read(&self, uri: &str) -> Result<Value, String> {
        match (self.role, uri) {
            (Role::GitHub, BOARD_URI) => {
                protocol::resource_contents(BOARD_URI, &board_layout(), &Limits::default())
                    .map_err(|e| e.to_string())
            }
            (Role::GitHub, DASHBOARD_URI) => Ok(json!({"contents": [{
                "uri": DASHBOARD_URI,
                "mimeType": MCP_APP_MIME_TYPE,
                "text": DASHBOARD_HTML,
                "_meta": {"ui": {"csp": {"resourceDomains": ["https://cdn.example.com"]}}}
            }]})),
            _ => Err(format!("Resource not found: {uri}")),
        }
    }
}

/// The tool's MCP annotations: only `close_issue` changes anything; the search reaches the
/// open web.
fn annotate(mut tool: Value) -> Value {
    tool["annotations"] = match tool["name"].as_str() {
        Some("close_issue") => json!({"readOnlyHint": false, "destructiveHint": true}),
        Some("tavily-search") => json!({"readOnlyHint": true, "openWorldHint": true}),
        _ => json!({"readOnlyHint": true, "openWorldHint": false}),
    };
    tool
}

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

/// The search results as the Tavily MCP server writes them: a header block, then one block per
/// page, separated by blank lines.
fn search(query: &str) -> String {
    let mut blocks = vec![format!("Detailed Results for \"{query}\":")];
    for (title, url, content) in PAGES {
        blocks.push(format!("Title: {title}\nURL: {url}\nContent: {content}"));
    }
    blocks.join("\n\n")
}

/// The board: a surface with a title and a summary, bound to `/board`.
fn board_layout() -> Vec<Value> {
    vec![
        json!({"version": VERSION, "createSurface": {"surfaceId": "issues", "catalogId": BASIC_CATALOG}}),
        json!({"version": VERSION, "updateComponents": {"surfaceId": "issues", "components": [
            {"id": "root", "component": "Column", "children": ["title", "summary"]},
            {"id": "title", "component": "Text", "variant": "h2", "text": {"@path": "/board/title"}},
            {"id": "summary", "component": "Text", "text": {"@path": "/board/summary"}}
        ]}}),
    ]
}

fn typed<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

impl ServerHandler for DemoServer {
    fn get_info(&self) -> InitializeResult {
        let name = match self.role {
            Role::GitHub => "demo-github",
            Role::Search => "demo-search",
        };
        InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(name, "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self
            .tool_definitions()
            .into_iter()
            .map(typed::<Tool>)
            .collect::<Result<_, _>>()?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        // The request's _meta (rmcp hands it over in the context).
        let meta = Value::Object(context.meta.0.0);
        let result = self
            .call(&request.name, &arguments, &meta)
            .map_err(|message| ErrorData::invalid_params(message, None))?;
        Ok(typed::<CallToolResult>(result)?.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .resource_definitions()
            .into_iter()
            .map(typed::<Resource>)
            .collect::<Result<_, _>>()?;
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let result = self
            .read(&request.uri)
            .map_err(|message| ErrorData::resource_not_found(message, None))?;
        Ok(typed::<ReadResourceResult>(result)?.into())
    }
}

/// A connected rmcp client.
pub type Client = RunningService<RoleClient, ()>;

/// Serves `server` on one end of an in-memory pipe and connects an rmcp client to the other.
pub async fn connect(server: DemoServer) -> Result<Arc<Client>, Box<dyn Error>> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        // The server runs until the client closes the pipe.
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    Ok(Arc::new(().serve(client_end).await?))
}
