//! The processor's judgment of a message in the mode that collects every problem instead of
//! stopping at the first ([`Processor::check`]): what `a2ui-mcp check` and
//! [`crate::messages`] report. It is the same judge as [`Processor::process`] (the same reading,
//! the same checks), so the problem `process` refuses a message with is one of the ones `check`
//! lists, in the same words.

use super::processor::*;
use super::spelled::*;
use super::surface::*;
use crate::error::Error;
use crate::error::{Warning, WarningCode};
use crate::stream::{Body, Message, ParseOptions, parse_message_all};
use serde_json::Value;

/// What [`Processor::check`] found of one message.
#[derive(Debug)]
#[non_exhaustive]
pub struct Checked {
    /// What the message did, when it was applied.
    pub applied: Option<Applied>,
    /// Every problem, in the order of the message (empty when it is clean); a refused message's
    /// problems include the one [`Processor::process`] refuses it with.
    pub problems: Vec<Error>,
}

/// The first spellings a stream used, each with where: v1.0's `version` (`"1.0"` or `"v1.0"`)
/// and a component's envelope keys (`@checks` or `checks`); the other spelling of each gets one
/// warning per stream.
#[derive(Debug, Default)]
pub(super) struct StreamSpelling {
    version: Option<(String, usize)>,
    version_warned: bool,
    envelope: Option<(bool, usize, String)>,
    envelope_warned: bool,
}

impl Processor {
    /// Judges one message as [`process`](Processor::process) does, and applies it when it has no
    /// problem; when it has, every problem it has is listed, not only the first: each part of
    /// the envelope that cannot be read, the surface it names, each component's problems (each
    /// of its values compiled on past a problem), the graph. The agent's calls
    /// (`callRendererFunction`) are judged as the agent's, compiled and not run, and its answers
    /// read and not matched. A `createSurface` naming a catalog that is not registered is a
    /// problem even when [`accept_unregistered_catalogs`](crate::surfaces::ProcessorOptions::accept_unregistered_catalogs)
    /// lets the surface be created (so a check reports the catalog once, and judges the
    /// surface's later messages). The warnings ([`take_warnings`](Processor::take_warnings))
    /// also say when a stream writes v1.0's version or a component's envelope keys in both
    /// spellings.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default());
    /// p.process(&json!({"version": "1.0", "createSurface": {"surfaceId": "s", "catalogId": a2ui_catalog_mcp::MCP_CATALOG_ID}})).unwrap();
    /// let message = json!({"version": "1.0", "updateComponents": {"surfaceId": "s", "components": [
    ///     {"component": "Text"},
    ///     {"id": "root", "component": "Text", "text": {"@call": "split", "args": {}}}]}});
    /// let checked = p.check(&message);
    /// let found: Vec<String> = checked.problems.iter().map(|e| e.location().to_owned()).collect();
    /// assert_eq!(found, ["/updateComponents/components/0", "/updateComponents/components/1/text",
    ///     "/updateComponents/components/1/text"]);
    /// assert!(checked.applied.is_none());
    /// ```
    pub fn check(&mut self, message: &Value) -> Checked {
        let index = self.messages;
        self.note_stream_spelling(index, message);
        let agent = super::rpc::agent_call_key(message).is_some();
        if agent {
            self.messages += 1;
            let problems = self.agent_message_problems(message);
            return Checked {
                applied: None,
                problems: problems
                    .into_iter()
                    .map(|error| error.of_message(index, None))
                    .collect(),
            };
        }
        match self.process(message) {
            Ok(applied) => {
                let problems = self
                    .applied_problems(&applied)
                    .into_iter()
                    .map(|error| error.of_message(index, applied_surface(&applied)))
                    .collect();
                Checked {
                    applied: Some(applied),
                    problems,
                }
            }
            Err(first) => {
                let mut all = self.refused_problems(message);
                // The judge is one: `process`'s problem is among these, unless a check it makes
                // only when it applies (the model written, the bytes held) refused it.
                if !all.iter().any(|e| same_problem(e, &first)) {
                    all.insert(0, first.clone());
                }
                // In the order of the message: its envelope, then component by component
                // (what reading found of a component beside what judging it found), then what
                // is about the message as a whole (the graph).
                all.sort_by_cached_key(|e| message_order(e.location()));
                let surface_id = first.surface_id().map(str::to_owned);
                Checked {
                    applied: None,
                    problems: all
                        .into_iter()
                        .map(|error| error.of_message(index, surface_id.clone()))
                        .collect(),
                }
            }
        }
    }

    fn parse_options(&self) -> ParseOptions {
        let mut options = ParseOptions::default();
        options.require_version = self.options.require_version;
        options.max_depth = self.env.limits().max_depth;
        options
    }

