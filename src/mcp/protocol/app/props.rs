//! [`McpAppProps`]: the component's properties, parsed and checked against the catalog schema,
//! and the checks of the app's requests against them.

use super::paths::{AppBinding, PathBinding};
use super::policy::{self, AllowedFunction, AppDenial, FunctionCallDecision, ToolCallDecision};
use super::uri::decode_html_content;
use crate::error::{Error, ErrorCode, Phase};
use crate::json::{depth_exceeds, kind_name};
use crate::limits::Limits;
use crate::path::{DataPath, escape_token};
use crate::syntax::{Misfit, binding_misfits, call_misfits};
use serde_json::{Map, Value};

/// The component's name in the catalog.
pub const COMPONENT_NAME: &str = "McpApp";

/// A `DynamicString` property: a literal string, or a dynamic value for the host to evaluate.
#[derive(Debug, Clone, PartialEq)]
pub enum DynamicString {
    /// A literal string.
    Literal(String),
    /// A binding (`{"@path": "/title"}`) or a function call (`{"@call": …}`), kept as JSON: the
    /// host evaluates it with the surface's data model and catalogs. Only its outer shape is
    /// checked here (the keys and their types), not the function or its arguments.
    Dynamic(Value),
}

impl DynamicString {
    /// The literal string, or `None` for a dynamic value.
    pub fn as_literal(&self) -> Option<&str> {
        match self {
            DynamicString::Literal(s) => Some(s),
            DynamicString::Dynamic(_) => None,
        }
    }
}

/// `csp`: per-resource Content Security Policy domain allowlists (`_meta.ui.csp` of MCP Apps).
/// `None` is an absent list, which is not the same as an empty one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Csp {
    /// `connectDomains`: origins allowed in `connect-src`.
    pub connect_domains: Option<Vec<String>>,
    /// `resourceDomains`: origins allowed for scripts, styles, images, fonts and media.
    pub resource_domains: Option<Vec<String>>,
    /// `frameDomains`: origins allowed for nested frames.
    pub frame_domains: Option<Vec<String>>,
    /// `baseUriDomains`: origins allowed for `base-uri`.
    pub base_uri_domains: Option<Vec<String>>,
}

/// One delegated browser permission: a flag, or an object of options kept as JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Permission {
    /// `true` or `false`.
    Flag(bool),
    /// An object, passed to the host as is.
    Options(Map<String, Value>),
}

/// `permissions`: browser capabilities delegated to the app's frame (`_meta.ui.permissions`).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Permissions {
    /// `camera`.
    pub camera: Option<Permission>,
    /// `microphone`.
    pub microphone: Option<Permission>,
    /// `geolocation`.
    pub geolocation: Option<Permission>,
    /// `clipboardWrite` (the `clipboard-write` feature).
    pub clipboard_write: Option<Permission>,
}

/// The properties of an `McpApp` component, checked and typed.
///
/// Besides the catalog's own properties, the A2UI properties every component may carry are
/// accepted: `id` (a string), `weight` (a number) and `accessibility` (an object of `label` and
/// `description`, both `DynamicString`s, kept as JSON). Anything else is an error.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct McpAppProps {
    /// `id`, when the component has one.
    pub id: Option<String>,
    /// `weight`, when the component has one.
    pub weight: Option<f64>,
    /// `accessibility`, when the component has it.
    pub accessibility: Option<Map<String, Value>>,
    /// `htmlContent`. A literal is stored decoded ([`decode_html_content`]); a dynamic value is
    /// kept as JSON, and the host decodes what it evaluates to.
    pub html_content: DynamicString,
    /// `title`, the frame's accessible title.
    pub title: Option<DynamicString>,
    /// `allowedTools` (empty when absent: no tool is allowed).
    pub allowed_tools: Vec<String>,
    /// `allowedFunctions`, in the component's order, each schema compiled.
    pub allowed_functions: Vec<AllowedFunction>,
    /// `data.paths`, in the component's order.
    pub data_paths: Vec<PathBinding>,
    /// `csp`.
    pub csp: Option<Csp>,
    /// `permissions`.
    pub permissions: Option<Permissions>,
    /// The depth limit the component was parsed with, which the app's requests are held to.
    max_depth: usize,
}

