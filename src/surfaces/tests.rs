use super::graph::slot_pointer;
use super::processor::*;
use super::schema::{Kind, check_prop, children_of, read_components};
use super::*;
use crate::env::Environment;
use crate::error::{Error, ErrorCode};
use crate::path::JsonPointer;
use crate::stream::{Category, Version};
use serde_json::{Value, json};

#[test]
fn slots_become_pointers() {
    assert_eq!(slot_pointer("children[2]"), "children/2");
    assert_eq!(slot_pointer("tabs[0].child"), "tabs/0/child");
    assert_eq!(slot_pointer("child"), "child");
}

#[test]
fn schemas_are_read_from_the_forms_catalogs_use() {
    let types = read_components(
        json!({
            "Tabs": {"allOf": [{"$ref": "common_types.json#/$defs/Checkable"}, {"properties": {
                "component": {"const": "Tabs"},
                "tabs": {"type": "array", "items": {"type": "object", "properties": {"child": {"$ref": "common_types.json#/$defs/Child"}}}},
                "size": {"type": "integer"},
                "mode": {"enum": ["a", "b"]},
                "when": {"allOf": [{"$ref": "common_types.json#/$defs/DynamicString"}, {"if": {}}]}
            }, "required": ["component", "tabs"]}]}
        })
        .as_object()
        .unwrap(),
    )
    .unwrap();
    let tabs = &types["Tabs"];
    assert!(tabs.checkable);
    assert_eq!(tabs.required, ["tabs"]);
    assert_eq!(tabs.props["tabs"], Kind::ChildArray("child".into()));
    assert_eq!(tabs.props["when"], Kind::DynString);
    assert!(check_prop("/x", "Tabs", "size", &tabs.props["size"], &json!(1.5)).is_err());
    assert!(check_prop("/x", "Tabs", "size", &tabs.props["size"], &json!(2)).is_ok());
    assert!(check_prop("/x", "Tabs", "mode", &tabs.props["mode"], &json!("c")).is_err());
    assert!(
        check_prop(
            "/x",
            "Tabs",
            "when",
            &tabs.props["when"],
            &json!({"path": "/w"})
        )
        .is_ok()
    );
    let props = json!({"tabs": [{"child": "a"}, {"child": "b"}]});
    let children = children_of(props.as_object().unwrap(), Some(tabs));
    assert_eq!(
        children[1],
        ("b".to_owned(), "tabs[1].child".to_owned(), false)
    );
}

#[test]
fn catalogs_by_version_and_capabilities() {
    let mut p = Processor::new(ProcessorOptions::default());
    p.register_catalog(&json!({"catalogId": "ten", "protocolVersion": "v1.0", "components": {}}))
        .unwrap();
    p.register_catalog(&json!({"catalogId": "nine", "protocolVersion": "v0.9", "components": {}}))
        .unwrap();
    let v1 = p.supported_catalog_ids(Version::V1_0);
    assert!(v1.contains(&"ten") && !v1.contains(&"nine") && v1.contains(&crate::MCP_CATALOG_ID));
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "ten", "sendDataModel": true, "dataModel": {"a": 1}}}))
        .unwrap();
    assert_eq!(
        p.data_models(Version::V1_0),
        Some(json!({"version": "1.0", "surfaces": {"s": {"a": 1}}}))
    );
    assert_eq!(p.data_models(Version::V0_9), None);
    // A component naming a catalog of another protocol version.
    let err = p
        .process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "X", "catalogId": "nine"}]}}),
        )
        .unwrap_err();
    assert_eq!(err.category(), Category::Catalog);
    assert_eq!(err.location(), "/updateComponents/components/0/catalogId");
    // The suite's words: from the surface, a catalog of another version is not there.
    assert!(
        err.message()
            .starts_with("Catalog not found for surface 's'"),
        "{err}"
    );
}

