//! Payloads: A2UI dynamic values compiled once ([`Environment::compile`]) and evaluated many
//! times ([`Payload::eval`]).
//!
//! The compiler receives what it compiles against (a [`Scope`]), not the environment, and the
//! evaluator is a machine that stops where a function asks for a tool call: the MCP layer
//! drives it for [`Payload::eval_async`] through the one operation of a [`ToolHost`].
//!
//! [`Environment::compile`]: crate::Environment::compile

mod compile;
mod compiled;
mod deps;
mod eval;
mod eval_async;
mod eval_sync;
mod program;
mod resumable;
mod tool_names;

pub use compiled::Payload;
pub use eval_async::ToolHost;
pub use tool_names::ToolNames;

pub(crate) use compile::{Scope, SiteCatalog, Walk};
pub(crate) use compiled::{compile, compile_walked};
pub(crate) use eval_async::{Answer, CallScope, sealed};
pub(crate) use resumable::{PendingCall, Progress, Resumable};

#[cfg(test)]
pub(crate) mod tests;
