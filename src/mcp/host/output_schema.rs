//! `structuredContent` checked against the tool's `outputSchema` (feature `json-schema`).
//!
//! MCP asks clients to validate a tool's structured result against the `outputSchema` its
//! `tools/list` entry declares. The host turns the check on with
//! [`McpHost::with_output_schema`](crate::mcp::McpHost::with_output_schema) and chooses what a
//! mismatch does ([`OutputSchemaCheck`]). Each tool's schema is compiled once per tool list
//! the host holds (again after [`refresh_tool_lists`](crate::mcp::McpHost::refresh_tool_lists)).
//!
//! Schemas come from servers, so they are untrusted: a schema larger than
//! [`MAX_OUTPUT_SCHEMA_BYTES`], nested deeper than the depth limit, with a `$ref` to another
//! document (never fetched) or a cycle of `$ref`s and in-place applicators that never reaches
//! the instance (`{"$ref": "#"}`), or that is not a valid JSON Schema, fails the call with an
//! error naming the tool, in either mode.

use crate::error::{Denial, Error, ErrorCode};
use crate::json::{depth_exceeds, kind_name};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The largest `outputSchema` compiled, as JSON text: 256 KiB.
pub const MAX_OUTPUT_SCHEMA_BYTES: usize = 256 * 1024;

/// What a `structuredContent` that does not match the tool's `outputSchema` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputSchemaCheck {
    /// The call fails: an `EXPRESSION_ERROR` ([`Denial::OutputSchema`]) naming the tool, the
    /// instance path and the schema path; nothing is written or forwarded.
    Fail,
    /// The call goes on without `structuredContent` (removed from the response object and from
    /// its `toolResult`), and its audit event carries a warning saying why.
    Drop,
}

/// A tool's compiled `outputSchema`, or why it has none usable.
enum Compiled {
    /// The tool declares no `outputSchema`: anything goes.
    Absent,
    Valid(jsonschema::Validator),
    Invalid(String),
}

/// The compiled schemas of one host, by client and tool.
#[derive(Default)]
pub(crate) struct OutputSchemas {
    compiled: Mutex<HashMap<(usize, String), Arc<Compiled>>>,
}

/// What the check decided for one result.
pub(crate) enum Checked {
    /// Valid, or nothing to check.
    Keep,
    /// Drop `structuredContent`; the warning for the audit.
    Drop(String),
}