/// A processor whose catalog "media" has `play` (agent or renderer), `reset` (renderer only,
/// the default), `sync` (agent only), `open` (the renderer, with user activation), `fail`
/// (agent, always fails) and `write` (agent, writes the data model); each records its runs.
fn rpc_processor() -> (Processor, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use crate::catalog::{ArgSchema, Args, Catalog};
    use crate::origin::{Access, AllowedCallers};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = |runs: &Arc<AtomicUsize>, f: fn(&Args<'_>) -> Result<Value, Error>| {
        let runs = runs.clone();
        move |args: &Args<'_>| {
            runs.fetch_add(1, Ordering::SeqCst);
            f(args)
        }
    };
    let mut catalog = Catalog::new("media")
        .with_function(
            "play",
            ArgSchema::new().required("mediaId").optional("autoplay"),
            counted(&runs, |args| {
                Ok(json!({"playing": args.value_or_null("autoplay") == &json!(true), "id": args.value_or_null("mediaId")}))
            }),
        )
        .with_function("reset", ArgSchema::new(), counted(&runs, |_| Ok(json!("reset"))))
        .with_function("sync", ArgSchema::new(), counted(&runs, |_| Ok(Value::Null)))
        .with_function("open", ArgSchema::new(), counted(&runs, |_| Ok(json!(true))))
        .with_function(
            "fail",
            ArgSchema::new(),
            counted(&runs, |_| Err(Error::new(ErrorCode::ExpressionError, "disk on fire"))),
        );
    let agent = Access::new(AllowedCallers::RendererOrAgent, false);
    catalog.set_access("play", agent).unwrap();
    catalog.set_access("fail", agent).unwrap();
    catalog
        .set_access("sync", Access::new(AllowedCallers::AgentOnly, false))
        .unwrap();
    catalog
        .set_access("open", Access::new(AllowedCallers::RendererOnly, true))
        .unwrap();
    let mut env = Environment::new();
    env.add_catalog(catalog);
    (
        Processor::with_environment(env, ProcessorOptions::default()),
        runs,
    )
}

