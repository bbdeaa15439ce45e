//! A2UI message streams: what an agent sends, checked message by message.
//!
//! A stream is a JSON array of messages, or messages one after another: JSON lines (one message
//! a line) when the first message fits on its line, else JSON values separated by whitespace
//! (pretty-printed objects). In JSON lines, a line that is not JSON is one bad message and the
//! next line is read. Messages of A2UI v0.9 (with or without
//! `"version"`), v0.10 and v1.0 are read:
//!
//! | message | what is checked |
//! |---|---|
//! | `createSurface` | `surfaceId` (new, or deleted before); `catalogId`, the surface's default catalog, registered in the [`Environment`] (required before v1.0; without it, the environment's default catalog); v1.0's inline `components` as in `updateComponents` |
//! | `updateComponents` | the surface was created; every component has a string `id` and `component`; every dynamic value in its properties, `checks` and actions compiles with the surface's catalogs (for a surface that is not known, only the calls that name their `catalogId`, and the bindings) |
//! | `updateDataModel` | the surface was created; `path`, when given, is a JSON Pointer |
//! | `deleteSurface` | the surface was created |
//! | `callFunction` | `functionCallId` is given; the call (`{"@call": …, "args": …}`, or `{"call": …}` in the plain spelling, with v0.10's `callableFrom` set aside) compiles; it belongs to no surface, so without its own `catalogId` the environment's default catalog is used |
//! | `actionResponse` | nothing more |
//!
//! A component is compiled as one payload through [`Environment::compile`], with the surface's
//! catalog as default catalog: every binding and call in it, however deep, is found, and a call
//! with its own `catalogId` uses that catalog. When the surface's catalog is not registered,
//! that is reported once, at its `createSurface`, not at every call relying on it. Data (`updateDataModel`'s `value`,
//! `createSurface`'s `dataModel`) is not compiled: what it holds is data.
//!
//! Bindings and calls are read in the environment's [`Spelling`](crate::Spelling): in the `@`
//! spelling a value written in the plain one (`{"path": …}`, `{"call": …}`, as the A2UI
//! specification writes them) compiles as a literal and is reported as a warning
//! ([`StreamWarning`], in [`Report::warnings`]), with the `@` form to write; a `callFunction`
//! whose body is such a call too. v1.0 messages are read in both spellings, one per surface,
//! as the processor reads them ([`Surface::spelling`](crate::surfaces::Surface::spelling)): a
//! surface whose values are written with `@` reads a plain-shaped object as a literal (warned
//! at its location), a surface written only in the plain spelling reads it as a binding or a
//! call, and a plain surface given `@` values is warned about once. Warnings never make the
//! check fail.
//!
//! Every problem is reported with its location: the message's index in the stream and a JSON
//! Pointer inside the message ([`Problem`]). A message that is not A2UI (no known message key,
//! a missing `surfaceId`, an update for a surface never created) is a problem of its own; one
//! bad message never hides the problems of the others, and one message that cannot be read
//! (malformed, larger than [`StreamOptions::max_message_bytes`], nested deeper than the
//! environment's depth limit allows) is one `VALIDATION_FAILED` or `LIMIT_EXCEEDED` problem.
//!
//! ```
//! use a2ui_catalog_mcp::{Environment, ErrorCode, messages};
//!
//! let env = Environment::new();
//! let stream = r#"[
//!   {"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json"}},
//!   {"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
//!     {"id": "root", "component": "Text", "text": {"@call": "split", "args": {"value": {"@path": "/csv"}}}}
//!   ]}},
//!   {"version": "v1.0", "updateDataModel": {"surfaceId": "t", "value": {}}}
//! ]"#;
//! let report = messages::check_stream(&env, stream);
//! assert_eq!(report.message_count(), 3);
//! let problems: Vec<String> = report.problems().iter().map(|p| p.to_string()).collect();
//! assert_eq!(problems, [
//!     "message 1 at /updateComponents/components/0/text: VALIDATION_FAILED in split: 'split' requires the argument 'separator'",
//!     "message 2 at /updateDataModel/surfaceId: VALIDATION_FAILED: surface 't' was never created (no createSurface before this message)",
//! ]);
//! ```

use crate::env::{CompileScope, Environment};
use crate::error::{Error, ErrorCode, MissingCatalog, Phase, Warning};
use crate::json::kind_name;
use crate::path::JsonPointer;
use crate::syntax::{Form, PlainShape, form, plain_shape};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::fmt;

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

/// The default catalog of the components of an update whose surface is not known (never
/// created, deleted, no `surfaceId`): no environment has it, so the calls that rely on it are
/// recognised and not reported (the update's own problem says why).
const UNKNOWN_SURFACE_CATALOG: &str = "urn:a2ui-catalog-mcp:catalog-of-an-unknown-surface";

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

/// One problem of a stream: where it is (the message's index, a JSON Pointer inside the
/// message) and what it is (an [`Error`], whose location is that pointer). A view of that
/// [`Error`]: in a [`Report`], its [`message_index`](Error::message_index) is
/// [`index`](Problem::index) and its [`category`](Error::category) the A2UI suite's.
pub struct Problem {
    index: Option<usize>,
    error: Error,
}

impl Problem {
    /// The index of the message in the stream (0-based); `None` for a problem of the stream as
    /// a whole (an array of messages that is not closed).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// A JSON Pointer inside the message (`""`: the message itself).
    pub fn pointer(&self) -> &str {
        self.error.location()
    }

    /// The code.
    pub fn code(&self) -> ErrorCode {
        self.error.code()
    }

    /// The catalog function involved, when there is one.
    pub fn function(&self) -> Option<&str> {
        self.error.function()
    }

    /// What is wrong, without code or location.
    pub fn message(&self) -> &str {
        self.error.message()
    }

    /// The whole error.
    pub fn error(&self) -> &Error {
        &self.error
    }

