use crate::catalog::{ArgSchema, Args, Catalog};
use crate::{Environment, Error, ErrorCode, JsonPointer, Phase};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Compiles `payload` in the default environment, evaluates it on `model`, and checks that it
/// gives `value`: one line per case, like a fixture.
pub(crate) fn give(mut model: Value, payload: Value, value: Value) {
    let compiled = Environment::new().compile(&payload);
    let got = compiled.and_then(|p| p.eval(&mut model));
    assert_eq!(got.as_ref().ok(), Some(&value), "{payload}: {got:?}");
}

/// Like [`give`], for a payload that fails (to compile or to run): the error.
pub(crate) fn fail(mut model: Value, payload: Value) -> Error {
    let compiled = Environment::new().compile(&payload);
    match compiled.and_then(|p| p.eval(&mut model)) {
        Ok(value) => panic!("{payload} gave {value}"),
        Err(e) => e,
    }
}

const TEST_CATALOG: &str = "https://example.com/test.json";

fn env_with(
    name: &str,
    schema: ArgSchema,
    f: impl Fn(&Args<'_>) -> crate::Result<Value> + Send + Sync + 'static,
) -> Environment {
    let mut env = Environment::new();
    env.add_catalog(Catalog::new(TEST_CATALOG).with_function(name, schema, f));
    env
}

#[test]
fn every_static_problem_is_reported_at_once_in_document_order() {
    let err = fail(
        json!({}),
        json!({
            "a": {"@ref": 1},
            "b": {"@path": "/x", "extra": 1},
            "c": {"@call": "split", "args": {"value": "v", "limit": 2}},
            "d": {"@call": "nope"},
            "e": {"@call": "split", "catalogId": "urn:unknown", "args": {}},
            "f": [{"@path": 3}, {"@path": "/bad~2"}]
        }),
    );
    let found: Vec<(ErrorCode, &str)> = err.problems().map(|e| (e.code(), e.location())).collect();
    assert_eq!(
        found,
        [
            (ErrorCode::InvalidReservedKey, "/a/@ref"),
            (ErrorCode::ValidationFailed, "/b"),
            (ErrorCode::ValidationFailed, "/c/args/limit"),
            (ErrorCode::ValidationFailed, "/c"),
            (ErrorCode::ExpressionError, "/d"),
            (ErrorCode::CatalogError, "/e"),
            (ErrorCode::ValidationFailed, "/f/0"),
            (ErrorCode::DataError, "/f/1"),
        ]
    );
    assert!(err.problems().all(|e| e.phase() == Phase::Compile));
    assert_eq!(err.related().len(), 7);
    let detailed = format!("{err:#}");
    assert!(
        detailed.starts_with("8 problems found while compiling the payload:"),
        "{detailed}"
    );
    assert!(
        detailed.contains("'split' requires the argument 'separator'"),
        "{detailed}"
    );
}

#[test]
fn a_100_000_deep_payload_is_limit_exceeded() {
    let mut payload = json!("leaf");
    for _ in 0..100_000 {
        payload = Value::Array(vec![payload]);
    }
    let err = Environment::new().compile(&payload).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert_eq!(err.phase(), Phase::Compile);
    assert_eq!(err.location().matches('/').count(), 128);
    crate::json::drop_deep(payload);

    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(
        Environment::new().compile_str(&text).unwrap_err().code(),
        ErrorCode::LimitExceeded
    );
}

#[test]
fn depth_limit_is_inclusive_and_configurable() {
    let nest = |n: usize| (0..n).fold(json!(1), |v, _| Value::Array(vec![v]));
    let mut env = Environment::new();
    assert!(env.compile(&nest(128)).is_ok());
    assert!(env.compile(&nest(129)).is_err());
    env = env.with_max_depth(4);
    assert!(env.compile(&nest(4)).is_ok());
    assert_eq!(
        env.compile(&nest(5)).unwrap_err().code(),
        ErrorCode::LimitExceeded
    );
}

#[test]
fn literal_subtrees_are_folded_and_escapes_applied() {
    let env = Environment::new();
    let payload = env.compile(&json!({"@@path": "/x", "list": [1, {"@@call": true}], "@@@deep": {"k": {"@path": "/v"}}})).unwrap();
    let mut model = json!({"v": 7});
    assert_eq!(
        payload.eval(&mut model).unwrap(),
        json!({"@path": "/x", "list": [1, {"@call": true}], "@@deep": {"k": 7}})
    );
    // One Const for "@path" value, one folded constant list, one binding, two objects.
    assert_eq!(payload.program.nodes.len(), 5);
}

#[test]
fn bound_arguments_are_lent_not_copied() {
    let seen = Arc::new(AtomicUsize::new(0));
    let seen_in = seen.clone();
    let env = env_with("addr", ArgSchema::new().required("v"), move |args| {
        seen_in.store(
            args.get("v").unwrap() as *const Value as usize,
            Ordering::SeqCst,
        );
        Ok(Value::Null)
    });
    let payload = env
        .compile(
            &json!({"@call": "addr", "catalogId": TEST_CATALOG, "args": {"v": {"@path": "/big"}}}),
        )
        .unwrap();
    let mut model = json!({"big": {"rows": [1, 2, 3]}});
    payload.eval(&mut model).unwrap();
    assert_eq!(
        seen.load(Ordering::SeqCst),
        &model["big"] as *const Value as usize
    );
}

#[test]
fn arguments_are_evaluated_in_document_order_innermost_first() {
    let order = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = order.clone();
    let env = env_with(
        "log",
        ArgSchema::new().required("tag").allow_additional(),
        move |args| {
            log.lock().unwrap().push(args.get("tag").unwrap().clone());
            Ok(args.get("tag").unwrap().clone())
        },
    );
    let call = |tag: &str, inner: Value| json!({"@call": "log", "catalogId": TEST_CATALOG, "args": {"x": inner, "tag": tag}});
    let payload = env
        .compile(&json!([
            call("a", call("b", json!(1))),
            call("c", json!(null))
        ]))
        .unwrap();
    assert_eq!(payload.eval(&mut json!({})).unwrap(), json!(["a", "c"]));
    assert_eq!(*order.lock().unwrap(), [json!("b"), json!("a"), json!("c")]);
}

#[test]
fn a_failing_chain_writes_nothing_and_names_the_inner_call() {
    let env = env_with("fail", ArgSchema::new(), |_| {
        Err(crate::Error::new(ErrorCode::ExpressionError, "boom"))
    });
    let payload = env
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/out": {"@call": "fail", "catalogId": TEST_CATALOG}}}}))
        .unwrap();
    let mut model = json!({"out": "old"});
    let err = payload.eval(&mut model).unwrap_err();
    assert_eq!(
        (err.function(), err.location(), err.message()),
        (Some("fail"), "/args/updates/~1out", "boom")
    );
    assert_eq!(model, json!({"out": "old"}));
}

#[test]
fn bindings_read_before_a_sibling_write_keep_their_value() {
    let update = json!({"@call": "updateDataModel", "args": {"updates": {"/a": 2}}});
    let payload = json!([{"@path": "/a"}, update, {"@path": "/a"}]);
    give(json!({"a": 1}), payload, json!([1, null, 2]));
}

#[test]
fn relative_bindings_and_forbidden_tokens() {
    let env = Environment::new();
    let payload = env.compile(&json!([{"@path": "name"}, {"@path": "."}, {"@path": "/constructor"}, {"@path": "x/__proto__"}])).unwrap();
    let mut model = json!({"rows": [{"name": "Ada"}], "constructor": 1});
    let context = JsonPointer::parse("/rows/0").unwrap();
    assert_eq!(
        payload.eval_in(&mut model, &context).unwrap(),
        json!(["Ada", {"name": "Ada"}, null, null])
    );
}

#[test]
fn empty_calls_and_containers() {
    let env = env_with("zero", ArgSchema::new(), |_| Ok(json!(0)));
    let payload = env
        .compile(&json!([[], {}, {"@call": "zero", "catalogId": TEST_CATALOG}]))
        .unwrap();
    assert_eq!(payload.eval(&mut json!({})).unwrap(), json!([[], {}, 0]));
}

#[test]
fn update_data_model_type_errors_at_compile_time_for_literals() {
    for (updates, kind) in [
        (json!("/t"), "a string"),
        (json!(4), "a number"),
        (json!([1]), "an array"),
        (json!(false), "a boolean"),
    ] {
        let err = fail(
            json!({}),
            json!({"@call": "updateDataModel", "args": {"updates": updates}}),
        );
        assert_eq!(
            (err.code(), err.phase(), err.function()),
            (
                ErrorCode::ExpressionError,
                Phase::Compile,
                Some("updateDataModel")
            )
        );
        assert_eq!(
            err.message(),
            format!("updateDataModel expects an object of data model paths, got {kind}.")
        );
    }
    // From data, the same message at evaluation.
    let payload = json!({"@call": "updateDataModel", "args": {"updates": {"@path": "/u"}}});
    let err = fail(json!({"u": "x"}), payload);
    assert_eq!((err.phase(), err.location()), (Phase::Eval, ""));
}

#[test]
fn payload_is_send_and_sync() {
    fn check<T: Send + Sync + 'static>() {}
    check::<crate::Payload>();
    check::<Environment>();
}

/// A host function that writes through its call context; `declares` is what its
/// `Function::may_write` says.
struct Stamp {
    declares: bool,
}

impl crate::Function for Stamp {
    fn call(&self, _args: &mut Args<'_>, cx: &mut crate::CallContext<'_>) -> crate::Result<Value> {
        cx.write("/stamped", json!(true));
        Ok(json!("stamped"))
    }

    fn may_write(&self, _args: &crate::catalog::StaticArgs<'_>) -> bool {
        self.declares
    }
}

#[test]
fn read_only_evaluation_reads_through_a_shared_borrow() {
    let env = Environment::new();
    let model = json!({"rows": [{"name": "a,b"}], "sep": ","});
    let row = JsonPointer::parse("/rows/0").unwrap();
    let label = env
        .compile(&json!({"@call": "split", "args": {"value": {"@path": "name"}, "separator": {"@path": "/sep"}}}))
        .unwrap();
    let shared = &model;
    // Two evaluations at once over the same shared borrow.
    let (a, b) = (
        label.eval_read(shared, &row).unwrap(),
        label.eval_read(shared, &row).unwrap(),
    );
    assert_eq!((a, b), (json!(["a", "b"]), json!(["a", "b"])));
    // Errors are the same as with a mutable model.
    let bad = env
        .compile(
            &json!({"@call": "regexCapture", "args": {"value": "x", "pattern": {"@path": "/p"}}}),
        )
        .unwrap();
    let err = bad.eval_read(&json!({"p": "(a+)+"}), &row).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
}

#[test]
fn read_only_evaluation_refuses_payloads_that_may_write() {
    let env = Environment::new();
    let model = json!({"x": 1});
    for payload in [
        json!({"@call": "updateDataModel", "args": {"updates": {"/x": 2}}}),
        json!([1, {"@call": "updateDataModel", "args": {"updates": {"@path": "/pending"}}}]),
        json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": "/out"}}),
    ] {
        let compiled = env.compile(&payload).unwrap();
        let err = compiled
            .eval_read(&model, &JsonPointer::root())
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::DataError, "{payload}");
        assert!(err.message().contains("may write"), "{}", err.message());
    }
    // A tool call without a target only reads: it is refused for lack of a tool client, as
    // with a mutable model.
    let fetch = env
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "t"}}))
        .unwrap();
    let err = fetch.eval_read(&model, &JsonPointer::root()).unwrap_err();
    assert!(
        err.message().contains("not configured"),
        "{}",
        err.message()
    );
}

