use crate::{Environment, JsonPointer};
use serde_json::{Value, json};

/// The payloads of the reference group `reactive` with their expected dependencies (the group's
/// `expect.dependencies`, for every case that has one).
const REFERENCE: &str = r##"[
    {"id": "reactive/literal-no-deps", "payload": {"title": "Home", "n": [1, 2]}, "dependencies": []},
    {"id": "reactive/one-binding", "payload": {"@path": "/user/name"}, "dependencies": ["/user/name"]},
    {"id": "reactive/relative-in-context", "contextPath": "/rows/1", "payload": {"@path": "name"}, "dependencies": ["/rows/1/name"]},
    {"id": "reactive/dot-is-context", "contextPath": "/rows/0", "payload": {"@path": "."}, "dependencies": ["/rows/0"]},
    {"id": "reactive/root", "payload": {"@path": "/"}, "dependencies": ["/"]},
    {"id": "reactive/missing-path-is-still-a-dependency", "payload": {"@path": "/not/yet"}, "dependencies": ["/not/yet"]},
    {"id": "reactive/sorted-unique", "payload": {"b": {"@path": "/z"}, "a": [{"@path": "/a/2"}, {"@path": "/a/10"}, {"@path": "/z"}]}, "dependencies": ["/a/10", "/a/2", "/z"]},
    {"id": "reactive/escaped-tokens", "payload": {"@path": "/a~1b/c~0d"}, "dependencies": ["/a~1b/c~0d"]},
    {"id": "reactive/nested-call-args", "payload": {"@call": "transformData", "args": {"data": {"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": {"@path": "/sep"}}}, "jmespath": "[0]"}}, "dependencies": ["/csv", "/sep"]},
    {"id": "reactive/dynamic-jmespath", "payload": {"@call": "transformData", "args": {"data": {"@path": "/items"}, "jmespath": {"@path": "/expr"}}}, "dependencies": ["/expr", "/items"]},
    {"id": "reactive/regex-pattern-binding", "payload": {"@call": "regexCapture", "args": {"value": {"@path": "/v"}, "pattern": {"@path": "/pat"}}}, "dependencies": ["/pat", "/v"]},
    {"id": "reactive/update-keys-are-targets", "contextPath": "/rows/0", "payload": {"@call": "updateDataModel", "args": {"updates": {"/copy": {"@path": "/source"}, "flag": true}}}, "dependencies": ["/source"]},
    {"id": "reactive/updates-from-binding", "payload": {"@call": "updateDataModel", "args": {"updates": {"@path": "/pending"}}}, "dependencies": ["/pending"]},
    {"id": "reactive/updates-null-writes-nothing", "payload": {"@call": "updateDataModel", "args": {"updates": {"@path": "/pending"}}}, "dependencies": ["/pending"]},
    {"id": "reactive/write-null-is-a-change", "payload": {"@call": "updateDataModel", "args": {"updates": {"/x": {"@path": "/missing"}}}}, "dependencies": ["/missing"]},
    {"id": "reactive/root-write", "payload": {"@call": "updateDataModel", "args": {"updates": {"/": {"fresh": true}}}}, "dependencies": []},
    {"id": "reactive/changed-in-write-order", "payload": [{"@call": "updateDataModel", "args": {"updates": {"/b": 1, "/a": 1}}}, {"@call": "updateDataModel", "args": {"updates": {"/b": 2}}}], "dependencies": []},
    {"id": "reactive/failed-chain-changes-nothing", "payload": {"@call": "updateDataModel", "args": {"updates": {"/out": {"@call": "regexCapture", "args": {"value": "x", "pattern": {"@path": "/pat"}}}}}}, "dependencies": ["/pat"]},
    {"id": "reactive/dependencies-of-a-failing-payload", "payload": {"@call": "updateDataModel", "args": {"updates": {"/n": {"@call": "regexCapture", "args": {"value": {"@path": "/s"}, "pattern": {"@path": "/pat"}}}}}}, "dependencies": ["/pat", "/s"]},
    {"id": "reactive/tool-target-is-a-change", "payload": {"@call": "callMcpTool", "args": {"name": "search", "arguments": {"q": {"@path": "/query"}}, "targetDataPath": "/results"}}, "dependencies": ["/query"]},
    {"id": "reactive/tool-chain-changes", "payload": {"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {"jmespath": "{\"/issues\": json[?state == 'open'].number}", "data": {"@call": "callMcpTool", "args": {"name": "list_issues", "arguments": {"repository": {"@path": "/repository"}}}}}}}}, "dependencies": ["/repository"]},
    {"id": "reactive/tool-error-changes-nothing", "payload": {"@call": "callMcpTool", "args": {"name": "boom", "arguments": {}, "targetDataPath": "/out"}}, "dependencies": []}
]"##;

fn strings(deps: &[JsonPointer]) -> Vec<String> {
    deps.iter().map(ToString::to_string).collect()
}

#[test]
fn reference_cases_have_their_dependencies() {
    let cases: Vec<Value> = serde_json::from_str(REFERENCE).unwrap();
    assert_eq!(cases.len(), 22);
    let env = Environment::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let context = JsonPointer::parse(case["contextPath"].as_str().unwrap_or("/")).unwrap();
        let payload = env
            .compile(&case["payload"])
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let expected: Vec<String> = serde_json::from_value(case["dependencies"].clone()).unwrap();
        assert_eq!(strings(&payload.dependencies(&context)), expected, "{id}");
    }
}

