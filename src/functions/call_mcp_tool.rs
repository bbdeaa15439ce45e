//! `callMcpTool` — `{name, arguments, targetDataPath}` (mcp.md §2). The call itself runs in
//! [`Payload::eval_async`](crate::Payload::eval_async) with the host's tool client; this is what
//! a tool call does without one.

use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use serde_json::Value;

pub(crate) struct CallMcpTool;

impl Function for CallMcpTool {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        let wrong = |what: &str, v: &Value| {
            Err(Error::new(
                ErrorCode::ExpressionError,
                format!(
                    "callMcpTool expects {what}, got {}.",
                    crate::json::kind_name(v)
                ),
            ))
        };
        match args.get("name") {
            StaticArg::Literal(Value::String(s)) if s.is_empty() => {
                return Err(Error::new(
                    ErrorCode::ExpressionError,
                    "callMcpTool expects a tool name, got an empty string.",
                ));
            }
            StaticArg::Literal(v) if !v.is_string() => return wrong("a string tool name", v),
            _ => {}
        }
        if let StaticArg::Literal(v) = args.get("arguments")
            && !v.is_object()
            && !v.is_null()
        {
            return wrong("an object of arguments", v);
        }
        if let StaticArg::Literal(v) = args.get("targetDataPath")
            && !v.is_string()
            && !v.is_null()
        {
            return wrong("a string targetDataPath", v);
        }
        Ok(None)
    }

    fn call(&self, args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let name = args.get("name").and_then(Value::as_str).unwrap_or_default();
        Err(crate::mcp::not_configured(name))
    }
}