    /// The error, its location being the pointer inside the message, its
    /// [`message_index`](Error::message_index) the message's index (in a [`Report`]).
    pub fn into_error(self) -> Error {
        self.error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "message {i}")?,
            None => f.write_str("stream")?,
        }
        let at = self.pointer();
        write!(
            f,
            " at {}: {}",
            if at.is_empty() { "/" } else { at },
            self.code()
        )?;
        if let Some(function) = self.function() {
            write!(f, " in {function}")?;
        }
        write!(f, ": {}", self.message())
    }
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problem")
            .field("index", &self.index)
            .field("error", &self.error)
            .finish()
    }
}

/// A warning of a stream: where it is (the message's index, a JSON Pointer inside the message)
/// and what it is (a [`Warning`], whose location is that pointer). Warnings never make a stream
/// fail its check.
#[derive(Debug, Clone)]
pub struct StreamWarning {
    index: usize,
    warning: Warning,
}

impl StreamWarning {
    /// The index of the message in the stream (0-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// A JSON Pointer inside the message.
    pub fn pointer(&self) -> &str {
        self.warning.location()
    }

    /// What looks wrong and what to do.
    pub fn message(&self) -> &str {
        self.warning.message()
    }

    /// The whole warning.
    pub fn warning(&self) -> &Warning {
        &self.warning
    }
}

impl fmt::Display for StreamWarning {
    /// `message 1 at /updateComponents/components/0/text: warning OTHER_SPELLING: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.pointer();
        write!(
            f,
            "message {} at {}: warning {}: {}",
            self.index,
            if at.is_empty() { "/" } else { at },
            self.warning.code(),
            self.message()
        )
    }
}

/// What a stream check found.
#[derive(Debug, Default)]
pub struct Report {
    messages: usize,
    problems: Vec<Problem>,
    warnings: Vec<StreamWarning>,
}

impl Report {
    /// How many messages the stream has (readable or not).
    pub fn message_count(&self) -> usize {
        self.messages
    }

    /// Every problem, in stream order.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Every warning, in stream order.
    pub fn warnings(&self) -> &[StreamWarning] {
        &self.warnings
    }

    /// Whether no problem was found (there may be warnings).
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, owned.
    pub fn into_problems(self) -> Vec<Problem> {
        self.problems
    }
}

impl fmt::Display for Report {
    /// One problem a line, one warning a line, then `N messages, M problems` (and `, K
    /// warnings` when there are some).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for problem in &self.problems {
            writeln!(f, "{problem}")?;
        }
        for warning in &self.warnings {
            writeln!(f, "{warning}")?;
        }
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} message{}, {} problem{}",
            self.messages,
            plural(self.messages),
            self.problems.len(),
            plural(self.problems.len())
        )?;
        if !self.warnings.is_empty() {
            write!(
                f,
                ", {} warning{}",
                self.warnings.len(),
                plural(self.warnings.len())
            )?;
        }
        Ok(())
    }
}

/// Checks a whole stream (a JSON array of messages, or JSON values one after another) with
/// `env`'s catalogs and limits.
pub fn check_stream(env: &Environment, text: &str) -> Report {
    let mut checker = StreamChecker::new(env);
    checker.check_stream(text);
    checker.finish()
}

/// Checks a whole stream as [`check_stream`] does, its components also checked against the
/// component schemas of the catalog `documents` (see [`StreamChecker::add_catalog_document`]),
/// in strict mode when `strict` (see [`StreamChecker::strict`]).
pub fn check_stream_with(
    env: &Environment,
    documents: &[Value],
    strict: bool,
    text: &str,
) -> Result<Report, Error> {
    let mut checker = StreamChecker::new(env).strict(strict);
    for document in documents {
        checker.add_catalog_document(document)?;
    }
    checker.check_stream(text);
    Ok(checker.finish())
}

/// A stream's text read as [`check_stream`] reads it ([`read_stream`]).
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

/// Reads a stream's text as [`check_stream`] does: a UTF-8 byte order mark skipped, a JSON
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
    let max_depth = max_depth.saturating_add(ENVELOPE_DEPTH);
    let cut = crate::stream::split::cut(text);
    StreamText {
        messages: cut
            .messages
            .into_iter()
            .map(|message| {
                if message.len() > max_bytes {
                    return Err(Error::new(
                        ErrorCode::LimitExceeded,
                        format!(
                            "the message has {} bytes, more than the limit of {max_bytes}",
                            message.len()
                        ),
                    ));
                }
                crate::json::from_str_limited(message, max_depth)
            })
            .collect(),
        broken: cut.broken.map(|why| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("the stream cannot be read further: {why}"),
            )
        }),
    }
}

/// Whether `text` reads as a stream of A2UI messages rather than one payload: cut as
/// [`check_stream`] cuts it (a JSON array, or JSON values one after another), at least one of
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

/// Checks messages already parsed.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, messages};
/// use serde_json::json;
///
/// let report = messages::check_messages(&Environment::new(), &[json!({"beginRendering": {"surfaceId": "s"}})]);
/// assert_eq!(report.problems()[0].message(), "not an A2UI message: it has none of the keys createSurface, updateComponents, updateDataModel, deleteSurface, callFunction, actionResponse, callRendererFunction, agentFunctionResponse (its keys: beginRendering)");
/// ```
pub fn check_messages<'m>(
    env: &Environment,
    messages: impl IntoIterator<Item = &'m Value>,
) -> Report {
    let mut checker = StreamChecker::new(env);
    for message in messages {
        checker.check_value(message);
    }
    checker.finish()
}

/// A surface the stream created.
struct Surface {
    /// Its default catalog.
    catalog: String,
    /// The spelling its v1.0 values are read in, once a binding or a call decided it (the
    /// processor's rule, `surfaces::Surface::spelling`).
    spelling: Option<crate::Spelling>,
    /// Whether a plain surface was warned about `@` values.
    spelling_warned: bool,
}

