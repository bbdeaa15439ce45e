use super::*;
use crate::Error;
use crate::{Environment, ErrorCode, JsonPointer};
use serde_json::Value;
use serde_json::json;

fn env(locale: &str) -> Environment {
    Environment::new()
        .with_catalog(BasicCatalog::new().with_locale(locale).unwrap().build())
        .with_default_catalog(BASIC_CATALOG_ID)
}

fn call(env: &Environment, f: &str, args: Value, model: Value) -> Result<Value, Error> {
    let mut model = model;
    env.compile(&json!({"@call": f, "args": args}))?
        .eval(&mut model)
}

fn give(locale: &str, f: &str, args: Value, want: Value) {
    let got = call(&env(locale), f, args.clone(), json!({}));
    assert_eq!(
        got.as_ref().ok(),
        Some(&want),
        "{f}({args}) in {locale}: {got:?}"
    );
}

#[test]
fn numbers_and_currencies_in_locales() {
    give(
        "en-US",
        "formatNumber",
        json!({"value": 1234.567, "decimals": 2}),
        json!("1,234.57"),
    );
    give(
        "en-US",
        "formatNumber",
        json!({"value": 1234.5678}),
        json!("1,234.568"),
    );
    give(
        "en-US",
        "formatNumber",
        json!({"value": 1.005, "decimals": 2}),
        json!("1.01"),
    );
    give("en-US", "formatNumber", json!({"value": "42"}), json!("42"));
    give("en-US", "formatNumber", json!({"value": null}), json!(""));
    give(
        "de-DE",
        "formatNumber",
        json!({"value": 1234.5}),
        json!("1.234,5"),
    );
    give(
        "en-US",
        "formatCurrency",
        json!({"value": 1234.5, "currency": "USD"}),
        json!("$1,234.50"),
    );
    give(
        "en-US",
        "formatCurrency",
        json!({"value": 1234.5, "currency": "JPY"}),
        json!("¥1,235"),
    );
    give(
        "de-DE",
        "formatCurrency",
        json!({"value": 1234.5, "currency": "EUR"}),
        json!("1.234,50\u{a0}€"),
    );
    give(
        "en-US",
        "formatCurrency",
        json!({"value": -5, "currency": "USD", "decimals": 0, "grouping": false}),
        json!("-$5"),
    );
    give(
        "en-US",
        "formatCurrency",
        json!({"value": 12345.678, "currency": "USD", "decimals": 3, "grouping": false}),
        json!("$12345.678"),
    );
    for bad in [
        json!({"value": 1, "currency": "XYZW"}),
        json!({"value": 1, "currency": "USD", "decimals": 1e9}),
        json!({"value": 1, "currency": "USD", "grouping": "yes"}),
    ] {
        let err = call(&env("en-US"), "formatCurrency", bad.clone(), json!({})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError, "{bad}: {err}");
    }
}

#[test]
fn plurals_dates_and_operators() {
    give(
        "en-US",
        "pluralize",
        json!({"value": 1, "one": "one", "other": "many"}),
        json!("one"),
    );
    give(
        "pl-PL",
        "pluralize",
        json!({"value": 5, "one": "plik", "few": "pliki", "many": "plików", "other": "pliku"}),
        json!("plików"),
    );
    give(
        "en-US",
        "formatDate",
        json!({"value": "2026-09-04T12:00:00Z", "format": "yyyy-MM-dd"}),
        json!("2026-09-04"),
    );
    give(
        "en-US",
        "formatDate",
        json!({"value": "2026-09-04T15:04:00Z", "format": "EEEE, MMMM d, h:mm a"}),
        json!("Friday, September 4, 3:04 PM"),
    );
    give(
        "fr-FR",
        "formatDate",
        json!({"value": 0, "format": "d MMMM yyyy"}),
        json!("1 janvier 1970"),
    );
    give(
        "en-US",
        "formatDate",
        json!({"value": "2026-02-30", "format": "yyyy-MM-dd"}),
        json!(""),
    );
    give(
        "en-US",
        "formatDate",
        json!({"value": "x".repeat(1 << 20), "format": "yyyy"}),
        json!(""),
    );
    give(
        "en-US",
        "formatDate",
        json!({"value": 1e308, "format": "yyyy"}),
        json!(""),
    );
    give(
        "en-US",
        "add",
        json!({"a": 0.1, "b": 0.2}),
        json!(0.30000000000000004),
    );
    give(
        "en-US",
        "round",
        json!({"value": 2.345, "decimals": 1}),
        json!(2.3),
    );
    give(
        "en-US",
        "equals",
        json!({"a": {"x": [1]}, "b": {"x": [1.0]}}),
        json!(true),
    );
    give(
        "en-US",
        "length",
        json!({"value": "a😀", "min": 3}),
        json!(true),
    );
    let err = call(&env("en-US"), "divide", json!({"a": 1, "b": 0}), json!({})).unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    let err = call(
        &env("en-US"),
        "formatDate",
        json!({"value": 0, "format": "y".repeat(10_000)}),
        json!({}),
    )
    .unwrap_err();
    assert_eq!(err.code(), ErrorCode::LimitExceeded);
}

