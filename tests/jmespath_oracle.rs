//! Differential test: the crate's JMESPath engine against the `jmespath` crate (0.5) on random
//! expressions and data.
//!
//! Known, intended differences, kept out of the comparison:
//! - Numbers: the `jmespath` crate holds every number as `f64` (`sum([1, 2])` is `3.0`, and
//!   `to_string` prints `3.0`); ours keeps integers (`3`, `"3"`). Results are compared by
//!   numeric value, and `to_string` of non-strings is not generated (its JavaScript printing is
//!   covered by unit tests).
//! - Key order: the `jmespath` crate sorts object keys; ours keeps the data's and the
//!   expression's order. Generated objects and multi-select hashes use sorted keys, objects
//!   compare without regard to order, and `merge` (whose result order is first-seen) is not
//!   generated.
//! - `avg([])`: the `jmespath` crate fails; ours (like the JavaScript library) gives `null`.
//! - `to_number` follows JavaScript's `+text` (`''` is `0`, `'0x1A'` is `26`), so it is not
//!   generated; unit tests cover it.
//! - `&expr` is only generated as a function argument (ours rejects it elsewhere).
//! - A projection goes on through a multi-select that follows it (`a[*].[b, c].d` projects `.d`
//!   onto each selected list, as the specification's grammar says); the `jmespath` crate, like
//!   the JavaScript and Python parsers, ends the projection at the multi-select. Cases where a
//!   multi-select inside a projection is followed by more expression are not compared
//!   ([`projects_through_a_multi_select`]).
//!
//! When both engines fail, the test only requires that both failed.
//!
//! A second property compares the engine with itself: a filter or projection over input
//! records whose multi-select reads each element directly (evaluated without intermediate
//! values) against the general evaluation of the same expression.

use a2ui_catalog_mcp::jmespath::Expression;
use a2ui_catalog_mcp::reactive::json_eq;
use proptest::prelude::*;
use serde_json::{Map, Value};

const KEYS: [&str; 4] = ["a", "b", "c", "foo"];

fn data() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-20i64..20).prop_map(|n| Value::Number(n.into())),
        (-40i32..40).prop_map(|n| serde_json::json!(f64::from(n) / 4.0)),
        prop::sample::select(vec!["", "a", "b", "ab", "foo", "é😀"])
            .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(KEYS.to_vec()), inner, 0..4).prop_map(
                |m| {
                    // Sorted keys, so that the oracle's key sorting changes nothing.
                    Value::Object(
                        m.into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect::<Map<_, _>>(),
                    )
                }
            ),
        ]
    })
}

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("`null`".to_string()),
        Just("`true`".to_string()),
        (-3i64..5).prop_map(|n| format!("`{n}`")),
        Just("`1.5`".to_string()),
        Just("`[1, 2, 3]`".to_string()),
        Just("`[]`".to_string()),
        Just("`{\"a\": 1}`".to_string()),
        prop::sample::select(vec!["'a'", "'foo'", "''", "`\"b\"`"]).prop_map(str::to_string),
    ]
}

fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(KEYS.to_vec()).prop_map(str::to_string),
        Just("@".to_string()),
        literal(),
    ];
    leaf.prop_recursive(4, 32, 4, |e| {
        let field = prop::sample::select(KEYS.to_vec());
        prop_oneof![
            (e.clone(), field.clone()).prop_map(|(a, f)| format!("{a}.{f}")),
            (e.clone(), -3i64..4).prop_map(|(a, i)| format!("{a}[{i}]")),
            (
                e.clone(),
                prop::option::of(-3i64..4),
                prop::option::of(-3i64..4),
                prop::sample::select(vec![None, Some(1i64), Some(2), Some(-1)])
            )
                .prop_map(|(a, s, t, st)| {
                    let part = |x: Option<i64>| x.map(|v| v.to_string()).unwrap_or_default();
                    match st {
                        Some(step) => format!("{a}[{}:{}:{step}]", part(s), part(t)),
                        None => format!("{a}[{}:{}]", part(s), part(t)),
                    }
                }),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("{a}[*].{b}")),
            (e.clone(), field.clone()).prop_map(|(a, f)| format!("{a}[*].{f}")),
            (e.clone()).prop_map(|a| format!("{a}[]")),
            (e.clone(), field.clone()).prop_map(|(a, f)| format!("{a}.*.{f}")),
            (e.clone(), e.clone()).prop_map(|(a, c)| format!("{a}[?{c}]")),
            (
                e.clone(),
                field.clone(),
                prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]),
                literal()
            )
                .prop_map(|(a, f, op, l)| format!("{a}[?{f} {op} {l}]")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("{a} | {b}")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("({a} || {b})")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("({a} && {b})")),
            e.clone().prop_map(|a| format!("!({a})")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("{{a: {a}, b: {b}}}")),
            (
                e.clone(),
                e.clone(),
                prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="])
            )
                .prop_map(|(a, b, op)| format!("({a} {op} {b})")),
            (
                prop::sample::select(vec![
                    "abs", "avg", "ceil", "floor", "keys", "length", "max", "min", "not_null",
                    "reverse", "sort", "sum", "to_array", "type", "values",
                ]),
                e.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (
                prop::sample::select(vec![
                    "contains",
                    "ends_with",
                    "starts_with",
                    "join",
                    "not_null"
                ]),
                e.clone(),
                e.clone()
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
            (
                prop::sample::select(vec!["sort_by", "max_by", "min_by"]),
                e.clone(),
                e.clone()
            )
                .prop_map(|(f, a, b)| format!("{f}({a}, &{b})")),
            (e.clone(), e.clone()).prop_map(|(a, b)| format!("map(&{a}, {b})")),
            e.clone().prop_map(|a| format!("to_string({a})[0]")),
        ]
    })
}

fn oracle(expr: &str, data: &Value) -> Result<Value, String> {
    let compiled = jmespath::compile(expr).map_err(|e| e.to_string())?;
    let result = compiled.search(data).map_err(|e| e.to_string())?;
    serde_json::to_value(&*result).map_err(|e| e.to_string())
}

/// Whether `expr` has a projection (`[*]`, `.*`, `[]`, `[?`) and, after it, a multi-select
/// (`[…]` or `{…}`) followed by more expression (`.`, `[`): where the engines knowingly differ.
fn projects_through_a_multi_select(expr: &str) -> bool {
    let projection = ["[*]", ".*", "[]", "[?"]
        .iter()
        .filter_map(|p| expr.find(p))
        .min();
    projection.is_some_and(|at| {
        let rest = &expr[at..];
        rest.contains("].") || rest.contains("}.") || rest.contains("][") || rest.contains("}[")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_the_jmespath_crate(expr in expression(), data in data()) {
        let ours = Expression::compile(&expr).and_then(|e| e.search(&data));
        let theirs = oracle(&expr, &data);
        match (&ours, &theirs) {
            (Ok(_), Ok(_)) if projects_through_a_multi_select(&expr) => {}
            (Ok(a), Ok(b)) => prop_assert!(json_eq(a, b), "{expr} on {data}: ours {a}, jmespath crate {b}"),
            (Err(_), Err(_)) => {}
            // Known: the jmespath crate fails on avg([]), ours gives null.
            (Ok(_), Err(e)) if expr.contains("avg(") && e.contains("f64") => {}
            _ => prop_assert!(false, "{expr} on {data}: ours {ours:?}, jmespath crate {theirs:?}"),
        }
    }
}

/// Guards the generator: most generated cases must evaluate without error on both engines, so
/// the comparison above exercises results, not just matching failures.
#[test]
fn generated_cases_mostly_evaluate() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut both_ok, mut total, mut non_null) = (0, 0, 0);
    for _ in 0..2000 {
        let expr = expression().new_tree(&mut runner).expect("tree").current();
        let data = data().new_tree(&mut runner).expect("tree").current();
        total += 1;
        if let (Ok(ours), Ok(_)) = (
            Expression::compile(&expr).and_then(|e| e.search(&data)),
            oracle(&expr, &data),
        ) {
            both_ok += 1;
            if !ours.is_null() {
                non_null += 1;
            }
        }
    }
    eprintln!("{both_ok} of {total} cases evaluate on both engines, {non_null} non-null");
    assert!(both_ok * 2 > total, "{both_ok} of {total}");
    assert!(non_null * 5 > total, "{non_null} of {total}");
}

