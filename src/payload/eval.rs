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
use crate::catalog::{Args, CallContext};
use crate::error::{Error, ErrorCode};
use crate::limits::Limits;
use crate::model::{DataModel, Write};
use crate::path::{DataPath, JsonPointer};
use serde_json::{Map, Value};
use std::borrow::Cow;

static NULL: Value = Value::Null;

/// A value on its way up.
enum Val<'p> {
    Owned(Value),
    /// A literal of the payload.
    Const(&'p Value),
    /// The value at a data model path, not read yet.
    Bound(Cow<'p, JsonPointer>),
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
        }
    }

    /// Runs the program to its value.
    pub(crate) fn run<M: DataModel + ?Sized>(&mut self, model: &mut M) -> Result<Value, Error> {
        let mut next = self.program.root;
        loop {
            let mut val = match self.program.node(next) {
                Node::Const(v) => Val::Const(v),
                Node::Bind(path) => self.bind(path),
                _ if self.program.arity(next) == 0 => self.finish(
                    Frame {
                        node: next,
                        vals: Vec::new(),
                    },
                    model,
                )?,
                _ => {
                    self.stack.push(Frame {
                        node: next,
                        vals: Vec::with_capacity(self.program.arity(next)),
                    });
                    next = self.program.child(next, 0);
                    continue;
                }
            };
            // Hand the value to its parent; complete every parent that is now complete.
            loop {
                let Some(top) = self.stack.last_mut() else {
                    return Ok(self.materialize(val, model));
                };
                top.vals.push(val);
                let done = top.vals.len();
                if done < self.program.arity(top.node) {
                    next = self.program.child(top.node, done);
                    break;
                }
                let frame = self.stack.pop().expect("the top frame exists");
                val = self.finish(frame, model)?;
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
        }
    }

    fn finish<M: DataModel + ?Sized>(
        &mut self,
        frame: Frame<'p>,
        model: &mut M,
    ) -> Result<Val<'p>, Error> {
        let program = self.program;
        match program.node(frame.node) {
            Node::Array(_) => {
                let items = frame
                    .vals
                    .into_iter()
                    .map(|v| self.materialize(v, model))
                    .collect();
                Ok(Val::Owned(Value::Array(items)))
            }
            Node::Object(members) => {
                let mut map = Map::with_capacity(members.len());
                for ((key, _), v) in members.iter().zip(frame.vals) {
                    map.insert(key.clone(), self.materialize(v, model));
                }
                Ok(Val::Owned(Value::Object(map)))
            }
            Node::Call(call) => self.call(call, frame.vals, model).map(Val::Owned),
            Node::Const(_) | Node::Bind(_) => unreachable!("leaves have no frames"),
        }
    }

    fn call<M: DataModel + ?Sized>(
        &mut self,
        call: &'p CallNode,
        vals: Vec<Val<'p>>,
        model: &mut M,
    ) -> Result<Value, Error> {
        let mut cx = CallContext {
            limits: self.limits,
            prepared: call.prepared.as_deref(),
            writes: Vec::new(),
        };
        let result = {
            let shared: &M = model;
            let mut values: Vec<Option<Cow<'_, Value>>> = vec![None; call.schema.len()];
            for ((slot, _), val) in call.args.iter().zip(vals) {
                if let Some(slot) = slot {
                    values[*slot] = Some(match val {
                        Val::Owned(v) => Cow::Owned(v),
                        Val::Const(v) => Cow::Borrowed(v),
                        Val::Bound(p) => shared.read(&p).unwrap_or(Cow::Borrowed(&NULL)),
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
        Ok(result)
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
        for frame in &mut self.stack {
            for val in &mut frame.vals {
                if let Val::Bound(p) = val {
                    *val = Val::Owned(read(&*model, p));
                }
            }
        }
        model
            .apply(resolved, self.limits.max_index)
            .map_err(|e| e.at_call(&call.name, &call.location))
    }
}
