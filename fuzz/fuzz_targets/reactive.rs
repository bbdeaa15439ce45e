//! `TrackedModel` / `Bindings` sequences: the input drives a series of operations (bind and
//! unbind keys, host writes, A2UI `updateDataModel` messages, removals, payloads that write,
//! refreshes) on one tracked model and one set of bindings. After each refresh, every bound
//! value that does not call a tool must be what evaluating its payload afresh gives: the
//! incremental recompute may skip a key only when nothing it reads changed.
#![no_main]

use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel, ValueState};
use a2ui_catalog_mcp::{DataModel, Environment, JsonPointer, Payload};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Built once: making an environment parses the MCP catalog, which would dominate each run.
static ENV: OnceLock<Environment> = OnceLock::new();

const TOKENS: &[&str] = &["a", "b", "rows", "0", "1", "2", "name", "x/y", "", "-"];
const EXPRESSIONS: &[&str] = &[
    "@",
    "length(@)",
    "[0]",
    "keys(@)",
    "a",
    "sum(@)",
    "[*].name",
];

fn path(u: &mut Unstructured<'_>) -> Result<String> {
    let depth = u.int_in_range(0..=4)?;
    let mut text = String::new();
    for _ in 0..depth {
        text.push('/');
        text.push_str(&u.choose(TOKENS)?.replace('~', "~0").replace('/', "~1"));
    }
    Ok(text)
}

fn value(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=8)? {
        0 => Value::Null,
        1 => json!(u.int_in_range(-3..=3)?),
        2 => json!("a,b"),
        3 => json!([1, 2, {"name": "n"}]),
        4 => json!({"a": 1, "name": "z"}),
        5 => json!({"rows": [{"name": "r0"}, {"name": "r1"}]}),
        6 => json!(9_007_199_254_740_993_u64),
        7 => json!(u.arbitrary::<bool>()?),
        _ => serde_json::from_str(u.arbitrary::<&str>()?).unwrap_or(Value::Null),
    })
}

fn payload(u: &mut Unstructured<'_>) -> Result<Value> {
    let p = path(u)?;
    Ok(match u.int_in_range(0..=5)? {
        0 => json!({"@path": p}),
        1 => json!({"@path": p.trim_start_matches('/')}),
        2 => json!({"@call": "transformData",
                    "args": {"data": {"@path": p}, "expression": u.choose(EXPRESSIONS)?}}),
        3 => json!({"@call": "split", "args": {"value": {"@path": p}, "separator": ","}}),
        4 => json!([{"@path": p}, {"@path": path(u)?}]),
        _ => serde_json::from_str(u.arbitrary::<&str>()?).unwrap_or(Value::Null),
    })
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let env = ENV.get_or_init(Environment::new);
    let mut model =
        TrackedModel::new(json!({"rows": [{"name": "r0"}], "a": {"b": 1}})).with_max_index(64);
    let mut bindings: Bindings<u8> = Bindings::new();
    let mut bound: HashMap<u8, (Arc<Payload>, JsonPointer)> = HashMap::new();
    for _ in 0..u.int_in_range(1..=32)? {
        match u.int_in_range(0..=7)? {
            0 | 1 => {
                let key = u.int_in_range(0..=7)?;
                let Ok(compiled) = env.compile(&payload(u)?) else {
                    continue;
                };
                let context = JsonPointer::parse(&path(u)?).unwrap_or_else(|_| JsonPointer::root());
                let compiled = Arc::new(compiled);
                if bindings
                    .register(key, compiled.clone(), context.clone())
                    .is_ok()
                {
                    bound.insert(key, (compiled, context));
                } else {
                    assert!(compiled.may_write());
                }
            }
            2 => {
                let key = u.int_in_range(0..=7)?;
                assert_eq!(bindings.unregister(&key), bound.remove(&key).is_some());
            }
            3 => {
                if let Ok(p) = JsonPointer::parse(&path(u)?) {
                    let _ = model.set(&p, value(u)?);
                }
            }
            4 => {
                let mut message = json!({"surfaceId": "s", "path": path(u)?});
                if u.arbitrary::<bool>()? {
                    message["value"] = value(u)?;
                }
                let _ =
                    model.apply_message(&json!({"version": "v1.0", "updateDataModel": message}));
            }
            5 => {
                if let Ok(p) = JsonPointer::parse(&path(u)?) {
                    let _ = model.remove(&p);
                }
            }
            6 => {
                let write = json!({"@call": "updateDataModel",
                                   "args": {"updates": {path(u)?: value(u)?}}});
                if let Ok(compiled) = env.compile(&write) {
                    let _ = compiled.eval(&mut model);
                }
            }
            _ => refresh(&mut bindings, &bound, &mut model),
        }
    }
    refresh(&mut bindings, &bound, &mut model);
    Ok(())
}

fn refresh(
    bindings: &mut Bindings<u8>,
    bound: &HashMap<u8, (Arc<Payload>, JsonPointer)>,
    model: &mut TrackedModel,
) {
    let _ = bindings.refresh(model);
    // No host drives the tool runs here: they are dropped, their keys stay pending.
    drop(bindings.take_tool_runs());
    for (key, (payload, context)) in bound {
        if payload.calls_tools() {
            continue;
        }
        let state = bindings
            .state(key)
            .expect("a bound key is evaluated by refresh");
        match (payload.eval_read(model.get(), context), state) {
            (Ok(fresh), ValueState::Ready(kept)) => {
                assert_eq!(&fresh, kept.as_ref(), "key {key} is stale: {payload:?} in {context}")
            }
            // A bare binding is lent from the model: what the renderer reads must be what an
            // evaluation gives.
            (Ok(fresh), ValueState::Bound) => {
                let lent = bindings.value(key, model.get()).expect("a bound key has a value");
                assert_eq!(&fresh, lent.as_ref(), "key {key} reads {lent:?}, not {fresh:?}")
            }
            (Err(_), ValueState::Failed { .. }) => {}
            (fresh, state) => panic!("key {key}: evaluated afresh {fresh:?}, kept {state:?}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
