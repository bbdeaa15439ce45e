//! The rmcp adapter against rmcp servers in this process (in-memory pipes): the example's
//! chains through the ready router for two servers, the `Peer` client, `_meta`, and how rmcp's
//! errors and the servers' errors reach the engine.
#![cfg(feature = "rmcp")]

#[allow(dead_code)]
#[path = "../examples/mcp_chains/server.rs"]
mod server;
mod support;

use a2ui_catalog_mcp::ErrorCode;
use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{
    ClientRouter, MAX_TOOL_LIST_PAGES, McpHost, RmcpError, ToolClient, ToolRouter,
};
use rmcp::model::{
    ErrorData, Implementation, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, Tool,
};
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};
use server::{DemoServer, Role};
use std::sync::Arc;

type Client = RunningService<RoleClient, ()>;

/// Serves `server` on an in-memory pipe and connects a client to it.
async fn connect<S: ServerHandler>(server: S) -> Client {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.expect("the client connects")
}

#[test]
fn chains_through_the_router_for_two_servers() {
    support::run(async {
        let github = Arc::new(connect(DemoServer::new(Role::GitHub)).await);
        let search = Arc::new(connect(DemoServer::new(Role::Search)).await);
        // The search server comes first: the router must still find each tool's own server.
        let router = ClientRouter::new()
            .with_client(search.clone() as Arc<dyn ToolClient>)
            .with_client(github.clone() as Arc<dyn ToolClient>);
        let router: Arc<dyn ToolRouter> = Arc::new(router);
        assert!(router.client_for("tavily-search").await.is_some());
        assert!(router.client_for("nope").await.is_none());
        let outcome = support::run_chains(router).await;
        support::check_outcome(&outcome);
        for client in [github, search] {
            let Ok(client) = Arc::try_unwrap(client) else {
                panic!("the host is gone");
            };
            client.cancel().await.expect("a clean close");
        }
    });
}

#[test]
fn lists_tools_as_json_with_their_meta() {
    support::run(async {
        let client = connect(DemoServer::new(Role::GitHub)).await;
        let tools = ToolClient::list_tools(&client).await.expect("tools/list");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(
            names,
            [
                "list_issues",
                "issue_stats",
                "show_issue_board",
                "open_dashboard",
                "close_issue"
            ]
        );
        // MCP annotations come through rmcp's types unchanged.
        assert_eq!(tools[0]["annotations"]["readOnlyHint"], true);
        assert_eq!(tools[4]["annotations"]["destructiveHint"], true);
        assert_eq!(
            tools[2]["_meta"],
            json!({"ui": {"resourceUri": "a2ui://issue-board", "mimeType": "application/a2ui+json"}})
        );
        assert_eq!(tools[0]["inputSchema"]["required"], json!(["repository"]));
        client.cancel().await.expect("a clean close");
    });
}

#[test]
fn a_peer_is_a_tool_client_too() {
    support::run(async {
        let client = connect(DemoServer::new(Role::GitHub)).await;
        let peer: Arc<dyn ToolClient> = Arc::new(client.peer().clone());
        let (host, renderer, _) = support::host(Arc::new(peer.clone()));
        let model = SharedModel::new(support::initial_model());
        let payload = json!({"@call": "callMcpTool", "args": {"name": "show_issue_board",
            "arguments": {"repository": "a2ui/a2ui"}, "targetDataPath": "/board"}});
        support::eval(&host, &model, &payload)
            .await
            .expect("the call works");
        let messages = renderer.messages.lock().unwrap().clone();
        assert_eq!(messages[..2], support::board_layout()[..]);
        assert_eq!(messages.len(), 3);
        assert_eq!(model.lock()["board"]["text"], "2 open issues in a2ui/a2ui");

        let read = peer
            .read_resource("a2ui://issue-board")
            .await
            .expect("resources/read");
        assert_eq!(read["contents"][0]["mimeType"], "application/a2ui+json");
        drop((host, peer));
        client.cancel().await.expect("a clean close");
    });
}

