//! A compiled expression and its searches.

use super::allowance::Allowance;
use super::ast::{self, Ast};
use super::error::JmespathError;
use super::interpreter::Interp;
use super::limits::JmespathLimits;
use super::parser;
use super::value::Val;
use super::view::JsonView;
use std::sync::Arc;

/// A compiled JMESPath expression. Cheap to clone (shared), `Send` and `Sync`.
#[derive(Debug, Clone)]
pub struct Expression {
    // The reads analysis walks the compiled tree.
    pub(super) inner: Arc<Compiled>,
}

#[derive(Debug)]
pub(super) struct Compiled {
    text: Box<str>,
    pub(super) ast: Ast,
    max_steps: u64,
}

impl Expression {
    /// Compiles `text` under the default [`JmespathLimits`].
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::{Expression, JmespathErrorKind};
    /// assert!(Expression::compile("people[?age > `20`].name | sort(@)").is_ok());
    /// let err = Expression::compile("a ? b : c").unwrap_err();
    /// assert_eq!(err.kind(), JmespathErrorKind::Syntax);
    /// assert_eq!(
    ///     Expression::compile("abs()").unwrap_err().message(),
    ///     "invalid arity for abs(): expected 1 argument, got 0"
    /// );
    /// ```
    pub fn compile(text: &str) -> Result<Expression, JmespathError> {
        Expression::compile_with(text, &JmespathLimits::default())
    }

    /// Compiles `text` under `limits`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::{Expression, JmespathErrorKind, JmespathLimits};
    /// let deep = format!("{}a{}", "[".repeat(10_000), "]".repeat(10_000));
    /// let mut limits = JmespathLimits::default();
    /// limits.max_length = 1 << 20;
    /// let err = Expression::compile_with(&deep, &limits).unwrap_err();
    /// assert_eq!(err.kind(), JmespathErrorKind::LimitExceeded);
    /// ```
    pub fn compile_with(text: &str, limits: &JmespathLimits) -> Result<Expression, JmespathError> {
        let ast = parser::parse(text, limits)?;
        Ok(Expression {
            inner: Arc::new(Compiled {
                text: text.into(),
                ast,
                max_steps: limits.max_steps,
            }),
        })
    }

    /// The source text.
    pub fn as_str(&self) -> &str {
        &self.inner.text
    }

    /// The field name, when the whole expression is one field (`text`, `"text"`).
    pub(crate) fn as_field(&self) -> Option<&str> {
        let ast = &self.inner.ast;
        match ast.node(ast.root) {
            ast::Node::Field(name) => Some(name),
            _ => None,
        }
    }

    /// Evaluates the expression against `data`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::Expression;
    /// use serde_json::json;
    /// let expr = Expression::compile("[sum(@), avg(@), to_string(avg(@))]").unwrap();
    /// assert_eq!(expr.search(&json!([1, 2])).unwrap(), json!([3, 1.5, "1.5"]));
    /// ```
    pub fn search(&self, data: &serde_json::Value) -> Result<serde_json::Value, JmespathError> {
        self.search_view(data)
    }

    /// Evaluates the expression against any [`JsonView`].
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::Expression;
    /// use serde_json::json;
    /// let data = json!({"b": 1, "a": 2});
    /// let expr = Expression::compile("keys(@)").unwrap();
    /// assert_eq!(expr.search_view(&data).unwrap(), json!(["b", "a"]));
    /// ```
    pub fn search_view<V: JsonView + ?Sized>(
        &self,
        data: &V,
    ) -> Result<serde_json::Value, JmespathError> {
        let mut unlimited = Allowance::UNLIMITED;
        self.search_view_within(data, &mut unlimited)
    }

    /// [`search_view`](Expression::search_view) within `allowance`, which it reduces by what
    /// the search spent (also when it fails): what a caller running several searches under one
    /// budget uses. The expression's own step limit still applies.
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::{Allowance, Expression, JmespathErrorKind};
    /// use serde_json::json;
    /// let expr = Expression::compile("[@, @]").unwrap();
    /// let mut allowance = Allowance { steps: 1_000, values: 10 };
    /// assert_eq!(expr.search_view_within(&json!([1, 2]), &mut allowance).unwrap(), json!([[1, 2], [1, 2]]));
    /// // The outer array's 2 slots, then 3 values (the array and its 2 items) per copy.
    /// assert_eq!(allowance.values, 2);
    /// let err = expr.search_view_within(&json!([1, 2]), &mut allowance).unwrap_err();
    /// assert_eq!(err.kind(), JmespathErrorKind::LimitExceeded);
    /// ```
    pub fn search_view_within<V: JsonView + ?Sized>(
        &self,
        data: &V,
        allowance: &mut Allowance,
    ) -> Result<serde_json::Value, JmespathError> {
        let ast = &self.inner.ast;
        let steps = allowance.steps.min(self.inner.max_steps);
        let interp: Interp<'_, V> = Interp::new(ast, steps, allowance.values);
        let result = interp.eval_out(ast.root, &Val::from_view(data));
        allowance.spent(steps, &interp.budget);
        Ok(result?.unwrap_or(serde_json::Value::Null))
    }

