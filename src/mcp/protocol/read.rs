//! The values a client or server reads: the A2UI messages in a tool result, the arguments of
//! `a2ui_action` and `a2ui_error` calls, and the renderer capabilities a client declares.

use super::base64;
use super::mime::is_a2ui_mime_type;
use super::write::{ACTION_TOOL_NAME, ERROR_TOOL_NAME};
use crate::error::{Error, ErrorCode};
use crate::json::{depth_exceeds, from_str_limited, kind_name};
use crate::limits::Limits;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Whether two A2UI version strings name the same version, `"v1.0"` and `"1.0"` being two
/// spellings of one version.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::same_version;
/// assert!(same_version("v1.0", "1.0"));
/// assert!(same_version("1.0", "1.0"));
/// assert!(!same_version("v0.10", "v1.0"));
/// assert!(!same_version("v", ""));
/// ```
pub fn same_version(a: &str, b: &str) -> bool {
    let a = a.strip_prefix('v').unwrap_or(a);
    let b = b.strip_prefix('v').unwrap_or(b);
    !a.is_empty() && a == b
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::ValidationFailed, message)
}

/// Reads the JSON of one A2UI resource item (a `TextResourceContents` or `BlobResourceContents`)
/// into `out`: one message or an array of messages, each an object. `at` is the item's location;
/// `subject` names the resource in messages ("the A2UI resource 'a2ui://board'").
pub(crate) fn read_messages(
    item: &Map<String, Value>,
    at: &str,
    limits: &Limits,
    subject: &str,
    out: &mut Vec<Value>,
) -> Result<(), Error> {
    let (text, at): (Cow<'_, str>, String) =
        if let Some(text) = item.get("text").and_then(Value::as_str) {
            (Cow::Borrowed(text), format!("{at}/text"))
        } else if let Some(blob) = item.get("blob").and_then(Value::as_str) {
            let at = format!("{at}/blob");
            let bytes = base64::decode(blob).map_err(|e| {
                invalid(format!("the blob of {subject} is not base64: {e}"))
                    .with_location(at.as_str())
                    .with_source(e)
            })?;
            let text = String::from_utf8(bytes).map_err(|e| {
                invalid(format!("the blob of {subject} is not UTF-8 text"))
                    .with_location(at.as_str())
                    .with_source(e)
            })?;
            (Cow::Owned(text), at)
        } else {
            return Err(invalid(format!(
                "{subject} has neither a `text` nor a `blob` string"
            ))
            .with_location(at));
        };
    let value = from_str_limited(&text, limits.max_depth).map_err(|e| {
        // Say what is wrong once: the parser's own words, without the generic prefix.
        let code = e.code();
        let message = match std::error::Error::source(&e) {
            Some(cause) if code == ErrorCode::ValidationFailed => {
                format!("{subject} is not valid JSON: {cause}")
            }
            _ => format!("the JSON of {subject}: {}", e.message()),
        };
        let err = Error::new(code, message).with_location(at.as_str());
        match e.into_source() {
            Some(parser_error) => err.with_shared_source(parser_error),
            None => err,
        }
    })?;
    match value {
        Value::Object(_) => out.push(value),
        Value::Array(items) => {
            for (i, message) in items.into_iter().enumerate() {
                if !message.is_object() {
                    return Err(invalid(format!(
                        "A2UI message {i} of {subject} is {}, not an object",
                        kind_name(&message)
                    ))
                    .with_location(at));
                }
                out.push(message);
            }
        }
        other => {
            return Err(invalid(format!(
                "{subject} holds {}, not a message or an array of messages",
                kind_name(&other)
            ))
            .with_location(at));
        }
    }
    Ok(())
}

/// The A2UI messages in a tool call's result (`CallToolResult`): the messages of every embedded
/// resource with an A2UI MIME type ([`is_a2ui_mime_type`]), in order. A resource holds one message
/// or an array of them, as `text` or as a base64 `blob`.
///
/// Other content (text, images, links, resources of other types) is skipped: a `text` block is
/// never read as A2UI, even when it holds A2UI JSON. Errors, all `VALIDATION_FAILED` located at
/// the offending member (`/content/1/resource/text`): a result that is not an object with a
/// `content` array, an A2UI resource that is not JSON (JSON nested deeper than
/// `limits.max_depth` is `LIMIT_EXCEEDED`), a message that is not an object.
///
/// ```
/// use a2ui_catalog_mcp::Limits;
/// use a2ui_catalog_mcp::mcp::protocol::a2ui_messages;
/// use serde_json::json;
///
/// let limits = Limits::default();///
/// let result = json!({"content": [
///     {"type": "text", "text": "{\"version\": \"v1.0\"}"},
///     {"type": "resource", "resource": {"uri": "a2ui://a",
///         "mimeType": "application/json+a2ui", "text": "{\"version\": \"v1.0\", \"n\": 1}"}},
///     {"type": "resource", "resource": {"uri": "file:///x", "mimeType": "text/plain",
///         "text": "not A2UI"}},
///     {"type": "resource", "resource": {"uri": "a2ui://b",
///         "mimeType": "application/a2ui+json; charset=utf-8", "text": "[{\"n\": 2}, {\"n\": 3}]"}}
/// ]});
/// assert_eq!(
///     a2ui_messages(&result, &limits)?,
///     vec![json!({"version": "v1.0", "n": 1}), json!({"n": 2}), json!({"n": 3})]
/// );
///
/// let bad = json!({"content": [{"type": "resource", "resource": {
///     "uri": "a2ui://a", "mimeType": "application/a2ui+json", "text": "[{"}}]});
/// let err = a2ui_messages(&bad, &limits).unwrap_err();
/// assert_eq!(err.location(), "/content/0/resource/text");
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn a2ui_messages(result: &Value, limits: &Limits) -> Result<Vec<Value>, Error> {
    let Some(content) = result.get("content") else {
        return Err(invalid(format!(
            "a CallToolResult must be an object with a `content` array, got {}",
            kind_name(result)
        )));
    };
    let Some(blocks) = content.as_array() else {
        return Err(invalid(format!(
            "a CallToolResult's `content` must be an array, got {}",
            kind_name(content)
        ))
        .with_location("/content"));
    };
    let mut out = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("resource") {
            continue;
        }
        let Some(item) = block.get("resource").and_then(Value::as_object) else {
            continue;
        };
        let is_a2ui = item
            .get("mimeType")
            .and_then(Value::as_str)
            .is_some_and(is_a2ui_mime_type);
        if is_a2ui {
            read_messages(
                item,
                &format!("/content/{i}/resource"),
                limits,
                "the A2UI resource",
                &mut out,
            )?;
        }
    }
    Ok(out)
}

