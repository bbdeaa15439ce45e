//! The one reading of a message: stopping at its first problem, or going on past each one it
//! can step over.

use super::message::*;
use super::version::Version;
use crate::error::Category;
use crate::error::Error;
use crate::json::kind_name;
use crate::path::{JsonPointer, escape_token};
use serde_json::{Map, Value};

/// Options of [`parse_message_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// A message without `version` is an error (the v1.0 processor's rule), instead of v0.9.
    pub require_version: bool,
    /// The depth limit of what a message writes (`Limits::max_depth`, 128 by default): an
    /// `updateDataModel` path of more tokens, or a value that would nest deeper at its path, is
    /// `LIMIT_EXCEEDED` (category `RecursionError`), found before anything is copied.
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            require_version: false,
            max_depth: crate::json::DEFAULT_MAX_DEPTH,
        }
    }
}

/// The levels a message's envelope adds above the values it carries: the message, its body, a
/// list of components, a component, a property.
const ENVELOPE_DEPTH: usize = 5;

/// Reads one message with the default [`ParseOptions`].
pub fn parse_message(message: &Value) -> Result<Message, Error> {
    parse_message_with(message, ParseOptions::default())
}

/// Reads one message.
///
/// ```
/// use a2ui_catalog_mcp::stream::{ParseOptions, parse_message_with};
/// use serde_json::json;
/// let mut options = ParseOptions::default();
/// options.require_version = true;
/// let err = parse_message_with(&json!({"deleteSurface": {"surfaceId": "s"}}), options).unwrap_err();
/// assert_eq!(err.message(), "Missing required version field");
/// ```
pub fn parse_message_with(message: &Value, options: ParseOptions) -> Result<Message, Error> {
    let mut found = Found::first();
    match read_message(message, options, &mut found) {
        Ok(message) if found.problems.is_empty() => Ok(message),
        _ => Err(found
            .problems
            .into_iter()
            .next()
            .expect("a reading stops at a problem")),
    }
}

/// Reads one message as [`parse_message_with`] does, and goes on past each problem it can step
/// over (a component it cannot read is left out, a member of the wrong type is read as absent):
/// every problem of the message, in the order of the message, the first being the one
/// [`parse_message_with`] gives; and what could be read of the message, when its kind and body
/// could (a judge of every problem goes on with it; nothing may be applied from it).
///
/// ```
/// use a2ui_catalog_mcp::stream::{ParseOptions, parse_message_all};
/// use serde_json::json;
/// let (read, problems) = parse_message_all(&json!({"version": "v1.0", "updateComponents": {"surfaceId": 5,
///     "components": [{"component": "Text"}, {"id": "ok", "component": "Text"}, {"id": "b", "component": 1}]}}), ParseOptions::default());
/// let at: Vec<&str> = problems.iter().map(|p| p.location()).collect();
/// assert_eq!(at, ["/updateComponents/surfaceId", "/updateComponents/components/0", "/updateComponents/components/2/component"]);
/// assert_eq!(read.unwrap().surface_id(), Some(""));
/// ```
pub fn parse_message_all(message: &Value, options: ParseOptions) -> (Option<Message>, Vec<Error>) {
    let mut found = Found {
        all: true,
        problems: Vec::new(),
    };
    let read = read_message(message, options, &mut found).ok();
    (read, found.problems)
}

/// Where a reading puts its problems: the first stops it, or (`all`) each is kept and the
/// reading steps over it. One reading serves both, so that the problem a processor stops at is
/// always one of the ones a check reports (the first the reading finds).
struct Found {
    all: bool,
    problems: Vec<Error>,
}

/// A reading stopped at a problem (kept in its [`Found`]).
struct Stopped;

impl Found {
    fn first() -> Found {
        Found {
            all: false,
            problems: Vec::new(),
        }
    }

    /// Keeps a problem; stops the reading unless every problem is wanted.
    fn push(&mut self, problem: Error) -> Result<(), Stopped> {
        self.problems.push(problem);
        if self.all { Ok(()) } else { Err(Stopped) }
    }

    /// Keeps a problem that no reading can step over.
    fn stop<T>(&mut self, problem: Error) -> Result<T, Stopped> {
        self.problems.push(problem);
        Err(Stopped)
    }
}