fn call_renderer(p: &mut Processor, id: &str, call: Value) -> RendererFunctionCall {
    match p.process(&json!({"version": "v1.0", "callRendererFunction": {"functionCallId": id, "callFunction": call}})) {
        Ok(Applied::RendererFunction(done)) => done,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_agent_calls_a_renderer_function_and_gets_its_value_back() {
    use std::sync::atomic::Ordering;
    let (mut p, runs) = rpc_processor();
    let done = call_renderer(
        &mut p,
        "c1",
        json!({"call": "play", "catalogId": "media", "args": {"mediaId": "v7", "autoplay": true}}),
    );
    assert_eq!(
        done.response(),
        json!({"version": "1.0", "rendererFunctionResponse": {"functionCallId": "c1", "value": {"playing": true, "id": "v7"}}})
    );
    assert_eq!(done.detail, None);
    let done = call_renderer(&mut p, "c2", json!({"call": "sync", "catalogId": "media"}));
    assert_eq!(done.outcome, Ok(Value::Null));
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[test]
fn a_renderer_function_the_catalog_keeps_from_the_agent_is_refused_and_never_runs() {
    use std::sync::atomic::Ordering;
    let (mut p, runs) = rpc_processor();
    let refused = |p: &mut Processor, call: Value| {
        let done = call_renderer(p, "c", call);
        let (code, message) = done.outcome.clone().unwrap_err();
        assert_eq!(code, INVALID_FUNCTION_CALL, "{message}");
        assert_eq!(
            done.response()["rendererFunctionResponse"]["error"],
            json!({"code": code, "message": message})
        );
        message
    };
    assert_eq!(
        refused(&mut p, json!({"call": "reset", "catalogId": "media"})),
        "Function 'reset' cannot be called by agent (allowedCallers is rendererOnly)."
    );
    assert_eq!(
        refused(&mut p, json!({"call": "open", "catalogId": "media"})),
        "Function 'open' cannot be called by agent (allowedCallers is rendererOnly)."
    );
    // Nested in an allowed call's arguments: the evaluator refuses it too.
    let nested = refused(
        &mut p,
        json!({"call": "play", "catalogId": "media", "args": {"mediaId": {"call": "reset", "catalogId": "media"}}}),
    );
    assert!(
        nested.contains("'reset'") && nested.contains("the agent"),
        "{nested}"
    );
    // A nested call does not borrow the outer call's catalog.
    assert_eq!(
        refused(
            &mut p,
            json!({"call": "play", "catalogId": "media", "args": {"mediaId": {"call": "sync"}}})
        ),
        "a call in the arguments of 'play' names no catalogId, and an agent's call has no default catalog"
    );
    assert_eq!(
        refused(&mut p, json!({"call": "nope", "catalogId": "media"})),
        "Function not found: nope"
    );
    assert_eq!(
        refused(&mut p, json!({"call": "play", "catalogId": "elsewhere"})),
        "Catalog not found: elsewhere"
    );
    assert!(refused(&mut p, json!({"call": "play"})).contains("catalogId"));
    // A literal argument the function does not declare fails to compile.
    assert!(
        refused(
            &mut p,
            json!({"call": "play", "catalogId": "media", "args": {"mediaId": 1, "volume": 3}})
        )
        .contains("volume")
    );
    // An agent's call has no surface to write to.
    let write = refused(
        &mut p,
        json!({"call": "updateDataModel", "catalogId": crate::MCP_CATALOG_ID, "args": {"updates": {"x": 1}}}),
    );
    assert!(write.contains("updateDataModel"), "{write}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_failing_renderer_function_is_an_execution_error_whose_detail_stays_with_the_host() {
    let (mut p, _) = rpc_processor();
    let done = call_renderer(&mut p, "c9", json!({"call": "fail", "catalogId": "media"}));
    assert_eq!(
        done.response()["rendererFunctionResponse"],
        json!({"functionCallId": "c9", "error": {"code": "EXECUTION_ERROR", "message": "An error occurred during function execution."}})
    );
    assert!(done.detail.unwrap().contains("disk on fire"));
}

#[test]
fn a_call_renderer_function_without_its_call_or_id_is_a_located_error() {
    let (mut p, _) = rpc_processor();
    let e = p
        .process(&json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c"}}))
        .unwrap_err();
    assert_eq!(e.location(), "/callRendererFunction");
    assert!(e.message().contains("callFunction"), "{e}");
    let e = p
        .process(&json!({"version": "v1.0", "callRendererFunction": {"callFunction": {"call": "play", "catalogId": "media"}}}))
        .unwrap_err();
    assert!(e.message().contains("functionCallId"), "{e}");
    let e = p
        .process(&json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c", "callFunction": "play"}}))
        .unwrap_err();
    assert_eq!(e.location(), "/callRendererFunction/callFunction");
    // The older message carries the call itself, and may leave the catalog to the
    // renderer's default.
    let older = p
        .process(&json!({"functionCallId": "o", "callFunction": {"@call": "split", "args": {"value": "a b", "separator": " "}}}))
        .unwrap();
    let Applied::RendererFunction(older) = older else {
        panic!("{older:?}")
    };
    // Found in the default catalog (the MCP catalog), whose split is the renderer's only.
    assert_eq!(
        older.outcome.unwrap_err(),
        (
            INVALID_FUNCTION_CALL.to_owned(),
            "Function 'split' cannot be called by agent (allowedCallers is rendererOnly)."
                .to_owned()
        )
    );
    let older = p
        .process(
            &json!({"functionCallId": "o", "callFunction": {"call": "sync", "catalogId": "media"}}),
        )
        .unwrap();
    assert!(matches!(
        older,
        Applied::RendererFunction(RendererFunctionCall {
            outcome: Ok(Value::Null),
            ..
        })
    ));
}

#[test]
fn an_agent_function_response_is_matched_to_the_call_waiting_for_it() {
    let (mut p, _) = rpc_processor();
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "media", "dataModel": {"q": "ITEM"}}}))
        .unwrap();
    let sent = p
        .call_agent_function("s", "a1", &json!({"call": "query", "catalogId": "store", "args": {"sku": {"path": "/q"}, "n": 2}}))
        .unwrap();
    assert_eq!(
        sent,
        json!({"version": "1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "a1",
            "callFunction": {"call": "query", "catalogId": "store", "args": {"sku": "ITEM", "n": 2}}}})
    );
    assert!(
        p.call_agent_function("s", "a1", &json!({"call": "query"}))
            .is_err()
    );
    assert!(
        p.call_agent_function("gone", "a2", &json!({"call": "query"}))
            .is_err()
    );
    let answer = |p: &mut Processor, body: Value| match p
        .process(&json!({"version": "v1.0", "agentFunctionResponse": body}))
    {
        Ok(Applied::AgentFunctionResponse(r)) => r,
        other => panic!("{other:?}"),
    };
    let r = answer(
        &mut p,
        json!({"functionCallId": "a1", "error": {"code": "X", "message": "no"}}),
    );
    assert_eq!(
        (r.surface_id.as_deref(), r.outcome),
        (Some("s"), Err(("X".into(), "no".into())))
    );
    // Answered once: the same id again matches nothing.
    let r = answer(&mut p, json!({"functionCallId": "a1", "value": 1}));
    assert_eq!((r.surface_id, r.outcome), (None, Ok(json!(1))));
    for bad in [
        json!({"value": 1}),
        json!({"functionCallId": "a1"}),
        json!({"functionCallId": "a1", "value": 1, "error": {"code": "X", "message": "m"}}),
    ] {
        assert!(
            p.process(&json!({"version": "v1.0", "agentFunctionResponse": bad}))
                .is_err()
        );
    }
    // Located under the key the message used.
    let e = p
        .process(&json!({"actionResponse": {"functionCallId": "a1", "error": {"code": 1}}}))
        .unwrap_err();
    assert_eq!(e.location(), "/actionResponse/error");
}

#[test]
fn index_in_the_root_component_is_refused_where_it_is_sent() {
    let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
    let e = p
        .process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "components": [{"id": "root", "component": "Text", "text": {"call": "@index", "args": {"offset": 1}}}]}}))
        .unwrap_err();
    assert_eq!(e.category(), Category::Validation);
    assert_eq!(e.location(), "/createSurface/components/0/text");
    assert!(e.message().contains("@index"), "{e}");
    assert!(p.surface("s").is_none());
    // In a row template it is what numbers the rows.
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
        "dataModel": {"rows": ["a", "b"]},
        "components": [{"id": "root", "component": "List", "children": {"componentId": "n", "path": "/rows"}},
            {"id": "n", "component": "Text", "text": {"call": "@index", "args": {"offset": 1}}}]}}))
        .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    let numbers: Vec<&Value> = tree
        .nodes
        .iter()
        .filter_map(|n| n.props.get("text"))
        .collect();
    assert_eq!(numbers, [&json!(1), &json!(2)]);
}

