//! Catalog documents: an A2UI catalog's JSON read into a [`Catalog`] of declared functions.
//!
//! [`Catalog::from_schema`] reads the function entries of both shapes A2UI catalogs use:
//!
//! - the MCP catalog's: `{"returnType": "any", "properties": {"@call": {"const": …}, "args":
//!   {…}}}`;
//! - the basic catalog's (v1.0): the entry nests its argument schema in `allOf`, next to a `$ref`
//!   to the common types, and declares `returnType` beside it: `{"returnType": "string",
//!   "allOf": [{"$ref": "…/common_types.json#/$defs/FunctionCommon"}, {"properties": {"call":
//!   {"const": …}, "args": {…}}}], "unevaluatedProperties": false}`. The v0.9 form, with
//!   `returnType` as `properties.returnType.const`, is read too.
//!
//! Each function keeps its declared arguments (required and optional, whether others are
//! accepted), its declared return type and its argument JSON Schema
//! ([`FunctionDeclaration`]). Functions are declared without implementations: the host attaches
//! them by name ([`Catalog::implement_function`]). Calling one the host did not implement
//! compiles, and fails when it runs, with an error naming the function and the catalog.
//!
//! What a call of a declared function is checked against, and which schema keywords are
//! understood: see [`FunctionDeclaration`].

use super::{ArgSchema, Args, CallContext, Catalog, Function, FunctionDef};
use crate::error::{Error, ErrorCode};
use crate::json::{DEFAULT_MAX_DEPTH, depth_exceeds, kind_name};
use crate::origin::{Access, AllowedCallers};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// A function a catalog document declares: its arguments, its return type and its argument
/// schema.
///
/// # What a call is checked against when it is compiled
///
/// - Its arguments: every required one present, none the schema does not declare
///   (`additionalProperties: false` or `unevaluatedProperties: false` on the arguments object).
///   Always.
/// - Its `returnType`, when the call gives one: it must match the declared one (`any` on either
///   side matches everything, `array` matches `string[]` and the like). Always.
/// - Its literal arguments, against the argument schema, with the feature `json-schema` (which
///   the `cli` feature turns on). Without the feature, the two checks above still run and the
///   schema is kept but not evaluated. A binding or a call in an argument is only known when the
///   payload runs, so it is left out: a violation is reported only when it cannot depend on a
///   dynamic value. An error about the dynamic value itself or anything inside it is dropped;
///   an error about an object or array holding one is kept only for what its keys or its length
///   decide (`required`, `minItems`, `type`, `additionalProperties`, …) or, for `anyOf` and
///   `oneOf`, when every alternative fails for such a reason (a `length` call with neither `min`
///   nor `max` fails both `{"required": ["min"]}` and `{"required": ["max"]}`, whatever its
///   `value` is bound to). Errors reached through `then`/`else` are dropped when any argument is
///   dynamic (the `if` may have looked at it). Dynamic arguments are checked by the function when
///   it runs, as always. Bindings and calls of both spellings are left out, whichever the
///   environment reads ([`Spelling`](crate::Spelling)): in the `@` spelling a literal object
///   shaped exactly like a plain binding or call (`{"path": "/x"}`, `{"call": "f", "args": {…}}`)
///   is most likely a misspelled dynamic value (the compiler warns about it), and its value is not
///   the schema's question.
///
/// Literal argument errors are `EXPRESSION_ERROR` at the argument (`/args/max`), or
/// `VALIDATION_FAILED` at the call when they are about which arguments are passed; a `returnType`
/// mismatch is `VALIDATION_FAILED` at the call.
///
/// # Schema keywords understood
///
/// Every JSON Schema keyword of the document's draft (2020-12 by default) as the `jsonschema`
/// crate implements it, `format` included (asserted, not just annotated: `email`, `uri`, `date`,
/// `date-time`, `time`, `ipv4`, …; unknown formats are ignored). `$ref`s are followed within the
/// catalog document. A `$ref` to the A2UI common types (any URI ending in `common_types.json`)
/// stands for the literal form of the type, since the dynamic forms are left out:
/// `DynamicString` is a string, `DynamicNumber` a number, `DynamicBoolean` a boolean,
/// `DynamicStringList` an array of strings, `ComponentId`, `Child` and `CallId` strings;
/// `DataBinding` and `FunctionCall` match no literal; `DynamicValue` and any other common type
/// accept everything. A `$ref` to any other document is not followed: what it constrains is
/// accepted.
///
/// The crate's own MCP catalog functions check their arguments themselves, with the messages of
/// the reference implementation, so [`Catalog::mcp`] does not validate their literal arguments
/// against the schema.
///
/// # Example
///
/// ```
/// use a2ui_catalog_mcp::Catalog;
/// use serde_json::json;
///
/// let catalog = Catalog::from_schema(&json!({
///     "catalogId": "https://example.com/basic.json",
///     "functions": {"formatCurrency": {
///         "returnType": "string",
///         "allOf": [{"properties": {"call": {"const": "formatCurrency"}, "args": {
///             "properties": {"value": {"type": "number"}, "currency": {"type": "string"},
///                            "decimals": {"type": "integer", "minimum": 0}},
///             "required": ["value", "currency"],
///             "unevaluatedProperties": false
///         }}}]
///     }}
/// }))?;
/// let declared = catalog.declaration("formatCurrency").unwrap();
/// assert_eq!(declared.return_type(), Some("string"));
/// assert_eq!(declared.required_args().collect::<Vec<_>>(), ["value", "currency"]);
/// assert_eq!(declared.optional_args().collect::<Vec<_>>(), ["decimals"]);
/// assert!(!catalog.is_implemented("formatCurrency"));
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
pub struct FunctionDeclaration {
    catalog: String,
    name: String,
    access: Access,
    return_type: Option<String>,
    args_schema: Value,
    arguments: ArgSchema,
    #[cfg(feature = "json-schema")]
    validator: Option<jsonschema::Validator>,
    /// Whether every compile validates literal arguments with `validator`; otherwise (the
    /// built-in functions, which check their own arguments by the reference's rules) only a
    /// compile asking for the catalogs' schemas does ([`Environment::set_schema_checks`]).
    ///
    /// [`Environment::set_schema_checks`]: crate::Environment::set_schema_checks
    #[cfg(feature = "json-schema")]
    always: bool,
}