#[test]
fn an_undeclared_host_write_fails_in_read_only_mode() {
    for declares in [false, true] {
        let mut env = Environment::new();
        env.add_catalog(Catalog::new(TEST_CATALOG).with_function(
            "stamp",
            ArgSchema::new(),
            Stamp { declares },
        ));
        let payload = env
            .compile(&json!({"label": {"@call": "stamp", "catalogId": TEST_CATALOG}}))
            .unwrap();
        assert_eq!(payload.may_write(), declares);
        let model = json!({});
        let err = payload.eval_read(&model, &JsonPointer::root()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::DataError);
        if !declares {
            // The call is named, and the message says why.
            assert_eq!((err.function(), err.location()), (Some("stamp"), "/label"));
            assert!(err.message().contains("read-only"), "{}", err.message());
        }
        // With a mutable model the write happens.
        let mut model = json!({});
        payload.eval(&mut model).unwrap();
        assert_eq!(model, json!({"stamped": true}));
    }
}

/// A function that reads `${path}` in a literal `value` as a binding, through
/// [`Function::expand`](crate::Function::expand).
struct Echo;

impl crate::Function for Echo {
    fn expand(
        &self,
        arg: &str,
        literal: &Value,
        _limits: &crate::Limits,
    ) -> crate::Result<Option<Value>> {
        let Some(text) = literal.as_str() else {
            return Ok(None);
        };
        match text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
            Some(path) if arg == "value" => Ok(Some(
                json!([{"@path": path}, {"@call": "echo", "args": {"value": "${/never}"}}]),
            )),
            _ => Err(Error::new(
                ErrorCode::ExpressionError,
                format!("not a template: {text}"),
            )),
        }
    }

    fn prepare(
        &self,
        args: &crate::catalog::StaticArgs<'_>,
    ) -> crate::Result<Option<crate::catalog::Prepared>> {
        Ok(Some(Box::new(args.is_expanded("value"))))
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut crate::CallContext<'_>) -> crate::Result<Value> {
        let expanded = *cx.prepared::<bool>().unwrap();
        Ok(json!({"expanded": expanded, "value": args.value_or_null("value")}))
    }
}