    /// What a message `process` applied has that only a check reports: a surface created on a
    /// catalog that is not registered.
    fn applied_problems(&self, applied: &Applied) -> Vec<Error> {
        let Applied::SurfaceCreated(id) = applied else {
            return Vec::new();
        };
        let surface = &self.surfaces[id];
        self.surface_catalog_problem(surface.version, surface.catalog_id.as_deref())
            .into_iter()
            .collect()
    }

    /// Every problem of a message `process` refused, judged against the processor as it stands
    /// (the refused message changed nothing).
    fn refused_problems(&mut self, message: &Value) -> Vec<Error> {
        let (read, mut problems) = parse_message_all(message, self.parse_options());
        let Some(Message { version, body }) = read else {
            return problems;
        };
        let version = version.unwrap_or(crate::stream::Version::V0_9);
        // The warnings of the values judged: a check gives them for a refused message too.
        let mut warnings = Vec::new();
        let surface_id = match &body {
            Body::CreateSurface(c) => c.surface_id.clone(),
            Body::UpdateComponents(u) => u.surface_id.clone(),
            _ => String::new(),
        };
        match body {
            Body::CreateSurface(create) => {
                problems
                    .extend(self.surface_catalog_problem(version, create.catalog_id.as_deref()));
                problems.extend(self.surface_exists(&create.surface_id));
                // A surface refused for lacking its catalogId is judged on as one whose catalog is
                // not known (see the unknown surface of an update below), that problem being said
                // once.
                let catalog_id = match create.catalog_id {
                    None if !version.is_v1() => Some(String::new()),
                    other => other,
                };
                let mut surface = Surface::empty(
                    create.surface_id,
                    version,
                    catalog_id,
                    create.send_data_model,
                );
                if let Some(components) = create.components {
                    let mut judged = Surface::empty(
                        surface.id.clone(),
                        version,
                        surface.catalog_id.clone(),
                        surface.send_data_model,
                    );
                    if let Some(model) = create.data_model {
                        // A model that cannot be written is `process`'s first problem.
                        let _ = judged.data.set(&crate::path::JsonPointer::root(), model);
                    }
                    problems.extend(self.every_component_problem(
                        &judged,
                        components,
                        true,
                        &mut warnings,
                    ));
                }
                // A check goes on as if the surface had been created (its catalog, none of what
                // the refused message carried, so nothing past a limit is held), so that its
                // later messages are judged and not each reported as being about a surface
                // never created. A processor keeping live trees is not given a surface that
                // has none.
                let id = surface.id.clone();
                if !id.is_empty()
                    && self.options.live.is_none()
                    && !self.surfaces.contains_key(&id)
                    && self.surfaces.len() < self.options.max_surfaces
                {
                    surface.data.take_changes();
                    self.deleted.remove(&id);
                    self.surfaces.insert(id, surface);
                }
            }
            // An id that could not be read was read as the empty one: its problem is said.
            Body::UpdateComponents(update) if update.surface_id.is_empty() => {}
            Body::UpdateDataModel(update) if update.surface_id.is_empty() => {}
            Body::UpdateComponents(update) => {
                match self.existing(&update.surface_id, "/updateComponents") {
                    Err(e) => {
                        problems.push(e);
                        // The components are judged all the same, on a surface whose default
                        // catalog is not known: the empty id, which no catalog has (a
                        // `createSurface` naming it is refused), so the calls relying on it
                        // are those of a catalog not registered, not reported once more.
                        let unknown =
                            Surface::empty(update.surface_id, version, Some(String::new()), false);
                        problems.extend(self.every_component_problem(
                            &unknown,
                            update.components,
                            false,
                            &mut warnings,
                        ));
                    }
                    Ok(_) => {
                        let surface = self.surfaces.remove(&update.surface_id).expect("it exists");
                        problems.extend(self.every_component_problem(
                            &surface,
                            update.components,
                            true,
                            &mut warnings,
                        ));
                        self.surfaces.insert(update.surface_id, surface);
                    }
                }
            }
            Body::UpdateDataModel(update) => {
                if let Err(e) = self.existing(&update.surface_id, "/updateDataModel") {
                    problems.push(e);
                }
            }
            _ => {}
        }
        self.keep_warnings(self.messages.saturating_sub(1), &surface_id, warnings);
        problems
    }

    /// The problems of an agent's call or answer, judged and not run: its reading, and for a
    /// call its `functionCallId`, its shape and its compilation as the agent's.
    fn agent_message_problems(&mut self, message: &Value) -> Vec<Error> {
        let (read, mut problems) = parse_message_all(message, self.parse_options());
        if let Some(Message {
            body: Body::CallRendererFunction(call),
            version,
        }) = read
        {
            // Read as the components of its version are (v1.0: as a surface not decided).
            let spelling = match version {
                Some(v) if v.is_v1() => crate::syntax::Spelling::Plain,
                _ => self.options.earlier_spelling,
            };
            let mut warnings = Vec::new();
            problems.extend(self.agent_call_problems(call, spelling, &mut warnings));
            self.keep_warnings(self.messages.saturating_sub(1), "", warnings);
        }
        problems
    }

