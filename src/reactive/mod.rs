//! Reactive evaluation for renderers: what a value reads, what a write changed, which values
//! to recompute.
//!
//! A renderer binds many component properties to compiled payloads. Instead of evaluating every
//! binding after every change, it
//!
//! 1. asks each compiled payload which data model paths it reads in its data context
//!    ([`Payload::dependencies`](crate::Payload::dependencies)),
//! 2. registers those paths under a key of its own choosing in a [`PathIndex`],
//! 3. collects the paths each write changed in a [`ChangeSet`] (one per frame or per message
//!    batch): a [`TrackedModel`] wrapped around its store records every write applied to it,
//!    by payloads and by the host alike ([`TrackedModel::set`] for a two-way bound field,
//!    [`TrackedModel::apply_message`] for an A2UI `updateDataModel` message), and
//!    [`Payload::eval_tracked`](crate::Payload::eval_tracked) records one evaluation's writes
//!    into a model the host keeps unwrapped,
//! 4. asks the index which keys the change set affects ([`PathIndex::affected`]), and evaluates
//!    only those again, read-only ([`Payload::eval_read`](crate::Payload::eval_read)), redrawing
//!    only the values that changed ([`json_eq`]).
//!
//! [`Bindings`] does 2 and 4 in one: register each bound property with its payload and context,
//! call [`Bindings::refresh`] once per frame, redraw the keys it returns. Values that call a
//! tool are recomputed the same way, asynchronously: they become pending, run on the renderer's
//! executor ([`BindingRun`]), and a newer run supersedes an older one ([`Runs`], which also serves
//! actions such as a search run on every keystroke).
//!
//! # Changes
//!
//! An evaluation that writes reports the absolute paths it wrote, in the order written, each
//! once. Only writes that happened are reported: a chain that fails writes nothing (its group is
//! rolled back or never applied), a tool call superseded by a later call to the same
//! `targetDataPath` does not write, nor does an evaluation dropped while its call was pending.
//! Writing `null` is a write. Replacing the whole model is a change of the root, `/`. Removing
//! an object member is a change of that member; removing an array element shifts the elements
//! after it, so it is a change of the array.
//!
//! # The affects rule
//!
//! A change at `P` affects a dependency `D` when `D` equals `P`, when `D` lies under `P` (the
//! write replaced what `D` reads), or when `P` lies under `D` (`D` reads a subtree the write
//! changed). Paths compare by tokens, not by characters: `/ab` is not under `/a`, and `/a~1b`
//! (the single token `a/b`) is not under `/a`. The root is above every path: a change of the
//! whole model affects every dependency, and a dependency on the whole model is affected by
//! every change. See [`affects`].
//!
//! ```
//! use a2ui_catalog_mcp::{Environment, JsonPointer};
//! use a2ui_catalog_mcp::reactive::{ChangeSet, PathIndex};
//! use serde_json::json;
//!
//! let env = Environment::new();
//! let title = env.compile(&json!({"@path": "/title"}))?;
//! let row_name = env.compile(&json!({"@path": "name"}))?;
//!
//! // Register each bound property under a key the renderer chooses.
//! let mut index: PathIndex<String> = PathIndex::new();
//! index.register("title".into(), &title.dependencies(&JsonPointer::root()));
//! for i in 0..3 {
//!     let row = JsonPointer::parse(&format!("/rows/{i}"))?;
//!     index.register(format!("row {i}"), &row_name.dependencies(&row));
//! }
//!
//! // A keystroke edits row 1; the agent replaces the title.
//! let mut changes = ChangeSet::new();
//! changes.record(JsonPointer::parse("/rows/1/name")?);
//! changes.record(JsonPointer::parse("/title")?);
//! let mut keys = index.affected(&changes);
//! keys.sort();
//! assert_eq!(keys, ["row 1", "title"]);
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```

mod bindings;
mod change_set;
mod equal;
mod index;
mod relation;
mod runs;
mod tracked;

#[cfg(all(doctest, feature = "testing"))]
mod guide;

pub use bindings::{BindingDone, BindingRun, Bindings, Change, RowChanges, ValueState};
pub use change_set::{ChangeSet, ChangeSetIntoIter, ChangeSetIter};
pub use equal::json_eq;
pub use index::PathIndex;
pub use relation::affects;
pub use runs::{Run, Runs, Ticket};
pub use tracked::TrackedModel;

#[cfg(test)]
mod tests;
