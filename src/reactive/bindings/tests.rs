use super::*;
use crate::Environment;
use crate::error::ErrorCode;
use crate::model::{DataModel, SharedModel};
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::ChangeSet;
use crate::reactive::TrackedModel;
use crate::testing::{ScriptedServer, block_on};
use serde_json::Value;
use serde_json::json;
use std::borrow::Cow;
use std::sync::Arc;
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
    // Only the label is evaluated: the other five are bare bindings, read in the model.
    assert_eq!((b.evaluations(), b.recomputed()), (1, 6));
    // A keystroke in the query field: only the label is evaluated.
    model.set(&p("/query"), json!("a b")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(keys(&changed), ["label"]);
    assert_eq!((b.evaluations(), b.recomputed()), (2, 7));
    assert_eq!(
        b.value("label", model.get()).as_deref(),
        Some(&json!(["a", "b"]))
    );
    assert_eq!(b.value("row 2", model.get()).as_deref(), Some(&json!("r2")));
    // Nothing changed: nothing evaluated.
    assert!(b.recompute(model.get(), &ChangeSet::new()).is_empty());
    assert_eq!((b.evaluations(), b.recomputed()), (2, 7));
}

#[test]
fn equal_computed_values_are_not_reported_bare_bindings_are_when_reached() {
    let (mut b, mut model) = surface(2);
    b.refresh(&mut model);
    model.set(&p("/query"), json!("")).unwrap();
    model.set(&p("/title"), json!("T")).unwrap();
    model
        .set(&p("/rows/1"), json!({"name": "r1", "extra": 1}))
        .unwrap();
    let changed = b.refresh(&mut model);
    // The label was evaluated again, to the same value: not reported. The bare bindings a
    // change reached are reported without being read or compared.
    assert_eq!(keys(&changed), ["list", "row 1", "title"]);
    assert_eq!((b.evaluations(), b.recomputed()), (2, 5 + 4));
    // Numbers by value, keys in any order.
    let mut b = Bindings::new();
    let mut model = TrackedModel::new(json!({"n": {"a": 1, "b": 2}}));
    let same =
        json!({"@call": "transformData", "args": {"data": {"@path": "/n"}, "jmespath": "@"}});
    b.register((), compile(same), JsonPointer::root()).unwrap();
    b.refresh(&mut model);
    model.set(&p("/n"), json!({"b": 2.0, "a": 1})).unwrap();
    assert!(b.refresh(&mut model).is_empty());
    assert_eq!(b.evaluations(), 2);
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
    assert_eq!(*list.under, [p("/rows/3/name"), p("/rows/1/name")]);
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
    assert_eq!(
        keys(&changed),
        ["list", "row 0", "row 1", "row 2", "row 3", "row 4"]
    );
    assert_eq!(b.value("row 0", model.get()).as_deref(), Some(&json!("y")));
    assert_eq!(b.value("row 1", model.get()).as_deref(), Some(&Value::Null));
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
    assert_eq!(*changed[0].under, [p("/a/b/c"), p("/a/d")]);
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
    b.register("k", compile(json!([{"@path": "/a"}])), JsonPointer::root())
        .unwrap();
    assert_eq!(b.recompute(&model, &ChangeSet::new()).len(), 1);
    // Bound again to a payload giving the same value: evaluated, not reported.
    b.register("k", compile(json!([{"@path": "/b"}])), JsonPointer::root())
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
    assert_eq!(b.value("k", model.get()).as_deref(), Some(&json!(["12"])));
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
    assert_eq!(b.value("results", &Value::Null).as_deref(), None);
    let mut runs = b.take_tool_runs();
    assert_eq!(runs.len(), 1);
    let mut first = Box::pin(runs.remove(0).eval(&model, &host));
    assert!(poll(&mut first).is_pending());
    server.release(0);
    let done = block_on(first);
    assert_eq!(done.result().unwrap().as_ref().unwrap(), &json!("first"));
    let change = b.finish(done);
    assert_eq!(keys(&change), ["results"]);
    assert_eq!(
        b.value("results", &Value::Null).as_deref(),
        Some(&json!("first"))
    );

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
    assert_eq!(
        b.value("results", &Value::Null).as_deref(),
        Some(&json!("first"))
    );
    let newer = b.take_tool_runs().remove(0);
    server.release(1);
    // The older run's call returned, but the run stops: nothing to report.
    let done = block_on(older);
    assert!(done.result().is_none());
    assert!(b.finish(done).is_empty());
    let mut newer = Box::pin(newer.eval(&model, &host));
    assert!(poll(&mut newer).is_pending());
    server.release(2);
    let done = block_on(newer);
    assert_eq!(keys(&b.finish(done)), ["results"]);
    assert_eq!(
        b.value("results", &Value::Null).as_deref(),
        Some(&json!("third"))
    );

    // A failed run: an error state keeping the previous value.
    recompute(&mut b, "rust");
    let run = b.take_tool_runs().remove(0);
    let mut run = Box::pin(run.eval(&model, &host));
    assert!(poll(&mut run).is_pending());
    server.release(3);
    let done = block_on(run);
    assert_eq!(b.finish(done).len(), 1);
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
    assert!(b.finish(done).is_empty());
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
    // A key reading 10 000 paths, one reading a path 128 tokens deep, a list over
    // 1 000 rows; a change set of 100 000 paths.
    let rows = 1_000;
    let (mut b, mut model) = surface(rows);
    let many: Vec<Value> = (0..10_000)
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
    // The wide one is evaluated (its values stay null: not reported); the deep one is a bare
    // binding a change reached.
    let changes: ChangeSet = [p("/d0"), p("/wide")].into_iter().collect();
    assert_eq!(keys(&b.recompute(model.get(), &changes)), ["deep"]);
}

