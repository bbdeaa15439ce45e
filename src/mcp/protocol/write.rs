//! The values a server writes: tool and resource definitions, resource contents, tool results,
//! and the definitions of the two tools a renderer calls back (`a2ui_action`, `a2ui_error`).

use super::mime::MIME_TYPE;
use crate::error::{Error, ErrorCode};
use crate::json::depth_exceeds;
use crate::limits::Limits;
use serde_json::{Map, Value, json};

/// The URI of the embedded resource of a [`tool_result`] when no other is given.
pub const DEFAULT_MESSAGES_URI: &str = "a2ui://messages";

/// The name of the tool through which a renderer sends its users' actions.
pub const ACTION_TOOL_NAME: &str = "a2ui_action";

/// The name of the tool through which a renderer reports its errors.
pub const ERROR_TOOL_NAME: &str = "a2ui_error";

/// The `_meta` that links a tool, or a tool's result, to the A2UI resource that presents it.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::ui_meta;
/// use serde_json::json;
///
/// assert_eq!(
///     ui_meta("a2ui://recipe-card"),
///     json!({"ui": {"resourceUri": "a2ui://recipe-card", "mimeType": "application/a2ui+json"}})
/// );
/// ```
pub fn ui_meta(uri: &str) -> Value {
    json!({"ui": {"resourceUri": uri, "mimeType": MIME_TYPE}})
}

/// Options of [`tool`]. Every option is unset by default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOptions {
    title: Option<String>,
    description: Option<String>,
    input_schema: Option<Value>,
    resource_uri: Option<String>,
}

impl ToolOptions {
    /// No title, no description, the default input schema, no linked resource.
    pub fn new() -> ToolOptions {
        ToolOptions::default()
    }

    /// The tool's display name (`title`). Default: none (clients show `name`).
    pub fn with_title(mut self, title: impl Into<String>) -> ToolOptions {
        self.title = Some(title.into());
        self
    }

    /// What the tool does, for the model (`description`). Default: none.
    pub fn with_description(mut self, description: impl Into<String>) -> ToolOptions {
        self.description = Some(description.into());
        self
    }

    /// The JSON Schema of the tool's arguments (`inputSchema`). MCP requires an object schema
    /// (`"type": "object"`) and this value is written as given. Default:
    /// `{"type": "object", "additionalProperties": true}`, an object that takes any arguments.
    pub fn with_input_schema(mut self, schema: Value) -> ToolOptions {
        self.input_schema = Some(schema);
        self
    }

    /// The A2UI resource that presents the tool's results, linked with [`ui_meta`] in the
    /// tool's `_meta`. Default: none (no `_meta`).
    pub fn with_resource_uri(mut self, uri: impl Into<String>) -> ToolOptions {
        self.resource_uri = Some(uri.into());
        self
    }
}

/// A tool definition for `tools/list` (an MCP `Tool`).
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::{tool, ToolOptions};
/// use serde_json::json;
///
/// assert_eq!(
///     tool("get_recipe", &ToolOptions::new()
///         .with_title("Get a recipe")
///         .with_description("Returns a recipe.")
///         .with_resource_uri("a2ui://recipe-card")),
///     json!({
///         "name": "get_recipe",
///         "title": "Get a recipe",
///         "description": "Returns a recipe.",
///         "inputSchema": {"type": "object", "additionalProperties": true},
///         "_meta": {"ui": {"resourceUri": "a2ui://recipe-card",
///                          "mimeType": "application/a2ui+json"}}
///     })
/// );
/// assert_eq!(
///     tool("ping", &ToolOptions::new()),
///     json!({"name": "ping", "inputSchema": {"type": "object", "additionalProperties": true}})
/// );
/// ```
pub fn tool(name: &str, options: &ToolOptions) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    if let Some(title) = &options.title {
        out.insert("title".into(), title.as_str().into());
    }
    if let Some(description) = &options.description {
        out.insert("description".into(), description.as_str().into());
    }
    let schema = options
        .input_schema
        .clone()
        .unwrap_or_else(|| json!({"type": "object", "additionalProperties": true}));
    out.insert("inputSchema".into(), schema);
    if let Some(uri) = &options.resource_uri {
        out.insert("_meta".into(), ui_meta(uri));
    }
    Value::Object(out)
}

