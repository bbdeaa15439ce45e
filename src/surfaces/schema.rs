//! A catalog's component schemas, read into what the processor checks: each property's kind
//! (which literal it takes, whether it names children), the required properties, and whether
//! the component takes `checks`. Only the schema forms catalogs use are read (`$ref` to the
//! common types, `type`, `enum`, `const`, `allOf`); a property of another form takes anything.

use crate::error::Error;
use crate::json::kind_name;
use crate::stream::{Category, Version};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What a property accepts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    DynString,
    DynNumber,
    DynBool,
    DynStringList,
    DynValue,
    /// A list of child ids, or a template `{componentId, path}`.
    ChildList,
    /// One child id.
    Child,
    /// An array of objects whose member `field` is a child id (Tabs' `tabs`).
    ChildArray(String),
    Action,
    Str(Option<Vec<Value>>),
    Number,
    Integer,
    Bool,
    Array,
    Object,
    Enum(Vec<Value>),
    Any,
}

/// One component type of a catalog.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ComponentSchema {
    pub(crate) props: HashMap<String, Kind>,
    pub(crate) required: Vec<String>,
    pub(crate) checkable: bool,
}

/// A catalog the processor knows: its id, protocol version and component types (`None` when
/// the document declares none, as the MCP catalog). The component types are shared: a
/// processor for another stream ([`Processor::fresh`](crate::surfaces::Processor::fresh)) keeps
/// them without reading the document again.
#[derive(Debug, Clone)]
pub(crate) struct CatalogInfo {
    pub(crate) version: Option<Version>,
    pub(crate) components: Option<std::sync::Arc<HashMap<String, ComponentSchema>>>,
}

/// The last segment of a `$ref` (`common_types.json#/$defs/DynamicString` → `DynamicString`).
fn ref_name(schema: &Map<String, Value>) -> Option<&str> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(|r| r.rsplit('/').next().unwrap_or(r))
}

fn kind_of(schema: &Value) -> Kind {
    let Value::Object(schema) = schema else {
        return Kind::Any;
    };
    if let Some(name) = ref_name(schema) {
        return match name {
            "DynamicString" => Kind::DynString,
            "DynamicNumber" => Kind::DynNumber,
            "DynamicBoolean" => Kind::DynBool,
            "DynamicStringList" => Kind::DynStringList,
            "DynamicValue" => Kind::DynValue,
            "ChildList" => Kind::ChildList,
            "Child" | "ComponentId" => Kind::Child,
            "Action" => Kind::Action,
            _ => Kind::Any,
        };
    }
    if let Some(Value::Array(parts)) = schema.get("allOf") {
        return parts
            .iter()
            .map(kind_of)
            .find(|k| *k != Kind::Any)
            .unwrap_or(Kind::Any);
    }
    let choices = schema.get("enum").and_then(Value::as_array).cloned();
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => Kind::Str(choices),
        Some("number") => Kind::Number,
        Some("integer") => Kind::Integer,
        Some("boolean") => Kind::Bool,
        Some("object") => Kind::Object,
        Some("array") => {
            let child_field = schema
                .get("items")
                .and_then(|i| i.get("properties"))
                .and_then(Value::as_object)
                .and_then(|props| {
                    props.iter().find_map(|(name, s)| {
                        (s.as_object().and_then(ref_name) == Some("Child")).then(|| name.clone())
                    })
                });
            match child_field {
                Some(field) => Kind::ChildArray(field),
                None => Kind::Array,
            }
        }
        _ => match choices {
            Some(choices) => Kind::Enum(choices),
            None => Kind::Any,
        },
    }
}

/// Reads the component types of a catalog document's `components`.
pub(crate) fn read_components(
    components: &Map<String, Value>,
) -> Result<HashMap<String, ComponentSchema>, String> {
    let mut out = HashMap::new();
    for (name, schema) in components {
        let Value::Object(schema) = schema else {
            return Err(format!(
                "component '{name}' must be a schema object, got {}",
                kind_name(schema)
            ));
        };
        let mut parts = vec![schema];
        if let Some(Value::Array(all)) = schema.get("allOf") {
            parts.extend(all.iter().filter_map(Value::as_object));
        }
        let mut def = ComponentSchema {
            props: HashMap::new(),
            required: Vec::new(),
            checkable: false,
        };
        for part in parts {
            if ref_name(part) == Some("Checkable") {
                def.checkable = true;
            }
            if let Some(Value::Object(props)) = part.get("properties") {
                for (prop, s) in props {
                    if matches!(prop.as_str(), "id" | "component") {
                        continue;
                    }
                    if prop == "checks" {
                        def.checkable = true;
                        continue;
                    }
                    def.props.insert(prop.clone(), kind_of(s));
                }
            }
            if let Some(Value::Array(required)) = part.get("required") {
                def.required.extend(
                    required
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|r| !matches!(*r, "id" | "component"))
                        .map(str::to_owned),
                );
            }
        }
        out.insert(name.clone(), def);
    }
    Ok(out)
}