fn deps_in(payload: Value, context: &str) -> Vec<String> {
    let payload = Environment::new().compile(&payload).unwrap();
    strings(&payload.dependencies(&JsonPointer::parse(context).unwrap()))
}

#[test]
fn relative_and_absolute_paths_merge_sorted_and_unique() {
    let payload = json!([
        {"@path": "/rows/1/name"}, {"@path": "name"}, {"@path": "."}, {"@path": ""},
        {"@path": "/a"}, {"@path": "tags/0"}, {"@path": "/zz"}, {"@path": "a~1b"}
    ]);
    assert_eq!(
        deps_in(payload.clone(), "/rows/1"),
        [
            "/a",
            "/rows/1",
            "/rows/1/a~1b",
            "/rows/1/name",
            "/rows/1/tags/0",
            "/zz"
        ]
    );
    assert_eq!(
        deps_in(payload.clone(), "/"),
        [
            "/",
            "/a",
            "/a~1b",
            "/name",
            "/rows/1/name",
            "/tags/0",
            "/zz"
        ]
    );
    // A context whose tokens need escaping.
    assert_eq!(
        deps_in(json!({"@path": "x"}), "/m~0n/a~1b"),
        ["/m~0n/a~1b/x"]
    );
}

#[test]
fn one_compiled_payload_serves_every_row() {
    let env = Environment::new();
    let row = env
        .compile(&json!({"@call": "split", "args": {"value": {"@path": "tags"}, "separator": {"@path": "/sep"}}}))
        .unwrap();
    assert!(row.depends_on_context());
    for i in [0, 7, 10_000] {
        let context = JsonPointer::parse(&format!("/rows/{i}")).unwrap();
        assert_eq!(
            strings(&row.dependencies(&context)),
            [format!("/rows/{i}/tags"), "/sep".to_string()]
        );
    }
    let fixed = env.compile(&json!({"@path": "/title"})).unwrap();
    assert!(!fixed.depends_on_context());
    assert_eq!(
        fixed.dependencies(&JsonPointer::parse("/rows/3").unwrap()),
        [JsonPointer::parse("/title").unwrap()]
    );
}

#[test]
fn write_targets_are_not_dependencies_but_bound_targets_are() {
    assert_eq!(
        deps_in(
            json!({"@call": "callMcpTool", "args": {"name": {"@path": "/tool"}, "targetDataPath": {"@path": "/where"}}}),
            "/"
        ),
        ["/tool", "/where"]
    );
    assert_eq!(
        deps_in(
            json!({"@call": "updateDataModel", "args": {"updates": {"/out": 1, "rel": {"@path": "src"}}}}),
            "/ctx"
        ),
        ["/ctx/src"]
    );
}

#[test]
fn deep_payloads_are_walked_without_recursion() {
    let mut payload = json!({"@path": "/leaf"});
    for i in 0..120 {
        payload = if i % 2 == 0 {
            json!([payload, {"@path": format!("/level/{i}")}])
        } else {
            json!({"@call": "transformData", "args": {"data": payload, "jmespath": "@"}})
        };
    }
    let deps = deps_in(payload, "/");
    assert_eq!(deps.len(), 61);
    assert_eq!(deps[0], "/leaf");
    assert!(deps.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn malformed_paths_stay_compile_errors() {
    let env = Environment::new();
    for bad in [
        json!({"@path": "/a~2"}),
        json!({"@path": 3}),
        json!([{"@path": "x~"}]),
    ] {
        assert!(env.compile(&bad).is_err(), "{bad}");
    }
}

#[test]
fn may_write_follows_the_functions_called() {
    let env = Environment::new();
    let check = |payload: Value, expected: bool| {
        assert_eq!(
            env.compile(&payload).unwrap().may_write(),
            expected,
            "{payload}"
        );
    };
    check(json!({"@path": "/a"}), false);
    check(
        json!([1, {"@call": "split", "args": {"value": "a,b", "separator": ","}}]),
        false,
    );
    check(
        json!({"@call": "regexCapture", "args": {"value": {"@path": "/v"}, "pattern": "(\\d+)"}}),
        false,
    );
    check(
        json!({"x": [{"@call": "updateDataModel", "args": {"updates": {}}}]}),
        true,
    );
    check(
        json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": "/r"}}),
        true,
    );
    check(
        json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": {"@path": "/where"}}}),
        true,
    );
    check(
        json!({"@call": "callMcpTool", "args": {"name": "t", "targetDataPath": null}}),
        false,
    );
    check(
        json!({"@call": "transformData", "args": {"data": {"@call": "callMcpTool", "args": {"name": "t"}}, "jmespath": "@"}}),
        false,
    );
}

#[test]
fn host_functions_declare_writes() {
    use crate::catalog::{ArgSchema, Args, CallContext, Catalog, Function};

    struct Touch;
    impl Function for Touch {
        fn call(&self, _: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, crate::Error> {
            cx.write("/touched", Value::Bool(true));
            Ok(Value::Null)
        }
        fn may_write(&self, _args: &crate::catalog::StaticArgs<'_>) -> bool {
            true
        }
    }
    let mut env = Environment::new();
    env.add_catalog(
        Catalog::new("https://example.com/host.json")
            .with_function("touch", ArgSchema::new(), Touch)
            .with_function("pure", ArgSchema::new(), |_: &Args<'_>| Ok(Value::Null)),
    );
    let call = |f: &str| json!({"@call": f, "catalogId": "https://example.com/host.json"});
    assert!(env.compile(&call("touch")).unwrap().may_write());
    assert!(!env.compile(&call("pure")).unwrap().may_write());
}
