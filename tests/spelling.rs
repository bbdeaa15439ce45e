//! The two spellings of bindings and calls (`Environment::set_spelling`) and the warnings the
//! `@` spelling gives for literals shaped like the plain one.

use a2ui_catalog_mcp::{Catalog, Environment, ErrorCode, JsonPointer, Spelling, WarningCode};
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

fn plain() -> Environment {
    Environment::new().with_spelling(Spelling::Plain)
}

fn with_basic(mut env: Environment) -> Environment {
    env.add_catalog(Catalog::from_schema_str(include_str!("data/basic-catalog.json")).unwrap());
    env
}

fn pointer(text: &str) -> JsonPointer {
    JsonPointer::parse(text).unwrap()
}

/// `(location, suggestion)` of each warning of `payload` in the `@` spelling.
fn warnings(env: &Environment, payload: &Value) -> Vec<(String, Option<String>)> {
    env.check(payload)
        .warnings()
        .iter()
        .map(|w| (w.location().to_owned(), w.suggestion().map(str::to_owned)))
        .collect()
}

#[test]
fn the_plain_spelling_reads_bindings_and_calls() {
    let env = plain();
    assert_eq!(env.spelling(), Spelling::Plain);
    let payload = env
        .compile(&json!({"call": "updateDataModel", "args": {"updates": {
            "copy": {"path": "name"},
            "parts": {"call": "split", "args": {"value": {"path": "csv"}, "separator": ","}},
            "number": {"call": "@index", "args": {"offset": 1}},
            "index": {"@call": "@index"}
        }}}))
        .unwrap();
    assert!(payload.warnings().is_empty());
    let mut model = json!({"rows": [{}, {}, {"name": "Ada", "csv": "a,b"}]});
    payload.eval_in(&mut model, &pointer("/rows/2")).unwrap();
    assert_eq!(
        model["rows"][2],
        json!({"name": "Ada", "csv": "a,b", "copy": "Ada", "parts": ["a", "b"], "number": 3, "index": 2})
    );
    // Bindings of both spellings are dependencies.
    let deps = payload.dependencies(&pointer("/rows/2"));
    let deps: Vec<String> = deps.iter().map(ToString::to_string).collect();
    assert_eq!(deps, ["/rows/2/csv", "/rows/2/name"]);
}

#[test]
fn objects_that_do_not_fit_exactly_stay_literals_in_both_spellings() {
    let literals = json!([
        {"componentId": "card", "path": "/restaurants"},
        {"path": 1},
        {"path": "/x", "fallback": "none"},
        {"call": "split", "args": [1, 2]},
        {"call": "split", "callableFrom": "clientOnly"},
        {"call": 3},
        {"args": {}}
    ]);
    for env in [Environment::new(), plain()] {
        let payload = env.compile(&literals).unwrap();
        assert!(payload.warnings().is_empty(), "{:?}", payload.warnings());
        assert_eq!(payload.eval(&mut json!({})).unwrap(), literals);
    }
}

#[test]
fn plain_calls_are_checked_like_the_others() {
    let env = with_basic(plain());
    let problems = |payload: Value| -> Vec<(ErrorCode, String)> {
        env.check(&payload)
            .errors()
            .iter()
            .map(|e| (e.code(), e.location().to_owned()))
            .collect()
    };
    assert_eq!(
        problems(
            json!({"a": {"call": "nope"}, "b": {"call": "split", "args": {"value": 1}},
                        "c": {"path": "x~2"}, "d": {"call": "split", "catalogId": "", "args": {}}})
        ),
        [
            (ErrorCode::ExpressionError, "/a".to_owned()),
            (ErrorCode::ValidationFailed, "/b".to_owned()),
            (ErrorCode::DataError, "/c".to_owned()),
            (ErrorCode::CatalogError, "/d".to_owned()),
        ]
    );
    // The basic catalog's declarations: a returnType that does not match, a literal argument
    // that does not fit the schema (with the feature `json-schema`).
    let call = json!({"call": "formatCurrency", "catalogId": BASIC, "returnType": "number",
                      "args": {"value": {"path": "/total"}, "currency": "USD", "decimals": "2"}});
    let found = problems(call);
    assert_eq!(found[0], (ErrorCode::ValidationFailed, String::new()));
    if cfg!(feature = "json-schema") {
        assert_eq!(
            found[1],
            (ErrorCode::ExpressionError, "/args/decimals".to_owned())
        );
    }
    // `@index` takes no catalogId in either spelling.
    assert_eq!(
        problems(json!({"call": "@index", "catalogId": BASIC})),
        [(ErrorCode::ValidationFailed, "/catalogId".to_owned())]
    );
}

#[test]
fn the_at_spelling_is_still_read_and_reserved_in_the_plain_one() {
    let env = plain();
    let payload = env
        .compile(&json!({"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": ","}}))
        .unwrap();
    assert_eq!(
        payload.eval(&mut json!({"csv": "a,b"})).unwrap(),
        json!(["a", "b"])
    );
    let err = env.compile(&json!({"@ref": 1})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidReservedKey);
    let err = env.compile(&json!({"@path": "/a", "x": 1})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ValidationFailed);
}

