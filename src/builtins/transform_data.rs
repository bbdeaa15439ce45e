//! `transformData` — `{jmespath, data}`: a standard JMESPath expression over `data` (the
//! rules are in the `builtins` module's documentation). A literal expression is compiled with
//! the payload; one read from the data model is compiled on first use and kept in a bounded
//! cache.

use crate::cache::LruCache;
use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use crate::jmespath::{self, Allowance, Expression, JmespathError, JmespathErrorKind};
use crate::value::{ArgView, MembersOf, SharedText, TextShape, TextSource};
use serde_json::Value;
use std::sync::Arc;

/// Expressions that come from data are compiled once per text and limits, and kept (bounded by
/// `Limits::cache_capacity`).
#[derive(Default)]
pub(crate) struct TransformData {
    cache: LruCache<(Box<str>, jmespath::JmespathLimits), Expression>,
}

/// The crate error for a JMESPath failure: its message, then the expression.
fn jmespath_error(e: JmespathError, expression: &str) -> Error {
    let code = match e.kind() {
        JmespathErrorKind::LimitExceeded => ErrorCode::LimitExceeded,
        _ => ErrorCode::ExpressionError,
    };
    Error::new(
        code,
        format!("{} in JMESPath expression: {expression}", e.message()),
    )
    .with_source(e)
}

fn not_a_string(value: &Value) -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        format!(
            "transformData expects a string expression, got {}.",
            crate::json::kind_name(value)
        ),
    )
}

impl TransformData {
    /// The expression for `text`, compiled on first use (compile errors are not kept).
    fn compile(&self, text: &str, cx: &CallContext<'_>) -> Result<Expression, Error> {
        let limits = cx.limits();
        let key = (Box::<str>::from(text), limits.jmespath);
        if let Some(expression) = self.cache.get(&key) {
            return Ok(expression);
        }
        // Compiled outside the cache's lock, so other threads are not held up.
        let expression = Expression::compile_with(text, &limits.jmespath)
            .map_err(|e| jmespath_error(e, text))?;
        self.cache
            .insert_within(key, expression.clone(), limits.cache_capacity);
        Ok(expression)
    }
}

