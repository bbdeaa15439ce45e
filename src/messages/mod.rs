//! A2UI message streams: what an agent sends, checked message by message.
//!
//! A stream is a JSON array of messages, or messages one after another: JSON lines (one message
//! a line) when the first message fits on its line, else JSON values separated by whitespace
//! (pretty-printed objects). In JSON lines, a line that is not JSON is one bad message and the
//! next line is read. Messages of A2UI v0.9 (with or without
//! `"version"`), v0.10 and v1.0 are read:
//!
//! | message | what is checked |
//! |---|---|
//! | `createSurface` | `surfaceId` (new, or deleted before); `catalogId`, the surface's default catalog, registered in the [`Environment`] (required before v1.0; without it, the environment's default catalog); v1.0's inline `components` as in `updateComponents` |
//! | `updateComponents` | the surface was created; every component has a string `id` and `component`; every dynamic value in its properties, `checks` and actions compiles with the surface's catalogs (for a surface that is not known, only the calls that name their `catalogId`, and the bindings) |
//! | `updateDataModel` | the surface was created; `path`, when given, is a JSON Pointer |
//! | `deleteSurface` | the surface was created |
//! | `callFunction` | `functionCallId` is given; the call (`{"@call": …, "args": …}`, or `{"call": …}` in the plain spelling, with v0.10's `callableFrom` set aside) compiles; it belongs to no surface, so without its own `catalogId` the environment's default catalog is used |
//! | `actionResponse` | nothing more |
//!
//! A component is compiled as one payload through [`Environment::compile`], with the surface's
//! catalog as default catalog: every binding and call in it, however deep, is found, and a call
//! with its own `catalogId` uses that catalog. When the surface's catalog is not registered,
//! that is reported once, at its `createSurface`, not at every call relying on it. Data (`updateDataModel`'s `value`,
//! `createSurface`'s `dataModel`) is not compiled: what it holds is data.
//!
//! Bindings and calls are read in the environment's [`Spelling`](crate::Spelling): in the `@`
//! spelling a value written in the plain one (`{"path": …}`, `{"call": …}`, as the A2UI
//! specification writes them) compiles as a literal and is reported as a warning
//! ([`StreamWarning`], in [`Report::warnings`]), with the `@` form to write; a `callFunction`
//! whose body is such a call too. v1.0 messages are read in both spellings, one per surface,
//! as the processor reads them ([`Surface::spelling`](crate::surfaces::Surface::spelling)): a
//! surface whose values are written with `@` reads a plain-shaped object as a literal (warned
//! at its location), a surface written only in the plain spelling reads it as a binding or a
//! call, and a plain surface given `@` values is warned about once. Warnings never make the
//! check fail.
//!
//! Every problem is reported with its location: the message's index in the stream and a JSON
//! Pointer inside the message ([`Problem`]). A message that is not A2UI (no known message key,
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
//!     "message 2 at /updateDataModel/surfaceId: VALIDATION_FAILED: surface 't' was never created (no createSurface before this message)",
//! ]);
//! ```

mod checker;
mod read;
mod report;

#[cfg(test)]
mod tests;

pub use checker::{StreamChecker, check_messages, check_stream, check_stream_with};
pub use read::{MESSAGE_KINDS, StreamOptions, StreamText, VERSIONS, is_stream, read_stream};
pub use report::{Problem, Report, StreamWarning};
