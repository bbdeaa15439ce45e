//! What a catalog document declares of one function, and what a call of it is checked against.

#[cfg(feature = "json-schema")]
use super::literal;
use crate::catalog::args::ArgSchema;
use crate::error::{Error, ErrorCode};
use crate::origin::Access;
use serde_json::{Map, Value};

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
/// the reference implementation, so [`Catalog::mcp`](crate::Catalog::mcp) does not validate their literal arguments
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
    pub(super) catalog: String,
    pub(super) name: String,
    pub(super) access: Access,
    pub(super) return_type: Option<String>,
    pub(super) args_schema: Value,
    pub(super) arguments: ArgSchema,
    #[cfg(feature = "json-schema")]
    pub(super) validator: Option<jsonschema::Validator>,
    /// Whether every compile validates literal arguments with `validator`; otherwise (the
    /// built-in functions, which check their own arguments by the reference's rules) only a
    /// compile asking for the catalogs' schemas does ([`Environment::set_schema_checks`]).
    ///
    /// [`Environment::set_schema_checks`]: crate::Environment::with_schema_checks
    #[cfg(feature = "json-schema")]
    pub(super) always: bool,
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
    /// the environment asks for it ([`Environment::set_schema_checks`](crate::Environment::with_schema_checks)).
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
            literal::check(
                &self.name,
                validator,
                args,
                location,
                max_depth,
                &mut errors,
            );
        }
        #[cfg(not(feature = "json-schema"))]
        let _ = (max_depth, schema_checks);
        errors
    }
}

/// Whether a call's `returnType` agrees with the declared one.
pub(super) fn return_types_match(wanted: &str, declared: &str) -> bool {
    let is_array = |t: &str| t == "array" || t.ends_with("[]");
    wanted == declared
        || wanted == "any"
        || declared == "any"
        || (wanted == "array" && is_array(declared))
        || (declared == "array" && is_array(wanted))
}