impl std::fmt::Debug for FunctionDeclaration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FunctionDeclaration")
            .field("catalog", &self.catalog)
            .field("name", &self.name)
            .field("return_type", &self.return_type)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}

impl FunctionDeclaration {
    /// The id of the catalog that declares the function.
    pub fn catalog_id(&self) -> &str {
        &self.catalog
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Who may call it and when (`allowedCallers`, `requiresUserActivation`; by default the
    /// renderer, without user activation).
    pub fn access(&self) -> Access {
        self.access
    }

    /// The declared return type (`"string"`, `"boolean"`, `"any"`, …), when the entry has one.
    pub fn return_type(&self) -> Option<&str> {
        self.return_type.as_deref()
    }

    /// The argument schema as the document declares it (several argument schemas of one entry
    /// are combined as `{"allOf": […]}`). `$ref`s in it are relative to the catalog document.
    pub fn args_schema(&self) -> &Value {
        &self.args_schema
    }

    /// The declared arguments.
    pub fn arguments(&self) -> &ArgSchema {
        &self.arguments
    }

    /// The names of the required arguments, in declaration order.
    pub fn required_args(&self) -> impl Iterator<Item = &str> {
        let arguments = &self.arguments;
        arguments
            .names()
            .enumerate()
            .filter(|(slot, _)| arguments.is_required(*slot))
            .map(|(_, name)| name)
    }

    /// The names of the optional arguments, in declaration order.
    pub fn optional_args(&self) -> impl Iterator<Item = &str> {
        let arguments = &self.arguments;
        arguments
            .names()
            .enumerate()
            .filter(|(slot, _)| !arguments.is_required(*slot))
            .map(|(_, name)| name)
    }

    /// Whether literal arguments are validated against the schema at every compile (with the
    /// feature `json-schema`, for a document the host read). The built-in catalogs' functions
    /// check their own arguments, and are validated against their documents' schemas only when
    /// the environment asks for it ([`Environment::set_schema_checks`](crate::Environment::set_schema_checks)).
    pub fn validates_literals(&self) -> bool {
        #[cfg(feature = "json-schema")]
        return self.always && self.validator.is_some();
        #[cfg(not(feature = "json-schema"))]
        false
    }

    /// The compile-time checks of one call site (`call` is the call object, `location` its JSON
    /// Pointer in the payload): its `returnType` and its literal arguments.
    pub(crate) fn check_call(
        &self,
        call: &Map<String, Value>,
        location: &str,
        max_depth: usize,
        schema_checks: bool,
    ) -> Vec<Error> {
        let mut errors = Vec::new();
        if let (Some(Value::String(wanted)), Some(declared)) =
            (call.get("returnType"), &self.return_type)
            && !return_types_match(wanted, declared)
        {
            errors.push(
                Error::new(
                    ErrorCode::ValidationFailed,
                    format!(
                        "'{}' returns {declared} (catalog '{}'), but the call says its returnType is '{wanted}'",
                        self.name, self.catalog
                    ),
                )
                .with_function(self.name.clone())
                .with_location(location),
            );
        }
        #[cfg(feature = "json-schema")]
        if let Some(validator) = self
            .validator
            .as_ref()
            .filter(|_| self.always || schema_checks)
        {
            let empty = Map::new();
            let args = match call.get("args") {
                None => &empty,
                Some(Value::Object(args)) => args,
                // Reported by the compiler.
                Some(_) => return errors,
            };
            literal::check(self, validator, args, location, max_depth, &mut errors);
        }
        #[cfg(not(feature = "json-schema"))]
        let _ = (max_depth, schema_checks);
        errors
    }
}

/// Whether a call's `returnType` agrees with the declared one.
fn return_types_match(wanted: &str, declared: &str) -> bool {
    let is_array = |t: &str| t == "array" || t.ends_with("[]");
    wanted == declared
        || wanted == "any"
        || declared == "any"
        || (wanted == "array" && is_array(declared))
        || (declared == "array" && is_array(wanted))
}

/// What a declared function that the host has not implemented does when it is called.
struct NotImplemented {
    function: String,
    catalog: String,
}

impl Function for NotImplemented {
    fn call(&self, _args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
        Err(Error::new(
            ErrorCode::ExpressionError,
            format!(
                "function '{}' is declared by catalog '{}' but the host has not implemented it",
                self.function, self.catalog
            ),
        )
        .with_function(self.function.clone()))
    }
}

/// The implementation a call of `def` runs: its own, or one that fails naming the function and
/// its catalog.
pub(crate) fn implementation(def: &FunctionDef, name: &str) -> Arc<dyn Function> {
    match &def.imp {
        Some(function) => Arc::clone(function),
        None => Arc::new(NotImplemented {
            function: name.to_owned(),
            catalog: def
                .declaration
                .as_ref()
                .map_or_else(String::new, |d| d.catalog.clone()),
        }),
    }
}

/// Whether literal arguments are validated against the document's schemas.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LiteralChecks {
    On,
    /// For the built-in functions, which check their own arguments: the schema is validated
    /// only when the environment asks for the catalogs' schemas.
    Off,
}

fn not_a_catalog(why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("not an A2UI catalog document: {why}"),
    )
}

