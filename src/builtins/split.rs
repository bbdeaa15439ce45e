//! `split` — `{value, separator}`: literal split, empty fields kept; an empty separator splits
//! into code points; an array value gives an array of arrays (the rules are in the `builtins`
//! module's documentation).

use crate::catalog::{Args, CallContext, Function};
use crate::error::Error;
use crate::json::to_js_string;
use crate::value::{ArgView, SharedText, TextShape, TextSource};
use serde_json::Value;
use std::ops::Range;
use std::sync::Arc;

pub(crate) struct Split;

/// Splits one text, counting what it produces against the output limits.
fn split_text(
    text: &str,
    separator: &str,
    tally: &mut OutputTally<'_, '_>,
) -> Result<Value, Error> {
    if separator.is_empty() {
        tally.take(text.chars().count(), text.len())?;
        return Ok(Value::Array(
            text.chars().map(|c| Value::String(c.to_string())).collect(),
        ));
    }
    let pieces = split_ranges(text, separator, tally)?;
    Ok(Value::Array(
        pieces
            .into_iter()
            .map(|r| Value::String(text[r].to_owned()))
            .collect(),
    ))
}

/// Where the pieces of `text` are, for a non-empty separator.
fn split_ranges(
    text: &str,
    separator: &str,
    tally: &mut OutputTally<'_, '_>,
) -> Result<Vec<Range<usize>>, Error> {
    // One SIMD search for the separators (str::split's two-way search is several times
    // slower on long texts). The limits are checked as the pieces are found: a long text of
    // separators must not cost memory for each before the item limit stops it.
    tally.take(0, text.len())?;
    let room = tally.room();
    let mut pieces = Vec::new();
    let mut start = 0;
    for end in memchr::memmem::find_iter(text.as_bytes(), separator) {
        // This piece and the last one.
        if pieces.len() + 2 > room {
            tally.take(pieces.len() + 2, 0)?;
        }
        // The separator is valid UTF-8 and matched whole, so both cuts are on char boundaries.
        pieces.push(start..end);
        start = end + separator.len();
    }
    pieces.push(start..text.len());
    tally.take(pieces.len(), 0)?;
    Ok(pieces)
}

/// The text to split as a shared source and the range of it that is the value, when sharing
/// costs no copy: text that already is shared, or a string the call owns (moved, not copied).
/// The pieces are then ranges of it (`SharedText`). A string lent by the data model or the
/// payload is split into owned strings: sharing it would copy it whole first, which
/// for the short texts models usually hold costs more than it saves.
fn shared_text(args: &mut Args<'_>) -> Option<(TextSource, Range<usize>)> {
    if let Some(ArgView::Text(shared)) = args.view("value") {
        return match shared.shape() {
            TextShape::Str(range) => Some((shared.source().clone(), range.clone())),
            _ => None,
        };
    }
    let text = args.take_owned_string("value")?;
    let whole = 0..text.len();
    Some((TextSource::Text(Arc::new(text)), whole))
}

/// What this call has produced so far, checked against the limits before building it.
struct OutputTally<'c, 'a> {
    cx: &'c CallContext<'a>,
    items: usize,
    bytes: usize,
}

impl OutputTally<'_, '_> {
    /// Takes `items` more items of `bytes` more bytes, checked against the call's output
    /// limits and charged to the evaluation's budget; refused whole when they do not fit.
    fn take(&mut self, items: usize, bytes: usize) -> Result<(), Error> {
        let total_items = self.items.saturating_add(items);
        let total_bytes = self.bytes.saturating_add(bytes);
        self.cx.check_output(total_items, total_bytes)?;
        self.cx
            .spend_items(items, &format!("split's {total_items} pieces"))?;
        (self.items, self.bytes) = (total_items, total_bytes);
        Ok(())
    }

    /// How many more items would fit: in the call's output limit and the evaluation's budget.
    fn room(&self) -> usize {
        let output = self.cx.limits().max_output_items.saturating_sub(self.items);
        match self.cx.budget {
            Some(budget) => output.min(usize::try_from(budget.items()).unwrap_or(usize::MAX)),
            None => output,
        }
    }
}

impl Function for Split {
    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let separator = to_js_string(args.value_or_null("separator")).into_owned();
        if !separator.is_empty()
            && let Some((source, range)) = shared_text(args)
        {
            let text = &source.text()[range.clone()];
            let mut tally = OutputTally {
                cx,
                items: 0,
                bytes: 0,
            };
            let mut pieces = split_ranges(text, &separator, &mut tally)?;
            for piece in &mut pieces {
                *piece = piece.start + range.start..piece.end + range.start;
            }
            return Ok(cx.return_text(SharedText::new(source, TextShape::List(pieces))));
        }
        let mut tally = OutputTally {
            cx,
            items: 0,
            bytes: 0,
        };
        match args.value_or_null("value") {
            Value::Array(items) => {
                tally.take(items.len(), 0)?;
                let out = items
                    .iter()
                    .map(|item| split_text(&to_js_string(item), &separator, &mut tally))
                    .collect::<Result<_, _>>()?;
                Ok(Value::Array(out))
            }
            single => split_text(&to_js_string(single), &separator, &mut tally),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::payload::tests::give;
    use crate::{Environment, ErrorCode};
    use serde_json::{Value, json};

    fn split(value: Value, separator: &str, pieces: Value) {
        let payload = json!({"@call": "split", "args": {"value": value, "separator": separator}});
        give(json!({}), payload, pieces);
    }

    #[test]
    fn literal_split_keeps_empty_fields() {
        split(json!("a,,b"), ",", json!(["a", "", "b"]));
        split(json!("a.b"), ".", json!(["a", "b"])); // no regex meaning
        split(json!("aXXbXX"), "XX", json!(["a", "b", ""]));
        split(json!(""), "", json!([]));
    }

    #[test]
    fn code_points_not_utf16_units() {
        split(json!("a😀é"), "", json!(["a", "😀", "é"]));
    }

    #[test]
    fn output_limit() {
        let env = Environment::new().with_max_output(3, 1 << 20);
        for value in [json!("a,b,c,d"), json!(["a,b", "c,d"])] {
            let payload = json!({"@call": "split", "args": {"value": value, "separator": ","}});
            let err = env
                .compile(&payload)
                .unwrap()
                .eval(&mut json!({}))
                .unwrap_err();
            assert_eq!(err.code(), ErrorCode::LimitExceeded);
            assert_eq!(err.function(), Some("split"));
        }
    }
}
