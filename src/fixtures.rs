//! The conformance fixture runner: runs language-neutral JSON cases against this engine and
//! says, for each, whether it gives what the case expects. It reads no files: the caller (the
//! CLI's `fixtures` command, the crate's tests) reads them and hands over their text.
//!
//! The file format (the keys of a case, the scripted `server`, the `expect` keys, failing
//! cases, how JSON is compared, `regexCases`, `affectsCases`, and the keys below) is stated in
//! full in `docs/fixtures.md`, for authors of cases and of runners in other languages.
//!
//! A case's `server` is a scripted MCP server: its tools, their results, resources, the
//! surfaces the renderer holds, and the host's tool `policy` (`{"allow": [names]}`,
//! `{"deny": [names]}` or `{"denyDestructive": true}`); [`ScriptedServer::from_json`] describes
//! each member. A denied call sends nothing, so the case's `toolCalls` does not list it.
//!
//! [`ScriptedServer::from_json`]: crate::testing::ScriptedServer::from_json
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
//!
//! # Spellings, catalogs and warnings
//!
//! A case of `cases` (and of `streamCases`, below) may also have:
//!
//! - `"spelling": "plain"` to compile in the plain spelling (`{"path": …}`, `{"call": …}`; see
//!   [`Spelling`]); `"at"`, the default, is the `@` spelling;
//! - `"catalogs"`: catalog documents (the JSON of an A2UI catalog, as
//!   [`Catalog::from_schema`](crate::Catalog::from_schema) reads it) registered beside the MCP
//!   catalog; their functions are declared, not implemented, so calling one compiles and fails
//!   when it runs;
//! - `expect.warnings`: the warnings compiling the payload gives (whether it compiles or not), in
//!   order, each `{"location": "/title", "messageContains": "…", "code": "OTHER_SPELLING"}`
//!   (every key optional); the list must have as many entries as there are warnings, so `[]`
//!   says there is none.
//!
//! # Dependencies and changes
//!
//! - `expect.dependencies`: the payload's dependency set in `contextPath`
//!   ([`Payload::dependencies`](crate::Payload::dependencies)) as sorted pointer strings (the
//!   root is `/`); checked even when the evaluation fails, since it is known at compile time.
//! - `expect.changed`: the paths the evaluation wrote, as pointer strings in write order, each
//!   once; `[]` for an evaluation that wrote nothing.
//! - A file whose top level has `"affectsCases"` holds cases of the relation
//!   [`reactive::affects`](crate::reactive::affects) alone: `{"dependency", "change",
//!   "affects"}`, each counted as one case.
//!
//! # Message streams
//!
//! A file whose top level has `"streamCases"` holds cases of whole A2UI message streams
//! ([`messages`]); `"catalogs"` at the top level are registered for every case
//! of the file, before the case's own:
//!
//! ```json
//! {"description": "…", "catalogs": [{"catalogId": "https://example.com/basic.json", "functions": {…}}],
//!  "streamCases": [
//!   {"id": "update-of-an-unknown-surface",
//!    "spelling": "plain",
//!    "defaultCatalogId": "…",
//!    "messages": [{"version": "v1.0", "createSurface": {…}}, {"version": "v1.0", "updateComponents": {…}}],
//!    "expect": {
//!      "messageCount": 2,
//!      "problems": [{"index": 1, "location": "/updateComponents/surfaceId", "code": "VALIDATION_FAILED",
//!                    "function": "…", "messageContains": "never created"}],
//!      "warnings": [{"index": 1, "location": "/updateComponents/components/0/text", "messageContains": "…"}]
//!    }}
//! ]}
//! ```
//!
//! - `messages` is the stream as JSON values; `streamText` instead gives it as text (a JSON
//!   array, or JSON lines), to test how a stream is read.
//! - `problems` and `warnings` list, in stream order, everything the check reports, each entry
//!   with any of its keys (`index` is the message's, `null` for a problem of the stream as a
//!   whole; `location` a JSON Pointer inside the message); `[]` says there is none. Absent, they
//!   are not checked. Each stream case counts as one case in `N passed, M failed`.