fn bad_entry(name: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("invalid catalog document: function '{name}': {why}"),
    )
}

/// Where a catalog document `$ref`s another catalog, which the published v1.0 text no longer
/// allows (November 2026: a catalog is self-contained but for the common types): the `$ref`'s
/// JSON Pointer in the document and its target. A target is another catalog when its document
/// is not this one (`$id` / `catalogId`) and is named `…catalog.json` or is pointed into at
/// its `components` or `functions`. `common_types.json` and other schemas are not catalogs.
/// The walk uses an explicit stack.
///
/// ```
/// use a2ui_catalog_mcp::{Catalog, ErrorCode};
/// use serde_json::json;
/// let err = Catalog::from_schema(&json!({"catalogId": "mine", "functions": {
///     "upper": {"$ref": "https://example.com/other/catalog.json#/functions/upper"}}})).unwrap_err();
/// assert_eq!(err.code(), ErrorCode::ValidationFailed);
/// assert!(err.message().contains("at /functions/upper"), "{err}");
/// ```
pub(crate) fn foreign_catalog_ref(doc: &Value) -> Option<(String, String)> {
    let own: Vec<&str> = ["$id", "catalogId"]
        .iter()
        .filter_map(|k| doc.get(*k).and_then(Value::as_str))
        .collect();
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), doc)];
    while let Some((pointer, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    let (document, fragment) = target.split_once('#').unwrap_or((target, ""));
                    let name = document.rsplit('/').next().unwrap_or("");
                    let foreign = !document.is_empty()
                        && !own.contains(&document)
                        && name != "common_types.json"
                        && (name.ends_with("catalog.json")
                            || fragment.starts_with("/components/")
                            || fragment.starts_with("/functions/"));
                    if foreign {
                        return Some((pointer, target.clone()));
                    }
                }
                for (k, v) in map {
                    stack.push((format!("{pointer}/{}", crate::path::escape_token(k)), v));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    stack.push((format!("{pointer}/{i}"), v));
                }
            }
            _ => {}
        }
    }
    None
}

