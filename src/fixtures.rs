//! The conformance fixture runner: runs language-neutral JSON cases against this engine and
//! says, for each, whether it gives what the case expects. It reads no files: the caller (the
//! CLI's `fixtures` command, the crate's tests) reads them and hands over their text.
//!
//! # The format
//!
//! A fixture file is a JSON object with `cases`, each one `{"id", "description"?, "payload",
//! "dataModel"?, "contextPath"?, "defaultCatalogId"?, "server"?, "expect"}`. `dataModel`
//! defaults to `{}`, `contextPath` to the root; `server` is a scripted MCP server
//! ([`ScriptedServer::from_json`](crate::testing::ScriptedServer::from_json)); without it no tool
//! client is configured. The keys of `expect` are checked only when present:
//!
//! | key | checks |
//! |---|---|
//! | `value` | the payload's value |
//! | `error` | that evaluation (or, with `"phase": "compile"`, compilation) fails; its optional `code`, `function`, `location`, `messageContains`, `phase` |
//! | `dataModel` | the whole data model afterwards (after a failure too: nothing was written) |
//! | `messages`, `toolCalls`, `resourceReads` | what the scripted server's message sink received, and the calls and reads it saw, in order |
//! | `dependencies` | the payload's dependency set in `contextPath` ([`Payload::dependencies`](crate::Payload::dependencies)) as sorted pointer strings (the root is `/`); checked even when the evaluation fails, since it is known at compile time |
//! | `changed` | the paths the evaluation wrote, as pointer strings in write order, each once; `[]` for an evaluation that wrote nothing (a failed chain writes nothing) |
//!
//! JSON compares as [`json_eq`] does: numbers by value, object keys in any order.
//!
//! Two shorter forms have their own top-level key instead of `cases`: `regexCases`
//! (`{"pattern", "accept"?, "inputs"?, "messageContains"?}`: the regex dialect alone, `inputs`
//! mapping an input to its groups or `null`) and `affectsCases` (`{"dependency", "change",
//! "affects"}`: the relation of [`reactive::affects`](crate::reactive::affects) alone). Their
//! cases count like the others in the outcomes.
//!
//! ```
//! use a2ui_catalog_mcp::fixtures::run_text;
//! let file = r#"{"description": "demo", "cases": [
//!   {"id": "split/comma",
//!    "payload": {"@call": "split", "args": {"value": "a,b", "separator": ","}},
//!    "expect": {"value": ["a", "b"]}}
//! ]}"#;
//! let outcomes = run_text(file).unwrap();
//! assert!(outcomes[0].passed(), "{:?}", outcomes[0].failures);
//! ```

use crate::env::Environment;
use crate::error::{Error, ErrorCode, Phase};
use crate::model::SharedModel;
use crate::path::JsonPointer;
use crate::reactive::{TrackedModel, affects};
use crate::testing::{ScriptedServer, block_on};
use serde_json::{Map, Value};

/// Fixture files may nest deeper than payloads may (the `limits` cases do, to test the limit).
pub const FIXTURE_MAX_DEPTH: usize = 1024;

/// The result of one case.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The case id (`file#index` when the case has none).
    pub id: String,
    /// What did not match, one line each (empty when the case passed).
    pub failures: Vec<String>,
}