/// What is wrong with a tool call's arguments, collected so one error names every field.
struct Problems {
    tool: &'static str,
    list: Vec<String>,
}

impl Problems {
    fn new(tool: &'static str) -> Problems {
        Problems {
            tool,
            list: Vec::new(),
        }
    }

    fn arguments<'a>(&self, arguments: &'a Value) -> Result<&'a Map<String, Value>, Error> {
        arguments.as_object().ok_or_else(|| {
            invalid(format!(
                "the arguments of {} must be an object, got {}",
                self.tool,
                kind_name(arguments)
            ))
            .with_function(self.tool)
        })
    }

    /// Checks that `field` is present with the wanted kind, noting the problem otherwise.
    fn require(
        &mut self,
        args: &Map<String, Value>,
        field: &str,
        wanted: &str,
        ok: fn(&Value) -> bool,
    ) {
        match args.get(field) {
            None => self.list.push(format!("missing `{field}`")),
            Some(value) if !ok(value) => self.list.push(format!(
                "`{field}` must be {wanted}, got {}",
                kind_name(value)
            )),
            Some(_) => {}
        }
    }

    fn finish(self) -> Result<(), Error> {
        if self.list.is_empty() {
            return Ok(());
        }
        Err(invalid(format!(
            "invalid {} arguments: {}",
            self.tool,
            self.list.join("; ")
        ))
        .with_function(self.tool))
    }
}

const ACTION_FIELDS: [&str; 4] = ["name", "surfaceId", "sourceComponentId", "timestamp"];