/// The error of a document that `$ref`s another catalog ([`foreign_catalog_ref`]).
pub(crate) fn foreign_catalog_message(pointer: &str, target: &str) -> String {
    format!(
        "the $ref at {pointer} points into another catalog ('{target}'): since November 2026 a v1.0 catalog does not $ref other catalogs; copy the definition into this one (custom definitions go under $defs)"
    )
}

/// Reads a catalog document (see the module docs).
pub(crate) fn load(doc: &Value, checks: LiteralChecks) -> Result<Catalog, Error> {
    let Value::Object(root) = doc else {
        return Err(not_a_catalog(format_args!(
            "a catalog is a JSON object, got {}",
            kind_name(doc)
        )));
    };
    if depth_exceeds(doc, DEFAULT_MAX_DEPTH) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!("the catalog document nests deeper than {DEFAULT_MAX_DEPTH} levels"),
        ));
    }
    if let Some((pointer, target)) = foreign_catalog_ref(doc) {
        return Err(Error::new(
            ErrorCode::ValidationFailed,
            format!(
                "invalid catalog document: {}",
                foreign_catalog_message(&pointer, &target)
            ),
        ));
    }
    let id = match (root.get("catalogId"), root.get("$id")) {
        (Some(Value::String(id)), _) => id.clone(),
        (Some(other), _) => {
            return Err(not_a_catalog(format_args!(
                "catalogId must be a string, got {}",
                kind_name(other)
            )));
        }
        (None, Some(Value::String(id))) => id.clone(),
        (None, _) => {
            return Err(not_a_catalog(
                "a catalog schema needs a string catalogId or $id",
            ));
        }
    };
    if !["catalogId", "functions", "components"]
        .iter()
        .any(|k| root.contains_key(*k))
    {
        let keys: Vec<&str> = root.keys().map(String::as_str).collect();
        return Err(not_a_catalog(format_args!(
            "'{id}' has no catalogId, functions or components (its keys: {})",
            keys.join(", ")
        )));
    }
    let functions = match root.get("functions") {
        None => None,
        Some(Value::Object(functions)) => Some(functions),
        Some(other) => {
            return Err(not_a_catalog(format_args!(
                "a catalog schema's functions must be an object mapping names to schemas, got {}",
                kind_name(other)
            )));
        }
    };
    let mut catalog = Catalog::new(id.clone());
    let Some(functions) = functions else {
        return Ok(catalog);
    };
    #[cfg(feature = "json-schema")]
    let compiler = match functions.is_empty() {
        false => Some(literal::Compiler::new(root)?),
        true => None,
    };
    #[cfg(not(feature = "json-schema"))]
    let _ = checks;
    for (name, entry) in functions {
        let found = read_entry(root, name, entry)?;
        let arguments = found.arguments(name)?;
        let args_schema = match found.args.len() {
            0 => json!({}),
            1 => found.args[0].1.clone(),
            _ => json!({"allOf": found.args.iter().map(|(_, s)| (*s).clone()).collect::<Vec<_>>()}),
        };
        #[cfg(feature = "json-schema")]
        let validator = match &compiler {
            Some(compiler) => Some(compiler.validator(name, &found.args)?),
            None => None,
        };
        let access = Access::new(
            found.allowed_callers.unwrap_or_default(),
            found.requires_user_activation.unwrap_or(false),
        );
        let declaration = FunctionDeclaration {
            catalog: id.clone(),
            name: name.clone(),
            access,
            return_type: found.return_type,
            args_schema,
            arguments: arguments.clone(),
            #[cfg(feature = "json-schema")]
            validator,
            #[cfg(feature = "json-schema")]
            always: checks == LiteralChecks::On,
        };
        catalog.functions.insert(
            name.clone(),
            FunctionDef {
                schema: Arc::new(arguments),
                imp: None,
                tool: false,
                access,
                declaration: Some(Arc::new(declaration)),
            },
        );
    }
    Ok(catalog)
}

