//! Issue 27, items 1 and 3: the attacks of the input-safety review, each run through the entry
//! point it targets.
//!
//! Depth: every route by which untrusted input names a path (a payload literal, a bound write
//! target, `targetDataPath`, an A2UI `updateDataModel` message, `TrackedModel::set`, a
//! `Bindings` context) runs on a 2 MiB thread, a tokio worker's default stack, with paths of
//! 22 000 and 1 000 000 tokens: each must come back as a located `LIMIT_EXCEEDED`, not abort
//! the process with a stack overflow.
//!
//! Memory: each attack of item 3 runs in a child process of its own (this test binary, run
//! again for one attack), which reports the peak of its resident memory above what it held
//! before the attack (Linux's `VmHWM`, reset through `/proc/self/clear_refs`); the peak must
//! stay under 64 MiB, and the attack must fail with `LIMIT_EXCEEDED` and write nothing.

#[path = "support/deep.rs"]
mod deep;
#[path = "support/peak.rs"]
mod peak;
use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel};
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{
    Environment, ErrorCode, JsonPointer, Limits, SharedModel,
    data_model::{Write, apply_writes},
    messages,
};
use deep::drop_deep;
use serde_json::{Value, json};
use std::sync::Arc;

/// Runs `f` on a thread with a 2 MiB stack; a stack overflow there aborts the test binary.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("the thread starts")
        .join()
        .expect("no panic")
}

/// A pointer of `n` tokens `a`.
fn long_path(n: usize) -> String {
    "/a".repeat(n)
}

/// The path lengths of the review: enough to overflow a 2 MiB stack in a recursive clone, and
/// enough for a recursive drop of the rollback.
const LENGTHS: [usize; 2] = [22_000, 1_000_000];

/// A value nested `depth` arrays deep, built without recursion.
fn nested(depth: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

fn assert_limit(err: &a2ui_catalog_mcp::Error, what: &str) {
    assert_eq!(err.code(), ErrorCode::LimitExceeded, "{what}: {err}");
    // The message quotes a bounded part of the path, never the whole of it.
    assert!(err.message().len() < 400, "{what}: {}", err.message());
}

#[test]
fn a_literal_write_path_past_the_limit_is_a_compile_error() {
    on_small_stack(|| {
        let env = Environment::new();
        for n in LENGTHS {
            let payload = json!([
                {"@call": "updateDataModel", "args": {"updates": {long_path(n): 1}}},
                {"@path": "/"}
            ]);
            let err = env.compile(&payload).unwrap_err();
            assert_limit(&err, "literal updates");
            let err = err.problems().next().unwrap();
            assert_eq!(err.location(), "/0", "{err}");
            assert_eq!(err.function(), Some("updateDataModel"));
            // `check` reports it (it printed "no problems" before).
            let found = env.check(&payload);
            assert_eq!(found.errors()[0].code(), ErrorCode::LimitExceeded);
        }
    });
}

#[test]
fn a_write_path_past_the_limit_is_refused_when_it_runs() {
    on_small_stack(|| {
        let env = Environment::new();
        for n in LENGTHS {
            // The value is bound, so the write is checked when it runs.
            let payload = env
                .compile(&json!([
                    {"@call": "updateDataModel", "args": {"updates": {long_path(n): {"@path": "/v"}}}},
                    {"@path": "/"}
                ]))
                .unwrap();
            let mut model = json!({"v": 1});
            let err = payload.eval(&mut model).unwrap_err();
            assert_limit(&err, "bound updates");
            assert_eq!(err.location(), "/0");
            assert_eq!(model, json!({"v": 1}));
            // A relative path joined to a long data context.
            let payload = env
                .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"x": 1}}}))
                .unwrap();
            let context = JsonPointer::from_tokens(std::iter::repeat_n("a", n));
            let err = payload.eval_in(&mut model, &context).unwrap_err();
            assert_limit(&err, "relative path in a long context");
            assert_eq!(model, json!({"v": 1}));
        }
    });
}

#[test]
fn a_binding_path_past_the_limit_is_a_compile_error() {
    on_small_stack(|| {
        let env = Environment::new();
        for n in LENGTHS {
            let err = env.compile(&json!({"@path": long_path(n)})).unwrap_err();
            assert_limit(&err, "binding");
            let err = env
                .compile(&json!({"@path": &long_path(n)[1..]}))
                .unwrap_err();
            assert_limit(&err, "relative binding");
        }
    });
}

