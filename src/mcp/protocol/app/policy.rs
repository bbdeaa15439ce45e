//! What an `McpApp` may ask its host for: tool calls (`allowedTools`) and catalog function calls
//! (`allowedFunctions`, each with the JSON Schema of its arguments).
//!
//! The schemas are checked with `jsonschema` when the crate's `json-schema` feature is on. Without
//! it the check fails closed: a listed function whose schema constrains anything is refused with
//! [`AppDenial::SchemaNotChecked`], never allowed unchecked; a schema that constrains nothing (`{}`,
//! or only annotations such as `title` and `description`) still allows any arguments.

use crate::error::{Error, ErrorCode};
use crate::json::{depth_exceeds, kind_name};
use serde_json::{Map, Value};

/// At most this many schema violations are reported for one function call.
#[cfg(feature = "json-schema")]
const MAX_REPORTED_VIOLATIONS: usize = 16;

/// An entry of `allowedFunctions`: a function name and the JSON Schema of its arguments,
/// compiled once when the component is parsed.
///
/// Schemas are JSON Schema 2020-12 unless they say otherwise with `$schema`. They cannot reach
/// outside themselves (no network or file `$ref`), their `pattern`s run on the linear-time
/// `regex` engine (no lookaround or backreferences, no catastrophic backtracking), `format` is
/// an annotation only. Their depth is bounded by the component's (checked by
/// [`McpAppProps::parse`](crate::mcp::app::McpAppProps::parse)).
///
/// The schema is compiled and checked only with the `json-schema` feature. Without it a schema
/// must still be an object, and a call to a function whose schema constrains its arguments is
/// refused ([`AppDenial::SchemaNotChecked`]): an unchecked call is never allowed.
#[derive(Debug, Clone)]
pub struct AllowedFunction {
    name: String,
    schema: Value,
    #[cfg(feature = "json-schema")]
    validator: jsonschema::Validator,
}

/// Keywords that annotate a schema without constraining what it accepts (JSON Schema's
/// meta-data vocabulary and `$comment`): a schema of these alone accepts any arguments, so it
/// needs no validator.
#[cfg(not(feature = "json-schema"))]
const ANNOTATIONS: [&str; 8] = [
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "$comment",
];

impl AllowedFunction {
    /// Compiles `schema`, or says why it is not a usable JSON Schema.
    pub(super) fn compile(name: &str, schema: &Value) -> Result<AllowedFunction, String> {
        if !schema.is_object() {
            return Err(format!(
                "the schema of '{name}' must be an object, got {}",
                kind_name(schema)
            ));
        }
        #[cfg(feature = "json-schema")]
        let validator = crate::json_schema::validator(schema)
            .map_err(|e| format!("the schema of '{name}' is not a valid JSON Schema: {e}"))?;
        Ok(AllowedFunction {
            name: name.to_owned(),
            schema: schema.clone(),
            #[cfg(feature = "json-schema")]
            validator,
        })
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The JSON Schema of its arguments, as the component gave it.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The ways `args` breaks the schema (at most 16), each with its location; empty when the
    /// arguments are valid.
    #[cfg(feature = "json-schema")]
    fn check(&self, args: &Value) -> Result<(), AppDenial> {
        let violations: Vec<String> = self
            .validator
            .iter_errors(args)
            .take(MAX_REPORTED_VIOLATIONS)
            .map(|e| {
                let at = e.instance_path().to_string();
                format!("{} at {}", e, if at.is_empty() { "/" } else { &at })
            })
            .collect();
        if violations.is_empty() {
            return Ok(());
        }
        Err(AppDenial::InvalidArguments {
            function: self.name.clone(),
            violations,
        })
    }

    /// Without a validator only a schema that constrains nothing lets a call through.
    #[cfg(not(feature = "json-schema"))]
    fn check(&self, _args: &Value) -> Result<(), AppDenial> {
        let constrains = self
            .schema
            .as_object()
            .is_none_or(|m| m.keys().any(|k| !ANNOTATIONS.contains(&k.as_str())));
        if constrains {
            return Err(AppDenial::SchemaNotChecked {
                function: self.name.clone(),
            });
        }
        Ok(())
    }
}

/// Why a request of the app is refused. The host answers the request with a JSON-RPC error
/// carrying [`AppDenial::message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppDenial {
    /// The tool is not in `allowedTools`.
    ToolNotAllowed {
        /// The tool the app asked for.
        tool: String,
    },
    /// The function is not in `allowedFunctions`.
    FunctionNotAllowed {
        /// The function the app asked for.
        function: String,
    },
    /// The arguments do not match the function's schema.
    InvalidArguments {
        /// The function the app asked for.
        function: String,
        /// Each violation, with its location in the arguments (at most 16).
        violations: Vec<String>,
    },
    /// The function's schema constrains its arguments, and the crate was built without its
    /// `json-schema` feature, so they cannot be checked: the call is refused rather than let
    /// through unchecked.
    SchemaNotChecked {
        /// The function the app asked for.
        function: String,
    },
}

