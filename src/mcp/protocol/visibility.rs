//! MCP Apps visibility: who may see and call a tool, from its `_meta.ui.visibility` in
//! `tools/list` (`["model", "app"]` when absent).
//!
//! The MCP Apps specification's rules, which [`McpHost`](crate::mcp::McpHost) enforces:
//!
//! - an app's `tools/call` for a tool whose visibility lacks `"app"` is rejected;
//! - an app may call a tool that only apps see (no `"model"`) only on the server the app came
//!   from: cross-server calls of app-only tools are blocked, and so are those of an app whose
//!   origin the host did not give ([`McpHost::call_app_tool_from`](crate::mcp::McpHost::call_app_tool_from));
//! - app-only tools are kept out of what the agent sees ([`Visibility::visible_to_model`]);
//!   for the same reason a surface (which the agent wrote) may not call them, unless the host
//!   says so ([`McpHost::with_app_only_tools_in_surfaces`](crate::mcp::McpHost::with_app_only_tools_in_surfaces)).

use serde_json::Value;

/// Who sees a tool (MCP Apps `_meta.ui.visibility`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Visibility {
    /// The agent (the model) sees it: `"model"`.
    pub model: bool,
    /// MCP Apps may call it: `"app"`.
    pub app: bool,
}

impl Default for Visibility {
    /// Both, as an absent `visibility` says.
    fn default() -> Visibility {
        Visibility {
            model: true,
            app: true,
        }
    }
}

impl Visibility {
    /// The visibility a `tools/list` entry declares. Absent, or not an array, it is both (the
    /// specification's default); an array names who sees the tool (other entries are ignored,
    /// so `[]` is nobody).
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::Visibility;
    /// use serde_json::json;
    /// let refresh = json!({"name": "refresh", "_meta": {"ui": {"visibility": ["app"]}}});
    /// assert_eq!(Visibility::of(&refresh), Visibility { model: false, app: true });
    /// assert_eq!(Visibility::of(&json!({"name": "search"})), Visibility::default());
    /// ```
    pub fn of(definition: &Value) -> Visibility {
        match definition.pointer("/_meta/ui/visibility") {
            Some(Value::Array(who)) => Visibility {
                model: who.iter().any(|w| w == "model"),
                app: who.iter().any(|w| w == "app"),
            },
            _ => Visibility::default(),
        }
    }

    /// Whether only apps see the tool (no `"model"`).
    pub fn is_app_only(self) -> bool {
        !self.model
    }

    /// The tools of a `tools/list` the agent may be shown: those whose visibility has
    /// `"model"`.
    pub fn visible_to_model(tools: &[Value]) -> impl Iterator<Item = &Value> {
        tools.iter().filter(|t| Visibility::of(t).model)
    }
}