#[test]
fn writes_never_nest_deeper_than_the_limit() {
    on_small_stack(|| {
        let env = Environment::new();
        // The path within the limit, the value within it, together past it.
        let payload = env
            .compile(&json!({"@call": "updateDataModel", "args": {"updates": {long_path(100): {"@path": "/v"}}}}))
            .unwrap();
        let mut model = json!({"v": nested(29)});
        let err = payload.eval(&mut model).unwrap_err();
        assert_limit(&err, "path and value");
        assert!(
            err.message().contains("deeper than the limit of 128"),
            "{err}"
        );
        assert_eq!(model, json!({"v": nested(29)}));
        model["v"] = nested(28);
        payload.eval(&mut model).unwrap();

        // Wrapping the whole model in itself, again and again, stops at the limit.
        let wrap = env
            .compile(
                &json!({"@call": "updateDataModel", "args": {"updates": {"/w": {"@path": "/"}}}}),
            )
            .unwrap();
        let mut model = json!({});
        let mut refused = None;
        for i in 0..400 {
            if let Err(e) = wrap.eval(&mut model) {
                refused = Some((i, e));
                break;
            }
        }
        let (i, err) = refused.expect("the limit stops the wrapping");
        assert_limit(&err, "wrapping");
        // The model {} nests 1 level and each run adds one: the 127th run makes 128, the limit.
        assert_eq!(i, 127, "{err}");
    });
}

#[test]
fn a_target_data_path_past_the_limit_is_refused() {
    on_small_stack(|| {
        let env = Environment::new();
        let server = ScriptedServer::from_json(&json!({
            "results": {"t": [{"content": [{"type": "text", "text": "[[1]]"}]}]}
        }))
        .unwrap();
        for n in LENGTHS {
            // A literal target: at compile time.
            let err = env
                .compile(&json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": long_path(n)}}))
                .unwrap_err();
            assert_limit(&err, "literal targetDataPath");
            assert_eq!(
                err.problems().next().unwrap().function(),
                Some("callMcpTool")
            );
            // A bound one: when the call runs, before the tool is called.
            let payload = env
                .compile(&json!([
                    {"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": {"@path": "/target"}}},
                    {"@path": "/"}
                ]))
                .unwrap();
            let model = SharedModel::new(json!({"target": long_path(n)}));
            let err = block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host()))
                .unwrap_err();
            assert_limit(&err, "bound targetDataPath");
            assert_eq!(err.location(), "/0");
            assert_eq!(model.into_inner(), json!({"target": long_path(n)}));
        }
        assert!(server.tool_calls().is_empty());
        // Within the limit, but the tool's value would nest past it there.
        let payload = env
            .compile(&json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": long_path(126)}}))
            .unwrap();
        let model = SharedModel::new(json!({}));
        let err =
            block_on(payload.eval_async(&model, &JsonPointer::root(), &server.host())).unwrap_err();
        assert_limit(&err, "tool value");
        assert_eq!(model.into_inner(), json!({}));
    });
}

#[test]
fn an_a2ui_message_path_past_the_limit_is_refused_and_reported() {
    on_small_stack(|| {
        let env = Environment::new();
        for n in LENGTHS {
            let message = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": long_path(n), "value": 1}});
            let mut model = TrackedModel::new(json!({}));
            let err = model.apply_message(&message).unwrap_err();
            assert_limit(&err, "message");
            let removal = json!({"surfaceId": "s", "path": long_path(n)});
            assert_limit(&model.apply_message(&removal).unwrap_err(), "removal");
            let err = model
                .set(
                    &JsonPointer::from_tokens(std::iter::repeat_n("a", n)),
                    json!(1),
                )
                .unwrap_err();
            assert_limit(&err, "TrackedModel::set");
            assert!(model.changes().is_empty());
            assert_eq!(model.get(), &json!({}));

            // The stream checker (and so `check`) reports it, located at the path.
            let stream = json!([
                {"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": a2ui_catalog_mcp::MCP_CATALOG_ID}},
                message
            ]);
            let report = messages::check_stream(&env, &stream.to_string());
            let problem = report
                .problems()
                .iter()
                .find(|p| p.code() == ErrorCode::LimitExceeded)
                .unwrap_or_else(|| panic!("{:?}", report.problems()));
            assert_eq!(problem.message_index(), Some(1));
            assert_eq!(problem.location(), "/updateDataModel/path");
        }
        // The surfaces processor: the same message, and a createSurface whose inline data model
        // and a component property nest past the limit (found before they are copied).
        for n in LENGTHS {
            let message = json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": long_path(n), "value": 1}});
            let mut processor = Processor::new(ProcessorOptions::default());
            processor
                .process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}}))
                .unwrap();
            let err = processor.process(&message).unwrap_err();
            assert_limit(&err, "processor message");
        }
        // (Deep parts are moved in: `json!` would serialize them recursively.)
        let mut deep =
            json!({"version": "v1.0", "createSurface": {"surfaceId": "t", "dataModel": null}});
        deep["createSurface"]["dataModel"] = nested(LENGTHS[0]);
        let mut processor = Processor::new(ProcessorOptions::default());
        let err = processor.process(&deep).unwrap_err();
        assert_limit(&err, "inline data model");
        drop_deep(deep);
        let mut deep = json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "components": [
            {"id": "root", "component": "Text", "text": null}]}});
        deep["createSurface"]["components"][0]["text"] = nested(LENGTHS[0]);
        let err = processor.process(&deep).unwrap_err();
        assert_limit(&err, "component property");
        drop_deep(deep);
        assert!(processor.surface("s").is_none() && processor.surface("t").is_none());
        // A value that would nest past the limit at its path.
        let message = json!({"surfaceId": "s", "path": long_path(100), "value": nested(29)});
        let mut model = TrackedModel::new(json!({}));
        assert_limit(&model.apply_message(&message).unwrap_err(), "message value");
        assert_eq!(model.get(), &json!({}));
        let stream = json!([{"version": "v1.0", "updateDataModel": message}]);
        let report = messages::check_stream(&env, &stream.to_string());
        assert!(
            report
                .problems()
                .iter()
                .any(|p| p.code() == ErrorCode::LimitExceeded
                    && p.location() == "/updateDataModel/value"),
            "{:?}",
            report.problems()
        );
    });
}

