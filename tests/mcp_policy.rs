//! The host's tool policy and audit beyond the fixtures: policies that wait for an answer while
//! other evaluations run, evaluations dropped while a policy decides or a call is pending,
//! many concurrent calls with exact counts, annotations read from the tool list the host holds,
//! and the calls of `McpApp` widgets.
#![cfg(feature = "testing")]

use a2ui_catalog_mcp::mcp::app::McpAppProps;
use a2ui_catalog_mcp::mcp::{
    AuditEvent, BoxFuture, CallOutcome, ClientRouter, ConsentForDestructive, Decision, DenyList,
    McpHost, ToolCallRequest, ToolClient, ToolPolicy, ToolPolicyExt,
};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, ErrorCode, JsonPointer, Limits, Origin, Payload, SharedModel};
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// A one-shot answer, with std only: the consent dialog's reply.
#[derive(Clone, Default)]
struct Answer {
    slot: Arc<Mutex<(Option<bool>, Option<Waker>)>>,
}

impl Answer {
    fn send(&self, yes: bool) {
        let waker = {
            let mut slot = self.slot.lock().unwrap();
            slot.0 = Some(yes);
            slot.1.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl Future for Answer {
    type Output = bool;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        let mut slot = self.slot.lock().unwrap();
        match slot.0 {
            Some(yes) => Poll::Ready(yes),
            None => {
                slot.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// The consent dialogs the user has not answered yet: (tool, arguments, answer).
type Prompts = Arc<Mutex<Vec<(String, Value, Answer)>>>;

/// Asks the user about each destructive call; the test answers the prompts.
fn consent_policy(prompts: &Prompts) -> ConsentForDestructive {
    let prompts = prompts.clone();
    ConsentForDestructive::new(move |call| {
        let answer = Answer::default();
        prompts.lock().unwrap().push((
            call.name.to_owned(),
            call.arguments.clone(),
            answer.clone(),
        ));
        Box::pin(answer)
    })
}

/// An audit sink that keeps every event.
fn audit_log() -> (
    Arc<Mutex<Vec<AuditEvent>>>,
    impl Fn(&AuditEvent) + Send + Sync + 'static,
) {
    let log: Arc<Mutex<Vec<AuditEvent>>> = Arc::default();
    let sink = log.clone();
    (log, move |e: &AuditEvent| {
        sink.lock().unwrap().push(e.clone())
    })
}

fn server() -> ScriptedServer {
    let text = |t: &str| json!([{"content": [{"type": "text", "text": t}]}]);
    ScriptedServer::from_json(&json!({
        "name": "github",
        "tools": [
            {"name": "search", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
            {"name": "delete_repo", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}
        ],
        "results": {
            "search": text("found"),
            "delete_repo": text("deleted"),
            "broken": [{"$error": "connection reset"}],
            "failing": [{"content": [{"type": "text", "text": "no such repo"}], "isError": true}]
        }
    }))
    .unwrap()
}

fn call(name: &str, target: &str) -> Payload {
    Environment::new()
        .compile(&json!({"@call": "callMcpTool", "args": {
            "name": name, "arguments": {"repo": {"@path": "/repo"}}, "targetDataPath": target}}))
        .unwrap()
}

fn summary(log: &Mutex<Vec<AuditEvent>>) -> Vec<(String, Option<Decision>, CallOutcome)> {
    log.lock()
        .unwrap()
        .iter()
        .map(|e| (e.tool.clone(), e.decision.clone(), e.outcome.clone()))
        .collect()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn a_consent_prompt_waits_while_other_evaluations_run() {
    let server = server();
    let prompts = Prompts::default();
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(consent_policy(&prompts))
        .with_audit(sink);
    let model = SharedModel::new(json!({"repo": "a2ui/a2ui"}));
    let root = JsonPointer::root();
    let (delete, search) = (call("delete_repo", "/deleted"), call("search", "/found"));

    let (deleted, searched) = runtime().block_on(async {
        tokio::join!(delete.eval_async(&model, &root, &host), async {
            // The delete waits for the user; the search is not destructive and runs meanwhile.
            let searched = search.eval_async(&model, &root, &host).await;
            assert_eq!(prompts.lock().unwrap().len(), 1, "one dialog is open");
            assert_eq!(server.tool_calls().len(), 1, "only the search went out");
            assert!(model.lock().get("deleted").is_none());
            tokio::time::sleep(Duration::from_millis(20)).await; // the user reads the dialog
            let (tool, arguments, answer) = prompts.lock().unwrap().pop().unwrap();
            assert_eq!(
                (tool.as_str(), arguments),
                ("delete_repo", json!({"repo": "a2ui/a2ui"}))
            );
            answer.send(true);
            searched
        })
    });
    searched.unwrap();
    deleted.unwrap();
    assert_eq!(model.lock()["deleted"]["text"], "deleted");
    let sent: Vec<Value> = server
        .tool_calls()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(sent, ["search", "delete_repo"]);

    // The same call, refused by the user: nothing is sent.
    let refused = runtime().block_on(async {
        tokio::join!(delete.eval_async(&model, &root, &host), async {
            tokio::task::yield_now().await;
            let (_, _, answer) = prompts.lock().unwrap().pop().unwrap();
            answer.send(false);
        })
        .0
    });
    let err = refused.unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(
        err.message(),
        "MCP tool 'delete_repo' is not allowed: it is destructive and the user did not consent"
    );
    assert_eq!(server.tool_calls().len(), 2);

    let allow = Some(Decision::Allow);
    let refusal = Some(Decision::deny(
        "it is destructive and the user did not consent",
    ));
    assert_eq!(
        summary(&log),
        [
            ("search".into(), allow.clone(), CallOutcome::Ok),
            ("delete_repo".into(), allow, CallOutcome::Ok),
            ("delete_repo".into(), refusal, CallOutcome::Denied),
        ]
    );
    let events = log.lock().unwrap();
    assert!(events.iter().all(|e| e.server.as_deref() == Some("github")
        && e.origin == Origin::Binding
        && e.arguments == json!({"repo": "a2ui/a2ui"})));
    // The delete's duration includes the time the dialog was open.
    assert!(events[1].duration.unwrap() >= Duration::from_millis(20));
}

#[test]
fn an_evaluation_dropped_while_the_policy_decides_is_audited_as_cancelled() {
    let server = server();
    let prompts = Prompts::default();
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(consent_policy(&prompts))
        .with_audit(sink);
    let model = SharedModel::new(json!({"repo": "a2ui/a2ui"}));
    let root = JsonPointer::root();
    let delete = call("delete_repo", "/deleted");

    // The host's timeout: the dialog is never answered.
    let timed_out = runtime().block_on(async {
        tokio::time::timeout(
            Duration::from_millis(20),
            delete.eval_async(&model, &root, &host),
        )
        .await
    });
    assert!(timed_out.is_err(), "the evaluation was still waiting");
    assert_eq!(prompts.lock().unwrap().len(), 1, "the dialog was shown");
    assert!(server.tool_calls().is_empty(), "nothing was sent");
    assert_eq!(model.lock().clone(), json!({"repo": "a2ui/a2ui"}));
    assert_eq!(
        summary(&log),
        [("delete_repo".into(), None, CallOutcome::Cancelled)]
    );
    // An answer that comes too late changes nothing.
    prompts.lock().unwrap()[0].2.send(true);
    assert!(server.tool_calls().is_empty());
    assert_eq!(log.lock().unwrap().len(), 1);
}

#[test]
fn an_evaluation_dropped_while_its_call_is_pending_is_audited_as_cancelled() {
    let server = server();
    server.hold_calls();
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(DenyList::new(["delete_repo"]))
        .with_audit(sink);
    let model = SharedModel::new(json!({"repo": "a2ui/a2ui"}));
    let search = call("search", "/found");
    let timed_out = runtime().block_on(async {
        tokio::time::timeout(
            Duration::from_millis(20),
            search.eval_async(&model, &JsonPointer::root(), &host),
        )
        .await
    });
    assert!(timed_out.is_err());
    assert_eq!(server.tool_calls().len(), 1, "allowed, so it was sent");
    assert!(model.lock().get("found").is_none(), "nothing written");
    assert_eq!(
        summary(&log),
        [(
            "search".into(),
            Some(Decision::Allow),
            CallOutcome::Cancelled
        )]
    );
}

/// Polls many futures on one task until all are done.
struct JoinAll<'a, T> {
    pending: Vec<Option<Pin<Box<dyn Future<Output = T> + Send + 'a>>>>,
    done: Vec<Option<T>>,
}

impl<'a, T> JoinAll<'a, T> {
    fn new(futures: Vec<Pin<Box<dyn Future<Output = T> + Send + 'a>>>) -> Self {
        let done = futures.iter().map(|_| None).collect();
        JoinAll {
            pending: futures.into_iter().map(Some).collect(),
            done,
        }
    }
}

impl<T: Unpin> Future for JoinAll<'_, T> {
    type Output = Vec<T>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<T>> {
        // The futures are boxed and the outputs Unpin: nothing here is pinned in place.
        let this = self.get_mut();
        for (slot, out) in this.pending.iter_mut().zip(&mut this.done) {
            if let Some(future) = slot
                && let Poll::Ready(value) = future.as_mut().poll(cx)
            {
                *out = Some(value);
                *slot = None;
            }
        }
        if this.pending.iter().all(Option::is_none) {
            Poll::Ready(this.done.iter_mut().map(|v| v.take().unwrap()).collect())
        } else {
            Poll::Pending
        }
    }
}

#[test]
fn a_thousand_concurrent_calls_half_denied_are_counted_exactly() {
    const CALLS: usize = 1000;
    let server = server();
    server.hold_calls();
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(DenyList::new(["delete_repo"]))
        .with_audit(sink);
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    let env = Environment::new();
    // Every other call is denied; the allowed ones all write to /out, each with its number.
    let payloads: Vec<Payload> = (0..CALLS)
        .map(|i| {
            let name = if i % 2 == 0 { "search" } else { "delete_repo" };
            env.compile(&json!({"@call": "callMcpTool", "args": {
                "name": name, "arguments": {"i": i}, "targetDataPath": "/out"}}))
                .unwrap()
        })
        .collect();
    let mut all = JoinAll::new(
        payloads
            .iter()
            .map(|p| {
                Box::pin(p.eval_async(&model, &root, &host))
                    as Pin<
                        Box<
                            dyn Future<Output = Result<Value, a2ui_catalog_mcp::Error>> + Send + '_,
                        >,
                    >
            })
            .collect(),
    );

    // One round: every evaluation runs to its tool call; the denied ones end there.
    let first = Pin::new(&mut all).poll(&mut Context::from_waker(Waker::noop()));
    assert!(first.is_pending());
    assert_eq!(server.held_calls(), CALLS / 2);
    assert_eq!(server.tool_calls().len(), CALLS / 2);
    assert_eq!(log.lock().unwrap().len(), CALLS / 2, "the denials so far");
    assert!(model.lock().get("out").is_none());

    // The server answers, in reverse order.
    for i in (0..CALLS / 2).rev() {
        server.release(i);
    }
    let results = block_on(all);
    let denied = results
        .iter()
        .filter(|r| {
            r.as_ref()
                .is_err_and(|e| e.message().contains("not allowed"))
        })
        .count();
    assert_eq!(denied, CALLS / 2);
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), CALLS / 2);

    let sent = server.tool_calls();
    assert_eq!(sent.len(), CALLS / 2);
    assert!(sent.iter().all(|c| c["name"] == "search"));
    let events = log.lock().unwrap();
    assert_eq!(events.len(), CALLS);
    let count = |outcome: CallOutcome| events.iter().filter(|e| e.outcome == outcome).count();
    assert_eq!(count(CallOutcome::Denied), CALLS / 2);
    // All allowed calls were in flight together: the last one started wins the write.
    assert_eq!(count(CallOutcome::Ok), 1);
    assert_eq!(count(CallOutcome::Superseded), CALLS / 2 - 1);
    assert_eq!(model.lock()["out"]["toolInput"], json!({"i": CALLS - 2}));
}

#[test]
fn concurrent_calls_from_several_threads_are_counted_exactly() {
    const THREADS: usize = 4;
    const PER_THREAD: usize = 250;
    let server = server();
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(DenyList::new(["delete_repo"]))
        .with_audit(sink);
    let model = SharedModel::new(json!({"repo": "r"}));
    let (search, delete) = (call("search", ""), call("delete_repo", ""));
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                for i in 0..PER_THREAD {
                    let payload = if i % 2 == 0 { &search } else { &delete };
                    let result = block_on(payload.eval_async(&model, &JsonPointer::root(), &host));
                    assert_eq!(result.is_ok(), i % 2 == 0);
                }
            });
        }
    });
    assert_eq!(server.tool_calls().len(), THREADS * PER_THREAD / 2);
    let events = log.lock().unwrap();
    assert_eq!(events.len(), THREADS * PER_THREAD);
    let denied = events
        .iter()
        .filter(|e| e.outcome == CallOutcome::Denied)
        .count();
    assert_eq!(denied, THREADS * PER_THREAD / 2);
}

