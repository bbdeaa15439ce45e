//! Validation of literal arguments with `jsonschema`, leaving dynamic ones out.

use super::invalid::bad_entry;
use crate::error::{Error, ErrorCode};
use crate::path::escape_token;
use crate::syntax::looks_dynamic;
use jsonschema::error::ValidationErrorKind as Kind;
use jsonschema::{Registry, ValidationError, Validator};
use serde_json::{Map, Value, json};

/// Where the (rewritten) catalog document is registered for `$ref` resolution.
const DOC_URI: &str = "https://a2ui-catalog-mcp.invalid/catalog.json";

/// Builds the validators of one catalog document.
pub(super) struct Compiler {
    registry: Registry<'static>,
}

impl Compiler {
    pub(super) fn new(root: &Map<String, Value>) -> Result<Compiler, Error> {
        let mut doc = Value::Object(root.clone());
        let own_id = root.get("$id").and_then(Value::as_str).map(str::to_owned);
        if let Value::Object(map) = &mut doc {
            map.remove("$id");
        }
        rewrite_refs(&mut doc, own_id.as_deref());
        let registry = Registry::new()
            .add(DOC_URI, doc)
            .and_then(|b| b.prepare())
            .map_err(|e| {
                Error::new(
                    ErrorCode::ValidationFailed,
                    format!("invalid catalog document: {e}"),
                )
            })?;
        Ok(Compiler { registry })
    }

    /// The validator of a function's argument schemas (given with their pointers).
    pub(super) fn validator(
        &self,
        name: &str,
        args: &[(String, &Value)],
    ) -> Result<Validator, Error> {
        let refs: Vec<Value> = args
            .iter()
            .map(|(pointer, _)| json!({"$ref": format!("{DOC_URI}#{}", fragment(pointer))}))
            .collect();
        let schema = match refs.len() {
            0 => json!({}),
            1 => refs.into_iter().next().unwrap_or_default(),
            _ => json!({"allOf": refs}),
        };
        crate::json_schema::validator_in(&schema, &self.registry).map_err(|e| {
            bad_entry(
                name,
                format_args!("its argument schema is not a valid JSON Schema: {e}"),
            )
        })
    }
}

/// A JSON Pointer as a URI fragment: every byte outside the unreserved set and `/` is
/// percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~' | b'$') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The literal form of an A2UI common type: what a literal argument declared with it must
/// be.
fn common_type(name: &str) -> Value {
    match name {
        "DynamicString" | "ComponentId" | "Child" | "CallId" => json!({"type": "string"}),
        "DynamicNumber" => json!({"type": "number"}),
        "DynamicBoolean" => json!({"type": "boolean"}),
        "DynamicStringList" => json!({"type": "array", "items": {"type": "string"}}),
        "DataBinding" | "FunctionCall" => json!(false),
        _ => json!(true),
    }
}

/// Rewrites the `$ref`s of the document: the common types become their literal forms,
/// references to the document's own `$id` become local, any other document is dropped.
fn rewrite_refs(doc: &mut Value, own_id: Option<&str>) {
    let mut stack: Vec<&mut Value> = vec![doc];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    let (document, fragment) = target.split_once('#').unwrap_or((target, ""));
                    if document.is_empty() {
                        // Local: kept.
                    } else if Some(document) == own_id {
                        let local = format!("#{fragment}");
                        map.insert("$ref".into(), Value::String(local));
                    } else if document.rsplit('/').next() == Some("common_types.json") {
                        let name = fragment.rsplit('/').next().unwrap_or("");
                        let literal = common_type(name);
                        map.remove("$ref");
                        match map.get_mut("allOf") {
                            Some(Value::Array(members)) => members.push(literal),
                            _ => {
                                map.insert("allOf".into(), json!([literal]));
                            }
                        }
                    } else {
                        map.remove("$ref");
                    }
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// The dynamic values of a call's arguments (bindings and calls in either spelling, which the
/// literal checks leave out), as JSON
/// Pointers relative to the arguments object, and the arguments with each of them replaced by
/// `null`.
fn literal_instance(args: &Map<String, Value>, max_depth: usize) -> Option<(Value, Vec<String>)> {
    // The copy is only made within the depth limit (`Value`'s clone recurses).
    if args
        .values()
        .any(|v| crate::json::depth_exceeds(v, max_depth))
    {
        return None;
    }
    let mut instance = Value::Object(args.clone());
    let mut dynamic = Vec::new();
    let mut stack: Vec<(&mut Value, String, usize)> = vec![(&mut instance, String::new(), 0)];
    while let Some((value, pointer, depth)) = stack.pop() {
        if depth > max_depth {
            return None;
        }
        match value {
            Value::Object(map) if depth > 0 && looks_dynamic(map) => {
                *value = Value::Null;
                dynamic.push(pointer);
            }
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    stack.push((child, format!("{pointer}/{}", escape_token(key)), depth + 1));
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    stack.push((child, format!("{pointer}/{i}"), depth + 1));
                }
            }
            _ => {}
        }
    }
    Some((instance, dynamic))
}

