//! A stream's text cut into messages and each read on its own, as a check and `render` read it.

use crate::error::{Error, ErrorCode};
use serde_json::Value;

/// The message keys this module reads.
pub const MESSAGE_KINDS: [&str; 8] = [
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
    "callFunction",
    "actionResponse",
    "callRendererFunction",
    "agentFunctionResponse",
];

/// The `version` values this module reads (a message without `version` is read as v0.9;
/// `"1.0"` is v1.0, as [`crate::stream::Version::parse`] reads it).
pub const VERSIONS: [&str; 5] = ["v0.9", "v0.9.1", "v0.10", "v1.0", "1.0"];

/// Levels a message nests above the values it carries (message, body, `components`, the
/// component): a message's text may nest this much deeper than the depth limit.
const ENVELOPE_DEPTH: usize = 4;

/// Limits of a stream check.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamOptions {
    /// The largest message, in bytes of JSON text. Larger is `LIMIT_EXCEEDED`, without parsing
    /// it. Default 16 MiB.
    pub max_message_bytes: usize,
}

impl StreamOptions {
    /// Sets [`max_message_bytes`](StreamOptions::max_message_bytes).
    ///
    /// ```
    /// use a2ui_catalog_mcp::messages::StreamOptions;
    /// assert_eq!(StreamOptions::default().with_max_message_bytes(1024).max_message_bytes, 1024);
    /// ```
    pub fn with_max_message_bytes(mut self, bytes: usize) -> StreamOptions {
        self.max_message_bytes = bytes;
        self
    }
}

impl Default for StreamOptions {
    fn default() -> StreamOptions {
        StreamOptions {
            max_message_bytes: 16 << 20,
        }
    }
}

/// A stream's text read as [`check_stream`](super::check_stream) reads it ([`read_stream`]).
#[derive(Debug)]
#[non_exhaustive]
pub struct StreamText {
    /// Each message in the order of the text: its value (a container such as
    /// `{"messages": […]}` is one value), or why it could not be read, each on its own so that
    /// one bad message does not hide the others.
    pub messages: Vec<Result<Value, Error>>,
    /// Why the text could not be read past its last message, when it could not.
    pub broken: Option<Error>,
}

/// Reads a stream's text as [`check_stream`](super::check_stream) does: a UTF-8 byte order mark skipped, a JSON
/// array of messages or JSON values one after another (JSON lines, pretty-printed objects,
/// a container followed by lines), each message parsed on its own, nesting at most
/// `max_depth` levels below its envelope and at most [`StreamOptions::max_message_bytes`]
/// long. What renders a stream reads it so, and so locates its bad messages as a check does.
///
/// ```
/// use a2ui_catalog_mcp::messages::read_stream;
/// let text = "\u{feff}{\"messages\": [{\"deleteSurface\": {\"surfaceId\": \"a\"}}]}\n{bad\n{\"deleteSurface\": {\"surfaceId\": \"b\"}}\n";
/// let read = read_stream(text, 128);
/// assert_eq!(read.messages.len(), 3);
/// assert!(read.messages[0].is_ok() && read.messages[1].is_err() && read.messages[2].is_ok());
/// ```
pub fn read_stream(text: &str, max_depth: usize) -> StreamText {
    let max_bytes = StreamOptions::default().max_message_bytes;
    let cut = crate::stream::split::cut(text);
    StreamText {
        messages: cut
            .messages
            .into_iter()
            .map(|message| read_message(message, max_bytes, max_depth))
            .collect(),
        broken: cut.broken.map(broken),
    }
}

/// One message's text read: at most `max_bytes` long (larger is `LIMIT_EXCEEDED`, not parsed),
/// nesting at most `max_depth` levels below its envelope.
pub(super) fn read_message(text: &str, max_bytes: usize, max_depth: usize) -> Result<Value, Error> {
    if text.len() > max_bytes {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "the message has {} bytes, more than the limit of {max_bytes}",
                text.len()
            ),
        ));
    }
    crate::json::from_str_limited(text, max_depth.saturating_add(ENVELOPE_DEPTH))
}

/// Why a stream cannot be read past its last message.
pub(super) fn broken(why: String) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("the stream cannot be read further: {why}"),
    )
}

/// Whether `text` reads as a stream of A2UI messages rather than one payload: cut as
/// [`check_stream`](super::check_stream) cuts it (a JSON array, or JSON values one after another), at least one of
/// its messages is an object with one of the [`MESSAGE_KINDS`] keys. A payload that is one JSON
/// value with no such key at its top (or, for an array, at the top of an element) is not.
///
/// ```
/// use a2ui_catalog_mcp::messages::is_stream;
/// assert!(is_stream(r#"{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}"#));
/// assert!(is_stream("{\"createSurface\": {\"surfaceId\": \"s\", \"catalogId\": \"c\"}}\n{\"deleteSurface\": {\"surfaceId\": \"s\"}}\n"));
/// assert!(!is_stream(r#"{"@call": "split", "args": {"value": {"@path": "/createSurface"}, "separator": ","}}"#));
/// assert!(!is_stream("[1, 2]"));
/// // The gallery's form.
/// assert!(is_stream(r#"{"name": "n", "description": "d", "messages": [{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}]}"#));
/// ```
pub fn is_stream(text: &str) -> bool {
    let max_depth = crate::json::DEFAULT_MAX_DEPTH + ENVELOPE_DEPTH;
    crate::stream::split::cut(text)
        .messages
        .iter()
        .any(|message| {
            // Only a message that names a kind is parsed.
            MESSAGE_KINDS
                .iter()
                .any(|kind| memchr::memmem::find(message.as_bytes(), kind.as_bytes()).is_some())
                && match crate::json::from_str_limited(message, max_depth) {
                    Ok(Value::Object(map)) if crate::stream::is_container(&map) => map["messages"]
                        .as_array()
                        .is_some_and(|list| list.iter().any(is_message)),
                    Ok(value) => is_message(&value),
                    Err(_) => false,
                }
        })
}

/// Whether a value is an object with one of the [`MESSAGE_KINDS`] keys.
fn is_message(value: &Value) -> bool {
    matches!(value, Value::Object(map) if MESSAGE_KINDS.iter().any(|k| map.contains_key(*k)))
}
