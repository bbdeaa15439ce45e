//! `updateDataModel` — `{updates}`: writes each `{path: value}` pair, in key order, all or
//! nothing; the result is `null` (the rules are in the `builtins` module's documentation).

use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use serde_json::Value;
use std::borrow::Cow;

pub(crate) struct UpdateDataModel;

fn not_an_object(value: &Value) -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        format!(
            "updateDataModel expects an object of data model paths, got {}.",
            crate::json::kind_name(value)
        ),
    )
}

impl Function for UpdateDataModel {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        match args.get("updates") {
            StaticArg::Literal(Value::Object(updates)) => {
                // Paths too long for any write are found now; the rest when the writes run.
                for path in updates.keys() {
                    crate::path::check_tokens(path, args.limits().max_depth)?;
                }
                Ok(None)
            }
            StaticArg::Literal(v) if !v.is_null() => Err(not_an_object(v)),
            _ => Ok(None),
        }
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        match args.take("updates") {
            None => {}
            Some(Cow::Owned(Value::Object(updates))) => {
                for (path, value) in updates {
                    cx.write(path, value);
                }
            }
            Some(Cow::Borrowed(Value::Object(updates))) => {
                for (path, value) in updates {
                    cx.write(path.clone(), value.clone());
                }
            }
            Some(other) if other.is_null() => {}
            Some(other) => return Err(not_an_object(&other)),
        }
        Ok(Value::Null)
    }

    fn may_write(&self, _args: &StaticArgs<'_>) -> bool {
        true
    }
}
