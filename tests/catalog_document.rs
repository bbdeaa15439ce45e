//! Catalogs read from their JSON documents: the MCP catalog's and the basic catalog's entry
//! shapes, literal arguments checked against the schemas (feature `json-schema`), `returnType`,
//! and functions the host implements by name.

use a2ui_catalog_mcp::Args;
use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, MCP_CATALOG_ID, Phase};
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn basic() -> Catalog {
    Catalog::from_schema_str(include_str!("data/basic-catalog.json")).unwrap()
}

fn env() -> Environment {
    Environment::new()
        .with_catalog(basic())
        .with_default_catalog(BASIC)
}

/// `(code, location)` of every compile problem, or nothing when the payload compiles.
fn problems(env: &Environment, payload: Value) -> Vec<(ErrorCode, String)> {
    match env.compile(&payload) {
        Ok(_) => Vec::new(),
        Err(e) => {
            assert!(e.problems().all(|p| p.phase() == Phase::Compile));
            e.problems()
                .map(|p| (p.code(), p.location().to_owned()))
                .collect()
        }
    }
}

fn messages(env: &Environment, payload: Value) -> Vec<String> {
    env.compile(&payload)
        .map(|_| Vec::new())
        .unwrap_or_else(|e| e.problems().map(|p| p.message().to_owned()).collect())
}

#[test]
fn the_basic_catalog_declares_its_functions() {
    let catalog = basic();
    assert_eq!(catalog.id(), BASIC);
    assert_eq!(
        catalog.function_names(),
        [
            "and",
            "email",
            "formatCurrency",
            "formatDate",
            "formatNumber",
            "formatString",
            "length",
            "not",
            "numeric",
            "openUrl",
            "or",
            "pluralize",
            "regex",
            "required"
        ]
    );
    let currency = catalog.declaration("formatCurrency").unwrap();
    assert_eq!(currency.return_type(), Some("string"));
    assert_eq!(currency.catalog_id(), BASIC);
    assert_eq!(
        currency.required_args().collect::<Vec<_>>(),
        ["value", "currency"]
    );
    assert_eq!(
        currency.optional_args().collect::<Vec<_>>(),
        ["decimals", "grouping"]
    );
    assert_eq!(
        currency.args_schema()["unevaluatedProperties"],
        json!(false)
    );
    assert!(!catalog.is_implemented("formatCurrency"));
    assert_eq!(
        catalog.declaration("length").unwrap().return_type(),
        Some("boolean")
    );
    assert_eq!(
        catalog.declaration("openUrl").unwrap().return_type(),
        Some("void")
    );
    assert_eq!(
        cfg!(feature = "json-schema"),
        catalog.declaration("length").unwrap().validates_literals()
    );
}

#[test]
fn the_mcp_catalog_reads_as_a_document_too() {
    let mcp = Catalog::from_schema_str(a2ui_catalog_mcp::functions::MCP_CATALOG_JSON).unwrap();
    assert_eq!(mcp.id(), MCP_CATALOG_ID);
    let call = mcp.declaration("callMcpTool").unwrap();
    assert_eq!(call.return_type(), Some("any"));
    assert_eq!(call.required_args().collect::<Vec<_>>(), ["name"]);
    // The built-in one keeps the reference's own argument checks.
    let builtin = Catalog::mcp();
    assert!(builtin.is_implemented("split"));
    assert!(!builtin.declaration("split").unwrap().validates_literals());
    let env = Environment::new();
    let err = env
        .compile(&json!({"@call": "transformData", "args": {"jmespath": 42, "data": {}}}))
        .unwrap_err();
    assert!(
        err.message()
            .contains("transformData expects a string expression, got a number.")
    );
}