#[test]
fn a_bindings_context_past_the_limit_is_refused() {
    on_small_stack(|| {
        let env = Environment::new();
        let payload = Arc::new(env.compile(&json!({"@path": "/"})).unwrap());
        let mut bindings = Bindings::new();
        for n in LENGTHS {
            let context = JsonPointer::from_tokens(std::iter::repeat_n("a", n));
            let err = bindings
                .register("k", Arc::clone(&payload), context)
                .unwrap_err();
            assert_limit(&err, "context");
            let name = Arc::new(env.compile(&json!({"@path": "name"})).unwrap());
            let array = JsonPointer::from_tokens(std::iter::repeat_n("a", n));
            let err = bindings
                .register_template("t", array, name, JsonPointer::root())
                .unwrap_err();
            assert_limit(&err, "template array");
        }
        assert!(bindings.is_empty());
    });
}

#[test]
fn a_host_model_deeper_than_the_limit_is_refused_not_walked() {
    on_small_stack(|| {
        let env = Environment::new();
        // The host's own model, written by the host through apply_writes (no limit there).
        let mut model = json!({});
        let deep = JsonPointer::from_tokens(std::iter::repeat_n("a", 100_000));
        apply_writes(
            &mut model,
            vec![Write {
                path: deep,
                value: json!(1),
            }],
            10,
        )
        .unwrap();

        // Reading the whole model copies it: refused.
        let read = env.compile(&json!({"@path": "/"})).unwrap();
        assert_limit(&read.eval(&mut model).unwrap_err(), "read");
        let listed = env.compile(&json!([{"@path": "/a"}])).unwrap();
        assert_limit(&listed.eval(&mut model).unwrap_err(), "read into a literal");
        // Copied into the updates object: refused.
        let copy = env
            .compile(
                &json!({"@call": "updateDataModel", "args": {"updates": {"/b": {"@path": "/a"}}}}),
            )
            .unwrap();
        assert_limit(&copy.eval(&mut model).unwrap_err(), "copied value");
        // An argument a function may copy: refused at the call.
        let transform = env
            .compile(&json!({"@call": "transformData", "args": {"jmespath": "@", "data": {"@path": "/a"}}}))
            .unwrap();
        let err = transform.eval(&mut model).unwrap_err();
        assert_limit(&err, "argument");
        assert_eq!(err.function(), Some("transformData"));
        // Bindings: a bare binding on `/` is lent from the model, never copied or walked by
        // the engine (what the renderer does with the host's deep model is the host's choice);
        // a computed value that would copy it fails, and the renderer keeps going.
        let mut tracked = TrackedModel::new(model);
        let mut bindings = Bindings::new();
        bindings
            .register("root", Arc::new(read), JsonPointer::root())
            .unwrap();
        bindings
            .register("listed", Arc::new(listed), JsonPointer::root())
            .unwrap();
        bindings.refresh(&mut tracked);
        assert!(matches!(
            bindings.state("root").unwrap(),
            a2ui_catalog_mcp::reactive::ValueState::Bound
        ));
        let state = bindings.state("listed").unwrap();
        assert_eq!(state.error().unwrap().code(), ErrorCode::LimitExceeded);
        drop(bindings);
        drop_deep(tracked.into_parts().0);
    });
}