/// Options of [`resource`]. Every option is unset by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceOptions {
    title: Option<String>,
    description: Option<String>,
}

impl ResourceOptions {
    /// No title, no description.
    pub fn new() -> ResourceOptions {
        ResourceOptions::default()
    }

    /// The resource's display name (`title`). Default: none.
    pub fn with_title(mut self, title: impl Into<String>) -> ResourceOptions {
        self.title = Some(title.into());
        self
    }

    /// What the resource holds (`description`). Default: none.
    pub fn with_description(mut self, description: impl Into<String>) -> ResourceOptions {
        self.description = Some(description.into());
        self
    }
}

/// A resource entry for `resources/list` (an MCP `Resource`) with the A2UI MIME type.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::{resource, ResourceOptions};
/// use serde_json::json;
///
/// assert_eq!(
///     resource("a2ui://form", "Form", &ResourceOptions::new()),
///     json!({"uri": "a2ui://form", "name": "Form", "mimeType": "application/a2ui+json"})
/// );
/// assert_eq!(
///     resource("a2ui://form", "Form", &ResourceOptions::new().with_description("A sign-up form.")),
///     json!({"uri": "a2ui://form", "name": "Form", "description": "A sign-up form.",
///            "mimeType": "application/a2ui+json"})
/// );
/// ```
pub fn resource(uri: &str, name: &str, options: &ResourceOptions) -> Value {
    let mut out = Map::new();
    out.insert("uri".into(), uri.into());
    out.insert("name".into(), name.into());
    if let Some(title) = &options.title {
        out.insert("title".into(), title.as_str().into());
    }
    if let Some(description) = &options.description {
        out.insert("description".into(), description.as_str().into());
    }
    out.insert("mimeType".into(), MIME_TYPE.into());
    Value::Object(out)
}

/// The messages as JSON text: an array, so that a reader gets them all back in order. Each
/// message may nest one level less than the reader's limit, the array taking the last level.
fn messages_text(messages: &[Value], limits: &Limits) -> Result<String, Error> {
    let limit = limits.max_depth.saturating_sub(1);
    if let Some(i) = messages.iter().position(|m| depth_exceeds(m, limit)) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!("A2UI message {i} nests deeper than the limit of {limit} levels"),
        )
        .with_location(format!("/{i}")));
    }
    serde_json::to_string(messages).map_err(|e| {
        Error::new(
            ErrorCode::ValidationFailed,
            format!("A2UI messages cannot be written as JSON: {e}"),
        )
        .with_source(e)
    })
}

/// The result of `resources/read` for an A2UI resource (an MCP `ReadResourceResult`): the
/// messages as JSON text, in one text item of the A2UI MIME type.
///
/// A message nested deeper than `limits.max_depth - 1` levels (the array takes one) is
/// `LIMIT_EXCEEDED`: readers with those limits could not take it back.
///
/// ```
/// use a2ui_catalog_mcp::Limits;
/// use a2ui_catalog_mcp::mcp::protocol::resource_contents;
/// use serde_json::json;
///
/// let messages = [json!({"version": "v1.0",
///                        "createSurface": {"surfaceId": "form", "catalogId": "basic"}})];
/// assert_eq!(
///     resource_contents("a2ui://form", &messages, &Limits::default())?,
///     json!({"contents": [{
///         "uri": "a2ui://form",
///         "mimeType": "application/a2ui+json",
///         "text": r#"[{"version":"v1.0","createSurface":{"surfaceId":"form","catalogId":"basic"}}]"#
///     }]})
/// );
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn resource_contents(uri: &str, messages: &[Value], limits: &Limits) -> Result<Value, Error> {
    let text = messages_text(messages, limits)?;
    Ok(json!({"contents": [{"uri": uri, "mimeType": MIME_TYPE, "text": text}]}))
}

/// Who content is for (an MCP `Role`, used in `annotations.audience`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The person using the client: rendered, kept out of the model's context.
    User,
    /// The model: in its context, not rendered.
    Assistant,
}

