//! The renderer-to-agent `error` message that tells the agent of a problem
//! ([`agent_error_message`]).

use crate::error::{Error, ErrorCode};
use crate::stream::Version;
use serde_json::{Map, Value, json};

/// The renderer-to-agent `error` message (v1.0) that tells the agent of a problem the processor
/// refused a message with: `{"version": "1.0", "error": {"code", "surfaceId", "path",
/// "message"}}`; `path` (the pointer inside the message) is sent for `VALIDATION_FAILED`, as
/// the protocol asks.
///
/// ```
/// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, agent_error_message};
/// use serde_json::json;
/// let mut p = Processor::new(ProcessorOptions::default());
/// let err = p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "x", "value": 1}})).unwrap_err();
/// let message = agent_error_message(&err);
/// assert_eq!(message["error"]["path"], "/updateDataModel/path");
/// assert_eq!(message["error"]["code"], "VALIDATION_FAILED");
/// assert_eq!(message["error"]["surfaceId"], "s");
/// ```
pub fn agent_error_message(error: &Error) -> Value {
    let code = error.category().code();
    let mut body = Map::new();
    body.insert("code".into(), code.as_str().into());
    body.insert(
        "surfaceId".into(),
        error.surface_id().unwrap_or_default().into(),
    );
    if code == ErrorCode::ValidationFailed {
        body.insert("path".into(), error.location().into());
    }
    body.insert("message".into(), error.message().into());
    json!({"version": Version::V1_0.as_str(), "error": body})
}
