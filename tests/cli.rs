//! The `a2ui-mcp` binary, as a user runs it.
#![cfg(feature = "cli")]

use serde_json::{Value, json};
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_a2ui-mcp"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn temp_file(name: &str, contents: &str) -> String {
    let path = std::env::temp_dir().join(format!("a2ui-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn eval_runs_the_guides_relative_update() {
    let (code, out, err) = run(&[
        "eval",
        "examples/payloads/update-relative.json",
        "--data",
        "examples/payloads/rows.json",
        "--context",
        "/rows/1",
        "--repeat",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["value"], Value::Null);
    assert_eq!(
        out["dataModel"]["rows"][1],
        json!({"name": "todo.txt", "selected": true})
    );
    assert_eq!(out["dataModel"]["lastTouched"], "todo.txt");
    assert_eq!(out["messages"], json!([]));
    for key in ["compileMicros", "evalMicrosMedian", "evalMicrosMin"] {
        assert!(
            out["timing"][key].as_f64().is_some_and(|t| t >= 0.0),
            "{key}"
        );
    }
}

#[test]
fn check_lists_every_problem_and_fails() {
    let file = temp_file(
        "bad.json",
        r#"{"@ref": 1, "b": {"@call": "split", "args": {"value": 1}}}"#,
    );
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1);
    let out: Value = serde_json::from_str(&out).unwrap();
    let locations: Vec<&str> = out["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["location"].as_str().unwrap())
        .collect();
    assert_eq!(locations, ["/@ref", "/b"]);
    let (code, _, err) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(err.contains("INVALID_RESERVED_KEY at /@ref"), "{err}");
}

#[test]
fn a_deep_payload_file_is_limit_exceeded() {
    let file = temp_file(
        "deep.json",
        &format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
    );
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1);
    assert!(out.contains("LIMIT_EXCEEDED"), "{out}");
}

#[test]
fn check_reports_a_path_past_the_depth_limit() {
    // The 44 KB payload of issue 27, which `check` passed and `eval` aborted on.
    let path = "/a".repeat(22_000);
    let payload = json!([
        {"@call": "updateDataModel", "args": {"updates": {path.clone(): 1}}},
        {"@path": "/"}
    ]);
    let file = temp_file("long-path.json", &payload.to_string());
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1, "{out}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["errors"][0]["code"], "LIMIT_EXCEEDED", "{out}");
    assert_eq!(out["errors"][0]["location"], "/0", "{out}");
    // The same path in an A2UI message stream.
    let stream = json!([{"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": path, "value": 1}}]);
    let file = temp_file("long-path-stream.json", &stream.to_string());
    let (code, out, err) = run(&["check", &file]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("LIMIT_EXCEEDED"),
        "{out}{err}"
    );
}

#[test]
fn fixtures_reports_counts_and_failures() {
    let file = temp_file(
        "fixture.json",
        r#"{"cases": [
            {"id": "ok", "payload": [1], "expect": {"value": [1]}},
            {"id": "wrong", "payload": [1], "expect": {"value": [2]}}
        ]}"#,
    );
    let (code, out, _) = run(&["fixtures", &file]);
    assert_eq!(code, 1);
    assert!(out.contains("FAIL wrong"), "{out}");
    assert!(out.contains("value: expected [2], got [1]"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));
}