/// What one function entry declares.
struct Entry<'d> {
    /// The argument schemas, each with its JSON Pointer in the document.
    args: Vec<(String, &'d Value)>,
    return_type: Option<String>,
    /// `allowedCallers` and `requiresUserActivation`, when declared.
    allowed_callers: Option<AllowedCallers>,
    requires_user_activation: Option<bool>,
}

/// Local `$ref`s followed while reading one entry: more is a loop.
const MAX_REFS: usize = 32;

/// Reads the schemas of `entry` (with its `allOf` members and local `$ref`s): the call name, the
/// argument schemas and the return type.
fn read_entry<'d>(
    root: &'d Map<String, Value>,
    name: &str,
    entry: &'d Value,
) -> Result<Entry<'d>, Error> {
    if !entry.is_object() {
        return Err(bad_entry(
            name,
            format_args!(
                "its entry must be a JSON Schema object, got {}",
                kind_name(entry)
            ),
        ));
    }
    let base = format!("/functions/{}", crate::path::escape_token(name));
    let mut out = Entry {
        args: Vec::new(),
        return_type: None,
        allowed_callers: None,
        requires_user_activation: None,
    };
    let mut named = false;
    let mut refs = 0;
    let mut stack: Vec<(String, &'d Value)> = vec![(base, entry)];
    while let Some((pointer, schema)) = stack.pop() {
        let Value::Object(schema) = schema else {
            continue;
        };
        match schema.get("returnType") {
            None => {}
            Some(Value::String(t)) => out.return_type = Some(t.clone()),
            Some(other) => {
                return Err(bad_entry(
                    name,
                    format_args!("returnType must be a string, got {}", kind_name(other)),
                ));
            }
        }
        match schema.get("allowedCallers") {
            None => {}
            Some(Value::String(c)) if AllowedCallers::parse(c).is_some() => {
                out.allowed_callers = AllowedCallers::parse(c);
            }
            Some(other) => {
                return Err(bad_entry(
                    name,
                    format_args!(
                        "allowedCallers must be \"rendererOnly\", \"agentOnly\" or \"rendererOrAgent\", got {other}"
                    ),
                ));
            }
        }
        match schema.get("requiresUserActivation") {
            None => {}
            Some(Value::Bool(b)) => out.requires_user_activation = Some(*b),
            Some(other) => {
                return Err(bad_entry(
                    name,
                    format_args!(
                        "requiresUserActivation must be a boolean, got {}",
                        kind_name(other)
                    ),
                ));
            }
        }
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for key in ["call", "@call"] {
                match properties.get(key).and_then(|p| p.get("const")) {
                    None => {}
                    Some(Value::String(n)) if n == name => named = true,
                    Some(other) => {
                        return Err(bad_entry(
                            name,
                            format_args!(
                                "its schema names the function {other} (properties.{key}.const)"
                            ),
                        ));
                    }
                }
            }
            if let Some(args) = properties.get("args") {
                out.args.push((format!("{pointer}/properties/args"), args));
            }
            if let Some(Value::String(t)) =
                properties.get("returnType").and_then(|p| p.get("const"))
                && out.return_type.is_none()
            {
                out.return_type = Some(t.clone());
            }
        }
        if let Some(Value::Array(members)) = schema.get("allOf") {
            for (i, member) in members.iter().enumerate().rev() {
                stack.push((format!("{pointer}/allOf/{i}"), member));
            }
        }
        if let Some(Value::String(target)) = schema.get("$ref")
            && let Some(fragment) = target.strip_prefix('#')
        {
            refs += 1;
            if refs > MAX_REFS {
                return Err(bad_entry(name, "its $refs loop"));
            }
            let target = root_pointer(root, fragment).ok_or_else(|| {
                bad_entry(
                    name,
                    format_args!("$ref '#{fragment}' points nowhere in the document"),
                )
            })?;
            stack.push((fragment.to_owned(), target));
        }
    }
    if out.requires_user_activation == Some(true)
        && out
            .allowed_callers
            .is_some_and(|c| c != AllowedCallers::RendererOnly)
    {
        return Err(bad_entry(
            name,
            "requiresUserActivation: true needs allowedCallers \"rendererOnly\" (only the renderer has a user)",
        ));
    }
    if out.args.is_empty() && !named {
        return Err(bad_entry(
            name,
            "no argument schema (properties.args) and no call name (properties.call.const): not a function declaration",
        ));
    }
    Ok(out)
}

