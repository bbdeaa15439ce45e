//! callMcpTool with a host: concurrency (latest call wins), cancellation, isError, routing,
//! `_meta`, MCP App callbacks.

use a2ui_catalog_mcp::SharedModel;
use a2ui_catalog_mcp::mcp::{
    BoxFuture, ClientRouter, HostError, McpAppResource, McpHost, ToolClient,
};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, ErrorCode, JsonPointer, Payload};
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

fn compile(payload: Value) -> Payload {
    Environment::new().compile(&payload).unwrap()
}

type Eval<'a> = Pin<Box<dyn Future<Output = a2ui_catalog_mcp::Result<Value>> + Send + 'a>>;

fn poll(f: &mut Eval<'_>) -> Poll<a2ui_catalog_mcp::Result<Value>> {
    f.as_mut().poll(&mut Context::from_waker(Waker::noop()))
}

/// A fixed-seed shuffle (xorshift), so that a failure reproduces.
fn shuffled(n: usize, mut seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        order.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    order
}

fn numbered_results(n: usize) -> Value {
    let results: Vec<Value> = (0..n)
        .map(|i| json!({"content": [{"type": "text", "text": format!("{{\"n\": {i}}}")}]}))
        .collect();
    json!({"results": {"search": results}})
}

#[test]
fn latest_started_call_wins_whatever_the_completion_order() {
    const N: usize = 1000;
    let server = ScriptedServer::from_json(&numbered_results(N)).unwrap();
    server.hold_calls();
    let host = server.host();
    let model = SharedModel::new(json!({"other": "kept"}));
    let payload = compile(
        json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}),
    );
    let root = JsonPointer::root();
    let mut evals: Vec<Eval<'_>> = (0..N)
        .map(|_| Box::pin(payload.eval_async(&model, &root, &host)) as Eval<'_>)
        .collect();
    for eval in &mut evals {
        assert!(poll(eval).is_pending(), "every call waits for its release");
    }
    assert_eq!(server.held_calls(), N);
    for i in shuffled(N, 0x2545_f491_4f6c_dd1d) {
        server.release(i);
        let Poll::Ready(value) = poll(&mut evals[i]) else {
            panic!("call {i} completes once released")
        };
        assert_eq!(
            value.unwrap()["json"]["n"],
            i,
            "each call returns its own result"
        );
    }
    drop(evals);
    let model = model.into_inner();
    assert_eq!(
        model["results"]["json"]["n"],
        N - 1,
        "the latest-started call's result stays"
    );
    assert_eq!(model["other"], "kept");
}

