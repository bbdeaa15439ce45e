//! The evaluator: runs a [`Program`] against a data model, innermost first, siblings in
//! document order (engine.md §2).
//!
//! It is a machine with an explicit stack of frames rather than a recursive walk, so that an
//! evaluation can stop at any call and resume later: the asynchronous path (tool calls) drives
//! the same machine, suspending where a call must wait.
//!
//! Values move up the stack as [`Val`]s. A binding is kept as the path it names until a
//! consumer needs it: a function argument then borrows the value from the data model (no
//! copy), a literal array or object copies it in. Before a write, bindings still waiting on the
//! stack are read, so they see the model as it was when they were evaluated.

use super::program::{CallNode, Node, NodeId, Program};
use crate::catalog::{ArgValue, Args, CallContext};
use crate::error::{Error, ErrorCode};
use crate::limits::Limits;
use crate::mcp::ToolResponse;
use crate::model::{DataModel, Write};
use crate::path::{DataPath, JsonPointer};
use crate::slices::Slices;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

static NULL: Value = Value::Null;

/// A value on its way up.
enum Val<'p> {
    Owned(Value),
    /// A literal of the payload.
    Const(&'p Value),
    /// The value at a data model path, not read yet.
    Bound(Cow<'p, JsonPointer>),
    /// A tool's response object, in its fast form.
    Response(Arc<ToolResponse>),
    /// A built-in function's strings, cut out of one shared text.
    Slices(Arc<Slices>),
}

/// What the machine does next.
enum Next<'p> {
    Enter(NodeId),
    Deliver(Val<'p>),
}

enum Finished<'p> {
    Val(Val<'p>),
    Tool(ToolRequest<'p>),
}

/// Why [`Machine::run`] returned.
pub(crate) enum Step<'p> {
    /// The payload's value.
    Done(Value),
    /// A tool call to run before [`Machine::resume`].
    Tool(ToolRequest<'p>),
}

/// A tool call whose arguments are evaluated: the call node, and the values by declared slot.
pub(crate) struct ToolRequest<'p> {
    pub(crate) call: &'p CallNode,
    pub(crate) args: Vec<Option<Value>>,
}

impl ToolRequest<'_> {
    /// The evaluated argument `name` (`None` when absent).
    pub(crate) fn take(&mut self, name: &str) -> Option<Value> {
        self.call
            .schema
            .slot(name)
            .and_then(|slot| self.args[slot].take())
    }
}

struct Frame<'p> {
    node: NodeId,
    vals: Vec<Val<'p>>,
}

pub(crate) struct Machine<'p> {
    program: &'p Program,
    limits: &'p Limits,
    context: &'p JsonPointer,
    stack: Vec<Frame<'p>>,
    next: Option<Next<'p>>,
}

fn read<M: DataModel + ?Sized>(model: &M, path: &JsonPointer) -> Value {
    model.read(path).map_or(Value::Null, Cow::into_owned)
}

