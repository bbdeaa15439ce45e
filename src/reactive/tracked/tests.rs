use super::*;
use crate::model::SharedModel;
use crate::testing::{ScriptedServer, block_on};
use crate::{Environment, Payload};
use serde_json::{Value, json};

/// The cases of the reference group `reactive` that expect a change list (`expect.changed`),
/// with whether they fail and, where given, the data model afterwards.
const REFERENCE: &str = r##"[
    {"id": "reactive/literal-no-deps", "payload": {"title": "Home", "n": [1, 2]}, "changed": [], "fails": false},
    {"id": "reactive/one-binding", "dataModel": {"user": {"name": "Ada"}}, "payload": {"@path": "/user/name"}, "changed": [], "fails": false},
    {"id": "reactive/nested-call-args", "dataModel": {"csv": "a,b", "sep": ","}, "payload": {"@call": "transformData", "args": {"data": {"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": {"@path": "/sep"}}}, "jmespath": "[0]"}}, "changed": [], "fails": false},
    {"id": "reactive/update-keys-are-targets", "dataModel": {"source": "s", "rows": [{}]}, "contextPath": "/rows/0", "payload": {"@call": "updateDataModel", "args": {"updates": {"/copy": {"@path": "/source"}, "flag": true}}}, "changed": ["/copy", "/rows/0/flag"], "fails": false, "after": {"source": "s", "rows": [{"flag": true}], "copy": "s"}},
    {"id": "reactive/updates-from-binding", "dataModel": {"pending": {"/b": 2, "/a": 1}}, "payload": {"@call": "updateDataModel", "args": {"updates": {"@path": "/pending"}}}, "changed": ["/b", "/a"], "fails": false},
    {"id": "reactive/updates-null-writes-nothing", "dataModel": {"k": 1}, "payload": {"@call": "updateDataModel", "args": {"updates": {"@path": "/pending"}}}, "changed": [], "fails": false, "after": {"k": 1}},
    {"id": "reactive/write-null-is-a-change", "dataModel": {"x": 5}, "payload": {"@call": "updateDataModel", "args": {"updates": {"/x": {"@path": "/missing"}}}}, "changed": ["/x"], "fails": false, "after": {"x": null}},
    {"id": "reactive/root-write", "dataModel": {"old": 1}, "payload": {"@call": "updateDataModel", "args": {"updates": {"/": {"fresh": true}}}}, "changed": ["/"], "fails": false, "after": {"fresh": true}},
    {"id": "reactive/changed-in-write-order", "payload": [{"@call": "updateDataModel", "args": {"updates": {"/b": 1, "/a": 1}}}, {"@call": "updateDataModel", "args": {"updates": {"/b": 2}}}], "changed": ["/b", "/a"], "fails": false, "after": {"b": 2, "a": 1}},
    {"id": "reactive/failed-chain-changes-nothing", "dataModel": {"out": 0, "pat": "(a+)+"}, "payload": {"@call": "updateDataModel", "args": {"updates": {"/out": {"@call": "regexCapture", "args": {"value": "x", "pattern": {"@path": "/pat"}}}}}}, "changed": [], "fails": true},
    {"id": "reactive/dependencies-of-a-failing-payload", "dataModel": {"s": "a", "pat": "(?=a)"}, "payload": {"@call": "updateDataModel", "args": {"updates": {"/n": {"@call": "regexCapture", "args": {"value": {"@path": "/s"}, "pattern": {"@path": "/pat"}}}}}}, "changed": [], "fails": true},
    {"id": "reactive/tool-target-is-a-change", "dataModel": {"query": "rust"}, "server": {"results": {"search": [{"content": [{"type": "text", "text": "one"}]}]}}, "payload": {"@call": "callMcpTool", "args": {"name": "search", "arguments": {"q": {"@path": "/query"}}, "targetDataPath": "/results"}}, "changed": ["/results"], "fails": false},
    {"id": "reactive/tool-chain-changes", "dataModel": {"repository": "a2ui/a2ui"}, "server": {"results": {"list_issues": [{"content": [{"type": "text", "text": "[{\"number\": 1, \"state\": \"open\"}, {\"number\": 2, \"state\": \"closed\"}]"}]}]}}, "payload": {"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {"jmespath": "{\"/issues\": json[?state == 'open'].number}", "data": {"@call": "callMcpTool", "args": {"name": "list_issues", "arguments": {"repository": {"@path": "/repository"}}}}}}}}, "changed": ["/issues"], "fails": false, "after": {"repository": "a2ui/a2ui", "issues": [1]}},
    {"id": "reactive/tool-error-changes-nothing", "server": {"results": {"boom": [{"isError": true, "content": [{"type": "text", "text": "failed"}]}]}}, "payload": {"@call": "callMcpTool", "args": {"name": "boom", "arguments": {}, "targetDataPath": "/out"}}, "changed": [], "fails": true}
]"##;