/// Whether a value is a binding or a call (either spelling): the renderer resolves it, so its
/// literal type is not checked here (the compiler checks the call).
pub(crate) fn is_dynamic(value: &Value) -> bool {
    matches!(value, Value::Object(map)
        if ["path", "@path", "call", "@call"].iter().any(|k| map.contains_key(*k)))
}

/// Checks one property's literal against its kind.
pub(crate) fn check_prop(
    at: &str,
    component: &str,
    prop: &str,
    kind: &Kind,
    value: &Value,
) -> Result<(), Error> {
    let wrong = |expected: &str| {
        Err(Error::in_message(
            Category::Validation,
            at,
            format!(
                "{component}.{prop} must be {expected}, got {}",
                kind_name(value)
            ),
        ))
    };
    let dynamic = is_dynamic(value);
    match kind {
        Kind::Any | Kind::DynValue => Ok(()),
        _ if dynamic
            && matches!(
                kind,
                Kind::DynString | Kind::DynNumber | Kind::DynBool | Kind::DynStringList
            ) =>
        {
            Ok(())
        }
        Kind::DynString if !value.is_string() => wrong("a string, a binding or a call"),
        Kind::DynNumber if !value.is_number() => wrong("a number, a binding or a call"),
        Kind::DynBool if !value.is_boolean() => wrong("a boolean, a binding or a call"),
        Kind::DynStringList
            if !value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)) =>
        {
            wrong("a list of strings, a binding or a call")
        }
        Kind::ChildList => match value {
            Value::Array(ids) if ids.iter().all(Value::is_string) => Ok(()),
            Value::Object(t)
                if t.get("componentId").is_some_and(Value::is_string)
                    && t.get("path").is_some_and(Value::is_string)
                    && t.len() == 2 =>
            {
                Ok(())
            }
            _ => wrong("a list of component ids or a template {\"componentId\", \"path\"}"),
        },
        Kind::Child if !value.is_string() => wrong("a component id (a string)"),
        Kind::ChildArray(_) | Kind::Array if !value.is_array() => wrong("an array"),
        Kind::Action => check_action(at, component, prop, value),
        Kind::Object if !value.is_object() => wrong("an object"),
        Kind::Str(_) if !value.is_string() && !dynamic => wrong("a string"),
        Kind::Number if !value.is_number() && !dynamic => wrong("a number"),
        Kind::Integer if !(value.is_i64() || value.is_u64() || dynamic) => wrong("an integer"),
        Kind::Bool if !value.is_boolean() && !dynamic => wrong("a boolean"),
        Kind::Str(Some(choices)) | Kind::Enum(choices) if !dynamic && !choices.contains(value) => {
            Err(Error::in_message(
                Category::Validation,
                at,
                format!(
                    "{component}.{prop} is {value}, not one of {}",
                    choices
                        .iter()
                        .map(Value::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// An `Action` (common types): exactly one of `{"event": {"name", "context"?, "userMessage"?}}`
/// and `{"functionCall": {…}}` (the call itself is the compiler's). A bare call
/// (`{"@call": …}`) is the usual slip: refused when the component arrives, where activation
/// would only find "no event name".
fn check_action(at: &str, component: &str, prop: &str, value: &Value) -> Result<(), Error> {
    let fail = |pointer: String, why: String| {
        Err(Error::in_message(
            Category::Validation,
            pointer,
            format!("{component}.{prop}: {why}"),
        ))
    };
    const SHAPE: &str =
        "an action is {\"event\": {\"name\": …}} or {\"functionCall\": {\"call\": …}}";
    let Value::Object(map) = value else {
        return fail(at.to_owned(), format!("{SHAPE}, got {}", kind_name(value)));
    };
    let event = map.get("event");
    let call = map.get("functionCall");
    if let (Some(_), Some(_)) = (event, call) {
        return fail(
            at.to_owned(),
            format!("{SHAPE}, not both: this one has 'event' and 'functionCall'"),
        );
    }
    if event.is_none() && call.is_none() {
        let why = if ["@call", "call"].iter().any(|k| map.contains_key(*k)) {
            format!("{SHAPE}; this one is a bare call: put it under \"functionCall\"")
        } else if map.contains_key("name") {
            format!(
                "{SHAPE}; this one is the pre-v0.9 {{\"name\", \"context\"}}: put it under \"event\""
            )
        } else {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            format!(
                "{SHAPE}; this one has {}",
                if keys.is_empty() {
                    "no key".to_owned()
                } else {
                    format!("the keys {}", keys.join(", "))
                }
            )
        };
        return fail(at.to_owned(), why);
    }
    if let Some(extra) = map
        .keys()
        .find(|k| !matches!(k.as_str(), "event" | "functionCall"))
    {
        return fail(
            format!("{at}/{}", crate::path::escape_token(extra)),
            format!("{SHAPE}, with nothing beside it, not '{extra}'"),
        );
    }
    if let Some(call) = call {
        return match call {
            Value::Object(_) => Ok(()),
            other => fail(
                format!("{at}/functionCall"),
                format!(
                    "'functionCall' must be a call object, got {}",
                    kind_name(other)
                ),
            ),
        };
    }
    let Some(Value::Object(event)) = event else {
        return fail(
            format!("{at}/event"),
            format!(
                "'event' must be an object, got {}",
                event.map_or("nothing", kind_name)
            ),
        );
    };
    match event.get("name") {
        Some(Value::String(_)) => {}
        None => {
            return fail(
                format!("{at}/event"),
                "the event needs a 'name' (a string)".into(),
            );
        }
        Some(other) => {
            return fail(
                format!("{at}/event/name"),
                format!(
                    "the event's 'name' must be a string, got {}",
                    kind_name(other)
                ),
            );
        }
    }
    if let Some(extra) = event
        .keys()
        .find(|k| !matches!(k.as_str(), "name" | "context" | "userMessage"))
    {
        return fail(
            format!("{at}/event/{}", crate::path::escape_token(extra)),
            format!("an event has 'name', 'context' and 'userMessage', not '{extra}'"),
        );
    }
    match event.get("context") {
        None | Some(Value::Object(_)) => Ok(()),
        Some(other) => fail(
            format!("{at}/event/context"),
            format!(
                "the event's 'context' must be an object, got {}",
                kind_name(other)
            ),
        ),
    }
}

/// A component's `accessibility` (`AccessibilityAttributes`): `label` and `description` are
/// dynamic strings, `hidden` a dynamic boolean (a binding or a call since November 2026, a
/// literal boolean otherwise), `live` one of `off`, `polite`, `assertive`; nothing else. The
/// dynamic values are compiled with the component's.
pub(crate) fn check_accessibility(
    at: &str,
    value: &Value,
    spelling: crate::syntax::Spelling,
) -> Result<(), Error> {
    let fail =
        |pointer: String, why: String| Err(Error::in_message(Category::Validation, pointer, why));
    let Value::Object(map) = value else {
        return fail(
            at.to_owned(),
            format!("accessibility must be an object, got {}", kind_name(value)),
        );
    };
    for (key, v) in map {
        let pointer = format!("{at}/{}", crate::path::escape_token(key));
        // A binding or a call as the surface reads them (`Surface::spelling`): `{"path": 3}`,
        // or a plain `{"path": "/h"}` on a surface of the `@` spelling, is a literal object,
        // not a boolean.
        let dynamic = matches!(v, Value::Object(m) if crate::syntax::is_dynamic(m, spelling));
        match key.as_str() {
            "label" | "description" if !dynamic && !v.is_string() => {
                return fail(
                    pointer,
                    format!(
                        "accessibility.{key} must be a string, a binding or a call, got {}",
                        kind_name(v)
                    ),
                );
            }
            "hidden" if !dynamic && !v.is_boolean() => {
                return fail(
                    pointer,
                    format!(
                        "accessibility.hidden must be a boolean, a binding or a call, got {}",
                        kind_name(v)
                    ),
                );
            }
            "live" if !matches!(v.as_str(), Some("off" | "polite" | "assertive")) => {
                return fail(
                    pointer,
                    format!(
                        "accessibility.live is {v}, not one of \"off\", \"polite\", \"assertive\""
                    ),
                );
            }
            "label" | "description" | "hidden" | "live" => {}
            other => {
                return fail(
                    pointer,
                    format!(
                        "accessibility has 'label', 'description', 'live' and 'hidden', not '{other}'"
                    ),
                );
            }
        }
    }
    Ok(())
}

/// The child ids a component names, each with its slot (`child`, `children[2]`,
/// `tabs[0].child`, `children` for a template) and whether it is a template.
pub(crate) fn children_of(
    props: &Map<String, Value>,
    schema: Option<&ComponentSchema>,
) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for (prop, value) in props {
        let kind = schema.and_then(|s| s.props.get(prop));
        let kind = match (kind, prop.as_str()) {
            (Some(k @ (Kind::Child | Kind::ChildList | Kind::ChildArray(_))), _) => k.clone(),
            (_, "child") => Kind::Child,
            (_, "children") => Kind::ChildList,
            _ => continue,
        };
        match (kind, value) {
            (Kind::Child, Value::String(id)) => out.push((id.clone(), prop.clone(), false)),
            (Kind::ChildList, Value::Array(ids)) => {
                for (i, id) in ids.iter().enumerate() {
                    if let Value::String(id) = id {
                        out.push((id.clone(), format!("{prop}[{i}]"), false));
                    }
                }
            }
            (Kind::ChildList, Value::Object(t)) => {
                if let Some(Value::String(id)) = t.get("componentId") {
                    out.push((id.clone(), prop.clone(), true));
                }
            }
            (Kind::ChildArray(field), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(Value::String(id)) = item.get(&field) {
                        out.push((id.clone(), format!("{prop}[{i}].{field}"), false));
                    }
                }
            }
            _ => {}
        }
    }
    out
}