#[test]
fn meta_is_sent_with_each_call_only_when_the_host_has_one() {
    support::run(async {
        let client: Arc<dyn ToolClient> = Arc::new(connect(DemoServer::new(Role::GitHub)).await);
        let args = json!({"repository": "a2ui/a2ui"});
        let catalogs = |result: &Value| -> Value {
            let text = result["content"][1]["resource"]["text"].as_str().unwrap();
            let messages: Value = serde_json::from_str(text).unwrap();
            messages[0]["updateDataModel"]["value"]["rendererCatalogs"].clone()
        };
        let with = client
            .call_tool("show_issue_board", &args, Some(&support::client_meta()))
            .await
            .unwrap();
        assert_eq!(
            catalogs(&with),
            json!([support::BASIC_CATALOG, a2ui_catalog_mcp::MCP_CATALOG_ID])
        );
        let without = client
            .call_tool("show_issue_board", &args, None)
            .await
            .unwrap();
        assert_eq!(catalogs(&without), json!([]));

        let err = client
            .call_tool("show_issue_board", &args, Some(&json!("not an object")))
            .await
            .unwrap_err();
        assert!(matches!(
            err.downcast_ref::<RmcpError>(),
            Some(RmcpError::InvalidMeta("a string"))
        ));
    });
}

#[test]
fn server_errors_become_expression_errors_with_the_rmcp_error_as_source() {
    support::run(async {
        let client: Arc<dyn ToolClient> = Arc::new(connect(DemoServer::new(Role::Search)).await);
        let host = McpHost::new(client);
        let model = SharedModel::new(json!({}));
        let payload = json!({"@call": "callMcpTool", "args": {"name": "list_issues", "targetDataPath": "/x"}});
        let err = support::eval(&host, &model, &payload).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError);
        assert_eq!(
            err.message(),
            "Failed to execute MCP tool 'list_issues': the server answered tools/call with error -32602: Unknown tool: list_issues"
        );
        let source = std::error::Error::source(&err)
            .and_then(|s| s.downcast_ref::<RmcpError>())
            .expect("the RmcpError is the source");
        assert!(matches!(
            source,
            RmcpError::Server {
                method: "tools/call",
                code: -32602,
                ..
            }
        ));
        assert_eq!(model.into_inner(), json!({}), "nothing written");
    });
}

#[test]
fn is_error_results_fail_the_call_and_write_nothing() {
    support::run(async {
        let client: Arc<dyn ToolClient> = Arc::new(connect(DemoServer::new(Role::GitHub)).await);
        let (host, renderer, _) = support::host(Arc::new(client));
        let model = SharedModel::new(json!({"repository": "nope/nope"}));
        let payload = json!({"@call": "callMcpTool", "args": {"name": "show_issue_board",
            "arguments": {"repository": {"@path": "/repository"}}, "targetDataPath": "/board"}});
        let err = support::eval(&host, &model, &payload).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError);
        assert!(
            err.message().contains("unknown repository 'nope/nope'"),
            "{}",
            err.message()
        );
        assert_eq!(model.into_inner(), json!({"repository": "nope/nope"}));
        assert!(renderer.messages.lock().unwrap().is_empty());
    });
}

#[test]
fn a_closed_connection_is_reported_as_closed() {
    support::run(async {
        let client = connect(DemoServer::new(Role::GitHub)).await;
        let peer = client.peer().clone();
        client.cancel().await.expect("a clean close");
        let err = ToolClient::call_tool(&peer, "list_issues", &json!({}), None)
            .await
            .unwrap_err();
        let err = err.downcast_ref::<RmcpError>().expect("an RmcpError");
        assert!(err.is_transport_closed(), "{err}");

        let host = McpHost::new(Arc::new(peer));
        let payload = json!({"@call": "callMcpTool", "args": {"name": "list_issues"}});
        let model = SharedModel::new(json!({}));
        let err = support::eval(&host, &model, &payload).await.unwrap_err();
        assert_eq!(
            err.message(),
            "Failed to execute MCP tool 'list_issues': tools/call failed: Transport closed"
        );
    });
}

/// A server whose tools come one per page: `pages` pages, or, when `endless`, a cursor that
/// never ends.
struct PagedServer {
    pages: usize,
    endless: bool,
}