fn run(payload: &Payload, case: &Value) -> (Result<Value, Error>, Value, Vec<String>) {
    let context = JsonPointer::parse(case["contextPath"].as_str().unwrap_or("/")).unwrap();
    let data = case.get("dataModel").cloned().unwrap_or(json!({}));
    match case.get("server") {
        None => {
            let mut model = TrackedModel::new(data);
            let result = payload.eval_in(&mut model, &context);
            let (data, changes) = model.into_parts();
            (result, data, changes.to_strings())
        }
        Some(server) => {
            let server = ScriptedServer::from_json(server).unwrap();
            let host = server.host();
            let model = SharedModel::new(TrackedModel::new(data));
            let result = block_on(payload.eval_async(&model, &context, &host));
            let (data, changes) = model.into_inner().into_parts();
            (result, data, changes.to_strings())
        }
    }
}

#[test]
fn reference_cases_report_what_they_wrote() {
    let cases: Vec<Value> = serde_json::from_str(REFERENCE).unwrap();
    assert_eq!(cases.len(), 14);
    let env = Environment::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let payload = env.compile(&case["payload"]).unwrap();
        let (result, data, changed) = run(&payload, case);
        assert_eq!(result.is_err(), case["fails"] == true, "{id}: {result:?}");
        let expected: Vec<String> = serde_json::from_value(case["changed"].clone()).unwrap();
        assert_eq!(changed, expected, "{id}");
        if let Some(after) = case.get("after") {
            assert_eq!(&data, after, "{id}");
        }
    }
}

#[test]
fn a_failed_group_records_nothing_and_earlier_groups_stay() {
    let env = Environment::new();
    let payload = env
        .compile(&json!([
            {"@call": "updateDataModel", "args": {"updates": {"/first": 1}}},
            {"@call": "updateDataModel", "args": {"updates": {"/a": 5, "/a/b": 1}}}
        ]))
        .unwrap();
    let mut model = TrackedModel::new(json!({}));
    let err = payload.eval(&mut model).unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::DataError);
    assert_eq!(model.changes().to_strings(), ["/first"]);
    assert_eq!(model.get(), &json!({"first": 1}));
    // A forbidden token is refused before the group reaches the model.
    let forbidden = env
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/__proto__/x": 1}}}))
        .unwrap();
    assert!(forbidden.eval(&mut model).is_err());
    assert_eq!(model.take_changes().to_strings(), ["/first"]);
}

#[test]
fn host_writes_and_removals_are_changes_too() {
    let mut model = TrackedModel::new(json!({"rows": ["a", "b"], "user": {"nick": "x"}}));
    let write = |path: &str, value: Value| Write {
        path: JsonPointer::parse(path).unwrap(),
        value,
    };
    model
        .apply(
            vec![write("/query", json!("ab")), write("/query", json!("abc"))],
            10_000,
        )
        .unwrap();
    assert!(
        model
            .apply(vec![write("/query/x", json!(1))], 10_000)
            .is_err()
    );
    model.record_removal(JsonPointer::parse("/rows/0").unwrap());
    model.record_removal(JsonPointer::parse("/user/nick").unwrap());
    model.untracked_mut()["user"]
        .as_object_mut()
        .unwrap()
        .remove("nick");
    model.untracked_mut()["rows"]
        .as_array_mut()
        .unwrap()
        .remove(0);
    assert_eq!(
        model.changes().to_strings(),
        ["/query", "/rows", "/user/nick"]
    );
    assert_eq!(model.get()["rows"], json!(["b"]));
}