fn read_message(
    message: &Value,
    options: ParseOptions,
    found: &mut Found,
) -> Result<Message, Stopped> {
    use Category::Validation;
    // Measured before any part is copied (a copy recurses as deep as its value): a message may
    // nest its envelope (message, body, list, component, property) above values of up to the
    // depth limit, and no more.
    if crate::json::depth_exceeds(message, options.max_depth + ENVELOPE_DEPTH) {
        return found.stop(Error::in_message(
            Category::Recursion,
            "",
            format!(
                "Global recursion limit exceeded: the message nests deeper than the limit of {} \
                 levels (plus {ENVELOPE_DEPTH} for its envelope)",
                options.max_depth
            ),
        ));
    }
    let Value::Object(map) = message else {
        return found.stop(Error::in_message(
            Validation,
            "",
            format!("a message is a JSON object, got {}", kind_name(message)),
        ));
    };
    let version = match map.get("version") {
        None if options.require_version => {
            found.push(Error::in_message(
                Validation,
                "",
                "Missing required version field",
            ))?;
            None
        }
        None => None,
        Some(Value::String(v)) => match Version::parse(v) {
            Some(v) => Some(v),
            None => {
                found.push(Error::in_message(
                    Validation,
                    "/version",
                    format!(
                        "Unsupported protocol version '{v}' (read: v0.9, v0.9.1, v0.10, v1.0 or 1.0)"
                    ),
                ))?;
                None
            }
        },
        Some(other) => {
            found.push(Error::in_message(
                Validation,
                "/version",
                format!("'version' must be a string, got {}", kind_name(other)),
            ))?;
            None
        }
    };
    let keys: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|k| AGENT_TO_RENDERER.contains(k) || RENDERER_TO_AGENT.contains(k))
        .collect();
    let kind = match keys.as_slice() {
        [kind] => *kind,
        [] => {
            if let Some(old) = map.keys().find(|k| V0_8_KEYS.contains(&k.as_str())) {
                return found.stop(Error::in_message(
                    Validation,
                    format!("/{}", escape_token(old)),
                    format!(
                        "action '{old}' is not supported in protocol version {} (it is a v0.8 message)",
                        version.unwrap_or(Version::V0_9)
                    ),
                ));
            }
            let mut all: Vec<&str> = AGENT_TO_RENDERER.to_vec();
            all.extend(RENDERER_TO_AGENT);
            let theirs: Vec<&str> = map.keys().map(String::as_str).collect();
            let mut why = format!(
                "not an A2UI message: it has none of the message keys ({})",
                all.join(", ")
            );
            if !theirs.is_empty() {
                why.push_str(&format!(" (its keys: {})", theirs.join(", ")));
            }
            return found.stop(Error::in_message(Validation, "", why));
        }
        several => {
            return found.stop(Error::in_message(
                Validation,
                "",
                format!(
                    "Message contains multiple conflicting update actions: {}",
                    several.join(" and ")
                ),
            ));
        }
    };
    let at = format!("/{kind}");
    let Value::Object(body) = &map[kind] else {
        return found.stop(Error::in_message(
            Validation,
            at,
            format!("'{kind}' must be an object, got {}", kind_name(&map[kind])),
        ));
    };
    let v1 = version.is_some_and(Version::is_v1);
    // v1.0's schema closes each body (`additionalProperties: false`): a key it does not name is
    // a mistake (a misspelt `dataModel`, a `components` one level too high) that would
    // otherwise be dropped without a word. `theme` is read from v0.9 streams and kept.
    if v1 && let Some(known) = body_keys(kind) {
        for extra in body.keys().filter(|k| !known.contains(&k.as_str())) {
            found.push(Error::in_message(
                Validation,
                format!("{at}/{}", escape_token(extra)),
                format!(
                    "{kind} has no key '{extra}' (its keys: {})",
                    known.join(", ")
                ),
            ))?;
        }
    }
    let body = match kind {
        "createSurface" => Body::CreateSurface(create_surface(&at, body, v1, found)?),
        "updateComponents" => Body::UpdateComponents(UpdateComponents {
            surface_id: surface_id(&at, body, found)?,
            components: match body.get("components") {
                Some(list) => components(&format!("{at}/components"), list, v1, found)?,
                None => {
                    found.push(Error::in_message(
                        Validation,
                        at,
                        "updateComponents needs 'components'",
                    ))?;
                    Vec::new()
                }
            },
        }),
        "updateDataModel" => {
            Body::UpdateDataModel(update_data_model(&at, body, v1, options.max_depth, found)?)
        }
        "deleteSurface" => Body::DeleteSurface {
            surface_id: surface_id(&at, body, found)?,
        },
        "callRendererFunction" | "callFunction" => {
            let id = match body.get("functionCallId").or(map.get("functionCallId")) {
                None => None,
                Some(Value::String(id)) => Some(id.clone()),
                Some(other) => {
                    found.push(Error::in_message(
                        Validation,
                        format!("{at}/functionCallId"),
                        format!(
                            "'functionCallId' must be a string, got {}",
                            kind_name(other)
                        ),
                    ))?;
                    None
                }
            };
            Body::CallRendererFunction(FunctionCallMessage {
                key: kind.to_owned(),
                function_call_id: id,
                call: body.clone(),
            })
        }
        "agentFunctionResponse" | "actionResponse" => {
            Body::AgentFunctionResponse(Value::Object(body.clone()))
        }
        _ => Body::RendererToAgent {
            kind: kind.to_owned(),
            body: body.clone(),
        },
    };
    Ok(Message { version, body })
}

