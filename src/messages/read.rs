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
            // Only a message that names a kind is read.
            MESSAGE_KINDS
                .iter()
                .any(|kind| memchr::memmem::find(message.as_bytes(), kind.as_bytes()).is_some())
                && top::names_a_message(message, max_depth)
        })
}

/// What [`is_stream`] reads of a message's text: its top-level names, and those of the
/// elements of a container's `messages`, without building the value. The text is read by
/// `serde_json` exactly as [`from_str_limited`](crate::json::from_str_limited) reads it (the same
/// depth check first, numbers and escapes decoded, so the same texts are refused), into visitors
/// that keep nothing: a check of a file that is a stream reads it again, into values, and
/// building them twice was most of what telling a stream from a payload cost.
mod top {
    use super::MESSAGE_KINDS;
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    /// Whether `text` is one JSON value within `max_depth` that is a message (an object with a
    /// [`MESSAGE_KINDS`] name), or a container (`{"messages": [...]}` with only the container's
    /// names, as [`crate::stream::is_container`] reads it) with a message among its
    /// `messages`.
    pub(super) fn names_a_message(text: &str, max_depth: usize) -> bool {
        if crate::json::nests_deeper_than(text, max_depth) {
            return false;
        }
        let mut de = serde_json::Deserializer::from_str(text);
        // The depth was checked above; the reader nests no deeper than the text.
        de.disable_recursion_limit();
        matches!(
            Read(Level::Top)
                .deserialize(&mut de)
                .and_then(|seen| de.end().map(|()| seen)),
            Ok(Seen { message: true, .. })
        )
    }