/// The dynamic values of one call site.
struct Dynamic {
    pointers: Vec<String>,
}

impl Dynamic {
    /// Whether `p` is a dynamic value or inside one.
    fn covers(&self, p: &str) -> bool {
        self.pointers
            .iter()
            .any(|d| p == d || (p.starts_with(d.as_str()) && p[d.len()..].starts_with('/')))
    }

    /// Whether a dynamic value is inside the value at `p`.
    fn below(&self, p: &str) -> bool {
        self.pointers
            .iter()
            .any(|d| d.len() > p.len() && d.starts_with(p) && d[p.len()..].starts_with('/'))
    }
}

/// Whether an error holds whatever the dynamic values turn out to be.
fn sound(e: &ValidationError<'_>, dynamic: &Dynamic) -> bool {
    let at = e.instance_path().as_str();
    if dynamic.covers(at) {
        return false;
    }
    if !dynamic.pointers.is_empty() && through_conditional(e.evaluation_path().as_str()) {
        return false;
    }
    if !dynamic.below(at) {
        return true;
    }
    match e.kind() {
        // Decided by the keys, the length or the kind of a literal container.
        Kind::Required { .. }
        | Kind::MinProperties { .. }
        | Kind::MaxProperties { .. }
        | Kind::PropertyNames { .. }
        | Kind::AdditionalProperties { .. }
        | Kind::Type { .. }
        | Kind::MinItems { .. }
        | Kind::MaxItems { .. }
        | Kind::AdditionalItems { .. }
        | Kind::FalseSchema => true,
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => context
            .iter()
            .all(|branch| branch.iter().any(|e| sound(e, dynamic))),
        _ => false,
    }
}

/// Whether a keyword location goes through an `if`'s `then` or `else`.
fn through_conditional(path: &str) -> bool {
    let segments: Vec<&str> = path.split('/').collect();
    segments.iter().enumerate().any(|(i, s)| {
        (*s == "then" || *s == "else")
            && !matches!(
                i.checked_sub(1).map(|j| segments[j]),
                Some(
                    "properties"
                        | "patternProperties"
                        | "$defs"
                        | "definitions"
                        | "dependentSchemas"
                )
            )
    })
}

/// What the errors of the alternatives of an `anyOf`/`oneOf` say, for its message.
fn alternatives(
    context: &[Vec<ValidationError<'static>>],
    dynamic: &Dynamic,
    base: &str,
) -> Vec<String> {
    // An alternative no literal can take (the common types' DataBinding and FunctionCall)
    // says nothing useful about a literal.
    let useful = |branch: &&Vec<ValidationError<'static>>| {
        !branch.iter().all(|e| matches!(e.kind(), Kind::FalseSchema))
    };
    let shown: Vec<&Vec<ValidationError<'static>>> = if context.iter().any(|b| useful(&b)) {
        context.iter().filter(useful).collect()
    } else {
        context.iter().collect()
    };
    shown
        .into_iter()
        .map(|branch| {
            let reasons: Vec<String> = branch
                .iter()
                .filter(|e| sound(e, dynamic))
                .map(|e| describe(e, dynamic, base))
                .collect();
            reasons.join(" and ")
        })
        .collect()
}

/// A message for one error, which never shows the `null`s standing for dynamic values.
/// Its location is given relative to `base` (the argument, or an enclosing `anyOf`), when
/// it is deeper.
fn describe(e: &ValidationError<'_>, dynamic: &Dynamic, base: &str) -> String {
    let at = e.instance_path().as_str();
    let text = match e.kind() {
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => {
            match alternatives(context, dynamic, at).as_slice() {
                [one] => one.clone(),
                several => format!("must satisfy one of: {}", several.join("; or ")),
            }
        }
        _ if dynamic.below(at) => e.masked().to_string(),
        _ => e.to_string(),
    };
    match at.strip_prefix(base) {
        Some("") => text,
        Some(rest) if rest.starts_with('/') => format!("at {rest}: {text}"),
        _ => format!("at {at}: {text}"),
    }
}

