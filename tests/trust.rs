//! Trust at the surface (issue 24): the origin of every call and what catalogs declare about it,
//! typed denials, the ready-made policies, provenance, MCP Apps visibility and `outputSchema`.
#![cfg(feature = "testing")]

use a2ui_catalog_mcp::mcp::{AuditEvent, BoxFuture, Decision, ToolCallRequest, ToolPolicy};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{
    Args, CallContext, Catalog, Denial, Environment, Error, ErrorCode, Function, JsonPointer,
    Origin, SharedModel,
    functions::{Access, AllowedCallers},
};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const SHELL: &str = "https://example.com/shell.json";

/// A catalog document declaring `openUrl` (user activation), `ask` (agent only), `both`
/// (renderer or agent) and `plain` (nothing declared).
fn shell_document() -> Value {
    let entry = |name: &str, extra: Value| {
        let mut entry = json!({"returnType": "any",
            "properties": {"call": {"const": name}, "args": {"properties": {"value": {}}}}});
        entry
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        entry
    };
    json!({"catalogId": SHELL, "functions": {
        "openUrl": entry("openUrl", json!({"requiresUserActivation": true})),
        "ask": entry("ask", json!({"allowedCallers": "agentOnly"})),
        "both": entry("both", json!({"allowedCallers": "rendererOrAgent"})),
        "plain": entry("plain", json!({})),
    }})
}

/// Counts its runs and returns the origin it saw.
struct Seen(Arc<AtomicUsize>);

impl Function for Seen {
    fn call(&self, _args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(Value::from(cx.origin().as_str()))
    }
}

fn shell_env() -> (Environment, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut catalog = Catalog::from_schema(&shell_document()).unwrap();
    for name in ["openUrl", "ask", "both", "plain"] {
        catalog
            .implement_function(name, Seen(runs.clone()))
            .unwrap();
    }
    let mut env = Environment::new();
    env.add_catalog(catalog);
    (env, runs)
}

fn call(name: &str) -> Value {
    json!({"@call": name, "catalogId": SHELL, "args": {"value": 1}})
}

#[test]
fn declarations_are_read_from_the_catalog_document() {
    let catalog = Catalog::from_schema(&shell_document()).unwrap();
    let access = |name| catalog.declaration(name).unwrap().access();
    assert_eq!(
        access("openUrl"),
        Access::new(AllowedCallers::RendererOnly, true)
    );
    assert_eq!(access("ask"), Access::new(AllowedCallers::AgentOnly, false));
    assert_eq!(access("plain"), Access::default());

    let bad = |extra: Value| {
        let mut doc = json!({"catalogId": "x", "functions": {"f": {
            "properties": {"call": {"const": "f"}, "args": {}}}}});
        doc["functions"]["f"]
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        Catalog::from_schema(&doc).unwrap_err()
    };
    let err = bad(json!({"requiresUserActivation": "yes"}));
    assert_eq!(err.code(), ErrorCode::ValidationFailed);
    assert!(
        err.message()
            .contains("requiresUserActivation must be a boolean"),
        "{err}"
    );
    let err = bad(json!({"allowedCallers": "anyone"}));
    assert!(err.message().contains("allowedCallers must be"), "{err}");
    let err = bad(json!({"requiresUserActivation": true, "allowedCallers": "agentOnly"}));
    assert!(err.message().contains("needs allowedCallers"), "{err}");
}