type Eval<'a> = std::pin::Pin<Box<dyn Future<Output = Result<Value, Error>> + Send + 'a>>;

fn poll(f: &mut Eval<'_>) -> std::task::Poll<Result<Value, Error>> {
    f.as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
}

#[test]
fn superseded_and_dropped_tool_calls_record_nothing() {
    let result = |n: u32| json!({"content": [{"type": "text", "text": n.to_string()}]});
    let server = ScriptedServer::from_json(
        &json!({"results": {"search": [result(0), result(1), result(2)]}}),
    )
    .unwrap();
    server.hold_calls();
    let host = server.host();
    let model = SharedModel::new(TrackedModel::new(json!({})));
    let env = Environment::new();
    let search = env
        .compile(&json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}))
        .unwrap();
    let copy = env
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {
            "/copy": {"@call": "callMcpTool", "args": {"name": "search"}}
        }}}))
        .unwrap();
    let root = JsonPointer::root();
    let mut older: Eval<'_> = Box::pin(search.eval_async(&model, &root, &host));
    let mut newer: Eval<'_> = Box::pin(search.eval_async(&model, &root, &host));
    let mut dropped: Eval<'_> = Box::pin(copy.eval_async(&model, &root, &host));
    for eval in [&mut older, &mut newer, &mut dropped] {
        assert!(poll(eval).is_pending());
    }
    server.release(1);
    assert!(poll(&mut newer).is_ready());
    assert_eq!(model.lock().changes().to_strings(), ["/results"]);
    model.lock().take_changes();
    // The older call completes after the newer one: its result is not written.
    server.release(0);
    assert!(poll(&mut older).is_ready());
    // The dropped evaluation's call completes after the drop: nothing is written.
    drop(dropped);
    server.release(2);
    drop((older, newer));
    let (data, changes) = model.into_inner().into_parts();
    assert!(changes.is_empty(), "{:?}", changes.to_strings());
    assert_eq!(data["results"]["text"], "1");
    assert!(data.get("copy").is_none());
}

#[test]
fn messages_and_host_writes_are_recorded_like_payload_writes() {
    let mut model = TrackedModel::new(json!({"rows": ["a", "b", "c"], "user": {"nick": "x"}}));
    let msg = |body: Value| json!({"version": "v1.0", "updateDataModel": body});
    model
        .apply_message(&msg(
            json!({"surfaceId": "s", "path": "/user/name", "value": "Ada"}),
        ))
        .unwrap();
    // v1.0's null, or no value before v1.0: a removal. An array element is a change of the array.
    model
        .apply_message(&msg(
            json!({"surfaceId": "s", "path": "/rows/1", "value": null}),
        ))
        .unwrap();
    model
        .apply_message(&json!({"surfaceId": "s", "path": "/user/nick"}))
        .unwrap();
    // Removing what is not there changes nothing.
    model
        .apply_message(&json!({"surfaceId": "s", "path": "/user/missing"}))
        .unwrap();
    // `null` is a value: it is written.
    model
        .apply_message(&json!({"surfaceId": "s", "path": "/flag", "value": null}))
        .unwrap();
    model
        .set(&JsonPointer::parse("/query").unwrap(), json!("ru"))
        .unwrap();
    model
        .set(&JsonPointer::parse("/user/name").unwrap(), json!("Grace"))
        .unwrap();
    assert_eq!(
        model.take_changes().to_strings(),
        ["/user/name", "/rows", "/user/nick", "/flag", "/query"]
    );
    assert_eq!(
        model.get(),
        &json!({"rows": ["a", "c"], "user": {"name": "Grace"}, "flag": null, "query": "ru"})
    );
    // A message without a path replaces, or without a value empties, the whole model.
    model
        .apply_message(&json!({"surfaceId": "s", "value": {"fresh": 1}}))
        .unwrap();
    model.apply_message(&json!({"surfaceId": "s"})).unwrap();
    assert_eq!(model.take_changes().to_strings(), ["/"]);
    assert_eq!(model.get(), &json!({}));
}