/// The problems found while parsing, each with its location.
struct Problems(Vec<Error>);

impl Problems {
    fn add(&mut self, location: impl Into<String>, message: impl Into<String>) {
        self.0.push(
            Error::new(ErrorCode::ValidationFailed, message)
                .with_phase(Phase::Compile)
                .with_location(location),
        );
    }

    fn wrong_type(&mut self, location: &str, name: &str, wanted: &str, got: &Value) {
        self.add(
            location,
            format!("`{name}` must be {wanted}, got {}", kind_name(got)),
        );
    }
}

fn dynamic_string(
    value: &Value,
    at: &str,
    name: &str,
    problems: &mut Problems,
) -> Option<DynamicString> {
    let wanted = "a string or a dynamic value ({\"@path\": …} or {\"@call\": …})";
    match value {
        Value::String(s) => Some(DynamicString::Literal(s.clone())),
        Value::Object(map) if map.contains_key("@path") => {
            if binding_misfits(map).is_empty() {
                return Some(DynamicString::Dynamic(value.clone()));
            }
            problems.add(
                at,
                format!(
                    "`{name}` is a malformed binding: it must be {{\"@path\": <string>}} alone"
                ),
            );
            None
        }
        Value::Object(map) if map.contains_key("@call") => {
            let misfits = call_misfits(map);
            for misfit in &misfits {
                match misfit {
                    Misfit::Unknown(key) => problems.add(
                        format!("{at}/{}", escape_token(key)),
                        format!("`{name}` is a function call with an unknown member `{key}`"),
                    ),
                    Misfit::WrongType { key, wanted, got } => problems.add(
                        format!("{at}/{}", escape_token(key)),
                        format!(
                            "`{key}` of the function call in `{name}` must be {wanted}, got {}",
                            kind_name(got)
                        ),
                    ),
                }
            }
            misfits
                .is_empty()
                .then(|| DynamicString::Dynamic(value.clone()))
        }
        other => {
            problems.wrong_type(at, name, wanted, other);
            None
        }
    }
}

fn string_list(
    value: &Value,
    at: &str,
    name: &str,
    problems: &mut Problems,
) -> Option<Vec<String>> {
    let Some(items) = value.as_array() else {
        problems.wrong_type(at, name, "an array of strings", value);
        return None;
    };
    let mut out = Vec::with_capacity(items.len());
    let before = problems.0.len();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) => out.push(s.clone()),
            other => problems.wrong_type(
                &format!("{at}/{i}"),
                &format!("{name}[{i}]"),
                "a string",
                other,
            ),
        }
    }
    (problems.0.len() == before).then_some(out)
}

impl Csp {
    /// Reads the `csp` of an MCP App resource's `_meta.ui` (what
    /// [`McpAppResource::csp`](crate::mcp::McpAppResource::csp) holds), keeping the members it
    /// knows and naming, in the second value, the ones it does not (a newer revision's
    /// `wasmUnsafeEval`, a typo): the host reports them and decides, instead of a policy
    /// loosened or tightened in silence. A known member of the wrong type is a
    /// `VALIDATION_FAILED` error at it; so is a `csp` that is not an object.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::Csp;
    /// use serde_json::json;
    /// let (csp, unknown) = Csp::from_resource(&json!({"connectDomains": ["https://api.example.com"], "wasmUnsafeEval": true}))?;
    /// assert_eq!(csp.connect_domains, Some(vec!["https://api.example.com".to_owned()]));
    /// assert_eq!(unknown, ["wasmUnsafeEval"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn from_resource(value: &Value) -> Result<(Csp, Vec<String>), Error> {
        let mut problems = Problems(Vec::new());
        let mut unknown = Vec::new();
        let Some(map) = value.as_object() else {
            return Err(Error::new(
                ErrorCode::ValidationFailed,
                format!("`csp` must be an object, got {}", kind_name(value)),
            )
            .with_location("/csp"));
        };
        let mut known = Map::new();
        for (key, member) in map {
            if KNOWN_CSP.contains(&key.as_str()) {
                known.insert(key.clone(), member.clone());
            } else {
                unknown.push(key.clone());
            }
        }
        match parse_csp(&Value::Object(known), &mut problems) {
            Some(csp) => Ok((csp, unknown)),
            None => Err(Error::from_many(problems.0).unwrap_or_else(|| {
                Error::new(ErrorCode::ValidationFailed, "`csp` is not valid").with_location("/csp")
            })),
        }
    }
}

