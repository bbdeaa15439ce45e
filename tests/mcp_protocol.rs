//! A2UI over MCP helpers: shapes checked against the MCP 2025-11-25 schema, round trips, and
//! every error of the readers.

use a2ui_catalog_mcp::mcp::protocol::{
    self, ResourceOptions, Role, ToolOptions, ToolResultOptions, a2ui_messages,
};
use a2ui_catalog_mcp::{ErrorCode, Limits};
use serde_json::{Value, json};

const FRAGMENTS: &str = include_str!("data/mcp-2025-11-25-fragments.json");

/// Validates `value` against the definition `name` of the MCP schema fragments.
fn schema_errors(name: &str, value: &Value) -> Vec<String> {
    let fragments: Value = serde_json::from_str(FRAGMENTS).expect("fragments are JSON");
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$ref": format!("#/definitions/{name}"),
        "definitions": fragments["definitions"],
    });
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .build(&schema)
        .expect("fragments compile");
    validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn assert_valid(name: &str, value: &Value) {
    let errors = schema_errors(name, value);
    assert!(errors.is_empty(), "{name} invalid: {errors:?}\n{value:#}");
}

fn recipe_messages() -> Vec<Value> {
    vec![
        json!({"version": "v1.0", "createSurface": {"surfaceId": "recipe",
            "catalogId": "https://a2ui.org/specification/v1_0/basic_catalog.json"}}),
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "recipe", "components": [
            {"id": "root", "component": "Text", "text": {"path": "/title"}}]}}),
        json!({"version": "v1.0", "updateDataModel": {"surfaceId": "recipe", "path": "/",
            "value": {"title": "Grilled salmon", "note": "ünïcödé \"quoted\" \n line"}}}),
    ]
}

fn embedded(mime: &str, item: Value) -> Value {
    let mut resource = json!({"uri": "a2ui://x", "mimeType": mime});
    if let (Value::Object(r), Value::Object(extra)) = (&mut resource, item) {
        r.extend(extra);
    }
    json!({"type": "resource", "resource": resource})
}

// ---- shapes against the MCP schema ----

#[test]
fn the_fragments_reject_what_mcp_rejects() {
    assert!(!schema_errors("Tool", &json!({"name": "t"})).is_empty());
    assert!(
        !schema_errors(
            "Tool",
            &json!({"name": "t", "inputSchema": {"type": "array"}})
        )
        .is_empty()
    );
    assert!(!schema_errors("Resource", &json!({"uri": "a2ui://x"})).is_empty());
    assert!(
        !schema_errors(
            "CallToolResult",
            &json!({"content": [{"type": "resource"}]})
        )
        .is_empty()
    );
    assert!(
        !schema_errors(
            "CallToolResult",
            &json!({"content": [{"type": "text", "text": "x",
                                  "annotations": {"audience": ["robot"]}}]})
        )
        .is_empty()
    );
    assert!(
        !schema_errors(
            "ReadResourceResult",
            &json!({"contents": [{"uri": "a2ui://x"}]})
        )
        .is_empty()
    );
}

#[test]
fn tools_are_mcp_tools() {
    assert_valid("Tool", &protocol::tool("t", &ToolOptions::new()));
    assert_valid(
        "Tool",
        &protocol::tool(
            "get_recipe",
            &ToolOptions::new()
                .with_title("Get a recipe")
                .with_description("Returns a recipe.")
                .with_input_schema(json!({"type": "object",
                    "properties": {"dish": {"type": "string"}}, "required": ["dish"]}))
                .with_resource_uri("a2ui://recipe-card"),
        ),
    );
    assert_valid("Tool", &protocol::action_tool());
    assert_valid("Tool", &protocol::error_tool());
}

#[test]
fn resources_are_mcp_resources() {
    assert_valid(
        "Resource",
        &protocol::resource("a2ui://form", "Form", &ResourceOptions::new()),
    );
    let full = protocol::resource(
        "a2ui://form",
        "Form",
        &ResourceOptions::new()
            .with_title("Sign-up form")
            .with_description("Collects a name."),
    );
    assert_valid("Resource", &full);
    assert_eq!(
        full,
        json!({"uri": "a2ui://form", "name": "Form", "title": "Sign-up form",
               "description": "Collects a name.", "mimeType": "application/a2ui+json"})
    );
}