#[test]
fn required_undeclared_and_return_type_are_checked_with_or_without_schemas() {
    let env = env();
    assert_eq!(
        problems(
            &env,
            json!({"@call": "formatCurrency", "args": {"value": 1, "currencyCode": "USD"}})
        ),
        [
            (ErrorCode::ValidationFailed, "/args/currencyCode".to_owned()),
            (ErrorCode::ValidationFailed, String::new())
        ]
    );
    assert_eq!(
        messages(
            &env,
            json!({"@call": "formatString", "args": {"value": "x"}, "returnType": "number"})
        ),
        [format!(
            "'formatString' returns string (catalog '{BASIC}'), but the call says its returnType is 'number'"
        )]
    );
    for ok in ["string", "any"] {
        assert!(
            problems(
                &env,
                json!({"@call": "formatString", "args": {"value": "x"}, "returnType": ok})
            )
            .is_empty()
        );
    }
    // A nested call is checked too, with its own location.
    assert_eq!(
        problems(
            &env,
            json!({"@call": "not", "args": {"value": {"@call": "email", "args": {"value": "a"}, "returnType": "string"}}})
        ),
        [(ErrorCode::ValidationFailed, "/args/value".to_owned())]
    );
}

#[cfg(feature = "json-schema")]
#[test]
fn literal_arguments_are_validated_against_the_schema() {
    let env = env();
    let path = |p: &str| json!({"@path": p});
    // A string where a number is declared.
    assert_eq!(
        problems(
            &env,
            json!({"@call": "formatNumber", "args": {"value": path("/n"), "decimals": "2"}})
        ),
        [(ErrorCode::ExpressionError, "/args/decimals".to_owned())]
    );
    assert_eq!(
        messages(
            &env,
            json!({"@call": "formatNumber", "args": {"value": path("/n"), "decimals": "2"}})
        ),
        [
            "'formatNumber': the argument 'decimals' does not fit the catalog's schema: \"2\" is not of type \"number\""
        ]
    );
    // `length` with neither bound, whatever its value is bound to.
    let neither = json!({"@call": "length", "args": {"value": path("/name")}});
    assert_eq!(
        problems(&env, neither.clone()),
        [(ErrorCode::ValidationFailed, String::new())]
    );
    assert_eq!(
        messages(&env, neither),
        [
            "'length': the arguments do not fit the catalog's schema: must satisfy one of: \"min\" is a required property; or \"max\" is a required property"
        ]
    );
    // A negative bound; a bound that is not an integer.
    assert_eq!(
        problems(
            &env,
            json!({"@call": "length", "args": {"value": path("/name"), "min": 1.5, "max": -1}})
        ),
        [
            (ErrorCode::ExpressionError, "/args/min".to_owned()),
            (ErrorCode::ExpressionError, "/args/max".to_owned())
        ]
    );
    // `minItems` with a dynamic item; items of the wrong type; a format.
    assert_eq!(
        problems(
            &env,
            json!({"@call": "and", "args": {"values": [path("/a")]}})
        ),
        [(ErrorCode::ExpressionError, "/args/values".to_owned())]
    );
    assert_eq!(
        problems(
            &env,
            json!({"@call": "and", "args": {"values": [path("/a"), "yes"]}})
        ),
        [(ErrorCode::ExpressionError, "/args/values/1".to_owned())]
    );
    assert_eq!(
        problems(
            &env,
            json!({"@call": "openUrl", "args": {"url": "not a url"}})
        ),
        [(ErrorCode::ExpressionError, "/args/url".to_owned())]
    );
    // `anyOf` on a literal: a currency code must be three capitals.
    assert_eq!(
        problems(
            &env,
            json!({"@call": "formatCurrency", "args": {"value": 3, "currency": "usd"}})
        ),
        [(ErrorCode::ExpressionError, "/args/currency".to_owned())]
    );
    // Several problems of one payload come together, each located.
    assert_eq!(
        problems(
            &env,
            json!([
                {"@call": "numeric", "args": {"value": 2, "min": "0"}},
                {"@call": "regex", "args": {"value": path("/x"), "pattern": ""}}
            ])
        ),
        [
            (ErrorCode::ExpressionError, "/0/args/min".to_owned()),
            (ErrorCode::ExpressionError, "/1/args/pattern".to_owned())
        ]
    );
}