    /// Where a value is, which says what is read of it. Every value is read whole, with its
    /// numbers and escapes decoded (`serde_json`'s `IgnoredAny` steps over a value without
    /// decoding them, and would accept texts that a parse refuses); what is kept is [`Seen`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Level {
        /// The message.
        Top,
        /// The `messages` member of the message, if it is a container.
        Messages,
        /// An element of those `messages`.
        Element,
        /// Anything else.
        Skip,
    }

    /// What was seen of a value.
    #[derive(Debug, Default)]
    struct Seen {
        /// At the top, that it is a message or a container with one; for an element, that it
        /// is a message.
        message: bool,
        /// Of `messages`: whether it is an array, and whether one of its elements is a message.
        array: Option<bool>,
    }

    struct Read(Level);

    impl<'de> DeserializeSeed<'de> for Read {
        type Value = Seen;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Seen, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Read {
        type Value = Seen;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen, A::Error> {
            let mut names_kind = false;
            let mut container_names_only = true;
            // The last `messages` member wins, as in a parsed object.
            let mut messages = None;
            while let Some(name) = map.next_key_seed(Name)? {
                names_kind |= name == NameKind::Kind;
                container_names_only &= matches!(name, NameKind::Messages | NameKind::Container);
                let level = match (self.0, name) {
                    (Level::Top, NameKind::Messages) => Level::Messages,
                    _ => Level::Skip,
                };
                let seen = map.next_value_seed(Read(level))?;
                if level == Level::Messages {
                    messages = Some(seen.array);
                }
            }
            let message = match (self.0, messages) {
                (Level::Top, Some(Some(any_message))) if container_names_only => any_message,
                (Level::Top | Level::Element, _) => names_kind,
                _ => false,
            };
            Ok(Seen {
                message,
                array: None,
            })
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seen, A::Error> {
            let level = match self.0 {
                Level::Messages => Level::Element,
                _ => Level::Skip,
            };
            let mut any_message = false;
            while let Some(seen) = seq.next_element_seed(Read(level))? {
                any_message |= seen.message;
            }
            Ok(Seen {
                message: false,
                array: (self.0 == Level::Messages).then_some(any_message),
            })
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Seen, E> {
            Ok(Seen::default())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Seen, E> {
            Ok(Seen::default())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Seen, E> {
            Ok(Seen::default())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Seen, E> {
            Ok(Seen::default())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Seen, E> {
            Ok(Seen::default())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Seen, E> {
            Ok(Seen::default())
        }
    }

    /// What a member's name is to [`is_stream`](super::is_stream).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum NameKind {
        /// One of the [`MESSAGE_KINDS`].
        Kind,
        /// `messages`.
        Messages,
        /// Another name a container may have (`name`, `description`, `$schema`).
        Container,
        Other,
    }

    /// A member's name, decoded and compared, not kept.
    struct Name;

    impl<'de> DeserializeSeed<'de> for Name {
        type Value = NameKind;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<NameKind, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl Visitor<'_> for Name {
        type Value = NameKind;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a member name")
        }
        fn visit_str<E: de::Error>(self, name: &str) -> Result<NameKind, E> {
            Ok(match name {
                "messages" => NameKind::Messages,
                "name" | "description" | "$schema" => NameKind::Container,
                _ if MESSAGE_KINDS.contains(&name) => NameKind::Kind,
                _ => NameKind::Other,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What [`top::names_a_message`] says, the way it was said before it: the text parsed into a
    /// value and the value asked.
    fn parsed_names_a_message(text: &str, max_depth: usize) -> bool {
        let is_message = |value: &Value| matches!(value, Value::Object(map) if MESSAGE_KINDS.iter().any(|k| map.contains_key(*k)));
        match crate::json::from_str_limited(text, max_depth) {
            Ok(Value::Object(map)) if crate::stream::is_container(&map) => map["messages"]
                .as_array()
                .is_some_and(|list| list.iter().any(is_message)),
            Ok(value) => is_message(&value),
            Err(_) => false,
        }
    }

    #[test]
    fn texts_that_parsing_refuses_are_not_messages() {
        for text in [
            r#"{"deleteSurface": {"surfaceId": "\ud800"}}"#,
            r#"{"deleteSurface": {"n": 1e400}}"#,
            r#"{"deleteSurface": {"\ud800": 1}}"#,
            r#"{"deleteSurface": {}} x"#,
            r#"{"deleteSurface": [[[[1]]]]}"#,
        ] {
            assert!(!top::names_a_message(text, 3), "{text}");
            assert!(!parsed_names_a_message(text, 3), "{text}");
        }
        assert!(top::names_a_message(r#"{"deleteSurface": [[1]]}"#, 3));
        // The last `messages` member is the one read, as in a parsed object.
        let last = r#"{"messages": 1, "messages": [{"deleteSurface": {}}]}"#;
        assert!(top::names_a_message(last, 8) && parsed_names_a_message(last, 8));
        let not = r#"{"messages": [{"deleteSurface": {}}], "messages": 1, "deleteSurface": 1}"#;
        assert!(top::names_a_message(not, 8) && parsed_names_a_message(not, 8));
        let other = r#"{"messages": [{"deleteSurface": {}}], "extra": 1}"#;
        assert!(!top::names_a_message(other, 8) && !parsed_names_a_message(other, 8));
    }

    /// Texts made of the names and values that matter to the answer, and of the ones a
    /// parse refuses (lone surrogates, numbers past a double, trailing text).
    fn text() -> impl Strategy<Value = String> {
        let name = prop::sample::select(
            &[
                "\"messages\"",
                "\"name\"",
                "\"$schema\"",
                "\"deleteSurface\"",
                "\"createSurface\"",
                "\"x\"",
                "\"\\ud800\"",
                "\"\\u0064eleteSurface\"",
            ][..],
        )
        .prop_map(str::to_owned);
        let leaf = prop::sample::select(
            &[
                "1",
                "-2.5e3",
                "1e400",
                "null",
                "true",
                "\"s\"",
                "\"\\udc00\"",
            ][..],
        )
        .prop_map(str::to_owned);
        let object = |members: Vec<(String, String)>| {
            let members: Vec<String> = members
                .into_iter()
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            format!("{{{}}}", members.join(","))
        };
        let member_name = name.clone();
        let value = leaf.prop_recursive(4, 40, 4, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec((member_name.clone(), inner), 0..4).prop_map(object),
            ]
        });
        // As often, a value whose members are values: a container of messages or a message
        // when the names fall so.
        let top = prop_oneof![
            value.clone(),
            prop::collection::vec(
                (
                    name,
                    prop_oneof![
                        value.clone(),
                        prop::collection::vec(value, 0..3)
                            .prop_map(|items| format!("[{}]", items.join(",")))
                    ]
                ),
                0..4
            )
            .prop_map(object),
        ];
        (top, prop_oneof![Just(""), Just(" "), Just(" 1"), Just("]")])
            .prop_map(|(value, tail)| format!("{value}{tail}"))
    }

    proptest! {
        // Enough cases that containers with and without other names, and messages inside and
        // outside them, are all met in every run.
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn reading_the_names_answers_as_parsing_the_value(text in text(), depth in 1usize..7) {
            prop_assert_eq!(
                top::names_a_message(&text, depth),
                parsed_names_a_message(&text, depth),
                "{}", text
            );
        }
    }
}