impl AppDenial {
    /// A message for the app.
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::app::AppDenial;
    /// let denial = AppDenial::ToolNotAllowed { tool: "delete_all".into() };
    /// assert_eq!(denial.message(), "Tool 'delete_all' is not allowed by allowedTools");
    /// ```
    pub fn message(&self) -> String {
        match self {
            AppDenial::ToolNotAllowed { tool } => {
                format!("Tool '{tool}' is not allowed by allowedTools")
            }
            AppDenial::FunctionNotAllowed { function } => {
                format!("Function '{function}' is not allowed by allowedFunctions")
            }
            AppDenial::InvalidArguments {
                function,
                violations,
            } => format!(
                "Arguments of function '{function}' do not match its schema: {}",
                violations.join("; ")
            ),
            AppDenial::SchemaNotChecked { function } => format!(
                "Arguments of function '{function}' cannot be checked against its schema: \
                 the host was built without the `json-schema` feature of a2ui-catalog-mcp"
            ),
        }
    }
}

/// The outcome of checking an app's `tools/call` request against `allowedTools`.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCallDecision {
    /// Allowed: the host dispatches the A2UI action named after the tool, with the tool's
    /// arguments as its context (or, with a tool client, runs the tool).
    Allowed {
        /// The tool's name, which is the action's name.
        tool: String,
        /// The tool's arguments (`{}` when the request had none), the action's context.
        arguments: Map<String, Value>,
    },
    /// Refused.
    Denied(AppDenial),
}

/// The outcome of checking an app's `ui/requests/function-call` request against
/// `allowedFunctions`.
#[derive(Debug, Clone, PartialEq)]
pub enum FunctionCallDecision {
    /// Allowed: the host evaluates the function with these arguments.
    Allowed {
        /// The function's name (`call`).
        function: String,
        /// Its arguments (`args`; `{}` when the request had none).
        args: Map<String, Value>,
    },
    /// Refused.
    Denied(AppDenial),
}

fn malformed(message: String) -> Error {
    Error::new(ErrorCode::ValidationFailed, message)
}

/// The name member of a request's params: a non-empty string.
pub(super) fn request_name<'a>(
    params: &'a Value,
    member: &str,
    method: &str,
) -> Result<&'a str, Error> {
    let Some(params) = params.as_object() else {
        return Err(malformed(format!(
            "the params of a {method} request must be an object, got {}",
            kind_name(params)
        )));
    };
    match params.get(member) {
        Some(Value::String(name)) if !name.is_empty() => Ok(name),
        Some(Value::String(_)) => Err(malformed(format!(
            "the `{member}` of a {method} request must not be empty"
        ))
        .with_location(format!("/{member}"))),
        Some(other) => Err(malformed(format!(
            "the `{member}` of a {method} request must be a string, got {}",
            kind_name(other)
        ))
        .with_location(format!("/{member}"))),
        None => Err(malformed(format!("a {method} request needs a `{member}`"))),
    }
}

/// The arguments member of a request's params: an object, absent or `null` meaning `{}`, nested
/// at most `max_depth` deep.
pub(super) fn request_arguments(
    params: &Value,
    member: &str,
    method: &str,
    max_depth: usize,
) -> Result<Map<String, Value>, Error> {
    match params.get(member) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(value @ Value::Object(args)) => {
            if depth_exceeds(value, max_depth) {
                return Err(Error::new(
                    ErrorCode::LimitExceeded,
                    format!(
                        "the `{member}` of a {method} request nest deeper than the limit of \
                         {max_depth} levels"
                    ),
                )
                .with_location(format!("/{member}")));
            }
            Ok(args.clone())
        }
        Some(other) => Err(malformed(format!(
            "the `{member}` of a {method} request must be an object, got {}",
            kind_name(other)
        ))
        .with_location(format!("/{member}"))),
    }
}

/// Checks a function call's `args` against the allowed functions.
pub(super) fn decide_function_call(
    allowed: &[AllowedFunction],
    function: &str,
    args: Map<String, Value>,
) -> FunctionCallDecision {
    let Some(entry) = allowed.iter().find(|f| f.name == function) else {
        return FunctionCallDecision::Denied(AppDenial::FunctionNotAllowed {
            function: function.to_owned(),
        });
    };
    // The arguments are depth-checked and small; one copy keeps the decision's map owned.
    if let Err(denial) = entry.check(&Value::Object(args.clone())) {
        return FunctionCallDecision::Denied(denial);
    }
    FunctionCallDecision::Allowed {
        function: function.to_owned(),
        args,
    }
}
