use super::graph::slot_pointer;
use super::schema::{Kind, check_prop, children_of, read_components};
use super::*;

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
        Some(json!({"version": "v1.0", "surfaces": {"s": {"a": 1}}}))
    );
    assert_eq!(p.data_models(Version::V0_9), None);
    // A component naming a catalog of another protocol version.
    let err = p
        .process(
            &json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
            {"id": "root", "component": "X", "catalogId": "nine"}]}}),
        )
        .unwrap_err();
    assert_eq!(err.error.category, Category::Catalog);
    assert_eq!(
        err.error.pointer,
        "/updateComponents/components/0/catalogId"
    );
    // The suite's words: from the surface, a catalog of another version is not there.
    assert!(
        err.error
            .message
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
        json!({"version": "v1.0", "rendererFunctionResponse": {"functionCallId": "c1", "value": {"playing": true, "id": "v7"}}})
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
    assert_eq!(e.error.pointer, "/callRendererFunction");
    assert!(e.error.message.contains("callFunction"), "{e}");
    let e = p
        .process(&json!({"version": "v1.0", "callRendererFunction": {"callFunction": {"call": "play", "catalogId": "media"}}}))
        .unwrap_err();
    assert!(e.error.message.contains("functionCallId"), "{e}");
    let e = p
        .process(&json!({"version": "v1.0", "callRendererFunction": {"functionCallId": "c", "callFunction": "play"}}))
        .unwrap_err();
    assert_eq!(e.error.pointer, "/callRendererFunction/callFunction");
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
        json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "a1",
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
    assert_eq!(e.error.pointer, "/actionResponse/error");
}

#[test]
fn index_in_the_root_component_is_refused_where_it_is_sent() {
    let mut p = Processor::new(ProcessorOptions::default().accept_unregistered_catalogs(true));
    let e = p
        .process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
            "components": [{"id": "root", "component": "Text", "text": {"call": "@index", "args": {"offset": 1}}}]}}))
        .unwrap_err();
    assert_eq!(e.error.category, Category::Validation);
    assert_eq!(e.error.pointer, "/createSurface/components/0/text");
    assert!(e.error.message.contains("@index"), "{e}");
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
            .map(|e| (e.index, e.error.pointer.as_str()))
            .collect::<Vec<_>>(),
        [
            (0, "/callRendererFunction"),
            (1, "/callFunction"),
            (2, "/callRendererFunction"),
            (4, "/agentFunctionResponse")
        ]
    );
    assert!(errors[0].error.message.contains("tool"), "{}", errors[0]);
}