#[test]
fn keys_of_one_payload_and_context_share_one_value_and_one_evaluation() {
    let mut b = Bindings::new();
    let mut model = TrackedModel::new(json!({"rows": [{"name": "a"}, {"name": "b"}], "n": 1}));
    let count = compile(
        json!({"@call": "transformData", "args": {"data": {"@path": "/rows"}, "jmespath": "length(@)"}}),
    );
    // The same compiled payload, bound under three keys (in three contexts: it reads no
    // relative path, so one value serves them all).
    for (key, context) in [("a", "/"), ("b", "/"), ("c", "/rows/0")] {
        b.register(key, count.clone(), p(context)).unwrap();
    }
    // Bare bindings of one absolute path, compiled apart, in different contexts.
    b.register("n1", compile(json!({"@path": "/n"})), JsonPointer::root())
        .unwrap();
    b.register("n2", compile(json!({"@path": "/n"})), p("/rows"))
        .unwrap();
    b.register("n3", compile(json!({"@path": "n"})), JsonPointer::root())
        .unwrap();
    assert_eq!(b.len(), 6);
    assert_eq!(keys(&b.refresh(&mut model)).len(), 6);
    assert_eq!(b.evaluations(), 1);
    model.set(&p("/rows/2"), json!({"name": "c"})).unwrap();
    model.set(&p("/n"), json!(2)).unwrap();
    assert_eq!(b.values_len(), 2);
    assert_eq!(
        keys(&b.refresh(&mut model)),
        ["a", "b", "c", "n1", "n2", "n3"]
    );
    assert_eq!(b.evaluations(), 2);
    // One stored value, handed out shared.
    let (Some(ValueState::Ready(x)), Some(ValueState::Ready(y))) = (b.state("a"), b.state("c"))
    else {
        panic!("ready");
    };
    assert!(Arc::ptr_eq(x, y));
    assert_eq!(**x, json!(3));
    // Unbinding one key keeps the value for the others.
    assert!(b.unregister("a"));
    model.set(&p("/rows/3"), json!({})).unwrap();
    assert_eq!(keys(&b.refresh(&mut model)), ["b", "c"]);
    assert_eq!(b.value("c", model.get()).as_deref(), Some(&json!(4)));
    assert_eq!(b.evaluations(), 3);
}