#[test]
fn calls_to_different_paths_all_write() {
    const N: usize = 200;
    let server = ScriptedServer::from_json(&numbered_results(N)).unwrap();
    server.hold_calls();
    let host = server.host();
    let model = SharedModel::new(json!({}));
    let payloads: Vec<Payload> =
        (0..N).map(|i| compile(json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": format!("/slots/{i}")}}))).collect();
    let root = JsonPointer::root();
    let mut evals: Vec<Eval<'_>> = payloads
        .iter()
        .map(|p| Box::pin(p.eval_async(&model, &root, &host)) as Eval<'_>)
        .collect();
    evals.iter_mut().for_each(|e| assert!(poll(e).is_pending()));
    for i in shuffled(N, 7) {
        server.release(i);
        assert!(poll(&mut evals[i]).is_ready());
    }
    drop(evals);
    let model = model.into_inner();
    for i in 0..N {
        assert_eq!(model["slots"][i]["json"]["n"], i);
    }
}

#[test]
fn a_dropped_evaluation_writes_nothing() {
    let server = ScriptedServer::from_json(&numbered_results(2)).unwrap();
    server.hold_calls();
    let host = server.host();
    let model = SharedModel::new(json!({"results": "before"}));
    let payload = compile(json!({"@call": "updateDataModel", "args": {"updates": {
        "/copy": {"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}
    }}}));
    let root = JsonPointer::root();
    let mut eval: Eval<'_> = Box::pin(payload.eval_async(&model, &root, &host));
    assert!(poll(&mut eval).is_pending());
    drop(eval);
    server.release(0);
    assert_eq!(*model.lock(), json!({"results": "before"}));
    // The model is not left locked or marked: a new evaluation writes.
    let again = compile(
        json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}),
    );
    let mut eval: Eval<'_> = Box::pin(again.eval_async(&model, &root, &host));
    assert!(poll(&mut eval).is_pending());
    server.release(1);
    let Poll::Ready(value) = poll(&mut eval) else {
        panic!("released")
    };
    assert_eq!(value.unwrap()["json"]["n"], 1);
    drop(eval);
    assert_eq!(model.lock()["results"]["json"]["n"], 1);
}

#[test]
fn is_error_changes_nothing() {
    let server = ScriptedServer::from_json(&json!({
        "results": {"fail": [{"isError": true, "content": [{"type": "text", "text": "rate limited"},
            {"type": "resource", "resource": {"uri": "a2ui://x", "mimeType": "application/a2ui+json",
             "text": "[{\"updateDataModel\": {\"surfaceId\": \"s\", \"path\": \"/\", \"value\": 1}}]"}}],
            "_meta": {"ui": {"resourceUri": "a2ui://layout"}}}]},
        "resources": {"a2ui://layout": {"contents": []}}
    }))
    .unwrap();
    let host = server.host();
    let before = json!({"rows": [1, 2], "title": "T"});
    let model = SharedModel::new(before.clone());
    let payload = compile(json!({"@call": "updateDataModel", "args": {"updates": {
        "/out": {"@call": "callMcpTool", "args": {"name": "fail", "targetDataPath": "/target"}}
    }}}));
    let err = block_on(payload.eval_async(&model, &JsonPointer::root(), &host)).unwrap_err();
    assert_eq!(
        (err.code(), err.function(), err.location()),
        (
            ErrorCode::ExpressionError,
            Some("callMcpTool"),
            "/args/updates/~1out"
        )
    );
    assert!(err.message().contains("rate limited"), "{}", err.message());
    assert_eq!(
        serde_json::to_string(&*model.lock()).unwrap(),
        serde_json::to_string(&before).unwrap()
    );
    assert!(server.messages().is_empty());
    assert!(
        server.resource_reads().is_empty(),
        "nothing is read after isError"
    );
}

/// An inline A2UI resource whose text is not JSON: the message names the resource and says what
/// is wrong, once.
#[test]
fn an_inline_a2ui_resource_that_is_not_json_says_so_once() {
    let server = ScriptedServer::from_json(&json!({
        "results": {"board": [{"content": [{"type": "resource", "resource": {
            "uri": "a2ui://board", "mimeType": "application/a2ui+json", "text": "{oops"}}]}]}
    }))
    .unwrap();
    let payload = compile(json!({"@call": "callMcpTool", "args": {"name": "board"}}));
    let model = SharedModel::new(json!({}));
    let err =
        block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host())).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(
        err.message(),
        "the A2UI resource 'a2ui://board' is not valid JSON: key must be a string at line 1 \
         column 2"
    );
    // The alternate form adds no cause that repeats it.
    assert!(!format!("{err:#}").contains("caused by"), "{err:#}");
}

/// A client that counts its calls and records the `_meta` it was sent.
struct Counting {
    tools: Vec<Value>,
    lists: AtomicUsize,
    metas: Mutex<Vec<Option<Value>>>,
    label: &'static str,
}

impl ToolClient for Counting {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        _arguments: &'a Value,
        meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        self.metas.lock().unwrap().push(meta.cloned());
        Box::pin(async move {
            Ok(json!({"content": [{"type": "text", "text": format!("{} ran {name}", self.label)}]}))
        })
    }
    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move { Err(format!("no {uri}").into()) })
    }
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        self.lists.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(self.tools.clone()) })
    }
}