/// `a2ui-mcp eval … | head`: the reader goes away before the output is written. The tool ends
/// quietly with status 0 instead of panicking on the broken pipe.
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Stdio;
    // More than a pipe's buffer, so that the write meets the closed pipe whatever the timing.
    let big = "x".repeat(1 << 20);
    let data = temp_file("pipe-data.json", &json!({"big": big}).to_string());
    let payload = temp_file("pipe-payload.json", r#"{"@path": "/big"}"#);
    let mut child = Command::new(env!("CARGO_BIN_EXE_a2ui-mcp"))
        .args(["eval", &payload, "--data", &data])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

const BASIC_CATALOG: &str = "tests/data/basic-catalog.json";
const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn check_lints_a_mixed_catalog_stream() {
    let stream = "examples/surfaces/mcp-order-summary.json";
    let (code, out, err) = run(&["check", stream, "--catalog", BASIC_CATALOG]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim(),
        format!("{stream}: 4 messages (numbered from 0), 0 problems, 0 warnings")
    );
    // The basic catalog is known without flags.
    let (code, _, err) = run(&["check", stream]);
    assert_eq!(code, 0, "{err}");
    // A catalog that is not registered is reported, with the option that registers it.
    let other = std::fs::read_to_string(stream)
        .unwrap()
        .replace(BASIC, "https://example.com/mine.json");
    let file = temp_file("unknown-catalog.json", &other);
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1);
    let out = &json_lines(&out)[0];
    assert_eq!(out["kind"], "stream");
    assert_eq!(out["errors"][0]["code"], "CATALOG_ERROR");
    assert_eq!(out["errors"][0]["index"], 0);
    assert_eq!(out["errors"][0]["location"], "/createSurface/catalogId");
    let (_, _, err) = run(&["check", &file]);
    assert!(
        err.contains("Catalog not found: https://example.com/mine.json"),
        "{err}"
    );
    assert!(
        err.contains("register it with --catalog CATALOG.json"),
        "{err}"
    );
}

#[test]
fn eval_formats_with_the_basic_catalog_in_the_locale_and_time_zone() {
    let payload = temp_file(
        "basic-eval.json",
        r#"{"@call": "formatString", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
            "args": {"value": "${formatCurrency(value: 1234.5, currency: 'EUR')} ${formatDate(value: 0, format: 'EEEE HH:mm')}"}}"#,
    );
    let payload = payload.as_str();
    let (code, out, err) = run(&[
        "eval",
        payload,
        "--locale",
        "de-DE",
        "--time-zone",
        "Europe/Berlin",
    ]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["value"], "1.234,50\u{a0}€ Donnerstag 01:00");
    let (code, _, err) = run(&["eval", payload, "--time-zone", "Mars/Olympus"]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("unknown time zone 'Mars/Olympus'"), "{err}");
}

#[test]
fn check_reports_every_mistake_of_a_broken_stream_with_its_message() {
    let (code, out, err) = run(&[
        "check",
        "examples/surfaces/broken/restaurant-finder.jsonl",
        "--catalog",
        BASIC_CATALOG,
    ]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with("4 messages (numbered from 0), 5 problems, 0 warnings\n"),
        "{out}"
    );
    assert!(
        err.contains("message 2 at /updateComponents/components/2/text: VALIDATION_FAILED in pluralize: 'pluralize' requires the argument 'other'"),
        "{err}"
    );
}

#[test]
fn a_plain_v1_stream_is_clean_without_flags() {
    // v1.0 messages are read in both spellings: the plain one (the A2UI specification's, the
    // gallery's) needs no --spelling flag.
    let stream = "examples/surfaces/plain/mcp-order-summary.json";
    for extra in [&[][..], &["--spelling", "plain"][..]] {
        let mut args = vec!["check", stream, "--catalog", BASIC_CATALOG];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.ends_with("4 messages (numbered from 0), 0 problems, 0 warnings\n"),
            "{out}"
        );
        assert_eq!(err, "");
    }
}

