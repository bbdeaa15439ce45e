use super::*;
use crate::Environment;
use crate::reactive::TrackedModel;
use crate::testing::{ScriptedServer, block_on};
use serde_json::json;
use std::task::{Context, Poll, Waker};

fn p(s: &str) -> JsonPointer {
    JsonPointer::parse(s).unwrap()
}

fn compile(payload: Value) -> Arc<Payload> {
    Arc::new(Environment::new().compile(&payload).unwrap())
}

fn keys<K: Ord + Clone>(changes: &[Change<K>]) -> Vec<K> {
    let mut keys: Vec<K> = changes.iter().map(|c| c.key.clone()).collect();
    keys.sort();
    keys
}

/// A surface: a title, a label over the query, one key per row and a list over all rows.
fn surface(rows: usize) -> (Bindings<String>, TrackedModel) {
    let rows_json: Vec<Value> = (0..rows)
        .map(|i| json!({"name": format!("r{i}")}))
        .collect();
    let model = TrackedModel::new(json!({"title": "T", "query": "", "rows": rows_json}));
    let mut b = Bindings::new();
    b.register(
        "title".into(),
        compile(json!({"@path": "/title"})),
        JsonPointer::root(),
    )
    .unwrap();
    b.register(
        "label".into(),
        compile(
            json!({"@call": "split", "args": {"value": {"@path": "/query"}, "separator": " "}}),
        ),
        JsonPointer::root(),
    )
    .unwrap();
    b.register(
        "list".into(),
        compile(json!({"@path": "/rows"})),
        JsonPointer::root(),
    )
    .unwrap();
    let row = compile(json!({"@path": "name"}));
    for i in 0..rows {
        b.register(format!("row {i}"), row.clone(), p(&format!("/rows/{i}")))
            .unwrap();
    }
    (b, model)
}