/// The value at a JSON Pointer in the document's root object.
fn root_pointer<'d>(root: &'d Map<String, Value>, pointer: &str) -> Option<&'d Value> {
    let rest = pointer.strip_prefix('/')?;
    let (first, rest) = match rest.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (rest, None),
    };
    let first = first.replace("~1", "/").replace("~0", "~");
    let value = root.get(&first)?;
    match rest {
        None => Some(value),
        Some(rest) => value.pointer(&format!("/{rest}")),
    }
}

impl Entry<'_> {
    /// The declared arguments of all argument schemas together: their `properties`, their
    /// `required`, and whether others are accepted (not when `additionalProperties` or
    /// `unevaluatedProperties` is `false`), read the way the MCP catalog's entries are
    /// ([`ArgSchema::from_function_schema`]).
    fn arguments(&self, name: &str) -> Result<ArgSchema, Error> {
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        let mut closed = self.args.is_empty();
        let mut stack: Vec<&Value> = self.args.iter().map(|(_, s)| *s).collect();
        while let Some(schema) = stack.pop() {
            let Value::Object(schema) = schema else {
                continue;
            };
            match schema.get("properties") {
                None => {}
                Some(Value::Object(props)) => {
                    for key in props.keys() {
                        properties.entry(key.clone()).or_insert(json!({}));
                    }
                }
                Some(_) => return Err(bad_entry(name, "args.properties is not an object")),
            }
            match schema.get("required") {
                None => {}
                Some(Value::Array(names)) => {
                    for n in names {
                        if !required.contains(n) {
                            required.push(n.clone());
                        }
                    }
                }
                Some(_) => return Err(bad_entry(name, "args.required is not an array")),
            }
            closed |= ["additionalProperties", "unevaluatedProperties"]
                .iter()
                .any(|k| matches!(schema.get(*k), Some(Value::Bool(false))));
            if let Some(Value::Array(members)) = schema.get("allOf") {
                stack.extend(members.iter().rev());
            }
        }
        ArgSchema::from_function_schema(&json!({"properties": {"args": {
            "properties": properties,
            "required": required,
            "additionalProperties": !closed,
        }}}))
        .map_err(|e| bad_entry(name, e.message()))
    }
}

impl Catalog {
    /// The declaration of a function this catalog read from its document (`None` for a
    /// function the host added with [`add_function`](Catalog::add_function), or an unknown
    /// name).
    pub fn declaration(&self, name: &str) -> Option<&FunctionDeclaration> {
        self.functions.get(name)?.declaration.as_deref()
    }

    /// Whether the catalog has an implementation for `name` (declared functions have none until
    /// the host attaches one with [`implement_function`](Catalog::implement_function)).
    pub fn is_implemented(&self, name: &str) -> bool {
        self.functions.get(name).is_some_and(|f| f.imp.is_some())
    }

    /// [`Catalog::from_schema`] on JSON text, parsed with the default depth limit (128).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Catalog, ErrorCode};
    /// let err = Catalog::from_schema_str(r#"{"$id": "x", "$defs": {}}"#).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::ValidationFailed);
    /// assert!(err.message().contains("not an A2UI catalog document"));
    /// ```
    pub fn from_schema_str(text: &str) -> Result<Catalog, Error> {
        let doc = crate::json::from_str_limited(text, DEFAULT_MAX_DEPTH)?;
        Catalog::from_schema(&doc)
    }
}