/// `surfaceId`, required and a string.
/// The keys a v1.0 message body may have, for the bodies the schema closes.
fn body_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "createSurface" => &[
            "surfaceId",
            "catalogId",
            "sendDataModel",
            "components",
            "dataModel",
            "metadata",
            "theme",
        ],
        "updateComponents" => &["surfaceId", "components"],
        "updateDataModel" => &["surfaceId", "path", "value"],
        "deleteSurface" => &["surfaceId"],
        _ => return None,
    })
}

fn surface_id(at: &str, body: &Map<String, Value>, found: &mut Found) -> Result<String, Stopped> {
    let problem = match body.get("surfaceId") {
        Some(Value::String(id)) => return Ok(id.clone()),
        None => Error::in_message(
            Category::Validation,
            at,
            format!("{} needs a 'surfaceId'", &at[1..]),
        ),
        Some(other) => Error::in_message(
            Category::Validation,
            format!("{at}/surfaceId"),
            format!("surfaceId must be a string, got {}", kind_name(other)),
        ),
    };
    // Read on as the empty id, which no surface has.
    found.push(problem)?;
    Ok(String::new())
}

fn create_surface(
    at: &str,
    body: &Map<String, Value>,
    v1: bool,
    found: &mut Found,
) -> Result<CreateSurface, Stopped> {
    use Category::Validation;
    let surface_id = surface_id(at, body, found)?;
    let catalog_id = match body.get("catalogId") {
        None => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(other) => {
            found.push(Error::in_message(
                Validation,
                format!("{at}/catalogId"),
                format!("catalogId must be a string, got {}", kind_name(other)),
            ))?;
            None
        }
    };
    let send_data_model = match body.get("sendDataModel") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            found.push(Error::in_message(
                Validation,
                format!("{at}/sendDataModel"),
                format!("sendDataModel must be a boolean, got {}", kind_name(other)),
            ))?;
            false
        }
    };
    let metadata = body.get("metadata").cloned();
    if v1 && let Some(meta) = &metadata {
        check_metadata(&format!("{at}/metadata"), meta, found)?;
    }
    let components = match body.get("components") {
        None => None,
        Some(list) => Some(components(&format!("{at}/components"), list, v1, found)?),
    };
    Ok(CreateSurface {
        surface_id,
        catalog_id,
        theme: body.get("theme").cloned(),
        send_data_model,
        metadata,
        components,
        data_model: body.get("dataModel").cloned(),
    })
}

