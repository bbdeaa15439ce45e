//! `data.paths` of an `McpApp`: which data model paths are bound into the app, and which MCP
//! Apps message carries each one.

/// What a `data.paths` key binds: one of the three reserved keys, which map to standard MCP Apps
/// messages, or a custom state key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AppBinding {
    /// `toolInput`: the arguments of the tool call the app presents.
    ToolInput,
    /// `toolResult`: the result of that tool call.
    ToolResult,
    /// `modelContext`: what the app puts in the model's context.
    ModelContext,
    /// Any other key: custom state, synchronised both ways.
    Custom(String),
}

/// The notification that pushes a custom state key's value to the app.
pub const DATA_MODEL_UPDATE: &str = "ui/notifications/data-model-update";

/// The notification through which the app writes a custom state key back.
pub const DATA_MODEL_CHANGE: &str = "ui/notifications/data-model-change";

impl AppBinding {
    /// The binding of a `data.paths` key. Keys are case-sensitive: `ToolInput` is custom.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::AppBinding;
    /// assert_eq!(AppBinding::from_key("toolResult"), AppBinding::ToolResult);
    /// assert_eq!(AppBinding::from_key("score"), AppBinding::Custom("score".into()));
    /// ```
    pub fn from_key(key: &str) -> AppBinding {
        match key {
            "toolInput" => AppBinding::ToolInput,
            "toolResult" => AppBinding::ToolResult,
            "modelContext" => AppBinding::ModelContext,
            other => AppBinding::Custom(other.to_owned()),
        }
    }

    /// The key as written in `data.paths`.
    pub fn key(&self) -> &str {
        match self {
            AppBinding::ToolInput => "toolInput",
            AppBinding::ToolResult => "toolResult",
            AppBinding::ModelContext => "modelContext",
            AppBinding::Custom(key) => key,
        }
    }

    /// Whether the key is one of the three reserved ones.
    pub fn is_reserved(&self) -> bool {
        !matches!(self, AppBinding::Custom(_))
    }

    /// The MCP Apps method that carries the bound value: `ui/notifications/tool-input`,
    /// `ui/notifications/tool-result` and `ui/update-model-context` for the reserved keys,
    /// [`DATA_MODEL_UPDATE`] for custom state.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::AppBinding;
    /// assert_eq!(AppBinding::ToolInput.method(), "ui/notifications/tool-input");
    /// assert_eq!(AppBinding::ToolResult.method(), "ui/notifications/tool-result");
    /// assert_eq!(AppBinding::ModelContext.method(), "ui/update-model-context");
    /// assert_eq!(AppBinding::from_key("score").method(), "ui/notifications/data-model-update");
    /// ```
    pub fn method(&self) -> &'static str {
        match self {
            AppBinding::ToolInput => "ui/notifications/tool-input",
            AppBinding::ToolResult => "ui/notifications/tool-result",
            AppBinding::ModelContext => "ui/update-model-context",
            AppBinding::Custom(_) => DATA_MODEL_UPDATE,
        }
    }
}

/// One entry of `data.paths`: a key, its binding, and the data model path it is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathBinding {
    /// What the key binds (the key itself is [`AppBinding::key`]).
    pub binding: AppBinding,
    /// The JSON Pointer (absolute, or relative to the component's data context).
    pub path: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_keys_round_trip_and_custom_keys_stay_custom() {
        for key in [
            "toolInput",
            "toolResult",
            "modelContext",
            "score",
            "toolinput",
            "",
        ] {
            let binding = AppBinding::from_key(key);
            assert_eq!(binding.key(), key);
            assert_eq!(
                binding.is_reserved(),
                matches!(key, "toolInput" | "toolResult" | "modelContext")
            );
        }
    }
}