/// Checks the messages of one stream in order, remembering the surfaces they create.
///
/// Feed it messages as they arrive ([`check_value`](StreamChecker::check_value),
/// [`check_text`](StreamChecker::check_text)) or a whole stream
/// ([`check_stream`](StreamChecker::check_stream)); each message gets the next index.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, messages::StreamChecker};
/// use serde_json::json;
///
/// let env = Environment::new();
/// let mut checker = StreamChecker::new(&env);
/// checker.check_value(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s"}}));
/// checker.check_text(r#"{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}"#);
/// checker.check_text(r#"{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}"#);
/// let report = checker.finish();
/// assert_eq!(report.problems().len(), 1);
/// assert_eq!(report.problems()[0].index(), Some(2));
/// assert_eq!(report.problems()[0].message(), "surface 's' was deleted (by an earlier deleteSurface)");
/// ```
pub struct StreamChecker<'e> {
    env: &'e Environment,
    options: StreamOptions,
    surfaces: HashMap<String, Surface>,
    deleted: HashSet<String>,
    /// Whether the message being checked is v1.0, whose values are read in both spellings.
    both_spellings: bool,
    /// The spelling the components being checked are read in, when their surface decided it.
    reading: Option<crate::Spelling>,
    /// The first spelling v1.0 components of the stream used (`true`: `@`) for envelope keys
    /// and for dynamic values, each with its message index and pointer; a component in the
    /// other gets one warning per stream and kind.
    first_spelling: [Option<(bool, usize, String)>; 2],
    mixed_warned: [bool; 2],
    /// The first spelling of v1.0's `version` the stream used (`"1.0"` or `"v1.0"`) and its
    /// message index; the other spelling gets one warning per stream.
    first_v1: Option<(String, usize)>,
    v1_mixed_warned: bool,
    /// The surfaces as a permissive processor builds them: component schemas and the graph.
    processor: crate::surfaces::Processor,
    /// The message index at which each component of each surface was last defined, and its
    /// pointer there.
    defined_at: HashMap<(String, String), (usize, String)>,
    messages: usize,
    problems: Vec<Problem>,
    warnings: Vec<StreamWarning>,
}

impl std::fmt::Debug for StreamChecker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamChecker")
            .field("options", &self.options)
            .field("surfaces", &self.surfaces.keys().collect::<Vec<_>>())
            .field("messages", &self.messages)
            .finish_non_exhaustive()
    }
}

