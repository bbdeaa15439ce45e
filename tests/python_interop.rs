//! Interop with the official Python MCP SDK: `tests/python/a2ui_demo_server.py` (an `MCPServer`,
//! mcp 2's FastMCP) runs as a child process; rmcp connects over stdio; the example's chains run
//! through the adapter and must produce what they produce against the Rust servers.
//!
//! The interpreter is `$A2UI_PYTHON`, else a virtual environment in `<target dir>/py-venv` that
//! the tests make on first use from `python3` and `tests/python/requirements.txt`
//! (`support::python_env`). When that cannot be done the tests fail and say why, unless
//! `A2UI_SKIP_PYTHON_INTEROP=1` asks to skip them.
#![cfg(feature = "rmcp")]

mod support;

use a2ui_catalog_mcp::ErrorCode;
use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{ClientRouter, McpHost, RmcpError, ToolClient, ToolRouter};
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::json;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

type Client = RunningService<RoleClient, ()>;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Spawns the Python server and connects an rmcp client to it over stdio.
async fn connect(python: &Path) -> Client {
    let mut command = tokio::process::Command::new(python);
    command
        .arg(manifest_dir().join("tests/python/a2ui_demo_server.py"))
        // Only warnings and errors from the server's logging, on the test's stderr.
        .env("PYTHONUNBUFFERED", "1")
        .kill_on_drop(true);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the Python server starts");
    ().serve(transport)
        .await
        .expect("rmcp initializes a session with the Python server")
}

/// Closes the session: the server sees its stdin end and exits (rmcp kills it otherwise).
async fn close(client: Arc<Client>) {
    let Ok(client) = Arc::try_unwrap(client) else {
        panic!("nothing holds the client any more");
    };
    client.cancel().await.expect("a clean close");
}

#[test]
fn the_chains_run_against_the_python_server() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    support::run(async {
        let client = Arc::new(connect(&python).await);
        let info = client.peer_info().expect("the server introduced itself");
        let name = info.server_info.as_ref().map(|i| i.name.as_str());
        assert_eq!(name, Some("demo-python"));
        let router: Arc<dyn ToolRouter> =
            Arc::new(ClientRouter::new().with_client(client.clone() as Arc<dyn ToolClient>));
        let outcome = support::run_chains(router).await;
        support::check_outcome(&outcome);

        // The Python SDK's own shapes came through: a model return type is structuredContent.
        let args = json!({"repository": "a2ui/a2ui"});
        let stats = ToolClient::call_tool(&*client, "issue_stats", &args, None)
            .await
            .expect("tools/call");
        assert_eq!(
            stats["structuredContent"],
            json!({"repository": "a2ui/a2ui", "open": 2, "closed": 1, "total": 3})
        );
        close(client).await;
    });
}

#[test]
fn python_tool_errors_and_unknown_tools_fail_the_call() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    support::run(async {
        let client = Arc::new(connect(&python).await);
        let host = McpHost::new(client.clone() as Arc<dyn ToolClient>);
        let model = SharedModel::new(json!({"repository": "nope/nope"}));

        // A ToolError is a result with isError: the call fails and writes nothing.
        let payload = json!({"@call": "callMcpTool", "args": {"name": "list_issues",
            "arguments": {"repository": {"@path": "/repository"}}, "targetDataPath": "/issues"}});
        let err = support::eval(&host, &model, &payload).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError);
        assert!(
            err.message()
                .starts_with("MCP tool 'list_issues' returned an error: ")
                && err.message().contains("unknown repository 'nope/nope'"),
            "{}",
            err.message()
        );

        // A tool the server does not have: the SDK's answer reaches the payload's author.
        let payload = json!({"@call": "callMcpTool", "args": {"name": "no_such_tool"}});
        let err = support::eval(&host, &model, &payload).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError);
        assert!(err.message().contains("no_such_tool"), "{}", err.message());
        assert_eq!(model.into_inner(), json!({"repository": "nope/nope"}));

        // A resource the server does not have: a JSON-RPC error, mapped.
        let err = ToolClient::read_resource(&*client, "a2ui://missing")
            .await
            .unwrap_err();
        let err = err.downcast_ref::<RmcpError>().expect("an RmcpError");
        assert!(
            matches!(
                err,
                RmcpError::Server {
                    method: "resources/read",
                    ..
                }
            ),
            "{err}"
        );
        drop(host);
        close(client).await;
    });
}