#[test]
fn check_takes_several_files_and_payloads_with_warnings_only_pass() {
    let warned = temp_file("warned.json", r#"{"label": {"path": "/name"}}"#);
    let bad = temp_file("bad-call.json", r#"{"@call": "split", "args": {}}"#);
    let (code, out, err) = run(&["check", &warned, "examples/payloads/update-relative.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 0 problems, 1 warning\n"), "{out}");
    assert!(out.contains("update-relative.json: no problems"), "{out}");
    assert!(err.contains("warning OTHER_SPELLING at /label"), "{err}");
    let (code, out, _) = run(&["check", &warned, &bad, "--json"]);
    assert_eq!(code, 1);
    let out = json_lines(&out);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["ok"], true);
    assert_eq!(out[0]["kind"], "payload");
    assert_eq!(out[0]["warnings"][0]["location"], "/label");
    assert_eq!(out[1]["ok"], false);
    assert_eq!(out[1]["errors"].as_array().unwrap().len(), 2);
}

#[test]
fn the_default_catalog_and_catalog_documents_are_options() {
    let payload = temp_file(
        "currency.json",
        r#"{"@call": "formatCurrency", "args": {"value": 3, "currency": "EUR", "decimals": "2"}}"#,
    );
    let (code, _, err) = run(&["check", &payload, "--catalog", BASIC_CATALOG]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown function 'formatCurrency' in catalog 'https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json'"), "{err}");
    let (code, _, err) = run(&[
        "check",
        &payload,
        "--catalog",
        BASIC_CATALOG,
        "--default-catalog",
        BASIC,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("EXPRESSION_ERROR in formatCurrency at /args/decimals"),
        "{err}"
    );
    let not_a_catalog = temp_file("not-a-catalog.json", r#"{"$id": "x", "$defs": {}}"#);
    let (code, _, err) = run(&["check", &payload, "--catalog", &not_a_catalog]);
    assert_eq!(code, 1);
    assert!(
        err.contains("not-a-catalog.json: not an A2UI catalog document"),
        "{err}"
    );
}

#[test]
fn eval_takes_the_spelling_and_reports_warnings() {
    let payload = temp_file(
        "plain-split.json",
        r#"{"call": "split", "args": {"value": {"path": "/csv"}, "separator": ","}}"#,
    );
    let data = temp_file("csv.json", r#"{"csv": "a,b"}"#);
    let (code, out, err) = run(&["eval", &payload, "--data", &data, "--spelling", "plain"]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["value"], json!(["a", "b"]));
    assert!(out.get("warnings").is_none());
    let (code, out, err) = run(&["eval", &payload, "--data", &data]);
    assert_eq!(code, 0, "{err}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["value"]["call"], "split");
    assert_eq!(out["warnings"].as_array().unwrap().len(), 2);
}

// `a2ui-mcp deps`: the dependency set of a payload, as an agent developer runs it.

#[test]
fn deps_prints_the_sorted_dependency_set() {
    // The guide's relative update: reads `name` in the row, writes targets that are not reads.
    let (code, out, err) = run(&[
        "deps",
        "examples/payloads/update-relative.json",
        "--context",
        "/rows/1",
    ]);
    assert_eq!(code, 0, "{err}");
    let deps: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(deps, json!(["/rows/1/name"]));

    let file = temp_file(
        "nested.json",
        r#"{"b": {"@path": "/z"}, "a": [{"@path": "/a/2"}, {"@path": "/a/10"}, {"@path": "."}]}"#,
    );
    let (code, out, err) = run(&["deps", &file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), r#"["/","/a/10","/a/2","/z"]"#);
}

#[test]
fn deps_reports_compile_errors() {
    let file = temp_file("bad.json", r#"{"@path": "/bad~2"}"#);
    let (code, out, err) = run(&["deps", &file]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("DATA_ERROR"), "{err}");
    let (code, _, err) = run(&["deps", &file, "--context", "rows"]);
    assert_eq!(code, 1);
    assert!(err.contains("JSON Pointer"), "{err}");
}

/// A file that cannot be read is an I/O failure, not a problem "found while evaluating the
/// payload" with a made-up location.
#[test]
fn a_missing_file_says_cannot_read() {
    for command in ["check", "eval", "deps"] {
        let (code, out, err) = run(&[command, "/nonexistent/payload.json"]);
        assert_eq!(code, 1, "{command}");
        assert_eq!(
            err.trim(),
            "a2ui-mcp: cannot read /nonexistent/payload.json: No such file or directory (os error 2)",
            "{command}: {out}"
        );
    }
    let (code, out, _) = run(&["--json", "check", "/nonexistent/payload.json"]);
    assert_eq!(code, 1);
    let reply: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(reply["errors"][0]["code"], "IO_ERROR");
    assert_eq!(reply["ok"], false);
}

#[test]
fn check_reads_the_gallery_clean_without_flags() {
    let mut files: Vec<String> = std::fs::read_dir("tests/a2ui-v1/gallery")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 43);
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(out.matches(", 0 problems,").count(), 43, "{out}");
    // The incremental example leaves its two placeholders unreachable: warnings only.
    assert_eq!(
        err.matches("warning UNREACHABLE_COMPONENT").count(),
        2,
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn check_reports_component_mistakes_with_their_location() {
    let surface = |components: Value| json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}});
    let stream = json!({"name": "mistakes", "description": "each mistake in its own message", "messages": [
        {"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}},
        surface(json!([{"id": "root", "component": "Column", "children": ["a", "ghost"]}, {"id": "a", "component": "Text", "text": "ok"}])),
        surface(json!([{"id": "a", "component": "Txt", "text": "x"}])),
        surface(json!([{"id": "a", "component": "Text"}])),
        surface(json!([{"id": "a", "component": "Text", "text": "x", "variant": "huge"}])),
        surface(json!([{"id": "a", "component": "Text", "text": "x", "colour": "red"}])),
        surface(json!([{"id": "a", "component": "Text", "text": "x"}, {"id": "a", "component": "Text", "text": "y"}])),
        surface(json!([{"id": "a", "component": "Card", "child": "root"}])),
        {"version": "v1.0", "createSurface": {"surfaceId": "t", "catalogId": BASIC,
            "components": [{"id": "main", "component": "Text", "text": "no root"}]}}
    ]});
    let file = temp_file("mistakes.json", &stream.to_string());
    let (code, out, err) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with("9 messages (numbered from 0), 8 problems, 1 warning\n"),
        "{out}\n{err}"
    );
    // "1.0" then "v1.0": one version, read whole, warned once.
    assert!(
        err.contains("message 1 at /version: warning OTHER_SPELLING: this stream writes v1.0's version both as \"1.0\" (message 0) and as \"v1.0\""),
        "{err}"
    );
    for expected in [
        "message 2 at /updateComponents/components/0/component: VALIDATION_FAILED: unknown component type 'Txt'",
        "message 3 at /updateComponents/components/0: VALIDATION_FAILED: Text 'a' needs the property 'text'",
        "message 4 at /updateComponents/components/0/variant: VALIDATION_FAILED: Text.variant is \"huge\"",
        "message 5 at /updateComponents/components/0/colour: VALIDATION_FAILED: unknown property 'colour' of Text",
        "message 6 at /updateComponents/components/1/id: VALIDATION_FAILED: duplicate component id 'a'",
        "message 7 at /updateComponents/components/0: VALIDATION_FAILED: Circular component reference: a → root → a",
        "message 1 at /updateComponents/components/0/children/1: VALIDATION_FAILED: component 'root' names the child 'ghost' (children[1]), which is never defined",
        "message 8 at /: VALIDATION_FAILED: surface 't' has no component 'root' at the end of the stream",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
}

#[test]
fn render_prints_what_every_gallery_stream_draws() {
    let mut files: Vec<String> = std::fs::read_dir("tests/a2ui-v1/gallery")
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut args = vec!["render"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let rendered = json_lines(&out);
    assert_eq!(rendered.len(), 43);
    for (file, out) in files.iter().zip(&rendered) {
        let surfaces = out["surfaces"].as_object().unwrap();
        assert!(!surfaces.is_empty(), "{file}");
        for surface in surfaces.values() {
            assert_eq!(surface["errors"], json!([]), "{file}");
            let nodes = surface["nodes"].as_array().unwrap();
            assert_eq!(nodes[0]["componentId"], "root", "{file}");
            assert_eq!(nodes[0]["parent"], Value::Null, "{file}");
            // Nothing pending: every child the stream names is defined.
            assert!(nodes.iter().all(|n| n["state"] != "pending"), "{file}");
        }
    }
    let list = &rendered[files
        .iter()
        .position(|f| f.ends_with("34_child-list-template.json"))
        .unwrap()];
    let nodes = list["surfaces"]["gallery-child-list-template"]["nodes"]
        .as_array()
        .unwrap();
    let names: Vec<&Value> = nodes
        .iter()
        .filter(|n| n["componentId"] == "item_name")
        .map(|n| &n["props"]["text"])
        .collect();
    assert_eq!(names, [&json!("Apple"), &json!("Banana"), &json!("Cherry")]);
    assert_eq!(
        nodes
            .iter()
            .find(|n| n["componentId"] == "item_name")
            .unwrap()["dataPath"],
        "/items/0"
    );
}

/// A gallery example as JSON, to inject a mistake into.
fn gallery(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("tests/a2ui-v1/gallery/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The component of `id` in message `message` of a gallery example.
fn component_of<'a>(stream: &'a mut Value, message: usize, id: &str) -> &'a mut Value {
    stream["messages"][message]["updateComponents"]["components"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["id"] == id)
        .unwrap()
}

#[test]
fn check_reports_every_mistake_injected_into_gallery_examples() {
    // Five mistakes in one message of the login form: each is reported, located, and the
    // message (refused whole) leaves no other trace.
    let mut login = gallery("09_login-form");
    component_of(&mut login, 1, "title")["component"] = json!("Txt");
    component_of(&mut login, 1, "subtitle")
        .as_object_mut()
        .unwrap()
        .remove("text");
    component_of(&mut login, 1, "header")["colour"] = json!("red");
    component_of(&mut login, 1, "login_btn_text")["variant"] = json!("huge");
    let divider = component_of(&mut login, 1, "divider").clone();
    let components = login["messages"][1]["updateComponents"]["components"]
        .as_array_mut()
        .unwrap();
    components.push(divider);
    assert_eq!(components.len(), 15);
    let file = temp_file("login-mistakes.json", &login.to_string());
    let (code, out, err) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with("3 messages (numbered from 0), 5 problems, 0 warnings\n"),
        "{out}\n{err}"
    );
    for expected in [
        "message 1 at /updateComponents/components/2/colour: VALIDATION_FAILED: unknown property 'colour' of Column",
        "message 1 at /updateComponents/components/3/component: VALIDATION_FAILED: unknown component type 'Txt'",
        "message 1 at /updateComponents/components/4: VALIDATION_FAILED: Text 'subtitle' needs the property 'text'",
        "message 1 at /updateComponents/components/7/variant: VALIDATION_FAILED: Text.variant is \"huge\"",
        "message 1 at /updateComponents/components/14/id: VALIDATION_FAILED: duplicate component id 'divider' in one message",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
    let (_, out, _) = run(&["--json", "check", &file]);
    let reply: Value = serde_json::from_str(out.trim()).unwrap();
    let located: Vec<(u64, &str)> = reply["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["index"].as_u64().unwrap(),
                e["location"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        located,
        [
            (1, "/updateComponents/components/2/colour"),
            (1, "/updateComponents/components/3/component"),
            (1, "/updateComponents/components/4"),
            (1, "/updateComponents/components/7/variant"),
            (1, "/updateComponents/components/14/id"),
        ]
    );

    // A dangling child, judged as the stream leaves the surface, and by every message with
    // --strict; a component in the other envelope spelling is a warning either way.
    let mut dangling = gallery("09_login-form");
    component_of(&mut dangling, 1, "main_column")["children"]
        .as_array_mut()
        .unwrap()
        .push(json!("ghost"));
    let password = component_of(&mut dangling, 1, "password_field")
        .as_object_mut()
        .unwrap();
    let checks = password.remove("checks").unwrap();
    password.insert("@checks".into(), checks);
    let file = temp_file("login-dangling.json", &dangling.to_string());
    for strict in [false, true] {
        let mut args = vec!["check", file.as_str()];
        if strict {
            args.push("--strict");
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 1);
        assert!(out.ends_with("1 problem, 1 warning\n"), "{out}\n{err}");
        assert!(
            err.contains(
                "message 1 at /updateComponents/components/1/children/6: VALIDATION_FAILED: "
            ) && err.contains("'ghost' (children[6])"),
            "{err}"
        );
        assert!(
            err.contains("message 1 at /updateComponents/components/6/@checks: warning OTHER_SPELLING: this stream writes envelope keys (\"@checks\" or \"checks\") in both spellings: the '@' spelling here, the plain spelling at message 1 /updateComponents/components/5/checks")
                && err.contains("at message 1 /updateComponents/components/5/checks"),
            "{err}"
        );
    }

    // With --strict, every dangling child of the message.
    let mut two = gallery("09_login-form");
    for (id, ghost) in [("main_column", "ghost"), ("header", "phantom")] {
        component_of(&mut two, 1, id)["children"]
            .as_array_mut()
            .unwrap()
            .push(json!(ghost));
    }
    let file = temp_file("login-two-dangling.json", &two.to_string());
    let (code, out, err) = run(&["check", "--strict", &file]);
    assert_eq!(code, 1);
    assert!(out.ends_with("2 problems, 0 warnings\n"), "{out}\n{err}");
    for at in [
        "/updateComponents/components/1/children/6",
        "/updateComponents/components/2/children/2",
    ] {
        assert!(
            err.contains(&format!(
                "message 1 at {at}: VALIDATION_FAILED: Dangling reference"
            )),
            "{at}\n{err}"
        );
    }

    // No root: a problem of the message with --strict, of the stream's end without.
    let mut rootless = gallery("00_simple-text");
    component_of(&mut rootless, 1, "root")["id"] = json!("main");
    let file = temp_file("rootless.json", &rootless.to_string());
    let (code, _, err) = run(&["check", "--strict", &file]);
    assert_eq!(code, 1);
    assert!(
        err.contains("message 1 at /: VALIDATION_FAILED: Missing root component: surface 'gallery-simple-text' has no component 'root'"),
        "{err}"
    );
    let (code, _, err) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(
        err.contains("message 1 at /: VALIDATION_FAILED: surface 'gallery-simple-text' has no component 'root' at the end of the stream"),
        "{err}"
    );
}

/// Issue 36: `check` judges literal arguments by the catalogs' own schemas, the implemented
/// basic catalog's and the MCP catalog's included, in payloads and in streams, each problem at
/// the argument.
#[test]
fn check_validates_literal_arguments_against_the_catalogs_schemas() {
    let mcp = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";
    let calls = [
        (
            json!({"@call": "length", "catalogId": BASIC, "args": {"value": "x", "min": "abc"}}),
            "/args/min",
        ),
        (
            json!({"@call": "formatCurrency", "catalogId": BASIC, "args": {"value": 1, "currency": 978}}),
            "/args/currency",
        ),
        (
            json!({"@call": "and", "catalogId": BASIC, "args": {"values": [true]}}),
            "/args/values",
        ),
        (
            json!({"@call": "add", "catalogId": BASIC, "args": {"a": "five", "b": 1}}),
            "/args/a",
        ),
        (
            json!({"@call": "split", "catalogId": mcp, "args": {"value": "a,b", "separator": 3}}),
            "/args/separator",
        ),
        (
            json!({"@call": "numeric", "catalogId": BASIC, "args": {"value": 3}}),
            "",
        ),
    ];
    for (i, (call, at)) in calls.iter().enumerate() {
        let file = temp_file(&format!("schema-{i}.json"), &call.to_string());
        let (code, out, _) = run(&["check", &file, "--json"]);
        assert_eq!(code, 1, "{call}: {out}");
        let errors = &json_lines(&out)[0]["errors"];
        assert!(
            errors
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["location"] == *at),
            "{call}: {errors}"
        );
    }
    // The same calls as component values of a stream: located inside the message.
    let components: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (call, _))| json!({"id": format!("t{i}"), "component": "Text", "text": call}))
        .collect();
    let stream = json!([
        {"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC}},
        {"version": "1.0", "updateComponents": {"surfaceId": "s", "components": components}}
    ]);
    let file = temp_file("schema-stream.json", &stream.to_string());
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1, "{out}");
    let errors = &json_lines(&out)[0]["errors"];
    for (i, (_, at)) in calls.iter().enumerate() {
        let want = format!("/updateComponents/components/{i}/text{at}");
        assert!(
            errors
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["location"] == want.as_str()),
            "{want}: {errors}"
        );
    }
}

/// Issue 36: the November rules and the action shapes through `check` of a stream.
#[test]
fn check_reports_the_november_rules_and_action_shapes() {
    let stream = json!([
        {"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC, "components": [
            {"id": "root", "component": "Column", "children": ["b", "u", "t"]},
            {"id": "b", "component": "Button", "child": "t", "action": {"@call": "openUrl", "args": {"url": "https://example.com"}}},
            {"id": "u", "component": "Button", "child": "t", "action": {"functionCall": {"@call": "openUrl", "args": {"url": "javascript:alert(1)"}}}},
            {"id": "t", "component": "Text", "text": "x", "@accessibility": {"hidden": "yes"}}
        ]}}
    ]);
    let file = temp_file("november.json", &stream.to_string());
    let (code, out, _) = run(&["check", &file, "--json"]);
    assert_eq!(code, 1, "{out}");
    let errors = &json_lines(&out)[0]["errors"];
    for at in [
        "/createSurface/components/1/action",
        "/createSurface/components/2/action/functionCall/args/url",
        "/createSurface/components/3/@accessibility/hidden",
    ] {
        assert!(
            errors
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["location"] == at),
            "{at}: {errors}"
        );
    }
}

/// `render` reads a stream as `check` does: a UTF-8 byte order mark, a `{"messages": […]}`
/// container followed by JSON lines, and a line that is not JSON, which is refused where it
/// stands (the index `check` gives it) while the messages around it are drawn.
#[test]
fn render_reads_a_stream_as_check_does() {
    let stream = concat!(
        "\u{feff}{\"messages\": [{\"version\": \"v1.0\", \"createSurface\": {\"surfaceId\": \"a\", \"catalogId\": \"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json\",",
        " \"components\": [{\"id\": \"root\", \"component\": \"Text\", \"text\": \"A\"}]}}]}\n",
        "{\"version\": \"v1.0\", \"updateComponents\": not JSON}\n",
        "{\"version\": \"v1.0\", \"createSurface\": {\"surfaceId\": \"b\", \"catalogId\": \"https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json\",",
        " \"components\": [{\"id\": \"root\", \"component\": \"Text\", \"text\": \"B\"}]}}\n",
    );
    let file = temp_file("render-as-check.jsonl", stream);
    let (_, out, err) = run(&["check", "--json", &file]);
    let checked = json_lines(&out);
    let errors = checked[0]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{out}{err}");
    let index = errors[0]["index"].clone();
    assert_eq!(index, json!(1));
    let (code, out, err) = run(&["render", &file]);
    assert_eq!(code, 0, "{err}");
    let rendered = &json_lines(&out)[0];
    for (id, text) in [("a", "A"), ("b", "B")] {
        assert_eq!(
            rendered["surfaces"][id]["nodes"][0]["props"]["text"], text,
            "{rendered}"
        );
    }
    let errors = rendered["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{rendered}");
    assert_eq!(errors[0]["index"], index);
    assert_eq!(errors[0]["category"], "ValidationError");
}