use crate::catalog::Catalog;
use crate::env::Environment;
use crate::error::{Error, ErrorCode, Phase, Warning};
use crate::messages;
use crate::model::SharedModel;
use crate::origin::{Invocation, Origin};
use crate::path::JsonPointer;
use crate::reactive::{TrackedModel, affects, json_eq};
use crate::syntax::Spelling;
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
    if let Some(cases) = file.get("streamCases").and_then(Value::as_array) {
        return Ok(cases
            .iter()
            .enumerate()
            .map(|(i, case)| run_stream_case(file.get("catalogs"), case, i))
            .collect());
    }
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
    if let Some(expected) = expect.get("warnings") {
        check_payload_warnings(case, expected, &mut failures);
    }
    Outcome { id, failures }
}

/// The environment of a case: the MCP catalog, the catalog documents of the file (`shared`) and
/// of the case, its default catalog and its spelling.
fn case_environment(case: &Value, shared: Option<&Value>) -> Result<Environment, String> {
    let mut env = Environment::new();
    for catalogs in [shared, case.get("catalogs")].into_iter().flatten() {
        let list = catalogs.as_array().ok_or("catalogs is not an array")?;
        for doc in list {
            let catalog = Catalog::from_schema(doc).map_err(|e| format!("catalogs: {e}"))?;
            env.add_catalog(catalog);
        }
    }
    if let Some(id) = case.get("defaultCatalogId") {
        env = env.with_default_catalog(id.as_str().ok_or("defaultCatalogId is not a string")?);
    }
    match case.get("spelling") {
        None => {}
        Some(Value::String(s)) => {
            let spelling = Spelling::parse(s)
                .ok_or_else(|| format!("spelling is \"at\" or \"plain\", not {s:?}"))?;
            env = env.with_spelling(spelling);
        }
        Some(_) => return Err("spelling is not a string".into()),
    }
    Ok(env)
}

/// `expect.warnings` of a payload case: the payload compiled once more for its warnings.
fn check_payload_warnings(case: &Value, expected: &Value, failures: &mut Vec<String>) {
    let (Ok(env), Some(payload)) = (case_environment(case, None), case.get("payload")) else {
        return; // reported by the run itself
    };
    let found = env.check(payload);
    let got: Vec<(Option<usize>, &Warning)> = found.warnings().iter().map(|w| (None, w)).collect();
    check_warning_list(expected, &got, failures);
}