impl Outcome {
    /// Whether the engine gave what the case expects.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs the cases of one fixture file given as text.
pub fn run_text(text: &str) -> Result<Vec<Outcome>, Error> {
    let file = crate::json::from_str_limited(text, FIXTURE_MAX_DEPTH)?;
    let outcomes = run_file(&file);
    crate::json::drop_deep(file);
    outcomes
}

/// Runs the cases of one parsed fixture file.
pub fn run_file(file: &Value) -> Result<Vec<Outcome>, Error> {
    let bad = |why: &str| {
        Error::new(
            ErrorCode::ValidationFailed,
            format!("not a fixture file: {why}"),
        )
    };
    if let Some(cases) = file.get("regexCases").and_then(Value::as_array) {
        return Ok(cases
            .iter()
            .enumerate()
            .map(|(i, case)| run_regex_case(case, i))
            .collect());
    }
    if let Some(cases) = file.get("affectsCases").and_then(Value::as_array) {
        return Ok(cases
            .iter()
            .enumerate()
            .map(|(i, case)| run_affects_case(case, i))
            .collect());
    }
    let Some(cases) = file.get("cases").and_then(Value::as_array) else {
        return Err(bad("no 'cases' (or 'regexCases', 'affectsCases') array"));
    };
    Ok(cases
        .iter()
        .enumerate()
        .map(|(i, case)| run_case(case, i))
        .collect())
}

/// A case of the short regex form: `pattern`, `accept`, `inputs` (input → groups or `null`),
/// `messageContains`.
fn run_regex_case(case: &Value, index: usize) -> Outcome {
    let pattern = case.get("pattern").and_then(Value::as_str);
    let id = format!("regex/{index}: {}", pattern.unwrap_or("?"));
    let mut failures = Vec::new();
    let Some(pattern) = pattern else {
        return Outcome {
            id,
            failures: vec!["the case has no string 'pattern'".into()],
        };
    };
    let compiled = crate::regex::Pattern::new(pattern);
    match (&compiled, case.get("accept").and_then(Value::as_bool)) {
        (Ok(_), Some(false)) => {
            failures.push("expected the pattern to be rejected, it was accepted".into())
        }
        (Err(e), Some(true)) => failures.push(format!(
            "expected the pattern to be accepted, got: {}",
            e.message()
        )),
        _ => {}
    }
    if let (Err(e), Some(part)) = (
        &compiled,
        case.get("messageContains").and_then(Value::as_str),
    ) && !e.message().contains(part)
    {
        failures.push(format!(
            "error message: expected it to contain '{part}', got '{}'",
            e.message()
        ));
    }
    if let (Ok(p), Some(Value::Object(inputs))) = (&compiled, case.get("inputs")) {
        for (input, expected) in inputs {
            let got = p.captures(input).map_or(Value::Null, |groups| {
                groups.into_iter().map(Value::from).collect()
            });
            if !json_eq(expected, &got) {
                failures.push(format!(
                    "captures of {input:?}: expected {expected}, got {got}"
                ));
            }
        }
    }
    Outcome { id, failures }
}

/// A case of the affects relation: `dependency`, `change` (JSON Pointers), `affects`.
fn run_affects_case(case: &Value, index: usize) -> Outcome {
    let field = |k: &str| case.get(k).and_then(Value::as_str);
    let (dependency, change) = (field("dependency"), field("change"));
    let id = format!(
        "affects/{index}: {} ~ {}",
        dependency.unwrap_or("?"),
        change.unwrap_or("?")
    );
    let pointer = |text: Option<&str>, name: &str| match text {
        None => Err(format!("the case has no string '{name}'")),
        Some(text) => JsonPointer::parse(text).map_err(|e| format!("{name}: {}", e.message())),
    };
    let expected = case.get("affects").and_then(Value::as_bool);
    let failures = match (
        pointer(dependency, "dependency"),
        pointer(change, "change"),
        expected,
    ) {
        (Err(e), _, _) | (_, Err(e), _) => vec![e],
        (_, _, None) => vec!["the case has no boolean 'affects'".into()],
        (Ok(d), Ok(c), Some(expected)) => {
            let got = affects(&d, &c);
            if got == expected {
                Vec::new()
            } else {
                vec![format!("affects: expected {expected}, got {got}")]
            }
        }
    };
    Outcome { id, failures }
}

fn run_case(case: &Value, index: usize) -> Outcome {
    let id = case
        .get("id")
        .and_then(Value::as_str)
        .map_or_else(|| format!("#{index}"), str::to_owned);
    let mut failures = Vec::new();
    let empty = Map::new();
    let expect = case
        .get("expect")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    match evaluate(case) {
        Err(setup) => failures.push(format!("cannot run the case: {setup}")),
        Ok(run) => check(expect, &run, &mut failures),
    }
    Outcome { id, failures }
}

/// What running a case gave.
struct Run {
    result: Result<Value, Error>,
    data_model: Value,
    /// The payload's dependency set in the case's context, or why it has none (it does not
    /// compile).
    dependencies: Result<Vec<String>, String>,
    /// The paths the evaluation wrote, in write order.
    changed: Vec<String>,
    /// What the scripted server saw: `messages`, `toolCalls`, `resourceReads` (all empty
    /// without a server: no tool client is configured).
    seen: [(&'static str, Value); 3],
}

fn evaluate(case: &Value) -> Result<Run, String> {
    let payload = case.get("payload").ok_or("the case has no payload")?;
    let mut env = Environment::new();
    if let Some(id) = case.get("defaultCatalogId") {
        env.set_default_catalog(id.as_str().ok_or("defaultCatalogId is not a string")?);
    }
    let context = match case.get("contextPath") {
        None => JsonPointer::root(),
        Some(Value::String(p)) => JsonPointer::parse(p).map_err(|e| e.to_string())?,
        Some(_) => return Err("contextPath is not a string".into()),
    };
    let data_model = case
        .get("dataModel")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    let compiled = env.compile(payload);
    let dependencies = match &compiled {
        Ok(p) => Ok(p
            .dependencies(&context)
            .iter()
            .map(ToString::to_string)
            .collect()),
        Err(e) => Err(e.to_string()),
    };
    // Every write is recorded, so that `expect.changed` can be checked.
    let model = TrackedModel::new(data_model);
    let Some(server) = case.get("server") else {
        let mut model = model;
        let result = compiled.and_then(|p| p.eval_in(&mut model, &context));
        let (data_model, changes) = model.into_parts();
        let none = || Value::Array(Vec::new());
        let seen = [
            ("messages", none()),
            ("toolCalls", none()),
            ("resourceReads", none()),
        ];
        return Ok(Run {
            result,
            data_model,
            dependencies,
            changed: changes.to_strings(),
            seen,
        });
    };
    let server = ScriptedServer::from_json(server).map_err(|e| e.to_string())?;
    let host = server.host();
    let model = SharedModel::new(model);
    let result = compiled.and_then(|p| block_on(p.eval_async(&model, &context, &host)));
    let (data_model, changes) = model.into_inner().into_parts();
    let reads = server
        .resource_reads()
        .into_iter()
        .map(Value::String)
        .collect();
    let seen = [
        ("messages", Value::Array(server.messages())),
        ("toolCalls", Value::Array(server.tool_calls())),
        ("resourceReads", Value::Array(reads)),
    ];
    Ok(Run {
        result,
        data_model,
        dependencies,
        changed: changes.to_strings(),
        seen,
    })
}

fn check(expect: &Map<String, Value>, run: &Run, failures: &mut Vec<String>) {
    match (&run.result, expect.get("error")) {
        (Ok(value), None) => {
            if let Some(expected) = expect.get("value")
                && !json_eq(expected, value)
            {
                failures.push(format!("value: expected {expected}, got {value}"));
            }
        }
        (Ok(value), Some(expected)) => failures.push(format!(
            "expected the error {expected}, got the value {value}"
        )),
        (Err(err), None) => failures.push(format!("expected success, got the error {err}")),
        (Err(err), Some(expected)) => check_error(expected, err, failures),
    }
    if let Some(expected) = expect.get("dataModel")
        && !json_eq(expected, &run.data_model)
    {
        failures.push(format!(
            "dataModel: expected {expected}, got {}",
            run.data_model
        ));
    }
    // Dependencies are known at compile time: checked whether the evaluation failed or not.
    if let Some(expected) = expect.get("dependencies") {
        match &run.dependencies {
            Ok(deps) => {
                let got = Value::from(deps.clone());
                if !json_eq(expected, &got) {
                    failures.push(format!("dependencies: expected {expected}, got {got}"));
                }
            }
            Err(e) => failures.push(format!(
                "dependencies: expected {expected}, but the payload does not compile: {e}"
            )),
        }
    }
    if let Some(expected) = expect.get("changed") {
        let got = Value::from(run.changed.clone());
        if !json_eq(expected, &got) {
            failures.push(format!("changed: expected {expected}, got {got}"));
        }
    }
    for (key, got) in &run.seen {
        if let Some(expected) = expect.get(*key)
            && !json_eq(expected, got)
        {
            failures.push(format!("{key}: expected {expected}, got {got}"));
        }
    }
}

fn check_error(expected: &Value, err: &Error, failures: &mut Vec<String>) {
    let field = |k: &str| expected.get(k).and_then(Value::as_str);
    if let Some(code) = field("code")
        && ErrorCode::parse(code) != Some(err.code())
    {
        failures.push(format!(
            "error code: expected {code}, got {} ({err})",
            err.code()
        ));
    }
    if let Some(function) = field("function")
        && err.function() != Some(function)
    {
        failures.push(format!(
            "error function: expected {function}, got {:?} ({err})",
            err.function()
        ));
    }
    if let Some(location) = field("location")
        && err.location() != location
    {
        failures.push(format!(
            "error location: expected '{location}', got '{}' ({err})",
            err.location()
        ));
    }
    if let Some(part) = field("messageContains")
        && !err.message().contains(part)
    {
        failures.push(format!(
            "error message: expected it to contain '{part}', got '{}'",
            err.message()
        ));
    }
    if let Some(phase) = field("phase") {
        let got = match err.phase() {
            Phase::Compile => "compile",
            Phase::Eval => "eval",
        };
        if phase != got {
            failures.push(format!("error phase: expected {phase}, got {got} ({err})"));
        }
    }
}

/// JSON equality as fixtures compare: numbers by value (`1` equals `1.0`), object keys in any
/// order. Iterative, for data of any depth. The same rule as
/// [`reactive::json_eq`](crate::reactive::json_eq), which decides whether a recomputed value
/// changed.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    crate::reactive::json_eq(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_keys_in_any_order() {
        assert!(json_eq(
            &json!({"a": 1, "b": [2.0]}),
            &json!({"b": [2], "a": 1.0})
        ));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!json_eq(&json!(1), &json!("1")));
    }

