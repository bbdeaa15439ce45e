use super::*;
use crate::error::Error;
use crate::error::ErrorCode;
use crate::limits::Limits;
use serde_json::json;
use serde_json::{Map, Value};

fn parse(component: &Value) -> Result<McpAppProps, Error> {
    McpAppProps::parse(component, &Limits::default())
}

fn app(extra: Value) -> Value {
    let mut component = json!({"component": "McpApp", "htmlContent": "<p>hi</p>"});
    let (Value::Object(base), Value::Object(extra)) = (&mut component, extra) else {
        panic!("test components are objects");
    };
    base.extend(extra);
    component
}

/// Every problem of a failed parse as `(location, message)`.
fn problems(component: Value) -> Vec<(String, String)> {
    let err = parse(&component).unwrap_err();
    assert!(
        err.problems()
            .all(|p| p.code() == ErrorCode::ValidationFailed)
    );
    err.problems()
        .map(|p| (p.location().to_owned(), p.message().to_owned()))
        .collect()
}

/// Every problem of a failed parse as `location: message`, one line each.
fn problem_lines(component: Value) -> Vec<String> {
    let all = problems(component);
    all.into_iter()
        .map(|(at, m)| format!("{at}: {m}"))
        .collect()
}

fn one_problem(component: Value) -> (String, String) {
    let mut all = problems(component);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

fn nested_object(depth: usize) -> Value {
    let mut v = json!({});
    for _ in 1..depth {
        v = json!({"items": v});
    }
    v
}

#[test]
fn full_component_parses_into_typed_fields() {
    let props = parse(&json!({
        "id": "app",
        "component": "McpApp",
        "weight": 2,
        "accessibility": {"label": {"@path": "/label"}, "description": "A board"},
        "htmlContent": {"@call": "formatString", "args": {"value": "x"}, "returnType": "string"},
        "title": "Board",
        "allowedTools": ["a", "b"],
        "allowedFunctions": {"f": {}, "g": {"type": "object"}},
        "data": {"paths": {"toolInput": "/in", "toolResult": "/out",
                           "modelContext": "/ctx", "score": "game/score"}},
        "csp": {"connectDomains": ["https://api.example.com"], "frameDomains": []},
        "permissions": {"camera": true, "clipboardWrite": {"reason": "copy"}}
    }))
    .unwrap();
    assert_eq!(props.id.as_deref(), Some("app"));
    assert_eq!(props.weight, Some(2.0));
    assert!(props.accessibility.is_some());
    assert!(matches!(props.html_content, DynamicString::Dynamic(_)));
    assert_eq!(props.html_content.as_literal(), None);
    assert_eq!(
        props.title,
        Some(DynamicString::Literal("Board".to_owned()))
    );
    assert_eq!(props.allowed_tools, ["a", "b"]);
    let names: Vec<&str> = props.allowed_functions.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["f", "g"]);
    assert_eq!(
        props.allowed_functions[1].schema(),
        &json!({"type": "object"})
    );
    let bindings: Vec<(&str, &str)> = props
        .data_paths
        .iter()
        .map(|p| (p.binding.method(), p.path.as_str()))
        .collect();
    assert_eq!(
        bindings,
        [
            ("ui/notifications/tool-input", "/in"),
            ("ui/notifications/tool-result", "/out"),
            ("ui/update-model-context", "/ctx"),
            ("ui/notifications/data-model-update", "game/score"),
        ]
    );
    let csp = props.csp.unwrap();
    assert_eq!(
        csp.connect_domains,
        Some(vec!["https://api.example.com".to_owned()])
    );
    assert_eq!(csp.frame_domains, Some(vec![]));
    assert_eq!(csp.resource_domains, None);
    let permissions = props.permissions.unwrap();
    assert_eq!(permissions.camera, Some(Permission::Flag(true)));
    assert!(matches!(
        permissions.clipboard_write,
        Some(Permission::Options(_))
    ));
    assert_eq!(permissions.microphone, None);
}