/// Issue 34, item 6: `${@index()}` in the root's formatString was accepted where a bare
/// `@index` is refused; in a row it numbers the rows.
#[cfg(feature = "basic-catalog")]
#[test]
fn index_in_the_roots_format_string_is_refused_where_it_is_sent() {
    use crate::basic::{BASIC_CATALOG_ID, BasicCatalog};
    let mut env = Environment::new();
    env.add_catalog(BasicCatalog::new().build());
    let mut p = Processor::with_environment(
        env,
        ProcessorOptions::default().with_accept_unregistered_catalogs(true),
    );
    let create = |components: Value| {
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC_CATALOG_ID,
            "dataModel": {"rows": ["a", "b"]}, "components": components}})
    };
    let label = json!({"call": "formatString", "args": {"value": "row ${@index()}"}});
    let e = p
        .process(&create(
            json!([{"id": "root", "component": "Text", "text": label}]),
        ))
        .unwrap_err();
    assert_eq!(e.category(), Category::Validation);
    assert_eq!(e.location(), "/createSurface/components/0/text/args/value");
    assert!(e.message().contains("${@index()}"), "{e}");
    assert!(p.surface("s").is_none());
    p.process(&create(json!([
        {"id": "root", "component": "List", "children": {"componentId": "n", "path": "/rows"}},
        {"id": "n", "component": "Text", "text": label}])))
        .unwrap();
    let tree = p.surface("s").unwrap().resolve(ResolveLimits::default());
    let rows: Vec<&Value> = tree
        .nodes
        .iter()
        .filter_map(|n| n.props.get("text"))
        .collect();
    assert_eq!(rows, [&json!("row 0"), &json!("row 1")]);
}

