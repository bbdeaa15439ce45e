//! The stream check: each message judged by the surfaces processor in the mode that collects
//! every problem ([`Processor::check`]), the stream's surfaces judged once more as it leaves
//! them. The checker reads text into messages and numbers them; the processor is the only judge.

use super::read::{StreamOptions, broken, read_message};
use super::report::Report;
use crate::env::Environment;
use crate::error::{Error, ErrorCode, Phase, Warning, WarningCode};
use crate::surfaces::{Processor, ProcessorOptions};
use serde_json::Value;

/// Checks a whole stream (a JSON array of messages, or JSON values one after another) with
/// `env`'s catalogs and limits.
pub fn check_stream(env: &Environment, text: &str) -> Report {
    let mut checker = StreamChecker::new(env);
    checker.check_stream(text);
    checker.finish()
}

/// Checks a whole stream as [`check_stream`] does, its components also checked against the
/// component schemas of the catalog `documents` (see [`StreamChecker::add_catalog_document`]),
/// in strict mode when `strict` (see [`StreamChecker::with_strict`]).
pub fn check_stream_with(
    env: &Environment,
    documents: &[Value],
    strict: bool,
    text: &str,
) -> Result<Report, Error> {
    let mut checker = StreamChecker::new(env).with_strict(strict);
    for document in documents {
        checker.add_catalog_document(document)?;
    }
    checker.check_stream(text);
    Ok(checker.finish())
}

/// Checks messages already parsed.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, messages};
/// use serde_json::json;
///
/// let report = messages::check_messages(&Environment::new(), &[json!({"beginRendering": {"surfaceId": "s"}})]);
/// assert_eq!(report.problems()[0].message(), "action 'beginRendering' is not supported in protocol version v0.9 (it is a v0.8 message)");
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

/// Checks the messages of one stream in order: a processor on the environment judges each,
/// and keeps the surfaces they build.
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
/// checker.check_text(r#"{"version": "v1.0", "updateDataModel": {"surfaceId": "s", "value": 1}}"#);
/// let report = checker.finish();
/// assert_eq!(report.problems().len(), 1);
/// assert_eq!(report.problems()[0].message_index(), Some(2));
/// assert_eq!(report.problems()[0].message(), "Surface not found: 's' was deleted (by an earlier deleteSurface)");
/// ```
pub struct StreamChecker<'e> {
    env: &'e Environment,
    options: StreamOptions,
    strict: bool,
    /// The judge, permissive about catalogs the environment does not have (each is one
    /// problem, at the `createSurface` that names it, and the surface's messages are judged).
    processor: Processor,
    problems: Vec<Error>,
    warnings: Vec<Warning>,
}

impl std::fmt::Debug for StreamChecker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamChecker")
            .field("options", &self.options)
            .field("strict", &self.strict)
            .field("messages", &self.processor.message_count())
            .finish_non_exhaustive()
    }
}

