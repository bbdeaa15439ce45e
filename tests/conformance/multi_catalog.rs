//! `multi_catalog.yaml` (`select_catalog`): a surface on one of several registered catalogs.
//! The surface's `supportedCatalogIds` are the processor's registered catalogs, its
//! `defaultCatalogId` the `createSurface`'s `catalogId`; the components are created with it,
//! and the catalog each one resolved to ([`Component::catalog`]) is compared. A function call
//! is a component property: every supported catalog implements the called function, each
//! answering with its own id, so the value says which catalog the call resolved to.
//!
//! An error is compared by its category and the catalog it names (the suite's wording is
//! another SDK's).

use crate::suite::Outcome;
use a2ui_catalog_mcp::functions::ArgSchema;
use a2ui_catalog_mcp::surfaces::{Component, Processor, ProcessorOptions};
use a2ui_catalog_mcp::{Args, Catalog, Environment, JsonPointer};
use serde_json::{Map, Value, json};

const MIXED_VERSIONS: &str = "a surface's own list of supported catalogs is the Python SDK's surface object: here the renderer's registered catalogs serve every surface, a v0.9 catalog beside v1.0 ones included (a renderer of both versions), and a v1.0 surface that uses a v0.9 catalog is refused (message_processor_v1_0's catalog cases)";

pub fn run(case: &Value) -> Outcome {
    let args = &case["args"];
    let surface = &args["surface"];
    if args.get("catalogs").is_some() {
        return Outcome::Skipped(MIXED_VERSIONS);
    }
    let surface_id = surface["id"].as_str().unwrap();
    let default = surface["defaultCatalogId"].as_str().unwrap();
    let function = args["functionCall"]["call"].as_str();
    let mut env = Environment::new();
    let mut documents = Vec::new();
    for id in surface["supportedCatalogIds"].as_array().unwrap() {
        let id = id.as_str().unwrap();
        let mut catalog = Catalog::new(id);
        if let Some(name) = function {
            let answer = Value::String(id.to_owned());
            catalog = catalog.with_function(
                name,
                ArgSchema::new().allow_additional(),
                move |_: &Args<'_>| Ok(answer.clone()),
            );
        }
        env.add_catalog(catalog);
        documents.push(json!({"catalogId": id, "protocolVersion": "v1.0"}));
    }
    let mut processor = Processor::with_environment(env, ProcessorOptions::default());
    for doc in &documents {
        if let Err(e) = processor.register_catalog(doc) {
            return Outcome::Failed(format!("catalog not registered: {e}"));
        }
    }
    let mut components: Vec<Value> = Vec::new();
    for (id, props) in args["components"].as_object().into_iter().flatten() {
        let mut c = props.as_object().cloned().unwrap_or_default();
        c.insert("id".into(), id.clone().into());
        components.push(Value::Object(c));
    }
    if let Some(call) = args.get("functionCall") {
        let mut c = Map::new();
        c.insert("id".into(), "root".into());
        c.insert("component".into(), "Text".into());
        c.insert("text".into(), call.clone());
        components.push(Value::Object(c));
    }
    let created = processor.process(&json!({"version": "v1.0", "createSurface": {
        "surfaceId": surface_id, "catalogId": default, "components": components}}));
    if let Some(want) = case.get("expectError") {
        return match created {
            Err(e)
                if e.category().as_str() == want["category"]
                    && components
                        .iter()
                        .filter_map(|c| c["catalogId"].as_str())
                        .any(|id| id != default && e.message().contains(id)) =>
            {
                Outcome::Passed
            }
            Err(e) => Outcome::Failed(format!("error {e}, want {want}")),
            Ok(_) => Outcome::Failed(format!("accepted, want {want}")),
        };
    }
    if let Err(e) = created {
        return Outcome::Failed(format!("refused: {e}"));
    }
    let surface = processor.surface(surface_id).unwrap();
    let want = case["expectSelected"].as_str().unwrap();
    if function.is_some() {
        let text = surface.component("root").and_then(|c| c.compiled("text"));
        return match text.map(|p| p.eval_read(surface.data_model(), &JsonPointer::root())) {
            Some(Ok(got)) if got == want => Outcome::Passed,
            other => Outcome::Failed(format!("the call resolved to {other:?}, want {want}")),
        };
    }
    // Each component on its own catalog, or the surface's default; the last one is the case's.
    let mut selected = None;
    for c in &components {
        let id = c["id"].as_str().unwrap();
        let component: &Component = surface.component(id).unwrap();
        let own = c["catalogId"].as_str().unwrap_or(default);
        if component.catalog() != Some(own) {
            return Outcome::Failed(format!(
                "{id} resolved to {:?}, not {own}",
                component.catalog()
            ));
        }
        selected = component.catalog();
    }
    if selected == Some(want) {
        Outcome::Passed
    } else {
        Outcome::Failed(format!("selected {selected:?}, want {want}"))
    }
}
