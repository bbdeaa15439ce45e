//! The outer shape of a dynamic value, which the compiler and the `McpApp` properties both
//! check: a binding is `{"@path": <string>}` alone; a call has `@call` (a string) and may have
//! `args` (an object), `catalogId` and `returnType` (strings), nothing else.

use serde_json::{Map, Value};

/// A member of a binding or call object that does not fit its shape.
pub(crate) enum Misfit<'v> {
    /// A key the object may not have.
    Unknown(&'v str),
    /// A member of the wrong type: what it must be, and what it is.
    WrongType {
        key: &'v str,
        wanted: &'static str,
        got: &'v Value,
    },
}

/// The members of each shape and the type of each: `true` for an object, `false` for a string.
const BINDING: &[(&str, bool)] = &[("@path", false)];
const CALL: &[(&str, bool)] = &[
    ("@call", false),
    ("args", true),
    ("catalogId", false),
    ("returnType", false),
];

fn misfits<'v>(map: &'v Map<String, Value>, members: &[(&str, bool)]) -> Vec<Misfit<'v>> {
    let mut out = Vec::new();
    for (key, value) in map {
        match members.iter().find(|(name, _)| name == key) {
            None => out.push(Misfit::Unknown(key)),
            Some((_, true)) if !value.is_object() => out.push(Misfit::WrongType {
                key,
                wanted: "an object",
                got: value,
            }),
            Some((_, false)) if !value.is_string() => out.push(Misfit::WrongType {
                key,
                wanted: "a string",
                got: value,
            }),
            Some(_) => {}
        }
    }
    out
}

/// What does not fit in an object with `@path`, in member order.
pub(crate) fn binding_misfits(map: &Map<String, Value>) -> Vec<Misfit<'_>> {
    misfits(map, BINDING)
}

/// What does not fit in an object with `@call`, in member order.
pub(crate) fn call_misfits(map: &Map<String, Value>) -> Vec<Misfit<'_>> {
    misfits(map, CALL)
}