impl<'p> Machine<'p> {
    pub(crate) fn new(
        program: &'p Program,
        limits: &'p Limits,
        context: &'p JsonPointer,
    ) -> Machine<'p> {
        Machine {
            program,
            limits,
            context,
            stack: Vec::new(),
            next: None,
        }
    }

    /// Runs the program until it has its value, or, when `suspend_at_tools` is set, until it
    /// reaches a tool call: the caller then runs the call and hands its value to
    /// [`resume`](Machine::resume). Without `suspend_at_tools`, a tool call runs its catalog
    /// function like any other (which fails: no tool client is configured).
    pub(crate) fn run<M: DataModel + ?Sized>(
        &mut self,
        model: &mut M,
        suspend_at_tools: bool,
    ) -> Result<Step<'p>, Error> {
        let mut next = self.next.take().unwrap_or(Next::Enter(self.program.root));
        loop {
            next = match next {
                Next::Enter(id) => match self.program.node(id) {
                    Node::Const(v) => Next::Deliver(Val::Const(v)),
                    Node::Bind(path) => Next::Deliver(self.bind(path)),
                    _ if self.program.arity(id) == 0 => {
                        match self.finish(
                            Frame {
                                node: id,
                                vals: Vec::new(),
                            },
                            model,
                            suspend_at_tools,
                        )? {
                            Finished::Val(v) => Next::Deliver(v),
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
                        return Ok(Step::Done(self.materialize(val, model)));
                    };
                    top.vals.push(val);
                    let done = top.vals.len();
                    if done < self.program.arity(top.node) {
                        Next::Enter(self.program.child(top.node, done))
                    } else {
                        let frame = self.stack.pop().expect("the top frame exists");
                        match self.finish(frame, model, suspend_at_tools)? {
                            Finished::Val(v) => Next::Deliver(v),
                            Finished::Tool(request) => return Ok(Step::Tool(request)),
                        }
                    }
                }
            };
        }
    }

    /// Continues after a tool call, with the call's value.
    pub(crate) fn resume(&mut self, response: Arc<ToolResponse>) {
        self.next = Some(Next::Deliver(Val::Response(response)));
    }

    /// Reads every binding still waiting on the stack, so that it keeps the value it has now
    /// (before a write, or before the model is released while a tool call runs).
    pub(crate) fn snapshot_bindings<M: DataModel + ?Sized>(&mut self, model: &M) {
        for frame in &mut self.stack {
            for val in &mut frame.vals {
                if let Val::Bound(p) = val {
                    *val = Val::Owned(read(model, p));
                }
            }
        }
    }

    fn bind(&self, path: &'p DataPath) -> Val<'p> {
        let pointer = path.resolve_cow(self.context);
        if pointer.has_forbidden_token() {
            // JavaScript renderers cannot read these; every renderer reads them as null.
            return Val::Owned(Value::Null);
        }
        Val::Bound(pointer)
    }

    fn materialize<M: DataModel + ?Sized>(&self, val: Val<'p>, model: &M) -> Value {
        match val {
            Val::Owned(v) => v,
            Val::Const(v) => v.clone(),
            Val::Bound(p) => read(model, &p),
            Val::Response(r) => {
                Arc::try_unwrap(r).map_or_else(|r| r.value().clone(), ToolResponse::into_value)
            }
            Val::Slices(s) => {
                Arc::try_unwrap(s).map_or_else(|s| s.value().clone(), Slices::into_value)
            }
        }
    }

    fn finish<M: DataModel + ?Sized>(
        &mut self,
        frame: Frame<'p>,
        model: &mut M,
        suspend_at_tools: bool,
    ) -> Result<Finished<'p>, Error> {
        let program = self.program;
        match program.node(frame.node) {
            Node::Array(_) => {
                let items = frame
                    .vals
                    .into_iter()
                    .map(|v| self.materialize(v, model))
                    .collect();
                Ok(Finished::Val(Val::Owned(Value::Array(items))))
            }
            Node::Object(members) => {
                let mut map = Map::with_capacity(members.len());
                for ((key, _), v) in members.iter().zip(frame.vals) {
                    map.insert(key.clone(), self.materialize(v, model));
                }
                Ok(Finished::Val(Val::Owned(Value::Object(map))))
            }
            Node::Call(call) if call.tool && suspend_at_tools => {
                let mut args = vec![None; call.schema.len()];
                for ((slot, _), val) in call.args.iter().zip(frame.vals) {
                    if let Some(slot) = slot {
                        args[*slot] = Some(self.materialize(val, model));
                    }
                }
                // The model is released while the tool runs: bindings keep today's values.
                self.snapshot_bindings(model);
                Ok(Finished::Tool(ToolRequest { call, args }))
            }
            Node::Call(call) => self.call(call, frame.vals, model).map(Finished::Val),
            Node::Const(_) | Node::Bind(_) => unreachable!("leaves have no frames"),
        }
    }

    fn call<M: DataModel + ?Sized>(
        &mut self,
        call: &'p CallNode,
        vals: Vec<Val<'p>>,
        model: &mut M,
    ) -> Result<Val<'p>, Error> {
        let mut cx = CallContext {
            limits: self.limits,
            context: self.context,
            prepared: call.prepared.as_deref(),
            writes: Vec::new(),
            slices: None,
        };
        let result = {
            let shared: &M = model;
            let mut values: Vec<Option<ArgValue<'_>>> =
                (0..call.schema.len()).map(|_| None).collect();
            for ((slot, _), val) in call.args.iter().zip(vals) {
                if let Some(slot) = slot {
                    values[*slot] = Some(match val {
                        Val::Owned(v) => ArgValue::Json(Cow::Owned(v)),
                        Val::Const(v) => ArgValue::Json(Cow::Borrowed(v)),
                        Val::Bound(p) => {
                            ArgValue::Json(shared.read(&p).unwrap_or(Cow::Borrowed(&NULL)))
                        }
                        Val::Response(r) => ArgValue::Response(r),
                        Val::Slices(s) => ArgValue::Slices(s),
                    });
                }
            }
            let mut args = Args {
                schema: &call.schema,
                values,
            };
            call.function.call(&mut args, &mut cx)
        }
        .map_err(|e| e.at_call(&call.name, &call.location))?;
        if !cx.writes.is_empty() {
            self.write(call, cx.writes, model)?;
        }
        Ok(match cx.slices {
            Some(slices) => Val::Slices(slices),
            None => Val::Owned(result),
        })
    }

    /// Resolves and checks every path, then applies the writes all or nothing.
    fn write<M: DataModel + ?Sized>(
        &mut self,
        call: &CallNode,
        writes: Vec<(String, Value)>,
        model: &mut M,
    ) -> Result<(), Error> {
        let mut resolved = Vec::with_capacity(writes.len());
        for (path, value) in writes {
            let pointer = DataPath::parse(&path)
                .map_err(|e| e.at_call(&call.name, &call.location))?
                .resolve(self.context);
            if pointer.has_forbidden_token() {
                let err = Error::new(
                    ErrorCode::DataError,
                    format!(
                        "cannot write '{path}': the tokens __proto__, constructor and prototype are reserved"
                    ),
                );
                return Err(err.at_call(&call.name, &call.location));
            }
            resolved.push(Write {
                path: pointer,
                value,
            });
        }
        // Bindings already evaluated keep the value they had before this write.
        self.snapshot_bindings(model);
        model
            .apply(resolved, self.limits.max_index)
            .map_err(|e| e.at_call(&call.name, &call.location))
    }
}