fn counting(label: &'static str, tools: &[&str]) -> Arc<Counting> {
    Arc::new(Counting {
        tools: tools
            .iter()
            .map(|t| json!({"name": t, "inputSchema": {"type": "object"}}))
            .collect(),
        lists: AtomicUsize::new(0),
        metas: Mutex::new(Vec::new()),
        label,
    })
}

#[test]
fn the_ready_router_lists_once_and_routes_by_name_with_a_default() {
    let github = counting("github", &["list_issues"]);
    let search = counting("search", &["web_search"]);
    let fallback = counting("fallback", &[]);
    let router = ClientRouter::new()
        .with_client(github.clone())
        .with_client(search.clone())
        .with_default(fallback.clone());
    let meta = json!({"a2ui": {"clientCapabilities": {"v1.0": {}}}});
    let host = McpHost::with_router(Arc::new(router)).with_meta(meta.clone());
    let model = SharedModel::new(json!({}));
    let call = |tool: &str| {
        let p = compile(json!({"@call": "callMcpTool", "args": {"name": tool}}));
        block_on(p.eval_async(&model, &JsonPointer::root(), &host)).unwrap()["text"].clone()
    };
    assert_eq!(call("list_issues"), "github ran list_issues");
    assert_eq!(call("web_search"), "search ran web_search");
    assert_eq!(call("other"), "fallback ran other");
    assert_eq!(call("list_issues"), "github ran list_issues");
    assert_eq!(
        github.lists.load(Ordering::SeqCst),
        1,
        "tools are listed once per client"
    );
    assert_eq!(search.lists.load(Ordering::SeqCst), 1);
    assert_eq!(
        *github.metas.lock().unwrap(),
        vec![Some(meta.clone()), Some(meta)]
    );
}

#[test]
fn mcp_app_resources_reach_the_callback_in_order() {
    let server = ScriptedServer::from_json(&json!({
        "results": {"apps": [{"content": [
            {"type": "resource", "resource": {"uri": "ui://a", "mimeType": "text/html;profile=mcp-app", "text": "<p>A</p>"}},
            {"type": "resource", "resource": {"uri": "ui://b", "mimeType": "text/html; profile=mcp-app", "text": "<p>B</p>",
             "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}}}}}
        ]}]}
    }))
    .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let host = server
        .host()
        .with_app_callback(move |app: &McpAppResource| sink.lock().unwrap().push(app.clone()));
    let model = SharedModel::new(json!({}));
    let payload = compile(json!({"@call": "callMcpTool", "args": {"name": "apps"}}));
    let value = block_on(payload.eval_async(&model, &JsonPointer::root(), &host)).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(
        seen.iter().map(|a| a.uri.as_str()).collect::<Vec<_>>(),
        ["ui://a", "ui://b"]
    );
    assert_eq!(seen[0].tool_name, "apps");
    assert_eq!(
        (value["resourceUri"].as_str(), value["html"].as_str()),
        (Some("ui://b"), Some("<p>B</p>"))
    );
    assert_eq!(
        value["csp"],
        json!({"connectDomains": ["https://api.example.com"]})
    );
    assert!(value.get("permissions").is_none());
}

#[test]
fn synchronous_evaluation_of_a_tool_call_says_it_is_not_configured() {
    let payload = compile(json!({"@call": "callMcpTool", "args": {"name": "ping"}}));
    assert!(payload.calls_tools());
    let err = payload.eval(&mut json!({})).unwrap_err();
    assert!(
        err.message()
            .starts_with("Cannot execute MCP tool 'ping': callMcpTool is not configured"),
        "{err}"
    );
    assert!(!compile(json!({"@path": "/x"})).calls_tools());
}

#[test]
fn evaluation_futures_are_send() {
    fn send<T: Send>(_: &T) {}
    let server = ScriptedServer::from_json(&json!({})).unwrap();
    let host = server.host();
    let model = SharedModel::new(json!({}));
    let payload = compile(json!({"@path": "/x"}));
    let root = JsonPointer::root();
    let future = payload.eval_async(&model, &root, &host);
    send(&future);
    assert_eq!(block_on(future).unwrap(), Value::Null);
}
