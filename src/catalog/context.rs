//! What a running function reaches besides its arguments: the data model, its writes, the
//! tool it calls, the evaluation's budget and origin.

use crate::error::{Error, ErrorCode};
use crate::limits::{EvalBudget, Limits};
use crate::model::DataModel;
use crate::origin::Origin;
use crate::path::{DataPath, JsonPointer};
use crate::value::SharedText;
use serde_json::Value;
use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

/// A request to call an MCP tool, which a tool function (`callMcpTool`) hands to the
/// evaluation with [`CallContext::call_tool`]; the evaluation runs it with the host's client.
pub(crate) struct ToolCall {
    /// The tool's name, not empty.
    pub(crate) name: String,
    /// The arguments, an object.
    pub(crate) arguments: Value,
    /// Where to write the response object: a path (absolute, or relative to the data context),
    /// not empty.
    pub(crate) target: Option<String>,
}

/// What a tool function's [`Function::prepare`](crate::catalog::Function::prepare) returns for a call site whose tool name is a
/// literal, so that the compiled payload can list the tools it calls
/// ([`Payload::tool_names`](crate::Payload::tool_names)).
pub(crate) struct LiteralToolName(pub(crate) String);

/// Read access to the data model for a running function, whatever the model's type.
pub(crate) trait ReadModel {
    fn read_at(&self, path: &JsonPointer) -> Option<Cow<'_, Value>>;
}

/// A data model lent to [`CallContext::read`].
pub(crate) struct ModelReader<'m, M: ?Sized>(pub(crate) &'m M);

impl<M: DataModel + ?Sized> ReadModel for ModelReader<'_, M> {
    fn read_at(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        self.0.read(path)
    }
}

/// What a running function can reach besides its arguments.
pub struct CallContext<'a> {
    pub(crate) limits: &'a Limits,
    /// The data model as it is when the function runs.
    pub(crate) model: Option<&'a dyn ReadModel>,
    pub(crate) context: &'a JsonPointer,
    pub(crate) prepared: Option<&'a (dyn Any + Send + Sync)>,
    pub(crate) writes: Vec<(String, Value)>,
    /// A built-in function's result as shared text, which then stands for the returned value.
    pub(crate) text: Option<Arc<SharedText>>,
    /// Whether the evaluation can run tool calls (it is asynchronous, with a host).
    pub(crate) tools: bool,
    /// The tool call the function asked for, which then stands for its value.
    pub(crate) tool_call: Option<ToolCall>,
    /// What the evaluation may still spend, shared by all its calls (none outside one).
    pub(crate) budget: Option<&'a EvalBudget>,
    /// Why the evaluation runs.
    pub(crate) origin: Origin,
}