impl ServerHandler for PagedServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("paged", "1.0.0"))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let page: usize = request
            .and_then(|r| r.cursor)
            .map_or(0, |c| c.parse().unwrap_or(0));
        let tool: Tool = serde_json::from_value(
            json!({"name": format!("tool-{page}"), "inputSchema": {"type": "object"}}),
        )
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let next = if self.endless {
            Some((page + 1).to_string())
        } else {
            (page + 1 < self.pages).then(|| (page + 1).to_string())
        };
        Ok(ListToolsResult {
            next_cursor: next,
            ..ListToolsResult::with_all_items(vec![tool])
        })
    }
}

#[test]
fn tool_lists_are_read_page_by_page_and_bounded() {
    support::run(async {
        let paged = connect(PagedServer {
            pages: 3,
            endless: false,
        })
        .await;
        let tools = ToolClient::list_tools(&paged).await.expect("three pages");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, ["tool-0", "tool-1", "tool-2"]);

        let endless = connect(PagedServer {
            pages: 0,
            endless: true,
        })
        .await;
        let err = ToolClient::list_tools(&endless).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("tools/list did not end: more than {MAX_TOOL_LIST_PAGES} pages")
        );

        // The router treats a server whose list fails as one without tools.
        let router = ClientRouter::new().with_client(Arc::new(endless) as Arc<dyn ToolClient>);
        assert!(router.client_for("tool-0").await.is_none());
    });
}

/// A server whose one tool, `echo`, answers `text` after `delayMs`, and counts the calls the
/// client cancelled.
#[derive(Clone, Default)]
struct SlowServer {
    cancelled: Arc<std::sync::atomic::AtomicUsize>,
}

impl ServerHandler for SlowServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("slow", "1.0.0"))
    }

    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let delay = arguments["delayMs"].as_u64().unwrap_or(0);
        tokio::select! {
            _ = tokio::time::sleep(std::time::Duration::from_millis(delay)) => {}
            _ = context.ct.cancelled() => {
                self.cancelled.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                return Err(ErrorData::internal_error("cancelled", None));
            }
        }
        let text = arguments["text"].as_str().unwrap_or("").to_owned();
        let result: rmcp::model::CallToolResult =
            serde_json::from_value(json!({"content": [{"type": "text", "text": text}]}))
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(result.into())
    }
}

fn echo(text: &str, delay_ms: u64) -> Value {
    json!({"@call": "callMcpTool", "args": {"name": "echo",
        "arguments": {"text": text, "delayMs": delay_ms}, "targetDataPath": "/reply"}})
}

#[test]
fn concurrent_calls_share_one_connection_and_the_latest_call_wins() {
    support::run(async {
        let client: Arc<dyn ToolClient> = Arc::new(connect(SlowServer::default()).await);
        let host = McpHost::new(client);
        let model = SharedModel::new(json!({}));
        // Keystrokes: "a2" is sent first but answers last; "a2ui" started later, so it wins.
        let (slow, fast) = (echo("a2", 300), echo("a2ui", 0));
        let (first, second) = tokio::join!(support::eval(&host, &model, &slow), async {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            support::eval(&host, &model, &fast).await
        });
        assert_eq!(first.expect("the first call works")["text"], "a2");
        assert_eq!(second.expect("the second call works")["text"], "a2ui");
        assert_eq!(model.lock()["reply"]["text"], "a2ui");
    });
}

#[test]
fn dropping_an_evaluation_cancels_its_request_on_the_server() {
    support::run(async {
        let server = SlowServer::default();
        let cancelled = server.cancelled.clone();
        let client: Arc<dyn ToolClient> = Arc::new(connect(server).await);
        let host = McpHost::new(client);
        let model = SharedModel::new(json!({}));
        let late = echo("late", 30_000);
        let slow = support::eval(&host, &model, &late);
        let timed_out = tokio::time::timeout(std::time::Duration::from_millis(100), slow).await;
        assert!(timed_out.is_err(), "the call was still pending");
        // notifications/cancelled reaches the server, which stops the call.
        for _ in 0..200 {
            if cancelled.load(std::sync::atomic::Ordering::SeqCst) == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(cancelled.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(
            model.into_inner(),
            json!({}),
            "a dropped call writes nothing"
        );
        // The connection still works.
        let model = SharedModel::new(json!({}));
        support::eval(&host, &model, &echo("again", 0))
            .await
            .expect("a new call");
        assert_eq!(model.lock()["reply"]["text"], "again");
    });
}