#[test]
fn the_engine_enforces_user_activation_and_allowed_callers_for_every_origin() {
    let (env, runs) = shell_env();
    let root = JsonPointer::root();
    let mut model = json!({});
    // (function, origins that may call it)
    let table = [
        ("openUrl", vec![Origin::Action]),
        ("ask", vec![Origin::Agent]),
        ("both", Origin::ALL.to_vec()),
        ("plain", vec![Origin::Binding, Origin::Action, Origin::App]),
    ];
    for (name, allowed) in table {
        let payload = env.compile(&call(name)).unwrap();
        for origin in Origin::ALL {
            let before = runs.load(Ordering::SeqCst);
            let result = payload.eval_from(&mut model, &root, origin);
            if allowed.contains(&origin) {
                assert_eq!(
                    result.unwrap(),
                    json!(origin.as_str()),
                    "{name} from {origin}"
                );
                assert_eq!(runs.load(Ordering::SeqCst), before + 1);
            } else {
                let err = result.unwrap_err();
                assert_eq!(
                    err.code(),
                    ErrorCode::ExpressionError,
                    "{name} from {origin}"
                );
                assert_eq!(err.function(), Some(name));
                let kind = if name == "openUrl" && origin != Origin::Agent {
                    Denial::UserActivation
                } else {
                    Denial::AllowedCallers
                };
                assert_eq!(err.denial(), Some(kind), "{name} from {origin}");
                assert!(err.message().contains(&origin.to_string()), "{err}");
                assert_eq!(runs.load(Ordering::SeqCst), before, "{name} must not run");
            }
        }
    }
    // Without an origin it is a binding, read-only evaluation included.
    let open = env.compile(&call("openUrl")).unwrap();
    assert!(open.eval(&mut model).is_err());
    assert!(open.eval_read(&model, &root).is_err());
    assert!(open.eval_read_from(&model, &root, Origin::Action).is_ok());
}

#[test]
fn a_refused_call_inside_an_action_stops_the_chain_and_writes_nothing() {
    let (env, runs) = shell_env();
    // The action's function call and what it calls share the origin: `openUrl` in an argument
    // of updateDataModel is refused for a binding, and the update does not happen.
    let payload = env
        .compile(
            &json!({"@call": "updateDataModel", "args": {"updates": {"/opened": call("openUrl")}}}),
        )
        .unwrap();
    let mut model = json!({});
    let err = payload.eval(&mut model).unwrap_err();
    assert_eq!(err.location(), "/args/updates/~1opened");
    assert_eq!(model, json!({}));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    payload
        .eval_from(&mut model, &JsonPointer::root(), Origin::Action)
        .unwrap();
    assert_eq!(model, json!({"opened": "action"}));
}

#[test]
fn set_access_changes_a_function_added_in_code() {
    let mut catalog =
        Catalog::new(SHELL).with_function("plain", Default::default(), |_: &Args<'_>| Ok(json!(1)));
    assert!(catalog.set_access("missing", Access::default()).is_err());
    catalog
        .set_access("plain", Access::new(AllowedCallers::RendererOrAgent, false))
        .unwrap();
    let mut env = Environment::new();
    env.add_catalog(catalog);
    let payload = env
        .compile(&json!({"@call": "plain", "catalogId": SHELL}))
        .unwrap();
    assert_eq!(
        payload
            .eval_from(&mut json!({}), &JsonPointer::root(), Origin::Agent)
            .unwrap(),
        json!(1)
    );
}

/// Records the origin of every request it sees, and allows everything.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Origin>>>);

impl ToolPolicy for Recorder {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        self.0.lock().unwrap().push(call.origin);
        Box::pin(std::future::ready(Decision::Allow))
    }
}

#[test]
fn the_policy_and_the_audit_see_the_evaluations_origin() {
    let server = ScriptedServer::from_json(
        &json!({"results": {"ping": [{"content": [{"type": "text", "text": "pong"}]}]}}),
    )
    .unwrap();
    let recorder = Recorder::default();
    let audited = Arc::new(Mutex::new(Vec::new()));
    let log = audited.clone();
    let host = server
        .host()
        .with_policy(recorder.clone())
        .with_audit(move |e: &AuditEvent| log.lock().unwrap().push((e.origin, e.to_string())));
    let payload = Environment::new()
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "ping"}}))
        .unwrap();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    block_on(payload.eval_async(&model, &root, &host)).unwrap();
    for origin in [Origin::Binding, Origin::Action, Origin::App] {
        block_on(payload.eval_async_from(&model, &root, &host, origin)).unwrap();
    }
    // The MCP catalog declares no allowedCallers for callMcpTool: the A2UI default,
    // rendererOnly, keeps the agent from making the renderer call tools. The policy is not
    // asked and nothing is audited: no tool call was made.
    let err = block_on(payload.eval_async_from(&model, &root, &host, Origin::Agent)).unwrap_err();
    assert!(
        err.message().contains("allowedCallers 'rendererOnly'"),
        "{err}"
    );
    assert_eq!(server.tool_calls().len(), 4);
    let expected = [
        Origin::Binding,
        Origin::Binding,
        Origin::Action,
        Origin::App,
    ];
    assert_eq!(*recorder.0.lock().unwrap(), expected);
    let audited = audited.lock().unwrap();
    assert_eq!(
        audited.iter().map(|(o, _)| *o).collect::<Vec<_>>(),
        expected
    );
    assert!(!audited[0].1.contains("(from"), "{}", audited[0].1);
    assert!(
        audited[2].1.contains("(from a user action)"),
        "{}",
        audited[2].1
    );
}