impl OutputSchemas {
    /// Forgets every compiled schema (the tool lists were refreshed).
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(usize, String), Arc<Compiled>>> {
        self.compiled.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Checks `result`'s `structuredContent` against the `outputSchema` of `definition`.
    pub(crate) fn check(
        &self,
        mode: OutputSchemaCheck,
        client: usize,
        tool: &str,
        definition: Option<&Value>,
        result: &Value,
        max_depth: usize,
    ) -> Result<Checked, Error> {
        let key = (client, tool.to_owned());
        let cached = self.lock().get(&key).cloned();
        let compiled = match cached {
            Some(compiled) => compiled,
            None => {
                let compiled = Arc::new(compile(
                    definition.and_then(|d| d.get("outputSchema")),
                    max_depth,
                ));
                self.lock().insert(key, compiled.clone());
                compiled
            }
        };
        let validator = match &*compiled {
            Compiled::Absent => return Ok(Checked::Keep),
            Compiled::Invalid(why) => {
                return Err(Error::new(
                    ErrorCode::ExpressionError,
                    format!("the outputSchema of MCP tool '{tool}' cannot be used: {why}"),
                ));
            }
            Compiled::Valid(validator) => validator,
        };
        let problem = match result.get("structuredContent") {
            None => "it declares an outputSchema but returned no structuredContent".to_owned(),
            Some(content) => match validator.iter_errors(content).next() {
                None => return Ok(Checked::Keep),
                Some(e) => {
                    let at = e.instance_path().to_string();
                    format!(
                        "its structuredContent does not match its outputSchema: {e} at {} (schema path {})",
                        if at.is_empty() { "/" } else { &at },
                        e.schema_path()
                    )
                }
            },
        };
        match mode {
            OutputSchemaCheck::Fail => Err(Error::new(
                ErrorCode::ExpressionError,
                format!("MCP tool '{tool}' is not allowed: {problem}"),
            )
            .with_denial(Denial::OutputSchema)),
            OutputSchemaCheck::Drop => Ok(Checked::Drop(format!(
                "structuredContent dropped: {problem}"
            ))),
        }
    }
}

fn compile(schema: Option<&Value>, max_depth: usize) -> Compiled {
    let Some(schema) = schema else {
        return Compiled::Absent;
    };
    if !(schema.is_object() || schema.is_boolean()) {
        return Compiled::Invalid(format!(
            "a JSON Schema is an object or a boolean, got {}",
            kind_name(schema)
        ));
    }
    if depth_exceeds(schema, max_depth) {
        return Compiled::Invalid(format!(
            "it nests deeper than the limit of {max_depth} levels"
        ));
    }
    // Measured by writing it out, stopping as soon as it is too large.
    let mut counter = Counter(0);
    if serde_json::to_writer(&mut counter, schema).is_err() {
        return Compiled::Invalid(format!("it is larger than {MAX_OUTPUT_SCHEMA_BYTES} bytes"));
    }
    if let Some(at) = regress(schema) {
        return Compiled::Invalid(format!(
            "its $ref at {at} loops back without reaching the value (a $ref cycle)"
        ));
    }
    match crate::json_schema::validator(schema) {
        Ok(validator) => Compiled::Valid(validator),
        Err(e) => Compiled::Invalid(format!("it is not a valid JSON Schema: {e}")),
    }
}

/// Counts bytes, failing past the limit.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        if self.0 > MAX_OUTPUT_SCHEMA_BYTES {
            return Err(std::io::Error::other("too large"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The keywords whose subschemas apply to the same value (in place): a cycle through them and
/// `$ref`s never reaches a smaller part of the value.
const IN_PLACE_ARRAYS: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const IN_PLACE_ONE: [&str; 4] = ["not", "if", "then", "else"];

/// The JSON Pointer of a `$ref` on a cycle of local `$ref`s and in-place applicators, if there
/// is one. An explicit-stack depth-first search over the schema's in-place graph.
fn regress(root: &Value) -> Option<String> {
    // Nodes are JSON Pointers into the schema; 0 = unseen, 1 = on the current path, 2 = done.
    let mut state: HashMap<String, u8> = HashMap::new();
    // (pointer, its successors, next successor to visit)
    let mut stack: Vec<(String, Vec<String>, usize)> = Vec::new();
    let mut starts = vec![String::new()];
    // Every subschema is a possible start: collect them all (bounded by the schema's size).
    let mut walk = vec![(String::new(), root)];
    while let Some((at, value)) = walk.pop() {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                    if v.is_object() {
                        starts.push(p.clone());
                    }
                    walk.push((p, v));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    let p = format!("{at}/{i}");
                    if v.is_object() {
                        starts.push(p.clone());
                    }
                    walk.push((p, v));
                }
            }
            _ => {}
        }
    }
    let successors = |at: &str| -> Vec<String> {
        let Some(Value::Object(map)) = root.pointer(at) else {
            return Vec::new();
        };
        let mut next = Vec::new();
        if let Some(Value::String(target)) = map.get("$ref")
            && let Some(fragment) = target.strip_prefix('#')
            && (fragment.is_empty() || fragment.starts_with('/'))
            && root.pointer(fragment).is_some()
        {
            next.push(fragment.to_owned());
        }
        for key in IN_PLACE_ARRAYS {
            if let Some(Value::Array(items)) = map.get(key) {
                next.extend((0..items.len()).map(|i| format!("{at}/{key}/{i}")));
            }
        }
        for key in IN_PLACE_ONE {
            if map.contains_key(key) {
                next.push(format!("{at}/{key}"));
            }
        }
        next
    };
    for start in starts {
        if state.get(&start).copied().unwrap_or(0) != 0 {
            continue;
        }
        state.insert(start.clone(), 1);
        let next = successors(&start);
        stack.push((start, next, 0));
        while let Some((at, next, i)) = stack.last_mut() {
            if *i == next.len() {
                state.insert(at.clone(), 2);
                stack.pop();
                continue;
            }
            let child = next[*i].clone();
            *i += 1;
            match state.get(&child).copied().unwrap_or(0) {
                1 => {
                    let at = if at.is_empty() { "/" } else { at.as_str() };
                    return Some(at.to_owned());
                }
                2 => {}
                _ => {
                    state.insert(child.clone(), 1);
                    let next = successors(&child);
                    stack.push((child, next, 0));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn why(schema: Value) -> String {
        match compile(Some(&schema), 128) {
            Compiled::Invalid(why) => why,
            _ => panic!("{schema} should be refused"),
        }
    }

    #[test]
    fn bad_schemas_are_refused_with_a_reason() {
        assert!(why(json!("string")).contains("object or a boolean"));
        assert!(why(json!({"$ref": "#"})).contains("$ref cycle"));
        assert!(
            why(json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}))
                .contains("$ref cycle")
        );
        assert!(
            why(json!({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}, "properties": {"x": {"$ref": "#/$defs/a"}}}))
                .contains("$ref cycle")
        );
        assert!(
            why(json!({"$ref": "https://example.com/s.json"})).contains("Retrieval is disabled")
        );
        assert!(why(json!({"type": 12})).contains("not a valid JSON Schema"));
        let big: Vec<String> = (0..40_000).map(|i| format!("value{i}")).collect();
        assert!(why(json!({"enum": big})).contains("larger than"));
        let mut deep = json!({"type": "object"});
        for _ in 0..200 {
            deep = json!({"properties": {"a": deep}});
        }
        assert!(why(deep).contains("deeper"));
    }

    #[test]
    fn each_tool_is_compiled_once_per_list() {
        let schemas = OutputSchemas::default();
        let def = json!({"name": "t", "outputSchema": {"type": "object"}});
        let ok = json!({"structuredContent": {}});
        for _ in 0..3 {
            let checked = schemas.check(OutputSchemaCheck::Fail, 1, "t", Some(&def), &ok, 128);
            assert!(matches!(checked, Ok(Checked::Keep)));
        }
        let first = schemas.lock().get(&(1, "t".to_owned())).cloned().unwrap();
        schemas
            .check(OutputSchemaCheck::Fail, 1, "t", Some(&def), &ok, 128)
            .unwrap();
        let again = schemas.lock().get(&(1, "t".to_owned())).cloned().unwrap();
        assert!(Arc::ptr_eq(&first, &again), "the compiled schema is reused");
        assert_eq!(schemas.lock().len(), 1);
        schemas.clear();
        assert!(schemas.lock().is_empty());
    }

    #[test]
    fn recursion_through_properties_is_not_a_cycle() {
        // A tree: each level is a smaller part of the value.
        let tree = json!({"$defs": {"node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
            "$ref": "#/$defs/node"});
        assert!(matches!(compile(Some(&tree), 128), Compiled::Valid(_)));
        assert!(matches!(compile(None, 128), Compiled::Absent));
        assert!(matches!(
            compile(Some(&json!(true)), 128),
            Compiled::Valid(_)
        ));
    }
}
