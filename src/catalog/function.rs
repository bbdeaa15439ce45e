//! The trait a catalog knows its functions by.

use super::args::{Args, StaticArgs};
use super::context::CallContext;
use crate::error::Error;
use crate::limits::Limits;
use serde_json::Value;
use std::any::Any;

/// State a function computed from a call site's literal arguments at compile time (a compiled
/// JMESPath expression, a compiled pattern), handed back on every call.
pub type Prepared = Box<dyn Any + Send + Sync>;

/// A catalog function.
///
/// Most functions only need [`call`](Function::call); a closure
/// `Fn(&Args) -> Result<Value, Error>` is a `Function` too.
pub trait Function: Send + Sync + 'static {
    /// Looks at one call site when the payload is compiled: rejects literal arguments that can
    /// never work, and prepares what can be prepared once. The default accepts everything. An
    /// error located relative to the call (`args/decimals`, no leading `/`) is reported at that
    /// argument; one without a location at the call.
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        let _ = args;
        Ok(None)
    }

    /// Runs the function on evaluated arguments. Writes to the data model go through
    /// [`CallContext::write`]; they are applied, all or nothing, when the call returns `Ok`.
    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error>;

    /// Whether a call site may write to the data model (through [`CallContext::write`], or as
    /// a tool call with a target), judged from its literal arguments when the payload is
    /// compiled. A function that writes must say so: [`Payload::may_write`](crate::Payload::may_write)
    /// reports the payloads that call one. The default is `false` (closures cannot write).
    fn may_write(&self, args: &StaticArgs<'_>) -> bool {
        let _ = args;
        false
    }

    /// The data model paths a call site reads by itself through [`CallContext::read`] (what it
    /// reads through its arguments' bindings is known already), judged from its literal
    /// arguments when the payload is compiled. They join the payload's
    /// [`dependencies`](crate::Payload::dependencies), so that a renderer recomputes the value
    /// when one of them changes. A function that cannot tell (its template is dynamic) says
    /// [`Reads::Everything`]: the value then depends on the whole model. The default is no path
    /// (a function that does not read the model).
    fn reads(&self, args: &StaticArgs<'_>) -> Reads {
        let _ = args;
        Reads::Paths(Vec::new())
    }

    /// Expands a literal argument into a payload that the compiler compiles in its place, so
    /// that a small language inside a string (the basic catalog's `formatString` templates)
    /// becomes ordinary bindings and calls: its paths are exact
    /// [`dependencies`](crate::Payload::dependencies), its calls are resolved and checked like
    /// any other, and a tool called inside it is a tool call of the payload. `arg` is the
    /// argument's name, `literal` its value in the payload (never a binding or a call).
    ///
    /// `Ok(None)` (the default) keeps the literal. An error is a compile-time problem at the
    /// argument. The function then receives the expansion's evaluated value instead of the
    /// literal, and [`StaticArgs::is_expanded`] tells [`prepare`](Function::prepare) so. The
    /// expansion is not expanded again (a call inside it whose argument is a literal keeps that
    /// literal), so expansion never recurses; errors inside it are located under the
    /// argument's pointer, in the expansion's own structure.
    fn expand(&self, arg: &str, literal: &Value, limits: &Limits) -> Result<Option<Value>, Error> {
        let _ = (arg, literal, limits);
        Ok(None)
    }
}

/// What a call site reads from the data model by itself ([`Function::reads`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reads {
    /// These paths, written as a binding writes them: absolute (`/order/total`), or relative to
    /// the data context (`name`, `""` for the context itself).
    Paths(Vec<String>),
    /// Anything: the value depends on the whole model (the root, `/`).
    Everything,
}

impl Default for Reads {
    fn default() -> Reads {
        Reads::Paths(Vec::new())
    }
}

impl<F> Function for F
where
    F: Fn(&Args<'_>) -> Result<Value, Error> + Send + Sync + 'static,
{
    fn call(&self, args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
        self(args)
    }
}