    /// Evaluates the expression against an object given member by member, each member a
    /// `serde_json` value or a [`JsonView`]: a document assembled from parts of different
    /// representations, read in place (a tool's response object whose `json` member is parsed
    /// by a faster parser than the rest).
    ///
    /// ```
    /// use a2ui_catalog_mcp::jmespath::{Expression, Member};
    /// use serde_json::{json, Value};
    /// let (name, rows) = (json!("list"), json!([{"n": 1}, {"n": 2}]));
    /// let members: [(&str, Member<'_, Value>); 2] = [("name", Member::Json(&name)), ("rows", Member::View(&rows))];
    /// let expr = Expression::compile("{name: name, ns: rows[].n, keys: keys(@)}").unwrap();
    /// assert_eq!(expr.search_members(&members).unwrap(), json!({"name": "list", "ns": [1, 2], "keys": ["name", "rows"]}));
    /// ```
    pub fn search_members<'d, V: JsonView + ?Sized>(
        &'d self,
        members: &[(&'d str, Member<'d, V>)],
    ) -> Result<serde_json::Value, JmespathError> {
        let mut unlimited = Allowance::UNLIMITED;
        self.search_members_within(members, &mut unlimited)
    }

    /// [`search_members`](Expression::search_members) within `allowance`, which it reduces by
    /// what the search spent (see [`search_view_within`](Expression::search_view_within)).
    pub fn search_members_within<'d, V: JsonView + ?Sized>(
        &'d self,
        members: &[(&'d str, Member<'d, V>)],
        allowance: &mut Allowance,
    ) -> Result<serde_json::Value, JmespathError> {
        let ast = &self.inner.ast;
        let steps = allowance.steps.min(self.inner.max_steps);
        let interp: Interp<'_, V> = Interp::new(ast, steps, allowance.values);
        let root: Vec<(&str, Val<'_, V>)> = members
            .iter()
            .map(|&(key, ref member)| {
                let value = match *member {
                    Member::Json(v) => Val::<V>::from_json(v),
                    Member::Str(text) => Val::Str(text),
                    Member::View(v) => Val::<V>::from_view(v),
                };
                (key, value)
            })
            .collect();
        let result = interp.eval_out(ast.root, &Val::Object(std::rc::Rc::new(root)));
        allowance.spent(steps, &interp.budget);
        Ok(result?.unwrap_or(serde_json::Value::Null))
    }
}