#[test]
fn literal_templates_compile_into_the_payload() {
    let env = env("en-US");
    let payload = env
        .compile(&json!({"@call": "formatString", "args": {"value": "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')} (${pluralize(value: ${count}, one: 'one item', other: 'many items')})"}}))
        .unwrap();
    let row = JsonPointer::parse("/rows/0").unwrap();
    let deps: Vec<String> = payload
        .dependencies(&row)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(deps, ["/rows/0/count", "/rows/0/name", "/rows/0/price"]);
    let mut model = json!({"rows": [{"name": "Tea", "price": 3.5, "count": 1}]});
    assert_eq!(
        payload.eval_in(&mut model, &row).unwrap(),
        json!("Tea: €3.50 (one item)")
    );
    // A call inside a template is checked like any other, at compile time.
    let err = env
        .compile(
            &json!({"@call": "formatString", "args": {"value": "${formatCurrency(value: 1)}"}}),
        )
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ValidationFailed, "{err:#}");
    assert!(err.location().starts_with("/args/value"), "{err:#}");
    let err = env
        .compile(&json!({"@call": "formatString", "args": {"value": "${nope()}"}}))
        .unwrap_err();
    assert!(err.message().contains("unknown function 'nope'"), "{err:#}");
    let err = env
        .compile(&json!({"@call": "formatString", "args": {"value": "a ${b"}}))
        .unwrap_err();
    assert_eq!(err.location(), "/args/value");
    assert!(err.message().contains("Unclosed interpolation"));
    // A tool inside a template is a tool call of the payload.
    let tool = env
        .compile(
            &json!({"@call": "formatString", "args": {"value": "${callMcpTool(name: 'weather')}"}}),
        )
        .unwrap();
    assert_eq!(tool.tool_names().literal, ["weather"]);
}

#[test]
fn templates_from_data_call_pure_functions_only() {
    let env = env("en-US");
    let payload = env
        .compile(&json!({"@call": "formatString", "args": {"value": {"@path": "/t"}}}))
        .unwrap();
    assert_eq!(
        payload.dependencies(&JsonPointer::root())[0],
        JsonPointer::root()
    );
    let mut model = json!({"t": "${/n} is ${formatNumber(value: ${/n}, decimals: 1)}", "n": 2});
    assert_eq!(payload.eval(&mut model).unwrap(), json!("2 is 2.0"));
    for t in [
        "${callMcpTool(name: 'x')}",
        "${openUrl(url: 'https://a.b')}",
        "${formatString(value: 'x')}",
    ] {
        let err = payload.eval(&mut json!({"t": t})).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError, "{t}");
    }
    let deep = "${".repeat(10_000);
    assert_eq!(
        payload.eval(&mut json!({"t": deep})).unwrap_err().code(),
        ErrorCode::LimitExceeded
    );
}