#[test]
fn the_rollback_of_a_long_write_does_not_recurse() {
    on_small_stack(|| {
        // The host's own group: a write a million tokens deep, then one that fails.
        let mut model = json!({"s": "text"});
        let writes = vec![
            Write {
                path: JsonPointer::from_tokens(std::iter::repeat_n("a", 1_000_000)),
                value: json!(1),
            },
            Write {
                path: JsonPointer::parse("/s/x").unwrap(),
                value: json!(1),
            },
        ];
        let err = apply_writes(&mut model, writes, 10).unwrap_err();
        assert_eq!(err.code(), ErrorCode::DataError);
        assert_eq!(model, json!({"s": "text"}));
        // The same through the root: the new root is dropped, the old one restored.
        let mut model = Value::Null;
        let writes = vec![
            Write {
                path: JsonPointer::from_tokens(std::iter::repeat_n("a", 1_000_000)),
                value: json!(1),
            },
            Write {
                path: JsonPointer::parse("/x/11").unwrap(),
                value: json!(1),
            },
        ];
        assert!(apply_writes(&mut model, writes, 10).is_err());
        assert_eq!(model, Value::Null);
    });
}

/// A `transformData` call of `[@,@]` piped `n` times over the whole model.
fn doubling(n: usize) -> Value {
    let expression = vec!["[@,@]"; n].join(" | ");
    json!({"@call": "transformData", "args": {"jmespath": expression, "data": {"@path": "/"}}})
}

/// The attacks of item 3 that allocate: each returns its peak, after checking that it failed
/// with `LIMIT_EXCEEDED` and wrote nothing.
#[cfg(target_os = "linux")]
fn run_attack(name: &str) -> u64 {
    let env = Environment::new();
    let limit = |result: Result<Value, a2ui_catalog_mcp::Error>| {
        let err = result.unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded, "{name}: {err}");
        err
    };
    match name {
        // Eight transformData calls of `[@,@]` piped 21 times (1.6 KB): 2.6 GB on an empty
        // model, 5.8 GB on {"a": "x"} when each call had a budget of its own.
        "doubling-empty" | "doubling-a" => {
            let payload = env.compile(&Value::Array(vec![doubling(21); 8])).unwrap();
            let start = if name == "doubling-a" {
                json!({"a": "x"})
            } else {
                json!({})
            };
            let mut model = start.clone();
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            limit(result);
            assert_eq!(model, start);
            peak
        }
        // 3 000 keys like "/aN/10000" (50 KB) pad 30 M nulls.
        "padding" => {
            let updates: serde_json::Map<String, Value> = (0..3_000)
                .map(|i| (format!("/a{i}/10000"), json!(1)))
                .collect();
            let payload = env
                .compile(&json!({"@call": "updateDataModel", "args": {"updates": updates}}))
                .unwrap();
            let mut model = json!({"keep": 1});
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            let err = limit(result);
            assert!(err.message().contains("Limits::max_eval_items"), "{err}");
            assert_eq!(model, json!({"keep": 1}));
            peak
        }
        // split over 16 MiB of separators: 16 M pieces, whose positions alone took 128 MiB
        // when all were collected before the item limit was checked.
        "split" => {
            let payload = env
                .compile(&json!({"@call": "split", "args": {"value": {"@path": "/t"}, "separator": ","}}))
                .unwrap();
            let mut model = json!({"t": ",".repeat(16 << 20)});
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            let err = limit(result);
            assert_eq!(err.function(), Some("split"));
            peak
        }
        // [@,@] 19 times over 10 numbers: 2^19 copies of an 11-node array, 5.8 M nodes.
        "huge-result" => {
            let payload = env.compile(&doubling(19)).unwrap();
            let mut model = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            limit(result);
            peak
        }
        // `[@,@]` 10 times over a 1 MiB string: 1 024 copies of it, 1 GiB, when a copied
        // string cost one value whatever its length.
        "string-copies" => {
            let payload = env
                .compile(&json!({"@call": "transformData", "args": {
                    "jmespath": (["[@,@]"; 10].join(" | ")), "data": {"@path": "/s"}}}))
                .unwrap();
            let mut model = json!({"s": "x".repeat(1 << 20)});
            let (result, peak) = peak::peak_of(|| payload.eval(&mut model));
            limit(result);
            peak
        }
        // `[@,@] | []` 22 times over [0]: each turn doubles a flat array that the evaluation
        // holds in full (not shared), 4 M elements at the end.
        "flatten-doubling" => {
            let payload = env
                .compile(&json!({"@call": "transformData", "args": {
                    "jmespath": (["[@,@] | []"; 22].join(" | ")), "data": [0]}}))
                .unwrap();
            let (result, peak) = peak::peak_of(|| payload.eval(&mut json!({})));
            limit(result);
            peak
        }
        other => panic!("no attack {other}"),
    }
}