#[test]
fn catalog_rules_hold_whatever_the_hosts_policy() {
    // A host without a policy allows every tool call; the catalog's rule still refuses the
    // binding's call of a function that needs a tap, and nothing is sent.
    let (env, _) = shell_env();
    let server = ScriptedServer::from_json(&json!({"results": {"t": [{"content": []}]}})).unwrap();
    let payload = env
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "t", "arguments": {"url": call("openUrl")}}}))
        .unwrap();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    assert!(block_on(payload.eval_async(&model, &root, &server.host())).is_err());
    assert!(server.tool_calls().is_empty());
    block_on(payload.eval_async_from(&model, &root, &server.host(), Origin::Action)).unwrap();
    assert_eq!(server.tool_calls().len(), 1);
}

#[test]
fn denials_are_typed_and_read_as_before() {
    use a2ui_catalog_mcp::Limits;
    use a2ui_catalog_mcp::mcp::{DenyList, app::McpAppProps};
    let server = ScriptedServer::from_json(&json!({"results": {
        "ok": [{"content": []}], "bad": [{"content": []}]}}))
    .unwrap();
    let host = server.host().with_policy(DenyList::new(["bad"]));
    let env = Environment::new();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    let run = |name: &str| {
        let payload = env
            .compile(&json!({"@call": "callMcpTool", "args": {"name": name}}))
            .unwrap();
        block_on(payload.eval_async(&model, &root, &host))
    };
    let denied = run("bad").unwrap_err();
    assert_eq!(denied.denial(), Some(Denial::Policy));
    assert_eq!(
        denied.to_string(),
        "EXPRESSION_ERROR in callMcpTool at /: MCP tool 'bad' is not allowed: it is on the host's deny list"
    );
    // A failure is not a denial.
    let failed = run("missing").unwrap_err();
    assert_eq!(failed.denial(), None, "{failed}");
    assert!(run("ok").is_ok());

    let limits = Limits::default();
    let app = McpAppProps::parse(
        &json!({"component": "McpApp", "htmlContent": "<p/>", "allowedTools": ["ok", "bad"]}),
        &limits,
    )
    .unwrap();
    let call = |name: &str| block_on(host.call_app_tool(&app, &json!({"name": name}), &limits));
    assert_eq!(
        call("other").unwrap_err().denial(),
        Some(Denial::AllowedTools)
    );
    assert_eq!(call("bad").unwrap_err().denial(), Some(Denial::Policy));
    for kind in [
        "policy",
        "allowedTools",
        "visibility",
        "userActivation",
        "allowedCallers",
        "outputSchema",
    ] {
        assert_eq!(Denial::parse(kind).unwrap().as_str(), kind);
    }
}

fn github() -> ScriptedServer {
    ScriptedServer::from_json(&json!({
        "name": "github",
        "tools": [
            {"name": "list_issues", "annotations": {"readOnlyHint": true}},
            {"name": "close_issue", "annotations": {"destructiveHint": true}}
        ],
        "results": {
            "list_issues": [{"content": [{"type": "text", "text": "[]"}]}],
            "close_issue": [{"content": [{"type": "text", "text": "closed"}]}]
        }
    }))
    .unwrap()
}