#[test]
fn annotations_come_from_the_tool_list_the_host_holds() {
    let tool = |read_only: bool| {
        vec![json!({"name": "search", "inputSchema": {"type": "object"},
                    "annotations": {"readOnlyHint": read_only}})]
    };
    let server = server();
    server.set_tools(tool(true));
    let (log, sink) = audit_log();
    let host = server
        .host()
        .with_policy(ConsentForDestructive::deny())
        .with_audit(sink);
    let model = SharedModel::new(json!({"repo": "r"}));
    let search = call("search", "/found");
    let run = |host: &McpHost| block_on(search.eval_async(&model, &JsonPointer::root(), host));

    run(&host).expect("read-only: allowed");
    assert_eq!(
        server.tool_list_requests(),
        1,
        "listed once, for the policy"
    );

    // The server now says the tool is destructive; the host still holds the first list.
    server.set_tools(tool(false));
    run(&host).expect("the host decides on the list it holds");
    assert_eq!(server.tool_list_requests(), 1, "not listed again");

    // After tools/list_changed the host lists again, and the new annotations count.
    host.refresh_tool_lists();
    let err = run(&host).unwrap_err();
    assert_eq!(
        err.message(),
        "MCP tool 'search' is not allowed: it is destructive"
    );
    assert_eq!(server.tool_list_requests(), 2);
    // A new host fetches its own list.
    let fresh = server.host().with_policy(ConsentForDestructive::deny());
    assert!(run(&fresh).is_err());
    assert_eq!(
        server.tool_calls().len(),
        2,
        "the denied calls were not sent"
    );
    let outcomes: Vec<CallOutcome> = log
        .lock()
        .unwrap()
        .iter()
        .map(|e| e.outcome.clone())
        .collect();
    assert_eq!(
        outcomes,
        [CallOutcome::Ok, CallOutcome::Ok, CallOutcome::Denied]
    );
}