#[test]
fn minimal_component_has_empty_policy() {
    let props = parse(&app(json!({}))).unwrap();
    assert_eq!(props.html_content.as_literal(), Some("<p>hi</p>"));
    assert!(props.allowed_tools.is_empty());
    assert!(props.allowed_functions.is_empty());
    assert!(props.data_paths.is_empty());
    assert!(props.title.is_none() && props.csp.is_none() && props.permissions.is_none());
}

#[test]
fn literal_html_is_decoded_and_bad_escapes_are_reported() {
    let props = parse(&app(json!({"htmlContent": "url_encoded:a%20b"}))).unwrap();
    assert_eq!(props.html_content.as_literal(), Some("a b"));
    let (at, message) = one_problem(app(json!({"htmlContent": "url_encoded:%ZZ"})));
    assert_eq!(at, "/htmlContent");
    assert!(message.starts_with("URIError:"), "{message}");
}

#[test]
fn not_an_object_is_one_error() {
    let err = parse(&json!(["McpApp"])).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ValidationFailed);
    assert!(err.related().is_empty());
    assert_eq!(
        err.message(),
        "an McpApp component must be an object, got an array"
    );
}

#[test]
fn too_deep_component_is_one_limit_error() {
    let err = parse(&app(json!({"permissions": {"camera": nested_object(127)}}))).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert!(err.related().is_empty());
    // One level less fits: 1 (component) + 1 (permissions) + 126.
    assert!(parse(&app(json!({"permissions": {"camera": nested_object(126)}}))).is_ok());
}

#[test]
fn missing_required_properties() {
    assert_eq!(
        problem_lines(json!({})),
        [
            ": an McpApp component needs `component`",
            ": an McpApp component needs `htmlContent`"
        ]
    );
    assert_eq!(
        problem_lines(json!({"component": "Text", "htmlContent": ""})),
        ["/component: `component` must be \"McpApp\", got \"Text\""]
    );
}

#[test]
fn unknown_properties_everywhere() {
    let all = problems(app(json!({
        "src": "x",
        "data": {"paths": {}, "extra": 1},
        "csp": {"scriptDomains": []},
        "permissions": {"usb": true},
        "accessibility": {"role": "frame"}
    })));
    let at: Vec<&str> = all.iter().map(|(at, _)| at.as_str()).collect();
    assert_eq!(
        at,
        [
            "/src",
            "/data/extra",
            "/csp/scriptDomains",
            "/permissions/usb",
            "/accessibility/role"
        ]
    );
    assert_eq!(all[0].1, "unknown property `src`");
    assert_eq!(all[2].1, "unknown property `scriptDomains` in `csp`");
}

#[test]
fn wrong_types_are_each_named() {
    let all = problems(app(json!({
        "id": 1,
        "weight": "2",
        "title": 5,
        "allowedTools": "a",
        "allowedFunctions": [],
        "data": [],
        "csp": "x",
        "permissions": 1,
        "accessibility": "x"
    })));
    let messages: Vec<&str> = all.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`id` must be a string, got a number",
            "`weight` must be a number, got a string",
            "`title` must be a string or a dynamic value ({\"@path\": …} or {\"@call\": …}), got a number",
            "`allowedTools` must be an array of strings, got a string",
            "`allowedFunctions` must be an object, got an array",
            "`data` must be an object, got an array",
            "`csp` must be an object, got a string",
            "`permissions` must be an object, got a number",
            "`accessibility` must be an object, got a string",
        ]
    );
}

#[test]
fn wrong_types_inside_containers() {
    let all = problem_lines(app(json!({
        "allowedTools": ["ok", null],
        "data": {"paths": {"a": 1}},
        "csp": {"connectDomains": ["x", 2]},
        "permissions": {"camera": "yes"}
    })));
    assert_eq!(
        all,
        [
            "/allowedTools/1: `allowedTools[1]` must be a string, got null",
            "/data/paths/a: `data.paths.a` must be a string, got a number",
            "/csp/connectDomains/1: `csp.connectDomains[1]` must be a string, got a number",
            "/permissions/camera: `permissions.camera` must be a boolean or an object, got a string",
        ]
    );
}