fn tool_call(name: &str) -> a2ui_catalog_mcp::Payload {
    Environment::new()
        .compile(&json!({"@call": "callMcpTool", "args": {"name": name, "arguments": {"confirm": {"@path": "/confirm"}}}}))
        .unwrap()
}

#[test]
fn read_only_unless_user_action_keeps_keystrokes_from_destructive_tools() {
    use a2ui_catalog_mcp::mcp::{ConsentForDestructive, ReadOnlyUnlessUserAction, ToolPolicyExt};
    let server = github();
    let consent = ConsentForDestructive::new(|call| {
        let yes = call.arguments["confirm"] == true;
        Box::pin(async move { yes })
    });
    let host = server
        .host()
        .with_policy(ReadOnlyUnlessUserAction::trusting(["github"]).and(consent));
    let root = JsonPointer::root();
    let run = |tool: &str, origin: Origin, confirm: bool| {
        let model = SharedModel::new(json!({"confirm": confirm}));
        block_on(tool_call(tool).eval_async_from(&model, &root, &host, origin))
    };
    assert!(run("list_issues", Origin::Binding, false).is_ok());
    let keystroke = run("close_issue", Origin::Binding, true).unwrap_err();
    assert_eq!(keystroke.denial(), Some(Denial::Policy));
    assert!(
        keystroke.message().contains("not a user action"),
        "{keystroke}"
    );
    let app = run("close_issue", Origin::App, true).unwrap_err();
    assert!(app.message().contains("an MCP App"), "{app}");
    // A tap may, when the user consents.
    let no = run("close_issue", Origin::Action, false).unwrap_err();
    assert!(no.message().contains("did not consent"), "{no}");
    assert!(run("close_issue", Origin::Action, true).is_ok());
    let sent: Vec<_> = server
        .tool_calls()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(sent, [json!("list_issues"), json!("close_issue")]);

    // Annotations of a server the host does not trust do not count.
    let untrusting = server.host().with_policy(ReadOnlyUnlessUserAction::new());
    let model = SharedModel::new(json!({}));
    let err =
        block_on(tool_call("list_issues").eval_async(&model, &root, &untrusting)).unwrap_err();
    assert!(
        err.message()
            .contains("does not trust the annotations of server 'github'"),
        "{err}"
    );
    let everyone = server
        .host()
        .with_policy(ReadOnlyUnlessUserAction::trusting_every_server());
    assert!(block_on(tool_call("list_issues").eval_async(&model, &root, &everyone)).is_ok());
}

#[test]
fn same_server_as_source_confines_a_surface_to_its_server() {
    use a2ui_catalog_mcp::mcp::SameServerAsSource;
    use a2ui_catalog_mcp::{Invocation, mcp::Provenance};
    let server = github();
    let host = server.host().with_policy(SameServerAsSource);
    let root = JsonPointer::root();
    let model = SharedModel::new(json!({}));
    let from = |server: Option<&str>| {
        Invocation::new(Origin::Action)
            .with_source(Provenance::new("show", server.map(str::to_owned)))
    };
    let run = |invocation: Invocation| {
        block_on(tool_call("list_issues").eval_async_from(&model, &root, &host, invocation))
    };
    assert!(run(from(Some("github"))).is_ok());
    let err = run(from(Some("web"))).unwrap_err();
    assert_eq!(err.denial(), Some(Denial::Policy));
    assert!(err.message().contains("came from server 'web'"), "{err}");
    assert!(
        run(from(None)).is_err(),
        "an unnamed source cannot be confined"
    );
    assert!(
        run(Invocation::new(Origin::Binding)).is_ok(),
        "no provenance: not confined"
    );
    assert_eq!(server.tool_calls().len(), 2);
}