/// Each attack of item 3 in a child process, so that one's memory cannot hide another's.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_attacks_stay_under_64_mib() {
    peak::each_in_a_child(
        "the_memory_attacks_stay_under_64_mib",
        &[
            "doubling-empty",
            "doubling-a",
            "padding",
            "split",
            "huge-result",
            "string-copies",
            "flatten-doubling",
        ],
        run_attack,
    );
}

#[test]
fn padding_counts_what_writes_create() {
    let env = Environment::new();
    // Writes into arrays that exist pad nothing: within a small budget.
    let mut rows = json!({"rows": vec![0; 10_001]});
    let fill: serde_json::Map<String, Value> = (0..200)
        .map(|i| (format!("/rows/{}", 10_000 - i), json!(i)))
        .collect();
    env.compile(&json!({"@call": "updateDataModel", "args": {"updates": fill}}))
        .unwrap()
        .eval(&mut rows)
        .unwrap();
    let mut limits = Limits::default();
    limits.max_eval_items = 1_000;
    let small = Environment::new().with_limits(limits);
    let again = small
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/rows/10000": 1}}}))
        .unwrap();
    again.eval(&mut rows).unwrap();
    let padded = small
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/new/1001": 1}}}))
        .unwrap();
    let err = padded.eval(&mut rows).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert_eq!(err.location(), "");
    assert!(rows.get("new").is_none());
    let fits = small
        .compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/new/1000": 1}}}))
        .unwrap();
    fits.eval(&mut rows).unwrap();
    assert_eq!(rows["new"].as_array().unwrap().len(), 1_001);
}

#[test]
fn max_output_items_bounds_a_transform_result() {
    // One call's result, whatever the evaluation's budget.
    let mut limits = Limits::default();
    limits.max_eval_items = u64::MAX;
    limits.max_eval_steps = u64::MAX;
    limits.max_output_items = 1_000;
    let env = Environment::new().with_limits(limits);
    let mut model = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 2^7 copies of 11 nodes, and the 2^7 - 1 arrays above them: past 1 000.
    let err = env
        .compile(&doubling(7))
        .unwrap()
        .eval(&mut model)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert!(err.message().contains("Limits::max_output_items"), "{err}");
    let payload = env.compile(&doubling(6)).unwrap();
    assert_eq!(
        payload.eval(&mut model).unwrap().as_array().unwrap().len(),
        2
    );
}

#[test]
fn split_and_regex_capture_items_share_the_budget() {
    let mut limits = Limits::default();
    limits.max_eval_items = 8;
    let env = Environment::new().with_limits(limits);
    let split = json!({"@call": "split", "args": {"value": "a,b,c", "separator": ","}});
    let capture =
        json!({"@call": "regexCapture", "args": {"value": ["ab", "cd"], "pattern": "(.)(.)"}});
    // 3 pieces, then 2 items of 2 groups (6 values): 9 is past 8.
    let one = env.compile(&json!([split, split])).unwrap();
    assert_eq!(
        one.eval(&mut json!({})).unwrap().as_array().unwrap().len(),
        2
    );
    let both = env.compile(&json!([split, capture])).unwrap();
    let err = both.eval(&mut json!({})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert_eq!(err.function(), Some("regexCapture"));
    assert_eq!(err.location(), "/1");
    // Each evaluation has a budget of its own.
    assert!(one.eval(&mut json!({})).is_ok());
}

#[test]
fn jmespath_steps_count_for_the_whole_evaluation() {
    let mut limits = Limits::default();
    limits.max_eval_steps = 1_000;
    let env = Environment::new().with_limits(limits);
    // Each call takes a few hundred steps: alone it passes, several together do not.
    let call = json!({"@call": "transformData", "args": {"jmespath": "[*].[@, @]", "data": {"@path": "/rows"}}});
    let mut model = json!({"rows": (0..100).collect::<Vec<_>>()});
    env.compile(&call).unwrap().eval(&mut model).unwrap();
    let err = env
        .compile(&Value::Array(vec![call; 4]))
        .unwrap()
        .eval(&mut model)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert!(err.message().contains("Limits::max_eval_steps"), "{err}");
}
