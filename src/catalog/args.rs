//! The arguments a function declares, and the ones a call gives it: literal at compile time,
//! evaluated when it runs.

use crate::error::{Error, ErrorCode};
use crate::limits::Limits;
use crate::value::{ArgValue, ArgView};
use serde_json::Value;
use std::borrow::Cow;

/// The arguments a function declares: which exist, which are required, whether others may be
/// passed.
///
/// ```
/// use a2ui_catalog_mcp::functions::ArgSchema;
/// let schema = ArgSchema::new().required("value").optional("separator");
/// assert_eq!(schema.names().collect::<Vec<_>>(), ["value", "separator"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgSchema {
    names: Vec<String>,
    required: Vec<bool>,
    additional: bool,
}

impl ArgSchema {
    /// No arguments; undeclared ones are rejected.
    pub fn new() -> ArgSchema {
        ArgSchema::default()
    }

    /// Declares a required argument.
    pub fn required(mut self, name: impl Into<String>) -> ArgSchema {
        self.names.push(name.into());
        self.required.push(true);
        self
    }

    /// Declares an optional argument.
    pub fn optional(mut self, name: impl Into<String>) -> ArgSchema {
        self.names.push(name.into());
        self.required.push(false);
        self
    }

    /// Accepts undeclared arguments too (JSON Schema `additionalProperties: true`). They are
    /// evaluated but not passed to the function.
    pub fn allow_additional(mut self) -> ArgSchema {
        self.additional = true;
        self
    }

    /// Reads a function's entry of a catalog schema: `properties.args` with its `properties`,
    /// `required` and `additionalProperties` (default `true`, as in JSON Schema).
    ///
    /// ```
    /// use a2ui_catalog_mcp::functions::ArgSchema;
    /// use serde_json::json;
    /// let schema = ArgSchema::from_function_schema(&json!({
    ///     "properties": {"args": {"properties": {"value": {}}, "required": ["value"],
    ///                             "additionalProperties": false}}
    /// })).unwrap();
    /// assert_eq!(schema, ArgSchema::new().required("value"));
    /// ```
    pub fn from_function_schema(schema: &Value) -> Result<ArgSchema, Error> {
        let invalid = |why: &str| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("invalid function schema: {why}"),
            )
        };
        let args = schema
            .pointer("/properties/args")
            .ok_or_else(|| invalid("no properties.args"))?;
        let properties = match args.get("properties") {
            None => &serde_json::Map::new(),
            Some(Value::Object(map)) => map,
            Some(_) => return Err(invalid("properties.args.properties is not an object")),
        };
        let required: Vec<&str> = match args.get("required") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| invalid("required holds a non-string"))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(invalid("properties.args.required is not an array")),
        };
        let mut out = ArgSchema::new();
        for name in properties.keys() {
            out = if required.contains(&name.as_str()) {
                out.required(name)
            } else {
                out.optional(name)
            };
        }
        if let Some(missing) = required.iter().find(|r| !properties.contains_key(**r)) {
            out = out.required(*missing);
        }
        out.additional = !matches!(args.get("additionalProperties"), Some(Value::Bool(false)));
        Ok(out)
    }

    /// The declared argument names, in declaration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The slot of a declared argument.
    pub(crate) fn slot(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub(crate) fn is_required(&self, slot: usize) -> bool {
        self.required[slot]
    }

    pub(crate) fn accepts_additional(&self) -> bool {
        self.additional
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }
}

/// What a function's argument is when the payload is compiled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StaticArg<'a> {
    /// Not passed.
    Absent,
    /// A literal, known now.
    Literal(&'a Value),
    /// A binding or a call: known only when the payload runs.
    Dynamic,
}

/// A call site's arguments at compile time, for [`Function::prepare`](crate::catalog::Function::prepare).
pub struct StaticArgs<'a> {
    pub(crate) schema: &'a ArgSchema,
    pub(crate) args: Vec<StaticArg<'a>>,
    pub(crate) limits: &'a Limits,
    /// The slots whose literal [`Function::expand`](crate::catalog::Function::expand) replaced.
    pub(crate) expanded: Vec<bool>,
}

impl std::fmt::Debug for StaticArgs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.schema.names().zip(&self.args))
            .finish()
    }
}

impl<'a> StaticArgs<'a> {
    /// A declared argument (`Absent` for an undeclared name too).
    pub fn get(&self, name: &str) -> StaticArg<'a> {
        self.schema
            .slot(name)
            .map_or(StaticArg::Absent, |slot| self.args[slot])
    }

    /// The limits the payload is compiled with (the JMESPath limits, for one).
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Whether [`Function::expand`](crate::catalog::Function::expand) replaced this argument's literal with a payload (the
    /// argument then reads as [`StaticArg::Dynamic`], and the call receives the expansion's
    /// value).
    pub fn is_expanded(&self, name: &str) -> bool {
        self.schema
            .slot(name)
            .is_some_and(|slot| self.expanded.get(slot).copied().unwrap_or(false))
    }
}

/// A call's evaluated arguments, by declared name.
///
/// Values read through a binding are lent by the data model, not copied.
pub struct Args<'a> {
    pub(crate) schema: &'a ArgSchema,
    pub(crate) values: Vec<Option<ArgValue<'a>>>,
}

impl std::fmt::Debug for Args<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let passed = self.schema.names().zip(&self.values);
        f.debug_map()
            .entries(passed.filter_map(|(name, v)| Some((name, v.as_ref()?.json()))))
            .finish()
    }
}

static NULL: Value = Value::Null;

impl<'a> Args<'a> {
    fn slot(&self, name: &str) -> Option<&ArgValue<'a>> {
        self.values[self.schema.slot(name)?].as_ref()
    }

    /// The argument's value, `None` when it was not passed.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.slot(name).map(ArgValue::json)
    }

    /// The argument's value, `null` when it was not passed.
    pub fn value_or_null(&self, name: &str) -> &Value {
        self.get(name).unwrap_or(&NULL)
    }

    /// Takes the argument out: owned values move, lent ones stay borrowed.
    pub fn take(&mut self, name: &str) -> Option<Cow<'a, Value>> {
        let slot = self.schema.slot(name)?;
        self.values[slot].take().map(ArgValue::into_json)
    }

    /// Takes the argument out if it is a string the call owns (a previous call's result), and
    /// leaves it in place otherwise.
    pub(crate) fn take_owned_string(&mut self, name: &str) -> Option<String> {
        let slot = self.values.get_mut(self.schema.slot(name)?)?;
        if !matches!(slot, Some(ArgValue::Json(Cow::Owned(Value::String(_))))) {
            return None;
        }
        match slot.take() {
            Some(ArgValue::Json(Cow::Owned(Value::String(text)))) => Some(text),
            _ => None,
        }
    }

    /// The argument in whichever form it has (`None` when it was not passed).
    pub(crate) fn view(&self, name: &str) -> Option<ArgView<'_>> {
        self.slot(name).map(ArgValue::view)
    }
}