#[test]
fn messages_and_apps_carry_their_tool_and_server_to_the_host() {
    use a2ui_catalog_mcp::mcp::Provenance;
    use a2ui_catalog_mcp::mcp::protocol;
    let messages = [json!({"createSurface": {"surfaceId": "board", "catalogId": "c"}})];
    let result = protocol::tool_result(
        &messages,
        &Default::default(),
        &a2ui_catalog_mcp::Limits::default(),
    )
    .unwrap();
    let server = ScriptedServer::from_json(&json!({
        "name": "kanban",
        "results": {
            "show_board": [result],
            "show_app": [{"content": [{"type": "resource", "resource": {
                "uri": "ui://app", "mimeType": "text/html;profile=mcp-app", "text": "<p/>"}}]}]
        }
    }))
    .unwrap();
    let apps = Arc::new(Mutex::new(Vec::new()));
    let seen = apps.clone();
    let audited = Arc::new(Mutex::new(Vec::new()));
    let log = audited.clone();
    let host = server
        .host()
        .with_app_callback(move |app| seen.lock().unwrap().push(app.source()))
        .with_audit(move |e: &AuditEvent| log.lock().unwrap().push(e.source.clone()));
    let env = Environment::new();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    let run = |tool: &str, invocation: a2ui_catalog_mcp::Invocation| {
        let payload = env
            .compile(&json!({"@call": "callMcpTool", "args": {"name": tool}}))
            .unwrap();
        block_on(payload.eval_async_from(&model, &root, &host, invocation)).unwrap();
    };
    let from_board = Provenance::new("show_board", Some("kanban".into()));
    run("show_board", Origin::Binding.into());
    run(
        "show_app",
        a2ui_catalog_mcp::Invocation::new(Origin::Action).with_source(from_board.clone()),
    );
    assert_eq!(server.message_sources(), std::slice::from_ref(&from_board));
    assert_eq!(server.messages().len(), 1);
    assert_eq!(
        *apps.lock().unwrap(),
        [Provenance::new("show_app", Some("kanban".into()))]
    );
    assert_eq!(*audited.lock().unwrap(), [None, Some(from_board)]);
}

#[test]
fn mcp_apps_visibility_is_enforced_for_apps_and_surfaces() {
    use a2ui_catalog_mcp::mcp::Visibility;
    use a2ui_catalog_mcp::mcp::app::McpAppProps;
    use a2ui_catalog_mcp::{Invocation, Limits, mcp::Provenance};
    let tools = json!([
        {"name": "refresh", "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "summarize", "_meta": {"ui": {"visibility": ["model"]}}},
        {"name": "search"}
    ]);
    let result = json!([{"content": [{"type": "text", "text": "ok"}]}]);
    let server = ScriptedServer::from_json(&json!({"name": "board", "tools": tools,
        "results": {"refresh": result, "summarize": result, "search": result}}))
    .unwrap();
    let audited = Arc::new(AtomicUsize::new(0));
    let count = audited.clone();
    let host = server.host().with_audit(move |e: &AuditEvent| {
        if e.outcome == a2ui_catalog_mcp::mcp::CallOutcome::Denied {
            count.fetch_add(1, Ordering::SeqCst);
        }
    });
    let limits = Limits::default();
    let app = McpAppProps::parse(
        &json!({"component": "McpApp", "htmlContent": "<p/>",
            "allowedTools": ["refresh", "summarize", "search"]}),
        &limits,
    )
    .unwrap();
    let call = |tool: &str, from: Option<&str>| {
        let source = from.map(|s| Provenance::new("show", Some(s.to_owned())));
        block_on(host.call_app_tool_from(&app, &json!({"name": tool}), &limits, source.as_ref()))
    };
    // An app may call what apps see; an app-only tool only on its own server.
    assert!(call("refresh", Some("board")).is_ok());
    assert!(call("search", Some("elsewhere")).is_ok());
    let cross = call("refresh", Some("elsewhere")).unwrap_err();
    assert_eq!(cross.denial(), Some(Denial::Visibility));
    assert!(cross.message().contains("server 'elsewhere'"), "{cross}");
    let unknown = call("refresh", None).unwrap_err();
    assert_eq!(unknown.denial(), Some(Denial::Visibility));
    let model_only = call("summarize", Some("board")).unwrap_err();
    assert_eq!(model_only.denial(), Some(Denial::Visibility));
    assert!(
        model_only.message().contains("does not include \"app\""),
        "{model_only}"
    );

    // A surface may not call an app-only tool unless the host says so.
    let payload = Environment::new()
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "refresh"}}))
        .unwrap();
    let model = SharedModel::new(json!({}));
    let root = JsonPointer::root();
    let tap =
        Invocation::new(Origin::Action).with_source(Provenance::new("show", Some("board".into())));
    let err = block_on(payload.eval_async_from(&model, &root, &host, tap.clone())).unwrap_err();
    assert_eq!(err.denial(), Some(Denial::Visibility));
    let lenient = server.host().with_app_only_tools_in_surfaces(true);
    assert!(block_on(payload.eval_async_from(&model, &root, &lenient, tap)).is_ok());
    assert_eq!(
        audited.load(Ordering::SeqCst),
        4,
        "each refusal audited as denied"
    );
    assert_eq!(server.tool_calls().len(), 3);

    // What the agent is shown.
    let listed: Vec<_> = Visibility::visible_to_model(tools.as_array().unwrap())
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(listed, [json!("summarize"), json!("search")]);
}