#[test]
fn a_tool_result_cannot_call_renderer_functions() {
    use crate::mcp::MessageSink;
    use std::sync::atomic::Ordering;
    let (p, runs) = rpc_processor();
    let shared = SharedProcessor::new(p);
    let call = json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c",
        "callFunction": {"call": "play", "catalogId": "media", "args": {"mediaId": "m"}}}});
    shared.process_from(
        vec![
            call.clone(),
            json!({"functionCallId": "d", "callFunction": {"call": "sync", "catalogId": "media"}}),
        ],
        &crate::origin::Provenance::new("tool", None),
    );
    shared.process(vec![call]);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // Nor answer the renderer's calls in the agent's place.
    shared.with(|p| {
        p.process(
            &json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "media"}}),
        )
        .unwrap();
        p.call_agent_function("s", "q", &json!({"call": "ask"}))
            .unwrap();
    });
    shared.process(vec![
        json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "q", "value": 1}}),
    ]);
    let answer = shared.with(|p| p.process(&json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "q", "value": 2}})));
    assert!(
        matches!(
            answer,
            Ok(Applied::AgentFunctionResponse(AgentFunctionResponse {
                surface_id: Some(_),
                ..
            }))
        ),
        "the agent's own answer still finds the call: {answer:?}"
    );
    let errors = shared.take_errors();
    assert_eq!(
        errors
            .iter()
            .map(|e| (e.message_index().unwrap(), e.location()))
            .collect::<Vec<_>>(),
        [
            (0, "/callRendererFunction"),
            (1, "/callFunction"),
            (2, "/callRendererFunction"),
            (4, "/agentFunctionResponse")
        ]
    );
    assert!(errors[0].message().contains("tool"), "{}", errors[0]);
}

/// The published v1.0 schemas say `"version": {"const": "1.0"}` for every message and key
/// capabilities `"1.0"`: every message the processor writes says so, whichever spelling the
/// agent's messages used.
#[test]
fn every_message_the_processor_writes_says_version_1_0() {
    let (mut p, _) = rpc_processor();
    p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "media", "sendDataModel": true,
        "components": [{"id": "root", "component": "Button", "action": {"event": {"name": "go"}}}]}}))
        .unwrap();
    let err = p
        .process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "x", "value": 1}}))
        .unwrap_err();
    assert_eq!(super::agent_error_message(&err)["version"], "1.0");
    let done = p
        .activate("s", "root", &JsonPointer::root(), "2026-12-07T00:00:00Z")
        .unwrap();
    assert_eq!(done.message.unwrap()["version"], "1.0");
    assert_eq!(done.data_model.unwrap()["version"], "1.0");
    let call = call_renderer(&mut p, "c1", json!({"call": "sync", "catalogId": "media"}));
    assert_eq!(call.response()["version"], "1.0");
    let sent = p
        .call_agent_function("s", "a1", &json!({"call": "query", "catalogId": "store"}))
        .unwrap();
    assert_eq!(sent["version"], "1.0");
    let caps = p.capabilities(Version::V1_0);
    assert_eq!(
        caps.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["1.0"]
    );
    // The older lines keep their own spelling.
    assert!(p.capabilities(Version::V0_9).get("v0.9").is_some());
}