#[test]
fn without_a_policy_the_tool_list_is_not_fetched_before_a_call() {
    let server = server();
    let model = SharedModel::new(json!({"repo": "r"}));
    block_on(call("search", "/found").eval_async(&model, &JsonPointer::root(), &server.host()))
        .unwrap();
    // The call's result has no UI resource, so the tool's own _meta is looked up once.
    assert_eq!(server.tool_list_requests(), 1);
    let (log, sink) = audit_log();
    let audited = server.host().with_audit(sink);
    block_on(call("search", "/found").eval_async(&model, &JsonPointer::root(), &audited)).unwrap();
    assert_eq!(
        summary(&log),
        [("search".into(), Some(Decision::Allow), CallOutcome::Ok)]
    );
}

#[test]
fn every_outcome_is_audited() {
    let server = server();
    let (log, sink) = audit_log();
    let host = server.host().with_audit(sink);
    let model = SharedModel::new(json!({"repo": "r"}));
    let root = JsonPointer::root();
    for (tool, code) in [
        ("broken", ErrorCode::ExpressionError),
        ("failing", ErrorCode::ExpressionError),
    ] {
        let err = block_on(call(tool, "/x").eval_async(&model, &root, &host)).unwrap_err();
        assert_eq!(err.code(), code);
    }
    // A tool no connected server has: the policy is not asked, the failure is audited.
    let nowhere = McpHost::with_router(Arc::new(ClientRouter::new())).with_audit({
        let log = log.clone();
        move |e: &AuditEvent| log.lock().unwrap().push(e.clone())
    });
    let err = block_on(call("search", "/x").eval_async(&model, &root, &nowhere)).unwrap_err();
    assert!(
        err.message()
            .contains("no connected MCP server has this tool")
    );
    // A write that fails after the call succeeded.
    let blocked = SharedModel::new(json!({"repo": "r", "x": "text"}));
    block_on(call("search", "/x/deeper").eval_async(&blocked, &root, &host)).unwrap_err();

    let events = log.lock().unwrap();
    let lines: Vec<String> = events
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e.duration = None;
            e.to_string()
        })
        .collect();
    assert_eq!(
        lines[0],
        r#"broken {"repo":"r"} on github: allowed, host failure: Failed to execute MCP tool 'broken': connection reset"#
    );
    assert_eq!(
        lines[1],
        r#"failing {"repo":"r"} on github: allowed, isError"#
    );
    assert_eq!(
        lines[2],
        r#"search {"repo":"r"}: host failure: no connected MCP server has this tool"#
    );
    assert!(
        lines[3].starts_with(r#"search {"repo":"r"} on github: allowed, host failure: "#),
        "{}",
        lines[3]
    );
    assert_eq!(events.len(), 4);
}