#[test]
fn the_first_recompute_evaluates_every_key_then_only_affected_ones() {
    let (mut b, mut model) = surface(3);
    let first = b.refresh(&mut model);
    assert_eq!(first.len(), 6);
    assert!(first.iter().all(|c| c.under.is_empty()));
    assert_eq!(b.evaluations(), 6);
    // A keystroke in the query field: only the label is evaluated.
    model.set(&p("/query"), json!("a b")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(keys(&changed), ["label"]);
    assert_eq!(b.evaluations(), 7);
    assert_eq!(b.value("label"), Some(&json!(["a", "b"])));
    // Nothing changed: nothing evaluated.
    assert!(b.recompute(model.get(), &ChangeSet::new()).is_empty());
    assert_eq!(b.evaluations(), 7);
}

#[test]
fn equal_values_are_not_reported() {
    let (mut b, mut model) = surface(2);
    b.refresh(&mut model);
    model.set(&p("/title"), json!("T")).unwrap();
    model
        .set(&p("/rows/1"), json!({"name": "r1", "extra": 1}))
        .unwrap();
    let changed = b.refresh(&mut model);
    // The title and row 1 were evaluated again, to the same values; the list changed.
    assert_eq!(keys(&changed), ["list"]);
    assert_eq!(b.evaluations(), 5 + 3);
    // Numbers by value, keys in any order.
    let mut b = Bindings::new();
    let mut model = TrackedModel::new(json!({"n": {"a": 1, "b": 2}}));
    b.register((), compile(json!({"@path": "/n"})), JsonPointer::root())
        .unwrap();
    b.refresh(&mut model);
    model.set(&p("/n"), json!({"b": 2.0, "a": 1})).unwrap();
    assert!(b.refresh(&mut model).is_empty());
}

#[test]
fn a_list_tells_an_edited_row_from_a_replaced_list() {
    let (mut b, mut model) = surface(5);
    b.refresh(&mut model);
    model.set(&p("/rows/3/name"), json!("x")).unwrap();
    model.set(&p("/rows/1/name"), json!("y")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(keys(&changed), ["list", "row 1", "row 3"]);
    let list = changed.iter().find(|c| c.key == "list").unwrap();
    assert_eq!(list.under, [p("/rows/3/name"), p("/rows/1/name")]);
    let row = changed.iter().find(|c| c.key == "row 3").unwrap();
    assert!(row.under.is_empty(), "the row's own path changed");
    // The list replaced (with an edit in the same batch): a change as a whole.
    model.set(&p("/rows/0/name"), json!("z")).unwrap();
    model
        .set(&p("/rows"), json!([{"name": "z"}, {"name": "y"}]))
        .unwrap();
    let changed = b.refresh(&mut model);
    let list = changed.iter().find(|c| c.key == "list").unwrap();
    assert!(list.under.is_empty());
    // A removed row is a change of the list itself.
    model.remove(&p("/rows/0")).unwrap();
    let changed = b.refresh(&mut model);
    assert!(changed.iter().all(|c| c.under.is_empty()));
    assert_eq!(keys(&changed), ["list", "row 0", "row 1"]);
    assert_eq!(b.value("row 1"), Some(&Value::Null));
}

#[test]
fn nested_dependencies_report_each_change_once() {
    let mut b = Bindings::new();
    let mut model = TrackedModel::new(json!({"a": {"b": {"c": 1}, "d": 1}}));
    b.register(
        "k",
        compile(json!([{"@path": "/a"}, {"@path": "/a/b"}])),
        JsonPointer::root(),
    )
    .unwrap();
    b.refresh(&mut model);
    model.set(&p("/a/b/c"), json!(2)).unwrap();
    model.set(&p("/a/d"), json!(2)).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(changed[0].under, [p("/a/b/c"), p("/a/d")]);
    // A change at one read path and under another: the value changed as a whole.
    model.set(&p("/a/b"), json!(0)).unwrap();
    let changed = b.refresh(&mut model);
    assert!(changed[0].under.is_empty());
}

#[test]
fn registering_refuses_writes_and_rebinding_keeps_the_state() {
    let mut b: Bindings<&str> = Bindings::new();
    let err = b
        .register(
            "w",
            compile(json!({"@call": "updateDataModel", "args": {"updates": {"/x": 1}}})),
            JsonPointer::root(),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::DataError);
    assert!(b.is_empty());
    let model = json!({"a": 1, "b": 1});
    b.register("k", compile(json!({"@path": "/a"})), JsonPointer::root())
        .unwrap();
    assert_eq!(b.recompute(&model, &ChangeSet::new()).len(), 1);
    // Bound again to a payload giving the same value: evaluated, not reported.
    b.register("k", compile(json!({"@path": "/b"})), JsonPointer::root())
        .unwrap();
    assert!(b.recompute(&model, &ChangeSet::new()).is_empty());
    assert_eq!(b.dependencies("k"), Some(&[p("/b")][..]));
    // Now /a no longer affects it.
    let changes: ChangeSet = [p("/a")].into_iter().collect();
    assert!(b.recompute(&json!({"a": 2, "b": 1}), &changes).is_empty());
    assert_eq!(b.evaluations(), 2);
    assert!(b.unregister("k"));
    assert!(!b.unregister("k"));
    assert!(!b.unregister("unknown"));
    assert!(b.state("k").is_none());
    // Registered then unregistered before any recompute: never evaluated.
    b.register("gone", compile(json!({"@path": "/a"})), JsonPointer::root())
        .unwrap();
    b.unregister("gone");
    assert!(b.recompute(&model, &ChangeSet::new()).is_empty());
    assert_eq!(b.evaluations(), 2);
}

#[test]
fn a_failure_keeps_the_previous_value_and_is_reported_once() {
    let mut b = Bindings::new();
    let mut model = TrackedModel::new(json!({"v": "ab12", "pat": "(\\d+)"}));
    b.register(
        "k",
        compile(json!({"@call": "regexCapture", "args": {"value": {"@path": "/v"}, "pattern": {"@path": "/pat"}}})),
        JsonPointer::root(),
    )
    .unwrap();
    b.refresh(&mut model);
    assert_eq!(b.value("k"), Some(&json!(["12"])));
    model.set(&p("/pat"), json!("(a+)+")).unwrap();
    assert_eq!(b.refresh(&mut model).len(), 1);
    let state = b.state("k").unwrap();
    assert_eq!(state.error().unwrap().code(), ErrorCode::ExpressionError);
    assert_eq!(state.value(), Some(&json!(["12"])));
    // The same failure again: no change to report.
    model.set(&p("/v"), json!("ab12")).unwrap();
    assert!(b.refresh(&mut model).is_empty());
    // Fixed, to the same value as before the failure: reported (the error goes away).
    model.set(&p("/pat"), json!("(\\d+)")).unwrap();
    assert_eq!(b.refresh(&mut model).len(), 1);
    assert!(matches!(b.state("k"), Some(ValueState::Ready(_))));
}

fn poll<F: Future + Unpin>(f: &mut F) -> Poll<F::Output> {
    std::pin::Pin::new(f).poll(&mut Context::from_waker(Waker::noop()))
}

#[test]
fn tool_values_are_pending_then_ready_and_newer_runs_supersede_older_ones() {
    let result = |text: &str| json!({"content": [{"type": "text", "text": text}]});
    let server = ScriptedServer::from_json(&json!({"results": {"search": [
        result("first"), result("second"), result("third"), {"$error": "down"}
    ]}}))
    .unwrap();
    server.hold_calls();
    let host = server.host();
    let model = SharedModel::new(TrackedModel::new(json!({"query": "r"})));
    let mut b = Bindings::new();
    let search = compile(json!({"@call": "transformData", "args": {
        "data": {"@call": "callMcpTool", "args": {"name": "search", "arguments": {"q": {"@path": "/query"}}}},
        "jmespath": "text"
    }}));
    b.register("results", search, JsonPointer::root()).unwrap();
    b.register(
        "q",
        compile(json!({"@path": "/query"})),
        JsonPointer::root(),
    )
    .unwrap();
    let changed = {
        let mut guard = model.lock();
        let changes = guard.take_changes();
        b.recompute(guard.get(), &changes)
    };
    assert_eq!(keys(&changed), ["q", "results"]);
    assert!(b.state("results").unwrap().is_pending());
    assert_eq!(b.value("results"), None);
    let mut runs = b.take_tool_runs();
    assert_eq!(runs.len(), 1);
    let mut first = Box::pin(runs.remove(0).eval(&model, &host));
    assert!(poll(&mut first).is_pending());
    server.release(0);
    let done = block_on(first);
    assert_eq!(done.result().unwrap().as_ref().unwrap(), &json!("first"));
    let change = b.finish(done).unwrap();
    assert_eq!(change.key, "results");
    assert_eq!(b.value("results"), Some(&json!("first")));

    // Two keystrokes: the first run is superseded by the second before its call returns.
    let recompute = |b: &mut Bindings<&'static str>, text: &str| {
        let mut guard = model.lock();
        guard.set(&p("/query"), json!(text)).unwrap();
        let changes = guard.take_changes();
        b.recompute(guard.get(), &changes)
    };
    let changed = recompute(&mut b, "ru");
    assert_eq!(keys(&changed), ["q", "results"]);
    let older = b.take_tool_runs().remove(0);
    let mut older = Box::pin(older.eval(&model, &host));
    assert!(poll(&mut older).is_pending());
    // Already pending: the newer run changes nothing visible.
    assert_eq!(keys(&recompute(&mut b, "rus")), ["q"]);
    assert!(b.state("results").unwrap().is_pending());
    assert_eq!(b.value("results"), Some(&json!("first")));
    let newer = b.take_tool_runs().remove(0);
    server.release(1);
    // The older run's call returned, but the run stops: nothing to report.
    let done = block_on(older);
    assert!(done.result().is_none());
    assert!(b.finish(done).is_none());
    let mut newer = Box::pin(newer.eval(&model, &host));
    assert!(poll(&mut newer).is_pending());
    server.release(2);
    let done = block_on(newer);
    assert_eq!(b.finish(done).unwrap().key, "results");
    assert_eq!(b.value("results"), Some(&json!("third")));

    // A failed run: an error state keeping the previous value.
    recompute(&mut b, "rust");
    let run = b.take_tool_runs().remove(0);
    let mut run = Box::pin(run.eval(&model, &host));
    assert!(poll(&mut run).is_pending());
    server.release(3);
    let done = block_on(run);
    assert!(b.finish(done).is_some());
    let state = b.state("results").unwrap();
    assert!(state.error().unwrap().message().contains("down"));
    assert_eq!(state.value(), Some(&json!("third")));
    assert_eq!(server.tool_calls().len(), 4);
}

#[test]
fn a_tool_run_of_an_unbound_key_is_never_reported() {
    let server = ScriptedServer::from_json(
        &json!({"results": {"t": [{"content": [{"type": "text", "text": "x"}]}]}}),
    )
    .unwrap();
    let host = server.host();
    let model = SharedModel::new(json!({}));
    let mut b = Bindings::new();
    let tool = compile(json!({"@call": "callMcpTool", "args": {"name": "t"}}));
    b.register(1, tool.clone(), JsonPointer::root()).unwrap();
    b.recompute(&json!({}), &ChangeSet::new());
    let run = b.take_tool_runs().remove(0);
    b.unregister(&1);
    let done = block_on(run.eval(&model, &host));
    assert!(done.result().is_none(), "superseded before its first poll");
    assert!(b.finish(done).is_none());
    assert!(server.tool_calls().is_empty());
    // Bound again: the older run of the key is superseded too.
    b.register(1, tool.clone(), JsonPointer::root()).unwrap();
    b.recompute(&json!({}), &ChangeSet::new());
    let stale = b.take_tool_runs().remove(0);
    b.register(1, tool, JsonPointer::root()).unwrap();
    assert!(!stale.is_current());
}

#[test]
fn big_inputs_stay_linear() {
    // A key reading thousands of paths, one reading a path 128 tokens deep, a list over
    // 1 000 rows; a change set of 100 000 paths.
    let rows = 1_000;
    let (mut b, mut model) = surface(rows);
    let many: Vec<Value> = (0..5_000)
        .map(|i| json!({"@path": format!("/wide/{i}")}))
        .collect();
    b.register(
        "wide".into(),
        compile(Value::Array(many)),
        JsonPointer::root(),
    )
    .unwrap();
    let deep: String = (0..128).map(|i| format!("/d{i}")).collect();
    b.register(
        "deep".into(),
        compile(json!({"@path": deep})),
        JsonPointer::root(),
    )
    .unwrap();
    b.refresh(&mut model);
    let started = std::time::Instant::now();
    let mut changes = ChangeSet::new();
    for i in 0..100_000 {
        changes.record(p(&format!("/rows/{}/name/{i}", i % rows)));
    }
    for i in 0..rows {
        model.untracked_mut()["rows"][i]["name"] = json!({"edited": i});
    }
    let changed = b.recompute(model.get(), &changes);
    // Every row and the list; the list lists the 100 000 changes under it.
    assert_eq!(changed.len(), rows + 1);
    let list = changed.iter().find(|c| c.key == "list").unwrap();
    assert_eq!(list.under.len(), 100_000);
    assert_eq!(list.under[0], p("/rows/0/name/0"));
    // Loose bound: only catches a quadratic blow-up (seconds, not minutes, in a debug build).
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // The deep key, and the wide one, are affected by a change at their root.
    let changes: ChangeSet = [p("/d0"), p("/wide")].into_iter().collect();
    assert_eq!(
        b.recompute(model.get(), &changes).len(),
        0,
        "values stay null"
    );
}