    #[test]
    fn a_wrong_expectation_fails_with_both_sides() {
        let file = json!({"cases": [{"id": "x", "payload": [1], "expect": {"value": [2], "dataModel": {"a": 1}}}]});
        let out = run_file(&file).unwrap();
        assert!(!out[0].passed());
        assert_eq!(out[0].failures.len(), 2, "{:?}", out[0].failures);
        assert!(out[0].failures[0].contains("expected [2], got [1]"));
    }

    #[test]
    fn dependencies_and_changes_are_checked_even_on_failure() {
        let file = json!({"cases": [
            {"id": "ok", "dataModel": {"s": "a"},
             "payload": {"@call": "updateDataModel", "args": {"updates": {"/b": {"@path": "/s"}, "/a": 1}}},
             "expect": {"dependencies": ["/s"], "changed": ["/b", "/a"]}},
            {"id": "wrong", "payload": {"@call": "updateDataModel", "args": {"updates": {"/b": {"@path": "/s"}}}},
             "expect": {"dependencies": ["/t"], "changed": []}},
            {"id": "failing", "dataModel": {"p": "(a+)+"},
             "payload": {"@call": "updateDataModel", "args": {"updates": {"/o": {"@call": "regexCapture", "args": {"value": "x", "pattern": {"@path": "/p"}}}}}},
             "expect": {"error": {"code": "EXPRESSION_ERROR"}, "dependencies": ["/p"], "changed": []}},
            {"id": "no-compile", "payload": {"@ref": 1}, "expect": {"error": {}, "dependencies": []}}
        ]});
        let out = run_file(&file).unwrap();
        assert!(out[0].passed(), "{:?}", out[0].failures);
        assert_eq!(out[1].failures.len(), 2, "{:?}", out[1].failures);
        assert!(out[1].failures[0].contains(r#"expected ["/t"], got ["/s"]"#));
        assert!(out[1].failures[1].contains(r#"changed: expected [], got ["/b"]"#));
        assert!(out[2].passed(), "{:?}", out[2].failures);
        assert_eq!(out[3].failures.len(), 1, "{:?}", out[3].failures);
        assert!(out[3].failures[0].contains("does not compile"));
    }

    #[test]
    fn affects_cases_count_like_the_others() {
        let file = json!({"affectsCases": [
            {"dependency": "/rows/1/name", "change": "/rows", "affects": true},
            {"dependency": "/a", "change": "/ab", "affects": true},
            {"dependency": "/a~2", "change": "/a", "affects": true},
            {"dependency": "/a", "change": "/a"}
        ]});
        let out = run_file(&file).unwrap();
        assert_eq!(out.len(), 4);
        assert!(out[0].passed());
        assert_eq!(out[1].failures, ["affects: expected true, got false"]);
        assert!(
            out[2].failures[0].starts_with("dependency:"),
            "{:?}",
            out[2].failures
        );
        assert!(
            out[3].failures[0].contains("no boolean"),
            "{:?}",
            out[3].failures
        );
    }

    #[test]
    fn error_expectations_are_checked_field_by_field() {
        let file = json!({"cases": [{"id": "e", "payload": {"@ref": 1},
            "expect": {"error": {"code": "DATA_ERROR", "location": "/x", "phase": "eval", "messageContains": "nope"}}}]});
        let out = run_file(&file).unwrap();
        assert_eq!(out[0].failures.len(), 4, "{:?}", out[0].failures);
    }
}