/// What a policy was shown of one call: tool, server, annotations, origin.
type Shown = (String, Option<String>, Option<Value>, Origin);

/// A policy that records what it was shown.
struct Recorder(Mutex<Vec<Shown>>);

impl ToolPolicy for Recorder {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        self.0.lock().unwrap().push((
            call.name.to_owned(),
            call.server.map(str::to_owned),
            call.annotations().cloned(),
            call.origin,
        ));
        Box::pin(std::future::ready(Decision::Allow))
    }
}

#[test]
fn app_calls_pass_allowed_tools_then_the_policy() {
    let server = server();
    let (log, sink) = audit_log();
    let recorder = Arc::new(Recorder(Mutex::default()));
    let host = server
        .host()
        .with_policy(recorder.clone().and(DenyList::new(["delete_repo"])))
        .with_audit(sink);
    let limits = Limits::default();
    let app = McpAppProps::parse(
        &json!({"component": "McpApp", "htmlContent": "<p/>",
                "allowedTools": ["search", "delete_repo", "failing"]}),
        &limits,
    )
    .unwrap();
    let ask = |params: Value| block_on(host.call_app_tool(&app, &params, &limits));

    let result = ask(json!({"name": "search", "arguments": {"q": "a2ui"}})).unwrap();
    assert_eq!(result["content"][0]["text"], "found");
    // isError is the app's to read.
    let failing = ask(json!({"name": "failing"})).unwrap();
    assert_eq!(failing["isError"], true);
    let err = ask(json!({"name": "delete_repo"})).unwrap_err();
    assert_eq!(
        err.message(),
        "MCP tool 'delete_repo' is not allowed: it is on the host's deny list"
    );
    let err = ask(json!({"name": "rename_repo"})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(
        err.message(),
        "Tool 'rename_repo' is not allowed by allowedTools"
    );
    assert!(ask(json!({"name": ""})).is_err(), "malformed");

    let sent: Vec<Value> = server
        .tool_calls()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(sent, ["search", "failing"]);
    // The policy saw the server and the annotations; allowedTools refused before it was asked.
    let seen = recorder.0.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert_eq!(
        seen[0],
        (
            "search".to_owned(),
            Some("github".to_owned()),
            Some(json!({"readOnlyHint": true})),
            Origin::App
        )
    );
    assert_eq!(
        summary(&log)
            .into_iter()
            .map(|(tool, _, outcome)| (tool, outcome))
            .collect::<Vec<_>>(),
        [
            ("search".into(), CallOutcome::Ok),
            ("failing".into(), CallOutcome::ToolError),
            ("delete_repo".into(), CallOutcome::Denied),
            ("rename_repo".into(), CallOutcome::Denied),
        ]
    );
    assert!(log.lock().unwrap().iter().all(|e| e.origin == Origin::App));
}

/// The evaluation's future stays `Send` with a policy and an audit sink.
#[test]
fn the_evaluation_future_is_send() {
    fn is_send<T: Send>(_: &T) {}
    let server = server();
    let host = server
        .host()
        .with_policy(ConsentForDestructive::deny())
        .with_audit(|_: &AuditEvent| {});
    let model = SharedModel::new(json!({}));
    let payload = call("search", "");
    let root = JsonPointer::root();
    is_send(&payload.eval_async(&model, &root, &host));
    let limits = Limits::default();
    let app = McpAppProps::parse(
        &json!({"component": "McpApp", "htmlContent": "<p/>"}),
        &limits,
    )
    .unwrap();
    is_send(&host.call_app_tool(&app, &json!({"name": "x"}), &limits));
    let _: Arc<dyn ToolClient> = Arc::new(server);
}
