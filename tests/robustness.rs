//! Random payloads and data never make the engine panic, and a failing evaluation leaves the
//! data model as it was unless an earlier sibling wrote.

use a2ui_catalog_mcp::{Environment, JsonPointer};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const MCP: &str = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-z/~0-9.,_@ -]{0,12}".prop_map(Value::from),
        prop_oneof![
            Just("/"),
            Just(""),
            Just("."),
            Just("/a/0"),
            Just("a/b"),
            Just("/__proto__/x"),
            Just("/rows/10001"),
            Just("/a~2")
        ]
        .prop_map(Value::from),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,4}",
        Just("@path".to_string()),
        Just("@call".to_string()),
        Just("args".to_string()),
        Just("catalogId".to_string()),
        Just("@@path".to_string()),
        Just("@x".to_string()),
        Just("/a".to_string()),
        Just("a/0".to_string()),
        Just("value".to_string()),
        Just("separator".to_string()),
        Just("updates".to_string()),
    ]
}

/// JSON biased towards the payload grammar: bindings, calls of the catalog's functions, and
/// near-misses of both.
fn payload() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner.clone()), 0..4).prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
            inner.clone().prop_map(|p| json!({"@path": p})),
            (prop_oneof![Just("split"), Just("updateDataModel"), Just("transformData"), Just("nope")], inner.clone(), inner.clone())
                .prop_map(|(f, a, b)| json!({"@call": f, "catalogId": MCP, "args": {"value": a, "separator": b}})),
            (inner.clone(), inner).prop_map(|(u, v)| json!({"@call": "updateDataModel", "args": {"updates": {"/a": u, "b/0": v}}})),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn compile_and_eval_never_panic(p in payload(), data in payload(), ctx in prop_oneof![Just("/"), Just("/a"), Just("/rows/0")]) {
        let env = Environment::new();
        let mut model = data;
        if let Ok(compiled) = env.compile(&p) {
            let _ = compiled.eval_in(&mut model, &JsonPointer::parse(ctx).unwrap());
        }
        let _ = env.compile_str(&p.to_string());
    }

    #[test]
    fn a_failing_update_writes_nothing(updates in prop::collection::vec((leaf(), payload()), 0..6), data in payload()) {
        let env = Environment::new();
        let updates: Map<String, Value> = updates.into_iter().map(|(k, v)| (k.as_str().unwrap_or("x").to_owned(), v)).collect();
        // The updates come from the data model, so that they are not evaluated as a payload.
        let compiled = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"@path": "/__u"}}})).unwrap();
        let mut store = json!({"__u": Value::Object(updates), "m": data});
        let snapshot = store.clone();
        if compiled.eval(&mut store).is_err() {
            prop_assert_eq!(&store, &snapshot);
        }
    }
}