#[test]
fn data_needs_paths_with_good_distinct_pointers() {
    let line = |data: Value| problem_lines(app(json!({ "data": data })));
    assert_eq!(line(json!({})), ["/data: `data` needs `paths`"]);
    assert_eq!(
        line(json!({"paths": []})),
        ["/data/paths: `data.paths` must be an object, got an array"]
    );
    let bad = line(json!({"paths": {"a/b": "/x~2"}}));
    assert!(bad[0].starts_with("/data/paths/a~1b: "), "{bad:?}");
    assert!(bad[0].contains("must be followed by '0' or '1'"), "{bad:?}");
    assert_eq!(
        line(json!({"paths": {"a": "/x", "b": "/x"}})),
        ["/data/paths/b: `data.paths` binds '/x' twice (`a` and `b`): paths must be distinct"]
    );
}

#[test]
fn malformed_dynamic_strings() {
    let all = problem_lines(app(json!({
        "htmlContent": {"@path": "/h", "extra": 1},
        "title": {"@path": 3},
        "accessibility": {"label": {"@call": "f", "args": [], "when": 1}}
    })));
    assert_eq!(
        all,
        [
            "/htmlContent: `htmlContent` is a malformed binding: it must be {\"@path\": <string>} alone",
            "/title: `title` is a malformed binding: it must be {\"@path\": <string>} alone",
            "/accessibility/label/args: `args` of the function call in `accessibility.label` must be an object, got an array",
            "/accessibility/label/when: `accessibility.label` is a function call with an unknown member `when`",
        ]
    );
    let (at, _) = one_problem(app(json!({"title": {"@call": 1}})));
    assert_eq!(at, "/title/@call");
    // An object that is neither a binding nor a call is not a string either.
    let (_, message) = one_problem(app(json!({"title": {"path": "/t"}})));
    assert!(message.ends_with("got an object"), "{message}");
}

#[cfg(feature = "json-schema")]
#[test]
fn bad_function_schemas() {
    let all = problems(app(json!({"allowedFunctions": {
        "a": true,
        "b": {"type": "strnig"},
        "c": {"pattern": "(?=x)"},
        "d": {"$ref": "https://example.com/schema.json"},
    }})));
    let at: Vec<&str> = all.iter().map(|(at, _)| at.as_str()).collect();
    assert_eq!(
        at,
        [
            "/allowedFunctions/a",
            "/allowedFunctions/b",
            "/allowedFunctions/c",
            "/allowedFunctions/d",
        ]
    );
    assert_eq!(
        all[0].1,
        "the schema of 'a' must be an object, got a boolean"
    );
    assert!(
        all[1]
            .1
            .starts_with("the schema of 'b' is not a valid JSON Schema")
    );
    assert!(
        all[2]
            .1
            .starts_with("the schema of 'c' is not a valid JSON Schema")
    );
    assert!(
        all[3]
            .1
            .starts_with("the schema of 'd' is not a valid JSON Schema")
    );
}

#[cfg(feature = "json-schema")]
#[test]
fn deep_but_allowed_schema_compiles_and_validates() {
    let props = parse(&app(json!({"allowedFunctions": {"f": nested_object(126)}}))).unwrap();
    let decision = props
        .check_function_call(&json!({"call": "f", "args": {}}))
        .unwrap();
    assert!(matches!(decision, FunctionCallDecision::Allowed { .. }));
}

