//! `regexCapture` — `{value, pattern}` (functions.md): the capture groups of the first match,
//! in the A2UI regex dialect; `null` when nothing matches; an array value is mapped.

use super::coerce::to_js_string;
use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use crate::regex::{Pattern, PatternCache, RegexError};
use serde_json::Value;

pub(crate) struct RegexCapture {
    cache: PatternCache,
}

impl RegexCapture {
    pub(crate) fn new(limits: &crate::Limits) -> RegexCapture {
        RegexCapture {
            cache: PatternCache::new(limits.cache_capacity),
        }
    }
}

fn regex_error(e: RegexError) -> Error {
    Error::new(ErrorCode::ExpressionError, e.message().to_owned()).with_source(e)
}

/// One item's result: the groups (`""` for those that did not take part), or `null`.
fn capture(pattern: &Pattern, item: &Value) -> Value {
    match pattern.captures(&to_js_string(item)) {
        Some(groups) => Value::Array(
            groups
                .into_iter()
                .map(|g| Value::String(g.to_owned()))
                .collect(),
        ),
        None => Value::Null,
    }
}

impl Function for RegexCapture {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        match args.get("pattern") {
            // Any literal is coerced to text, as at run time.
            StaticArg::Literal(v) => Ok(Some(Box::new(
                Pattern::new(&to_js_string(v)).map_err(regex_error)?,
            ))),
            StaticArg::Absent | StaticArg::Dynamic => Ok(None),
        }
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let compiled;
        let pattern = match cx.prepared::<Pattern>() {
            Some(p) => p,
            None => {
                compiled = self
                    .cache
                    .get_or_compile(&to_js_string(args.value_or_null("pattern")))
                    .map_err(regex_error)?;
                &compiled
            }
        };
        match args.value_or_null("value") {
            Value::Array(items) => {
                cx.check_output(items.len(), 0)?;
                Ok(Value::Array(
                    items.iter().map(|item| capture(pattern, item)).collect(),
                ))
            }
            single => Ok(capture(pattern, single)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Environment, ErrorCode, Phase};
    use serde_json::json;

    #[test]
    fn the_guides_pattern_over_records() {
        let env = Environment::new();
        let p = env
            .compile(&json!({"@call": "regexCapture", "args": {"value": {"@path": "/records"}, "pattern": "^Title: (.*)\nURL: (.*)"}}))
            .unwrap();
        let mut model = json!({"records": ["Title: A\nURL: https://a", "Results:", "Title: B\nURL: https://b\nmore"]});
        assert_eq!(
            p.eval(&mut model).unwrap(),
            json!([["A", "https://a"], null, ["B", "https://b"]])
        );
    }

    #[test]
    fn patterns_outside_the_dialect_fail_where_they_are_known() {
        let env = Environment::new();
        let err = env
            .compile(&json!({"@call": "regexCapture", "args": {"value": "x", "pattern": "(?=a)"}}))
            .unwrap_err();
        assert_eq!(
            (err.code(), err.phase(), err.function()),
            (
                ErrorCode::ExpressionError,
                Phase::Compile,
                Some("regexCapture")
            )
        );
        let p = env.compile(&json!({"@call": "regexCapture", "args": {"value": "aab", "pattern": {"@path": "/p"}}})).unwrap();
        let err = p.eval(&mut json!({"p": "(a+)+b"})).unwrap_err();
        assert_eq!(
            err.message(),
            "Unsafe regex pattern (catastrophic backtracking risk): (a+)+b"
        );
        assert_eq!(
            p.eval(&mut json!({"p": "(a)(x)?"})).unwrap(),
            json!(["a", ""])
        );
    }
}