#[test]
fn the_plain_spelling_reads_data_shaped_like_a_binding_as_one() {
    // The ambiguity the `@` spelling removes: a tool argument `{"path": "/tmp/x"}` is a binding.
    let tool = json!({"call": "callMcpTool", "args": {"name": "read_file", "arguments": {"path": "/tmp/x"}}});
    let payload = plain().compile(&tool).unwrap();
    let deps = payload.dependencies(&JsonPointer::root());
    assert_eq!(deps, [pointer("/tmp/x")]);
    // In the `@` spelling it is the literal argument object, and a warning says so.
    let tool = json!({"@call": "callMcpTool", "args": {"name": "read_file", "arguments": {"path": "/tmp/x"}}});
    let payload = Environment::new().compile(&tool).unwrap();
    assert!(payload.dependencies(&JsonPointer::root()).is_empty());
    assert_eq!(payload.warnings()[0].location(), "/args/arguments");
}

#[test]
fn the_at_spelling_warns_about_each_plain_value_and_still_compiles() {
    let env = Environment::new();
    let payload = json!({
        "title": {"path": "/title"},
        "total": {"call": "formatCurrency", "args": {"value": {"path": "/order/total"}, "currency": "USD"}},
        "today": {"call": "now"},
        "rows": [{"componentId": "row", "path": "/rows"}, {"@path": "/rows"}]
    });
    assert_eq!(
        warnings(&env, &payload),
        [
            (
                "/title".to_owned(),
                Some(r#"{"@path": "/title"}"#.to_owned())
            ),
            (
                "/total".to_owned(),
                Some(r#"{"@call": "formatCurrency", …}"#.to_owned())
            ),
            (
                "/total/args/value".to_owned(),
                Some(r#"{"@path": "/order/total"}"#.to_owned())
            ),
            ("/today".to_owned(), Some(r#"{"@call": "now"}"#.to_owned())),
        ]
    );
    let compiled = env.compile(&payload).unwrap();
    let warning = &compiled.warnings()[0];
    assert_eq!(warning.code(), WarningCode::OtherSpelling);
    assert_eq!(
        warning.to_string(),
        "OTHER_SPELLING at /title: {\"path\": \"/title\"} is a literal object in the '@' spelling: write {\"@path\": \"/title\"} to read the data model (or compile with the plain spelling)"
    );
    // Warnings never change evaluation: the plain values are the literals they are.
    let mut model = json!({"title": "T", "rows": [1]});
    let value = compiled.eval(&mut model).unwrap();
    let mut expected = payload.clone();
    expected["rows"][1] = json!([1]);
    assert_eq!(value, expected);
}

#[test]
fn warnings_come_with_errors_too() {
    let found = Environment::new().check(&json!({"a": {"path": "/x"}, "b": {"@call": "nope"}}));
    assert!(!found.is_ok());
    assert_eq!(found.errors().len(), 1);
    assert_eq!(found.errors()[0].location(), "/b");
    assert_eq!(found.warnings().len(), 1);
    assert_eq!(found.warnings()[0].location(), "/a");
    // Past the depth limit nothing is entered, and nothing is warned about.
    let mut deep = json!({"path": "/x"});
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let found = Environment::new().check(&deep);
    assert_eq!(found.errors()[0].code(), ErrorCode::LimitExceeded);
    assert!(found.warnings().is_empty());
}

#[cfg(feature = "json-schema")]
#[test]
fn plain_values_are_left_out_of_literal_checks_in_the_at_spelling() {
    // `value` must be a number: the misspelled binding is not held against the schema, it is
    // warned about.
    let env = with_basic(Environment::new());
    let found = env.check(&json!({"@call": "formatCurrency", "catalogId": BASIC,
        "args": {"value": {"path": "/total"}, "currency": "USD"}}));
    assert!(found.is_ok(), "{:?}", found.errors());
    assert_eq!(found.warnings()[0].location(), "/args/value");
    // A plain-spelled call's literal arguments are checked in the plain spelling.
    let found = with_basic(plain()).check(&json!({"call": "formatCurrency", "catalogId": BASIC,
        "args": {"value": {"path": "/total"}, "currency": "USD", "decimals": -1}}));
    assert_eq!(found.errors().len(), 1, "{:?}", found.errors());
    assert_eq!(found.errors()[0].location(), "/args/decimals");
}

#[test]
fn spellings_parse() {
    assert_eq!(Spelling::parse("at"), Some(Spelling::At));
    assert_eq!(Spelling::parse("plain"), Some(Spelling::Plain));
    assert_eq!(Spelling::parse("Plain"), None);
    assert_eq!(Spelling::default(), Spelling::At);
    assert_eq!(Spelling::Plain.as_str(), "plain");
}
