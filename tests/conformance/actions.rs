//! `actions.yaml` (`dispatch_action`): a Button carrying the case's action, activated through
//! [`Processor::activate`] in the case's scope.

use crate::suite::Outcome;
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
use a2ui_catalog_mcp::{Environment, JsonPointer, MCP_CATALOG_ID};
use serde_json::{Value, json};

pub fn run(case: &Value) -> Outcome {
    // An action naming an unknown function
    // must reach activation (where its error is reported), so calls are not checked on arrival.
    let options = ProcessorOptions::default()
        .with_accept_unregistered_catalogs(true)
        .with_check_calls(false);
    let mut processor = Processor::with_environment(Environment::new(), options);
    let model = case.get("dataModel").cloned().unwrap_or(json!({}));
    let created = processor.process(&json!({"version": "v1.0", "createSurface": {
        "surfaceId": "s", "catalogId": MCP_CATALOG_ID, "dataModel": model,
        "components": [{"id": "btn", "component": "Button", "action": case["actionPayload"]}]}}));
    if let Err(e) = created {
        return Outcome::Failed(format!("surface not created: {e}"));
    }
    let scope = case["scope"].as_str().unwrap_or("");
    let scope = JsonPointer::parse(scope).unwrap();
    let done = match processor.activate("s", "btn", &scope, "2026-01-01T00:00:00Z") {
        Ok(done) => done,
        Err(e) => return Outcome::Failed(format!("activation failed: {e}")),
    };
    match (case.get("expectDispatched"), &done.message) {
        (None, None) => {}
        (None, Some(m)) => return Outcome::Failed(format!("dispatched {m}, expected nothing")),
        (Some(_), None) => return Outcome::Failed("nothing dispatched".into()),
        (Some(want), Some(message)) => {
            let got = &message["action"];
            for (key, value) in want.as_object().unwrap() {
                if &got[key] != value {
                    return Outcome::Failed(format!("{key}: {} != {value}", got[key]));
                }
            }
            if want.get("context").is_none() && got["context"] != json!({}) {
                return Outcome::Failed(format!("context {} != {{}}", got["context"]));
            }
        }
    }
    let want_errors: Vec<&str> = case["expectDispatchedErrors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    let got_errors: Vec<&str> = done.errors.iter().map(|e| e.code().as_str()).collect();
    if want_errors != got_errors {
        return Outcome::Failed(format!("errors {got_errors:?} != {want_errors:?}"));
    }
    Outcome::Passed
}
