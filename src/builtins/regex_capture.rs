//! `regexCapture` — `{value, pattern}`: the capture groups of the first match, in the A2UI
//! regex dialect; `null` when nothing matches; an array value is mapped (the rules are in the
//! `builtins` module's documentation).

use super::patterns::PatternCache;
use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use crate::json::to_js_string;
use crate::regex::{Pattern, RegexError};
use crate::value::{ArgView, SharedText, TextShape};
use serde_json::Value;
use std::ops::Range;
use std::sync::Arc;

/// Patterns are checked and compiled once per text, and kept with their verdict within the
/// cache's bounds (`Limits::cache_capacity`, `Limits::pattern_cache_bytes`): a rejected pattern
/// is not checked again, and one compiled during an evaluation is charged to its budget.
#[derive(Default)]
pub(crate) struct RegexCapture {
    cache: PatternCache,
}

/// A literal pattern, checked when the payload was compiled: its program is the cache's to
/// keep, so that a payload's literal patterns do not each hold one.
struct Literal(Arc<str>);

impl RegexCapture {
    fn compile(&self, pattern: &str, cx: &CallContext<'_>) -> Result<Pattern, Error> {
        self.cache
            .get(pattern, cx.limits(), cx.budget)?
            .map_err(regex_error)
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

/// Makes ranges of an item ranges of the whole text (the item starts at `offset`).
fn shift(ranges: &mut [Range<usize>], offset: usize) {
    for r in ranges {
        *r = r.start + offset..r.end + offset;
    }
}

impl Function for RegexCapture {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        match args.get("pattern") {
            // Any literal is coerced to text, as at run time.
            StaticArg::Literal(v) => {
                let text = to_js_string(v);
                self.cache
                    .prepare(&text, args.limits())
                    .map_err(regex_error)?;
                Ok(Some(Box::new(Literal(Arc::from(text.as_ref())))))
            }
            StaticArg::Absent | StaticArg::Dynamic => Ok(None),
        }
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let compiled = match cx.prepared::<Literal>() {
            Some(Literal(text)) => self.compile(text, cx)?,
            None => self.compile(&to_js_string(args.value_or_null("pattern")), cx)?,
        };
        let pattern = &compiled;
        // Strings cut out of a shared text are captured as ranges of it (`SharedText`).
        if let Some(ArgView::Text(shared)) = args.view("value") {
            let text = shared.source().text();
            match shared.shape() {
                TextShape::Str(range) => {
                    let mut groups = Vec::with_capacity(pattern.group_count());
                    cx.spend_items(pattern.group_count(), "regexCapture's groups")?;
                    if !pattern.capture_ranges(&text[range.clone()], &mut groups) {
                        return Ok(Value::Null);
                    }
                    shift(&mut groups, range.start);
                    let source = shared.source().clone();
                    return Ok(cx.return_text(SharedText::new(source, TextShape::List(groups))));
                }
                TextShape::List(items) => {
                    cx.check_output(items.len(), 0)?;
                    let width = pattern.group_count();
                    let values = items.len().saturating_mul(width + 1);
                    cx.spend_items(values, &format!("regexCapture's {values} items and groups"))?;
                    let mut matched = Vec::with_capacity(items.len());
                    let mut groups = Vec::with_capacity(items.len() * width);
                    for item in items {
                        let row = groups.len();
                        let found = pattern.capture_ranges(&text[item.clone()], &mut groups);
                        shift(&mut groups[row..], item.start);
                        matched.push(found);
                    }
                    let shape = TextShape::Rows {
                        width,
                        matched,
                        groups,
                    };
                    let source = shared.source().clone();
                    return Ok(cx.return_text(SharedText::new(source, shape)));
                }
                // Items that are arrays are coerced to text: the JSON path below does that.
                TextShape::Rows { .. } => {}
            }
        }
        match args.value_or_null("value") {
            Value::Array(items) => {
                cx.check_output(items.len(), 0)?;
                let values = items.len().saturating_mul(pattern.group_count() + 1);
                cx.spend_items(values, &format!("regexCapture's {values} items and groups"))?;
                Ok(Value::Array(
                    items.iter().map(|item| capture(pattern, item)).collect(),
                ))
            }
            single => {
                cx.spend_items(pattern.group_count(), "regexCapture's groups")?;
                Ok(capture(pattern, single))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::payload::tests::{fail, give};
    use crate::{ErrorCode, Phase};
    use serde_json::json;

    #[test]
    fn the_guides_pattern_over_records() {
        let records = json!([
            "Title: A\nURL: https://a",
            "Results:",
            "Title: B\nURL: https://b\nmore"
        ]);
        let payload = json!({"@call": "regexCapture", "args": {"value": {"@path": "/records"}, "pattern": "^Title: (.*)\nURL: (.*)"}});
        let rows = json!([["A", "https://a"], null, ["B", "https://b"]]);
        give(json!({"records": records}), payload, rows);
    }

    #[test]
    fn patterns_outside_the_dialect_fail_where_they_are_known() {
        let call = |pattern| json!({"@call": "regexCapture", "args": {"value": "aab", "pattern": pattern}});
        let err = fail(json!({}), call(json!("(?=a)")));
        assert_eq!(
            (err.code(), err.phase(), err.function()),
            (
                ErrorCode::ExpressionError,
                Phase::Compile,
                Some("regexCapture")
            )
        );
        let err = fail(json!({"p": "(a+)+b"}), call(json!({"@path": "/p"})));
        assert_eq!(
            err.message(),
            "Unsafe regex pattern (catastrophic backtracking risk): (a+)+b"
        );
        give(
            json!({"p": "(a)(x)?"}),
            call(json!({"@path": "/p"})),
            json!(["a", ""]),
        );
    }
}