    /// The warnings a stream's spellings call for: v1.0's version written both as `"1.0"` and
    /// `"v1.0"`, a component's envelope keys both with and without `@`; once each per stream.
    fn note_stream_spelling(&mut self, index: usize, message: &Value) {
        let Value::Object(map) = message else {
            return;
        };
        let mut found = Vec::new();
        if let Some(Value::String(v)) = map.get("version")
            && matches!(v.as_str(), "1.0" | "v1.0")
        {
            let state = &mut self.stream_spelling;
            match &state.version {
                None => state.version = Some((v.clone(), index)),
                Some((first, at)) if first != v && !state.version_warned => {
                    state.version_warned = true;
                    found.push(
                        Warning::new(
                            WarningCode::OtherSpelling,
                            format!(
                                "this stream writes v1.0's version both as \"{first}\" (message {at}) and as \"{v}\"; both are read, but the published schemas say \"1.0\""
                            ),
                        )
                        .with_location("/version")
                        .with_suggestion("\"1.0\""),
                    );
                }
                Some(_) => {}
            }
            // v1.0 reads envelope keys in both spellings; a stream that writes them both ways
            // is most likely two generators' output pasted together.
            for (body_key, list) in [
                ("createSurface", "/createSurface/components"),
                ("updateComponents", "/updateComponents/components"),
            ] {
                let Some(Value::Array(components)) =
                    map.get(body_key).and_then(|b| b.get("components"))
                else {
                    continue;
                };
                for (i, component) in components.iter().enumerate() {
                    let Value::Object(component) = component else {
                        continue;
                    };
                    let Some(key) = component.keys().find(|k| {
                        matches!(
                            k.trim_start_matches('@'),
                            "catalogId" | "accessibility" | "checks" | "metadata"
                        )
                    }) else {
                        continue;
                    };
                    let at_form = key.starts_with('@');
                    let pointer = format!("{list}/{i}/{}", crate::path::escape_token(key));
                    let state = &mut self.stream_spelling;
                    match &state.envelope {
                        None => state.envelope = Some((at_form, index, pointer)),
                        Some((first, first_index, first_pointer))
                            if *first != at_form && !state.envelope_warned =>
                        {
                            let name = |at_form: bool| {
                                if at_form {
                                    "the '@' spelling"
                                } else {
                                    "the plain spelling"
                                }
                            };
                            let message = format!(
                                "this stream writes envelope keys (\"@checks\" or \"checks\") in both spellings: {} here, {} at message {first_index} {first_pointer}; v1.0 reads both, so neither wins, but write one",
                                name(at_form),
                                name(*first)
                            );
                            state.envelope_warned = true;
                            found.push(
                                Warning::new(WarningCode::OtherSpelling, message)
                                    .with_location(pointer),
                            );
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        let surface_id = map
            .values()
            .find_map(|b| b.get("surfaceId"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        self.keep_warnings(index, surface_id, found);
    }

    /// Keeps warnings of message `index` until the host takes them, within [`MAX_WARNINGS`].
    fn keep_warnings(&mut self, index: usize, surface_id: &str, warnings: Vec<Warning>) {
        let room = MAX_WARNINGS.saturating_sub(self.warnings.len());
        self.warnings
            .extend(warnings.into_iter().take(room).map(|warning| {
                warning
                    .with_message_index(index)
                    .with_surface_id(surface_id)
            }));
    }
}

/// Where a problem stands in the order of its message: the envelope first, then the
/// components by index, then the message as a whole (pointer `""`).
fn message_order(pointer: &str) -> (u8, usize) {
    if pointer.is_empty() {
        return (2, 0);
    }
    let mut tokens = pointer.split('/').skip(2);
    match (tokens.next(), tokens.next().and_then(|i| i.parse().ok())) {
        (Some("components"), Some(index)) => (1, index),
        _ => (0, 0),
    }
}

/// The surface an applied message is about.
fn applied_surface(applied: &Applied) -> Option<String> {
    match applied {
        Applied::SurfaceCreated(id)
        | Applied::SurfaceDeleted(id)
        | Applied::DataModelUpdated(id)
        | Applied::ComponentsUpdated { surface_id: id, .. } => Some(id.clone()),
        _ => None,
    }
}

/// Whether two problems are the same one (what, where, in which words): `process`'s problem is
/// not listed twice by `check`.
fn same_problem(a: &Error, b: &Error) -> bool {
    (a.category(), a.location(), a.message()) == (b.category(), b.location(), b.message())
}