#[test]
fn bad_host_writes_are_data_errors_and_change_nothing() {
    let original = json!({"name": "Ada", "rows": [1]});
    let mut model = TrackedModel::new(original.clone());
    let bad = [
        json!({"surfaceId": "s", "path": "/__proto__/x", "value": 1}),
        json!({"surfaceId": "s", "path": "/constructor"}),
        json!({"surfaceId": "s", "path": "name", "value": 1}),
        json!({"surfaceId": "s", "path": "/bad~2", "value": 1}),
        json!({"surfaceId": "s", "path": 3, "value": 1}),
        json!({"surfaceId": "s", "path": "/name/first", "value": 1}),
        json!({"surfaceId": "s", "path": "/rows/20000", "value": 1}),
        json!({"version": "v1.0", "updateDataModel": "x"}),
        json!({"createSurface": {"surfaceId": "s"}}),
        json!([1]),
        // Neither `{}` nor a message without surfaceId nor a v1.0 message without value
        // removes the root.
        json!({}),
        json!({"version": "v1.0", "updateDataModel": {}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s"}}),
        json!({"path": "/name"}),
    ];
    for message in bad {
        let err = model.apply_message(&message).unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::DataError, "{message}");
    }
    let err = model
        .set(&JsonPointer::parse("/a/prototype").unwrap(), json!(1))
        .unwrap_err();
    assert!(err.message().contains("reserved"), "{}", err.message());
    assert!(model.changes().is_empty());
    assert_eq!(model.get(), &original);
}

#[test]
fn eval_tracked_records_into_a_frame_and_keeps_earlier_writes_on_error() {
    let env = Environment::new();
    let mut model = json!({});
    let mut frame = ChangeSet::new();
    frame.record(JsonPointer::parse("/query").unwrap());
    let payload = env
        .compile(&json!([
            {"@call": "updateDataModel", "args": {"updates": {"/first": 1, "/query": 2}}},
            {"@call": "updateDataModel", "args": {"updates": {"/a": 5, "/a/b": 1}}}
        ]))
        .unwrap();
    assert!(
        payload
            .eval_tracked(&mut model, &JsonPointer::root(), &mut frame)
            .is_err()
    );
    assert_eq!(frame.to_strings(), ["/query", "/first"]);
    assert_eq!(model, json!({"first": 1, "query": 2}));
}

/// A host function that writes through its call context, as it declares.
struct Touch;

impl crate::Function for Touch {
    fn call(
        &self,
        _args: &mut crate::Args<'_>,
        cx: &mut crate::CallContext<'_>,
    ) -> crate::Result<Value> {
        cx.write("touched", json!(true));
        cx.write("/log", json!("touched"));
        Ok(Value::Null)
    }

    fn may_write(&self, _args: &crate::catalog::StaticArgs<'_>) -> bool {
        true
    }
}

#[test]
fn host_function_writes_are_changes_in_write_order() {
    let mut env = Environment::new();
    env.add_catalog(crate::Catalog::new("urn:host").with_function(
        "touch",
        crate::catalog::ArgSchema::new(),
        Touch,
    ));
    let payload = env
        .compile(&json!({"@call": "touch", "catalogId": "urn:host"}))
        .unwrap();
    let mut model = json!({"rows": [{}]});
    let mut changes = ChangeSet::new();
    payload
        .eval_tracked(
            &mut model,
            &JsonPointer::parse("/rows/0").unwrap(),
            &mut changes,
        )
        .unwrap();
    assert_eq!(changes.to_strings(), ["/rows/0/touched", "/log"]);
}

#[test]
fn host_writes_edit_existing_elements_above_the_index_limit() {
    // The issue's case: a 60 000-row model, the default limit of 10 000.
    let rows: Vec<Value> = (0..60_000).map(|i| json!({"name": i})).collect();
    let mut model = TrackedModel::new(json!({ "rows": rows }));
    let p = |s: &str| JsonPointer::parse(s).unwrap();
    model.set(&p("/rows/50000/name"), json!("edited")).unwrap();
    model
        .apply_message(&json!({"surfaceId": "s", "path": "/rows/59999", "value": {"name": "last"}}))
        .unwrap();
    assert_eq!(model.get()["rows"][50_000]["name"], "edited");
    assert_eq!(model.get()["rows"][59_999]["name"], "last");
    // Growing the array past the limit stays refused and changes nothing.
    let err = model.set(&p("/rows/60001"), json!(1)).unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::DataError);
    assert!(
        err.message().contains("above the limit of 10000"),
        "{}",
        err.message()
    );
    assert_eq!(model.get()["rows"].as_array().unwrap().len(), 60_000);
    assert_eq!(
        model.take_changes().to_strings(),
        ["/rows/50000/name", "/rows/59999"]
    );
}

