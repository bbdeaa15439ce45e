//! The evaluator: runs a [`Program`] against a data model, innermost first (every argument
//! before its function), siblings in document order; when a node fails, nothing above it runs.
//!
//! It is a machine with an explicit stack of frames rather than a recursive walk, so that an
//! evaluation can stop at any call and resume later: the asynchronous path (tool calls) drives
//! the same machine, suspending where a call must wait.
//!
//! Values move up the stack as [`Operand`]s. A binding is kept as the path it names until a
//! consumer needs it: a function argument then borrows the value from the data model (no
//! copy), a literal array or object copies it in. Before a write, bindings still waiting on the
//! stack are read, so they see the model as it was when they were evaluated.

use super::program::{CallNode, Node, NodeId, Program};
use crate::catalog::{Args, CallContext, ModelReader, ToolCall};
use crate::error::{Error, ErrorCode};
use crate::limits::{EvalBudget, Limits};
use crate::model::{DataModel, Write, check_write_depth, padding_bound};
use crate::origin::Origin;
use crate::path::{DataPath, JsonPointer, write_target};
use crate::value::{ArgValue, ToolResponse};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

static NULL: Value = Value::Null;

/// A value on its way up.
enum Operand<'p> {
    /// A value (a literal of the payload is lent).
    Ready(ArgValue<'p>),
    /// The value at a data model path, not read yet.
    Bound(Cow<'p, JsonPointer>),
}

/// What the machine does next.
enum Next<'p> {
    Enter(NodeId),
    Deliver(Operand<'p>),
}

enum Finished<'p> {
    Operand(Operand<'p>),
    Tool(ToolRequest<'p>),
}

/// Why [`Machine::run`] returned.
pub(crate) enum Step<'p> {
    /// The payload's value.
    Done(Value),
    /// A tool call to run before [`Machine::resume`].
    Tool(ToolRequest<'p>),
}

/// A tool call a function asked for, with the function's name and location for errors.
pub(crate) struct ToolRequest<'p> {
    pub(crate) function: &'p str,
    pub(crate) location: &'p str,
    pub(crate) call: ToolCall,
}

struct Frame<'p> {
    node: NodeId,
    vals: Vec<Operand<'p>>,
}

pub(crate) struct Machine<'p> {
    program: &'p Program,
    limits: &'p Limits,
    context: &'p JsonPointer,
    origin: Origin,
    stack: Vec<Frame<'p>>,
    next: Option<Next<'p>>,
    /// What the rest of the evaluation may spend, all its calls together (or, shared, all
    /// the evaluations of one surface message).
    budget: Budget<'p>,
}

/// An evaluation's own budget, or one shared with other evaluations.
enum Budget<'p> {
    Own(EvalBudget),
    Shared(&'p EvalBudget),
}

impl std::ops::Deref for Budget<'_> {
    type Target = EvalBudget;
    fn deref(&self) -> &EvalBudget {
        match self {
            Budget::Own(b) => b,
            Budget::Shared(b) => b,
        }
    }
}

/// Refuses (`LIMIT_EXCEEDED`) a value read from the model at `path` that nests deeper than
/// `max_depth`. Writes made for untrusted input never nest deeper than the limit; a host may
/// still keep a deeper model, and copying, comparing or dropping such a value would recurse.
fn check_read(value: &Value, path: &JsonPointer, max_depth: usize) -> Result<(), Error> {
    if crate::json::depth_exceeds(value, max_depth) {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "the value at '{path}' nests deeper than the limit of {max_depth} levels \
                 (Limits::max_depth)"
            ),
        ));
    }
    Ok(())
}

/// A copy of the value at `path`, `null` when nothing is there; deeper than `max_depth` is
/// `LIMIT_EXCEEDED` (see [`check_read`]).
fn read<M: DataModel + ?Sized>(
    model: &M,
    path: &JsonPointer,
    max_depth: usize,
    budget: &EvalBudget,
) -> Result<Value, Error> {
    let what = || format!("the copy of the value at '{path}'");
    match model.read(path) {
        None => Ok(Value::Null),
        Some(Cow::Owned(value)) => {
            if let Err(e) = check_read(&value, path, max_depth)
                .and_then(|()| budget.spend_copy(&value, &what()))
            {
                crate::json::drop_deep(value);
                return Err(e);
            }
            Ok(value)
        }
        Some(Cow::Borrowed(value)) => {
            check_read(value, path, max_depth)?;
            budget.spend_copy(value, &what())?;
            Ok(value.clone())
        }
    }
}

