//! `common_types.yaml`: the suite validates an SDK's own typed model of each common type (and
//! the schema generated from those models). The crate has no model per `$defs` entry; the
//! definitions it reads as a whole part of a message run through [`Processor::process`]
//! (`FunctionResponse`, `Extensions`, `ComponentCommon`): a value must be accepted, an
//! `expectError` refused. The rest is skipped with its reason.

use crate::suite::Outcome;
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
use serde_json::{Value, json};

const SDK_MODELS: &str = "validates the SDK's own typed model of a common type in isolation (its classes for the $defs of common_types.json, serialised back), or the schema generated from those models: the crate has no model per definition; it reads these types inside messages (the processor suites), where a v1.0 object that is not exactly a binding or a call is data, as the crate's spelling rules say";

/// The message a definition's value is read in, when the crate reads it in one:
/// `FunctionResponse` as the body of `agentFunctionResponse`, `Extensions` as a surface's
/// `metadata.extensions`, `ComponentCommon` as a component (of a type the surface's catalog,
/// not registered, does not check).
fn message(definition: &str, value: &Value) -> Option<Value> {
    Some(match definition {
        "FunctionResponse" => json!({"version": "v1.0", "agentFunctionResponse": value}),
        "Extensions" => json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
            "catalogId": "c", "metadata": {"extensions": value}}}),
        "ComponentCommon" => {
            let mut component = value.clone();
            component["component"] = json!("Text");
            json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
                "components": [component]}})
        }
        _ => return None,
    })
}

pub fn run(case: &Value) -> Outcome {
    let definition = case["definition"].as_str().unwrap_or("");
    if message(definition, &Value::Null).is_none() {
        return Outcome::Skipped(SDK_MODELS);
    }
    for (i, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let mut processor =
            Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
        let message = message(definition, &step["value"]).unwrap();
        match (processor.process(&message), step.get("expectError")) {
            (Ok(_), None) => {}
            (Err(e), Some(want)) if e.category().as_str() == want["category"] => {}
            (got, want) => {
                return Outcome::Failed(format!("step {i}: {got:?}, want {want:?}"));
            }
        }
    }
    Outcome::Passed
}
