//! A2UI message streams: what an agent sends, checked message by message.
//!
//! A stream is a JSON array of messages, or messages one after another: JSON lines (one message
//! a line) when the first message fits on its line, else JSON values separated by whitespace
//! (pretty-printed objects). In JSON lines, a line that is not JSON is one bad message and the
//! next line is read. Messages of A2UI v0.9 (with or without
//! `"version"`), v0.10 and v1.0 are read:
//!
//! There is one judge of A2UI messages in the crate: the surfaces processor
//! ([`crate::surfaces::Processor`]). A check runs each message through a processor on the
//! environment in the mode that lists every problem instead of stopping at the first
//! ([`Processor::check`](crate::surfaces::Processor::check)), so what a check reports is what a
//! renderer's processor refuses, in the same words, with the same pointers; the processor keeps
//! the surfaces the stream builds, and what the stream leaves is judged at its end
//! ([`StreamChecker::finish`]). What is judged, message by message:
//!
//! | message | what is checked |
//! |---|---|
//! | `createSurface` | `surfaceId` (new, or deleted before); `catalogId`, the surface's default catalog, registered in the [`Environment`](crate::Environment) (required before v1.0; a v1.0 surface without one has no default catalog, and its calls name theirs); v1.0's inline `components` as in `updateComponents` |
//! | `updateComponents` | the surface was created; every component has a string `id` and `component`; it is checked against its catalog's component schema when one is registered; every dynamic value in its properties, `checks`, `accessibility` and actions compiles with the surface's catalogs, each value's every problem listed; the graph (duplicate ids, cycles; in strict mode dangling children, orphans, `root`) |
//! | `updateDataModel` | the surface was created; `path`, when given, is a JSON Pointer; v1.0 gives `value` |
//! | `deleteSurface` | `surfaceId` |
//! | `callRendererFunction` (`callFunction`) | `functionCallId` is given; the call compiles as the agent's (it belongs to no surface: v1.0 names its `catalogId`, the older message may use the environment's default catalog); it is judged, not run |
//! | `agentFunctionResponse` (`actionResponse`) | it can be read |
//!
//! A `createSurface` naming a catalog the environment does not have is one problem, at its
//! `catalogId`, and the surface is judged on (its calls relying on that catalog are not
//! reported again); a refused `createSurface` still leaves its surface for the check to judge
//! the later messages against. Data (`updateDataModel`'s `value`, `createSurface`'s
//! `dataModel`) is not compiled: what it holds is data.
//!
//! Bindings and calls are read as the processor reads them: v1.0 messages in both spellings,
//! one per surface ([`Surface::spelling`](crate::surfaces::Surface::spelling)): a surface whose
//! values are written with `@` reads a plain-shaped object as a literal (warned at its location,
//! in [`Report::warnings`]), a surface written only in the plain spelling
//! reads it as a binding or a call, and a plain surface given `@` values is warned about once;
//! earlier versions in the environment's [`Spelling`](crate::Spelling)
//! ([`ProcessorOptions::earlier_spelling`](crate::surfaces::ProcessorOptions::earlier_spelling)):
//! in the `@` spelling each plain-shaped value is a literal and a warning, with the `@` form to
//! write. A stream that
//! writes v1.0's `version` both as `"1.0"` and `"v1.0"`, or a component's envelope keys both
//! with and without `@`, is warned about once. Warnings never make the check fail.
//!
//! Every problem is reported with its location: the message's index in the stream and a JSON
//! Pointer inside the message (each the crate's [`Error`](crate::Error), its
//! [`message_index`](crate::Error::message_index) and [`location`](crate::Error::location)). A message that is not A2UI (no known message key,
//! a missing `surfaceId`, an update for a surface never created) is a problem of its own; one
//! bad message never hides the problems of the others, and one message that cannot be read
//! (malformed, larger than [`StreamOptions::max_message_bytes`], nested deeper than the
//! environment's depth limit allows) is one `VALIDATION_FAILED` or `LIMIT_EXCEEDED` problem.
//!
//! ```
//! use a2ui_catalog_mcp::{Environment, ErrorCode, messages};
//!
//! let env = Environment::new();
//! let stream = r#"[
//!   {"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json"}},
//!   {"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
//!     {"id": "root", "component": "Text", "text": {"@call": "split", "args": {"value": {"@path": "/csv"}}}}
//!   ]}},
//!   {"version": "v1.0", "updateDataModel": {"surfaceId": "t", "value": {}}}
//! ]"#;
//! let report = messages::check_stream(&env, stream);
//! assert_eq!(report.message_count(), 3);
//! let problems: Vec<String> = report.problems().iter().map(|p| p.to_string()).collect();
//! assert_eq!(problems, [
//!     "message 1 at /updateComponents/components/0/text: VALIDATION_FAILED in split: 'split' requires the argument 'separator'",
//!     "message 2 at /updateDataModel/surfaceId: VALIDATION_FAILED: Surface not found: 't' was never created (no createSurface before this message)",
//! ]);
//! ```

mod checker;
mod read;
mod report;

#[cfg(test)]
mod tests;

pub use checker::{StreamChecker, check_messages, check_stream, check_stream_with};
pub use read::{MESSAGE_KINDS, StreamOptions, StreamText, VERSIONS, is_stream, read_stream};
pub use report::Report;