impl<'e> StreamChecker<'e> {
    /// A checker with `env`'s catalogs and limits, and the default [`StreamOptions`]. A
    /// surface's default catalog comes from its `createSurface`; the environment's default
    /// catalog is used when the message names none, and for `callFunction`.
    pub fn new(env: &'e Environment) -> StreamChecker<'e> {
        StreamChecker {
            env,
            options: StreamOptions::default(),
            surfaces: HashMap::new(),
            deleted: HashSet::new(),
            both_spellings: false,
            first_spelling: [None, None],
            mixed_warned: [false, false],
            first_v1: None,
            reading: None,
            v1_mixed_warned: false,
            processor: crate::surfaces::Processor::with_environment(
                env.clone(),
                crate::surfaces::ProcessorOptions::default()
                    .accept_unregistered_catalogs(true)
                    .check_calls(false),
            ),
            defined_at: HashMap::new(),
            messages: 0,
            problems: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Sets the options.
    pub fn with_options(mut self, options: StreamOptions) -> StreamChecker<'e> {
        self.options = options;
        self
    }

    /// Strict mode (`check --strict`): every message is judged as the suite's `strictMode`
    /// judges it, so a dangling child, an orphan or a missing `root` left by any message is a
    /// problem of that message. Call it before the first message and before
    /// [`add_catalog_document`](StreamChecker::add_catalog_document).
    pub fn strict(mut self, strict: bool) -> StreamChecker<'e> {
        self.processor = crate::surfaces::Processor::with_environment(
            self.env.clone(),
            crate::surfaces::ProcessorOptions::default()
                .accept_unregistered_catalogs(true)
                .check_calls(false)
                .strict(strict),
        );
        self
    }

    /// The problems found so far.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The warnings found so far.
    pub fn warnings(&self) -> &[StreamWarning] {
        &self.warnings
    }

    /// Registers a catalog document's component schemas (and declares its functions), so that
    /// components are checked against them: unknown type or property, wrong literal type,
    /// missing required property.
    pub fn add_catalog_document(&mut self, document: &Value) -> Result<(), Error> {
        self.processor.register_catalog(document).map(drop)
    }

    /// The report. The surfaces are judged as the stream leaves them: a missing `root` and a
    /// child never defined are problems, a component not reachable from `root` a warning (an
    /// incremental update leaves the placeholders it replaced unreachable).
    pub fn finish(mut self) -> Report {
        let mut end = Vec::new();
        for surface in self.processor.surfaces() {
            let graph = surface.graph_problems();
            let id = surface.id().to_owned();
            let at = |component: &str| {
                self.defined_at
                    .get(&(id.clone(), component.to_owned()))
                    .cloned()
            };
            // A surface given no component has nothing to judge.
            let first = surface.components().next();
            if !graph.has_root
                && let Some(first) = first
            {
                let index = at(&first.id).map(|(i, _)| i);
                end.push((
                    false,
                    index,
                    String::new(),
                    format!("surface '{id}' has no component 'root' at the end of the stream"),
                ));
            }
            for (component, slot, child) in graph.dangling {
                let (index, pointer) = at(&component).unzip();
                let pointer =
                    pointer.map(|p| format!("{p}/{}", crate::surfaces::slot_pointer(&slot)));
                end.push((
                    false,
                    index,
                    pointer.unwrap_or_default(),
                    format!("component '{component}' names the child '{child}' ({slot}), which is never defined in surface '{id}'"),
                ));
            }
            for component in graph.orphans {
                let (index, pointer) = at(&component).unzip();
                end.push((
                    true,
                    index,
                    pointer.unwrap_or_default(),
                    format!("component '{component}' of surface '{id}' is not reachable from 'root' at the end of the stream"),
                ));
            }
        }
        for (warning, index, pointer, message) in end {
            if warning {
                self.warnings.push(StreamWarning {
                    index: index.unwrap_or(0),
                    warning: Warning::new(crate::error::WarningCode::UnreachableComponent, message)
                        .with_location(pointer),
                });
            } else {
                self.problems.push(Problem {
                    index,
                    error: Error::new(ErrorCode::ValidationFailed, message)
                        .with_location(pointer)
                        .with_phase(Phase::Compile),
                });
            }
        }
        // Each problem's error carries its message's index too, so that it can leave the report
        // on its own (`Problem::into_error`).
        for problem in &mut self.problems {
            if let Some(index) = problem.index {
                problem.error.set_message_index(index);
            }
        }
        Report {
            messages: self.messages,
            problems: self.problems,
            warnings: self.warnings,
        }
    }

    /// Checks a whole stream: a JSON array of messages, or JSON values one after another.
    pub fn check_stream(&mut self, text: &str) {
        let cut = crate::stream::split::cut(text);
        for message in cut.messages {
            self.check_text(message);
        }
        if let Some(why) = cut.broken {
            self.problems.push(Problem {
                index: None,
                error: Error::new(
                    ErrorCode::ValidationFailed,
                    format!("the stream cannot be read further: {why}"),
                ),
            });
        }
    }

    /// Checks one message given as JSON text.
    pub fn check_text(&mut self, text: &str) {
        let index = self.messages;
        if text.len() > self.options.max_message_bytes {
            self.messages += 1;
            self.problem(
                index,
                ErrorCode::LimitExceeded,
                String::new(),
                format!(
                    "the message has {} bytes, more than the limit of {}",
                    text.len(),
                    self.options.max_message_bytes
                ),
            );
            return;
        }
        let max_depth = self.env.limits().max_depth.saturating_add(ENVELOPE_DEPTH);
        match crate::json::from_str_limited(text, max_depth) {
            Ok(message) => self.check_value(&message),
            Err(e) => {
                self.messages += 1;
                self.problems.push(Problem {
                    index: Some(index),
                    error: e.with_phase(Phase::Compile),
                });
            }
        }
    }

    /// Checks one message.
    pub fn check_value(&mut self, message: &Value) {
        // `{"messages": [...]}` and the gallery's `{name, description, messages}` are streams.
        if let Value::Object(map) = message
            && crate::stream::is_container(map)
        {
            for (_, inner) in crate::stream::messages_of(message) {
                self.check_one(inner);
            }
            return;
        }
        self.check_one(message);
    }

    fn check_one(&mut self, message: &Value) {
        let index = self.messages;
        let before = self.problems.len();
        self.check_envelope(message);
        self.process(index, message, before);
    }

    /// Runs the message through the permissive processor: what it finds beyond what the
    /// checks above found (component schemas, duplicate ids, cycles) is a problem too.
    fn process(&mut self, index: usize, message: &Value, before: usize) {
        // The processor would run an agent's call (and match responses to calls): a checker
        // only reads them, and the checks above judge them.
        if let Value::Object(map) = message
            && [
                "callRendererFunction",
                "callFunction",
                "agentFunctionResponse",
                "actionResponse",
            ]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            return;
        }
        let result = self.processor.process(message);
        match result {
            Ok(crate::surfaces::Applied::ComponentsUpdated { surface_id, .. })
            | Ok(crate::surfaces::Applied::SurfaceCreated(surface_id)) => {
                let prefix = if message.get("createSurface").is_some() {
                    "/createSurface/components"
                } else {
                    "/updateComponents/components"
                };
                let body = message
                    .get("createSurface")
                    .or(message.get("updateComponents"));
                if let Some(Value::Array(list)) = body.and_then(|b| b.get("components")) {
                    for (i, c) in list.iter().enumerate() {
                        if let Some(id) = c.get("id").and_then(Value::as_str) {
                            self.defined_at.insert(
                                (surface_id.clone(), id.to_owned()),
                                (index, format!("{prefix}/{i}")),
                            );
                        }
                    }
                }
            }
            Ok(_) => {}
            // The checks above own the surfaces' lifecycle (a surface they let through may be
            // one the processor refused): its surfaceId problems are theirs.
            Err(e) if e.error.pointer.ends_with("/surfaceId") => {}
            Err(e) => {
                // The processor stops at the first problem: every component problem of the
                // message is asked for, the first one kept when it is of another kind.
                let mut found = self.processor.component_problems(message);
                if !found.contains(&e.error) {
                    found.insert(0, e.error);
                }
                // Judged against what the checks above found, not against one another; looked
                // up, not scanned, so that a message of many problems stays linear.
                let mine = Located::new(
                    self.problems[before..]
                        .iter()
                        .filter(|p| p.index == Some(index))
                        .map(Problem::pointer),
                );
                let theirs: Vec<Problem> = found
                    .into_iter()
                    .filter(|error| !mine.related(&error.pointer))
                    .map(|error| Problem {
                        index: Some(index),
                        error: error.to_error().with_phase(Phase::Compile),
                    })
                    .collect();
                self.problems.extend(theirs);
            }
        }
    }

