//! The tool calls an `McpApp` widget asks for (its `tools/call` requests through the MCP Apps
//! bridge): checked against the widget's `allowedTools`, then the host's policy, audited, and
//! sent.

use super::audit::{AuditRecord, CallOutcome};
use super::call::{authorize, is_tool_error, resolve};
use super::mcp_host::McpHost;
use super::policy::Decision;
use crate::error::{Denial, Error, ErrorCode};
use crate::json::{depth_exceeds, kind_name};
use crate::limits::Limits;
use crate::mcp::protocol::app::{McpAppProps, ToolCallDecision};
use crate::origin::{Invocation, Origin, Provenance};
use serde_json::Value;

impl McpHost {
    /// Runs the `tools/call` request an `McpApp` widget sent (`params`: `{"name", "arguments"}`)
    /// and returns the tool's `CallToolResult`, for the host to hand back to the app.
    ///
    /// In order: the request is checked against the widget's `allowedTools`
    /// ([`McpAppProps::check_tool_call`]; a malformed request is its error), then against the
    /// host's [`ToolPolicy`](crate::mcp::ToolPolicy) like a payload's call; a tool refused by
    /// either is an `EXPRESSION_ERROR` whose message says `not allowed` and why, and nothing is
    /// sent. An allowed call goes to the client that serves the tool, with the host's `_meta`.
    /// A result with `isError: true` is returned as it is (the app reads the error); a host
    /// failure is `Failed to execute MCP tool '<name>': …`; a result nested deeper than
    /// `limits.max_depth` is `LIMIT_EXCEEDED`. Every request that names a tool is audited, with
    /// the origin [`Origin::App`](crate::Origin::App).
    ///
    /// Nothing is read, forwarded or written: the A2UI messages or MCP Apps the result may
    /// carry are the app's business.
    ///
    /// ```
    /// # #[cfg(feature = "testing")] {
    /// use a2ui_catalog_mcp::mcp::{DenyList, app::McpAppProps};
    /// use a2ui_catalog_mcp::{Limits, testing::{ScriptedServer, block_on}};
    /// use serde_json::json;
    ///
    /// let server = ScriptedServer::from_json(&json!({"results": {
    ///     "move_card": [{"content": [{"type": "text", "text": "moved"}]}],
    ///     "delete_board": [{"content": [{"type": "text", "text": "deleted"}]}]}}))?;
    /// let host = server.host().with_policy(DenyList::new(["delete_board"]));
    /// let limits = Limits::default();
    /// let app = McpAppProps::parse(&json!({"component": "McpApp", "htmlContent": "<p/>",
    ///     "allowedTools": ["move_card", "delete_board"]}), &limits)?;
    ///
    /// let result = block_on(host.call_app_tool(&app, &json!({"name": "move_card", "arguments": {"to": "done"}}), &limits))?;
    /// assert_eq!(result["content"][0]["text"], "moved");
    /// let denied = block_on(host.call_app_tool(&app, &json!({"name": "delete_board"}), &limits)).unwrap_err();
    /// assert!(denied.message().contains("not allowed"));
    /// let unlisted = block_on(host.call_app_tool(&app, &json!({"name": "rename_board"}), &limits)).unwrap_err();
    /// assert_eq!(unlisted.message(), "Tool 'rename_board' is not allowed by allowedTools");
    /// assert_eq!(server.tool_calls().len(), 1);
    /// # }
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub async fn call_app_tool(
        &self,
        app: &McpAppProps,
        params: &Value,
        limits: &Limits,
    ) -> Result<Value, Error> {
        self.call_app_tool_from(app, params, limits, None).await
    }

    /// [`call_app_tool`](McpHost::call_app_tool) for an app that came from `source` (the tool
    /// and server whose result carried it, [`McpAppResource::source`](crate::mcp::McpAppResource),
    /// or the provenance of the surface that holds the `McpApp` component): the policy sees it
    /// ([`ToolCallRequest::source`](crate::mcp::ToolCallRequest::source)), and MCP Apps
    /// visibility uses it to refuse cross-server calls of app-only tools.
    pub async fn call_app_tool_from(
        &self,
        app: &McpAppProps,
        params: &Value,
        limits: &Limits,
        source: Option<&Provenance>,
    ) -> Result<Value, Error> {
        let invocation = Invocation {
            origin: Origin::App,
            source: source.cloned(),
        };
        let (name, arguments) = match app.check_tool_call(params)? {
            ToolCallDecision::Allowed { tool, arguments } => (tool, Value::Object(arguments)),
            ToolCallDecision::Denied(denial) => {
                let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
                let tool = params.get("name").and_then(Value::as_str).unwrap_or("");
                let message = denial.message();
                let mut audit =
                    AuditRecord::start(self.audit.as_deref(), tool, &arguments, None, &invocation);
                audit.decided(&Decision::Deny(message.clone()));
                audit.finish(CallOutcome::Denied);
                return Err(Error::new(ErrorCode::ExpressionError, message)
                    .with_denial(Denial::AllowedTools));
            }
        };
        let client = resolve(self, &name, &arguments, &invocation).await?;
        let server = client.server_name();
        let definition = self.tool_definition(&client, &name).await;
        let audit = authorize(
            self,
            &name,
            &arguments,
            server.as_deref(),
            definition.as_ref(),
            &invocation,
        )
        .await?;
        let failed = |reason: String| {
            Error::new(
                ErrorCode::ExpressionError,
                format!("Failed to execute MCP tool '{name}': {reason}"),
            )
        };
        let result = match client
            .call_tool(&name, &arguments, self.meta.as_ref())
            .await
        {
            Ok(result) => result,
            Err(e) => {
                let err = failed(e.to_string()).with_source(e);
                audit.finish(CallOutcome::HostFailure(err.message().to_owned()));
                return Err(err);
            }
        };
        let problem = if depth_exceeds(&result, limits.max_depth) {
            Some(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the result of MCP tool '{name}' nests deeper than the limit of {} levels",
                    limits.max_depth
                ),
            ))
        } else if !result.is_object() {
            Some(failed(format!(
                "the result is {}, not a CallToolResult object",
                kind_name(&result)
            )))
        } else {
            None
        };
        if let Some(err) = problem {
            audit.finish(CallOutcome::HostFailure(err.message().to_owned()));
            return Err(err);
        }
        audit.finish(if is_tool_error(&result) {
            CallOutcome::ToolError
        } else {
            CallOutcome::Ok
        });
        Ok(result)
    }
}