/// Records as tool results carry them: objects with string, number and other members, in
/// varying key order, mixed with elements of other types.
fn records() -> impl Strategy<Value = Value> {
    let member = prop_oneof![
        4 => prop::sample::select(vec!["", "a", "b", "ab", "foo"])
            .prop_map(|s| Value::String(s.to_string())),
        3 => (-20i64..20).prop_map(|n| Value::Number(n.into())),
        1 => (-40i32..40).prop_map(|n| serde_json::json!(f64::from(n) / 4.0)),
        1 => data(),
    ];
    let record = prop::collection::vec((prop::sample::select(KEYS.to_vec()), member), 0..5)
        .prop_map(|members| {
            let mut object = Map::new();
            for (key, value) in members {
                object.insert(key.to_string(), value);
            }
            Value::Object(object)
        });
    prop::collection::vec(prop_oneof![6 => record, 1 => data()], 0..12).prop_map(Value::Array)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A filter over input records (`field == 'text'`, or another condition) or a plain
    /// projection (`[*]`) whose right side is a hash of fields, `to_string` of fields and
    /// indexes is decided and built straight from each element. The same expression applied to
    /// a copy built by the expression (after a pipe), which the general evaluation handles,
    /// must give the same result, key order included.
    #[test]
    fn direct_filter_agrees_with_the_general_path(
        data in records(),
        field in prop::sample::select(KEYS.to_vec()),
        negate in any::<bool>(),
        project in any::<bool>(),
        text in prop::sample::select(vec!["", "a", "b", "foo"]),
        other_condition in any::<bool>(),
        members in prop::collection::vec(
            (prop::sample::select(KEYS.to_vec()), 0..3u8, -2i64..3), 1..4),
    ) {
        let op = if negate { "!=" } else { "==" };
        let hash = members
            .iter()
            .enumerate()
            .map(|(i, (name, kind, index))| match kind {
                0 => format!("k{i}: {name}"),
                1 => format!("k{i}: to_string({name})"),
                _ => format!("k{i}: [{index}]"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let condition = if other_condition {
            format!("{field} {op} '{text}' || @ == `null`")
        } else {
            format!("{field} {op} '{text}'")
        };
        let (direct, general) = if project {
            (format!("[*].{{{hash}}}"), format!("[*] | [*].{{{hash}}}"))
        } else {
            (
                format!("[?{condition}].{{{hash}}}"),
                format!("[*] | [?{condition}].{{{hash}}}"),
            )
        };
        let run = |expr: &str| Expression::compile(expr).and_then(|e| e.search(&data));
        let (a, b) = (run(&direct), run(&general));
        prop_assert!(a.is_ok() && b.is_ok(), "{direct}: {a:?}; {general}: {b:?}");
        let (a, b) = (a.unwrap(), b.unwrap());
        // `==` on `Value` compares maps without regard to order; the text form keeps it.
        prop_assert_eq!(a.to_string(), b.to_string(), "{} on {}", direct, data);
    }
}

/// The direct filter tests elements in batches of 64 before building their records; the
/// proptest above uses short arrays. Over long arrays, with runs of passing and failing elements
/// of every length, `null` and non-object elements, and records whose key order changes, it must
/// agree with the general path.
#[test]
fn direct_filter_agrees_with_the_general_path_over_long_arrays() {
    // A small linear congruential generator: the same pseudo-random arrays on every run.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |bound: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % bound
    };
    for len in [255, 256, 257, 700, 1500] {
        let mut items = Vec::with_capacity(len);
        let mut open = true;
        while items.len() < len {
            // Runs of 0 to 40 elements of one state, mostly records.
            for _ in 0..next(41) {
                let number = items.len();
                let state = if open { "open" } else { "closed" };
                items.push(match next(20) {
                    0 => Value::Null,
                    1 => serde_json::json!([number]),
                    2 => serde_json::json!({"title": format!("t{number}"), "state": state, "number": number}),
                    3 => serde_json::json!({"state": state, "number": number as f64 + 0.5}),
                    _ => serde_json::json!({"number": number, "title": format!("t{number}"), "state": state}),
                });
            }
            open = !open;
        }
        items.truncate(len);
        let data = Value::Array(items);
        for op in ["==", "!="] {
            let direct = format!("[?state {op} 'open'].{{n: to_string(number), t: title}}");
            let general = format!("[*] | [?state {op} 'open'].{{n: to_string(number), t: title}}");
            let run = |expr: &str| Expression::compile(expr).and_then(|e| e.search(&data));
            let (a, b) = (run(&direct).unwrap(), run(&general).unwrap());
            assert!(
                a.as_array().is_some_and(|a| a.len() > len / 4),
                "{len} {op}"
            );
            assert_eq!(a.to_string(), b.to_string(), "{len} {op}");
        }
    }
}
