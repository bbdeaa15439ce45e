//! The basic catalog's cases: `evaluate_function` (a call compiled and evaluated in an
//! environment whose default catalog is the basic one, `en-US`, UTC) and
//! `parse_expression_template` (formatString's parser, parts compared with adjacent literal
//! text joined). `validate` cases render whole surfaces: they wait for the message processor.

use crate::suite::{Outcome, Tally};
use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog, Expr, Template};
use a2ui_catalog_mcp::{Environment, ErrorCode};
use serde_json::{Map, Value, json};

const NEEDS_MESSAGES: &str = "needs the message processor (issue 22): the case renders a surface";
const NEEDS_ROUTING: &str = "catalog routing on a surface (catalogPaths, surface catalogId): needs the message processor (issue 22)";
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
    let got = env.compile(&payload).and_then(|p| p.eval(&mut json!({})));
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

fn run(file: &str) {
    let env = environment();
    Tally::run_file(file, |case| match case["action"].as_str() {
        Some("evaluate_function") => evaluate_function(&env, case),
        Some("parse_expression_template") => parse_expression_template(case),
        Some("validate") => Outcome::Skipped(NEEDS_MESSAGES),
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