/// Compares a list of expected warnings (`index`, `location`, `code`, `messageContains`) with
/// the warnings found, in order.
fn check_warning_list(
    expected: &Value,
    got: &[(Option<usize>, &Warning)],
    failures: &mut Vec<String>,
) {
    let Some(expected) = expected.as_array() else {
        failures.push("expect.warnings is not an array".into());
        return;
    };
    let shown = || {
        got.iter()
            .map(|(i, w)| match i {
                Some(i) => format!("message {i}: {w}"),
                None => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if expected.len() != got.len() {
        failures.push(format!(
            "warnings: expected {}, got {} [{}]",
            expected.len(),
            got.len(),
            shown()
        ));
        return;
    }
    for (n, (want, (index, warning))) in expected.iter().zip(got).enumerate() {
        let field = |k: &str| want.get(k).and_then(Value::as_str);
        let mut wrong = Vec::new();
        if let Some(i) = want.get("index")
            && i.as_u64() != index.map(|x| x as u64)
        {
            wrong.push(format!("index {i}"));
        }
        if let Some(location) = field("location")
            && warning.location() != location
        {
            wrong.push(format!("location '{location}'"));
        }
        if let Some(code) = field("code")
            && warning.code().as_str() != code
        {
            wrong.push(format!("code {code}"));
        }
        if let Some(part) = field("messageContains")
            && !warning.message().contains(part)
        {
            wrong.push(format!("a message containing '{part}'"));
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "warning {n}: expected {}, got {}",
                wrong.join(", "),
                match index {
                    Some(i) => format!("message {i}: {warning}"),
                    None => warning.to_string(),
                }
            ));
        }
    }
}

/// A case of `streamCases`: a stream, and the problems and warnings its check must report.
fn run_stream_case(shared: Option<&Value>, case: &Value, index: usize) -> Outcome {
    let id = case
        .get("id")
        .and_then(Value::as_str)
        .map_or_else(|| format!("stream#{index}"), str::to_owned);
    let mut failures = Vec::new();
    let env = match case_environment(case, shared) {
        Ok(env) => env,
        Err(setup) => {
            return Outcome {
                id,
                failures: vec![format!("cannot run the case: {setup}")],
            };
        }
    };
    let report = match (case.get("messages"), case.get("streamText")) {
        (Some(Value::Array(list)), None) => messages::check_messages(&env, list),
        (None, Some(Value::String(text))) => messages::check_stream(&env, text),
        _ => {
            return Outcome {
                id,
                failures: vec![
                    "cannot run the case: it needs either 'messages' (an array) or 'streamText' (a string)"
                        .into(),
                ],
            };
        }
    };
    let empty = Map::new();
    let expect = case
        .get("expect")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    if let Some(n) = expect.get("messageCount")
        && n.as_u64() != Some(report.message_count() as u64)
    {
        failures.push(format!(
            "messageCount: expected {n}, got {}",
            report.message_count()
        ));
    }
    if let Some(expected) = expect.get("problems") {
        check_problem_list(expected, &report, &mut failures);
    }
    if let Some(expected) = expect.get("warnings") {
        let got: Vec<(Option<usize>, &Warning)> = report
            .warnings()
            .iter()
            .map(|w| (w.message_index(), w))
            .collect();
        check_warning_list(expected, &got, &mut failures);
    }
    Outcome { id, failures }
}

/// Compares `expect.problems` of a stream case with the report's problems, in order.
fn check_problem_list(expected: &Value, report: &messages::Report, failures: &mut Vec<String>) {
    let Some(expected) = expected.as_array() else {
        failures.push("expect.problems is not an array".into());
        return;
    };
    let got = report.problems();
    if expected.len() != got.len() {
        let shown: Vec<String> = got.iter().map(ToString::to_string).collect();
        failures.push(format!(
            "problems: expected {}, got {} [{}]",
            expected.len(),
            got.len(),
            shown.join("; ")
        ));
        return;
    }
    for (n, (want, problem)) in expected.iter().zip(got).enumerate() {
        let mut wrong = Vec::new();
        if let Some(i) = want.get("index")
            && i.as_u64() != problem.message_index().map(|x| x as u64)
        {
            wrong.push(format!("index {i}"));
        }
        let mut sub = Vec::new();
        let error = want
            .as_object()
            .map(|w| {
                let mut w = w.clone();
                w.remove("index");
                Value::Object(w)
            })
            .unwrap_or(Value::Null);
        check_error(&error, problem, &mut sub);
        wrong.extend(sub);
        if !wrong.is_empty() {
            failures.push(format!("problem {n} ({problem}): {}", wrong.join("; ")));
        }
    }
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
    let env = case_environment(case, None)?;
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
    let origin = match case.get("origin") {
        None => Origin::Binding,
        Some(Value::String(o)) => Origin::parse(o).ok_or_else(|| {
            format!("origin '{o}' is none of \"binding\", \"action\", \"app\", \"agent\"")
        })?,
        Some(_) => return Err("origin is not a string".into()),
    };
    let Some(server) = case.get("server") else {
        let mut model = model;
        let result = compiled.and_then(|p| p.eval_from(&mut model, &context, origin));
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
    let mut invocation = Invocation::new(origin);
    invocation.source = server.source();
    let result =
        compiled.and_then(|p| block_on(p.eval_async_from(&model, &context, &host, invocation)));
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
    if let Some(denial) = expected.get("denial") {
        let got = err
            .denial()
            .map_or(Value::Null, |d| Value::from(d.as_str()));
        if *denial != got {
            failures.push(format!(
                "error denial: expected {denial}, got {got} ({err})"
            ));
        }
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
    fn the_example_files_of_the_format_page_pass() {
        // Every ```json block of docs/fixtures.md that is a whole fixture file.
        let page = include_str!("../docs/fixtures.md");
        let mut files = 0;
        for block in page.split("```json\n").skip(1) {
            let text = block.split("```").next().unwrap_or_default();
            let Ok(file) = serde_json::from_str::<Value>(text) else {
                continue; // a fragment
            };
            if file.get("cases").is_none() && file.get("regexCases").is_none() {
                continue;
            }
            files += 1;
            for outcome in run_file(&file).unwrap() {
                assert!(outcome.passed(), "{}: {:?}", outcome.id, outcome.failures);
            }
        }
        assert!(files >= 2, "{files}");
    }

    #[test]
    fn spelling_catalogs_and_warnings_are_case_keys() {
        let file = json!({"cases": [
            {"id": "plain", "spelling": "plain", "payload": {"path": "/a"}, "dataModel": {"a": 1},
             "expect": {"value": 1, "warnings": []}},
            {"id": "warned", "payload": {"path": "/a"}, "expect": {"warnings": [{"location": "", "code": "OTHER_SPELLING"}]}},
            {"id": "wrong", "payload": {"path": "/a"}, "expect": {"warnings": [{"location": "/x", "messageContains": "nope"}]}},
            {"id": "count", "payload": {"path": "/a"}, "expect": {"warnings": []}},
            {"id": "bad-spelling", "spelling": "dollar", "payload": 1},
            {"id": "bad-catalog", "catalogs": [{"$id": "x"}], "payload": 1}
        ]});
        let out = run_file(&file).unwrap();
        assert!(out[0].passed(), "{:?}", out[0].failures);
        assert!(out[1].passed(), "{:?}", out[1].failures);
        assert_eq!(out[2].failures.len(), 1, "{:?}", out[2].failures);
        assert!(out[2].failures[0].contains("location '/x', a message containing 'nope'"));
        assert!(out[3].failures[0].starts_with("warnings: expected 0, got 1"));
        assert!(out[4].failures[0].contains("spelling is \"at\" or \"plain\""));
        assert!(out[5].failures[0].contains("not an A2UI catalog document"));
    }

    #[test]
    fn stream_cases_check_problems_and_warnings_in_order() {
        let create = json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}});
        let file = json!({"streamCases": [
            {"id": "ok", "messages": [create], "expect": {"messageCount": 1, "problems": [], "warnings": []}},
            {"id": "wrong", "messages": [create, create],
             "expect": {"messageCount": 1, "problems": [{"index": 0, "location": "/x", "code": "DATA_ERROR"}], "warnings": [{}]}},
            {"id": "nothing", "expect": {}},
            {"streamText": "[{\"version\": \"v1.0\", \"updateDataModel\": {\"surfaceId\": \"s\", \"value\": 1}}",
             "expect": {"problems": [{"index": 0}, {"index": null, "messageContains": "cannot be read further"}]}}
        ]});
        let out = run_file(&file).unwrap();
        assert_eq!(out[0].id, "ok");
        assert!(out[0].passed(), "{:?}", out[0].failures);
        let failures = &out[1].failures;
        assert_eq!(failures.len(), 3, "{failures:?}");
        assert!(failures[0].starts_with("messageCount: expected 1, got 2"));
        assert!(
            failures[1].contains("index 0")
                && failures[1].contains("error location: expected '/x'")
        );
        assert!(failures[2].starts_with("warnings: expected 1, got 0"));
        assert!(out[2].failures[0].contains("needs either 'messages'"));
        assert_eq!(out[3].id, "stream#3");
        assert!(out[3].passed(), "{:?}", out[3].failures);
    }

    #[test]
    fn error_expectations_are_checked_field_by_field() {
        let file = json!({"cases": [{"id": "e", "payload": {"@ref": 1},
            "expect": {"error": {"code": "DATA_ERROR", "location": "/x", "phase": "eval", "messageContains": "nope"}}}]});
        let out = run_file(&file).unwrap();
        assert_eq!(out[0].failures.len(), 4, "{:?}", out[0].failures);
    }
}