impl<'e> StreamChecker<'e> {
    /// A checker with `env`'s catalogs and limits, and the default [`StreamOptions`]. A
    /// surface's default catalog comes from its `createSurface`.
    pub fn new(env: &'e Environment) -> StreamChecker<'e> {
        StreamChecker {
            env,
            options: StreamOptions::default(),
            strict: false,
            processor: judge(env, false),
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
    pub fn with_strict(mut self, strict: bool) -> StreamChecker<'e> {
        if strict != self.strict {
            self.strict = strict;
            self.processor = judge(self.env, strict);
        }
        self
    }

    /// A checker for another stream: the same environment, options, strictness and catalog
    /// documents (not read again), and none of this checker's messages, surfaces or problems.
    /// A host that checks many streams registers its documents once and takes a fresh checker
    /// for each.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, messages::StreamChecker};
    ///
    /// let env = Environment::new();
    /// let template = StreamChecker::new(&env).with_strict(true);
    /// let mut one = template.fresh();
    /// one.check_text(r#"{"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}"#);
    /// assert_eq!(one.finish().message_count(), 1);
    /// // The template saw nothing.
    /// assert_eq!(template.fresh().finish().message_count(), 0);
    /// ```
    pub fn fresh(&self) -> StreamChecker<'e> {
        StreamChecker {
            env: self.env,
            options: self.options.clone(),
            strict: self.strict,
            processor: self.processor.fresh(),
            problems: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The problems found so far.
    pub fn problems(&self) -> &[Error] {
        &self.problems
    }

    /// The warnings found so far.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Registers a catalog document's component schemas (and declares its functions), so that
    /// components are checked against them: unknown type or property, wrong literal type,
    /// missing required property.
    pub fn add_catalog_document(&mut self, document: &Value) -> Result<(), Error> {
        self.processor.register_catalog(document).map(drop)
    }

    /// Checks a whole stream: a JSON array of messages, or JSON values one after another.
    pub fn check_stream(&mut self, text: &str) {
        let cut = crate::stream::split::cut(text);
        for message in cut.messages {
            self.check_text(message);
        }
        if let Some(why) = cut.broken {
            self.problems.push(broken(why));
        }
    }

    /// Checks one message given as JSON text.
    pub fn check_text(&mut self, text: &str) {
        let max_depth = self.env.limits().max_depth;
        match read_message(text, self.options.max_message_bytes, max_depth) {
            Ok(message) => self.check_value(&message),
            Err(e) => {
                // It takes its place among the messages, as the processor numbers them.
                let index = self.processor.message_count();
                let _ = self.processor.refuse(crate::error::Error::in_message(
                    e.category(),
                    "",
                    e.message(),
                ));
                self.problems
                    .push(e.with_phase(Phase::Compile).with_message_index(index));
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
        let checked = self.processor.check(message);
        self.problems.extend(
            checked
                .problems
                .into_iter()
                .map(|e| e.with_phase(Phase::Compile)),
        );
        self.warnings.extend(self.processor.take_warnings());
    }

    /// The report. The surfaces are judged as the stream leaves them: a missing `root` and a
    /// child never defined are problems, a component not reachable from `root` a warning (an
    /// incremental update leaves the placeholders it replaced unreachable).
    pub fn finish(mut self) -> Report {
        let mut problems = Vec::new();
        let mut warnings = Vec::new();
        for surface in self.processor.surfaces() {
            let graph = surface.graph_problems();
            let id = surface.id();
            // Where a component was last defined: its message and its pointer there.
            let at = |component: &str| {
                surface
                    .component(component)
                    .map(|c| (c.message_index(), c.def().pointer.clone()))
            };
            // A surface given no component has nothing to judge.
            if !graph.has_root
                && let Some(first) = surface.components().next()
            {
                problems.push(located(
                    at(&first.def().id).map(|(i, _)| i),
                    String::new(),
                    format!("surface '{id}' has no component 'root' at the end of the stream"),
                ));
            }
            for (component, slot, child) in graph.dangling {
                let (index, pointer) = at(&component).unzip();
                let pointer =
                    pointer.map(|p| format!("{p}/{}", crate::surfaces::slot_pointer(&slot)));
                problems.push(located(
                    index,
                    pointer.unwrap_or_default(),
                    format!("component '{component}' names the child '{child}' ({slot}), which is never defined in surface '{id}'"),
                ));
            }
            for component in graph.orphans {
                let (index, pointer) = at(&component).unzip();
                warnings.push(
                    Warning::new(
                        WarningCode::UnreachableComponent,
                        format!("component '{component}' of surface '{id}' is not reachable from 'root' at the end of the stream"),
                    )
                    .with_location(pointer.unwrap_or_default())
                    .with_message_index(index.unwrap_or(0)),
                );
            }
        }
        self.problems.extend(problems);
        self.warnings.extend(warnings);
        Report {
            messages: self.processor.message_count(),
            problems: self.problems,
            warnings: self.warnings,
        }
    }
}

/// The processor a check judges with.
fn judge(env: &Environment, strict: bool) -> Processor {
    Processor::with_environment(
        env.clone(),
        ProcessorOptions::default()
            .with_accept_unregistered_catalogs(true)
            .with_earlier_spelling(env.spelling())
            .with_strict(strict),
    )
}

/// A problem the end of the stream shows, in the message (when there is one) that defined the
/// component it is about.
fn located(index: Option<usize>, pointer: String, message: String) -> Error {
    let error = Error::new(ErrorCode::ValidationFailed, message)
        .with_location(pointer)
        .with_phase(Phase::Compile);
    match index {
        Some(index) => error.with_message_index(index),
        None => error,
    }
}