#[test]
fn unknown_csp_members_of_an_app_resource_are_reported() {
    use a2ui_catalog_mcp::mcp::app::Csp;
    let (csp, unknown) = Csp::from_resource(
        &json!({"resourceDomains": ["https://cdn.example.com"], "wasmUnsafeEval": true, "frameDomainz": []}),
    )
    .unwrap();
    assert_eq!(
        csp.resource_domains,
        Some(vec!["https://cdn.example.com".to_owned()])
    );
    assert_eq!(unknown, ["wasmUnsafeEval", "frameDomainz"]);
    let err = Csp::from_resource(&json!({"connectDomains": "x"})).unwrap_err();
    assert_eq!(err.location(), "/csp/connectDomains");
    assert!(Csp::from_resource(&json!([])).is_err());
}

#[cfg(feature = "json-schema")]
mod output_schema {
    use super::*;
    use a2ui_catalog_mcp::mcp::OutputSchemaCheck;

    fn server(schema: Value, results: Value) -> ScriptedServer {
        ScriptedServer::from_json(&json!({"name": "s",
            "tools": [{"name": "t", "outputSchema": schema}],
            "results": {"t": results}}))
        .unwrap()
    }

    fn run(host: &a2ui_catalog_mcp::mcp::McpHost) -> (Result<Value, Error>, Value) {
        let payload = Environment::new()
            .compile(
                &json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": "/out"}}),
            )
            .unwrap();
        let model = SharedModel::new(json!({}));
        let result = block_on(payload.eval_async(&model, &JsonPointer::root(), host));
        (result, model.into_inner())
    }

    const COUNT: &str =
        r#"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#;

    /// The three schemas the crate checks against assert `format` alike: a catalog document's
    /// argument schema (at compile time), an `McpApp`'s `allowedFunctions` and a tool's
    /// `outputSchema` all refuse `"soon"` as a `date` and take `"2026-12-04"`.
    #[test]
    fn formats_are_asserted_alike_in_the_three_schemas() {
        use a2ui_catalog_mcp::mcp::app::{FunctionCallDecision, McpAppProps};
        let date = json!({"type": "string", "format": "date"});

        let document = json!({"catalogId": "https://example.com/dates.json", "functions": {
            "due": {"returnType": "any", "properties": {"call": {"const": "due"},
                "args": {"properties": {"value": date}, "required": ["value"]}}}}});
        let mut catalog = Catalog::from_schema(&document).unwrap();
        catalog
            .implement_function("due", |args: &Args<'_>| {
                Ok(args.value_or_null("value").clone())
            })
            .unwrap();
        let env = Environment::new()
            .with_catalog(catalog)
            .with_default_catalog("https://example.com/dates.json");
        let compiles = |value: &str| {
            env.compile(&json!({"@call": "due", "args": {"value": value}}))
                .is_ok()
        };

        let props = McpAppProps::parse(
            &json!({"component": "McpApp", "htmlContent": "<p>", "allowedFunctions": {
                "due": {"type": "object", "properties": {"value": date}}}}),
            &a2ui_catalog_mcp::Limits::default(),
        )
        .unwrap();
        let app_allows = |value: &str| {
            let call = json!({"call": "due", "args": {"value": value}});
            matches!(
                props.check_function_call(&call).unwrap(),
                FunctionCallDecision::Allowed { .. }
            )
        };

