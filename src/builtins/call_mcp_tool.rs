//! `callMcpTool` — `{name, arguments, targetDataPath}`: `name` a non-empty string; `arguments`
//! an object (absent or `null` is `{}`); `targetDataPath` a string (absent, `null` or `""` is no
//! write). What the call does with them is stated in `docs/mcp.md`.
//!
//! The function checks its arguments (literal ones when the payload is compiled, the others when
//! it runs) and hands the evaluation a [`ToolCall`]; the evaluation that has the host's tool
//! clients ([`Payload::eval_async`](crate::Payload::eval_async)) runs it. Without one, the call
//! fails.

use crate::catalog::{
    Args, CallContext, Function, LiteralToolName, Prepared, StaticArg, StaticArgs, ToolCall,
};
use crate::error::{Error, ErrorCode};
use crate::json::kind_name;
use serde_json::{Map, Value};

pub(crate) struct CallMcpTool;

fn expression_error(message: String) -> Error {
    Error::new(ErrorCode::ExpressionError, message)
}

/// The error of a call that could not run because no tool client is configured.
pub(crate) fn not_configured(name: &str) -> Error {
    expression_error(format!(
        "Cannot execute MCP tool '{name}': callMcpTool is not configured (evaluate the payload with an McpHost)"
    ))
}

fn name(value: Option<&Value>) -> Result<&str, Error> {
    match value {
        Some(Value::String(name)) if !name.is_empty() => Ok(name),
        Some(Value::String(_)) => Err(expression_error(
            "callMcpTool expects a tool name, got an empty string.".into(),
        )),
        other => Err(expression_error(format!(
            "callMcpTool expects a string tool name, got {}.",
            other.map_or("nothing", kind_name)
        ))),
    }
}

/// `arguments`: an object; absent or `null` is `{}`. `name` is the tool's, when known.
fn arguments(value: Option<&Value>, name: Option<&str>) -> Result<(), Error> {
    match value {
        None | Some(Value::Null | Value::Object(_)) => Ok(()),
        Some(other) => Err(expression_error(format!(
            "callMcpTool expects an object of arguments{}, got {}.",
            name.map(|n| format!(" for '{n}'")).unwrap_or_default(),
            kind_name(other)
        ))),
    }
}

/// `targetDataPath`: a string; absent, `null` or `""` is no write.
fn target(value: Option<&Value>) -> Result<Option<&str>, Error> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(path)) => Ok(Some(path.as_str()).filter(|p| !p.is_empty())),
        Some(other) => Err(expression_error(format!(
            "callMcpTool expects a string targetDataPath, got {}.",
            kind_name(other)
        ))),
    }
}

impl Function for CallMcpTool {
    /// A call writes its response when it has a `targetDataPath` other than `null` or `""`.
    fn may_write(&self, args: &StaticArgs<'_>) -> bool {
        match args.get("targetDataPath") {
            StaticArg::Absent => false,
            StaticArg::Literal(Value::Null) => false,
            StaticArg::Literal(Value::String(s)) => !s.is_empty(),
            StaticArg::Literal(_) | StaticArg::Dynamic => true,
        }
    }

    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        // The checks of `call`, on the literal arguments.
        let literal = |arg| match args.get(arg) {
            StaticArg::Literal(v) => Some(v),
            StaticArg::Absent | StaticArg::Dynamic => None,
        };
        let tool = literal("name").map(|v| name(Some(v))).transpose()?;
        arguments(literal("arguments"), tool)?;
        if let Some(path) = target(literal("targetDataPath"))? {
            crate::path::check_tokens(path, args.limits().max_depth)?;
        }
        // A literal name is reported for the payload's list of the tools it calls.
        Ok(tool.map(|t| Box::new(LiteralToolName(t.to_owned())) as Prepared))
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        if !cx.can_call_tools() {
            let name = args.get("name").and_then(Value::as_str).unwrap_or_default();
            return Err(not_configured(name));
        }
        let tool = name(args.get("name"))?.to_owned();
        arguments(args.get("arguments"), Some(&tool))?;
        let target = target(args.get("targetDataPath"))?.map(str::to_owned);
        let arguments = match args.take("arguments") {
            Some(v) if v.is_object() => v.into_owned(),
            _ => Value::Object(Map::new()),
        };
        Ok(cx.call_tool(ToolCall {
            name: tool,
            arguments,
            target,
        }))
    }
}