#[test]
fn resource_contents_are_read_resource_results() {
    let contents =
        protocol::resource_contents("a2ui://recipe-card", &recipe_messages(), &Limits::default())
            .unwrap();
    assert_valid("ReadResourceResult", &contents);
    let empty = protocol::resource_contents("a2ui://empty", &[], &Limits::default()).unwrap();
    assert_valid("ReadResourceResult", &empty);
    assert_eq!(empty["contents"][0]["text"], "[]");
}

#[test]
fn tool_results_are_call_tool_results() {
    let messages = recipe_messages();
    let plain =
        protocol::tool_result(&messages, &ToolResultOptions::new(), &Limits::default()).unwrap();
    assert_valid("CallToolResult", &plain);
    assert_eq!(plain["content"].as_array().unwrap().len(), 1);
    assert_eq!(plain["content"][0]["resource"]["uri"], "a2ui://messages");
    assert!(plain.get("_meta").is_none());
    assert!(plain["content"][0].get("annotations").is_none());
    for audience in [vec![Role::User], vec![Role::Assistant], vec![]] {
        let full = protocol::tool_result(
            &messages,
            &ToolResultOptions::new()
                .with_uri("a2ui://recipe-card/data")
                .with_text("Generated recipe: Grilled salmon")
                .with_resource_uri("a2ui://recipe-card")
                .with_audience(audience.clone()),
            &Limits::default(),
        )
        .unwrap();
        assert_valid("CallToolResult", &full);
        assert_eq!(
            full["content"][0],
            json!({"type": "text",
            "text": "Generated recipe: Grilled salmon"})
        );
        let roles: Vec<&str> = audience.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            full["content"][1]["annotations"],
            json!({"audience": roles})
        );
        assert_eq!(full["_meta"], protocol::ui_meta("a2ui://recipe-card"));
    }
}

// ---- round trips ----

#[test]
fn tool_result_round_trips_through_a2ui_messages() {
    for messages in [recipe_messages(), vec![], vec![json!({})]] {
        for options in [
            ToolResultOptions::new(),
            ToolResultOptions::new()
                .with_text("fallback")
                .with_audience([Role::User]),
        ] {
            let result = protocol::tool_result(&messages, &options, &Limits::default()).unwrap();
            assert_eq!(
                a2ui_messages(&result, &Limits::default()).unwrap(),
                messages
            );
        }
    }
}

#[test]
fn resource_contents_round_trip_when_embedded() {
    let messages = recipe_messages();
    let contents =
        protocol::resource_contents("a2ui://recipe-card", &messages, &Limits::default()).unwrap();
    let result = json!({"content": [{"type": "resource", "resource": contents["contents"][0]}]});
    assert_eq!(
        a2ui_messages(&result, &Limits::default()).unwrap(),
        messages
    );
}

#[test]
fn a2ui_messages_keeps_order_across_resources_and_skips_the_rest() {
    let result = json!({"content": [
        embedded("application/a2ui+json", json!({"text": "[{\"n\":1},{\"n\":2}]"})),
        {"type": "text", "text": "[{\"n\": 99}]"},
        {"type": "image", "data": "AAAA", "mimeType": "image/png"},
        {"type": "resource_link", "uri": "a2ui://y", "name": "y",
         "mimeType": "application/a2ui+json"},
        embedded("application/json", json!({"text": "[{\"n\": 98}]"})),
        embedded("text/html;profile=mcp-app", json!({"text": "<p/>"})),
        {"type": "resource", "resource": "not an object"},
        {"type": "resource"},
        embedded("APPLICATION/JSON+A2UI; charset=utf-8", json!({"text": "{\"n\":3}"})),
        embedded("application/a2ui+json", json!({"blob": "W3sibiI6NH1d"})),
    ]});
    assert_eq!(
        a2ui_messages(&result, &Limits::default()).unwrap(),
        [
            json!({"n": 1}),
            json!({"n": 2}),
            json!({"n": 3}),
            json!({"n": 4})
        ]
    );
    assert_eq!(
        a2ui_messages(&json!({"content": []}), &Limits::default()).unwrap(),
        Vec::<Value>::new()
    );
}