impl<'p> Machine<'p> {
    pub(crate) fn new(
        program: &'p Program,
        limits: &'p Limits,
        context: &'p JsonPointer,
        origin: Origin,
    ) -> Machine<'p> {
        Machine {
            program,
            limits,
            context,
            origin,
            stack: Vec::new(),
            next: None,
            budget: Budget::Own(EvalBudget::new(limits)),
        }
    }

    /// Spends from `budget`, shared with other evaluations, instead of a budget of its own.
    pub(crate) fn within(mut self, budget: &'p EvalBudget) -> Machine<'p> {
        self.budget = Budget::Shared(budget);
        self
    }

    /// What the rest of the evaluation may spend (a tool call's write charges its padding).
    pub(crate) fn budget(&self) -> &EvalBudget {
        &self.budget
    }

    /// Runs the program until it has its value, or, when `tools` is set, until a function asks
    /// for a tool call: the caller then runs the call and hands its value to
    /// [`resume`](Machine::resume). Without `tools`, a function that asks for one fails (no
    /// tool client is configured).
    pub(crate) fn run<M: DataModel + ?Sized>(
        &mut self,
        model: &mut M,
        tools: bool,
    ) -> Result<Step<'p>, Error> {
        let mut next = self.next.take().unwrap_or(Next::Enter(self.program.root));
        loop {
            next = match next {
                Next::Enter(id) => match self.budget.step().map(|()| self.program.node(id))? {
                    Node::Const(v) => {
                        Next::Deliver(Operand::Ready(ArgValue::Json(Cow::Borrowed(v))))
                    }
                    Node::Bind(path) => Next::Deliver(self.bind(path)),
                    _ if self.program.arity(id) == 0 => {
                        match self.finish(
                            Frame {
                                node: id,
                                vals: Vec::new(),
                            },
                            model,
                            tools,
                        )? {
                            Finished::Operand(v) => Next::Deliver(v),
                            Finished::Tool(request) => return Ok(Step::Tool(request)),
                        }
                    }
                    _ => {
                        self.stack.push(Frame {
                            node: id,
                            vals: Vec::with_capacity(self.program.arity(id)),
                        });
                        Next::Enter(self.program.child(id, 0))
                    }
                },
                Next::Deliver(val) => {
                    let Some(top) = self.stack.last_mut() else {
                        return Ok(Step::Done(self.materialize(val, model)?));
                    };
                    top.vals.push(val);
                    let done = top.vals.len();
                    if done < self.program.arity(top.node) {
                        Next::Enter(self.program.child(top.node, done))
                    } else {
                        let frame = self.stack.pop().expect("the top frame exists");
                        match self.finish(frame, model, tools)? {
                            Finished::Operand(v) => Next::Deliver(v),
                            Finished::Tool(request) => return Ok(Step::Tool(request)),
                        }
                    }
                }
            };
        }
    }

    /// Continues after a tool call, with the call's value.
    pub(crate) fn resume(&mut self, response: Arc<ToolResponse>) {
        self.next = Some(Next::Deliver(Operand::Ready(ArgValue::Response(response))));
    }

    /// Reads every binding still waiting on the stack, so that it keeps the value it has now
    /// (before a write, or before the model is released while a tool call runs).
    pub(crate) fn snapshot_bindings<M: DataModel + ?Sized>(
        &mut self,
        model: &M,
    ) -> Result<(), Error> {
        let max_depth = self.limits.max_depth;
        let budget = &*self.budget;
        for frame in &mut self.stack {
            for val in &mut frame.vals {
                if let Operand::Bound(p) = val {
                    *val = Operand::Ready(ArgValue::Json(Cow::Owned(read(
                        model, p, max_depth, budget,
                    )?)));
                }
            }
        }
        Ok(())
    }

    fn bind(&self, path: &'p DataPath) -> Operand<'p> {
        let pointer = path.resolve_cow(self.context);
        if pointer.has_forbidden_token() {
            // JavaScript renderers cannot read these; every renderer reads them as null.
            return Operand::Ready(ArgValue::Json(Cow::Owned(Value::Null)));
        }
        Operand::Bound(pointer)
    }

    fn materialize<M: DataModel + ?Sized>(
        &self,
        val: Operand<'p>,
        model: &M,
    ) -> Result<Value, Error> {
        match val {
            Operand::Ready(v) => Ok(v.into_json().into_owned()),
            Operand::Bound(p) => read(model, &p, self.limits.max_depth, &self.budget),
        }
    }

    fn finish<M: DataModel + ?Sized>(
        &mut self,
        frame: Frame<'p>,
        model: &mut M,
        tools: bool,
    ) -> Result<Finished<'p>, Error> {
        let program = self.program;
        match program.node(frame.node) {
            Node::Array(_) => {
                let items = frame
                    .vals
                    .into_iter()
                    .map(|v| self.materialize(v, model))
                    .collect::<Result<_, _>>()?;
                Ok(Finished::Operand(Operand::Ready(ArgValue::Json(
                    Cow::Owned(Value::Array(items)),
                ))))
            }
            Node::Object(members) => {
                let mut map = Map::with_capacity(members.len());
                for ((key, _), v) in members.iter().zip(frame.vals) {
                    map.insert(key.clone(), self.materialize(v, model)?);
                }
                Ok(Finished::Operand(Operand::Ready(ArgValue::Json(
                    Cow::Owned(Value::Object(map)),
                ))))
            }
            Node::Call(call) => self.call(call, frame.vals, model, tools),
            Node::Const(_) | Node::Bind(_) => unreachable!("leaves have no frames"),
        }
    }

    fn call<M: DataModel + ?Sized>(
        &mut self,
        call: &'p CallNode,
        vals: Vec<Operand<'p>>,
        model: &mut M,
        tools: bool,
    ) -> Result<Finished<'p>, Error> {
        // What the catalog declares holds whatever the host's policy says: the function does
        // not run, and nothing above it does either.
        if let Some((denial, why)) = call.access.refusal(self.origin) {
            return Err(Error::new(
                ErrorCode::ExpressionError,
                format!("function '{}' may not be called here: {why}", call.name),
            )
            .with_denial(denial)
            .at_call(&call.name, &call.location));
        }
        // The function reads the model through its context while its arguments borrow from it;
        // what it asks for (writes, a tool call, shared text) is taken out before writing.
        let (result, writes, tool_call, text) = {
            let shared: &M = model;
            let reader = ModelReader(shared);
            let mut cx =
                CallContext::new(self.limits, self.context, call.prepared.as_deref(), tools)
                    .with_origin(self.origin)
                    .reading(&reader)
                    .within(&self.budget);
            let mut values: Vec<Option<ArgValue<'_>>> =
                (0..call.schema.len()).map(|_| None).collect();
            for ((slot, _), val) in call.args.iter().zip(vals) {
                if let Some(slot) = slot {
                    values[*slot] = Some(match val {
                        Operand::Ready(v) => v,
                        Operand::Bound(p) => {
                            let value = shared.read(&p).unwrap_or(Cow::Borrowed(&NULL));
                            // A function may copy its argument (updateDataModel's values).
                            check_read(&value, &p, self.limits.max_depth)
                                .map_err(|e| e.at_call(&call.name, &call.location))?;
                            ArgValue::Json(value)
                        }
                    });
                }
            }
            let mut args = Args {
                schema: &call.schema,
                values,
            };
            let result = call.function.call(&mut args, &mut cx);
            (result, cx.writes, cx.tool_call, cx.text)
        };
        let result = result.map_err(|e| e.at_call(&call.name, &call.location))?;
        if !writes.is_empty() {
            self.write(call, writes, model)?;
        }
        if let Some(tool_call) = tool_call {
            // The model is released while the tool runs: bindings keep today's values.
            self.snapshot_bindings(model)?;
            return Ok(Finished::Tool(ToolRequest {
                function: &call.name,
                location: &call.location,
                call: tool_call,
            }));
        }
        let value = match text {
            Some(text) => ArgValue::Text(text),
            None => ArgValue::Json(Cow::Owned(result)),
        };
        Ok(Finished::Operand(Operand::Ready(value)))
    }

    /// Resolves and checks every path, then applies the writes all or nothing.
    fn write<M: DataModel + ?Sized>(
        &mut self,
        call: &CallNode,
        writes: Vec<(String, Value)>,
        model: &mut M,
    ) -> Result<(), Error> {
        let located = |e: Error| e.at_call(&call.name, &call.location);
        let max_depth = self.limits.max_depth;
        let mut resolved = Vec::with_capacity(writes.len());
        for (path, value) in writes {
            let pointer = write_target(&path, self.context, max_depth).map_err(located)?;
            let write = Write {
                path: pointer,
                value,
            };
            check_write_depth(&write, max_depth).map_err(located)?;
            resolved.push(write);
        }
        // The nulls the writes may pad arrays with are charged before any is made.
        let padding = padding_bound(&*model, &resolved);
        self.budget
            .spend_items(padding, &format!("padding arrays with {padding} nulls"))
            .map_err(located)?;
        // Bindings already evaluated keep the value they had before this write.
        self.snapshot_bindings(model)?;
        model
            .apply(resolved, self.limits.max_index)
            .map_err(located)
    }
}