#[cfg(feature = "json-schema")]
#[test]
fn dynamic_arguments_are_left_out_and_never_reported() {
    let env = env();
    let path = |p: &str| json!({"@path": p});
    let call = |f: &str, args: Value| json!({"@call": f, "args": args});
    for ok in [
        call(
            "formatNumber",
            json!({"value": path("/n"), "decimals": path("/d"), "grouping": true}),
        ),
        call("formatNumber", json!({"value": 12.5, "decimals": 2})),
        call(
            "formatCurrency",
            json!({"value": path("/t"), "currency": path("/c")}),
        ),
        call(
            "formatCurrency",
            json!({"value": path("/t"), "currency": "EUR", "decimals": 0}),
        ),
        call(
            "length",
            json!({"value": path("/name"), "min": path("/min")}),
        ),
        call("length", json!({"value": "abc", "max": 3})),
        call(
            "and",
            json!({"values": [path("/a"), call("not", json!({"value": path("/b")}))]}),
        ),
        call("and", json!({"values": [true, false, path("/c")]})),
        call("openUrl", json!({"url": "https://example.com/x"})),
        call(
            "openUrl",
            json!({"url": call("formatString", json!({"value": "https://x/${/id}"}))}),
        ),
        call("required", json!({"value": null})),
        call(
            "formatDate",
            json!({"value": path("/when"), "format": "MMM d, yyyy"}),
        ),
        call(
            "pluralize",
            json!({"value": path("/n"), "one": "item", "other": "items"}),
        ),
        // A dynamic value where a literal would be wrong: checked when it runs.
        call(
            "formatNumber",
            json!({"value": call("formatString", json!({"value": "x"}))}),
        ),
    ] {
        assert_eq!(problems(&env, ok.clone()), [], "{ok}");
    }
}

#[test]
fn unimplemented_functions_fail_when_they_run_naming_function_and_catalog() {
    let mut env = env();
    let payload = json!({"@call": "formatString", "args": {"value": "Total: ${/total}"}});
    let compiled = env.compile(&payload).unwrap();
    let err = compiled.eval(&mut json!({"total": 3})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(err.phase(), Phase::Eval);
    assert_eq!(err.function(), Some("formatString"));
    assert_eq!(
        err.message(),
        format!(
            "function 'formatString' is declared by catalog '{BASIC}' but the host has not implemented it"
        )
    );
    // The host attaches an implementation by name; its declaration (and checks) stay.
    env.catalog_mut(BASIC)
        .unwrap()
        .implement_function("formatString", |args: &Args<'_>| {
            Ok(Value::from(format!("<{}>", args.value_or_null("value"))))
        })
        .unwrap();
    assert!(env.catalog(BASIC).unwrap().is_implemented("formatString"));
    assert_eq!(
        env.compile(&payload).unwrap().eval(&mut json!({})).unwrap(),
        json!("<\"Total: ${/total}\">")
    );
    assert!(
        env.catalog(BASIC)
            .unwrap()
            .declaration("formatString")
            .is_some()
    );
    assert!(
        env.catalog_mut(BASIC)
            .unwrap()
            .implement_function("nope", |_: &Args<'_>| Ok(Value::Null))
            .is_err()
    );
}

#[test]
fn documents_that_are_not_catalogs_are_clear_errors() {
    let err = |text: &str| Catalog::from_schema_str(text).unwrap_err();
    let e = err(
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://a2ui.org/specification/v1_0/common_types.json", "$defs": {}}"#,
    );
    assert_eq!(e.code(), ErrorCode::ValidationFailed);
    assert_eq!(
        e.message(),
        "not an A2UI catalog document: 'https://a2ui.org/specification/v1_0/common_types.json' has no catalogId, functions or components (its keys: $schema, $id, $defs)"
    );
    assert!(
        err(r#"{"catalogId": "x", "functions": {"f": {"type": "object"}}}"#)
            .message()
            .contains("function 'f': no argument schema")
    );
    assert!(err("[1, 2]").message().contains("got an array"));
    assert!(err("{").message().contains("invalid JSON"));
    assert_eq!(
        err(&format!("{}{}", "[".repeat(300), "]".repeat(300))).code(),
        ErrorCode::LimitExceeded
    );
    #[cfg(feature = "json-schema")]
    assert!(
        err(r#"{"catalogId": "x", "functions": {"f": {"properties": {"args": {"type": 5}}}}}"#)
            .message()
            .contains("function 'f': its argument schema is not a valid JSON Schema")
    );
}