/// Validates the literal arguments of one call site, appending what is wrong to `errors`.
pub(super) fn check(
    function: &str,
    validator: &Validator,
    args: &Map<String, Value>,
    location: &str,
    max_depth: usize,
    errors: &mut Vec<Error>,
) {
    // Deeper arguments are refused by the compiler; a copy of them is not made.
    let Some((instance, pointers)) = literal_instance(args, max_depth) else {
        return;
    };
    if validator.is_valid(&instance) {
        return;
    }
    let dynamic = Dynamic { pointers };
    for e in validator.iter_errors(&instance) {
        let at = e.instance_path().as_str();
        // The compiler already reports missing and undeclared arguments, in its words.
        if at.is_empty()
            && matches!(
                e.kind(),
                Kind::Required { .. }
                    | Kind::AdditionalProperties { .. }
                    | Kind::UnevaluatedProperties { .. }
            )
        {
            continue;
        }
        if !sound(&e, &dynamic) {
            continue;
        }
        let (code, where_) = if at.is_empty() {
            (ErrorCode::ValidationFailed, location.to_owned())
        } else {
            (ErrorCode::ExpressionError, format!("{location}/args{at}"))
        };
        let argument = at
            .strip_prefix('/')
            .map(|rest| rest.split('/').next().unwrap_or(rest));
        let what = match argument {
            Some(arg) => format!(
                "'{}': the argument '{}' does not fit the catalog's schema: {}",
                function,
                arg.replace("~1", "/").replace("~0", "~"),
                describe(&e, &dynamic, &format!("/{arg}"))
            ),
            None => format!(
                "'{}': the arguments do not fit the catalog's schema: {}",
                function,
                describe(&e, &dynamic, "")
            ),
        };
        errors.push(
            Error::new(code, what)
                .with_function(function.to_owned())
                .with_location(where_),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_values_are_replaced_and_located() {
        let args = json!({"value": {"@path": "/x"}, "values": [true, {"@call": "f"}], "n": 1});
        let (instance, mut pointers) = literal_instance(args.as_object().unwrap(), 128).unwrap();
        pointers.sort();
        assert_eq!(pointers, ["/value", "/values/1"]);
        assert_eq!(
            instance,
            json!({"value": null, "values": [true, null], "n": 1})
        );
        let deep = (0..200).fold(json!(1), |v, _| json!([v]));
        assert!(literal_instance(json!({"a": deep}).as_object().unwrap(), 128).is_none());
    }

    #[test]
    fn plain_spelled_values_are_left_out_too() {
        let args = json!({"value": {"path": "/x"}, "n": {"call": "f", "args": {}, "catalogId": "c"}, "t": {"path": "/x", "componentId": "c"}});
        let (instance, mut pointers) = literal_instance(args.as_object().unwrap(), 128).unwrap();
        pointers.sort();
        assert_eq!(pointers, ["/n", "/value"]);
        assert_eq!(instance["t"], json!({"path": "/x", "componentId": "c"}));
    }

    #[test]
    fn pointers_above_and_below() {
        let d = Dynamic {
            pointers: vec!["/values/1".into()],
        };
        assert!(d.covers("/values/1") && d.covers("/values/1/x"));
        assert!(!d.covers("/values/10") && !d.covers("/values"));
        assert!(d.below("/values") && d.below(""));
        assert!(!d.below("/values/1") && !d.below("/value"));
    }

    #[test]
    fn conditionals_are_found_by_keyword_not_by_property_name() {
        assert!(through_conditional("/allOf/1/then/properties/a/type"));
        assert!(!through_conditional("/properties/then/type"));
    }

    #[test]
    fn refs_are_rewritten() {
        let mut doc = json!({
            "a": {"$ref": "common_types.json#/$defs/DynamicNumber", "description": "x"},
            "b": {"$ref": "https://example.com/self.json#/$defs/c"},
            "c": {"$ref": "other.json#/$defs/d"},
            "d": {"$ref": "#/$defs/e"}
        });
        rewrite_refs(&mut doc, Some("https://example.com/self.json"));
        assert_eq!(
            doc["a"],
            json!({"description": "x", "allOf": [{"type": "number"}]})
        );
        assert_eq!(doc["b"], json!({"$ref": "#/$defs/c"}));
        assert_eq!(doc["c"], json!({}));
        assert_eq!(doc["d"], json!({"$ref": "#/$defs/e"}));
        assert_eq!(fragment("/functions/a b/x"), "/functions/a%20b/x");
    }
}