#[cfg(feature = "json-schema")]
#[test]
fn recursive_schemas_terminate() {
    let props = parse(&app(json!({"allowedFunctions": {
        "self": {"$ref": "#"},
        "tree": {"type": "object", "properties": {"child": {"$ref": "#"}},
                 "additionalProperties": false}
    }})))
    .unwrap();
    for call in [
        json!({"call": "self", "args": {"x": 1}}),
        json!({"call": "tree", "args": {"child": {"child": {}}}}),
    ] {
        let decision = props.check_function_call(&call).unwrap();
        assert!(
            matches!(decision, FunctionCallDecision::Allowed { .. }),
            "{call}"
        );
    }
    let decision = props
        .check_function_call(&json!({"call": "tree", "args": {"child": {"leaf": 1}}}))
        .unwrap();
    let FunctionCallDecision::Denied(AppDenial::InvalidArguments { violations, .. }) = decision
    else {
        panic!("expected invalid arguments, got {decision:?}");
    };
    assert_eq!(violations.len(), 1);
    assert!(violations[0].ends_with(" at /child"), "{violations:?}");
}

#[cfg(feature = "json-schema")]
#[test]
fn pattern_runs_on_linear_engine() {
    let props = parse(&app(json!({"allowedFunctions": {
        "f": {"properties": {"v": {"type": "string", "pattern": "^(a+)+$"}}}
    }})))
    .unwrap();
    let evil = format!("{}b", "a".repeat(5000));
    let decision = props
        .check_function_call(&json!({"call": "f", "args": {"v": evil}}))
        .unwrap();
    assert!(matches!(
        decision,
        FunctionCallDecision::Denied(AppDenial::InvalidArguments { .. })
    ));
}

#[cfg(feature = "json-schema")]
#[test]
fn violations_are_capped() {
    let props = parse(&app(json!({"allowedFunctions": {
        "f": {"additionalProperties": {"type": "string"}}
    }})))
    .unwrap();
    let args: Map<String, Value> = (0..40).map(|i| (format!("k{i}"), json!(i))).collect();
    let decision = props
        .check_function_call(&json!({"call": "f", "args": args}))
        .unwrap();
    let FunctionCallDecision::Denied(AppDenial::InvalidArguments { violations, .. }) = decision
    else {
        panic!("expected invalid arguments");
    };
    assert_eq!(violations.len(), 16);
}

#[test]
fn tool_calls() {
    let props = parse(&app(json!({"allowedTools": ["t"]}))).unwrap();
    assert_eq!(
        props.check_tool_call(&json!({"name": "t"})).unwrap(),
        ToolCallDecision::Allowed {
            tool: "t".into(),
            arguments: Map::new()
        }
    );
    assert_eq!(
        props
            .check_tool_call(&json!({"name": "t", "arguments": null}))
            .unwrap(),
        ToolCallDecision::Allowed {
            tool: "t".into(),
            arguments: Map::new()
        }
    );
    assert_eq!(
        props.check_tool_call(&json!({"name": "T"})).unwrap(),
        ToolCallDecision::Denied(AppDenial::ToolNotAllowed { tool: "T".into() })
    );
    let nobody = parse(&app(json!({}))).unwrap();
    assert!(matches!(
        nobody.check_tool_call(&json!({"name": "t"})).unwrap(),
        ToolCallDecision::Denied(_)
    ));
}

#[test]
fn malformed_tool_call_requests() {
    let props = parse(&app(json!({"allowedTools": ["t"]}))).unwrap();
    for (params, location, message) in [
        (
            json!("t"),
            "",
            "the params of a tools/call request must be an object, got a string",
        ),
        (json!({}), "", "a tools/call request needs a `name`"),
        (
            json!({"name": ""}),
            "/name",
            "the `name` of a tools/call request must not be empty",
        ),
        (
            json!({"name": 1}),
            "/name",
            "the `name` of a tools/call request must be a string, got a number",
        ),
        (
            json!({"name": "t", "arguments": "x"}),
            "/arguments",
            "the `arguments` of a tools/call request must be an object, got a string",
        ),
    ] {
        let err = props.check_tool_call(&params).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ValidationFailed, "{params}");
        assert_eq!(err.location(), location, "{params}");
        assert_eq!(err.message(), message, "{params}");
    }
    let deep = json!({"name": "t", "arguments": nested_object(200)});
    let err = props.check_tool_call(&deep).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert_eq!(err.location(), "/arguments");
}