/// The bytes kept up to date write by write are the bytes a walk of the model finds, through
/// thousands of random writes, group writes, array paddings and removals.
#[test]
fn held_bytes_follow_every_write() {
    use crate::model::Write;
    let mut next = crate::test_rng::below(0x9e37_79b9_7f4a_7c15);
    let mut model = TrackedModel::new(json!({"a": [1, "two"], "b": {"c": null}}));
    model.held_bytes();
    let keys = ["a", "b", "c", "0", "1", "3", "long key of a few words"];
    for round in 0..5_000 {
        let depth = 1 + next(4) as usize;
        let mut path = String::new();
        for _ in 0..depth {
            path.push('/');
            path.push_str(keys[next(keys.len() as u64) as usize]);
        }
        let path = JsonPointer::parse(&path).unwrap();
        let value = match next(5) {
            0 => json!(null),
            1 => json!("x".repeat(next(300) as usize)),
            2 => json!({"k": [1, 2, 3], "s": "text"}),
            3 => json!([[], {}, "y"]),
            _ => json!(next(1000)),
        };
        // Failed writes (through a scalar, past the index limit) change nothing either way.
        let before_model = model.get().clone();
        let op = next(4);
        let desc = format!("op {op} at {path} with {value}");
        let _ = match op {
            0 => model.remove(&path).map(|_| ()),
            1 => {
                let other = JsonPointer::parse(&format!("{path}/c")).unwrap();
                model.apply(
                    vec![
                        Write {
                            path: path.clone(),
                            value,
                        },
                        Write {
                            path: other,
                            value: json!("inner"),
                        },
                    ],
                    16,
                )
            }
            _ => model.apply(vec![Write { path, value }], 16),
        };
        let walked = TrackedModel::new(model.get().clone()).held_bytes();
        assert_eq!(
            model.held_bytes(),
            walked,
            "round {round}: {desc}\nbefore {before_model}\nafter {}",
            model.get()
        );
    }
}

/// A change made around the wrapper leaves the figure unknown; it is measured again once,
/// through a shared reference too, and kept up to date from there.
#[test]
fn held_bytes_after_an_untracked_change() {
    let mut model = TrackedModel::new(json!({"a": "x"}));
    let small = model.held_bytes();
    model.untracked_mut()["a"] = json!("y".repeat(5_000));
    let big = model.held_bytes_now();
    assert!(big >= small + 4_999, "{small} {big}");
    model
        .set(&JsonPointer::parse("/b").unwrap(), json!("z".repeat(1_000)))
        .unwrap();
    let walked = TrackedModel::new(model.get().clone()).held_bytes();
    assert_eq!(model.held_bytes(), walked);
}