impl Role {
    /// The wire form: `"user"` or `"assistant"`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::protocol::Role;
    /// assert_eq!(Role::Assistant.as_str(), "assistant");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// Options of [`tool_result`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResultOptions {
    uri: String,
    text: Option<String>,
    resource_uri: Option<String>,
    audience: Option<Vec<Role>>,
}

impl Default for ToolResultOptions {
    fn default() -> ToolResultOptions {
        ToolResultOptions {
            uri: DEFAULT_MESSAGES_URI.to_owned(),
            text: None,
            resource_uri: None,
            audience: None,
        }
    }
}

impl ToolResultOptions {
    /// URI [`DEFAULT_MESSAGES_URI`], no text fallback, no `_meta` link, no audience.
    pub fn new() -> ToolResultOptions {
        ToolResultOptions::default()
    }

    /// The embedded resource's URI. Default: `a2ui://messages`.
    pub fn with_uri(mut self, uri: impl Into<String>) -> ToolResultOptions {
        self.uri = uri.into();
        self
    }

    /// A text fallback, put first, for clients and models that do not render A2UI.
    /// Default: none.
    pub fn with_text(mut self, text: impl Into<String>) -> ToolResultOptions {
        self.text = Some(text.into());
        self
    }

    /// The A2UI resource that presents the result, linked with [`ui_meta`] in the result's
    /// `_meta`. Default: none (no `_meta`).
    pub fn with_resource_uri(mut self, uri: impl Into<String>) -> ToolResultOptions {
        self.resource_uri = Some(uri.into());
        self
    }

    /// Who the messages are for: `[Role::User]` renders them without putting them in the
    /// model's context, `[Role::Assistant]` the other way round. Default: unset (both).
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> ToolResultOptions {
        self.audience = Some(audience.into_iter().collect());
        self
    }
}

/// A tool call's result (an MCP `CallToolResult`) carrying A2UI messages in an embedded
/// resource, after the text fallback when there is one.
///
/// A message nested deeper than `limits.max_depth - 1` levels (the array takes one) is
/// `LIMIT_EXCEEDED`: readers with those limits could not take it back.
///
/// ```
/// use a2ui_catalog_mcp::Limits;
/// use a2ui_catalog_mcp::mcp::protocol::{tool_result, Role, ToolResultOptions};
/// use serde_json::json;
///
/// let limits = Limits::default();///
/// let messages = [json!({"version": "v1.0",
///                        "updateDataModel": {"surfaceId": "s", "path": "/n", "value": 1}})];
/// assert_eq!(
///     tool_result(&messages, &ToolResultOptions::new(), &limits)?,
///     json!({"content": [{"type": "resource", "resource": {
///         "uri": "a2ui://messages",
///         "mimeType": "application/a2ui+json",
///         "text": r#"[{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/n","value":1}}]"#
///     }}]})
/// );
///
/// let result = tool_result(&messages, &ToolResultOptions::new()
///     .with_uri("a2ui://card/data")
///     .with_text("n is 1")
///     .with_resource_uri("a2ui://card")
///     .with_audience([Role::User]), &limits)?;
/// assert_eq!(
///     result,
///     json!({
///         "content": [
///             {"type": "text", "text": "n is 1"},
///             {"type": "resource",
///              "resource": {"uri": "a2ui://card/data", "mimeType": "application/a2ui+json",
///                           "text": result["content"][1]["resource"]["text"]},
///              "annotations": {"audience": ["user"]}}
///         ],
///         "_meta": {"ui": {"resourceUri": "a2ui://card", "mimeType": "application/a2ui+json"}}
///     })
/// );
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn tool_result(
    messages: &[Value],
    options: &ToolResultOptions,
    limits: &Limits,
) -> Result<Value, Error> {
    let text = messages_text(messages, limits)?;
    let mut content = Vec::with_capacity(2);
    if let Some(fallback) = &options.text {
        content.push(json!({"type": "text", "text": fallback}));
    }
    let mut embedded = Map::new();
    embedded.insert("type".into(), "resource".into());
    embedded.insert(
        "resource".into(),
        json!({"uri": options.uri, "mimeType": MIME_TYPE, "text": text}),
    );
    if let Some(audience) = &options.audience {
        let roles: Vec<Value> = audience.iter().map(|r| r.as_str().into()).collect();
        embedded.insert("annotations".into(), json!({"audience": roles}));
    }
    content.push(Value::Object(embedded));
    let mut out = Map::new();
    out.insert("content".into(), Value::Array(content));
    if let Some(uri) = &options.resource_uri {
        out.insert("_meta".into(), ui_meta(uri));
    }
    Ok(Value::Object(out))
}