#[cfg(feature = "json-schema")]
mod literal;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_types() {
        assert!(return_types_match("string", "string"));
        assert!(return_types_match("any", "boolean"));
        assert!(return_types_match("number", "any"));
        assert!(return_types_match("array", "string[]"));
        assert!(return_types_match("string[]", "array"));
        assert!(!return_types_match("number", "string"));
        assert!(!return_types_match("void", "boolean"));
    }

    #[test]
    fn documents_that_are_not_catalogs_say_why() {
        let message = |doc: Value| {
            load(&doc, LiteralChecks::On)
                .unwrap_err()
                .message()
                .to_owned()
        };
        assert!(message(json!([])).contains("a catalog is a JSON object, got an array"));
        assert!(
            message(json!({"$id": "x", "$defs": {}}))
                .contains("has no catalogId, functions or components (its keys: $id, $defs)")
        );
        assert!(
            message(json!({"catalogId": 3})).contains("catalogId must be a string, got a number")
        );
        assert!(message(json!({"functions": {}})).contains("needs a string catalogId or $id"));
        assert!(
            message(json!({"catalogId": "x", "functions": []}))
                .contains("functions must be an object")
        );
        assert!(
            message(json!({"catalogId": "x", "functions": {"f": 1}}))
                .contains("function 'f': its entry must be a JSON Schema object")
        );
        assert!(
            message(json!({"catalogId": "x", "functions": {"f": {}}}))
                .contains("function 'f': no argument schema")
        );
        assert!(message(json!({"catalogId": "x", "functions": {"f": {"properties": {"call": {"const": "g"}}}}})).contains("names the function \"g\""));
        assert!(message(json!({"catalogId": "x", "functions": {"f": {"returnType": 1, "properties": {"args": {}}}}})).contains("returnType must be a string"));
        assert!(
            message(json!({"catalogId": "x", "functions": {"f": {"$ref": "#/nowhere"}}}))
                .contains("points nowhere")
        );
        assert!(message(json!({"catalogId": "x", "functions": {"f": {"properties": {"args": {"required": "a"}}}}})).contains("args.required is not an array"));
    }

    #[test]
    fn entries_of_every_shape_are_read() {
        let catalog = load(
            &json!({
                "catalogId": "x",
                "$defs": {"fmt": {"returnType": "string", "properties": {"call": {"const": "viaRef"}, "args": {
                    "properties": {"value": {}}, "required": ["value"], "additionalProperties": false}}}},
                "functions": {
                    "mcpStyle": {"returnType": "any", "properties": {"@call": {"const": "mcpStyle"}, "args": {
                        "properties": {"a": {}, "b": {}}, "required": ["a"], "additionalProperties": false}}},
                    "basicStyle": {"returnType": "boolean", "allOf": [
                        {"$ref": "common_types.json#/$defs/FunctionCommon"},
                        {"properties": {"call": {"const": "basicStyle"}, "args": {
                            "properties": {"value": {}, "min": {}, "max": {}},
                            "required": ["value"], "unevaluatedProperties": false}}}],
                        "unevaluatedProperties": false},
                    "v09Style": {"properties": {"call": {"const": "v09Style"}, "returnType": {"const": "string"},
                        "args": {"properties": {"value": {}}}}},
                    "noArgs": {"returnType": "string", "properties": {"call": {"const": "noArgs"}}},
                    "viaRef": {"$ref": "#/$defs/fmt"}
                }
            }),
            LiteralChecks::Off,
        )
        .unwrap();
        let d = |n: &str| catalog.declaration(n).unwrap();
        assert_eq!(d("mcpStyle").return_type(), Some("any"));
        assert_eq!(d("mcpStyle").required_args().collect::<Vec<_>>(), ["a"]);
        assert!(!d("mcpStyle").arguments().accepts_additional());
        assert_eq!(d("basicStyle").return_type(), Some("boolean"));
        assert_eq!(
            d("basicStyle").optional_args().collect::<Vec<_>>(),
            ["value", "min", "max"]
                .iter()
                .filter(|n| **n != "value")
                .copied()
                .collect::<Vec<_>>()
        );
        assert!(!d("basicStyle").arguments().accepts_additional());
        assert_eq!(d("v09Style").return_type(), Some("string"));
        assert!(d("v09Style").arguments().accepts_additional());
        assert_eq!(d("noArgs").arguments().len(), 0);
        assert_eq!(d("viaRef").return_type(), Some("string"));
        assert_eq!(d("viaRef").required_args().collect::<Vec<_>>(), ["value"]);
        assert!(!catalog.is_implemented("viaRef"));
        assert_eq!(d("basicStyle").catalog_id(), "x");
    }
}