        let tool_returns = |value: &str| {
            let s = server(
                json!({"type": "object", "properties": {"due": date}}),
                json!([{"content": [], "structuredContent": {"due": value}}]),
            );
            run(&s.host().with_output_schema(OutputSchemaCheck::Fail))
                .0
                .is_ok()
        };

        for (value, valid) in [("2026-12-04", true), ("soon", false)] {
            assert_eq!(compiles(value), valid, "catalog document, {value}");
            assert_eq!(app_allows(value), valid, "allowedFunctions, {value}");
            assert_eq!(tool_returns(value), valid, "outputSchema, {value}");
        }
    }

    #[test]
    fn a_mismatch_fails_the_call_or_is_dropped_with_a_warning() {
        let schema: Value = serde_json::from_str(COUNT).unwrap();
        let results = json!([
            {"content": [], "structuredContent": {"n": 1}},
            {"content": [], "structuredContent": {"n": "one"}},
            {"content": [{"type": "text", "text": "no"}], "isError": true}
        ]);
        let s = server(schema.clone(), results.clone());
        let host = s.host().with_output_schema(OutputSchemaCheck::Fail);
        let (ok, model) = run(&host);
        assert!(ok.is_ok());
        assert_eq!(model["out"]["structuredContent"], json!({"n": 1}));
        let (err, model) = run(&host);
        let err = err.unwrap_err();
        assert_eq!(err.denial(), Some(Denial::OutputSchema));
        assert!(err.message().contains("MCP tool 't'"), "{err}");
        assert!(err.message().contains("at /n"), "{err}");
        assert!(
            err.message().contains("schema path /properties/n/type"),
            "{err}"
        );
        assert_eq!(model, json!({}), "nothing written");
        // isError results are not checked: the tool's error is the answer.
        let (err, _) = run(&host);
        assert!(err.unwrap_err().message().contains("returned an error"));

        let s = server(schema, results);
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let log = warnings.clone();
        let host = s
            .host()
            .with_output_schema(OutputSchemaCheck::Drop)
            .with_audit(move |e: &AuditEvent| log.lock().unwrap().push(e.warnings.clone()));
        run(&host).0.unwrap();
        let (dropped, model) = run(&host);
        dropped.unwrap();
        assert!(model["out"].get("structuredContent").is_none(), "{model}");
        assert!(
            model["out"]["toolResult"]
                .get("structuredContent")
                .is_none()
        );
        let warnings = warnings.lock().unwrap();
        assert!(warnings[0].is_empty());
        assert_eq!(warnings[1].len(), 1);
        assert!(
            warnings[1][0].starts_with("structuredContent dropped: "),
            "{:?}",
            warnings[1]
        );
    }

    #[test]
    fn any_json_value_is_structured_content() {
        for (schema, content) in [
            (
                json!({"type": "array", "items": {"type": "string"}}),
                json!(["a", "b"]),
            ),
            (json!({"type": "string"}), json!("text")),
            (json!({"type": "number"}), json!(3.5)),
            (json!({"type": "null"}), Value::Null),
        ] {
            let s = server(
                schema,
                json!([{"content": [], "structuredContent": content}]),
            );
            let host = s.host().with_output_schema(OutputSchemaCheck::Fail);
            let (result, model) = run(&host);
            result.unwrap();
            assert_eq!(model["out"]["structuredContent"], content);
        }
        // Without the check, anything a tool returns is kept as it came.
        let s = server(
            json!({"type": "string"}),
            json!([{"content": [], "structuredContent": [1]}]),
        );
        let (result, model) = run(&s.host());
        result.unwrap();
        assert_eq!(model["out"]["structuredContent"], json!([1]));
    }

    #[test]
    fn bad_schemas_and_deep_content_are_clear_errors_naming_the_tool() {
        let big: Vec<String> = (0..40_000).map(|i| format!("value{i}")).collect();
        let cases = [
            (json!("object"), "object or a boolean"),
            (json!({"$ref": "#"}), "$ref cycle"),
            (
                json!({"$ref": "https://example.com/s.json"}),
                "Retrieval is disabled",
            ),
            (json!({"type": "whatever"}), "not a valid JSON Schema"),
            (json!({"enum": big}), "larger than 262144 bytes"),
        ];
        for (schema, why) in cases {
            let s = server(schema, json!([{"content": [], "structuredContent": {}}]));
            for mode in [OutputSchemaCheck::Fail, OutputSchemaCheck::Drop] {
                let (result, model) = run(&s.host().with_output_schema(mode));
                let err = result.unwrap_err();
                assert!(
                    err.message().contains("outputSchema of MCP tool 't'"),
                    "{err}"
                );
                assert!(err.message().contains(why), "{why}: {err}");
                assert_eq!(model, json!({}));
            }
        }
        let mut deep = json!(1);
        for _ in 0..128 {
            deep = json!({"a": deep});
        }
        let s = server(
            json!({}),
            json!([{"content": [], "structuredContent": deep}]),
        );
        let (result, _) = run(&s.host().with_output_schema(OutputSchemaCheck::Fail));
        let err = result.unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        assert!(err.message().contains("MCP tool 't'"), "{err}");
    }
}