/// The members of `csp` this crate knows.
const KNOWN_CSP: [&str; 4] = [
    "connectDomains",
    "resourceDomains",
    "frameDomains",
    "baseUriDomains",
];

fn parse_csp(value: &Value, problems: &mut Problems) -> Option<Csp> {
    let Some(map) = value.as_object() else {
        problems.wrong_type("/csp", "csp", "an object", value);
        return None;
    };
    let mut csp = Csp::default();
    let before = problems.0.len();
    for (key, list) in map {
        let at = format!("/csp/{}", escape_token(key));
        let slot = match key.as_str() {
            "connectDomains" => &mut csp.connect_domains,
            "resourceDomains" => &mut csp.resource_domains,
            "frameDomains" => &mut csp.frame_domains,
            "baseUriDomains" => &mut csp.base_uri_domains,
            _ => {
                problems.add(at, format!("unknown property `{key}` in `csp`"));
                continue;
            }
        };
        *slot = string_list(list, &at, &format!("csp.{key}"), problems);
    }
    (problems.0.len() == before).then_some(csp)
}

fn parse_permissions(value: &Value, problems: &mut Problems) -> Option<Permissions> {
    let Some(map) = value.as_object() else {
        problems.wrong_type("/permissions", "permissions", "an object", value);
        return None;
    };
    let mut permissions = Permissions::default();
    let before = problems.0.len();
    for (key, member) in map {
        let at = format!("/permissions/{}", escape_token(key));
        let slot = match key.as_str() {
            "camera" => &mut permissions.camera,
            "microphone" => &mut permissions.microphone,
            "geolocation" => &mut permissions.geolocation,
            "clipboardWrite" => &mut permissions.clipboard_write,
            _ => {
                problems.add(at, format!("unknown property `{key}` in `permissions`"));
                continue;
            }
        };
        *slot = match member {
            Value::Bool(flag) => Some(Permission::Flag(*flag)),
            Value::Object(options) => Some(Permission::Options(options.clone())),
            other => {
                let name = format!("permissions.{key}");
                problems.wrong_type(&at, &name, "a boolean or an object", other);
                None
            }
        };
    }
    (problems.0.len() == before).then_some(permissions)
}

fn parse_data(value: &Value, max_depth: usize, problems: &mut Problems) -> Vec<PathBinding> {
    let Some(map) = value.as_object() else {
        problems.wrong_type("/data", "data", "an object", value);
        return Vec::new();
    };
    for key in map.keys().filter(|k| *k != "paths") {
        problems.add(
            format!("/data/{}", escape_token(key)),
            format!("unknown property `{key}` in `data`"),
        );
    }
    let Some(paths) = map.get("paths") else {
        problems.add("/data", "`data` needs `paths`");
        return Vec::new();
    };
    let Some(paths) = paths.as_object() else {
        problems.wrong_type("/data/paths", "data.paths", "an object", paths);
        return Vec::new();
    };
    let mut out: Vec<PathBinding> = Vec::with_capacity(paths.len());
    for (key, path) in paths {
        let at = format!("/data/paths/{}", escape_token(key));
        let Value::String(path) = path else {
            problems.wrong_type(&at, &format!("data.paths.{key}"), "a string", path);
            continue;
        };
        if let Err(e) = DataPath::parse_limited(path, max_depth) {
            problems.add(at, e.message());
            continue;
        }
        if let Some(first) = out.iter().find(|p| p.path == *path) {
            problems.add(
                at,
                format!(
                    "`data.paths` binds '{path}' twice (`{}` and `{key}`): paths must be distinct",
                    first.binding.key()
                ),
            );
            continue;
        }
        out.push(PathBinding {
            binding: AppBinding::from_key(key),
            path: path.clone(),
        });
    }
    out
}