    fn check_envelope(&mut self, message: &Value) {
        let index = self.messages;
        self.messages += 1;
        let Value::Object(message) = message else {
            self.problem(
                index,
                ErrorCode::ValidationFailed,
                String::new(),
                format!(
                    "an A2UI message is a JSON object, got {}",
                    kind_name(message)
                ),
            );
            return;
        };
        let version = match message.get("version") {
            None => None,
            Some(Value::String(v)) => {
                if crate::stream::Version::parse(v).is_none() {
                    self.problem(
                        index,
                        ErrorCode::ValidationFailed,
                        "/version".into(),
                        format!(
                            "unknown A2UI version '{v}' (this checker reads {})",
                            VERSIONS.join(", ")
                        ),
                    );
                }
                crate::stream::Version::parse(v).map(crate::stream::Version::as_str)
            }
            Some(other) => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    "/version".into(),
                    format!("'version' must be a string, got {}", kind_name(other)),
                );
                None
            }
        };
        // `"1.0"` (the published schemas since November 2026) and `"v1.0"` (September's, the
        // gallery's) are one version; a stream that writes both is most likely two generators'
        // output pasted together: one warning, at the first message of the other spelling.
        if let Some(Value::String(v)) = message.get("version")
            && matches!(v.as_str(), "1.0" | "v1.0")
        {
            match &self.first_v1 {
                None => self.first_v1 = Some((v.clone(), index)),
                Some((first, at)) if first != v && !self.v1_mixed_warned => {
                    let message = format!(
                        "this stream writes v1.0's version both as \"{first}\" (message {at}) and as \"{v}\"; both are read, but the published schemas say \"1.0\""
                    );
                    self.warnings.push(StreamWarning {
                        index,
                        warning: Warning::new(crate::error::WarningCode::OtherSpelling, message)
                            .with_location("/version")
                            .with_suggestion("\"1.0\""),
                    });
                    self.v1_mixed_warned = true;
                }
                Some(_) => {}
            }
        }
        // v1.0 values are read in both spellings (the gallery is plain, the suite's v1.0 files
        // use `@`).
        self.both_spellings = version == Some(crate::stream::Version::V1_0.as_str());
        let kinds: Vec<&str> = MESSAGE_KINDS
            .iter()
            .copied()
            .filter(|k| message.contains_key(*k))
            .collect();
        let kind = match kinds.as_slice() {
            [kind] => *kind,
            [] => {
                let keys: Vec<&str> = message.keys().map(String::as_str).collect();
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    String::new(),
                    format!(
                        "not an A2UI message: it has none of the keys {} (its keys: {})",
                        MESSAGE_KINDS.join(", "),
                        keys.join(", ")
                    ),
                );
                return;
            }
            several => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    String::new(),
                    format!(
                        "a message carries one of {}, this one has {}",
                        MESSAGE_KINDS.join(", "),
                        several.join(" and ")
                    ),
                );
                return;
            }
        };
        let at = format!("/{kind}");
        let body = match &message[kind] {
            Value::Object(body) => body,
            other => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    at,
                    format!("'{kind}' must be an object, got {}", kind_name(other)),
                );
                return;
            }
        };
        match kind {
            "createSurface" => self.create_surface(index, version, body),
            "updateComponents" => {
                // Components of a surface that is not known are still checked; calls that rely
                // on its (unknown) default catalog are not reported again.
                let catalog = self
                    .existing_surface(index, kind, body)
                    .unwrap_or_else(|| UNKNOWN_SURFACE_CATALOG.to_owned());
                match body.get("components") {
                    None => self.problem(
                        index,
                        ErrorCode::ValidationFailed,
                        at,
                        "updateComponents needs 'components'".into(),
                    ),
                    Some(components) => self.components(
                        index,
                        &format!("{at}/components"),
                        components,
                        Some(&catalog),
                        body.get("surfaceId").and_then(Value::as_str),
                    ),
                }
            }
            "updateDataModel" => {
                self.existing_surface(index, kind, body);
                match body.get("path") {
                    None => {}
                    Some(Value::String(path)) => {
                        let max_depth = self.env.limits().max_depth;
                        match JsonPointer::parse_limited(path, max_depth) {
                            Err(e) => self.problem(
                                index,
                                e.code(),
                                format!("{at}/path"),
                                e.message().to_owned(),
                            ),
                            // What the write would make may not nest deeper than the limit.
                            Ok(pointer) => {
                                let room = max_depth - pointer.tokens().len();
                                if let Some(value) = body.get("value")
                                    && crate::json::depth_exceeds(value, room)
                                {
                                    self.problem(
                                        index,
                                        ErrorCode::LimitExceeded,
                                        format!("{at}/value"),
                                        format!(
                                            "writing this value at '{pointer}' would nest deeper \
                                             than the limit of {max_depth} levels"
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    Some(other) => self.problem(
                        index,
                        ErrorCode::ValidationFailed,
                        format!("{at}/path"),
                        format!("'path' must be a string, got {}", kind_name(other)),
                    ),
                }
            }
            "deleteSurface" => {
                if self.existing_surface(index, kind, body).is_some()
                    && let Some(Value::String(id)) = body.get("surfaceId")
                {
                    self.surfaces.remove(id);
                    self.deleted.insert(id.clone());
                }
            }
            "callFunction" | "callRendererFunction" => {
                self.call_function(index, kind, message, body)
            }
            _ => {}
        }
    }

    fn problem(&mut self, index: usize, code: ErrorCode, pointer: String, message: String) {
        self.problems.push(Problem {
            index: Some(index),
            error: Error::new(code, message)
                .with_location(pointer)
                .with_phase(Phase::Compile),
        });
    }

    /// The `surfaceId` of a message body, or a problem.
    fn surface_id<'b>(
        &mut self,
        index: usize,
        kind: &str,
        body: &'b Map<String, Value>,
    ) -> Option<&'b str> {
        match body.get("surfaceId") {
            Some(Value::String(id)) => Some(id),
            None => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    format!("/{kind}"),
                    format!("{kind} needs a 'surfaceId'"),
                );
                None
            }
            Some(other) => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    format!("/{kind}/surfaceId"),
                    format!("'surfaceId' must be a string, got {}", kind_name(other)),
                );
                None
            }
        }
    }

    /// The default catalog of the surface a message updates, or a problem (never created,
    /// deleted).
    fn existing_surface(
        &mut self,
        index: usize,
        kind: &str,
        body: &Map<String, Value>,
    ) -> Option<String> {
        let id = self.surface_id(index, kind, body)?;
        if let Some(surface) = self.surfaces.get(id) {
            return Some(surface.catalog.clone());
        }
        let why = if self.deleted.contains(id) {
            format!("surface '{id}' was deleted (by an earlier deleteSurface)")
        } else {
            format!("surface '{id}' was never created (no createSurface before this message)")
        };
        self.problem(
            index,
            ErrorCode::ValidationFailed,
            format!("/{kind}/surfaceId"),
            why,
        );
        None
    }

    fn create_surface(&mut self, index: usize, version: Option<&str>, body: &Map<String, Value>) {
        let id = self.surface_id(index, "createSurface", body);
        let catalog = match body.get("catalogId") {
            Some(Value::String(catalog)) => {
                if self.env.catalog(catalog).is_none() {
                    let message = format!(
                        "unknown catalog '{catalog}' (the catalogs known here: {})",
                        self.env.catalog_ids().join(", ")
                    );
                    self.problems.push(Problem {
                        index: Some(index),
                        error: Error::new(ErrorCode::CatalogError, message)
                            .with_missing_catalog(MissingCatalog::NotRegistered(catalog.clone()))
                            .with_location("/createSurface/catalogId")
                            .with_phase(Phase::Compile),
                    });
                }
                catalog.clone()
            }
            None => {
                if version != Some(crate::stream::Version::V1_0.as_str()) {
                    self.problem(
                        index,
                        ErrorCode::ValidationFailed,
                        "/createSurface".into(),
                        "createSurface needs a 'catalogId' before A2UI v1.0".into(),
                    );
                }
                self.env.default_catalog().to_owned()
            }
            Some(other) => {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    "/createSurface/catalogId".into(),
                    format!("'catalogId' must be a string, got {}", kind_name(other)),
                );
                self.env.default_catalog().to_owned()
            }
        };
        if let Some(id) = id {
            if self.surfaces.contains_key(id) {
                self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    "/createSurface/surfaceId".into(),
                    format!("surface '{id}' already exists (delete it before creating it again)"),
                );
            } else {
                self.deleted.remove(id);
                self.surfaces.insert(
                    id.to_owned(),
                    Surface {
                        catalog: catalog.clone(),
                        spelling: None,
                        spelling_warned: false,
                    },
                );
            }
        }
        if let Some(components) = body.get("components") {
            self.components(
                index,
                "/createSurface/components",
                components,
                Some(&catalog),
                id,
            );
        }
    }

    /// Where a value of this message is compiled: `catalog` as default catalog (`None`: the
    /// environment's own), in the spelling its surface reads (v1.0 values of a surface not
    /// decided for `@` are read plain).
    fn scope<'s>(&self, catalog: Option<&'s str>, caller: Option<crate::Origin>) -> CompileScope<'s>
    where
        'e: 's,
    {
        let env: &'e Environment = self.env;
        let plain = self.both_spellings && self.reading != Some(crate::Spelling::At);
        CompileScope {
            default_catalog: Some(catalog.unwrap_or(env.default_catalog())),
            spelling: if plain {
                crate::Spelling::Plain
            } else {
                env.spelling()
            },
            caller,
        }
    }

    fn components(
        &mut self,
        index: usize,
        at: &str,
        components: &Value,
        catalog: Option<&str>,
        surface: Option<&str>,
    ) {
        let Value::Array(components) = components else {
            self.problem(
                index,
                ErrorCode::ValidationFailed,
                at.to_owned(),
                format!(
                    "'components' must be an array, got {}",
                    kind_name(components)
                ),
            );
            return;
        };
        self.reading = self.surface_spelling(index, at, components, surface);
        for (i, component) in components.iter().enumerate() {
            self.component(index, &format!("{at}/{i}"), component, catalog);
        }
        self.reading = None;
    }

    /// The spelling a v1.0 surface reads these components' values in, as the processor decides
    /// it (`surfaces::Surface::spelling`): the one its first bindings and calls were written in,
    /// `@` when a message shows both. A plain surface given `@` values is warned about once.
    /// `None` for the older versions, an environment that reads the plain spelling (all is
    /// read plain), and a surface nothing decided yet.
    fn surface_spelling(
        &mut self,
        index: usize,
        at: &str,
        components: &[Value],
        surface: Option<&str>,
    ) -> Option<crate::Spelling> {
        if !self.both_spellings || self.env.spelling() == crate::Spelling::Plain {
            return None;
        }
        let mut evidence = crate::syntax::Evidence::default();
        for (i, component) in components.iter().enumerate() {
            let Value::Object(map) = component else {
                continue;
            };
            for (key, value) in map {
                if matches!(
                    key.as_str(),
                    "id" | "component" | "catalogId" | "@catalogId" | "metadata" | "@metadata"
                ) {
                    continue;
                }
                evidence.add(
                    format!("{at}/{i}/{}", crate::path::escape_token(key)),
                    value,
                );
            }
        }
        let known = surface.and_then(|id| self.surfaces.get(id));
        let decided = evidence.decide(known.and_then(|s| s.spelling));
        if decided == Some(crate::Spelling::Plain)
            && let Some(pointer) = evidence.other_than(crate::Spelling::Plain)
            && let Some(id) = surface
            && let Some(known) = self.surfaces.get_mut(id)
            && !known.spelling_warned
        {
            known.spelling_warned = true;
            let message = format!(
                "surface '{id}' reads its values in the plain spelling (its first bindings and calls were plain), and this one is written with '@': both are read, but write one"
            );
            self.warnings.push(StreamWarning {
                index,
                warning: Warning::new(crate::error::WarningCode::OtherSpelling, message)
                    .with_location(pointer),
            });
        }
        if let Some(known) = surface.and_then(|id| self.surfaces.get_mut(id))
            && known.spelling.is_none()
        {
            known.spelling = decided;
        }
        decided
    }

    fn component(&mut self, index: usize, at: &str, component: &Value, catalog: Option<&str>) {
        let Value::Object(map) = component else {
            self.problem(
                index,
                ErrorCode::ValidationFailed,
                at.to_owned(),
                format!("a component is an object, got {}", kind_name(component)),
            );
            return;
        };
        match map.get("id") {
            Some(Value::String(_)) => {}
            None => self.problem(
                index,
                ErrorCode::ValidationFailed,
                at.to_owned(),
                "a component needs an 'id'".into(),
            ),
            Some(other) => self.problem(
                index,
                ErrorCode::ValidationFailed,
                format!("{at}/id"),
                format!(
                    "a component's 'id' must be a string, got {}",
                    kind_name(other)
                ),
            ),
        }
        match map.get("component") {
            Some(Value::String(_)) => {}
            None => self.problem(
                index,
                ErrorCode::ValidationFailed,
                at.to_owned(),
                "a component needs a 'component' (its type, such as \"Text\")".into(),
            ),
            Some(Value::Object(_)) => self.problem(
                index,
                ErrorCode::ValidationFailed,
                format!("{at}/component"),
                "'component' is the component's type name (v0.9 and later); the v0.8 form {\"Text\": {…}} is not read".into(),
            ),
            Some(other) => self.problem(
                index,
                ErrorCode::ValidationFailed,
                format!("{at}/component"),
                format!("'component' must be a string, got {}", kind_name(other)),
            ),
        }
        if self.both_spellings {
            self.note_spelling(index, at, map);
        }
        // Each property is compiled on its own; the envelope keys (either spelling) are not
        // values, except `checks` and `accessibility`, which hold some.
        for (key, value) in map {
            if matches!(
                key.as_str(),
                "id" | "component" | "catalogId" | "@catalogId" | "metadata" | "@metadata"
            ) {
                continue;
            }
            let at = format!("{at}/{}", crate::path::escape_token(key));
            // A component's values are the renderer's: an `agentOnly` function there never runs.
            self.compile(index, &at, value, catalog, Some(crate::Origin::Binding));
        }
    }

    /// v1.0 reads envelope keys in both spellings; a stream that writes them both ways is most
    /// likely two generators' output pasted together, so the first component in the other
    /// spelling gets a warning, once per stream (independent of the values' spelling:
    /// `{"@path"}` values beside a plain `checks` key is one consistent style). A component
    /// carrying both forms of one envelope key is an error of its own. Dynamic values follow
    /// their surface's spelling ([`surface_spelling`](StreamChecker::surface_spelling)).
    fn note_spelling(&mut self, index: usize, at: &str, map: &Map<String, Value>) {
        let (envelope, _) = spelling_of(at, map);
        for (kind, found) in [(0, envelope)] {
            let Some((at_form, pointer)) = found else {
                continue;
            };
            let what = [
                "envelope keys (\"@checks\" or \"checks\")",
                "dynamic values ({\"@path\"} or {\"path\"})",
            ][kind];
            match &self.first_spelling[kind] {
                None => self.first_spelling[kind] = Some((at_form, index, pointer)),
                Some((first, first_index, first_pointer))
                    if *first != at_form && !self.mixed_warned[kind] =>
                {
                    let name = |at_form: bool| {
                        if at_form {
                            "the '@' spelling"
                        } else {
                            "the plain spelling"
                        }
                    };
                    let message = format!(
                        "this stream writes {what} in both spellings: {} here, {} at message {first_index} {first_pointer}; v1.0 reads both, so neither wins, but write one",
                        name(at_form),
                        name(*first)
                    );
                    self.mixed_warned[kind] = true;
                    self.warnings.push(StreamWarning {
                        index,
                        warning: Warning::new(crate::error::WarningCode::OtherSpelling, message)
                            .with_location(pointer),
                    });
                }
                Some(_) => {}
            }
        }
    }

    /// Compiles `value` (at `at` in the message) and records its problems and warnings. When
    /// the default catalog is not registered (already reported, with the message that named
    /// it), the calls that rely on it are not reported once more.
    fn compile(
        &mut self,
        index: usize,
        at: &str,
        value: &Value,
        catalog: Option<&str>,
        caller: Option<crate::Origin>,
    ) {
        let unknown = catalog.filter(|id| self.env.catalog(id).is_none());
        let (result, warnings) = self.env.compile_in(value, self.scope(catalog, caller));
        for warning in warnings {
            let location = format!("{at}{}", warning.location());
            self.warnings.push(StreamWarning {
                index,
                warning: warning.with_location(location),
            });
        }
        if let Err(err) = result {
            for e in err.into_problems() {
                if let (Some(unknown), Some(MissingCatalog::NotRegistered(id))) =
                    (unknown, e.missing_catalog())
                    && unknown == id
                {
                    continue;
                }
                let location = format!("{at}{}", e.location());
                self.problems.push(Problem {
                    index: Some(index),
                    error: e.with_location(location),
                });
            }
        }
    }

    fn call_function(
        &mut self,
        index: usize,
        kind: &str,
        message: &Map<String, Value>,
        body: &Map<String, Value>,
    ) {
        match message.get("functionCallId").or(body.get("functionCallId")) {
            Some(Value::String(_)) => {}
            None => self.problem(
                index,
                ErrorCode::ValidationFailed,
                String::new(),
                "a callFunction message needs a 'functionCallId'".into(),
            ),
            Some(other) => self.problem(
                index,
                ErrorCode::ValidationFailed,
                "/functionCallId".into(),
                format!(
                    "'functionCallId' must be a string, got {}",
                    kind_name(other)
                ),
            ),
        }
        // v1.0 nests the call under `callFunction`; the older message's body is the call.
        let (mut call, at) = match body.get("callFunction") {
            Some(Value::Object(inner)) => (inner.clone(), format!("/{kind}/callFunction")),
            Some(other) => {
                return self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    format!("/{kind}/callFunction"),
                    format!(
                        "'callFunction' must be an object {{\"call\", \"catalogId\", \"args\"}}, got {}",
                        kind_name(other)
                    ),
                );
            }
            None if kind == "callRendererFunction" => {
                return self.problem(
                    index,
                    ErrorCode::ValidationFailed,
                    format!("/{kind}"),
                    "callRendererFunction needs 'callFunction' (the call to run: {\"call\", \"catalogId\", \"args\"})".into(),
                );
            }
            None => (body.clone(), format!("/{kind}")),
        };
        call.remove("functionCallId");
        if let Some(from) = call
            .remove("callableFrom")
            .or_else(|| body.get("callableFrom").cloned())
            && !matches!(from.as_str(), Some("remoteOnly" | "clientOrRemote"))
        {
            self.problem(
                index,
                ErrorCode::ValidationFailed,
                format!("{at}/callableFrom"),
                format!("an agent can only call a function callable from 'remoteOnly' or 'clientOrRemote', not {from}"),
            );
        }
        // In the `@` spelling a plain call compiles as a literal, with the warning saying so.
        let spelling = self.env.spelling();
        if !matches!(form(&call, spelling), Some(Form::Call(_)))
            && plain_shape(&call) != Some(PlainShape::Call)
        {
            let hint = if call.contains_key("call") {
                " ('call' without '@' is the plain spelling, read only as {\"call\": name, \"args\"?: {…}, \"catalogId\"?: …, \"returnType\"?: …} with nothing else)"
            } else {
                ""
            };
            self.problem(
                index,
                ErrorCode::ValidationFailed,
                at,
                format!(
                    "'{kind}' must be a function call {{\"@call\": name, \"args\": {{…}}}}{hint}"
                ),
            );
            return;
        }
        // The agent's call: who may call what is the processor's answer when it runs.
        self.compile(index, &at, &Value::Object(call), None, None);
    }
}