/// A member of a document given to [`Expression::search_members`].
#[derive(Debug)]
pub enum Member<'d, V: ?Sized> {
    /// A `serde_json` value.
    Json(&'d serde_json::Value),
    /// A string held elsewhere (a JSON string without its `Value`).
    Str(&'d str),
    /// A value read through a [`JsonView`].
    View(&'d V),
}

impl std::fmt::Display for Expression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jmespath::{JmespathErrorKind, MAX_DEPTH_CEILING};
    use serde_json::{Value, json};

    fn search(expr: &str, data: Value) -> Value {
        Expression::compile(expr).unwrap().search(&data).unwrap()
    }

    #[test]
    fn filter_conditions_read_in_place_answer_like_the_generic_comparison() {
        // `null` in an expression is the field of that name, missing in most data.
        let rows = json!([["a", 1], null, {"null": 1}, {"null": null}, "x", [], {}, 0, false]);
        assert_eq!(
            search("[?@ != null]", rows.clone()),
            json!([["a", 1], {"null": 1}, {"null": null}, "x", [], {}, 0, false])
        );
        // The null element passes, and the projection then drops it (as in the JS library).
        assert_eq!(search("[?@ == null]", rows.clone()), json!([]));
        assert_eq!(search("[?null == @] | length(@)", rows.clone()), json!(0));
        assert_eq!(search("[?@ == `\"x\"`]", rows.clone()), json!(["x"]));
        assert_eq!(search("[?@ == `0`]", rows.clone()), json!([0]));
        assert_eq!(search("[?`[]` == @]", rows.clone()), json!([[]]));
        let records =
            json!([{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": [1], "b": [1]}, {"b": null}]);
        assert_eq!(search("[?a == b].b", records.clone()), json!([1, [1]]));
        assert_eq!(search("[?a != b] | length(@)", records), json!(1));
    }

    #[test]
    fn indexes_in_projections_keep_their_values() {
        // Expected values from the JavaScript library (jmespath 0.16).
        let rows = json!([["t", "u"], ["v"], [1, {"k": true}], null, "s"]);
        assert_eq!(
            search("[*].{a: [0], b: [1]}", rows.clone()),
            json!([{"a": "t", "b": "u"}, {"a": "v", "b": null}, {"a": 1, "b": {"k": true}}, {"a": null, "b": null}])
        );
        assert_eq!(search("[*][1]", rows), json!(["u", {"k": true}]));
    }

    #[test]
    fn records_of_non_null_elements_answer_like_the_generic_filter() {
        // `[?@ != null]` before a hash of indexes keeps every element but `null`, then the
        // hash over a non-array reads `null` members (expected values from jmespath 0.16).
        // A bare `null` is the member of that name: objects holding one (even `null`, or an
        // object) never equal it, so they pass as with the literal.
        let rows = json!([
            ["a", "b"], null, ["c"], false, 0, "", {}, [],
            {"null": 1}, {"null": null}, {"null": {}}, {"null": {"null": {}}}
        ]);
        let mut expected = vec![json!({"t": "a", "u": "b"}), json!({"t": "c", "u": null})];
        expected.resize(11, json!({"t": null, "u": null}));
        let expected = Value::Array(expected);
        for expr in [
            "[?@ != null].{t: [0], u: [1]}",
            "[?null != @].{t: [0], u: [1]}",
            "[?@ != `null`].{t: [0], u: [1]}",
        ] {
            assert_eq!(search(expr, rows.clone()), expected, "{expr}");
        }
        // The same through the generic filter (a pipe keeps it from being `Records`).
        assert_eq!(
            search("[?@ != null] | [*].{t: [0], u: [1]}", rows),
            expected
        );
    }

    #[test]
    fn filtered_records_read_straight_from_the_input() {
        // A filter whose projection is a hash of fields and `to_string` of fields builds each
        // record straight from the element (`Node::Records`): elements of every type, missing
        // members, members in another order. Expected values from the JavaScript library
        // (jmespath 0.16).
        let rows = json!([
            null, 5, "s", {"a": "x", "n": 7, "t": "seven"}, {"a": "x"},
            {"a": "x", "n": 1.5, "t": [1, {"k": null}]}, {"t": "first", "n": -3, "a": "x"},
            {"a": "x", "n": "text", "t": false}, {"a": "x", "n": {"k": [1, "2"]}, "t": 0},
            {"a": "x", "n": null, "t": null}, {"a": "y", "n": 1, "t": "no"}, [1, 2],
            {"a": "x", "n": true, "t": {"z": 1}}, {"a": "x", "n": 1e21, "t": ""}
        ]);
        let js = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        assert_eq!(
            search("[?a != `\"y\"`].{n: to_string(n), t: t}", rows.clone()),
            js(
                r#"[{"n":"null","t":null},{"n":"null","t":null},{"n":"7","t":"seven"},{"n":"null","t":null},{"n":"1.5","t":[1,{"k":null}]},{"n":"-3","t":"first"},{"n":"text","t":false},{"n":"{\"k\":[1,\"2\"]}","t":0},{"n":"null","t":null},{"n":"null","t":null},{"n":"true","t":{"z":1}},{"n":"1e+21","t":""}]"#
            )
        );
        assert_eq!(
            search(
                "[?a == `\"x\"`].{t: t, n: to_string(n), again: t}",
                rows.clone()
            ),
            js(
                r#"[{"t":"seven","n":"7","again":"seven"},{"t":null,"n":"null","again":null},{"t":[1,{"k":null}],"n":"1.5","again":[1,{"k":null}]},{"t":"first","n":"-3","again":"first"},{"t":false,"n":"text","again":false},{"t":0,"n":"{\"k\":[1,\"2\"]}","again":0},{"t":null,"n":"null","again":null},{"t":{"z":1},"n":"true","again":{"z":1}},{"t":"","n":"1e+21","again":""}]"#
            )
        );
        assert_eq!(
            search("[?a == `\"x\"`].{n: n}", rows),
            js(
                r#"[{"n":7},{"n":null},{"n":1.5},{"n":-3},{"n":"text"},{"n":{"k":[1,"2"]}},{"n":null},{"n":true},{"n":1e+21}]"#
            )
        );
    }

    fn error(expr: &str, data: Value) -> JmespathError {
        match Expression::compile(expr) {
            Ok(e) => e.search(&data).unwrap_err(),
            Err(e) => e,
        }
    }

    #[test]
    fn send_sync_clone() {
        fn check<T: Send + Sync>() {}
        fn cheap_clone<T: Clone>() {}
        check::<Expression>();
        cheap_clone::<Expression>();
    }

    #[test]
    fn reference_values() {
        assert_eq!(search("entry.size", json!({"entry": {}})), Value::Null);
        assert_eq!(search("anything", Value::Null), Value::Null);
        assert_eq!(
            search("[sum(@), to_string(sum(@))]", json!([1, 2])),
            json!([3, "3"])
        );
        assert_eq!(
            search(
                "[to_string(`3`), to_string(`1.5`), to_string(`1.0`), to_string(`1e21`), to_string(`0.1`)]",
                json!({})
            ),
            json!(["3", "1.5", "1", "1e+21", "0.1"])
        );
        assert_eq!(
            search(
                "[to_number('2048'), to_string(to_number('2048'))]",
                json!({})
            ),
            json!([2048, "2048"])
        );
        assert_eq!(
            search("keys({z: a, a: b, m: c})", json!({"a": 1, "b": 2, "c": 3})),
            json!(["z", "a", "m"])
        );
        assert_eq!(
            search("[rows[*], rows[]]", json!({"rows": [[1, 2], [3]]})),
            json!([[[1, 2], [3]], [1, 2, 3]])
        );
        assert_eq!(
            search(
                "[(n > `3` && 'big') || 'small', (m > `3` && 'big') || 'small']",
                json!({"n": 5, "m": 1})
            ),
            json!(["big", "small"])
        );
        assert_eq!(search("[?@ != null]", json!([1, null, 2])), json!([1, 2]));
        assert_eq!(
            search("keys(@)", json!({"b": 1, "a": 2, "c": 3})),
            json!(["b", "a", "c"])
        );
        assert_eq!(search("values(@)", json!({"b": 1, "a": 2})), json!([1, 2]));
        assert_eq!(search("{path: @}", json!("~")), json!({"path": "~"}));
        assert_eq!(search("length(@)", json!("[1,2,3]")), json!(7));
        assert_eq!(
            search(
                "{n: length(rows)} | {\"/count\": n}",
                json!({"rows": [1, 2]})
            ),
            json!({"/count": 2})
        );
    }

    #[test]
    fn spec_over_javascript() {
        assert_eq!(search("avg(@)", json!([])), Value::Null);
        assert_eq!(search("max_by(@, &a)", json!([])), Value::Null);
        assert_eq!(search("'a' < 'b'", json!({})), Value::Null);
        assert_eq!(search("length('😀')", json!({})), json!(1));
        assert_eq!(
            search("sort(@)", json!(["b", "\u{ff61}", "😀", "a"])),
            json!(["a", "b", "\u{ff61}", "😀"])
        );
        assert_eq!(error("[:::]", json!([])).kind(), JmespathErrorKind::Syntax);
    }

    #[test]
    fn object_projections_keep_their_scope() {
        let data = json!({"foo": {"x": {"bar": {"baz": 1}}, "y": {"bar": {"baz": 2}}}});
        assert_eq!(search("foo.*.bar.baz", data.clone()), json!([1, 2]));
        assert_eq!(search("foo.*.bar.*", data.clone()), json!([[1], [2]]));
        assert_eq!(search("foo.*.bar | [0]", data), json!({"baz": 1}));
        let rows = json!({"rows": [{"a": 1, "b": 2}, {"a": 3, "b": 4}]});
        assert_eq!(search("rows[*].{x: a}.x", rows.clone()), json!([1, 3]));
        assert_eq!(search("rows[*].[a, b][0]", rows.clone()), json!([1, 3]));
        assert_eq!(search("rows[*].[a, b] | [0]", rows.clone()), json!([1, 2]));
        assert_eq!(search("rows[0].[a, b][1]", rows), json!(2));
    }

    #[test]
    fn functions_behave() {
        let data = json!({"p": [{"n": "b", "a": 2}, {"n": "a", "a": 1}, {"n": "c", "a": 2}]});
        assert_eq!(
            search("sort_by(p, &a)[*].n", data.clone()),
            json!(["a", "b", "c"])
        );
        assert_eq!(search("max_by(p, &a).n", data.clone()), json!("b"));
        assert_eq!(search("min_by(p, &n).n", data.clone()), json!("a"));
        assert_eq!(search("map(&a, p)", data.clone()), json!([2, 1, 2]));
        assert_eq!(
            search("merge(p[0], p[1], `{\"z\": 0}`)", data.clone()),
            json!({"n": "a", "a": 1, "z": 0})
        );
        assert_eq!(search("join('-', p[*].n)", data.clone()), json!("b-a-c"));
        assert_eq!(search("reverse('héllo')", json!({})), json!("olléh"));
        assert_eq!(search("abs(`-5`)", json!({})), json!(5));
        assert_eq!(
            search("[ceil(`1.2`), floor(`-1.2`)]", json!({})),
            json!([2, -2])
        );
        assert_eq!(search("avg(`[2, 4]`)", json!({})), json!(3));
        assert_eq!(
            search("to_string(@)", json!({"b": [1, "x"], "a": null})),
            json!("{\"b\":[1,\"x\"],\"a\":null}")
        );
        assert_eq!(
            search("not_null(a, b, `3`)", json!({"b": false})),
            json!(false)
        );
        assert_eq!(
            search("contains(@, `{\"a\": 1.0}`)", json!([{"a": 1}])),
            json!(true)
        );
        assert_eq!(
            error("type(&a)", json!({})).kind(),
            JmespathErrorKind::InvalidType
        );
    }

    #[test]
    fn type_errors_read_well() {
        assert_eq!(
            error("abs('x')", json!({})).message(),
            "invalid type for argument 1 of abs(): expected number, got string"
        );
        assert_eq!(
            error("sum(@)", json!([1, "2"])).message(),
            "invalid type for argument 1 of sum(): expected array[number], got array containing string"
        );
        assert_eq!(
            error("sort_by(@, &a)", json!([{"a": 1}, {"a": "x"}])).kind(),
            JmespathErrorKind::InvalidType
        );
    }

    #[test]
    fn deepest_allowed_expressions_fit_a_thread_stack() {
        // The deepest trees `JmespathLimits` can allow, evaluated on a default-sized (2 MiB) thread.
        let limits = JmespathLimits {
            max_depth: MAX_DEPTH_CEILING,
            max_length: 1 << 20,
            ..JmespathLimits::default()
        };
        let n = MAX_DEPTH_CEILING / 2 - 2;
        let shapes = [
            format!("{}@{}", "[".repeat(n), "]".repeat(n)),
            format!("{}@{}", "sort_by([@], &".repeat(n / 2), ")".repeat(n / 2)),
            format!("{}a{}", "{a: ".repeat(n), "}".repeat(n)),
            format!("{}@{}", "not_null(".repeat(n), ")".repeat(n)),
            vec!["a"; MAX_DEPTH_CEILING].join("."),
            format!("{}`1`{}", "!(".repeat(n), ")".repeat(n)),
        ];
        let handle = std::thread::spawn(move || {
            for text in &shapes {
                let expr = Expression::compile_with(text, &limits).unwrap();
                let _ = expr.search(&json!({"a": [1, {"a": 2}]}));
            }
            let too_deep = vec!["a"; MAX_DEPTH_CEILING + 1].join(".");
            assert_eq!(
                Expression::compile_with(&too_deep, &limits)
                    .unwrap_err()
                    .kind(),
                JmespathErrorKind::LimitExceeded
            );
        });
        handle.join().unwrap();
    }

    #[test]
    fn deep_data_and_exponential_work_are_bounded() {
        let mut deep = json!(null);
        for _ in 0..200_000 {
            deep = Value::Array(vec![deep]);
        }
        let expr =
            Expression::compile("[to_string(@) == to_string(@), @ == @, length(to_string(@))]")
                .unwrap();
        let out = expr.search(&deep).unwrap();
        assert_eq!(out, json!([true, true, 400_004]));
        crate::json::drop_deep(expr.search(&deep).map(|_| Value::Null).unwrap());
        let copy = Expression::compile("@").unwrap().search(&deep).unwrap();
        crate::json::drop_deep(copy);
        crate::json::drop_deep(deep);

        let doubling = vec!["[@, @][]"; 40].join(" | ");
        let err = error(&doubling, json!([1]));
        assert_eq!(err.kind(), JmespathErrorKind::LimitExceeded);
    }
}
