//! `catalog.yaml`: of its cases, the ones about what the message processor judges run here,
//! those validating components against the published v1.0 basic catalog
//! (`validComponents`, `invalidComponents`): each component is created alone on a v1.0
//! surface whose default catalog is the basic one (its document registered for the component
//! schemas, the crate's basic catalog for the functions). A call naming another catalog is
//! judged against that catalog, as the suite says the message processor does: `other-catalog`
//! declares the functions the cases call there (`formatString {value}`, `shout {value, loud}`).
//! The other cases are about an agent SDK's `Catalog` object, each skipped with its reason.

use crate::processor;
use crate::suite::Outcome;
use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog};
use a2ui_catalog_mcp::functions::ArgSchema;
use a2ui_catalog_mcp::{Args, Catalog, Environment};
use serde_json::{Value, json};

const SDK_OBJECT: &str = "an agent SDK's Catalog object (from_json into its fields: theme or styles, parameters, an overriding catalogId; catalog_schema serialising it for a prompt, $defs inlined and common types bundled): the crate reads a catalog document for its component schemas and function declarations and builds no such object";
const IDENTIFIERS: &str = "UAX #31 identifier rules for a catalog's names: not in the v1.0 schemas (catalog_definition.json gives component and function names no pattern) nor in the spec's sources, and the crate does not enforce them";
const NOT_VENDORED: &str =
    "names a catalog file the suite does not ship (only catalogs/basic/v1 is vendored)";
const SELF_CONTAINED: &str = "whether the SDK's resolved catalog schema holds every $ref it uses (common types localised into it): the crate makes no resolved schema document";

fn environment() -> Environment {
    let mut env = Environment::new();
    env.add_catalog(BasicCatalog::new().build());
    env.add_catalog(
        Catalog::new("other-catalog")
            .with_function(
                "formatString",
                ArgSchema::new().required("value"),
                |a: &Args<'_>| Ok(a.value_or_null("value").clone()),
            )
            .with_function(
                "shout",
                ArgSchema::new().required("value").optional("loud"),
                |a: &Args<'_>| Ok(a.value_or_null("value").clone()),
            ),
    );
    env
}

pub fn run(case: &Value) -> Outcome {
    let expect = &case["expect"];
    if expect.get("validComponents").is_none() && expect.get("invalidComponents").is_none() {
        return Outcome::Skipped(if expect.get("selfContained").is_some() {
            SELF_CONTAINED
        } else if case["name"].as_str().unwrap_or("").contains("uax31") {
            IDENTIFIERS
        } else {
            SDK_OBJECT
        });
    }
    let Some(path) = case["catalogPath"].as_str() else {
        return Outcome::Failed("no catalogPath".into());
    };
    let Ok(text) = std::fs::read_to_string(crate::suite::root().join(path)) else {
        return Outcome::Skipped(NOT_VENDORED);
    };
    let document: Value = serde_json::from_str(&text).unwrap();
    let judge = |component: &Value| {
        let mut p = match processor::processor(&json!({}), true, environment()) {
            Ok(p) => p,
            Err(_) => return Err("no processor".to_owned()),
        };
        p.register_catalog(&document).map_err(|e| e.to_string())?;
        p.register_catalog(&json!({"catalogId": "other-catalog", "protocolVersion": "v1.0"}))
            .map_err(|e| e.to_string())?;
        p.process(
            &json!({"version": "v1.0", "createSurface": {"surfaceId": "s",
            "catalogId": BASIC_CATALOG_ID, "components": [component]}}),
        )
        .map(drop)
        .map_err(|e| e.to_string())
    };
    for c in expect["validComponents"].as_array().into_iter().flatten() {
        if let Err(e) = judge(c) {
            return Outcome::Failed(format!("{c} refused: {e}"));
        }
    }
    for c in expect["invalidComponents"].as_array().into_iter().flatten() {
        if judge(c).is_ok() {
            return Outcome::Failed(format!("{c} accepted"));
        }
    }
    Outcome::Passed
}