impl Function for TransformData {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        match args.get("jmespath") {
            StaticArg::Literal(Value::String(text)) => {
                let expression = Expression::compile_with(text, &args.limits().jmespath)
                    .map_err(|e| jmespath_error(e, text))?;
                Ok(Some(Box::new(expression)))
            }
            StaticArg::Literal(other) => Err(not_a_string(other)),
            StaticArg::Absent | StaticArg::Dynamic => Ok(None),
        }
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let compiled;
        let expression = match cx.prepared::<Expression>() {
            Some(expression) => expression,
            None => {
                let text = match args.value_or_null("jmespath") {
                    Value::String(text) => text,
                    other => return Err(not_a_string(other)),
                };
                compiled = self.compile(text, cx)?;
                &compiled
            }
        };
        // One call's result is bounded by max_output_items, and with the evaluation's other
        // calls by its budget; both are counted before each value is built.
        let limits = cx.limits();
        let mut allowance = Allowance {
            steps: limits.max_eval_steps,
            values: u64::MAX,
        };
        if let Some(budget) = cx.budget {
            allowance = Allowance {
                steps: budget.steps(),
                values: budget.items(),
            };
        }
        let output_items = u64::try_from(limits.max_output_items).unwrap_or(u64::MAX);
        let by_output_limit = output_items < allowance.values;
        allowance.values = allowance.values.min(output_items);
        let by_eval_steps = allowance.steps < limits.jmespath.max_steps;
        let before = allowance;
        // A tool's response object is read in its fast form, without converting it.
        let result = match args.view("data") {
            // The guide's `transformData("text")`: the tool's text goes on as a shared slice,
            // not a copy (a tool text is the large part of a result; see `SharedText`).
            Some(ArgView::Response(response)) if expression.as_field() == Some("text") => {
                let whole = 0..response.text().len();
                let source = TextSource::Response(Arc::clone(response));
                return Ok(cx.return_text(SharedText::new(source, TextShape::Str(whole))));
            }
            // Its `json` is decoded as far as the expression reads it.
            Some(ArgView::Response(response)) => {
                match response.json_for(&expression.reads_of_member("json")) {
                    Some(json) => json.search(response, |members| match members {
                        MembersOf::Whole(m) => expression.search_members_within(m, &mut allowance),
                        MembersOf::Part(m) => expression.search_members_within(m, &mut allowance),
                    }),
                    None => expression.search_members_within(&response.members(), &mut allowance),
                }
            }
            Some(ArgView::Text(text)) => {
                text.with_view(|root| expression.search_view_within(root, &mut allowance))
            }
            Some(ArgView::Json(data)) => expression.search_view_within(data, &mut allowance),
            None => expression.search_view_within(&Value::Null, &mut allowance),
        };
        if let Some(budget) = cx.budget {
            budget.used(
                before.steps - allowance.steps,
                before.values - allowance.values,
            );
        }
        result.map_err(|e| {
            if e.kind() != JmespathErrorKind::LimitExceeded {
                return jmespath_error(e, expression.as_str());
            }
            // Say which limit: the call's output, or the evaluation's budget.
            let why = match (e.is_output_limit(), cx.budget) {
                (true, _) if by_output_limit => format!(
                    "the result would have more than {} values (Limits::max_output_items)",
                    limits.max_output_items
                ),
                (true, Some(budget)) => budget.items_exceeded("the result").message().to_owned(),
                (false, Some(budget)) if by_eval_steps => {
                    budget.steps_exceeded().message().to_owned()
                }
                _ => return jmespath_error(e, expression.as_str()),
            };
            Error::new(
                ErrorCode::LimitExceeded,
                format!("{why} in JMESPath expression: {}", expression.as_str()),
            )
            .with_source(e)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::payload::tests::fail;
    use crate::{Environment, ErrorCode, Phase};
    use serde_json::json;

    #[test]
    fn literal_expressions_are_checked_at_compile_time() {
        let call = |e| json!({"@call": "transformData", "args": {"jmespath": e, "data": {}}});
        let err = fail(json!({}), call(json!("a[")));
        assert_eq!(
            (err.code(), err.phase(), err.function()),
            (
                ErrorCode::ExpressionError,
                Phase::Compile,
                Some("transformData")
            )
        );
        assert!(
            err.message().ends_with(" in JMESPath expression: a["),
            "{}",
            err.message()
        );
        assert_eq!(
            fail(json!({}), call(json!(5))).message(),
            "transformData expects a string expression, got a number."
        );
    }

    #[test]
    fn dynamic_expressions_are_compiled_on_use_and_cached() {
        let env = Environment::new();
        let p = env.compile(&json!({"@call": "transformData", "args": {"jmespath": {"@path": "/q"}, "data": {"@path": "/d"}}})).unwrap();
        let mut model =
            json!({"q": "items[?n > `1`].n", "d": {"items": [{"n": 1}, {"n": 2}, {"n": 3}]}});
        assert_eq!(p.eval(&mut model).unwrap(), json!([2, 3]));
        assert_eq!(p.eval(&mut model).unwrap(), json!([2, 3]));
        model["q"] = json!(["not", "a", "string"]);
        let err = p.eval(&mut model).unwrap_err();
        assert_eq!(
            (err.phase(), err.message()),
            (
                Phase::Eval,
                "transformData expects a string expression, got an array."
            )
        );
        model["q"] = json!("foo(@)");
        assert!(
            p.eval(&mut model)
                .unwrap_err()
                .message()
                .ends_with("in JMESPath expression: foo(@)")
        );
    }

    #[test]
    fn absent_data_is_null() {
        let payload = json!({"@call": "transformData", "args": {"jmespath": "@", "data": null}});
        crate::payload::tests::give(json!({}), payload, json!(null));
    }
}
