//! The tool policy over real MCP (rmcp, in-memory pipes): the server's name from its
//! `initialize` answer, annotations from `tools/list` through the ready router, and a denied
//! call that never reaches the server.
#![cfg(feature = "rmcp")]

#[allow(dead_code)]
#[path = "../examples/mcp_chains/server.rs"]
mod server;
mod support;

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{
    AuditEvent, BoxFuture, CallOutcome, ClientRouter, ConsentForDestructive, Decision,
    ToolCallRequest, ToolClient, ToolPolicy, ToolPolicyExt,
};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use server::{DemoServer, Role};
use std::sync::{Arc, Mutex};

type Client = RunningService<RoleClient, ()>;

async fn connect(server: DemoServer) -> Arc<Client> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    Arc::new(().serve(client_end).await.expect("the client connects"))
}

/// Records what the policy was shown: tool, server, annotations.
#[derive(Default)]
struct Shown(Mutex<Vec<(String, Option<String>, Value)>>);

impl ToolPolicy for Shown {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let annotations = call.annotations().cloned().unwrap_or(Value::Null);
        self.0.lock().unwrap().push((
            call.name.to_owned(),
            call.server.map(str::to_owned),
            annotations,
        ));
        Box::pin(std::future::ready(Decision::Allow))
    }
}

#[test]
fn the_policy_sees_rmcp_servers_and_annotations_and_a_denied_call_is_never_sent() {
    support::run(async {
        let github = connect(DemoServer::new(Role::GitHub)).await;
        let search = connect(DemoServer::new(Role::Search)).await;
        assert_eq!(
            ToolClient::server_name(&*github).as_deref(),
            Some("demo-github")
        );
        assert_eq!(
            ToolClient::server_name(github.peer()).as_deref(),
            Some("demo-github")
        );
        let router = ClientRouter::new()
            .with_client(github.clone() as Arc<dyn ToolClient>)
            .with_client(search.clone() as Arc<dyn ToolClient>);
        let shown = Arc::new(Shown::default());
        let events: Arc<Mutex<Vec<AuditEvent>>> = Arc::default();
        let log = events.clone();
        let (host, renderer, _) = support::host(Arc::new(router));
        let host = host
            .with_policy(shown.clone().and(ConsentForDestructive::deny()))
            .with_audit(move |e: &AuditEvent| log.lock().unwrap().push(e.clone()));
        let model = SharedModel::new(support::initial_model());

        let search_call = json!({"@call": "callMcpTool", "args": {"name": "tavily-search",
            "arguments": {"query": "a2ui"}, "targetDataPath": "/found"}});
        support::eval(&host, &model, &search_call)
            .await
            .expect("read-only: allowed");
        // close_issue says it is destructive: refused, nothing sent, written or forwarded.
        let close = json!({"@call": "callMcpTool", "args": {"name": "close_issue",
            "arguments": {"repository": "a2ui/a2ui", "number": 9}, "targetDataPath": "/closed"}});
        let err = support::eval(&host, &model, &close).await.unwrap_err();
        assert_eq!(
            err.message(),
            "MCP tool 'close_issue' is not allowed: it is destructive"
        );
        assert!(model.lock().get("closed").is_none());
        assert!(renderer.messages.lock().unwrap().is_empty());

        let shown = shown.0.lock().unwrap().clone();
        assert_eq!(
            shown,
            [
                (
                    "tavily-search".to_owned(),
                    Some("demo-search".to_owned()),
                    json!({"readOnlyHint": true, "openWorldHint": true})
                ),
                (
                    "close_issue".to_owned(),
                    Some("demo-github".to_owned()),
                    json!({"readOnlyHint": false, "destructiveHint": true})
                ),
            ]
        );
        let outcomes: Vec<(String, CallOutcome)> = events
            .lock()
            .unwrap()
            .iter()
            .map(|e| (e.tool.clone(), e.outcome.clone()))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("tavily-search".to_owned(), CallOutcome::Ok),
                ("close_issue".to_owned(), CallOutcome::Denied)
            ]
        );
        drop(host);
        for client in [github, search] {
            if let Ok(client) = Arc::try_unwrap(client) {
                client.cancel().await.expect("a clean close");
            }
        }
    });
}