#[test]
fn malformed_function_call_requests() {
    let props = parse(&app(json!({"allowedFunctions": {"f": {}}}))).unwrap();
    for (params, message) in [
        (
            json!(null),
            "the params of a ui/requests/function-call request must be an object, got null",
        ),
        (
            json!({"args": {}}),
            "a ui/requests/function-call request needs a `call`",
        ),
        (
            json!({"call": ["f"]}),
            "the `call` of a ui/requests/function-call request must be a string, got an array",
        ),
        (
            json!({"call": "f", "args": 1}),
            "the `args` of a ui/requests/function-call request must be an object, got a number",
        ),
    ] {
        let err = props.check_function_call(&params).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ValidationFailed, "{params}");
        assert_eq!(err.message(), message, "{params}");
    }
    let err = props
        .check_function_call(&json!({"call": "f", "args": nested_object(129)}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    // Absent args are `{}`, which the empty schema accepts.
    assert_eq!(
        props.check_function_call(&json!({"call": "f"})).unwrap(),
        FunctionCallDecision::Allowed {
            function: "f".into(),
            args: Map::new()
        }
    );
}

/// Without a validator a schema that constrains the arguments refuses every call; one that
/// constrains nothing still allows any.
#[cfg(not(feature = "json-schema"))]
#[test]
fn without_json_schema_constraining_schemas_fail_closed() {
    let props = parse(&app(json!({"allowedFunctions": {
        "open": {},
        "noted": {"title": "Notes", "description": "anything", "$comment": "x", "examples": [1]},
        "typed": {"type": "object", "required": ["value"]},
        "nonsense": {"type": "strnig"},
    }})))
    .unwrap();
    for function in ["open", "noted"] {
        let decision = props
            .check_function_call(&json!({"call": function, "args": {"any": [1, 2]}}))
            .unwrap();
        assert!(
            matches!(decision, FunctionCallDecision::Allowed { .. }),
            "{function}: {decision:?}"
        );
    }
    for function in ["typed", "nonsense"] {
        // Even arguments the schema would accept: nothing checked them.
        let decision = props
            .check_function_call(&json!({"call": function, "args": {"value": "v"}}))
            .unwrap();
        assert_eq!(
            decision,
            FunctionCallDecision::Denied(AppDenial::SchemaNotChecked {
                function: function.into()
            })
        );
    }
}

#[test]
fn denial_messages() {
    assert_eq!(
        AppDenial::FunctionNotAllowed {
            function: "f".into()
        }
        .message(),
        "Function 'f' is not allowed by allowedFunctions"
    );
    assert_eq!(
        AppDenial::InvalidArguments {
            function: "f".into(),
            violations: vec!["a".into(), "b".into()]
        }
        .message(),
        "Arguments of function 'f' do not match its schema: a; b"
    );
    assert_eq!(
        AppDenial::SchemaNotChecked {
            function: "f".into()
        }
        .message(),
        "Arguments of function 'f' cannot be checked against its schema: the host was built \
         without the `json-schema` feature of a2ui-catalog-mcp"
    );
}

#[test]
fn data_path_lookup_and_notification_constants() {
    let props = parse(&app(json!({"data": {"paths": {"toolInput": "/i"}}}))).unwrap();
    assert_eq!(
        props.data_path("toolInput").map(|p| &p.binding),
        Some(&AppBinding::ToolInput)
    );
    assert_eq!(DATA_MODEL_UPDATE, "ui/notifications/data-model-update");
    assert_eq!(DATA_MODEL_CHANGE, "ui/notifications/data-model-change");
}