/// The arguments of an `a2ui_action` tool call as an A2UI action message of `version` (written
/// as given: `"v1.0"` or `"1.0"`).
///
/// `name`, `surfaceId`, `sourceComponentId` and `timestamp` must be strings and `context` an
/// object. Otherwise the error (`VALIDATION_FAILED`, function `a2ui_action`) names every missing
/// or mistyped field. Other arguments are left out of the message. Arguments nested deeper than
/// `limits.max_depth` are `LIMIT_EXCEEDED`.
///
/// ```
/// use a2ui_catalog_mcp::Limits;
/// use a2ui_catalog_mcp::mcp::protocol::action;
/// use serde_json::json;
///
/// let limits = Limits::default();///
/// let arguments = json!({"name": "go", "surfaceId": "s", "sourceComponentId": "b",
///                        "timestamp": "2026-10-16T12:00:00Z", "context": {}});
/// assert_eq!(
///     action(&arguments, "v1.0", &limits)?,
///     json!({"version": "v1.0", "action": {"name": "go", "surfaceId": "s",
///            "sourceComponentId": "b", "timestamp": "2026-10-16T12:00:00Z", "context": {}}})
/// );
///
/// let err = action(&json!({"name": "go", "context": []}), "v1.0", &limits).unwrap_err();
/// assert_eq!(
///     err.message(),
///     "invalid a2ui_action arguments: missing `surfaceId`; missing `sourceComponentId`; \
///      missing `timestamp`; `context` must be an object, got an array"
/// );
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn action(arguments: &Value, version: &str, limits: &Limits) -> Result<Value, Error> {
    let mut problems = Problems::new(ACTION_TOOL_NAME);
    let args = problems.arguments(arguments)?;
    if depth_exceeds(arguments, limits.max_depth) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "the arguments of {ACTION_TOOL_NAME} nest deeper than the limit of {} levels",
                limits.max_depth
            ),
        )
        .with_function(ACTION_TOOL_NAME));
    }
    for field in ACTION_FIELDS {
        problems.require(args, field, "a string", Value::is_string);
    }
    problems.require(args, "context", "an object", Value::is_object);
    problems.finish()?;
    let mut body = Map::new();
    for field in ACTION_FIELDS.into_iter().chain(["context"]) {
        if let Some(value) = args.get(field) {
            body.insert(field.to_owned(), value.clone());
        }
    }
    let mut message = Map::new();
    message.insert("version".into(), version.into());
    message.insert("action".into(), Value::Object(body));
    Ok(Value::Object(message))
}

/// The arguments of an `a2ui_error` tool call as an A2UI error: `code`, `message` and
/// `surfaceId` (strings, required) and `path` (a string, optional; `null` counts as absent).
///
/// Otherwise the error (`VALIDATION_FAILED`, function `a2ui_error`) names every missing or
/// mistyped field. Other arguments are left out.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::error;
/// use serde_json::json;
///
/// let arguments = json!({"code": "INVALID_JSON", "message": "Failed to parse A2UI payload.",
///                        "surfaceId": "default"});
/// assert_eq!(
///     error(&arguments)?,
///     json!({"code": "INVALID_JSON", "message": "Failed to parse A2UI payload.",
///            "surfaceId": "default"})
/// );
///
/// let err = error(&json!({"code": 7, "surfaceId": "s", "path": 1})).unwrap_err();
/// assert_eq!(
///     err.message(),
///     "invalid a2ui_error arguments: `code` must be a string, got a number; \
///      missing `message`; `path` must be a string, got a number"
/// );
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub fn error(arguments: &Value) -> Result<Value, Error> {
    let mut problems = Problems::new(ERROR_TOOL_NAME);
    let args = problems.arguments(arguments)?;
    for field in ["code", "message", "surfaceId"] {
        problems.require(args, field, "a string", Value::is_string);
    }
    let path = args.get("path").filter(|p| !p.is_null());
    if let Some(path) = path.filter(|p| !p.is_string()) {
        problems
            .list
            .push(format!("`path` must be a string, got {}", kind_name(path)));
    }
    problems.finish()?;
    let mut out = Map::new();
    for field in ["code", "message", "surfaceId"] {
        if let Some(value) = args.get(field) {
            out.insert(field.to_owned(), value.clone());
        }
    }
    if let Some(path) = path {
        out.insert("path".into(), path.clone());
    }
    Ok(Value::Object(out))
}

/// The renderer capabilities a client declared, keyed by A2UI version (see
/// [`renderer_capabilities`]). It borrows from the params it was read from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RendererCapabilities<'a> {
    by_version: &'a Map<String, Value>,
}

impl<'a> RendererCapabilities<'a> {
    /// The capabilities for `version`, whichever spelling (`"v1.0"` or `"1.0"`) the client used
    /// and the caller asks with. An exact key wins over another spelling.
    pub fn get(&self, version: &str) -> Option<&'a Value> {
        self.by_version.get(version).or_else(|| {
            self.by_version
                .iter()
                .find(|(key, _)| same_version(key, version))
                .map(|(_, value)| value)
        })
    }

    /// The versions, as the client spelled them, in the client's order.
    pub fn versions(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.by_version.keys().map(String::as_str)
    }

    /// The whole object, keyed by version.
    pub fn as_map(&self) -> &'a Map<String, Value> {
        self.by_version
    }
}