// ---- reader errors ----

fn a2ui_error(result: Value) -> (ErrorCode, String, String) {
    let err = a2ui_messages(&result, &Limits::default()).unwrap_err();
    (
        err.code(),
        err.location().to_owned(),
        err.message().to_owned(),
    )
}

#[test]
fn a2ui_messages_errors() {
    let cases: Vec<(Value, ErrorCode, &str, &str)> = vec![
        (
            json!("x"),
            ErrorCode::ValidationFailed,
            "",
            "a CallToolResult must be an object with a `content` array, got a string",
        ),
        (
            json!({"isError": false}),
            ErrorCode::ValidationFailed,
            "",
            "a CallToolResult must be an object with a `content` array, got an object",
        ),
        (
            json!({"content": {}}),
            ErrorCode::ValidationFailed,
            "/content",
            "a CallToolResult's `content` must be an array, got an object",
        ),
        (
            json!({"content": [embedded("application/a2ui+json", json!({"text": "not json"}))]}),
            ErrorCode::ValidationFailed,
            "/content/0/resource/text",
            "the A2UI resource is not valid JSON: expected ident at line 1 column 2",
        ),
        (
            json!({"content": [{"type": "text", "text": "x"},
                            embedded("application/a2ui+json", json!({"text": "[{}, 3]"}))]}),
            ErrorCode::ValidationFailed,
            "/content/1/resource/text",
            "A2UI message 1 of the A2UI resource is a number, not an object",
        ),
        (
            json!({"content": [embedded("application/a2ui+json", json!({"text": "\"hi\""}))]}),
            ErrorCode::ValidationFailed,
            "/content/0/resource/text",
            "the A2UI resource holds a string, not a message or an array of messages",
        ),
        (
            json!({"content": [embedded("application/a2ui+json", json!({"text": 5}))]}),
            ErrorCode::ValidationFailed,
            "/content/0/resource",
            "the A2UI resource has neither a `text` nor a `blob` string",
        ),
        (
            json!({"content": [embedded("application/a2ui+json", json!({"blob": "@@@@"}))]}),
            ErrorCode::ValidationFailed,
            "/content/0/resource/blob",
            "the blob of the A2UI resource is not base64: base64 text has an invalid character at offset 0",
        ),
        (
            json!({"content": [embedded("application/a2ui+json", json!({"blob": "/w=="}))]}),
            ErrorCode::ValidationFailed,
            "/content/0/resource/blob",
            "the blob of the A2UI resource is not UTF-8 text",
        ),
    ];
    for (result, code, location, message) in cases {
        assert_eq!(
            a2ui_error(result.clone()),
            (code, location.to_owned(), message.to_owned()),
            "{result}"
        );
    }
}