#[test]
fn a_thousand_concurrent_calls_of_mixed_origins_are_each_decided_by_their_own() {
    use a2ui_catalog_mcp::mcp::{CallOutcome, ReadOnlyUnlessUserAction};
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};
    const CALLS: usize = 1000;
    let server = github();
    server.hold_calls();
    let events = Arc::new(Mutex::new(Vec::new()));
    let log = events.clone();
    let host = server
        .host()
        .with_policy(ReadOnlyUnlessUserAction::trusting_every_server())
        .with_audit(move |e: &AuditEvent| log.lock().unwrap().push((e.origin, e.outcome.clone())));
    let close = tool_call("close_issue");
    let model = SharedModel::new(json!({"confirm": true}));
    let root = JsonPointer::root();
    // The agent may not call callMcpTool at all (rendererOnly): three renderer origins.
    let origins = [Origin::Binding, Origin::Action, Origin::App];
    type Eval<'a> = Pin<Box<dyn Future<Output = Result<Value, Error>> + Send + 'a>>;
    let mut pending: Vec<(Origin, Eval<'_>)> = (0..CALLS)
        .map(|i| {
            let origin = origins[i % origins.len()];
            (
                origin,
                Box::pin(close.eval_async_from(&model, &root, &host, origin)) as Eval<'_>,
            )
        })
        .collect();
    // One round: the taps reach the (held) server, the others are denied at once.
    let mut results: Vec<(Origin, Result<Value, Error>)> = Vec::new();
    pending.retain_mut(|(origin, f)| {
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(r) => {
                results.push((*origin, r));
                false
            }
            Poll::Pending => true,
        }
    });
    let taps = (0..CALLS).filter(|i| i % 3 == 1).count();
    assert_eq!(pending.len(), taps);
    assert!(pending.iter().all(|(o, _)| *o == Origin::Action));
    assert_eq!(server.held_calls(), taps);
    for i in 0..taps {
        server.release(i);
    }
    for (origin, f) in pending {
        results.push((origin, block_on(f)));
    }
    for (origin, result) in &results {
        match origin {
            Origin::Action => assert!(result.is_ok()),
            _ => assert_eq!(result.as_ref().unwrap_err().denial(), Some(Denial::Policy)),
        }
    }
    let events = events.lock().unwrap();
    assert_eq!(events.len(), CALLS, "every call audited once");
    for origin in origins {
        let of = |outcome: CallOutcome| {
            events
                .iter()
                .filter(|(o, out)| *o == origin && *out == outcome)
                .count()
        };
        let n = (0..CALLS).filter(|i| origins[i % 3] == origin).count();
        if origin == Origin::Action {
            assert_eq!(of(CallOutcome::Ok) + of(CallOutcome::Superseded), n);
        } else {
            assert_eq!(of(CallOutcome::Denied), n, "{origin}");
        }
    }
    assert_eq!(server.tool_calls().len(), taps);
}