/// A catalog with a Button whose action is the common `Action`, a Text with accessibility, and
/// an `agentOnly` function.
fn november_processor(options: ProcessorOptions) -> Processor {
    use crate::catalog::{ArgSchema, Catalog};
    use crate::origin::{Access, AllowedCallers};
    let mut env = Environment::new();
    let mut host = Catalog::new("host").with_function(
        "secret",
        ArgSchema::new(),
        |_: &crate::catalog::Args<'_>| Ok(json!("s")),
    );
    host.set_access("secret", Access::new(AllowedCallers::AgentOnly, false))
        .unwrap();
    env.add_catalog(host);
    let mut p = Processor::with_environment(env, options);
    p.register_catalog(&json!({"catalogId": "host", "protocolVersion": "1.0", "components": {
        "Button": {"properties": {"component": {"const": "Button"}, "child": {"$ref": "common_types.json#/$defs/ComponentId"},
            "action": {"$ref": "common_types.json#/$defs/Action"}}, "required": ["component", "action"]},
        "Text": {"properties": {"component": {"const": "Text"}, "text": {"$ref": "common_types.json#/$defs/DynamicString"}},
            "required": ["component", "text"]}}}))
        .unwrap();
    p.process(&json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": "host"}}))
        .unwrap();
    p
}

fn update(p: &mut Processor, component: Value) -> Result<Applied, Error> {
    p.process(&json!({"version": "1.0", "updateComponents": {"surfaceId": "s", "components": [component]}}))
}

#[test]
fn an_agent_only_function_is_refused_in_a_component_when_it_arrives() {
    let mut p = november_processor(ProcessorOptions::default());
    for value in [
        json!({"call": "secret"}),
        json!({"@call": "secret"}),
        json!({"call": "split", "catalogId": crate::MCP_CATALOG_ID, "args": {"value": {"call": "secret"}, "separator": ","}}),
    ] {
        let err = update(
            &mut p,
            json!({"id": "root", "component": "Text", "text": value.clone()}),
        )
        .unwrap_err();
        assert!(
            err.location()
                .starts_with("/updateComponents/components/0/text"),
            "{err}"
        );
        assert!(
            err.message().contains("allowedCallers 'agentOnly'"),
            "{value}: {err}"
        );
    }
    assert!(p.surface("s").unwrap().component("root").is_none());
    // The agent may still call it.
    let done = match p.process(
        &json!({"version": "1.0", "callRendererFunction": {"functionCallId": "c",
        "callFunction": {"call": "secret", "catalogId": "host"}}}),
    ) {
        Ok(Applied::RendererFunction(done)) => done,
        other => panic!("{other:?}"),
    };
    assert_eq!(done.outcome, Ok(json!("s")));
}

#[test]
fn an_action_is_an_event_or_a_function_call() {
    let mut p = november_processor(ProcessorOptions::default());
    let button = |action: Value| json!({"id": "root", "component": "Button", "action": action});
    for (action, at, says) in [
        (json!({"@call": "split", "args": {}}), "", "bare call"),
        (json!({"call": "split"}), "", "bare call"),
        (json!({"name": "go"}), "", "under \"event\""),
        (json!({}), "", "no key"),
        (
            json!({"event": {"name": "go"}, "functionCall": {"call": "x"}}),
            "",
            "not both",
        ),
        (
            json!({"event": {"name": "go"}, "extra": 1}),
            "/extra",
            "nothing beside",
        ),
        (json!({"event": {}}), "/event", "needs a 'name'"),
        (
            json!({"event": {"name": 3}}),
            "/event/name",
            "must be a string",
        ),
        (
            json!({"event": {"name": "go", "context": []}}),
            "/event/context",
            "must be an object",
        ),
        (
            json!({"functionCall": "split"}),
            "/functionCall",
            "call object",
        ),
        (json!("go"), "", "got a string"),
    ] {
        let err = update(&mut p, button(action.clone())).unwrap_err();
        assert_eq!(
            err.location(),
            format!("/updateComponents/components/0/action{at}"),
            "{action}: {err}"
        );
        assert!(err.message().contains(says), "{action}: {err}");
    }
    update(
        &mut p,
        button(json!({"event": {"name": "go", "context": {"q": {"path": "/q"}}}})),
    )
    .unwrap();
    update(
        &mut p,
        button(
            json!({"functionCall": {"call": "split", "catalogId": crate::MCP_CATALOG_ID,
        "args": {"value": "a", "separator": ","}}}),
        ),
    )
    .unwrap();
}

#[test]
fn accessibility_holds_dynamic_values() {
    // On a surface of the `@` spelling a plain `{"path": …}` is a literal object: not a boolean.
    let mut at = november_processor(ProcessorOptions::default());
    let err = update(
        &mut at,
        json!({"id": "root", "component": "Text", "text": {"@path": "/t"},
        "accessibility": {"hidden": {"path": "/h"}}}),
    )
    .unwrap_err();
    assert_eq!(
        err.location(),
        "/updateComponents/components/0/accessibility/hidden"
    );
    let mut p = november_processor(ProcessorOptions::default());
    let text =
        |key: &str, a11y: Value| json!({"id": "root", "component": "Text", "text": "x", key: a11y});
    update(
        &mut p,
        text(
            "accessibility",
            json!({"hidden": {"path": "/h"}, "label": {"path": "/l"}, "live": "polite"}),
        ),
    )
    .unwrap();
    update(&mut p, text("@accessibility", json!({"hidden": true}))).unwrap();
    for (key, a11y, at) in [
        (
            "accessibility",
            json!({"hidden": "yes"}),
            "/accessibility/hidden",
        ),
        (
            "@accessibility",
            json!({"hidden": 1}),
            "/@accessibility/hidden",
        ),
        (
            "accessibility",
            json!({"live": "loud"}),
            "/accessibility/live",
        ),
        (
            "accessibility",
            json!({"role": "button"}),
            "/accessibility/role",
        ),
        ("accessibility", json!([]), "/accessibility"),
        (
            "@accessibility",
            json!({"hidden": {"path": 3}}),
            "/@accessibility/hidden",
        ),
        (
            "accessibility",
            json!({"hidden": {"call": "secret"}}),
            "/accessibility/hidden",
        ),
    ] {
        let err = update(&mut p, text(key, a11y.clone()))
            .map(|_| panic!("{a11y} accepted"))
            .unwrap_err();
        assert_eq!(
            err.location(),
            format!("/updateComponents/components/0{at}"),
            "{a11y}: {err}"
        );
    }
}

#[test]
fn a_catalog_does_not_ref_another_catalog() {
    let mut p = Processor::new(ProcessorOptions::default());
    let err = p
        .register_catalog(&json!({"catalogId": "mine", "components": {
            "Text": {"$ref": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json#/components/Text"}}}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::CatalogError);
    assert!(err.message().contains("at /components/Text"), "{err}");
    assert!(
        err.message().contains("does not $ref other catalogs"),
        "{err}"
    );
    // The common types and the document's own definitions are still referenced.
    p.register_catalog(&json!({"catalogId": "mine", "$defs": {"T": {"properties": {"component": {"const": "T"}}}},
        "components": {"T": {"$ref": "#/$defs/T"},
            "U": {"properties": {"component": {"const": "U"}, "text": {"$ref": "common_types.json#/$defs/DynamicString"}}}}}))
        .unwrap();
}

/// Issue 36, item 4: one spelling per surface. A surface written with `@` reads a plain
/// `{"path": …}` as a literal, with `OTHER_SPELLING` at its location (a tool's own argument
/// named `path` is sent as written); a surface written only in the plain spelling reads it as
/// a binding; a plain surface that receives `@` values reads them and is warned once.
#[test]
fn a_surface_reads_one_spelling() {
    use crate::syntax::Spelling;
    let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
    let tool = |id: &str, spelling_at: bool| {
        let (call, path) = if spelling_at {
            ("@call", "@path")
        } else {
            ("call", "path")
        };
        json!({"version": "1.0", "createSurface": {"surfaceId": id, "catalogId": "c",
            "dataModel": {"dir": "/home"},
            "components": [{"id": "root", "component": "Text",
                "text": {call: "split", "catalogId": crate::MCP_CATALOG_ID,
                    "args": {"value": {path: "/dir"}, "separator": "/"}},
                "tool": {"arguments": {"path": "/docs"}}}]}})
    };
    p.process(&tool("at", true)).unwrap();
    p.process(&tool("plain", false)).unwrap();
    let at = p.surface("at").unwrap();
    assert_eq!(at.spelling(), Some(Spelling::At));
    let literal = at.component("root").unwrap().compiled("tool");
    assert!(literal.is_some_and(|payload| payload.dependencies(&JsonPointer::root()).is_empty()));
    let plain = p.surface("plain").unwrap();
    assert_eq!(plain.spelling(), Some(Spelling::Plain));
    let bound = plain.component("root").unwrap().compiled("tool").unwrap();
    assert_eq!(
        bound.dependencies(&JsonPointer::root()),
        [JsonPointer::parse("/docs").unwrap()]
    );
    let warnings = p.take_warnings();
    let seen: Vec<(usize, &str, &str)> = warnings
        .iter()
        .map(|w| {
            (
                w.message_index().unwrap(),
                w.surface_id().unwrap(),
                w.location(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [(0, "at", "/createSurface/components/0/tool/arguments")]
    );
    assert_eq!(warnings[0].code(), crate::error::WarningCode::OtherSpelling);
    // A plain surface that gets `@` values reads them, warned once per surface.
    let update = |n: usize| {
        json!({"version": "1.0", "updateComponents": {"surfaceId": "plain", "components": [
        {"id": format!("t{n}"), "component": "Text", "text": {"@path": "/dir"}}]}})
    };
    p.process(&update(1)).unwrap();
    p.process(&update(2)).unwrap();
    let warnings = p.take_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        (warnings[0].message_index().unwrap(), warnings[0].location()),
        (2, "/updateComponents/components/0/text")
    );
    assert_eq!(
        p.surface("plain").unwrap().spelling(),
        Some(Spelling::Plain)
    );
    // A surface whose first components hold no binding or call stays undecided; a failed
    // message decides nothing and warns nothing.
    p.process(
        &json!({"version": "1.0", "createSurface": {"surfaceId": "later", "catalogId": "c",
        "components": [{"id": "root", "component": "Text", "text": "hi"}]}}),
    )
    .unwrap();
    assert_eq!(p.surface("later").unwrap().spelling(), None);
    // Before v1.0 every value is plain.
    p.process(&json!({"version": "v0.9", "createSurface": {"surfaceId": "old", "catalogId": "c"}}))
        .unwrap();
    p.process(
        &json!({"version": "v0.9", "updateComponents": {"surfaceId": "old", "components": [
        {"id": "root", "component": "Text", "text": {"path": "/x"}}]}}),
    )
    .unwrap();
    assert_eq!(p.surface("old").unwrap().spelling(), Some(Spelling::Plain));
    assert!(p.take_warnings().is_empty());
}
