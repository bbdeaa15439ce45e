//! What a message the processor refused, or warned about, says: [`ProcessError`](crate::surfaces::ProcessError), [`ProcessWarning`](crate::surfaces::ProcessWarning).

use crate::error::Error;
use crate::stream::{MessageError, Version};
use crate::syntax::Spelling;
use serde_json::{Map, Value, json};
use std::fmt;

/// The most warnings a processor keeps until the host takes them
/// ([`Processor::take_warnings`](crate::surfaces::Processor::take_warnings)); later ones are dropped.
pub(super) const MAX_WARNINGS: usize = 1024;

/// A warning about a message the processor applied ([`Processor::take_warnings`](crate::surfaces::Processor::take_warnings)): its index
/// among the messages processed, its surface, and the warning, located by a JSON Pointer inside
/// the message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ProcessWarning {
    /// The message's index (0-based, counting every message given to the processor).
    pub index: usize,
    /// The surface it is about.
    pub surface_id: String,
    /// The warning (`OTHER_SPELLING`), its location a pointer inside the message.
    pub warning: crate::error::Warning,
}

/// What the components of one message say of their surface's spelling, and the warnings to give
/// when the message applies.
pub(super) struct Spelled {
    pub(super) spelling: Option<Spelling>,
    pub(super) warnings: Vec<crate::error::Warning>,
    /// Where values of the other spelling show, on a surface that read the plain one.
    pub(super) mixed_at: Option<String>,
}

/// A message the processor refused: its index among the messages processed, and the located
/// problem. Nothing the message carried was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessError {
    /// The message's index (0-based, counting every message given to the processor).
    pub index: usize,
    /// The surface the message is about, when it could be read.
    pub surface_id: Option<String>,
    /// The problem, its pointer inside the message.
    pub error: MessageError,
}

impl ProcessError {
    /// The error as the crate's [`Error`](crate::Error): its category, the message's index, the pointer.
    pub fn to_error(&self) -> Error {
        self.error.to_error().with_message_index(self.index)
    }

    /// The renderer-to-agent `error` message to send the agent (v1.0):
    /// `{"version": "1.0", "error": {"code", "surfaceId", "path", "message"}}`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// let err = p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "x", "value": 1}})).unwrap_err();
    /// assert_eq!(err.to_agent_message()["error"]["path"], "/updateDataModel/path");
    /// assert_eq!(err.to_agent_message()["error"]["code"], "VALIDATION_FAILED");
    /// ```
    pub fn to_agent_message(&self) -> Value {
        let code = self.error.category.code().as_str();
        let mut body = Map::new();
        body.insert("code".into(), code.into());
        body.insert(
            "surfaceId".into(),
            self.surface_id.clone().unwrap_or_default().into(),
        );
        if code == "VALIDATION_FAILED" {
            body.insert("path".into(), self.error.pointer.clone().into());
        }
        body.insert("message".into(), self.error.message.clone().into());
        json!({"version": Version::V1_0.as_str(), "error": body})
    }
}

impl fmt::Display for ProcessError {
    /// `message 2 at /updateComponents/components/0: IntegrityError: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "message {} {}", self.index, self.error)
    }
}

impl std::error::Error for ProcessError {}
