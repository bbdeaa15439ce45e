//! A catalog document read into its id and its functions' declarations.

use super::declaration::FunctionDeclaration;
use super::invalid::{bad_entry, not_a_catalog};
#[cfg(feature = "json-schema")]
use super::literal;
use crate::catalog::args::ArgSchema;
use crate::error::{Error, ErrorCode};
use crate::json::{DEFAULT_MAX_DEPTH, depth_exceeds, kind_name};
use crate::origin::{Access, AllowedCallers};
use serde_json::{Map, Value, json};

/// Whether literal arguments are validated against the document's schemas.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LiteralChecks {
    On,
    /// For the built-in functions, which check their own arguments: the schema is validated
    /// only when the environment asks for the catalogs' schemas.
    Off,
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
    // Depth first with an explicit stack; the path to the value being looked at is kept as
    // tokens, and written as a pointer only for the `$ref` found (a document of thousands of
    // nodes is walked without building a string per node).
    let mut stack: Vec<(usize, Token<'_>, &Value)> = vec![(0, Token::Root, doc)];
    let mut path: Vec<Token<'_>> = Vec::new();
    while let Some((depth, token, value)) = stack.pop() {
        path.truncate(depth);
        path.push(token);
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
                        let mut pointer = String::new();
                        for token in &path[1..] {
                            pointer.push('/');
                            match token {
                                Token::Key(k) => pointer.push_str(&crate::path::escape_token(k)),
                                Token::Index(i) => pointer.push_str(&i.to_string()),
                                Token::Root => {}
                            }
                        }
                        return Some((pointer, target.clone()));
                    }
                }
                for (k, v) in map {
                    stack.push((depth + 1, Token::Key(k), v));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    stack.push((depth + 1, Token::Index(i), v));
                }
            }
            _ => {}
        }
    }
    None
}

/// One step of the path to a value of a document.
#[derive(Clone, Copy)]
enum Token<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// The error of a document that `$ref`s another catalog ([`foreign_catalog_ref`]).
pub(crate) fn foreign_catalog_message(pointer: &str, target: &str) -> String {
    format!(
        "the $ref at {pointer} points into another catalog ('{target}'): since November 2026 a v1.0 catalog does not $ref other catalogs; copy the definition into this one (custom definitions go under $defs)"
    )
}

/// Reads a catalog document (see the module docs): its id and what it declares of each
/// function, in the document's order.
pub(crate) fn load(
    doc: &Value,
    checks: LiteralChecks,
) -> Result<(String, Vec<FunctionDeclaration>), Error> {
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
    let Some(functions) = functions else {
        return Ok((id, Vec::new()));
    };
    let mut declarations = Vec::with_capacity(functions.len());
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
            arguments,
            #[cfg(feature = "json-schema")]
            validator,
            #[cfg(feature = "json-schema")]
            always: checks == LiteralChecks::On,
        };
        declarations.push(declaration);
    }
    Ok((id, declarations))
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

#[cfg(test)]
mod tests {
    use super::super::declaration::return_types_match;
    use super::*;
    use crate::catalog::Catalog;

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
        let catalog = Catalog::from_schema_without_literal_checks(
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