#[test]
fn bare_bindings_lend_the_model_value_without_copying_or_comparing() {
    let big: Vec<Value> = (0..100_000).map(|i| json!({"name": i})).collect();
    let mut model = TrackedModel::new(json!({ "rows": big }));
    let mut b = Bindings::new();
    b.register(
        "list",
        compile(json!({"@path": "/rows"})),
        JsonPointer::root(),
    )
    .unwrap();
    b.register(
        "missing",
        compile(json!({"@path": "/nothing"})),
        JsonPointer::root(),
    )
    .unwrap();
    b.refresh(&mut model);
    model.set(&p("/rows/5/name"), json!("x")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(keys(&changed), ["list"]);
    assert_eq!(*changed[0].under, [p("/rows/5/name")]);
    assert_eq!(b.evaluations(), 0);
    // The value is the model's own, borrowed.
    match b.value("list", model.get()) {
        Some(Cow::Borrowed(v)) => assert!(std::ptr::eq(v, &model.get()["rows"])),
        other => panic!(
            "not a borrow of the model: {:?}",
            other.map(|v| v.is_array())
        ),
    }
    assert_eq!(
        b.value("missing", model.get()).as_deref(),
        Some(&Value::Null)
    );
    assert!(matches!(b.state("list"), Some(ValueState::Bound)));
    assert_eq!(b.state("list").unwrap().value(), None);
}

#[test]
fn a_shared_tool_value_reports_every_key() {
    let server = ScriptedServer::from_json(
        &json!({"results": {"t": [{"content": [{"type": "text", "text": "x"}]}]}}),
    )
    .unwrap();
    let host = server.host();
    let model = SharedModel::new(json!({}));
    let mut b = Bindings::new();
    let tool = compile(json!({"@call": "callMcpTool", "args": {"name": "t"}}));
    b.register(1, tool.clone(), JsonPointer::root()).unwrap();
    b.register(2, tool, JsonPointer::root()).unwrap();
    assert_eq!(b.recompute(&json!({}), &ChangeSet::new()).len(), 2);
    let mut runs = b.take_tool_runs();
    assert_eq!(runs.len(), 1, "one run for the shared value");
    let done = block_on(runs.remove(0).eval(&model, &host));
    assert_eq!(keys(&b.finish(done)), [1, 2]);
    assert_eq!(server.tool_calls().len(), 1);
}

/// Registers `n` keys (rows of one payload, bare), refreshes them all, edits one row (which
/// reaches one key), unregisters them all; returns the time taken.
fn keys_round_trip(n: u32) -> std::time::Duration {
    let mut b = Bindings::new();
    let name = compile(json!({"@path": "name"}));
    let started = std::time::Instant::now();
    for i in 0..n {
        b.register(i, name.clone(), p(&format!("/rows/{i}")))
            .unwrap();
    }
    let mut model = TrackedModel::new(json!({"rows": []}));
    assert_eq!(b.refresh(&mut model).len(), n as usize);
    model.set(&p("/rows/0"), json!({"name": "a"})).unwrap();
    assert_eq!(keys(&b.refresh(&mut model)), [0]);
    assert_eq!(b.evaluations(), 0);
    for i in 0..n {
        assert!(b.unregister(&i));
    }
    assert!(b.is_empty());
    assert_eq!(b.values_len(), 0);
    started.elapsed()
}

#[test]
fn a_million_keys_cost_what_a_change_reaches() {
    // Linear in the keys: ten times the keys, about ten times the time. The bound only catches
    // a quadratic blow-up (a hundred times), with room for a loaded machine.
    let small = keys_round_trip(100_000);
    let large = keys_round_trip(1_000_000);
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-3);
    assert!(
        ratio < 40.0,
        "{small:?} for 100 000 keys, {large:?} for 1 000 000"
    );
}