fn client_capabilities(holder: Option<&Value>) -> Option<&Map<String, Value>> {
    holder?.get("a2ui")?.get("clientCapabilities")?.as_object()
}

/// The renderer capabilities in the params of an `initialize` request
/// (`capabilities.a2ui.clientCapabilities`, or `capabilities.experimental.a2ui.…`, where MCP
/// puts non-standard capabilities) or of a tool call (`_meta.a2ui.clientCapabilities`), keyed by
/// protocol version; `None` when they carry none (or not as an object).
///
/// A tool call's `_meta` wins over `capabilities` when a value has both. A whole JSON-RPC request
/// (with `jsonrpc` and `params`) is read through its `params`.
///
/// ```
/// use a2ui_catalog_mcp::mcp::protocol::renderer_capabilities;
/// use serde_json::json;
///
/// let initialize = json!({
///     "protocolVersion": "2025-11-25",
///     "capabilities": {"a2ui": {"clientCapabilities": {
///         "v1.0": {"supportedCatalogIds": ["https://example.com/catalog.json"]}}}}
/// });
/// let caps = renderer_capabilities(&initialize).unwrap();
/// assert_eq!(
///     caps.get("1.0"),
///     Some(&json!({"supportedCatalogIds": ["https://example.com/catalog.json"]}))
/// );
/// assert_eq!(caps.versions().collect::<Vec<_>>(), ["v1.0"]);
///
/// let call = json!({"name": "report", "arguments": {},
///                   "_meta": {"a2ui": {"clientCapabilities": {"1.0": {}}}}});
/// assert_eq!(renderer_capabilities(&call).unwrap().as_map(), json!({"1.0": {}}).as_object().unwrap());
/// assert!(renderer_capabilities(&json!({"name": "report"})).is_none());
/// ```
pub fn renderer_capabilities(params: &Value) -> Option<RendererCapabilities<'_>> {
    let params = match params.get("params") {
        Some(inner) if params.get("jsonrpc").is_some() => inner,
        _ => params,
    };
    let capabilities = params.get("capabilities");
    let found = client_capabilities(params.get("_meta"))
        .or_else(|| client_capabilities(capabilities))
        .or_else(|| client_capabilities(capabilities.and_then(|c| c.get("experimental"))))?;
    Some(RendererCapabilities { by_version: found })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn version_spellings() {
        assert!(same_version("v1.0", "v1.0"));
        assert!(same_version("1.0", "v1.0"));
        assert!(!same_version("", ""));
        assert!(!same_version("vv1.0", "1.0"));
    }

    #[test]
    fn capabilities_prefer_exact_key_then_other_spelling() {
        let params = json!({"capabilities": {"a2ui": {"clientCapabilities":
            {"1.0": {"a": 1}, "v1.0": {"b": 2}, "v0.10": {}}}}});
        let caps = renderer_capabilities(&params).unwrap();
        assert_eq!(caps.get("v1.0"), Some(&json!({"b": 2})));
        assert_eq!(caps.get("1.0"), Some(&json!({"a": 1})));
        assert_eq!(caps.get("0.10"), Some(&json!({})));
        assert_eq!(caps.get("2.0"), None);
        assert_eq!(caps.as_map().len(), 3);
    }

    #[test]
    fn capabilities_from_experimental_request_and_meta_first() {
        let exp = json!({"capabilities": {"experimental": {"a2ui": {"clientCapabilities":
            {"v1.0": {}}}}}});
        assert!(renderer_capabilities(&exp).is_some());
        let request = json!({"jsonrpc": "2.0", "method": "initialize", "id": 1,
            "params": {"capabilities": {"a2ui": {"clientCapabilities": {"v1.0": {"x": 1}}}}}});
        assert_eq!(
            renderer_capabilities(&request).unwrap().get("v1.0"),
            Some(&json!({"x": 1}))
        );
        let both = json!({"_meta": {"a2ui": {"clientCapabilities": {"v1.0": {"m": 1}}}},
            "capabilities": {"a2ui": {"clientCapabilities": {"v1.0": {"c": 1}}}}});
        assert_eq!(
            renderer_capabilities(&both).unwrap().get("1.0"),
            Some(&json!({"m": 1}))
        );
        let not_object = json!({"_meta": {"a2ui": {"clientCapabilities": ["v1.0"]}}});
        assert!(renderer_capabilities(&not_object).is_none());
        assert!(renderer_capabilities(&json!(null)).is_none());
    }
}