#[test]
fn a_function_expands_its_literal_arguments_into_a_compiled_payload() {
    let mut env = Environment::new();
    env.add_catalog(Catalog::new(TEST_CATALOG).with_function(
        "echo",
        ArgSchema::new().required("value"),
        Echo,
    ));
    env = env.with_default_catalog(TEST_CATALOG);
    let payload = env
        .compile(&json!({"@call": "echo", "args": {"value": "${/name}"}}))
        .unwrap();
    // The path is a dependency like a binding's; the inner call's literal is not expanded again.
    assert_eq!(
        payload.dependencies(&JsonPointer::root()),
        [JsonPointer::parse("/name").unwrap()]
    );
    assert_eq!(
        payload.eval(&mut json!({"name": "Ada"})).unwrap(),
        json!({"expanded": true, "value": ["Ada", {"expanded": false, "value": "${/never}"}]})
    );
    // A binding is not a literal: not expanded.
    let bound = env
        .compile(&json!({"@call": "echo", "args": {"value": {"@path": "/t"}}}))
        .unwrap();
    assert_eq!(
        bound.eval(&mut json!({"t": "${/x}"})).unwrap(),
        json!({"expanded": false, "value": "${/x}"})
    );
    // An expansion error is a compile-time problem at the argument.
    let err = env
        .compile(&json!({"@call": "echo", "args": {"value": "plain"}}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(err.location(), "/args/value");
    assert_eq!(err.phase(), Phase::Compile);
}