fn parse_accessibility(value: &Value, problems: &mut Problems) -> Option<Map<String, Value>> {
    let Some(map) = value.as_object() else {
        problems.wrong_type("/accessibility", "accessibility", "an object", value);
        return None;
    };
    let before = problems.0.len();
    for (key, member) in map {
        let at = format!("/accessibility/{}", escape_token(key));
        match key.as_str() {
            "label" | "description" => {
                dynamic_string(member, &at, &format!("accessibility.{key}"), problems);
            }
            _ => problems.add(at, format!("unknown property `{key}` in `accessibility`")),
        }
    }
    (problems.0.len() == before).then(|| map.clone())
}

impl McpAppProps {
    /// Parses and checks a component (`{"component": "McpApp", "htmlContent": …, …}`).
    ///
    /// Every problem is reported at once, as one `VALIDATION_FAILED` error (its first problem)
    /// with the others in [`Error::related`], each located by a JSON Pointer into the component:
    /// a missing `component` or `htmlContent`, a `component` other than `"McpApp"`, an unknown
    /// property (also inside `data`, `csp`, `permissions`, `accessibility`), a value of the
    /// wrong type, a malformed binding or function call in a `DynamicString` slot, a literal
    /// `url_encoded:` HTML that does not decode, an `allowedFunctions` schema that is not a
    /// valid JSON Schema, a `data.paths` path with a bad `~` escape, or two keys bound to one
    /// path. A component nested deeper than `limits.max_depth` is one `LIMIT_EXCEEDED` error;
    /// the app's requests are held to the same depth.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::McpAppProps;
    /// use a2ui_catalog_mcp::ErrorCode;
    /// use serde_json::json;
    ///
    /// let err = McpAppProps::parse(&json!({
    ///     "component": "McpApp",
    ///     "htmlContent": "url_encoded:%E9t%E9",
    ///     "allowedTools": ["a", 2],
    ///     "height": 300
    /// }), &a2ui_catalog_mcp::Limits::default()).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::ValidationFailed);
    /// let problems: Vec<(&str, &str)> =
    ///     err.problems().map(|p| (p.location(), p.message())).collect();
    /// assert_eq!(problems, [
    ///     ("/htmlContent", "URIError: malformed URI sequence at byte 3: \
    ///                       expected '%' continuing a UTF-8 sequence"),
    ///     ("/allowedTools/1", "`allowedTools[1]` must be a string, got a number"),
    ///     ("/height", "unknown property `height`"),
    /// ]);
    /// assert_eq!(err.to_string(), "VALIDATION_FAILED at /htmlContent: URIError: malformed URI \
    ///     sequence at byte 3: expected '%' continuing a UTF-8 sequence (and 2 more)");
    /// ```
    pub fn parse(component: &Value, limits: &Limits) -> Result<McpAppProps, Error> {
        let Some(map) = component.as_object() else {
            return Err(Error::new(
                ErrorCode::ValidationFailed,
                format!(
                    "an McpApp component must be an object, got {}",
                    kind_name(component)
                ),
            )
            .with_phase(Phase::Compile));
        };
        // Parsing copies parts of the component; a bounded depth keeps those copies shallow.
        if depth_exceeds(component, limits.max_depth) {
            return Err(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the McpApp component nests deeper than the limit of {} levels",
                    limits.max_depth
                ),
            )
            .with_phase(Phase::Compile));
        }
        let mut problems = Problems(Vec::new());
        let mut props = McpAppProps {
            id: None,
            weight: None,
            accessibility: None,
            html_content: DynamicString::Literal(String::new()),
            title: None,
            allowed_tools: Vec::new(),
            allowed_functions: Vec::new(),
            data_paths: Vec::new(),
            csp: None,
            permissions: None,
            max_depth: limits.max_depth,
        };
        let mut has_html = false;
        for (key, value) in map {
            let at = format!("/{}", escape_token(key));
            match key.as_str() {
                "component" => {
                    if value.as_str() != Some(COMPONENT_NAME) {
                        problems.add(
                            at,
                            format!("`component` must be \"{COMPONENT_NAME}\", got {value}"),
                        );
                    }
                }
                "id" => match value {
                    Value::String(id) => props.id = Some(id.clone()),
                    other => problems.wrong_type(&at, "id", "a string", other),
                },
                "weight" => match value.as_f64() {
                    Some(weight) => props.weight = Some(weight),
                    None => problems.wrong_type(&at, "weight", "a number", value),
                },
                "accessibility" => props.accessibility = parse_accessibility(value, &mut problems),
                "htmlContent" => {
                    has_html = true;
                    match dynamic_string(value, &at, "htmlContent", &mut problems) {
                        Some(DynamicString::Literal(html)) => match decode_html_content(&html) {
                            Ok(decoded) => {
                                props.html_content = DynamicString::Literal(decoded.into_owned());
                            }
                            Err(e) => problems.add(at, e.message()),
                        },
                        Some(dynamic) => props.html_content = dynamic,
                        None => {}
                    }
                }
                "title" => props.title = dynamic_string(value, &at, "title", &mut problems),
                "allowedTools" => {
                    props.allowed_tools =
                        string_list(value, &at, "allowedTools", &mut problems).unwrap_or_default();
                }
                "allowedFunctions" => match value {
                    Value::Object(functions) => {
                        for (name, schema) in functions {
                            match AllowedFunction::compile(name, schema) {
                                Ok(f) => props.allowed_functions.push(f),
                                Err(problem) => problems.add(
                                    format!("/allowedFunctions/{}", escape_token(name)),
                                    problem,
                                ),
                            }
                        }
                    }
                    other => problems.wrong_type(&at, "allowedFunctions", "an object", other),
                },
                "data" => props.data_paths = parse_data(value, limits.max_depth, &mut problems),
                "csp" => props.csp = parse_csp(value, &mut problems),
                "permissions" => props.permissions = parse_permissions(value, &mut problems),
                _ => problems.add(at, format!("unknown property `{key}`")),
            }
        }
        if !map.contains_key("component") {
            problems.add("", "an McpApp component needs `component`");
        }
        if !has_html {
            problems.add("", "an McpApp component needs `htmlContent`");
        }
        match Error::from_many(problems.0) {
            Some(error) => Err(error),
            None => Ok(props),
        }
    }

    /// The `data.paths` entry of `key`, if the component binds it.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::McpAppProps;
    /// use serde_json::json;
    ///
    /// let props = McpAppProps::parse(&json!({"component": "McpApp", "htmlContent": "",
    ///     "data": {"paths": {"modelContext": "/ctx"}}}), &a2ui_catalog_mcp::Limits::default())?;
    /// assert_eq!(props.data_path("modelContext").map(|p| p.path.as_str()), Some("/ctx"));
    /// assert!(props.data_path("toolInput").is_none());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn data_path(&self, key: &str) -> Option<&PathBinding> {
        self.data_paths.iter().find(|p| p.binding.key() == key)
    }

    /// Checks the params of the app's `tools/call` request (`{"name": …, "arguments": {…}}`)
    /// against `allowedTools`.
    ///
    /// A listed tool is [`ToolCallDecision::Allowed`], any other [`ToolCallDecision::Denied`].
    /// A malformed request is an error (`VALIDATION_FAILED`): params that are not an object, a
    /// `name` that is missing, empty or not a string, `arguments` that are not an object
    /// (absent or `null` means `{}`); arguments nested deeper than the component's depth limit are
    /// `LIMIT_EXCEEDED`.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::{AppDenial, McpAppProps, ToolCallDecision};
    /// use serde_json::json;
    ///
    /// let props = McpAppProps::parse(&json!({"component": "McpApp", "htmlContent": "<p/>",
    ///     "allowedTools": ["move_card"]}), &a2ui_catalog_mcp::Limits::default())?;
    /// assert_eq!(
    ///     props.check_tool_call(&json!({"name": "move_card", "arguments": {"to": "done"}}))?,
    ///     ToolCallDecision::Allowed {
    ///         tool: "move_card".into(),
    ///         arguments: json!({"to": "done"}).as_object().unwrap().clone(),
    ///     }
    /// );
    /// assert_eq!(
    ///     props.check_tool_call(&json!({"name": "delete_board"}))?,
    ///     ToolCallDecision::Denied(AppDenial::ToolNotAllowed { tool: "delete_board".into() })
    /// );
    /// assert!(props.check_tool_call(&json!({"name": "move_card", "arguments": [1]})).is_err());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn check_tool_call(&self, params: &Value) -> Result<ToolCallDecision, Error> {
        let tool = policy::request_name(params, "name", "tools/call")?;
        let arguments =
            policy::request_arguments(params, "arguments", "tools/call", self.max_depth)?;
        if !self.allowed_tools.iter().any(|t| t == tool) {
            return Ok(ToolCallDecision::Denied(AppDenial::ToolNotAllowed {
                tool: tool.to_owned(),
            }));
        }
        Ok(ToolCallDecision::Allowed {
            tool: tool.to_owned(),
            arguments,
        })
    }

    /// Checks the params of the app's `ui/requests/function-call` request
    /// (`{"call": …, "args": {…}}`) against `allowedFunctions`: the function must be listed and
    /// its arguments must match its JSON Schema. The schema is checked with the `json-schema`
    /// feature; without it, a function whose schema constrains anything (more than `{}` or
    /// annotations like `title`) is [`AppDenial::SchemaNotChecked`].
    ///
    /// A malformed request is an error (`VALIDATION_FAILED`): params that are not an object, a
    /// `call` that is missing, empty or not a string, `args` that are not an object (absent or
    /// `null` means `{}`); arguments nested deeper than the component's depth limit are `LIMIT_EXCEEDED`.
    /// Whether the function exists in the surface's catalog is for the host to check.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::{AppDenial, FunctionCallDecision, McpAppProps};
    /// use serde_json::json;
    ///
    /// let props = McpAppProps::parse(&json!({"component": "McpApp", "htmlContent": "<p/>",
    ///     "allowedFunctions": {"formatDate": {
    ///         "type": "object",
    ///         "properties": {"value": {"type": "string"}},
    ///         "required": ["value"]}}}), &a2ui_catalog_mcp::Limits::default())?;
    /// let ok = props.check_function_call(&json!({"call": "formatDate",
    ///                                            "args": {"value": "2026-11-30"}}))?;
    /// # #[cfg(feature = "json-schema")]
    /// assert!(matches!(ok, FunctionCallDecision::Allowed { .. }));
    /// # #[cfg(not(feature = "json-schema"))]
    /// assert!(matches!(ok, FunctionCallDecision::Denied(AppDenial::SchemaNotChecked { .. })));
    ///
    /// let bad = props.check_function_call(&json!({"call": "formatDate", "args": {"value": 3}}))?;
    /// let FunctionCallDecision::Denied(denial) = bad else { panic!() };
    /// # #[cfg(feature = "json-schema")]
    /// assert_eq!(denial.message(), "Arguments of function 'formatDate' do not match its \
    ///                               schema: 3 is not of type \"string\" at /value");
    ///
    /// let unlisted = props.check_function_call(&json!({"call": "openUrl", "args": {}}))?;
    /// assert_eq!(unlisted, FunctionCallDecision::Denied(AppDenial::FunctionNotAllowed {
    ///     function: "openUrl".into() }));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn check_function_call(&self, params: &Value) -> Result<FunctionCallDecision, Error> {
        let function = policy::request_name(params, "call", "ui/requests/function-call")?;
        let args =
            policy::request_arguments(params, "args", "ui/requests/function-call", self.max_depth)?;
        Ok(policy::decide_function_call(
            &self.allowed_functions,
            function,
            args,
        ))
    }
}