/// v1.0's `metadata`: an object holding only `extensions`, whose keys are identifiers.
fn check_metadata(at: &str, meta: &Value, found: &mut Found) -> Result<(), Stopped> {
    let bad = |pointer: String, why: String| Error::in_message(Category::Validation, pointer, why);
    let Value::Object(meta) = meta else {
        return found.push(bad(
            at.into(),
            format!("metadata must be an object, got {}", kind_name(meta)),
        ));
    };
    for (key, value) in meta {
        if key != "extensions" {
            found.push(bad(
                format!("{at}/{}", escape_token(key)),
                format!("metadata holds only 'extensions', not '{key}'"),
            ))?;
            continue;
        }
        let Value::Object(extensions) = value else {
            found.push(bad(
                format!("{at}/extensions"),
                format!("extensions must be an object, got {}", kind_name(value)),
            ))?;
            continue;
        };
        for name in extensions.keys() {
            if !is_identifier(name) {
                found.push(bad(
                    format!("{at}/extensions/{}", escape_token(name)),
                    format!(
                        "extension key '{name}' is not an identifier (letters, digits, '_', not starting with a digit)"
                    ),
                ))?;
            }
        }
    }
    Ok(())
}

/// An identifier in the sense of UAX 31 (default profile, with `_` as a start): a letter or
/// `_`, then letters, digits, marks, connector punctuation. Rust's `char` classes approximate
/// XID_Start / XID_Continue for the characters keys use.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

fn update_data_model(
    at: &str,
    body: &Map<String, Value>,
    v1: bool,
    max_depth: usize,
    found: &mut Found,
) -> Result<UpdateDataModel, Stopped> {
    let surface_id = surface_id(at, body, found)?;
    // A path that cannot be read is read on as the root (the value's depth is then measured
    // against the whole limit).
    let path = match body.get("path") {
        None => JsonPointer::root(),
        Some(Value::String(p)) => match JsonPointer::parse_limited(p, max_depth) {
            Ok(path) => path,
            Err(e) => {
                found.push(e.with_location(format!("{at}/path")))?;
                JsonPointer::root()
            }
        },
        Some(other) => {
            found.push(Error::in_message(
                Category::Validation,
                format!("{at}/path"),
                format!("'path' must be a string, got {}", kind_name(other)),
            ))?;
            JsonPointer::root()
        }
    };
    let value = match body.get("value") {
        None if v1 => {
            found.push(Error::in_message(
                Category::Validation,
                at,
                "updateDataModel needs a 'value' in v1.0 (null removes what is at 'path')",
            ))?;
            None
        }
        None => None,
        Some(Value::Null) if v1 => None,
        // Measured before it is copied: the copy of a value nested past the limit would
        // recurse that deep.
        Some(value) if crate::json::depth_exceeds(value, max_depth - path.tokens().len()) => {
            found.push(Error::in_message(
                Category::Recursion,
                format!("{at}/value"),
                format!(
                    "the value would nest deeper than the limit of {max_depth} levels at '{path}'"
                ),
            ))?;
            None
        }
        Some(value) => Some(value.clone()),
    };
    Ok(UpdateDataModel {
        surface_id,
        path,
        value,
    })
}

/// The components of a message; in v1.0, a component's `metadata` holds only `extensions`, as
/// a surface's does.
fn components(
    at: &str,
    list: &Value,
    v1: bool,
    found: &mut Found,
) -> Result<Vec<ComponentDef>, Stopped> {
    let Value::Array(list) = list else {
        found.push(Error::in_message(
            Category::Validation,
            at,
            format!("'components' must be an array, got {}", kind_name(list)),
        ))?;
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, c) in list.iter().enumerate() {
        let at = format!("{at}/{i}");
        // A component that cannot be read is left out; the others are read on.
        let Some(def) = component(&at, c, found)? else {
            continue;
        };
        if v1 && let Some(meta) = &def.metadata {
            let key = if c.get("metadata").is_some() {
                "metadata"
            } else {
                "@metadata"
            };
            let before = found.problems.len();
            check_metadata(&format!("{at}/{key}"), meta, found)?;
            if found.problems.len() > before {
                continue;
            }
        }
        out.push(def);
    }
    Ok(out)
}

