//! `@index` — `{offset?}`: the A2UI v1.0 system function that numbers the items of a list
//! template. It belongs to no catalog: the compiler resolves the name itself.
//!
//! A list renders its template once per item of a data-model array, each item with its own data
//! context (`/rows/0`, `/rows/1`, …). `@index` is the last token of that context, which must be
//! a canonical array index (`0`, `12`; not `01`), plus `offset` (default 0; `1` numbers from
//! one). Anywhere else (the root context, an object member) there is no index to give.

use crate::catalog::{ArgSchema, Args, CallContext, Function, FunctionDef};
use crate::error::{Error, ErrorCode};
use crate::path::array_index;
use serde_json::{Number, Value};
use std::sync::{Arc, LazyLock};

/// The name the compiler resolves without a catalog.
pub(crate) const NAME: &str = "@index";

/// The return type a call may declare (`returnType`).
pub(crate) const RETURN_TYPE: &str = "number";

struct Index;

/// `@index`'s definition: one optional argument, `offset`; nothing else accepted.
pub(crate) fn definition() -> FunctionDef {
    static DEF: LazyLock<FunctionDef> = LazyLock::new(|| FunctionDef {
        schema: Arc::new(ArgSchema::new().optional("offset")),
        imp: Some(Arc::new(Index)),
        tool: false,
        access: Default::default(),
        declaration: None,
    });
    DEF.clone()
}

/// The message for an `offset` that is not a number, at compile time and at evaluation alike.
pub(crate) fn offset_not_a_number(value: &Value) -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        format!(
            "@index expects a number for its argument 'offset', got {}.",
            crate::json::kind_name(value)
        ),
    )
}

impl Function for Index {
    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let context = cx.data_context();
        let Some(index) = context.tokens().last().and_then(|t| array_index(t)) else {
            let shown = if context.is_root() {
                "/".to_owned()
            } else {
                context.to_string()
            };
            return Err(Error::new(
                ErrorCode::ExpressionError,
                format!(
                    "@index is only available in a template item (a data context ending in an array index), not in '{shown}'"
                ),
            ));
        };
        let sum = match args.get("offset") {
            None => Number::from(index),
            Some(Value::Number(offset)) => add(index, offset),
            Some(other) => return Err(offset_not_a_number(other)),
        };
        Ok(Value::Number(sum))
    }
}

/// `index + offset` as JavaScript adds them: exact for integers, a float otherwise.
fn add(index: usize, offset: &Number) -> Number {
    let index = index as u64;
    if let Some(o) = offset.as_u64()
        && let Some(sum) = index.checked_add(o)
    {
        return Number::from(sum);
    }
    if let Some(o) = offset.as_i64() {
        // `index` is at most `usize::MAX`, which the limits keep far below `i64::MAX`.
        if let Some(sum) = i64::try_from(index).ok().and_then(|i| i.checked_add(o)) {
            return Number::from(sum);
        }
    }
    let sum = index as f64 + offset.as_f64().unwrap_or(f64::NAN);
    // A finite sum of a finite number and an index is always a JSON number.
    Number::from_f64(sum).unwrap_or_else(|| Number::from(0))
}