#[test]
fn a2ui_messages_refuses_deep_json_without_overflowing() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let result = json!({"content": [embedded("application/a2ui+json", json!({"text": deep}))]});
    let (code, location, _) = a2ui_error(result);
    assert_eq!(code, ErrorCode::LimitExceeded);
    assert_eq!(location, "/content/0/resource/text");
    // The deepest messages a writer accepts are read back.
    let mut message = json!({});
    for _ in 0..126 {
        message = json!({"a": message});
    }
    let result = protocol::tool_result(
        std::slice::from_ref(&message),
        &ToolResultOptions::new(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(
        a2ui_messages(&result, &Limits::default()).unwrap(),
        [message]
    );
}

#[test]
fn action_reads_every_field() {
    let arguments = json!({"name": "confirm_booking", "surfaceId": "default",
        "sourceComponentId": "confirm-button", "timestamp": "2026-03-20T10:00:00Z",
        "context": {"start": "2026-03-20", "end": "2026-03-25"}, "extra": true});
    assert_eq!(
        protocol::action(&arguments, "1.0", &Limits::default()).unwrap(),
        json!({"version": "1.0", "action": {"name": "confirm_booking", "surfaceId": "default",
            "sourceComponentId": "confirm-button", "timestamp": "2026-03-20T10:00:00Z",
            "context": {"start": "2026-03-20", "end": "2026-03-25"}}})
    );
}

#[test]
fn action_errors_name_every_field() {
    let full = json!({"name": "n", "surfaceId": "s", "sourceComponentId": "c",
        "timestamp": "t", "context": {}});
    for field in [
        "name",
        "surfaceId",
        "sourceComponentId",
        "timestamp",
        "context",
    ] {
        let mut missing = full.clone();
        missing.as_object_mut().unwrap().remove(field);
        let err = protocol::action(&missing, "v1.0", &Limits::default()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ValidationFailed);
        assert_eq!(err.function(), Some("a2ui_action"));
        assert_eq!(
            err.message(),
            format!("invalid a2ui_action arguments: missing `{field}`")
        );
        let mut mistyped = full.clone();
        mistyped[field] = json!(null);
        let wanted = if field == "context" {
            "an object"
        } else {
            "a string"
        };
        assert_eq!(
            protocol::action(&mistyped, "v1.0", &Limits::default())
                .unwrap_err()
                .message(),
            format!("invalid a2ui_action arguments: `{field}` must be {wanted}, got null")
        );
    }
    assert_eq!(
        protocol::action(
            &json!({"context": "x", "timestamp": 1}),
            "v1.0",
            &Limits::default()
        )
        .unwrap_err()
        .message(),
        "invalid a2ui_action arguments: missing `name`; missing `surfaceId`; \
         missing `sourceComponentId`; `timestamp` must be a string, got a number; \
         `context` must be an object, got a string"
    );
    assert_eq!(
        protocol::action(&json!([1]), "v1.0", &Limits::default())
            .unwrap_err()
            .message(),
        "the arguments of a2ui_action must be an object, got an array"
    );
}

#[test]
fn action_refuses_deep_arguments() {
    let mut context = json!({});
    for _ in 0..200 {
        context = json!({"a": context});
    }
    let arguments = json!({"name": "n", "surfaceId": "s", "sourceComponentId": "c",
        "timestamp": "t", "context": context});
    let err = protocol::action(&arguments, "v1.0", &Limits::default()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
    assert_eq!(err.function(), Some("a2ui_action"));
}

#[test]
fn error_reads_fields_and_names_every_problem() {
    assert_eq!(
        protocol::error(&json!({"code": "C", "message": "M", "surfaceId": "S",
            "path": "/components/0", "other": 1}))
        .unwrap(),
        json!({"code": "C", "message": "M", "surfaceId": "S", "path": "/components/0"})
    );
    assert_eq!(
        protocol::error(&json!({"code": "C", "message": "M", "surfaceId": "S", "path": null}))
            .unwrap(),
        json!({"code": "C", "message": "M", "surfaceId": "S"})
    );
    let err = protocol::error(&json!({})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ValidationFailed);
    assert_eq!(err.function(), Some("a2ui_error"));
    assert_eq!(
        err.message(),
        "invalid a2ui_error arguments: missing `code`; missing `message`; missing `surfaceId`"
    );
    assert_eq!(
        protocol::error(&json!({"code": "C", "message": ["M"], "surfaceId": false,
            "path": {}}))
        .unwrap_err()
        .message(),
        "invalid a2ui_error arguments: `message` must be a string, got an array; \
         `surfaceId` must be a string, got a boolean; `path` must be a string, got an object"
    );
    assert_eq!(
        protocol::error(&json!(null)).unwrap_err().message(),
        "the arguments of a2ui_error must be an object, got null"
    );
}

#[test]
fn the_tools_schemas_accept_what_the_readers_accept() {
    // What a renderer sends through the declared tools is what the readers take.
    let action_schema = jsonschema::validator_for(&protocol::action_tool()["inputSchema"]).unwrap();
    let good = json!({"name": "n", "surfaceId": "s", "sourceComponentId": "c",
        "timestamp": "2026-03-20T10:00:00Z", "context": {"k": 1}});
    assert!(action_schema.is_valid(&good));
    assert!(protocol::action(&good, "v1.0", &Limits::default()).is_ok());
    let bad = json!({"name": "n", "surfaceId": "s", "sourceComponentId": "c", "context": {}});
    assert!(!action_schema.is_valid(&bad));
    assert!(protocol::action(&bad, "v1.0", &Limits::default()).is_err());

    let error_schema = jsonschema::validator_for(&protocol::error_tool()["inputSchema"]).unwrap();
    let good = json!({"code": "C", "message": "M", "surfaceId": "S", "path": "/p"});
    assert!(error_schema.is_valid(&good));
    assert!(protocol::error(&good).is_ok());
    let bad = json!({"code": "C", "surfaceId": "S"});
    assert!(!error_schema.is_valid(&bad));
    assert!(protocol::error(&bad).is_err());
}

#[test]
fn mime_checks_accept_both_spellings() {
    for mime in [
        protocol::MIME_TYPE,
        protocol::LEGACY_MIME_TYPE,
        "application/a2ui+json; charset=utf-8",
        "Application/Json+A2ui;charset=UTF-8",
    ] {
        assert!(protocol::is_a2ui_mime_type(mime), "{mime}");
        assert!(!protocol::is_mcp_app_mime_type(mime), "{mime}");
    }
    for mime in [
        protocol::MCP_APP_MIME_TYPE,
        "text/html ; profile=mcp-app ; charset=utf-8",
    ] {
        assert!(protocol::is_mcp_app_mime_type(mime), "{mime}");
        assert!(!protocol::is_a2ui_mime_type(mime), "{mime}");
    }
}

#[test]
fn renderer_capabilities_from_both_places() {
    let caps = json!({"v0.10": {"supportedCatalogIds":
        ["https://a2ui.org/specification/v0_10/basic_catalog.json"], "inlineCatalogs": []}});
    let initialize = json!({"jsonrpc": "2.0", "method": "initialize", "id": "init-123",
        "params": {"protocolVersion": "2025-11-25",
                   "clientInfo": {"name": "a2ui-enabled-client", "version": "1.0.0"},
                   "capabilities": {"a2ui": {"clientCapabilities": caps}}}});
    let call = json!({"name": "generate_report", "arguments": {"date": "2026-03-01"},
        "_meta": {"a2ui": {"clientCapabilities": caps}}});
    for params in [&initialize, &initialize["params"], &call] {
        let found = protocol::renderer_capabilities(params).unwrap();
        assert_eq!(found.get("0.10"), Some(&caps["v0.10"]));
        assert_eq!(Some(found.as_map()), caps.as_object());
    }
    assert!(protocol::renderer_capabilities(&json!({"capabilities": {}})).is_none());
    assert!(protocol::renderer_capabilities(&json!({"_meta": {"a2ui": {}}})).is_none());
}

// ---- properties ----

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            ".*".prop_map(Value::from),
        ];
        leaf.prop_recursive(6, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::btree_map(".{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_messages_round_trip(
            messages in proptest::collection::vec(
                proptest::collection::btree_map("[a-zA-Z]{1,8}", json_value(), 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
                0..4,
            ),
            text in proptest::option::of(".*"),
        ) {
            let mut options = ToolResultOptions::new();
            if let Some(text) = text {
                options = options.with_text(text);
            }
            let result = protocol::tool_result(&messages, &options, &Limits::default()).unwrap();
            prop_assert!(schema_errors("CallToolResult", &result).is_empty());
            prop_assert_eq!(a2ui_messages(&result, &Limits::default()).unwrap(), messages);
        }

        #[test]
        fn any_resource_text_is_messages_or_a_located_error(text in ".*|\\[.*\\]|\\{.*\\}") {
            let result = json!({"content": [embedded("application/a2ui+json", json!({"text": text}))]});
            match a2ui_messages(&result, &Limits::default()) {
                Ok(messages) => prop_assert!(messages.iter().all(Value::is_object)),
                Err(err) => prop_assert_eq!(err.location(), "/content/0/resource/text"),
            }
        }

        #[test]
        fn any_arguments_give_a_message_or_a_validation_error(arguments in json_value()) {
            match protocol::action(&arguments, "v1.0", &Limits::default()) {
                Ok(message) => prop_assert!(message["action"]["context"].is_object()),
                Err(err) => prop_assert_eq!(err.code(), ErrorCode::ValidationFailed),
            }
            match protocol::error(&arguments) {
                Ok(error) => prop_assert!(error["code"].is_string()),
                Err(err) => prop_assert_eq!(err.code(), ErrorCode::ValidationFailed),
            }
        }
    }
}