#[test]
fn open_url_queues_a_request() {
    let builder = BasicCatalog::new().with_allowed_scheme("mailto");
    let requests = builder.url_requests();
    let env = Environment::new()
        .with_catalog(builder.build())
        .with_default_catalog(BASIC_CATALOG_ID);
    let mut opened = Vec::new();
    for url in ["https://example.com", "mailto:a@b.c"] {
        let open = env
            .compile(&json!({"@call": "openUrl", "args": {"url": url}}))
            .unwrap();
        // A binding (a value re-evaluated because data changed) may not open anything.
        let err = open.eval(&mut json!({})).unwrap_err();
        assert_eq!(err.denial(), Some(crate::Denial::UserActivation), "{err}");
        assert!(requests.take().is_empty());
        // The user's tap may.
        open.eval_from(&mut json!({}), &JsonPointer::root(), crate::Origin::Action)
            .unwrap();
        opened.extend(requests.take());
    }
    assert_eq!(opened, ["https://example.com", "mailto:a@b.c"]);
    let err = env
        .compile(&json!({"@call": "openUrl", "args": {"url": "javascript:alert(1)"}}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert!(requests.take().is_empty());
}

#[test]
fn unknown_languages_fall_back_to_en_us() {
    for (tag, kept) in [
        ("cy", "cy"),
        ("ja-JP", "ja-JP"),
        ("ar-EG", "ar-EG"),
        ("xx-ZZ", "en-US"),
        ("zz", "en-US"),
    ] {
        assert_eq!(
            BasicCatalog::new().with_locale(tag).unwrap().locale_tag(),
            kept
        );
    }
    give(
        "xx-ZZ",
        "formatNumber",
        json!({"value": 1234.5}),
        json!("1,234.5"),
    );
    assert!(BasicCatalog::new().with_locale("not a tag").is_err());
}

#[test]
fn literal_argument_errors_are_located_at_the_argument() {
    let env = env("en-US");
    for (args, at) in [
        (
            json!({"value": 1, "currency": "EUR", "decimals": "2"}),
            "/args/decimals",
        ),
        (json!({"value": 1, "currency": "EURO"}), "/args/currency"),
        (json!({"value": "abc", "currency": "EUR"}), "/args/value"),
    ] {
        let err = env
            .compile(&json!({"@call": "formatCurrency", "args": args}))
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError, "{err}");
        assert_eq!(err.location(), at, "{err}");
    }
    let err = env
        .compile(&json!([{"@call": "regex", "args": {"value": "x", "pattern": "(a+)+b"}}]))
        .unwrap_err();
    assert_eq!(err.location(), "/0/args/pattern", "{err}");
}

#[test]
fn the_issue_template_compiles_to_thirteen_nodes() {
    let payload = env("en-US")
        .compile(&json!({"@call": "formatString", "args": {"value": "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')} (${pluralize(value: ${count}, one: 'one item', other: 'many items')})"}}))
        .unwrap();
    // 3 bindings, 3 calls (formatString, formatCurrency, pluralize), 6 literals and the parts'
    // array: what docs/performance.md reports as the template's memory.
    assert!(format!("{payload:?}").contains("nodes: 13"), "{payload:?}");
}

#[test]
fn a_bound_currency_follows_each_rows_code() {
    // One call site, its currency bound: the site keeps the first code's formatter, every
    // other code (and a bad one) still gets its own.
    let env = env("en-US");
    let payload = env
        .compile(&json!({"@call": "formatCurrency", "args": {
            "value": {"@path": "value"}, "currency": {"@path": "code"}}}))
        .unwrap();
    let model = json!({"rows": [
        {"value": 1234.5, "code": "EUR"},
        {"value": 1234.5, "code": "USD"},
        {"value": 1234.5, "code": "eur"},
        {"value": 1234.5, "code": "JPY"},
        {"value": 1234.5, "code": "XYZW"},
        {"value": 1234.5, "code": "EUR"},
    ]});
    let at = |i: usize| JsonPointer::parse(&format!("/rows/{i}")).unwrap();
    let got: Vec<_> = (0..6)
        .map(|i| payload.eval_read(&model, &at(i)).map_err(|e| e.code()))
        .collect();
    assert_eq!(got[0], Ok(json!("€1,234.50")));
    assert_eq!(got[1], Ok(json!("$1,234.50")));
    assert_eq!(got[2], Ok(json!("€1,234.50")));
    assert_eq!(got[3], Ok(json!("¥1,235")));
    assert_eq!(got[4], Err(ErrorCode::ExpressionError));
    assert_eq!(got[5], Ok(json!("€1,234.50")));
}

#[test]
fn literal_and_bound_options_at_one_site() {
    // The site's literal options are read once when compiled; bound ones at each row.
    let env = env("en-US");
    let model = json!({"rows": [
        {"value": 1234.5678, "decimals": 1, "grouping": false},
        {"value": 1234.5678, "decimals": 3, "grouping": true},
        {"value": 1234.5678, "decimals": null, "grouping": null},
    ]});
    let at = |i: usize| JsonPointer::parse(&format!("/rows/{i}")).unwrap();
    let sweep = |f: &str, args: Value| -> Vec<Value> {
        let payload = env.compile(&json!({"@call": f, "args": args})).unwrap();
        (0..3)
            .map(|i| payload.eval_read(&model, &at(i)).unwrap())
            .collect()
    };
    let bound = json!({"value": {"@path": "value"}, "decimals": {"@path": "decimals"},
        "grouping": {"@path": "grouping"}});
    assert_eq!(
        sweep("formatNumber", bound.clone()),
        [json!("1234.6"), json!("1,234.568"), json!("1,234.568")]
    );
    let mut with_eur = bound;
    with_eur["currency"] = json!("EUR");
    assert_eq!(
        sweep("formatCurrency", with_eur),
        [json!("€1234.6"), json!("€1,234.568"), json!("€1,234.57")]
    );
    let literal = json!({"value": {"@path": "value"}, "decimals": 0, "grouping": false});
    assert_eq!(
        sweep("formatNumber", literal.clone()),
        vec![json!("1235"); 3]
    );
    let mut with_usd = literal;
    with_usd["currency"] = json!("usd");
    assert_eq!(sweep("formatCurrency", with_usd), vec![json!("$1235"); 3]);
}

/// November 2026 (a2ui-core 0.5.0): `length` and `numeric` need a bound, their bounds are
/// numbers, and `min` may not exceed `max`; literal problems are found when the call compiles,
/// at the argument, and the same values from the data model fail when the call runs.
#[test]
fn length_and_numeric_need_numeric_bounds() {
    let env = env("en-US");
    let compile = |f: &str, args: Value| env.compile(&json!({"@call": f, "args": args}));
    // No bound: `check` and strict mode report it at the call (the catalog's schema); when it
    // runs anyway, length is an error and numeric answers false, never true.
    let err = call(&env, "length", json!({"value": "abc"}), json!({})).unwrap_err();
    assert!(err.message().contains("at least one bound"), "{err}");
    give("en-US", "numeric", json!({"value": 5}), json!(false));
    give(
        "en-US",
        "numeric",
        json!({"value": "not_a_number"}),
        json!(false),
    );
    let strict = env.clone().with_schema_checks(true);
    #[cfg(feature = "json-schema")]
    for f in ["length", "numeric"] {
        let value = if f == "length" {
            json!("abc")
        } else {
            json!(5)
        };
        let found = strict.check(&json!({"@call": f, "args": {"value": value}}));
        assert_eq!(found.errors().len(), 1, "{f}: {:?}", found.errors());
        assert_eq!(found.errors()[0].location(), "", "{f}");
    }
    for f in ["length", "numeric"] {
        for (args, at) in [
            (json!({"value": 5, "min": "abc"}), "/args/min"),
            (json!({"value": 5, "min": "3"}), "/args/min"),
            (json!({"value": 5, "max": true}), "/args/max"),
            (json!({"value": 5, "min": 4, "max": 3}), "/args/min"),
        ] {
            let err = compile(f, args.clone()).unwrap_err();
            assert_eq!(
                (err.code(), err.location()),
                (ErrorCode::ExpressionError, at),
                "{f}({args}): {err}"
            );
        }
        // From the data model: refused when the call runs, nothing answered.
        let bound = |min: Value| {
            let payload = compile(f, json!({"value": "ab", "min": {"@path": "/min"}})).unwrap();
            payload.eval(&mut json!({"min": min}))
        };
        assert_eq!(bound(json!(1)).unwrap(), json!(f == "length"));
        for bad in [json!("1"), json!(false)] {
            let err = bound(bad.clone()).unwrap_err();
            assert!(
                err.message().contains("'min' must be a number"),
                "{bad}: {err}"
            );
        }
        let swapped = compile(f, json!({"value": "3", "min": {"@path": "/lo"}, "max": 2})).unwrap();
        let err = swapped.eval(&mut json!({"lo": 5})).unwrap_err();
        assert!(err.message().contains("greater than 'max'"), "{err}");
    }
    // numeric with no bound no longer answers true; with one it still checks.
    let unbounded = compile(
        "numeric",
        json!({"value": {"@path": "/n"}, "min": {"@path": "/none"}}),
    )
    .unwrap();
    assert_eq!(unbounded.eval(&mut json!({"n": 4})).unwrap(), json!(false));
    give(
        "en-US",
        "numeric",
        json!({"value": 4, "min": 1, "max": 4}),
        json!(true),
    );
    give(
        "en-US",
        "numeric",
        json!({"value": "4.5", "max": 4}),
        json!(false),
    );
    give(
        "en-US",
        "length",
        json!({"value": "abc", "max": 2}),
        json!(false),
    );
}

/// Every URL `openUrl` opens has the published `uri` form (`scheme:…`, no whitespace) and fits
/// in 8 KiB, checked when the call compiles for a literal and when it runs for a bound one;
/// `javascript:` has the form and is refused by the host's schemes.
#[test]
fn open_url_takes_uris_of_the_published_form() {
    let env = env("en-US");
    let open = |url: Value| env.compile(&json!({"@call": "openUrl", "args": {"url": url}}));
    let long = format!("https://example.com/{}", "a".repeat(100 * 1024));
    for (url, says) in [
        (json!("example.com/page"), "has no scheme"),
        (json!("https://exa mple.com"), "whitespace"),
        (json!("https://example.com/\u{a0}"), "whitespace"),
        (json!("1https://x"), "has no scheme"),
        (json!("javascript:alert(1)"), "scheme 'javascript'"),
        (json!(long), "more than the 8192"),
    ] {
        let err = open(url.clone()).unwrap_err();
        assert_eq!(err.location(), "/args/url", "{err}");
        assert!(err.message().contains(says), "{url}: {err}");
        assert!(
            err.message().len() < 400,
            "the message quotes a bounded part: {}",
            err.message().len()
        );
    }
    assert!(open(json!("https://example.com/a?b=c#d")).is_ok());
    // From the data model: the same verdict when the user taps.
    let bound = open(json!({"@path": "/u"})).unwrap();
    let tap = |url: &str| {
        bound.eval_from(
            &mut json!({"u": url}),
            &JsonPointer::root(),
            crate::Origin::Action,
        )
    };
    assert!(tap("https://example.com").is_ok());
    let err = tap("https://a b").unwrap_err();
    assert!(err.message().contains("whitespace"), "{err}");
    assert!(tap(&long).is_err());
}

/// formatDate's `"ISO"` over JavaScript's whole date range, as `new Date(v).toISOString()`
/// answers in Node (each answer below is Node's): the expanded year form outside 0..9999, a
/// fractional epoch truncated toward zero, the expanded form read back.
#[test]
fn format_date_iso_over_the_whole_javascript_range() {
    let cases = [
        (json!(-8.64e15), "-271821-04-20T00:00:00.000Z"),
        (json!(8.64e15), "+275760-09-13T00:00:00.000Z"),
        (json!(1.9), "1970-01-01T00:00:00.001Z"),
        (json!(-1.5), "1969-12-31T23:59:59.999Z"),
        (json!(-0.5), "1970-01-01T00:00:00.000Z"),
        (json!(253402300799999_i64), "9999-12-31T23:59:59.999Z"),
        (json!(253402300800000_i64), "+010000-01-01T00:00:00.000Z"),
        (json!(-62198755200000_i64), "-000001-01-01T00:00:00.000Z"),
        (
            json!("-000500-01-01T00:00:00Z"),
            "-000500-01-01T00:00:00.000Z",
        ),
        (json!("+010000-01-01"), "+010000-01-01T00:00:00.000Z"),
        (json!("9999-12-31"), "9999-12-31T00:00:00.000Z"),
        (
            json!("+275760-09-13T00:00:00.000Z"),
            "+275760-09-13T00:00:00.000Z",
        ),
        (
            json!("-271821-04-20T00:00:00Z"),
            "-271821-04-20T00:00:00.000Z",
        ),
        (json!("+002026-03-04T05:06:07Z"), "2026-03-04T05:06:07.000Z"),
        // Past the range, by a millisecond: no date.
        (json!("-271821-04-19T23:59:59.999Z"), ""),
        (json!(8.64e15 + 1.0), ""),
        (json!("-000000-01-01"), ""),
    ];
    for (value, want) in cases {
        give(
            "en-US",
            "formatDate",
            json!({"value": value, "format": "ISO"}),
            json!(want),
        );
    }
}

/// A pattern field formatDate cannot write is an `EXPRESSION_ERROR` naming it, never a letter
/// echoed or a placeholder; a quoted letter is text; a pattern date outside ICU's years is an
/// error, not `""`.
#[test]
fn format_date_refuses_what_it_cannot_write() {
    for letter in [
        "Y", "Q", "q", "w", "W", "k", "S", "C", "j", "l", "Z", "x", "X", "V",
    ] {
        let err = call(
            &env("en-US"),
            "formatDate",
            json!({"value": 0, "format": format!("yyyy {letter}")}),
            json!({}),
        )
        .unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError, "{letter}: {err}");
        assert!(err.message().contains(&format!("'{letter}'")), "{err}");
    }
    give(
        "en-US",
        "formatDate",
        json!({"value": 0, "format": "yyyy 'Q' 'it''s' d"}),
        json!("1970 Q it's 1"),
    );
    for value in [json!(8.64e15), json!("+010000-01-01")] {
        let err = call(
            &env("en-US"),
            "formatDate",
            json!({"value": value, "format": "yyyy"}),
            json!({}),
        )
        .unwrap_err();
        assert_eq!(err.code(), ErrorCode::ExpressionError, "{err}");
    }
}