/// The pointers of one message's problems, to tell by lookups whether another pointer is about
/// the same place: one of them a (string) prefix of the other.
struct Located<'p> {
    sorted: Vec<&'p str>,
    whole: HashSet<&'p str>,
    lengths: std::collections::BTreeSet<usize>,
}

impl<'p> Located<'p> {
    fn new(pointers: impl Iterator<Item = &'p str>) -> Located<'p> {
        let mut sorted: Vec<&str> = pointers.collect();
        sorted.sort_unstable();
        Located {
            whole: sorted.iter().copied().collect(),
            lengths: sorted.iter().map(|p| p.len()).collect(),
            sorted,
        }
    }

    /// Whether a pointer of the set starts with `pointer`, or `pointer` starts with one.
    fn related(&self, pointer: &str) -> bool {
        // The pointers that start with `pointer` sort together, from the first one not below it.
        let from = self.sorted.partition_point(|p| *p < pointer);
        if self
            .sorted
            .get(from)
            .is_some_and(|p| p.starts_with(pointer))
        {
            return true;
        }
        // A pointer of the set that `pointer` starts with has one of the set's lengths.
        self.lengths
            .range(..=pointer.len())
            .any(|&n| pointer.is_char_boundary(n) && self.whole.contains(&pointer[..n]))
    }
}

#[cfg(test)]
mod tests;

/// The spellings a component is written in, and where they show: of its envelope keys
/// (`@checks` or `checks`, …), and of its dynamic values (the first binding or call found:
/// `{"@path"}`, or the plain `{"path"}` in a binding's exact shape). `None` when nothing
/// tells. Explicit stack.
type Spotted = Option<(bool, String)>;

fn spelling_of(at: &str, map: &Map<String, Value>) -> (Spotted, Spotted) {
    let envelope = map.keys().find_map(|key| {
        let plain = key.trim_start_matches('@');
        matches!(plain, "catalogId" | "accessibility" | "checks" | "metadata").then(|| {
            let pointer = format!("{at}/{}", crate::path::escape_token(key));
            (key.starts_with('@'), pointer)
        })
    });
    let mut stack: Vec<(String, &Value)> = map
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "id" | "component"))
        .map(|(k, v)| (format!("{at}/{}", crate::path::escape_token(k)), v))
        .collect();
    stack.reverse();
    while let Some((pointer, value)) = stack.pop() {
        match value {
            Value::Object(object) => {
                if object.contains_key("@path") || object.contains_key("@call") {
                    return (envelope, Some((true, pointer)));
                }
                let binding = object.len() == 1 && object.get("path").is_some_and(Value::is_string);
                let call = object.get("call").is_some_and(Value::is_string)
                    && object.keys().all(|k| {
                        matches!(k.as_str(), "call" | "args" | "catalogId" | "returnType")
                    });
                if binding || call {
                    return (envelope, Some((false, pointer)));
                }
                let mut inner: Vec<(String, &Value)> = object
                    .iter()
                    .map(|(k, v)| (format!("{pointer}/{}", crate::path::escape_token(k)), v))
                    .collect();
                inner.reverse();
                stack.extend(inner);
            }
            Value::Array(items) => {
                stack.extend(
                    items
                        .iter()
                        .enumerate()
                        .rev()
                        .map(|(i, v)| (format!("{pointer}/{i}"), v)),
                );
            }
            _ => {}
        }
    }
    (envelope, None)
}