/// Reads one component.
///
/// ```
/// use a2ui_catalog_mcp::stream::parse_component;
/// use serde_json::json;
/// let c = parse_component("/c", &json!({"id": "t", "component": "Text", "@checks": [], "text": "x"})).unwrap();
/// assert_eq!((c.id.as_str(), c.checks.is_some(), c.props.len()), ("t", true, 1));
/// let err = parse_component("/c", &json!({"id": "t", "component": {"Text": {}}})).unwrap_err();
/// assert_eq!(err.location(), "/c/component");
/// ```
pub fn parse_component(at: &str, value: &Value) -> Result<ComponentDef, Error> {
    let mut found = Found::first();
    match component(at, value, &mut found) {
        Ok(Some(def)) => Ok(def),
        _ => Err(found
            .problems
            .into_iter()
            .next()
            .expect("a component not read has a problem")),
    }
}

/// One component, or `None` when it has a problem (each of its problems kept in `found`).
fn component(at: &str, value: &Value, found: &mut Found) -> Result<Option<ComponentDef>, Stopped> {
    use Category::Validation;
    let Value::Object(map) = value else {
        found.push(Error::in_message(
            Validation,
            at,
            format!("a component is an object, got {}", kind_name(value)),
        ))?;
        return Ok(None);
    };
    let before = found.problems.len();
    let id = match map.get("id") {
        Some(Value::String(id)) => id.clone(),
        None => {
            found.push(Error::in_message(
                Validation,
                at,
                "a component is missing an 'id'",
            ))?;
            String::new()
        }
        Some(other) => {
            found.push(Error::in_message(
                Validation,
                format!("{at}/id"),
                format!(
                    "a component's 'id' must be a string, got {}",
                    kind_name(other)
                ),
            ))?;
            String::new()
        }
    };
    let component = match map.get("component") {
        Some(Value::String(c)) => c.clone(),
        None => {
            found.push(Error::in_message(
                Validation,
                at,
                format!(
                    "Cannot create component '{id}' without a 'component' (its type, such as \"Text\")"
                ),
            ))?;
            String::new()
        }
        Some(Value::Object(_)) => {
            found.push(Error::in_message(
                Validation,
                format!("{at}/component"),
                "'component' is the component's type name (v0.9 and later); the v0.8 form {\"Text\": {…}} is not read",
            ))?;
            String::new()
        }
        Some(other) => {
            found.push(Error::in_message(
                Validation,
                format!("{at}/component"),
                format!("'component' must be a string, got {}", kind_name(other)),
            ))?;
            String::new()
        }
    };
    let mut def = ComponentDef {
        pointer: at.to_owned(),
        id,
        component,
        catalog_id: None,
        accessibility: None,
        checks: None,
        metadata: None,
        props: Map::new(),
        at_keys: 0,
    };
    for (key, value) in map {
        let envelope = ENVELOPE
            .iter()
            .position(|(plain, at_form)| key == plain || key == at_form);
        match envelope {
            Some(i) => {
                let plain = &ENVELOPE[i].0;
                if key.starts_with('@') {
                    def.at_keys |= 1 << i;
                }
                let slot = match *plain {
                    "catalogId" => {
                        let Value::String(c) = value else {
                            found.push(Error::in_message(
                                Validation,
                                format!("{at}/{}", escape_token(key)),
                                format!("catalogId must be a string, got {}", kind_name(value)),
                            ))?;
                            continue;
                        };
                        if def.catalog_id.replace(c.clone()).is_some() {
                            found.push(both_spellings(at, key))?;
                        }
                        continue;
                    }
                    "accessibility" => &mut def.accessibility,
                    "checks" => &mut def.checks,
                    _ => &mut def.metadata,
                };
                if slot.replace(value.clone()).is_some() {
                    found.push(both_spellings(at, key))?;
                }
            }
            None if key == "id" || key == "component" => {}
            None => {
                def.props.insert(key.clone(), value.clone());
            }
        }
    }
    Ok((found.problems.len() == before).then_some(def))
}

fn both_spellings(at: &str, key: &str) -> Error {
    let plain = key.trim_start_matches('@');
    Error::in_message(
        Category::Validation,
        format!("{at}/{}", escape_token(key)),
        format!("a component has '{plain}' or '@{plain}', not both"),
    )
}