impl std::fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("origin", &self.origin)
            .field("data_context", &self.context)
            .field("writes", &self.writes)
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl<'a> CallContext<'a> {
    pub(crate) fn new(
        limits: &'a Limits,
        context: &'a JsonPointer,
        prepared: Option<&'a (dyn Any + Send + Sync)>,
        tools: bool,
    ) -> CallContext<'a> {
        CallContext {
            limits,
            model: None,
            context,
            prepared,
            writes: Vec::new(),
            text: None,
            tools,
            tool_call: None,
            budget: None,
            origin: Origin::Binding,
        }
    }

    /// The same context for an evaluation of this origin.
    pub(crate) fn with_origin(mut self, origin: Origin) -> CallContext<'a> {
        self.origin = origin;
        self
    }

    /// Why the evaluation runs: a binding, a user's action, an MCP App or the agent (see
    /// [`Origin`]). The engine has already refused calls the function's
    /// [`Access`](crate::functions::Access) does not admit; a function may decide more from it (an
    /// "open this URL" function that asks first when there was no tap).
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Lends the data model to the function (see [`read`](CallContext::read)).
    pub(crate) fn reading(mut self, model: &'a dyn ReadModel) -> CallContext<'a> {
        self.model = Some(model);
        self
    }

    /// Charges what the function spends to its evaluation's `budget`.
    pub(crate) fn within(mut self, budget: &'a EvalBudget) -> CallContext<'a> {
        self.budget = Some(budget);
        self
    }

    /// Charges `n` values the function is about to create to the evaluation's budget
    /// ([`Limits::max_eval_items`]), or refuses them (`LIMIT_EXCEEDED`); `what` names them.
    pub(crate) fn spend_items(&self, n: usize, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_items(n as u64, what),
            None => Ok(()),
        }
    }

    /// Charges `n` bytes of text or values the function is about to make to the evaluation's
    /// budget ([`Limits::max_eval_bytes`]), or refuses them (`LIMIT_EXCEEDED`).
    // Only the basic catalog's formatString makes text this way today.
    #[cfg_attr(not(feature = "basic-catalog"), allow(dead_code))]
    pub(crate) fn spend_bytes(&self, n: usize, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_bytes(n as u64, what),
            None => Ok(()),
        }
    }

    /// Charges a copy of `value` the function is about to make, or refuses it.
    // Only the basic catalog's formatString makes text this way today.
    #[cfg_attr(not(feature = "basic-catalog"), allow(dead_code))]
    pub(crate) fn spend_copy(&self, value: &Value, what: &str) -> Result<(), Error> {
        match self.budget {
            Some(budget) => budget.spend_copy(value, what),
            None => Ok(()),
        }
    }

    /// The environment's limits (output size, index, JMESPath, caches).
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Reads the data model at `path`, written as a binding writes it: absolute (`/order/total`),
    /// or relative to the [data context](CallContext::data_context) (`name`; `""` is the
    /// context itself). The model is read as it is when the function runs: writes this call
    /// queued are not applied yet. `Ok(None)` when nothing is there (and for the tokens
    /// `__proto__`, `constructor` and `prototype`, which read as nothing everywhere); a
    /// malformed path is a `DATA_ERROR`.
    ///
    /// A function that reads the model should declare what it reads with [`Function::reads`](crate::catalog::Function::reads),
    /// so that [`Payload::dependencies`](crate::Payload::dependencies) stays exact.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Args, CallContext, Catalog, Environment, Error, Function, JsonPointer, functions::ArgSchema};
    /// use serde_json::{json, Value};
    ///
    /// /// `{"@call": "greeting"}`: "Hello, " and the `name` of the data context.
    /// struct Greeting;
    /// impl Function for Greeting {
    ///     fn call(&self, _args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
    ///         let name = cx.read("name")?.map(|v| v.as_str().unwrap_or("").to_owned());
    ///         Ok(Value::from(format!("Hello, {}", name.unwrap_or_default())))
    ///     }
    /// }
    /// let mut env = Environment::new();
    /// env.catalog_mut(a2ui_catalog_mcp::MCP_CATALOG_ID).unwrap().add_function("greeting", ArgSchema::new(), Greeting);
    /// let payload = env.compile(&json!({"@call": "greeting"}))?;
    /// let mut model = json!({"people": [{"name": "Ada"}]});
    /// assert_eq!(payload.eval_in(&mut model, &JsonPointer::parse("/people/0")?)?, json!("Hello, Ada"));
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn read(&self, path: &str) -> Result<Option<Cow<'_, Value>>, Error> {
        let pointer = DataPath::parse(path)?.resolve(self.context);
        if pointer.has_forbidden_token() {
            return Ok(None);
        }
        Ok(self.model.and_then(|model| model.read_at(&pointer)))
    }

    /// The data context the payload is evaluated in: relative paths join it, and inside a list
    /// template it ends with the item's array index (`/rows/2`).
    pub fn data_context(&self) -> &JsonPointer {
        self.context
    }

    /// Whether [`call_tool`](CallContext::call_tool) can run a tool in this evaluation.
    pub(crate) fn can_call_tools(&self) -> bool {
        self.tools
    }

    /// Makes the call's value the response of a tool call, which the evaluation runs once the
    /// function returns (what the function returns is then ignored).
    pub(crate) fn call_tool(&mut self, call: ToolCall) -> Value {
        self.tool_call = Some(call);
        Value::Null
    }

    /// What [`Function::prepare`](crate::catalog::Function::prepare) returned for this call site, if it is a `T`.
    pub fn prepared<T: 'static>(&self) -> Option<&T> {
        self.prepared.and_then(|p| p.downcast_ref())
    }

    /// Queues a write of `value` at `path` (absolute, or relative to the data context). The
    /// queued writes are checked and applied together, all or nothing, after the call returns.
    pub fn write(&mut self, path: impl Into<String>, value: Value) {
        self.writes.push((path.into(), value));
    }

    /// Makes `text` the call's value (for the built-in functions; what they return is then
    /// ignored).
    pub(crate) fn return_text(&mut self, text: SharedText) -> Value {
        self.text = Some(Arc::new(text));
        Value::Null
    }

    /// Fails with `LIMIT_EXCEEDED` when an output of `items` items and `bytes` bytes of text is
    /// over the limits.
    pub fn check_output(&self, items: usize, bytes: usize) -> Result<(), Error> {
        let (limits, over) = (self.limits, |what: String| {
            Err(Error::new(
                ErrorCode::LimitExceeded,
                format!("the output has more than {what}"),
            ))
        });
        if items > limits.max_output_items {
            return over(format!("{} items", limits.max_output_items));
        }
        if bytes > limits.max_output_bytes {
            return over(format!("{} bytes of text", limits.max_output_bytes));
        }
        Ok(())
    }
}
