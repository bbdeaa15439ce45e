//! The live resolution: each surface's resolved tree kept between messages, with what changed.
//!
//! With [`ProcessorOptions::live`](crate::surfaces::ProcessorOptions::live) set, the processor keeps, per
//! surface, the instances of the tree [`Surface::resolve`](crate::surfaces::Surface::resolve) would give, and after each message,
//! host write ([`Processor::write`](crate::surfaces::Processor::write), [`Processor::write_path`](crate::surfaces::Processor::write_path)) and data change made by other
//! means ([`Processor::refresh`](crate::surfaces::Processor::refresh)), it records what changed ([`Processor::take_changes`](crate::surfaces::Processor::take_changes)):
//! surfaces created and deleted, instances created and removed, and per instance the
//! properties whose resolved value changed.
//!
//! How a change finds what it reaches, without walking the tree:
//!
//! - a property of an instance in the root data context is registered in a [`PathIndex`](crate::reactive::PathIndex) with
//!   the paths it reads;
//! - a template is registered once, at its array's path. A change under row `i` goes to the
//!   instances of row `i` alone (their properties that read below the row are compared with
//!   the rest of the changed path), so a one-row edit costs the row, not the list; a change at
//!   or above the array re-reads its length, keeps rows by position (an appended, inserted or
//!   removed item leaves the rows before it untouched), and re-evaluates what the rows read;
//! - an instance inside a row registers only the absolute paths it reads.
//!
//! A bare binding (`{"path": P}`) is read in the model, never evaluated: it keeps a copy of a
//! scalar value (to tell an equal write from a change) and nothing of an object or array (a
//! change that reaches it is reported, with nothing copied or compared). A computed value is
//! evaluated again and reported when it differs ([`json_eq`](crate::reactive::json_eq)). An `action` is not a reactive
//! property: its context is evaluated when the user activates it.
//!
//! A value that calls a tool is pending; each computation of it starts a [`ToolRun`](crate::surfaces::ToolRun) for the
//! host ([`Processor::take_tool_runs`](crate::surfaces::Processor::take_tool_runs)), whose result ([`Processor::finish_tool_run`](crate::surfaces::Processor::finish_tool_run)) is
//! reported as a change of the property, unless a later run superseded it.
//!
//! Trees are built and dropped with explicit work lists (no recursion), bounded by the
//! [`ResolveLimits`](crate::surfaces::ResolveLimits) of the options: a template longer than `max_template_items` makes its
//! instance `failed` with `LIMIT_EXCEEDED`, and past `max_nodes` instances no more are made.

mod changes;
mod processor;
mod tree;
mod view;

pub(crate) use changes::Journal;
pub use changes::{Changes, SurfaceChanges};
pub(crate) use tree::{LiveTree, Totals};
pub use view::{LiveNode, LiveView};