fn string_property(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

/// The definition of the `a2ui_action` tool, through which a renderer sends its users'
/// actions. Every field of an action is required, so that no MCP SDK drops one; read a call's
/// arguments with [`action`](super::action).
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::action_tool;
/// use serde_json::json;
///
/// let tool = action_tool();
/// assert_eq!(tool["name"], "a2ui_action");
/// assert_eq!(
///     tool["inputSchema"]["required"],
///     json!(["name", "surfaceId", "sourceComponentId", "timestamp", "context"])
/// );
/// assert_eq!(tool["inputSchema"]["properties"]["context"]["type"], "object");
/// ```
pub fn action_tool() -> Value {
    json!({
        "name": ACTION_TOOL_NAME,
        "title": "A2UI action",
        "description": "Receives an action a user took on an A2UI surface (a button press, a \
                        submitted form), with the data it carries.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": string_property("The action's name, as the component declares it."),
                "surfaceId": string_property("The surface the action comes from."),
                "sourceComponentId": string_property("The component that raised the action."),
                "timestamp": {
                    "type": "string",
                    "format": "date-time",
                    "description": "When the action happened (RFC 3339)."
                },
                "context": {
                    "type": "object",
                    "additionalProperties": true,
                    "description": "The action's context, its data bindings resolved."
                }
            },
            "required": ["name", "surfaceId", "sourceComponentId", "timestamp", "context"],
            "additionalProperties": false
        }
    })
}

/// The definition of the `a2ui_error` tool, through which a renderer reports errors; read a
/// call's arguments with [`error`](super::error).
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::error_tool;
/// use serde_json::json;
///
/// let tool = error_tool();
/// assert_eq!(tool["name"], "a2ui_error");
/// assert_eq!(tool["inputSchema"]["required"], json!(["code", "message", "surfaceId"]));
/// assert_eq!(tool["inputSchema"]["properties"]["path"]["type"], "string");
/// ```
pub fn error_tool() -> Value {
    json!({
        "name": ERROR_TOOL_NAME,
        "title": "A2UI error",
        "description": "Receives an error a renderer met while processing A2UI messages.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "code": string_property("The error code (for example VALIDATION_FAILED)."),
                "message": string_property("What went wrong."),
                "surfaceId": string_property("The surface the error concerns."),
                "path": string_property("A JSON Pointer to the failing part, when known.")
            },
            "required": ["code", "message", "surfaceId"],
            "additionalProperties": false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> Value {
        let mut v = Value::Null;
        for _ in 0..depth {
            v = Value::Array(vec![v]);
        }
        v
    }

    #[test]
    fn deep_messages_are_limit_exceeded_at_their_index() {
        let limits = Limits::default();
        let ok = [json!({}), nested(limits.max_depth - 1)];
        assert!(resource_contents("a2ui://x", &ok, &limits).is_ok());
        let deep = [json!({}), nested(limits.max_depth)];
        let err = resource_contents("a2ui://x", &deep, &limits).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
        assert_eq!(err.location(), "/1");
        let err = tool_result(&deep, &ToolResultOptions::new(), &limits).unwrap_err();
        assert_eq!(err.code(), ErrorCode::LimitExceeded);
    }

    #[test]
    fn custom_input_schema_is_written_as_given() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let t = tool(
            "search",
            &ToolOptions::new().with_input_schema(schema.clone()),
        );
        assert_eq!(t["inputSchema"], schema);
        assert!(t.get("_meta").is_none());
    }

    #[test]
    fn audience_keeps_order_and_may_name_both_roles() {
        let r = tool_result(
            &[],
            &ToolResultOptions::new().with_audience([Role::Assistant, Role::User]),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            r["content"][0]["annotations"]["audience"],
            json!(["assistant", "user"])
        );
        assert_eq!(r["content"][0]["resource"]["text"], "[]");
    }
}