#[test]
fn a_template_registers_once_and_refreshes_the_rows_a_change_reaches() {
    let n = 100_000;
    let rows: Vec<Value> = (0..n).map(|i| json!({"name": format!("r{i}")})).collect();
    let mut model = TrackedModel::new(json!({"rows": rows, "sep": "-"}));
    let mut b = Bindings::new();
    // A computed row value reading its row and an absolute path.
    let label = compile(json!({"@call": "transformData", "args": {
        "data": {"n": {"@path": "name"}, "s": {"@path": "/sep"}}, "jmespath": "join(s, [n, n])"}}));
    b.register_template("label", p("/rows"), label, JsonPointer::root())
        .unwrap();
    b.register_template(
        "name",
        p("/rows"),
        compile(json!({"@path": "name"})),
        JsonPointer::root(),
    )
    .unwrap();
    assert_eq!(b.len(), 2);
    let first = b.refresh(&mut model);
    assert_eq!(first.len(), 2);
    assert!(
        first
            .iter()
            .all(|c| c.rows.as_ref().unwrap().appeared == (0..n))
    );
    assert_eq!(b.evaluations(), n as u64);
    assert_eq!(
        b.row_value("label", 7, model.get()).as_deref(),
        Some(&json!("r7-r7"))
    );

    // One row edited: that row's label alone is evaluated; the bare name is not.
    model.set(&p("/rows/500/name"), json!("x")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(b.evaluations(), n as u64 + 1);
    for change in &changed {
        assert_eq!(
            change.rows.as_ref().unwrap().changed,
            [500],
            "{:?}",
            change.key
        );
    }
    assert_eq!(
        b.row_value("label", 500, model.get()).as_deref(),
        Some(&json!("x-x"))
    );
    // A member no row reads: nothing.
    model.set(&p("/rows/3/other"), json!(1)).unwrap();
    assert!(b.refresh(&mut model).is_empty());

    // Rows removed: the rows after them move up, nothing is evaluated.
    model.remove(&p("/rows/0")).unwrap();
    model.remove(&p("/rows/10")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(changed.len(), 2);
    for change in &changed {
        let rows = change.rows.as_ref().unwrap();
        assert_eq!((rows.removed.as_slice(), rows.len), (&[0, 10][..], n - 2));
        assert!(rows.changed.is_empty() && rows.appeared.is_empty() && !rows.replaced);
    }
    assert_eq!(b.evaluations(), n as u64 + 1);
    assert_eq!(
        b.row_value("label", 0, model.get()).as_deref(),
        Some(&json!("r1-r1"))
    );
    assert_eq!(
        b.row_value("label", 10, model.get()).as_deref(),
        Some(&json!("r12-r12"))
    );
    assert_eq!(
        b.row_value("name", 10, model.get()).as_deref(),
        Some(&json!("r12"))
    );

    // The absolute path every label reads: every label, and the bare names are untouched.
    model.set(&p("/sep"), json!("+")).unwrap();
    let changed = b.refresh(&mut model);
    assert_eq!(keys(&changed), ["label"]);
    assert_eq!(changed[0].rows.as_ref().unwrap().changed.len(), n - 2);

    // The list replaced by a shorter one: rows disappeared, the kept ones refreshed.
    model
        .set(&p("/rows"), json!([{"name": "a"}, {"name": "r1"}]))
        .unwrap();
    let changed = b.refresh(&mut model);
    let name = changed
        .iter()
        .find(|c| c.key == "name")
        .unwrap()
        .rows
        .clone()
        .unwrap();
    assert!(name.replaced);
    assert_eq!((name.changed, name.disappeared), (vec![0, 1], 2..n - 2));
    let label = changed
        .iter()
        .find(|c| c.key == "label")
        .unwrap()
        .rows
        .clone()
        .unwrap();
    assert_eq!(label.changed, [0, 1]);
    assert_eq!(b.rows("label"), Some(2));
    assert_eq!(b.row_value("label", 2, model.get()), None);

    // Unbound like any key; a template of a payload that calls a tool is refused.
    assert!(b.unregister("label"));
    assert!(!b.contains_key("label"));
    let tool = compile(json!({"@call": "callMcpTool", "args": {"name": "t"}}));
    let err = b
        .register_template("t", p("/rows"), tool, JsonPointer::root())
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::DataError);
}
